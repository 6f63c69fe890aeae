internal import Synchronization

/// Carries the outcomes of a run's workers to one task that hands them on in run order (file by file), so a parallel
/// run's output reads like a sequential one; outcomes of the earliest unfinished file go on at once.
///
/// The workers send into an `AsyncStream`; its one consumer puts the outcomes in run order (`RunOrder`) and calls
/// `onOutcome`, so rendering and writing happen on that task alone, beside the workers. A worker goes on at once
/// while fewer than `backlogLimit` outcomes wait for the consumer; past it, it waits until the consumer has taken
/// what it sent. While the consumer is held up (a standard output that blocks, as a paused pager makes it), the
/// stream so holds at most `backlogLimit` outcomes and one more per worker: it does not grow with the run.
struct OutcomeHandOff: Sendable {
    /// What a worker sends.
    enum Event: Sendable {
        case outcome(RequestOutcome, file: Int)
        /// File number `file` has no more outcomes.
        case finished(file: Int)
    }

    /// How many outcomes may wait for the consumer before a worker that sends one more waits too.
    static let backlogLimit = 16

    private let deliveries: AsyncStream<Event>.Continuation
    private let consumer: Task<Void, Never>
    private let backlog = Backlog()

    /// Starts the consumer, which calls `onOutcome` with each outcome in run order.
    ///
    /// The consumer is not a child of the run's task, so cancelling the run (a signal) does not end it: every outcome
    /// of the cancelled run, skipped ones included, is still handed on.
    init(onOutcome: @escaping @Sendable (RequestOutcome) -> Void) {
        let (stream, deliveries) = AsyncStream.makeStream(of: Event.self)
        self.deliveries = deliveries
        consumer = Task { [backlog] in
            var order = RunOrder()
            for await event in stream {
                if case .outcome = event { backlog.taken() }
                for outcome in order.take(event) { onOutcome(outcome) }
            }
        }
    }

    /// Sends an outcome of file number `file` (in run order); returns at once, or once the consumer has caught up
    /// when `backlogLimit` outcomes wait for it.
    func add(_ outcome: RequestOutcome, file: Int) async {
        let mustWait = backlog.add()
        if case .terminated = deliveries.yield(.outcome(outcome, file: file)) {
            backlog.taken()
        } else if mustWait {
            await backlog.caughtUp()
        }
    }

    /// Says that file number `file` has no more outcomes, without waiting for the consumer to take it.
    func finish(file: Int) {
        deliveries.yield(.finished(file: file))
    }

    /// Once no worker sends any more: waits until every outcome sent has been handed on.
    func close() async {
        deliveries.finish()
        await consumer.value
    }

    /// How many outcomes wait for the consumer, and the workers waiting for it to catch up.
    private final class Backlog: Sendable {
        private struct State {
            var untaken = 0
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        private let state = Mutex(State())

        /// Counts one more outcome sent; true when the sender is to wait for the consumer.
        func add() -> Bool {
            state.withLock { state in
                state.untaken += 1
                return state.untaken > OutcomeHandOff.backlogLimit
            }
        }

        /// Counts an outcome taken, and resumes the waiting workers once the backlog is within its limit.
        func taken() {
            let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.untaken -= 1
                guard state.untaken <= OutcomeHandOff.backlogLimit else { return [] }
                defer { state.waiting = [] }
                return state.waiting
            }
            for worker in resumed { worker.resume() }
        }

        /// Returns once the backlog is within its limit.
        func caughtUp() async {
            await withCheckedContinuation { worker in
                let now = state.withLock { state in
                    if state.untaken <= OutcomeHandOff.backlogLimit { return true }
                    state.waiting.append(worker)
                    return false
                }
                if now { worker.resume() }
            }
        }
    }
}

/// Puts the outcomes of files run in parallel in run order: those of the earliest unfinished file at once, those of a
/// later file once every file before it has finished.
struct RunOrder {
    /// The file whose outcomes go on as they come.
    private var current = 0
    /// The outcomes of files after `current`, held until their turn.
    private var held: [Int: [RequestOutcome]] = [:]
    /// The finished files after `current`.
    private var finished: Set<Int> = []

    /// The outcomes that are due after `event`, in run order.
    mutating func take(_ event: OutcomeHandOff.Event) -> [RequestOutcome] {
        switch event {
        case .outcome(let outcome, let file):
            if file == current { return [outcome] }
            held[file, default: []].append(outcome)
            return []
        case .finished(let file):
            finished.insert(file)
            var due: [RequestOutcome] = []
            while finished.remove(current) != nil {
                current += 1
                due += held.removeValue(forKey: current) ?? []
            }
            return due
        }
    }
}
