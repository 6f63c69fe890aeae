import Foundation
import TestSupport
import Testing

/// Signals during a run: the same signal twice in a row (as GNU `timeout` sends SIGTERM to the child and then to its
/// process group) is one request to stop, so the run is cancelled and its reports written; a different signal ends the
/// run at once, and the reports still say what ran.
@Suite struct SignalScenarioTests {
    /// The reports of a run cancelled while its second file stalls (scenario `Scenarios/cancel`).
    static func expectCancelled(_ output: ScenarioRun.Output, run: Int) throws {
        #expect(output.result.exitCode == 143, "run \(run): \(output.result.stdout)\n\(output.result.stderr)")
        let requests = try ScenarioRun.jsonRequests(#require(output.json, "run \(run): no JSON report"))
        #expect(requests.map { $0["result"] as? String } == ["passed", "skipped", "skipped"])
        #expect(requests.dropFirst().map { $0["skipReason"] as? String } == ["cancelled", "cancelled"])
        #expect(output.json?.contains("\"exitStatus\": 143") == true)
        #expect(output.junit?.contains(#"<skipped message="cancelled"/>"#) == true, "run \(run): no JUnit report")
        // JUnit has no exit status: a case of its own makes the cancelled run read as failed (trial helper-171).
        #expect(output.junit?.contains(#"<testsuites name="runner" tests="4" failures="0" errors="1" skipped="2""#) == true, "\(output.junit ?? "")")
        #expect(output.junit?.contains(#"message="the run was cancelled by SIGTERM (exit status 143): the requests it did not finish are skipped""#) == true)
    }

    /// A second signal while a report is written (here a FIFO whose reader reads nothing, its pipe made small) ends the
    /// process with the run's status and names the report not written (trial helper-176: a report cut short, nothing
    /// said); no temporary file is left beside the reports, which are written whole or not at all.
    /// Also for the reports of a run stopped before sending (an unset `$env`: exit 2), which hung there before.
    @Test(arguments: [true, false]) func aSecondSignalWhileAReportIsWrittenNamesItAndLeavesNoPartOfIt(sends: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("report.html").path, page = folder.appendingPathComponent("kept.md").path
        try Data("the last complete report\n".utf8).write(to: URL(fileURLWithPath: page))
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        _ = fcntl(reader, 1031 /* F_SETPIPE_SZ */, 4096)
        let output = try await ScenarioRun.run("captured-credential", ["run", "requests", "--env", "local", "--report-html", fifo,
                                                                       "--report-markdown", page],
                                               environment: sends ? RunScenarioTests.capturedCredentialEnvironment() : [:]) { pid, _ in
            // The run ends well within this; its page then waits for the reader.
            Thread.sleep(forTimeInterval: 1.5)
            kill(pid, SIGTERM)
            Thread.sleep(forTimeInterval: 0.8)
            kill(pid, SIGTERM)
        }
        let stderr = output.result.stderr
        #expect(output.result.exitCode == (sends ? 4 : 2), "\(output.result.stdout)\n\(stderr)")
        // The page goes into the FIFO in place: what its reader got is cut short (trial helper-178).
        #expect(stderr.contains("error: stopped at once by a second signal (SIGTERM) while the reports were written; cut short: '\(fifo)'"),
                "\(stderr)")
        // The Markdown report, written before the page, is this run's, whole; nothing else is left in the folder.
        let markdown = try String(contentsOfFile: page, encoding: .utf8)
        #expect(markdown.hasPrefix("#") && markdown.hasSuffix("\n") && !markdown.contains("the last complete report"), "\(markdown)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["kept.md", "report.html"])
    }

    /// A second signal while a FIFO report waits for a process to read it names it not written: nothing went into it
    /// (trial helper-179: "cut short").
    @Test func aFIFONoProcessReadYetIsNotWrittenNotCutShort() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("report.tap").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = try await ScenarioRun.run("captured-credential", ["run", "requests", "--env", "local", "--report-tap", fifo],
                                               environment: RunScenarioTests.capturedCredentialEnvironment()) { pid, _ in
            // The run ends well within this; its report then waits for a reader, which never comes.
            Thread.sleep(forTimeInterval: 1.5)
            kill(pid, SIGTERM)
            Thread.sleep(forTimeInterval: 0.8)
            kill(pid, SIGTERM)
        }
        let stderr = output.result.stderr
        #expect(stderr.contains("error: stopped at once by a second signal (SIGTERM) while the reports were written; not written: '\(fifo)'"),
                "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.tap"])
    }

    /// On a terminal, a signal's notice replaces the progress line (and the `^C` the terminal echoed on it): no
    /// `[n/N] running…` is left above it (trial helper-186).
    @Test func onATerminalASignalsNoticeReplacesTheProgressLine() async throws {
        let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local"], terminal: true,
                                               errorsOnTerminal: true) { pid, server in
            guard server.waitForRequest("/stall", whileRunning: pid) else { return }
            kill(pid, SIGINT)
        }
        let screen = output.result.stdout
        #expect(screen.contains("running…"), "the progress line was drawn: \(screen.debugDescription)")
        let notice = try #require(screen.range(of: "interrupted: "), "\(screen.debugDescription)")
        #expect(screen[..<notice.lowerBound].hasSuffix("\r\u{1B}[K"), "\(screen.debugDescription)")
    }

    @Test func twoSIGTERMsBackToBackCancelTheRunOnceAndWriteTheReports() async throws {
        // Back to back, the two signals often reach the runner's handler as one; a few milliseconds apart, as two.
        // Both are one request to stop when they come within 500 ms.
        for (run, gap) in [0, 0, 0.002, 0.01, 0.05, 0.2].enumerated() {
            let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local"]) { pid, server in
                guard server.waitForRequest("/stall", whileRunning: pid) else { return }
                kill(pid, SIGTERM)
                if gap > 0 { Thread.sleep(forTimeInterval: gap) }
                kill(pid, SIGTERM)
            }
            try Self.expectCancelled(output, run: run + 1)
        }
    }

    /// A step's `each:` loop sends no element after SIGINT, nor after a failure under `--bail` (the rest are SKIP and never
    /// reach the server); the flow's cleanup step still runs (scenario `Scenarios/cancel-loop`). The element under way
    /// when the signal came, of a flow that cleans up, is given its answer, here its timeout, as it never comes.
    @Test func aStepLoopSendsNothingMoreAfterASignalOrABail() async throws {
        let signalled = try await ScenarioRun.run("cancel-loop", ["run", "requests/signal.yaml", "--env", "local"]) { pid, server in
            guard server.waitForRequest("/stall", whileRunning: pid) else { return }
            kill(pid, SIGINT)
        }
        #expect(signalled.result.exitCode == 130, "\(signalled.result.stdout)\n\(signalled.result.stderr)")
        #expect(signalled.received.map(\.path) == ["/status/200", "/stall", "/status/204"])
        let requests = try ScenarioRun.jsonRequests(#require(signalled.json, "no JSON report"))
        #expect(requests.map { $0["result"] as? String } == ["passed", "errored", "skipped", "passed"], "\(requests)")
        #expect(requests.map { $0["skipReason"] as? String } == [nil, nil, "cancelled", nil], "\(requests)")

        let bailed = try await ScenarioRun.run("cancel-loop", ["run", "requests/bail.yaml", "--env", "local", "--bail"])
        #expect(bailed.result.exitCode == 4, "\(bailed.result.stdout)\n\(bailed.result.stderr)")
        #expect(bailed.received.map(\.path) == ["/status/500", "/status/204"])
        #expect(bailed.result.stdout.contains("SKIP   requests/bail › create [2]"), "\(bailed.result.stdout)")
    }

    /// A step of a flow that cleans up, under way when SIGINT comes, gets its answer: its capture is kept and the cleanup
    /// deletes what it created; the step after it is not sent. A request of no such flow is abandoned, what it created
    /// left (scenario `Scenarios/cancel-cleanup`).
    @Test(arguments: [TestServerScheme.http, .https])
    func aStepUnderWayInAFlowThatCleansUpGetsItsAnswerAfterASignal(scheme: TestServerScheme) async throws {
        let env = scheme == .https ? "local-https" : "local"
        func interrupted(_ file: String) async throws -> ScenarioRun.Output {
            try await ScenarioRun.run("cancel-cleanup", ["run", "requests/\(file)", "--env", env], scheme: scheme) { pid, server in
                guard server.waitForRequest("/things", whileRunning: pid) else { return }
                kill(pid, SIGINT)
            }
        }
        let output = try await interrupted("lifecycle.yaml")
        #expect(output.result.exitCode == 130, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(output.received.map { "\($0.method) \($0.uri)" } == ["POST /things?delay_ms=1500", "DELETE /things/1"])
        #expect(output.things == [])
        let requests = try ScenarioRun.jsonRequests(#require(output.json, "no JSON report"))
        #expect(requests.map { $0["result"] as? String } == ["passed", "skipped", "passed"], "\(requests)")
        #expect(output.result.stderr.contains("a step under way in a flow with finally: steps is given up to 5 s to answer"), "\(output.result.stderr)")

        let plain = try await interrupted("plain.yaml")
        #expect(plain.result.exitCode == 130, "\(plain.result.stdout)\n\(plain.result.stderr)")
        let abandoned = try ScenarioRun.jsonRequests(#require(plain.json, "no JSON report"))
        #expect(abandoned.map { $0["skipReason"] as? String } == ["cancelled"], "\(abandoned)")
        #expect(plain.things == [1])
        #expect(!plain.result.stderr.contains("finally:"), "\(plain.result.stderr)")
    }

    /// A signal before the run watches the signals itself (here while it reads the `--rerun-failed` report from a FIFO)
    /// is held, and stops the run as soon as it starts: the reports are written and the status is 143.
    @Test func aSIGTERMBeforeTheRunStartsIsHeldAndStopsItWithItsReports() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("runner-early-\(UUID().uuidString).json").path
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        defer { unlink(fifo) }
        let report = #"{"version": 1, "summary": {"total": 1, "passed": 0, "failed": 1, "errored": 0, "skipped": 0, "flaky": 0, "#
            + #""durationMs": 1, "exitStatus": 4}, "requests": [{"file": "requests/01-answers.yaml", "name": "01-answers", "#
            + #""method": "GET", "url": "/status/200", "result": "failed", "failures": [{"message": "status"}]}]}"#
        let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local", "--rerun-failed", fifo]) { pid, _ in
            // Opening the FIFO returns once the runner opens it to read the report, before it watches the signals.
            guard let writer = FileHandle(forWritingAtPath: fifo) else { return }
            kill(pid, SIGTERM)
            Thread.sleep(forTimeInterval: 0.05)
            writer.write(Data(report.utf8))
            try? writer.close()
        }
        #expect(output.result.exitCode == 143, "\(output.result.stdout)\n\(output.result.stderr)")
        let requests = try ScenarioRun.jsonRequests(#require(output.json, "no JSON report"))
        #expect(requests.map { $0["skipReason"] as? String } == ["cancelled"], "\(requests)")
        #expect(output.received.isEmpty, "\(output.received.map(\.path))")
    }

    /// A signal while the input is read from a pipe that does not end (`--env-file` or `--rerun-failed` a FIFO whose writer
    /// stays open) ends the run a second later: nothing was sent, the reports say why, and the status is 143.
    @Test(arguments: ["--env-file", "--rerun-failed"])
    func aSIGTERMWhileAReadBlocksEndsTheRunWithItsReports(option: String) async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("runner-blocked-\(UUID().uuidString)").path
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        defer { unlink(fifo) }
        let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local", option, fifo]) { pid, _ in
            // Opening the FIFO returns once the runner opens it to read; the writer stays open until the runner has ended.
            guard let writer = FileHandle(forWritingAtPath: fifo) else { return }
            defer { try? writer.close() }
            Thread.sleep(forTimeInterval: 0.2)
            kill(pid, SIGTERM)
            for _ in 0..<300 where kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(output.result.exitCode == 143, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(output.result.stderr.contains("while it read its input"), "\(output.result.stderr)")
        #expect(output.result.stderr.contains("terminated: stopping while the input is read; nothing is sent"), "\(output.result.stderr)")
        #expect(output.json?.contains("which did not end within 1 s (a FIFO, or a pipe left open): nothing was sent") == true,
                "\(output.json ?? "no JSON report")")
        #expect(output.received.isEmpty, "\(output.received.map(\.path))")
    }

    /// A second, different signal while the input is still read ends the run at once, and its reports say nothing was sent.
    @Test func aSecondSignalWhileTheInputIsReadSaysNothingWasSent() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("runner-second-\(UUID().uuidString)").path
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        defer { unlink(fifo) }
        let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local", "--env-file", fifo]) { pid, _ in
            guard let writer = FileHandle(forWritingAtPath: fifo) else { return }
            defer { try? writer.close() }
            Thread.sleep(forTimeInterval: 0.2)
            kill(pid, SIGTERM)
            Thread.sleep(forTimeInterval: 0.1)
            kill(pid, SIGINT)
            for _ in 0..<300 where kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(output.result.exitCode == 130, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(output.json?.contains("the run was stopped at once by a second signal (SIGINT) while it read its input: nothing was sent") == true,
                "\(output.json ?? "no JSON report")")
        #expect(output.received.isEmpty, "\(output.received.map(\.path))")
    }

    @Test func gnuTimeoutsSIGTERMToTheChildAndItsGroupWritesTheReports() async throws {
        let timeout = URL(fileURLWithPath: "/usr/bin/timeout")
        try #require(FileManager.default.isExecutableFile(atPath: timeout.path), "GNU timeout is not installed")
        let runner = try RunnerProcess.executable.path
        for run in 1...3 {
            // `timeout` runs in a process group of its own, signals the runner, then the group (the runner again);
            // with --preserve-status it exits with the runner's status.
            let output = try await Self.run(program: timeout, ["--preserve-status", "-s", "TERM", "2", runner,
                                                               "run", "requests", "--env", "local"])
            try Self.expectCancelled(output, run: run)
        }
    }

    @Test func aDifferentSecondSignalEndsTheRunAtOnceAndTheReportsSayWhatRan() async throws {
        // TLS handshakes that never end: after SIGTERM the run sends the flow's cleanup step, when SIGINT comes.
        let silent = try SilentListener()
        defer { silent.close() }
        let output = try await ScenarioRun.run("stalled-connect", ["run", "cleanup/waits.yaml", "--env", "local", "--shard", "1/1"],
                                               environment: ["SILENT_PORT": String(silent.port)]) { pid, _ in
            Thread.sleep(forTimeInterval: 2)
            kill(pid, SIGTERM)
            Thread.sleep(forTimeInterval: 0.05)
            kill(pid, SIGINT)
        }
        // The report is still a part's, with its plan, for merge-reports and --rerun-failed.
        #expect(output.json?.contains(#""index": 1"#) == true && output.json?.contains(#""plan": null"#) == false, "\(output.json ?? "")")
        #expect(output.result.exitCode == 130, "\(output.result.stdout)\n\(output.result.stderr)")
        let requests = try ScenarioRun.jsonRequests(output.json)
        #expect(requests.first?["skipReason"] as? String == "cancelled", "\(requests)")
        let message = "the run was stopped at once by a second signal (SIGINT)"
        #expect((requests.last?["error"] as? [String: Any])?["message"] as? String == message
                    + ": only the requests that ended before it are reported")
        #expect(output.json?.contains("\"exitStatus\": 130") == true)
        #expect(output.junit?.contains(message) == true)
    }

    /// Signals once the run has ended, while its reports are written (here the JSON report is a FIFO nobody reads, so
    /// writing it never ends): the first cancels nothing and says so; a second ends the process at once with the run's
    /// own status, which the reports written already give too.
    @Test func signalsWhileTheReportsAreWrittenChangeNothingAndASecondEndsTheProcessWithTheRunsStatus() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-late-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("junit.xml").path, fifo = folder.appendingPathComponent("report.json").path
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        // The request answered, the run ends and blocks opening the FIFO, after writing the JUnit report.
        let result = try await Self.signalTwiceAfterTheRun(["run", "requests/01-answers.yaml", "--env", "local", "--report-junit", junit,
                                                            "--report-json", fifo], in: ScenarioRun.folder("cancel"), requests: 1, settle: 1)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("terminated: the run has ended; its reports are being written"), "\(result.stderr)")
        #expect(!result.stderr.contains("cancelling"), "\(result.stderr)")
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains(#"failures="0""#) && report.contains(#"errors="0""#), "\(report)")
    }

    /// A second signal while the reports of an ended run are rendered (40 failing requests with 60 KB bodies and a
    /// secret, seconds of redaction in a debug build) ends the process at once with the run's status, naming the reports
    /// it did not write (trial helper-94).
    @Test func aSecondSignalWhileTheReportsAreRenderedNamesThoseNotWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-render-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for directory in ["environments", "requests", "reports"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        try Data(#"baseURL: "http://127.0.0.1:{{ $env.TEST_SERVER_PORT }}"\#nsecrets: { key: { env: NONE_SET, default: Kq7-pX9zR2mW4vB8 } }\#n"#.utf8)
            .write(to: folder.appendingPathComponent("environments/local.yaml"))
        let body = (0..<1600).map { _ in UUID().uuidString }.joined(separator: " ")
        try Data("each: [\((1...40).map { "{ n: \($0) }" }.joined(separator: ", "))]\nrequest:\n  method: POST\n  url: /echo\n  text: \"{{ n }} \(body)\"\nexpect: { status: 201 }\n".utf8)
            .write(to: folder.appendingPathComponent("requests/big.yaml"))
        let reports = ["junit.xml", "report.json", "report.tap"].map { folder.appendingPathComponent("reports/\($0)").path }
        let result = try await Self.signalTwiceAfterTheRun(["run", "requests", "--env", "local", "--report-junit", reports[0],
                                                            "--report-json", reports[1], "--report-tap", reports[2]],
                                                           in: folder, requests: 40, settle: 0.5)
        #expect(result.exitCode == 4, "\(result.stdout.suffix(300))\n\(result.stderr)")
        #expect(result.stderr.contains("terminated: the run has ended; its reports are being written"), "\(result.stderr)")
        #expect(result.stderr.contains("error: stopped at once by a second signal (SIGINT) while the reports were rendered; not written: "
                                       + reports.map { "'\($0)'" }.joined(separator: ", ")), "\(result.stderr)")
        #expect(reports.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }

    /// Runs `runner` with `arguments` in `folder` against a fresh test server; once the server has received `requests`
    /// requests and `settle` seconds more have passed (the run has ended), sends SIGTERM, and SIGINT 0.6 s later. A runner
    /// still running 10 s after (hanging on a report it cannot write) is killed, failing the test.
    static func signalTwiceAfterTheRun(_ arguments: [String], in folder: URL, requests: Int, settle: TimeInterval) async throws
        -> RunnerProcess.Result {
        let server = try await TestServer.start()
        do {
            let result = try await RunnerProcess.run(arguments, in: folder,
                                                     environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]) { pid in
                while server.receivedRequests().count < requests, kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.01) }
                Thread.sleep(forTimeInterval: settle)
                kill(pid, SIGTERM)
                Thread.sleep(forTimeInterval: 0.6)
                kill(pid, SIGINT)
                for _ in 0..<100 where kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.1) }
                if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
            }
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Runs `program` with `arguments` in the `cancel` scenario against a fresh test server, with `--report-junit` and
    /// `--report-json` to a temporary folder.
    static func run(program: URL, _ arguments: [String]) async throws -> ScenarioRun.Output {
        let server = try await TestServer.start()
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("runner-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let junit = reports.appendingPathComponent("junit.xml"), json = reports.appendingPathComponent("report.json")
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(program: program, arguments + ["--report-junit", junit.path, "--report-json", json.path],
                                                 in: ScenarioRun.folder("cancel"),
                                                 environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)])
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        return ScenarioRun.Output(result: result, junit: try? String(contentsOf: junit, encoding: .utf8),
                                  json: try? String(contentsOf: json, encoding: .utf8), received: server.receivedRequests(),
                                  connectionsAccepted: server.connectionsAccepted)
    }
}
