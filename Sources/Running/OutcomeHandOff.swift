internal import Synchronization

/// Carries the outcomes of a run's workers to one task that hands them on in run order (file by file), so a parallel
/// run's output reads like a sequential one; outcomes of the earliest unfinished file go on at once.
///
/// The workers send into an `AsyncStream`; its one consumer puts the outcomes in run order (`RunOrder`) and calls
/// `onOutcome`, so rendering and writing happen on that task alone. A worker goes on at once while fewer than
/// `aheadLimit` outcomes wait for the consumer, so a worker and the consumer keeping up with it do not wake each other
/// for every outcome; past that, a worker goes on once the consumer has taken what it sent. While the consumer is held
/// up (a standard output that blocks, as a paused pager makes it), the stream holds at most `aheadLimit` outcomes and
/// one more for each worker, so it does not grow with the run. A file's end does not wait (a worker's next outcome
/// does).
struct OutcomeHandOff: Sendable {
    /// How many outcomes may wait for the consumer before a worker sending one more waits until it is taken.
    static let aheadLimit = 16

    /// What a worker sends.
    enum Event: Sendable {
        case outcome(RequestOutcome, file: Int)
        /// File number `file` has no more outcomes.
        case finished(file: Int)
    }

    /// An event, and the worker to resume once the consumer has taken it (none for a file's end).
    private typealias Delivery = (event: Event, taken: CheckedContinuation<Void, Never>?)

    private let deliveries: AsyncStream<Delivery>.Continuation
    private let consumer: Task<Void, Never>
    /// The outcomes sent and not taken yet.
    private let untaken = Untaken()

    /// Starts the consumer, which calls `onOutcome` with each outcome in run order.
    ///
    /// The consumer is not a child of the run's task, so cancelling the run (a signal) does not end it: every outcome
    /// of the cancelled run, skipped ones included, is still handed on.
    init(onOutcome: @escaping @Sendable (RequestOutcome) -> Void) {
        let (stream, deliveries) = AsyncStream.makeStream(of: Delivery.self)
        self.deliveries = deliveries
        let untaken = untaken
        consumer = Task {
            var order = RunOrder()
            for await delivery in stream {
                if case .outcome = delivery.event { untaken.count.subtract(1, ordering: .relaxed) }
                delivery.taken?.resume()
                for outcome in order.take(delivery.event) { onOutcome(outcome) }
            }
        }
    }

    /// Sends an outcome of file number `file` (in run order); returns at once while fewer than `aheadLimit` outcomes
    /// wait for the consumer, else once the consumer has taken it.
    func add(_ outcome: RequestOutcome, file: Int) async {
        let event = Event.outcome(outcome, file: file)
        if untaken.count.add(1, ordering: .relaxed).newValue <= Self.aheadLimit {
            deliveries.yield((event, nil))
        } else {
            await send(event)
        }
    }

    /// Says that file number `file` has no more outcomes, without waiting for the consumer to take it.
    func finish(file: Int) {
        deliveries.yield((.finished(file: file), nil))
    }

    private func send(_ event: Event) async {
        await withCheckedContinuation { taken in
            if case .terminated = deliveries.yield((event, taken)) { taken.resume() }
        }
    }

    /// Once no worker sends any more: waits until every outcome sent has been handed on.
    func close() async {
        deliveries.finish()
        await consumer.value
    }
}

/// A count the workers and the consumer share.
private final class Untaken: Sendable {
    let count = Atomic<Int>(0)
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
