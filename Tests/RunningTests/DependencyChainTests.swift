import CollectionFormat
import Loaders
@testable import Running
import Testing
import TestSupport

/// A collection in which every file captures what the next one reads: the longest chain of dependencies.
@Suite struct DependencyChainTests {
    /// `count` files, each reading `n` and capturing it again; the environment defines it first.
    private static func chainFiles(_ count: Int) -> [String: String] {
        var files = ["environments/test.yaml": environment("variables: { n: 0 }")]
        for index in 0..<count {
            files["requests/\(String(format: "%04d", index)).yaml"] = "request: { url: '/chain/{{ n }}' }\ncapture:\n  n: $.n\n"
        }
        return files
    }

    @Test func eachFileWaitsForEveryEarlierCapturerButHoldsOneCountPerVariable() async throws {
        let collection = try TestCollection(Self.chainFiles(600))
        defer { collection.remove() }
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 4), transport: ScriptedLoader())
        #expect(run.fileDependencies[0].isEmpty)
        #expect(run.fileDependencies[3] == [0, 1, 2])
        #expect(run.fileDependencies[599] == Array(0..<599))
        // What is held: one variable and a count per file, not the 179,700 earlier files of the chain.
        #expect(run.dependencies.waits.map(\.count).max() == 1)
        #expect(run.dependencies.waits[599] == [FileDependencies.Wait(variable: 0, capturersBefore: 599)])
    }

    @Test func fileListsGiveBackEachFilesListIncludingEmptyOnes() async {
        var lists = FileLists<Int>()
        let appended: [[Int]] = [[], [1, 2], [], [], [3], [4, 5, 6], []]
        for list in appended { lists.append(list) }
        #expect(lists.count == appended.count)
        #expect(lists.map(Array.init) == appended)
        #expect(lists[5].first == 4 && lists[5].last == 6)
    }

    @Test func aParallelRunOfAChainLongerThanTheLookaheadSendsEveryFileInOrder() async throws {
        let collection = try TestCollection(Self.chainFiles(600))
        defer { collection.remove() }
        let loader = ScriptedLoader([], fallback: .json(#"{"n":1}"#))
        let summary = try await collection.run(loader, options: RunOptions(jobs: 4))
        #expect(summary.outcomes.count == 600)
        #expect(summary.outcomes.allSatisfy { $0.verdict == .passed })
        // Only the first file sees the environment's value: every later one waited for the capture before it.
        let paths = await loader.received.map(\.path)
        #expect(paths == ["/v1/chain/0"] + Array(repeating: "/v1/chain/1", count: 599))
    }
}
