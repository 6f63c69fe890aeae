import CollectionFormat
import Foundation
import HTTPCore
import Loaders
import Reporting
import Running
import TestSupport
import Testing

/// `runner run` reads, checks and decodes every file once and runs what it checked.
@Suite struct CheckedRunTests {
    /// Two files of one request each, `/one` and `/two`, to change or remove between the check and the run.
    private static func twoFiles() throws -> TestCollection {
        try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /one }\n",
            "requests/2.yaml": "request: { url: /two }\n",
        ])
    }

    @Test(arguments: [1, 4])
    func filesRunAsTheyWereCheckedThoughTheyChangedOrWentAwaySince(jobs: Int) async throws {
        let collection = try Self.twoFiles()
        defer { collection.remove() }
        let loaded = await collection.load()
        #expect(!loaded.hasErrors)
        try Data("request: { url: /changed\n".utf8).write(to: collection.root.appendingPathComponent("requests/1.yaml"))
        try FileManager.default.removeItem(at: collection.root.appendingPathComponent("requests/2.yaml"))
        let loader = ScriptedLoader()
        let summary = await CollectionRun(collection: loaded, options: RunOptions(jobs: jobs), transport: loader).run()
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed])
        #expect(summary.exitStatus == 0)
        #expect(await loader.received.map(\.path).sorted() == ["/v1/one", "/v1/two"])
    }

    @Test func aFailedExpectationShowsItsLineInTheReportsWrittenAfterTheRun() async throws {
        let collection = try TestCollection(capturingCollectionFiles(failing: 7))
        defer { collection.remove() }
        let loaded = await collection.load()
        let summary = await CollectionRun(collection: loaded, options: RunOptions(), transport: capturingLoader()).run()
        #expect(summary.outcomes.filter { $0.verdict == .failed }.map(\.file) == ["requests/07-use.yaml"])
        let junit = JUnitReport.render(summary, sources: loaded.sources, redactor: Redactor(secrets: []))
        #expect(junit.contains("$.n: 70"))
    }

    /// Seventy files: every tenth captures `n`, which the nine after it send, so workers wait for each other.
    @Test(arguments: [2, 8])
    func aParallelRunOfManyFilesKeepsTheirOrderAndCaptures(jobs: Int) async throws {
        var files = ["environments/test.yaml": environment()]
        for index in 0..<70 {
            files["requests/\(String(format: "%02d", index)).yaml"] = index.isMultiple(of: 10)
                ? "request: { url: /items/\(index) }\ncapture:\n  n: $.n\n"
                : "request: { url: /items/\(index), headers: { X-N: '{{ n }}' } }\n"
        }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        // Later files answer sooner, so files finish out of order.
        let loader = ScriptedLoader(routes: (0..<70).map { index in
            .path("/v1/items/\(index)", .delayed(.milliseconds(Int64(70 - index) / 10), .json(#"{"n":\#(index)}"#)))
        })
        let summary = try await collection.run(loader, options: RunOptions(jobs: jobs))

        #expect(summary.outcomes.map(\.file) == (0..<70).map { "requests/\(String(format: "%02d", $0)).yaml" })
        #expect(summary.outcomes.allSatisfy { $0.verdict == .passed })
        let received = await loader.received
        #expect(received.count == 70)
        // Each file sent the `n` of the tenth file before it: captures reached later files in order.
        for request in received where !request.path.hasSuffix("0") {
            let index = Int(request.path.split(separator: "/").last!)!
            #expect(request.headers["X-N"] == String(index / 10 * 10), "file \(index)")
        }
    }
}

/// `each:` files run once per row, one row after another.
@Suite struct DataDrivenRunTests {
    @Test(arguments: [1, 4])
    func aThousandRowCSVRunsEveryRowInOrderWithItsVariables(jobs: Int) async throws {
        let csv = "n,label\n" + (1...1_000).map { "\($0),\"row, \($0)\"" }.joined(separator: "\n") + "\n"
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/_rows.csv": csv,
            "requests/rows.yaml": "each: _rows.csv\nrequest: { url: '/items/{{ n }}', headers: { X-Label: '{{ label }}' } }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader()
        let summary = try await collection.run(loader, options: RunOptions(jobs: jobs))
        #expect(summary.outcomes.count == 1_000)
        #expect(summary.outcomes.allSatisfy { $0.verdict == .passed })
        #expect(summary.outcomes.prefix(2).map(\.name) == ["rows [1]", "rows [2]"])
        let received = await loader.received
        #expect(received.map(\.path) == (1...1_000).map { "/v1/items/\($0)" })
        #expect(received.last?.headers["X-Label"] == "row, 1000")
    }
}
