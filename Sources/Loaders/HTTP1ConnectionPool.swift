internal import AsyncHTTPClient
internal import NIOCore
internal import NIOPosix
internal import NIOHTTP1
internal import Synchronization

/// Cleartext HTTP/1.1 keep-alive connections by host and port, on the shared NIO event loop group.
///
/// At most `maxConnectionsPerHost` connections to one host are open at once; a request finding none idle and the
/// limit reached waits for one to be released (or closed, freeing its slot). Idle connections stay until reused,
/// closed by their server, or `shutdown()`. A request from a task on one of the group's loops (`LoopExecutor`)
/// takes an idle connection on its own loop first, and opens new ones there, so its response needs no thread hop.
final class HTTP1ConnectionPool: Sendable {
    /// Where a connection goes.
    struct Endpoint: Hashable, Sendable {
        var host: String
        var port: Int
    }

    /// A connection handed to one request; `reused` when it was open before.
    struct Lease: Sendable {
        let channel: any Channel
        let endpoint: Endpoint
        let reused: Bool
    }

    /// A request waiting for a slot: it gets an idle connection, or nil when it may open one.
    private struct Waiter {
        let id: UInt64
        let promise: EventLoopPromise<(any Channel)?>
    }

    private struct HostConnections {
        /// Connections open or being opened.
        var open = 0
        var idle: [any Channel] = []
        var waiters: [Waiter] = []
    }

    private struct State {
        var hosts: [Endpoint: HostConnections] = [:]
        var channels: [ObjectIdentifier: any Channel] = [:]
        var lastWaiterID: UInt64 = 0
        var isShutDown = false
    }

    /// What a lease does after looking at the pool.
    private enum LeaseStep {
        case reuse(any Channel)
        case connect
        case wait(Waiter)
    }

    /// How long a connect may take at most, as AsyncHTTPClient's default.
    private static let connectTimeout = TimeAmount.seconds(10)

    private let state = Mutex(State())
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let decompressionRatio: Int
    let maxConnectionsPerHost: Int

    /// Creates an empty pool; compressed bodies may expand at most `decompressionRatio` times.
    init(decompressionRatio: Int, maxConnectionsPerHost: Int) {
        self.decompressionRatio = decompressionRatio
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }

    /// The event loops connections are opened on.
    var eventLoops: [any EventLoop] { Array(group.makeIterator()) }

    /// A connection to `endpoint`: an idle one (unless `reuseIdle` is false), a new one, or one released while
    /// waiting. Fails with `deadlineExceeded` when `deadline` passes first, or when `cancellation` is triggered.
    func lease(_ endpoint: Endpoint, reuseIdle: Bool = true, deadline: NIODeadline?,
               cancellation: ExchangeCancellation) async throws -> Lease {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? group.next()
        let step = try state.withLock { state throws -> LeaseStep in
            guard !state.isShutDown else { throw HTTPClientError.alreadyShutdown }
            let waiterID = state.lastWaiterID + 1
            // The host's entry is changed in place: a copy taken out and written back would copy its arrays.
            let step = nextStep(for: &state.hosts[endpoint, default: HostConnections()], reuseIdle: reuseIdle) {
                Waiter(id: waiterID, promise: loop.makePromise())
            }
            if case .wait = step { state.lastWaiterID = waiterID }
            return step
        }
        switch step {
        case .reuse(let channel):
            return Lease(channel: channel, endpoint: endpoint, reused: true)
        case .connect:
            return try await connect(endpoint, on: loop, deadline: deadline)
        case .wait(let waiter):
            guard let channel = try await wait(waiter, for: endpoint, deadline: deadline, cancellation: cancellation) else {
                return try await connect(endpoint, on: loop, deadline: deadline)
            }
            return Lease(channel: channel, endpoint: endpoint, reused: true)
        }
    }

    /// Takes an idle connection (unless `reuseIdle` is false), else a slot to connect in, else queues `waiter()`.
    private func nextStep(for host: inout HostConnections, reuseIdle: Bool, waiter: () -> Waiter) -> LeaseStep {
        // An idle connection found closed lowers `open` in its close callback.
        if reuseIdle, let onThisLoop = host.idle.lastIndex(where: { $0.eventLoop.inEventLoop }) {
            let channel = host.idle.remove(at: onThisLoop)
            if channel.isActive { return .reuse(channel) }
        }
        while reuseIdle, let channel = host.idle.popLast() {
            if channel.isActive { return .reuse(channel) }
        }
        if host.open < maxConnectionsPerHost {
            host.open += 1
            return .connect
        }
        let queued = waiter()
        host.waiters.append(queued)
        return .wait(queued)
    }

    /// Gives a leased connection back: kept (or handed to a waiting request) when `reusable` and still open,
    /// closed otherwise.
    func release(_ lease: Lease, reusable: Bool) {
        let channel = lease.channel
        guard reusable, channel.isActive else {
            channel.close(promise: nil)
            return
        }
        enum Outcome { case kept, close, handTo(Waiter) }
        let outcome = state.withLock { state -> Outcome in
            guard !state.isShutDown else { return .close }
            if !(state.hosts[lease.endpoint]?.waiters.isEmpty ?? true) {
                return .handTo(state.hosts[lease.endpoint]!.waiters.removeFirst())
            }
            state.hosts[lease.endpoint, default: HostConnections()].idle.append(channel)
            return .kept
        }
        switch outcome {
        case .kept: break
        case .close: channel.close(promise: nil)
        case .handTo(let waiter): waiter.promise.succeed(channel)
        }
    }

    /// Closes every connection and fails waiting requests; the pool cannot be used afterwards.
    func shutdown() async {
        let (channels, waiters) = state.withLock { state in
            state.isShutDown = true
            let waiters = state.hosts.values.flatMap(\.waiters)
            for endpoint in state.hosts.keys { state.hosts[endpoint]?.waiters = [] }
            return (Array(state.channels.values), waiters)
        }
        for waiter in waiters { waiter.promise.fail(HTTPClientError.alreadyShutdown) }
        for channel in channels { channel.close(promise: nil) }
        for channel in channels { try? await channel.closeFuture.get() }
    }

    /// Opens a connection in a slot already counted in `open`; the slot is freed when it fails or later closes.
    private func connect(_ endpoint: Endpoint, on loop: any EventLoop, deadline: NIODeadline?) async throws -> Lease {
        let channel: any Channel
        do {
            channel = try await bootstrap(on: loop, deadline: deadline).connect(host: endpoint.host, port: endpoint.port).get()
        } catch {
            freeSlot(of: endpoint)
            if let deadline, NIODeadline.now() >= deadline { throw HTTPClientError.deadlineExceeded }
            throw error
        }
        let registered = state.withLock { state in
            guard !state.isShutDown else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
        channel.closeFuture.whenComplete { _ in self.connectionClosed(channel, endpoint: endpoint) }
        guard registered else {
            channel.close(promise: nil)
            throw HTTPClientError.alreadyShutdown
        }
        return Lease(channel: channel, endpoint: endpoint, reused: false)
    }

    /// A bootstrap for connections with the HTTP/1.1 codec and an exchange handler (which adds the response
    /// decompressor when a response is encoded).
    private func bootstrap(on loop: any EventLoop, deadline: NIODeadline?) -> ClientBootstrap {
        let limit = deadline.map { min(Self.connectTimeout, $0 - .now()) } ?? Self.connectTimeout
        let ratio = decompressionRatio
        return ClientBootstrap(group: loop)
            .connectTimeout(max(limit, .milliseconds(1)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    // Heads are validated before a connection is leased (`HTTP1RequestValidation`).
                    try pipeline.addHTTPClientHandlers(enableOutboundHeaderValidation: false)
                    try pipeline.addHandler(HTTP1ExchangeHandler(decompressionRatio: ratio))
                }
            }
    }

    /// Waits for a released connection or a free slot (nil); on the deadline or cancellation, stops waiting.
    private func wait(_ waiter: Waiter, for endpoint: Endpoint, deadline: NIODeadline?,
                      cancellation: ExchangeCancellation) async throws -> (any Channel)? {
        let result = waiter.promise.futureResult
        let timer = deadline.map { deadline in
            result.eventLoop.scheduleTask(deadline: deadline) {
                self.stopWaiting(waiter, for: endpoint, error: HTTPClientError.deadlineExceeded)
            }
        }
        defer { timer?.cancel() }
        if !cancellation.onCancel({ self.stopWaiting(waiter, for: endpoint, error: CancellationError()) }) {
            stopWaiting(waiter, for: endpoint, error: CancellationError())
        }
        return try await result.get()
    }

    /// Fails a waiting request with `error` unless a connection or slot was handed to it already.
    private func stopWaiting(_ waiter: Waiter, for endpoint: Endpoint, error: any Error) {
        let removed = state.withLock { state in
            guard let index = state.hosts[endpoint]?.waiters.firstIndex(where: { $0.id == waiter.id }) else { return false }
            state.hosts[endpoint]?.waiters.remove(at: index)
            return true
        }
        if removed { waiter.promise.fail(error) }
    }

    /// Forgets a closed connection and frees its slot.
    private func connectionClosed(_ channel: any Channel, endpoint: Endpoint) {
        state.withLock { state in
            state.channels[ObjectIdentifier(channel)] = nil
            state.hosts[endpoint]?.idle.removeAll { $0 === channel }
        }
        freeSlot(of: endpoint)
    }

    /// Passes a slot to the first waiting request, which then opens a connection, or lowers the open count.
    private func freeSlot(of endpoint: Endpoint) {
        let waiter = state.withLock { state -> Waiter? in
            guard var host = state.hosts[endpoint] else { return nil }
            defer { state.hosts[endpoint] = host.open == 0 && host.waiters.isEmpty && host.idle.isEmpty ? nil : host }
            if !host.waiters.isEmpty { return host.waiters.removeFirst() }
            host.open -= 1
            return nil
        }
        waiter?.promise.succeed(nil)
    }
}

/// Lets a cancelled task stop its request at whatever step it has reached (waiting for a connection, exchanging).
final class ExchangeCancellation: Sendable {
    private enum State {
        case running(action: (@Sendable () -> Void)?)
        case cancelled
    }

    private let state = Mutex(State.running(action: nil))

    /// Sets what cancelling does from now on; false when the task was cancelled already (nothing is set then).
    @discardableResult
    func onCancel(_ action: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            guard case .running = state else { return false }
            state = .running(action: action)
            return true
        }
    }

    /// Marks the task cancelled and runs the current action once.
    func cancel() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            defer { state = .cancelled }
            if case .running(let action) = state { return action }
            return nil
        }
        action?()
    }
}
