import Foundation
@testable import Running
import Synchronization
import Testing

/// Outcomes handed on in file order, one at a time, from workers on several threads, with a bounded queue.
@Suite struct OutcomeEmitterTests {
    private static func outcome(file: Int, step: Int) -> RequestOutcome {
        RequestOutcome(file: "f\(file)", name: "s\(step)", method: "GET", url: "/", verdict: .passed)
    }

    @Test func workersOnManyThreadsGetTheirOutcomesEmittedInFileOrderOneAtATime() async {
        let files = 200, steps = 3
        let emitted = Mutex<[String]>([])
        let inside = Atomic<Int>(0), overlapped = Atomic<Bool>(false)
        let emitter = OutcomeEmitter { outcome in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlapped.store(true, ordering: .sequentiallyConsistent) }
            emitted.withLock { $0.append("\(outcome.file) \(outcome.name)") }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        let next = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while case let file = next.take(), file < files {
                        for step in 0..<steps { emitter.add(Self.outcome(file: file, step: step), file: file) }
                        emitter.finish(file: file)
                    }
                }
            }
        }
        let expected = (0..<files).flatMap { file in (0..<steps).map { "f\(file) s\($0)" } }
        #expect(emitted.withLock { $0 } == expected)
        let everOverlapped = overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!everOverlapped)
    }

    /// Waits up to five seconds for `condition`, checking every millisecond.
    private static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<5_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func anEmitThatBlocksHoldsBackTheWorkersOnceTheQueueIsFull() async throws {
        let release = DispatchSemaphore(value: 0)
        let emittedCount = Atomic<Int>(0)
        let emitter = OutcomeEmitter { _ in
            // The first outcome blocks, like a write to a paused pager.
            if emittedCount.add(1, ordering: .sequentiallyConsistent).newValue == 1 { release.wait() }
        }
        let added = Atomic<Int>(0)
        let blocked = Thread {
            emitter.add(Self.outcome(file: 0, step: 0), file: 0)
        }
        blocked.start()
        // The first outcome's write has begun (and blocks) before anything else is added.
        try await Self.waitUntil { emittedCount.load(ordering: .sequentiallyConsistent) == 1 }
        let producer = Thread {
            for step in 1...(OutcomeEmitter.queueLimit + 10) {
                emitter.add(Self.outcome(file: 0, step: step), file: 0)
                added.add(1, ordering: .sequentiallyConsistent)
            }
        }
        producer.start()
        try await Self.waitUntil { added.load(ordering: .sequentiallyConsistent) >= OutcomeEmitter.queueLimit }
        try await Task.sleep(for: .milliseconds(100))
        // The producer queued up to the limit and then waits for the blocked write.
        #expect(added.load(ordering: .sequentiallyConsistent) == OutcomeEmitter.queueLimit)
        release.signal()
        try await Self.waitUntil { emittedCount.load(ordering: .sequentiallyConsistent) >= OutcomeEmitter.queueLimit + 11 }
        #expect(emittedCount.load(ordering: .sequentiallyConsistent) == OutcomeEmitter.queueLimit + 11)
        #expect(added.load(ordering: .sequentiallyConsistent) == OutcomeEmitter.queueLimit + 10)
    }
}

/// A shared counter for workers taking numbers in turn.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// The next number, from 0.
    func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
}
