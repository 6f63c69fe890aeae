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

    @Test func aSpilledFileRunsAsItWasCheckedThoughItChangedOrWentAwaySince() async throws {
        let collection = try Self.twoFiles()
        defer { collection.remove() }
        let (loaded, planner) = collection.plan()
        #expect(!loaded.hasErrors)
        try Data("request: { url: /changed }\n".utf8).write(to: collection.root.appendingPathComponent("requests/1.yaml"))
        try FileManager.default.removeItem(at: collection.root.appendingPathComponent("requests/2.yaml"))
        let loader = ScriptedLoader()
        let summary = await CollectionRun(collection: loaded, plan: planner, transport: loader).run()
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed])
        #expect(summary.exitStatus == 0)
        #expect(await loader.received.map(\.path) == ["/v1/one", "/v1/two"])
    }

    @Test func aFileThatChangedAfterTheCheckIsReportedAsAnErrorNotSentWithoutASpillFile() async throws {
        let collection = try Self.twoFiles()
        defer { collection.remove() }
        let (loaded, planner) = collection.plan(spilling: false)
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

    /// Seventy files, more than the read-ahead window holds: every tenth captures `n`, which the nine after it send,
    /// so workers wait for each other while files are decoded ahead; file 37 breaks after the check (read again from
    /// its path: no spill file).
    @Test(arguments: [2, 8])
    func aParallelRunOfManyFilesDecodesEachAgainAheadAndKeepsTheirOrder(jobs: Int) async throws {
        var files = ["environments/test.yaml": environment()]
        for index in 0..<70 {
            files["requests/\(String(format: "%02d", index)).yaml"] = index.isMultiple(of: 10)
                ? "request: { url: /items/\(index) }\ncapture:\n  n: $.n\n"
                : "request: { url: /items/\(index), headers: { X-N: '{{ n }}' } }\n"
        }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let (loaded, planner) = collection.plan(RunOptions(jobs: jobs), spilling: false)
        #expect(!loaded.hasErrors)
        try Data("request: { url: /items/37\n".utf8).write(to: collection.root.appendingPathComponent("requests/37.yaml"))
        // Later files answer sooner, so files finish out of order.
        let loader = ScriptedLoader(routes: (0..<70).map { index in
            .path("/v1/items/\(index)", .delayed(.milliseconds(Int64(70 - index) / 10), .json(#"{"n":\#(index)}"#)))
        })
        let summary = await CollectionRun(collection: loaded, plan: planner, transport: loader).run()

        #expect(summary.outcomes.map(\.file) == (0..<70).map { "requests/\(String(format: "%02d", $0)).yaml" })
        #expect(summary.outcomes.filter { $0.verdict == .errored }.map(\.file) == ["requests/37.yaml"])
        #expect(summary.outcomes.filter { $0.verdict == .passed }.count == 69)
        let received = await loader.received
        #expect(received.count == 69)
        #expect(!received.contains { $0.path == "/v1/items/37" })
        // Each file sent the `n` of the tenth file before it: captures reached later files in order.
        for request in received where !request.path.hasSuffix("0") {
            let index = Int(request.path.split(separator: "/").last!)!
            #expect(request.headers["X-N"] == String(index / 10 * 10), "file \(index)")
        }
    }

    @Test func aFileRemovedAfterTheCheckIsReportedAsAnErrorWithoutASpillFile() async throws {
        let collection = try Self.twoFiles()
        defer { collection.remove() }
        let (loaded, planner) = collection.plan(RunOptions(jobs: 2), spilling: false)
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
