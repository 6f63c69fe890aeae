public import HTTPCore
internal import Synchronization

/// The waits of the requests one step sends before they go (a `delay`, a throttle slot): the time spent queueing in the
/// client, which a request's duration leaves out, and the stop that ends the wait of its first request when the run stops
/// sending (`--bail`); a wait that ends the step before it sent anything says why (`unsent`).
public final class WaitsBeforeSending: Sendable {
    private struct State {
        var waited = Duration.zero
        /// Ends the wait until a request of the step is sent: a step under way is not stopped.
        var stop: StopSignal?
        /// Whether a wait ended with its request going on to be sent.
        var sending = false
        var unsent: Unsent?
    }

    /// Why a step sent nothing: the wait before its first request ended by the stop, or by cancellation.
    public enum Unsent: Sendable { case stopped, cancelled }
    private let state: Mutex<State>

    /// The waits of the requests the current task sends, when their sender counts them.
    @TaskLocal public static var current: WaitsBeforeSending?

    /// Counts the waits of a step; `stop`, when given, keeps its first request from being sent once it is set.
    public init(stoppedBy stop: StopSignal? = nil) {
        state = Mutex(State(stop: stop))
    }

    /// Every wait left out of the duration so far.
    public var total: Duration { state.withLock { $0.waited } }

    /// Why the step sent nothing, when a wait before its first request ended it.
    public var unsent: Unsent? { state.withLock { $0.unsent } }

    /// Waits `duration` before sending `request` with the current step's waits when there are some (else `sleeper`
    /// alone): the time actually waited is left out of its duration when `leftOutOfDuration`; `lastBeforeSending` when
    /// the request is sent once it ends (no other wait follows). Throws `cancelled` when the run is cancelled, or its
    /// stop is set before the step's first request is sent.
    static func wait(_ duration: Duration, sleeper: Sleeper, for request: HTTPRequest, leftOutOfDuration: Bool,
                     lastBeforeSending: Bool = true) async throws(HTTPError) {
        try await wait(for: request, leftOutOfDuration: leftOutOfDuration, lastBeforeSending: lastBeforeSending) { () throws(HTTPError) in
            try await sleeper(duration, for: request)
        }
    }

    /// Waits as `waiting` does (which throws `cancelled` when its task is), in the current step's waits as
    /// `wait(_:sleeper:for:leftOutOfDuration:lastBeforeSending:)` says; a stop that ends it cancels `waiting`, which has
    /// ended (with whatever it holds) once this throws.
    static func wait(for request: HTTPRequest, leftOutOfDuration: Bool, lastBeforeSending: Bool = true,
                     _ waiting: @escaping @Sendable () async throws(HTTPError) -> Void) async throws(HTTPError) {
        guard let waits = current else { return try await waiting() }
        try await waits.wait(for: request, leftOutOfDuration: leftOutOfDuration, lastBeforeSending: lastBeforeSending, waiting)
    }

    private func wait(for request: HTTPRequest, leftOutOfDuration: Bool, lastBeforeSending: Bool,
                      _ waiting: @escaping @Sendable () async throws(HTTPError) -> Void) async throws(HTTPError) {
        let start = ContinuousClock.now
        defer { if leftOutOfDuration { state.withLock { $0.waited += start.duration(to: .now) } } }
        let ended: Result<Bool, HTTPError>
        if let stop = state.withLock({ $0.stop }) {
            ended = stop.isSet ? .success(true) : await stop.race(waiting)
        } else {
            do throws(HTTPError) { try await waiting(); ended = .success(false) } catch { ended = .failure(error) }
        }
        switch ended {
        case .success(false):
            if lastBeforeSending { state.withLock { ($0.sending, $0.stop) = (true, nil) } }
        case .success(true):
            state.withLock { $0.unsent = .stopped }
            throw HTTPError(.cancelled, request: request, message: "the request to \(request.displayURL) was not sent: the run stopped")
        case .failure(let error):
            state.withLock { if !$0.sending { $0.unsent = .cancelled } }
            throw error
        }
    }
}

/// Set once a run stops sending requests (`--bail` after a failure); wakes the requests waiting to be sent.
public final class StopSignal: Sendable {
    private struct State {
        var isSet = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Whether the run has stopped sending.
    public var isSet: Bool { state.withLock { $0.isSet } }

    /// Stops the run's sending: every wait under way ends.
    public func set() {
        let waiters = state.withLock { state in
            state.isSet = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits as `waiting` does unless the signal is set first: true when it was (`waiting` is cancelled, and has ended
    /// when this returns), false when the wait ended.
    func race(_ waiting: @escaping @Sendable () async throws(HTTPError) -> Void) async -> Result<Bool, HTTPError> {
        await withTaskGroup(of: Result<Bool, HTTPError>?.self) { group in
            group.addTask {
                do throws(HTTPError) { try await waiting() } catch { return .failure(error) }
                return .success(false)
            }
            group.addTask { await self.wait() ? .success(true) : nil }
            defer { group.cancelAll() }
            while let ended = await group.next() {
                if let ended { return ended }
            }
            return .success(false)
        }
    }

    /// Returns once the signal is set (true) or the task is cancelled (false).
    private func wait() async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                let waiting = state.withLock { state in
                    guard !state.isSet, !Task.isCancelled else { return false }
                    state.waiters[id] = waiter
                    return true
                }
                if !waiting { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return isSet
    }
}
