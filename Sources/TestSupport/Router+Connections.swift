internal import LoopbackHTTP
internal import NIOCore
internal import NIOHTTP1

/// Routes that end or limit the connection itself, for tests of a client's keep-alive pool.
extension Router {
    /// `/drop/{key}/{count}`: the first `count` requests for `key` close the connection without an answer;
    /// later ones get 200 `{"attempts": n}`. With `?unclean=1` a TLS connection closes without its close_notify alert,
    /// as a server that drops its socket does.
    func drop(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard rest.count == 2, let drops = Int(rest[1]) else {
            return badRequest("key and drop count expected", writer)
        }
        let attempt = state.nextAttempt(for: "drop:" + rest[0])
        if attempt <= drops {
            if request.query("unclean") != nil {
                // Over cleartext the socket refuses the event (nothing handles it): it closes as usual.
                writer.channel.triggerUserOutboundEvent(UncleanClose.Request()).whenFailure { _ in writer.closeConnection() }
            } else {
                writer.closeConnection()
            }
        } else {
            writer.sendJSON(.ok, ["attempts": attempt])
        }
    }

    /// `/linger/{ms}`: a complete keep-alive 200 response, then nothing more is read from the connection, which closes
    /// `ms` milliseconds later, unanswered requests in it or not (a server that serves one request per connection and
    /// never says so).
    func linger(_ rest: [String], _ writer: ResponseWriter) {
        let channel = writer.channel
        writer.sendJSON(.ok, ["lingering": true])
        channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in
            channel.eventLoop.scheduleTask(in: .milliseconds(Int64(rest.first ?? "") ?? 100)) { channel.close(promise: nil) }
        }
    }

    /// `/close-after`: a complete 200 response saying `Connection: close` (whatever the request asked), then the
    /// connection closes.
    func closeAfter(_ writer: ResponseWriter) {
        let body = Array("closing".utf8)
        sendRaw(HTTPResponseHead(version: .http1_1, status: .ok,
                                 headers: ["Connection": "close", "Content-Length": String(body.count)]),
                body: body, closing: true, writer)
    }

    /// `/http10`: an HTTP/1.0 200 response without a Connection header (so not keep-alive), the connection
    /// left open.
    func http10(_ writer: ResponseWriter) {
        let body = Array("old".utf8)
        sendRaw(HTTPResponseHead(version: .http1_0, status: .ok, headers: ["Content-Length": String(body.count)]),
                body: body, closing: false, writer)
    }

    /// Writes `head` as given (no Connection header added) and `body`, then closes the connection when `closing`.
    private func sendRaw(_ head: HTTPResponseHead, body: [UInt8], closing: Bool, _ writer: ResponseWriter) {
        let channel = writer.channel
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: body))), promise: nil)
        let ended = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        if closing { ended.whenComplete { _ in channel.close(promise: nil) } }
    }
}

/// The first handler of a TLS test server's connection: on `Request`, it closes the socket itself, so the client sees
/// the connection end without TLS's close_notify (an "unclean shutdown"), as from a server that drops its socket.
final class UncleanClose: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = Any

    /// Asks for the unclean close.
    struct Request: Sendable {}

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is Request else { return context.triggerUserOutboundEvent(event, promise: promise) }
        context.close(promise: promise)
    }
}
