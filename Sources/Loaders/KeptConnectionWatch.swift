internal import AsyncHTTPClient
internal import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOSSL

/// Tells a kept connection that a server closed from a new one that failed: when a connection that has answered before
/// closes, or is reset, or brings bytes that are not HTTP, while the request written on it has no answer yet, the
/// request fails with `KeptConnectionLost` (the server most likely closed the idle connection as it was handed out
/// again, or sent more than it said for its last answer), which the transport may send again.
/// A new connection that closes before answering fails as it did. (AsyncHTTPClient says nothing public about whether a
/// request was given a connection used before: this handler, on each HTTP/1.1 connection, knows.)
final class KeptConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// A kept connection closed, reset or unreadable before any answer to the request on it began; `underlying` is how it
    /// ended.
    struct KeptConnectionLost: Error {
        let underlying: any Error
    }

    /// Whether the connection has brought a whole response before.
    private var answeredBefore = false
    /// Whether a request's head has been written and no response head has come for it yet.
    private var awaitingAnswer = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { awaitingAnswer = true }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: awaitingAnswer = false
        case .body: break
        case .end: answeredBefore = true
        }
        context.fireChannelRead(data)
    }

    /// A loss of the connection, or bytes that are not HTTP where the answer should start: what a server sent too
    /// many of for an earlier answer (a body to a `HEAD`, a `204` or a `304`) that came in after the next request went.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(Self.isConnectionLoss(error) || error is HTTPParserError ? lost(error) ?? error : error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let lost = lost(HTTPClientError.remoteConnectionClosed) { context.fireErrorCaught(lost) }
        context.fireChannelInactive()
    }

    /// The error a request waiting for its answer on a kept connection fails with, once, when the connection ended by
    /// `error`; nil when the connection is new or no request waits.
    private func lost(_ error: any Error) -> KeptConnectionLost? {
        guard answeredBefore, awaitingAnswer else { return nil }
        awaitingAnswer = false
        return KeptConnectionLost(underlying: error)
    }

    /// Whether `error` says the other end closed or reset the connection (over TLS, without its close_notify).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        return (error as? NIOSSLError) == .uncleanShutdown || (error as? HTTPClientError) == .remoteConnectionClosed
    }
}
