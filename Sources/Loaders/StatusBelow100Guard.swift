internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTP2

/// Fails a response whose status is below 100 before AsyncHTTPClient reads it: the client takes such a head for an
/// informational one, ignores it, and traps on the end of the message that follows. The request fails with
/// `StatusBelow100` and the connection closes.
final class StatusBelow100Guard: ChannelInboundHandler, RemovableChannelHandler {
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
        if case .head(let head) = unwrapInboundIn(data), head.status.code < 100 {
            refused = true
            context.fireErrorCaught(StatusBelow100(code: Int(head.status.code)))
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    /// Puts a guard right after an HTTP/1.1 connection's response decoder, before the client reads what it decodes; a
    /// connection without that decoder (another client version) is left as it is rather than failed.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        install(on: channel, after: ByteToMessageHandler<HTTPResponseDecoder>.self)
    }

    /// Puts a guard right after an HTTP/2 stream's translation to HTTP/1 parts, as `install(on:)` does for a connection.
    @Sendable static func installOnStream(_ channel: any Channel) -> EventLoopFuture<Void> {
        install(on: channel, after: HTTP2FramePayloadToHTTP1ClientCodec.self)
    }

    /// Puts a guard after the handler of type `decoder` in `channel`'s pipeline, when it has one.
    private static func install<Decoder: ChannelHandler>(on channel: any Channel, after decoder: Decoder.Type) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            guard let handler = try? pipeline.handler(type: decoder) else { return }
            try pipeline.addHandler(StatusBelow100Guard(), position: .after(handler))
        }
    }
}
