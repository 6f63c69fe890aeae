import Foundation
@testable import Running
import Synchronization
import Testing

/// Outcomes sent by workers in parallel reach one consumer in run order, and a consumer held up holds up the workers.
@Suite struct OutcomeHandOffTests {
    private static func outcome(file: Int, step: Int) -> RequestOutcome {
        RequestOutcome(file: "f\(file)", name: "s\(step)", method: "GET", url: "/", verdict: .passed)
    }

    private static func names(_ outcomes: [RequestOutcome]) -> [String] {
        outcomes.map { "\($0.file) \($0.name)" }
    }

    @Test func theEarliestUnfinishedFilesOutcomesGoOnAtOnceAndLaterFilesWaitForTheirTurn() {
        var order = RunOrder()
        #expect(order.take(.outcome(Self.outcome(file: 1, step: 0), file: 1)).isEmpty)
        #expect(order.take(.outcome(Self.outcome(file: 2, step: 0), file: 2)).isEmpty)
        #expect(order.take(.finished(file: 2)).isEmpty)
        #expect(Self.names(order.take(.outcome(Self.outcome(file: 0, step: 0), file: 0))) == ["f0 s0"])
        #expect(order.take(.outcome(Self.outcome(file: 1, step: 1), file: 1)).isEmpty)
        // File 0 finishing makes file 1 the current one: what it sent so far goes on, and what it sends next at once.
        #expect(Self.names(order.take(.finished(file: 0))) == ["f1 s0", "f1 s1"])
        #expect(Self.names(order.take(.outcome(Self.outcome(file: 1, step: 2), file: 1))) == ["f1 s2"])
        // File 1 finishing lets file 2 go on, which had finished already, and makes file 3 the current one.
        #expect(Self.names(order.take(.finished(file: 1))) == ["f2 s0"])
        #expect(Self.names(order.take(.outcome(Self.outcome(file: 3, step: 0), file: 3))) == ["f3 s0"])
    }

    @Test func workersOnManyThreadsGetTheirOutcomesHandedOnInFileOrderOneAtATime() async {
        let files = 200, steps = 3
        let handedOn = Mutex<[String]>([])
        let inside = Atomic<Int>(0), overlapped = Atomic<Bool>(false)
        let handOff = OutcomeHandOff { outcome in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlapped.store(true, ordering: .sequentiallyConsistent) }
            handedOn.withLock { $0.append("\(outcome.file) \(outcome.name)") }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        let next = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while case let file = next.take(), file < files {
                        for step in 0..<steps { await handOff.add(Self.outcome(file: file, step: step), file: file) }
                        handOff.finish(file: file)
                    }
                }
            }
        }
        await handOff.close()
        let expected = (0..<files).flatMap { file in (0..<steps).map { "f\(file) s\($0)" } }
        #expect(handedOn.withLock { $0 } == expected)
        let everOverlapped = overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!everOverlapped)
    }

    /// A consumer that is held up (a paused pager) lets a worker be at most `aheadLimit` outcomes ahead of it. The first
    /// outcome holds the consumer for up to 200 ms, long enough for a worker that did not wait to send them all; on a
    /// busy machine the test only sees less, it does not fail.
    @Test func aWorkerWaitsOnceTheConsumerIsHeldUpPastTheLimit() async {
        let limit = OutcomeHandOff.aheadLimit
        let count = limit + 20
        let sent = Atomic<Int>(0)
        let mostAhead = Mutex(0)
        let handOff = OutcomeHandOff { outcome in
            let taken = Int(outcome.name.dropFirst())!
            if taken == 0 {
                for _ in 0..<200 where sent.load(ordering: .sequentiallyConsistent) < count { usleep(1_000) }
            }
            // Outcome `taken` was taken: the worker may have sent up to `limit` more without waiting, and be waiting
            // with one more.
            let ahead = sent.load(ordering: .sequentiallyConsistent) - (taken + 1)
            mostAhead.withLock { $0 = max($0, ahead) }
        }
        for step in 0..<count {
            await handOff.add(Self.outcome(file: 0, step: step), file: 0)
            sent.add(1, ordering: .sequentiallyConsistent)
        }
        await handOff.close()
        let ahead = mostAhead.withLock { $0 }
        #expect(ahead <= limit)
    }
}

/// A shared counter for workers taking numbers in turn.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// The next number, from 0.
    func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
}
