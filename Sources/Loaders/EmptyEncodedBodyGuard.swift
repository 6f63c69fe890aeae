internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression

/// Lets a response that declares a `Content-Encoding` but brings no body bytes (the answer to a `HEAD`, a
/// `Content-Length: 0`) end as the empty body it is. The decompressor before this guard expects compressed data for
/// such a response and, at its end, calls the data it never got truncated; the guard drops that error when no body part
/// came through, and the end of the response follows it.
final class EmptyEncodedBodyGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    /// Whether the current response has had its head and no body part yet: any compressed byte yields a body part,
    /// even one that decompresses to nothing.
    private var bodyless = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: bodyless = true
        case .body: bodyless = false
        case .end: break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if bodyless, let error = error as? NIOHTTPDecompression.ExtraDecompressionError, error == .truncatedData { return }
        context.fireErrorCaught(error)
    }
}
