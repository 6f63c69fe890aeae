public import HTTPCore
internal import Synchronization

/// Holds requests that set `options.throttle` to a shared rate: one start per interval across all of them, a start
/// being when the request is written on its connection.
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
        guard let interval = request.options.throttle?.interval else { return try await next.load(request) }
        let (request, turn) = (copy request, ThrottleTurn(schedule: schedule, interval: interval))
        // Time spent queueing in the client, left out of the request's duration.
        do throws(HTTPError) {
            try await WaitsBeforeSending.wait(for: request, leftOutOfDuration: true) { [sleeper] () throws(HTTPError) in
                try await turn.take(sleeper: sleeper, for: request)
            }
        } catch {
            // Not sent (stopped by --bail, cancelled): a request still to come, a cleanup step, takes its start.
            turn.end(.notSent)
            throw error
        }
        defer { turn.end(.handedOn) }
        let sent = await HTTPClientTransport.$writes.withValue(turn) { () async -> Result<HTTPResponse, HTTPError> in
            do throws(HTTPError) { return .success(try await next.load(request)) } catch { return .failure(error) }
        }
        return try sent.get()
    }
}

/// The starts of the requests one rate holds back, given one request at a time (first come, first served): a request's
/// turn ends when it is written on its connection, and the next start is an interval after that. Requests that wait
/// for a connection being made (a TLS handshake) thus do not go out together once it is ready.
public final class ThrottleSchedule: Sendable {
    private struct State {
        var nextFree: ContinuousClock.Instant?
        var turnTaken = false
        var waiting: [(id: Int, turn: CheckedContinuation<Bool, Never>)] = []
        var lastWaiter = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Waits for the turn, after every request that asked before: true once taken, false when the task is cancelled
    /// first (the turn is then not taken).
    public func takeTurn() async -> Bool {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { turn in
                let taken: Bool? = state.withLock { state in
                    guard !Task.isCancelled else { return false }
                    guard state.turnTaken else {
                        state.turnTaken = true
                        return true
                    }
                    state.waiting.append((id, turn))
                    return nil
                }
                if let taken { turn.resume(returning: taken) }
            }
        } onCancel: {
            state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).turn }
            }?.resume(returning: false)
        }
    }

    /// The start of the request holding the turn: now, or the next free start when that is later.
    public func start(now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        state.withLock { state in max(now, state.nextFree ?? now) }
    }

    /// Ends the turn, the next request's start being no earlier than `nextFree`: hands it to the request that waited
    /// longest.
    public func endTurn(nextFree: ContinuousClock.Instant) {
        let next = state.withLock { state in
            state.nextFree = nextFree
            guard !state.waiting.isEmpty else {
                state.turnTaken = false
                return CheckedContinuation<Bool, Never>?.none
            }
            return state.waiting.removeFirst().turn
        }
        next?.resume(returning: true)
    }
}

/// One request's turn at a throttle: taken (with its start) before it goes, ended once, however it ends: at the latest
/// when its request's head is written.
final class ThrottleTurn: RequestWrites {
    /// How a request's turn ended, which says when the next may start.
    enum Ending {
        /// Written on its connection at that moment: the next starts an interval later.
        case written(at: ContinuousClock.Instant)
        /// Handed on and ended without being written (no connection could be made): the next starts an interval after
        /// its start, as if it had been written then.
        case handedOn
        /// Never handed on (stopped, cancelled while waiting): the next may take its start.
        case notSent
    }

    private let schedule: ThrottleSchedule
    private let interval: Duration
    /// The start once the turn is taken; nil again once it ended.
    private let start = Mutex<ContinuousClock.Instant?>(nil)

    init(schedule: ThrottleSchedule, interval: Duration) {
        self.schedule = schedule
        self.interval = interval
    }

    /// Waits for the turn, then until its start; throws `cancelled` when cancelled (a turn taken is kept: `end`
    /// gives it back).
    func take(sleeper: Sleeper, for request: HTTPRequest) async throws(HTTPError) {
        guard await schedule.takeTurn() else { throw HTTPError.cancelled(request) }
        let now = ContinuousClock.now
        let start = schedule.start(now: now)
        self.start.withLock { $0 = start }
        try await sleeper(now.duration(to: start), for: request)
    }

    func headWritten() {
        end(.written(at: .now))
    }

    /// Ends the turn when it is held and has not ended yet.
    func end(_ ending: Ending) {
        guard let start = self.start.withLock({ start in defer { start = nil }; return start }) else { return }
        switch ending {
        case .written(let moment): schedule.endTurn(nextFree: moment.advanced(by: interval))
        case .handedOn: schedule.endTurn(nextFree: start.advanced(by: interval))
        case .notSent: schedule.endTurn(nextFree: start)
        }
    }
}

extension LoaderLayer {
    /// Spaces requests that set `options.throttle`; one schedule for everything through this chain.
    public static func throttle(sleeper: Sleeper = .continuous) -> LoaderLayer {
        let schedule = ThrottleSchedule()
        return LoaderLayer { ThrottleLoader(next: $0, schedule: schedule, sleeper: sleeper) }
    }
}
