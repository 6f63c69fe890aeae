import CollectionFormat
import Foundation
@testable import Running
import Testing

/// A run's files decoded again on a thread of their own, a bounded number ahead, handed to whoever asks, in any order.
@Suite struct ReadAheadTests {
    /// Forty one-request files, `/items/0` to `/items/39`, checked and planned as `runner run` does.
    private static func planned() throws -> (TestCollection, [RunPlanner.PlannedFile]) {
        var files = ["environments/test.yaml": environment()]
        for index in 0..<40 { files["requests/\(String(format: "%02d", index)).yaml"] = "request: { url: /items/\(index) }\n" }
        let collection = try TestCollection(files)
        let (loaded, planner) = collection.plan()
        #expect(!loaded.hasErrors)
        return (collection, planner.files)
    }

    private static func path(_ definitions: RunPlanner.FileSource.Definitions) -> String? {
        guard case .file(let file, _) = definitions else { return nil }
        return file.path
    }

    private static func expectedPath(_ index: Int) -> String { "requests/\(String(format: "%02d", index)).yaml" }

    /// Waits up to five seconds for `condition`, checking every millisecond.
    private static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<5_000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    /// The files held ahead once `count` of them are, after 50 ms more in which the thread could overshoot; nil when
    /// `count` is never reached.
    private static func heldAhead(by decoding: ReadAhead, settlingAt count: Int) async throws -> [Int]? {
        guard try await eventually({ decoding.decodedAhead.count == count }) else { return nil }
        try await Task.sleep(for: .milliseconds(50))
        return decoding.decodedAhead
    }

    @Test(arguments: [2, 4, 64])
    func eachWorkerGetsItsOwnFileWhateverOrderTheyAskIn(window: Int) async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = ReadAhead(plan: plan, window: window)
        defer { decoding.stop() }
        let order = Array(0..<40).shuffled()
        let paths = await withTaskGroup(of: (Int, String?).self) { group in
            for index in order { group.addTask { (index, Self.path(await decoding.definitions(of: index))) } }
            var paths: [Int: String?] = [:]
            for await (index, path) in group { paths[index] = path }
            return paths
        }
        #expect(paths.count == 40)
        for index in 0..<40 { #expect(paths[index] == Self.expectedPath(index), "file \(index)") }
    }

    @Test func aFileAskedForAgainIsDecodedAgain() async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = ReadAhead(plan: plan, window: 4)
        defer { decoding.stop() }
        #expect(Self.path(await decoding.definitions(of: 3)) == Self.expectedPath(3))
        #expect(Self.path(await decoding.definitions(of: 5)) == Self.expectedPath(5))
        #expect(Self.path(await decoding.definitions(of: 3)) == Self.expectedPath(3))
    }

    /// The thread fills its window in order, sleeps while it is full, goes on once half of it has been taken, and
    /// skips a file a worker asked for (and decoded) meanwhile.
    @Test func theThreadKeepsAtMostItsWindowAheadAndGoesOnWhenHalfIsTaken() async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = ReadAhead(plan: plan, window: 4)
        defer { decoding.stop() }
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 4) == [0, 1, 2, 3])

        #expect(Self.path(await decoding.definitions(of: 0)) == Self.expectedPath(0))
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 3) == [1, 2, 3], "one of four taken: the thread sleeps on")
        _ = await decoding.definitions(of: 1)
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 4) == [2, 3, 4, 5])

        #expect(Self.path(await decoding.definitions(of: 7)) == Self.expectedPath(7))
        _ = await decoding.definitions(of: 2)
        _ = await decoding.definitions(of: 3)
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 4) == [4, 5, 6, 8])
    }

    /// Texts of 27 bytes against a budget of 100: the window of 64 counts as full at four files, and the thread goes
    /// on once the texts held are down to half the budget.
    @Test func theThreadHoldsAtMostItsByteBudgetOfTextAhead() async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = ReadAhead(plan: plan, window: 64, byteBudget: 100)
        defer { decoding.stop() }
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 4) == [0, 1, 2, 3])

        _ = await decoding.definitions(of: 0)
        _ = await decoding.definitions(of: 1)
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 2) == [2, 3],
                "54 bytes held, more than half the budget: the thread sleeps on")
        _ = await decoding.definitions(of: 2)
        #expect(try await Self.heldAhead(by: decoding, settlingAt: 4) == [3, 4, 5, 6])
    }

    @Test func stoppingEndsTheThreadAndAPlanWithNothingToReadStartsNone() async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = ReadAhead(plan: plan, window: 2)
        #expect(try await Self.eventually { decoding.decodedAhead.count == 2 })
        #expect(!decoding.hasEnded)
        decoding.stop()
        #expect(try await Self.eventually { decoding.hasEnded })
        #expect(ReadAhead(plan: [], window: 2).hasEnded)
    }
}
