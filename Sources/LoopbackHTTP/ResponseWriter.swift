public import NIOCore
public import NIOHTTP1

/// Writes one HTTP response on a connection: whole, streamed, chunked, delayed or cut short.
public struct ResponseWriter: Sendable {
    /// The connection the response goes to.
    public let channel: any Channel
    /// Whether the connection stays open after this response.
    public let keepAlive: Bool
    /// Whether the request was HEAD, so body bytes must not be sent.
    public let omitsBody: Bool

    /// Sends a complete response with a Content-Length body.
    public func send(
        _ status: HTTPResponseStatus,
        headers: [(String, String)] = [],
        contentType: String? = "text/plain; charset=utf-8",
        body: [UInt8]
    ) {
        var allHeaders = headers
        if let contentType, !body.isEmpty {
            allHeaders.append(("Content-Type", contentType))
        }
        allHeaders.append(("Content-Length", String(body.count)))
        writeHead(status, headers: allHeaders)
        if !body.isEmpty {
            writeBody(body)
        }
        finish()
    }

    /// Sends a complete response whose body is `object` serialised as JSON.
    public func sendJSON(_ status: HTTPResponseStatus = .ok, headers: [(String, String)] = [], _ object: Any) {
        send(status, headers: headers, contentType: "application/json", body: JSONText.bytes(of: object))
    }

    /// Sends a complete response whose body is the given JSON text.
    public func sendJSONText(_ status: HTTPResponseStatus = .ok, headers: [(String, String)] = [], _ text: String) {
        send(status, headers: headers, contentType: "application/json", body: Array(text.utf8))
    }

    /// Writes the status line and headers, adding the Connection header; the body follows separately.
    @discardableResult
    public func writeHead(_ status: HTTPResponseStatus, headers: [(String, String)]) -> EventLoopFuture<Void> {
        var head = HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers))
        head.headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        return channel.writeAndFlush(HTTPServerResponsePart.head(head))
    }

    /// Writes some body bytes (or nothing for HEAD requests); the future completes once they are sent.
    @discardableResult
    public func writeBody(_ bytes: [UInt8]) -> EventLoopFuture<Void> {
        writeBody(channel.allocator.buffer(bytes: bytes))
    }

    /// Writes a buffer of body bytes (or nothing for HEAD requests); the future completes once sent.
    @discardableResult
    public func writeBody(_ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        if omitsBody {
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        return channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)))
    }

    /// Writes `bytes` as they are, past the HTTP/1.1 encoder (a status line it cannot write, such as `099`), after
    /// `delay`, then closes the connection unless told not to.
    public func writeRaw(_ bytes: [UInt8], after delay: TimeAmount = .zero, closing: Bool = true) {
        channel.eventLoop.scheduleTask(in: delay) { [channel] in
            guard let encoder = try? channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
                channel.close(promise: nil)
                return
            }
            let written = encoder.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: bytes)))
            if closing { written.whenComplete { _ in channel.close(promise: nil) } }
        }
    }

    /// Ends the response, closing the connection unless it is kept alive.
    public func finish() {
        let ended = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        if !keepAlive {
            ended.whenComplete { [channel] _ in channel.close(promise: nil) }
        }
    }

    /// The IP address of the client at the other end of the connection, e.g. "127.0.0.1".
    public var clientAddress: String? {
        channel.remoteAddress?.ipAddress
    }

    /// Closes the connection at once, whatever the response state.
    public func closeConnection() {
        channel.close(promise: nil)
    }

    /// Runs `work` on the connection's event loop after `milliseconds`, without blocking the loop.
    public func after(milliseconds: Int64, _ work: @escaping @Sendable () -> Void) {
        channel.eventLoop.scheduleTask(in: .milliseconds(milliseconds), work)
    }

    /// Sends `byteCount` body bytes in pieces, each after the previous one left, then ends the response.
    public func stream(byteCount: Int, pieceSize: Int = 64 * 1024, pause milliseconds: Int64 = 0) {
        let piece = channel.allocator.buffer(repeating: UInt8(ascii: "x"), count: max(1, min(pieceSize, byteCount)))
        @Sendable func writePiece(remaining: Int) {
            guard remaining > 0 else {
                finish()
                return
            }
            let count = min(piece.readableBytes, remaining)
            writeBody(piece.getSlice(at: piece.readerIndex, length: count)!).whenSuccess {
                if milliseconds > 0 {
                    after(milliseconds: milliseconds) { writePiece(remaining: remaining - count) }
                } else {
                    writePiece(remaining: remaining - count)
                }
            }
        }
        writePiece(remaining: byteCount)
    }
}
