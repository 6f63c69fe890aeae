import CollectionFormat
import Foundation
import HTTPCore
import Loaders
import Reporting
import Running
import Testing

/// `runner run` checks every file first and keeps none: each is decoded again when its turn comes.
@Suite struct StreamedRunTests {
    /// Two files of one request each, `/one` and `/two`, to change or remove between the check and the run.
    private static func twoFiles() throws -> TestCollection {
        try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /one }\n",
            "requests/2.yaml": "request: { url: /two }\n",
        ])
    }

    private func collection() throws -> TestCollection { try TestCollection(capturingCollectionFiles(failing: 7)) }

    private func loader() -> ScriptedLoader { capturingLoader() }

    @Test(arguments: [1, 4])
    func streamedRunsGiveTheSameOutcomesAsRunsOfKeptFiles(jobs: Int) async throws {
        let collection = try collection()
        defer { collection.remove() }
        let streamed = try await collection.run(loader(), options: RunOptions(jobs: jobs))
        let kept = try await collection.run(loader(), options: RunOptions(jobs: jobs), keepingFiles: true)
        #expect(streamed.outcomes.count == 14)
        #expect(streamed.outcomes.map(\.url) == kept.outcomes.map(\.url))
        #expect(streamed.outcomes.map(\.verdict) == kept.outcomes.map(\.verdict))
        #expect(streamed.outcomes.filter { $0.verdict == .failed }.map(\.file) == ["requests/07-use.yaml"])
        #expect(streamed.outcomes.last?.url == "http://api.test/v1/final/12")
    }

    @Test func checkingKeepsNoFilesAndOnlyTheTextsOfFilesWithFailures() async throws {
        let collection = try collection()
        defer { collection.remove() }
        let (loaded, planner) = collection.plan()
        #expect(loaded.files.isEmpty)
        #expect(!loaded.hasErrors)
        #expect(loaded.sources.text(for: "requests/07-use.yaml") == nil)
        let run = CollectionRun(collection: loaded, plan: planner, transport: loader())
        #expect(run.requestCount == 14)
        _ = await run.run()
        // The failed expectation's file is kept for its snippet; passing files are not.
        #expect(loaded.sources.text(for: "requests/07-use.yaml")?.contains("$.n: 70") == true)
        #expect(loaded.sources.text(for: "requests/06-use.yaml") == nil)
        // The reports written after the run show the failing line too.
        let summary = await CollectionRun(collection: loaded, plan: planner, transport: loader()).run()
        let junit = JUnitReport.render(summary, sources: loaded.sources, redactor: Redactor(secrets: []))
        #expect(junit.contains("$.n: 70"))
    }

    @Test func aFileThatChangedAfterTheCheckIsReportedAsAnErrorNotSent() async throws {
        let collection = try Self.twoFiles()
        defer { collection.remove() }
        let (loaded, planner) = collection.plan()
        #expect(!loaded.hasErrors)
        try Data("request: { url: /two\n".utf8).write(to: collection.root.appendingPathComponent("requests/2.yaml"))
        let loader = ScriptedLoader()
        let summary = await CollectionRun(collection: loaded, plan: planner, transport: loader).run()
        #expect(summary.outcomes.map(\.verdict) == [.passed, .errored])
        let message = try #require(summary.outcomes.last?.error?.message)
        #expect(message.hasPrefix("the file changed after it was checked: "))
        #expect(summary.exitStatus == 3)
        #expect(await loader.received.map(\.path) == ["/v1/one"])
    }

    @Test func aFileRemovedAfterTheCheckIsReportedAsAnError() async throws {
        let collection = try Self.twoFiles()
        defer { collection.remove() }
        let (loaded, planner) = collection.plan(RunOptions(jobs: 2))
        try FileManager.default.removeItem(at: collection.root.appendingPathComponent("requests/1.yaml"))
        let loader = ScriptedLoader()
        let summary = await CollectionRun(collection: loaded, plan: planner, transport: loader).run()
        #expect(summary.outcomes.map(\.verdict) == [.errored, .passed])
        #expect(summary.outcomes.first?.error?.message == "the file cannot be read any more")
        #expect(summary.outcomes.first?.file == "requests/1.yaml")
        let console = ConsoleReport(sources: loaded.sources, redactor: Redactor(secrets: []), color: false, verbose: false)
        #expect(console.line(for: try #require(summary.outcomes.first)) == "ERROR  1")
        #expect(await loader.received.map(\.path) == ["/v1/two"])
    }
}
