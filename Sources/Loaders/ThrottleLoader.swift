public import HTTPCore
internal import Synchronization

/// Holds requests that set `options.throttle` to a shared rate: one start per interval across all of them.
public struct ThrottleLoader: HTTPLoader {
    public let next: any HTTPLoader
    let schedule: ThrottleSchedule
    let sleeper: Sleeper

    /// Creates a throttle; every request through this loader shares `schedule`.
    public init(next: any HTTPLoader, schedule: ThrottleSchedule = ThrottleSchedule(), sleeper: Sleeper = .continuous) {
        self.next = next
        self.schedule = schedule
        self.sleeper = sleeper
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if let interval = request.options.throttle?.interval {
            let now = ContinuousClock.now
            let slot = await schedule.reserveSlot(now: now, interval: interval)
            if let waits = ThrottleWaits.current {
                try await waits.wait(now.duration(to: slot), sleeper: sleeper, for: request)
            } else {
                try await sleeper(now.duration(to: slot), for: request)
            }
        }
        return try await next.load(request)
    }
}

/// The throttle waits of the requests one step sends: the time they spent queueing in the client, which a request's
/// duration leaves out, and the stop that ends the wait of its first request when the run stops sending (`--bail`).
public final class ThrottleWaits: Sendable {
    private struct State {
        var waited = Duration.zero
        /// Ends the wait until a request of the step is sent: a step under way is not stopped.
        var stop: StopSignal?
        /// Whether a wait ended with its request going on to be sent.
        var sending = false
        var unsent: Unsent?
    }

    /// Why a step sent nothing: the wait for its first request's slot ended by the stop, or by cancellation.
    public enum Unsent: Sendable { case stopped, cancelled }
    private let state: Mutex<State>

    /// The waits of the requests the current task sends, when their sender counts them.
    @TaskLocal public static var current: ThrottleWaits?

    /// Counts the waits of a step; `stop`, when given, keeps its first request from being sent once it is set.
    public init(stoppedBy stop: StopSignal? = nil) {
        state = Mutex(State(stop: stop))
    }

    /// Every wait added so far.
    public var total: Duration { state.withLock { $0.waited } }

    /// Why the step sent nothing, when a wait for its first request's slot ended it.
    public var unsent: Unsent? { state.withLock { $0.unsent } }

    /// Waits `duration` for the request's slot with `sleeper`, counting only the time actually waited; throws
    /// `cancelled` when the run is cancelled or its stop is set before the step's first request is sent.
    func wait(_ duration: Duration, sleeper: Sleeper, for request: HTTPRequest) async throws(HTTPError) {
        let start = ContinuousClock.now
        defer { state.withLock { $0.waited += start.duration(to: .now) } }
        let ended: Result<Bool, HTTPError>
        if let stop = state.withLock({ $0.stop }) {
            ended = stop.isSet ? .success(true) : await stop.race(sleeper, duration, for: request)
        } else {
            do throws(HTTPError) { try await sleeper(duration, for: request); ended = .success(false) } catch { ended = .failure(error) }
        }
        switch ended {
        case .success(false):
            state.withLock { ($0.sending, $0.stop) = (true, nil) }
        case .success(true):
            state.withLock { $0.unsent = .stopped }
            throw HTTPError(.cancelled, request: request, message: "the request to \(request.displayURL) was not sent: the run stopped")
        case .failure(let error):
            state.withLock { if !$0.sending { $0.unsent = .cancelled } }
            throw error
        }
    }
}

/// Set once a run stops sending requests (`--bail` after a failure); wakes the requests waiting for a throttle slot.
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

    /// Sleeps `duration` with `sleeper` unless the signal is set first: true when it was, false when the sleep ended.
    func race(_ sleeper: Sleeper, _ duration: Duration, for request: HTTPRequest) async -> Result<Bool, HTTPError> {
        await withTaskGroup(of: Result<Bool, HTTPError>?.self) { group in
            group.addTask {
                do throws(HTTPError) { try await sleeper(duration, for: request) } catch { return .failure(error) }
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

/// Hands out start times spaced by the rate's interval; the state behind a throttle.
public actor ThrottleSchedule {
    private var nextFree: ContinuousClock.Instant?

    public init() {}

    /// The earliest free start at or after `now`; the slot after it is `interval` later.
    public func reserveSlot(now: ContinuousClock.Instant, interval: Duration) -> ContinuousClock.Instant {
        let slot = max(now, nextFree ?? now)
        nextFree = slot.advanced(by: interval)
        return slot
    }
}

extension LoaderLayer {
    /// Spaces requests that set `options.throttle`; one schedule for everything through this chain.
    public static func throttle(sleeper: Sleeper = .continuous) -> LoaderLayer {
        let schedule = ThrottleSchedule()
        return LoaderLayer { ThrottleLoader(next: $0, schedule: schedule, sleeper: sleeper) }
    }
}
