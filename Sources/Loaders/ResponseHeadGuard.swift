internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTP2
internal import NIOHTTPCompression

/// Looks at each response head before AsyncHTTPClient reads it. A status below 100 fails the request: the client takes
/// such a head for an informational one, ignores it, and traps on the end of the message that follows; the request
/// fails with `StatusBelow100` and the connection closes. A 204 that declares a body (which it cannot have, RFC 9110
/// section 15.3.5) ends its connection: the bytes such a server sends after the head would be read as the next
/// response on that connection. The HTTP/1 head gets `Connection: close`, which is how the client learns not to reuse it.
final class ResponseHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    /// A response's status below 100, which no HTTP status is.
    struct StatusBelow100: Error, CustomStringConvertible {
        let code: Int
        var description: String { "its status \(code < 10 ? "00" : "0")\(code) is not an HTTP status (those are 100 to 999)" }
    }

    /// Whether this connection's response was refused: nothing more of it is passed on.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if head.status.code < 100 {
            refused = true
            context.fireErrorCaught(StatusBelow100(code: Int(head.status.code)))
            context.close(promise: nil)
            return
        }
        if head.status == .noContent, head.version.major == 1, Self.declaresBody(head.headers) {
            head.headers.add(name: "Connection", value: "close")
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        context.fireChannelRead(data)
    }

    /// Whether `headers` announce body bytes: a `Transfer-Encoding`, or a `Content-Length` other than 0.
    private static func declaresBody(_ headers: HTTPHeaders) -> Bool {
        headers.contains(name: "Transfer-Encoding") || headers["Content-Length"].contains { $0 != "0" }
    }

    /// Puts a guard right after an HTTP/1.1 connection's response decoder, before the client reads what it decodes, a
    /// `KeptConnectionWatch` after it, and an `EmptyEncodedBodyGuard` right after its decompressor; a connection without
    /// the decoder or the decompressor (another client version) is left without what goes after it rather than failed.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        install(on: channel, after: ByteToMessageHandler<HTTPResponseDecoder>.self, watchingReuse: true)
    }

    /// Puts the guards on an HTTP/2 stream, the first right after its translation to HTTP/1 parts, as `install(on:)`
    /// does on a connection (a stream is never reused: no `KeptConnectionWatch`).
    @Sendable static func installOnStream(_ channel: any Channel) -> EventLoopFuture<Void> {
        install(on: channel, after: HTTP2FramePayloadToHTTP1ClientCodec.self, watchingReuse: false)
    }

    /// Puts a guard after the handler of type `decoder` in `channel`'s pipeline (and, `watchingReuse`, a
    /// `KeptConnectionWatch` after it), and one after its decompressor, when it has them.
    private static func install<Decoder: ChannelHandler>(on channel: any Channel, after decoder: Decoder.Type,
                                                         watchingReuse: Bool) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            if let handler = try? pipeline.handler(type: decoder) {
                let guarded = ResponseHeadGuard()
                try pipeline.addHandler(guarded, position: .after(handler))
                if watchingReuse { try pipeline.addHandler(KeptConnectionWatch(), position: .after(guarded)) }
            }
            if let decompressor = try? pipeline.handler(type: NIOHTTPResponseDecompressor.self) {
                try pipeline.addHandler(EmptyEncodedBodyGuard(), position: .after(decompressor))
            }
        }
    }
}
