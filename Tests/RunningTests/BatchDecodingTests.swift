import CollectionFormat
@testable import Running
import Testing

/// A parallel run's files decoded again a batch at a time, handed to whoever asks, in any order.
@Suite struct BatchDecodingTests {
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

    @Test func eachWorkerGetsItsOwnFileWhateverOrderTheyAskIn() async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = BatchDecoding(plan: plan, batchSize: 8)
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

    @Test func aFileAskedForAgainIsDecodedAgainRatherThanWaitedFor() async throws {
        let (collection, plan) = try Self.planned()
        defer { collection.remove() }
        let decoding = BatchDecoding(plan: plan, batchSize: 8)
        #expect(Self.path(await decoding.definitions(of: 3)) == Self.expectedPath(3))
        #expect(Self.path(await decoding.definitions(of: 5)) == Self.expectedPath(5))
        #expect(Self.path(await decoding.definitions(of: 3)) == Self.expectedPath(3))
    }
}
