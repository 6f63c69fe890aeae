internal import AsyncHTTPClient
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression

/// One request for a pooled HTTP/1.1 connection: what to send, when it must be answered and where the response goes.
///
/// A class, so that passing it through the pipeline moves a reference instead of boxing and copying the fields.
final class HTTP1Exchange: Sendable {
    let head: HTTPRequestHead
    /// The body bytes, nil for none.
    let body: ByteBuffer?
    let limit: ResponseSizeLimit
    /// When the whole response must have arrived; the connection is closed then.
    let deadline: NIODeadline?
    let response: EventLoopPromise<CappedBodyCollector.Response>

    init(head: HTTPRequestHead, body: ByteBuffer?, limit: ResponseSizeLimit, deadline: NIODeadline?,
         response: EventLoopPromise<CappedBodyCollector.Response>) {
        self.head = head
        self.body = body
        self.limit = limit
        self.deadline = deadline
        self.response = response
    }
}

/// A request failed before any byte of its response arrived because its connection was closed or broke: on a
/// connection that served earlier requests this means the server closed it while idle, and sending again is safe.
struct StaleConnectionError: Error {
    let underlying: any Error
}

/// The last handler of a pooled connection: writes each `HTTP1Exchange` and collects its response head and
/// (decompressed) body under the size limit, one exchange at a time.
///
/// The first response with a `Content-Encoding` puts a `NIOHTTPResponseDecompressor` (with the ratio limit) in
/// front of this handler, for the rest of the connection's life, and hands that head to it; connections whose
/// responses are never encoded skip its pass over every part. (Requests always carry `Accept-Encoding`, so its
/// outbound side, which adds that header when missing, has nothing to do.)
///
/// The exchange fails, and the connection is closed, when its deadline passes, the response passes the limit or
/// is not valid HTTP, or the connection closes first. Bytes arriving while no exchange is pending close it too.
final class HTTP1ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTP1Exchange
    typealias OutboundOut = HTTPClientRequestPart

    /// The exchange being answered and what has arrived of its response (a reference, so that each part of
    /// the response updates it in place instead of copying the exchange).
    private final class Pending {
        let exchange: HTTP1Exchange
        var head: HTTPResponseHead?
        var body = ByteBuffer()

        init(exchange: HTTP1Exchange) {
            self.exchange = exchange
        }
    }

    private var pending: Pending?
    /// Compressed bodies may expand at most this many times.
    private let decompressionRatio: Int
    /// Whether the decompressor is in the pipeline.
    private var decompressing = false
    /// Ends the pending exchange at its deadline. It outlives exchanges: when it fires it ends the exchange then
    /// pending if that one's deadline has passed, else waits on for it; so a request schedules (and cancels) a
    /// timer only when its deadline comes before the one already set, not each time.
    private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?

    /// Creates the handler of one connection; compressed bodies may expand at most `decompressionRatio` times.
    init(decompressionRatio: Int) {
        self.decompressionRatio = decompressionRatio
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        guard pending == nil else {
            exchange.response.fail(ChannelError.inappropriateOperationForState)
            promise?.fail(ChannelError.inappropriateOperationForState)
            return
        }
        pending = Pending(exchange: exchange)
        if let deadline = exchange.deadline { armTimer(for: deadline, context: context) }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenFailure { error in
            self.fail(error, context: context)
        }
        if let promise { written.futureResult.cascade(to: promise) }
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        if let body = exchange.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: written)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let current = pending else {
            context.close(promise: nil)
            return
        }
        do {
            switch unwrapInboundIn(data) {
            case .head(let head):
                if !decompressing, head.headers.contains(name: "Content-Encoding") {
                    try addDecompressor(handing: data, context: context)
                    return
                }
                current.head = head
                try current.exchange.limit.checkDeclaredLength(of: head)
            case .body(var part):
                try current.exchange.limit.checkGrowth(received: current.body.readableBytes, partSize: part.readableBytes)
                if current.body.readableBytes == 0 { current.body = part } else { current.body.writeBuffer(&part) }
            case .end:
                pending = nil
                guard let head = current.head else { throw HTTPClientError.remoteConnectionClosed }
                current.exchange.response.succeed((head, current.body))
            }
        } catch {
            fail(error, context: context)
        }
    }

    /// Puts the decompressor in front of this handler and gives it the head that asks for it, which it passes
    /// back here (with its body parts decompressed after it).
    private func addDecompressor(handing head: NIOAny, context: ChannelHandlerContext) throws {
        let decompressor = NIOHTTPResponseDecompressor(limit: .ratio(decompressionRatio))
        let pipeline = context.pipeline.syncOperations
        try pipeline.addHandler(decompressor, position: .before(self))
        decompressing = true
        decompressor.channelRead(context: try pipeline.context(handler: decompressor), data: head)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTPClientError.remoteConnectionClosed, context: context, closing: false)
        timer?.task.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    /// Makes sure the timer fires by `deadline`.
    private func armTimer(for deadline: NIODeadline, context: ChannelHandlerContext) {
        if let timer {
            guard deadline < timer.deadline else { return }
            timer.task.cancel()
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.timer = nil
            self.deadlineReached(context: context)
        }
        timer = (deadline, task)
    }

    /// Ends the pending exchange when its deadline has passed, else waits for it.
    private func deadlineReached(context: ChannelHandlerContext) {
        guard let deadline = pending?.exchange.deadline else { return }
        if NIODeadline.now() >= deadline {
            fail(HTTPClientError.deadlineExceeded, context: context)
        } else {
            armTimer(for: deadline, context: context)
        }
    }

    /// Fails the pending exchange, if any, and closes the connection; a connection that closed or broke before any
    /// response byte arrived fails it with `StaleConnectionError`.
    private func fail(_ error: any Error, context: ChannelHandlerContext, closing: Bool = true) {
        if let current = pending {
            pending = nil
            let broken = error is IOError || error as? ChannelError == .ioOnClosedChannel
                || error as? HTTPClientError == .remoteConnectionClosed
            current.exchange.response.fail(broken && current.head == nil ? StaleConnectionError(underlying: error) : error)
        }
        if closing { context.close(promise: nil) }
    }
}
