import Foundation
import Testing

/// A report file exists on every exit path a CI step sees: an invalid collection, a run stopped before sending (nothing
/// selected, an unusable --cacert or --proxy), and a run cancelled by a signal.
@Suite struct ReportScenarioTests {
    @Test func anInvalidCollectionWritesAReportWithAnErroredCasePerProblem() async throws {
        let output = try await ScenarioRun.run("invalid", ["run", "requests"])
        #expect(output.result.exitCode == 2)
        let requests = try ScenarioRun.jsonRequests(output.json)
        #expect(requests.map { $0["result"] as? String } == ["errored", "errored"])
        let errors = requests.compactMap { $0["error"] as? [String: Any] }.compactMap { $0["message"] as? String }
        #expect(errors.count == 2)
        #expect(errors.contains { $0.contains("heders") } && errors.contains { $0.contains("999") })
        #expect(output.json?.contains(#""exitStatus" : 2"#) == true || output.json?.contains(#""exitStatus": 2"#) == true)
        let junit = try #require(output.junit)
        #expect(junit.components(separatedBy: "<error").count - 1 == 2)
        // CI tools group cases by class name: the file's path in dotted form, without its extension.
        #expect(junit.contains(#"classname="requests.a""#) && junit.contains(#"classname="requests.b""#))
        #expect(output.received.isEmpty)
    }

    @Test(arguments: [
        (["--tag", "nope"], Int32(1), "--tag nope selects no request"),
        (["--cacert", "missing.pem"], Int32(2), "--cacert: the file 'missing.pem' does not exist"),
        (["--proxy", "ftp://proxy"], Int32(1), "--proxy: not a proxy URL"),
    ])
    func aRunStoppedBeforeSendingWritesAReportSayingWhy(arguments: [String], status: Int32, message: String) async throws {
        let output = try await ScenarioRun.run("parallel", ["run", "requests", "--env", "local"] + arguments)
        #expect(output.result.exitCode == status)
        let requests = try ScenarioRun.jsonRequests(output.json)
        #expect(requests.map { $0["result"] as? String } == ["errored"])
        let error = requests.first?["error"] as? [String: Any]
        #expect((error?["message"] as? String)?.hasPrefix(message) == true, "\(requests)")
        #expect(output.json?.contains("\"exitStatus\": \(status)") == true)
        #expect(try #require(output.junit).contains("<error type=\"request\" message=\"\(message.replacingOccurrences(of: "'", with: "&apos;"))"))
        #expect(output.received.isEmpty)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aSignalCancelsTheRunAndTheReportsSayWhatRanAndWhatWasCancelled(signal: Int32, status: Int32) async throws {
        // The second file stalls (a server that never answers); the signal comes once its request has arrived.
        let html = FileManager.default.temporaryDirectory.appendingPathComponent("runner-cancel-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: html) }
        let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local", "--report-html", html.path]) { pid, server in
            if server.waitForRequest("/stall", whileRunning: pid) { kill(pid, signal) }
        }
        #expect(output.result.exitCode == status, "\(output.result.stdout)\n\(output.result.stderr)")
        let requests = try ScenarioRun.jsonRequests(output.json)
        #expect(requests.map { $0["result"] as? String } == ["passed", "skipped", "skipped"])
        #expect(requests.dropFirst().map { $0["skipReason"] as? String } == ["cancelled", "cancelled"])
        #expect(output.json?.contains("\(status)") == true)
        #expect(output.junit?.contains("cancelled") == true)
        // The summary says the run was cancelled, and the page's headline that it did not pass.
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "?"
        #expect(output.result.stdout.contains("3 requests: 1 passed, 2 skipped in "), "\(output.result.stdout)")
        #expect(output.result.stdout.contains(" (cancelled by \(name))\n"), "\(output.result.stdout)")
        #expect(try String(contentsOf: html, encoding: .utf8).contains("<h1>runner report: failed</h1>"))
    }
}
