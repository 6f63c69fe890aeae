import Foundation
import TestSupport
import Testing

/// Standard output that does not take what the runner writes: a reader that stopped reading (trial helper-143) and a
/// full disk. The run still ends and writes its reports, and the loss is said on standard error.
@Suite struct OutputStallScenarioTests {
    /// One SIGINT while standard output is a pipe nobody reads (the console blocked) cancels the run: within a second of
    /// giving up on that output, the reports are written and the process exits 130, where it used to wait for the reader.
    @Test func aSignalWhileStandardOutputIsBlockedStillEndsTheRunWithItsReports() async throws {
        let stalled = try await Self.runStalled(errorsToo: false, signals: 1)
        #expect(stalled.status == 130)
        #expect(stalled.errors.contains("error: cannot write to standard output: it took no output for 1 s after the signal that stopped the run"),
                "\(stalled.errors)")
        #expect(stalled.report.contains("\"exitStatus\": 130"), "\(stalled.report)")
    }

    /// GNU `timeout`'s SIGINT to the runner and then to its group, while standard error is blocked too (its notice of the
    /// first waits): still one request to stop, by when each came, not the stop at once of a second signal (trial
    /// helper-146: the reports lost the requests not yet ended).
    @Test func theSameSignalTwiceWhileStandardErrorIsBlockedIsOneRequestToStop() async throws {
        let stalled = try await Self.runStalled(errorsToo: true, signals: 2)
        #expect(stalled.status == 130)
        #expect(!stalled.report.contains("stopped at once"), "\(stalled.report)")
        #expect(stalled.report.contains("\"skipReason\": \"cancelled\"") || !stalled.report.contains("\"skipped\": 0,"),
                "\(stalled.report)")
    }

    /// Runs the `output-stall` scenario with standard output (and standard error, `errorsToo`) a pipe nobody reads, until
    /// its writes block, then sends `signals` SIGINTs a millisecond apart; the exit status, standard error (when not in
    /// the pipe) and the JSON report, once the process has ended (or been killed 20 s after the signal).
    private static func runStalled(errorsToo: Bool, signals: Int) async throws -> (status: Int32, errors: String, report: String) {
        let server = try await TestServer.start()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("runner-stall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fifo = scratch.appendingPathComponent("stdout").path, json = scratch.appendingPathComponent("report.json").path
        let errors = scratch.appendingPathComponent("stderr").path
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
        // Open for reading and never read: the runner's writes fill the pipe and then block.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let stderr = errorsToo ? "2>&1" : #"2> "$3""#
        process.arguments = ["-c", #"exec "$0" run requests --env local --verbose --report-json "$1" > "$2" "# + stderr,
                             try RunnerProcess.executable.path, json, fifo, errors]
        process.currentDirectoryURL = ScenarioRun.folder("output-stall")
        process.environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
        try process.run()
        // Until the pipe is full and the writes block, which holds the run back: no request for half a second (or the run
        // has ended, which the status would say).
        var (received, still, waited) = (-1, 0, 0)
        while still < 500, process.isRunning, waited < 30_000 {
            usleep(50_000)
            let count = server.receivedRequests().count
            (received, still, waited) = (count, count == received && count > 0 ? still + 50 : 0, waited + 50)
        }
        for index in 0..<signals {
            if index > 0 { usleep(1_000) }
            kill(process.processIdentifier, SIGINT)
        }
        let signalled = Date()
        while process.isRunning, Date().timeIntervalSince(signalled) < 20 { usleep(20_000) }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try await server.stop()
        #expect(ended, "still running 20 s after the signal")
        return (process.terminationStatus, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: json, encoding: .utf8)) ?? "")
    }

    /// Output a command cannot write (a full disk) is said on standard error: a command whose product is its output exits
    /// 1, while `run` keeps its status (its reports are files); a closed pipe (`| head -1`) is no failure.
    @Test func outputThatCannotBeWrittenIsSaidAndFailsACommandWhoseProductItIs() async throws {
        let runner = try RunnerProcess.executable
        let folder = ScenarioRun.folder("output-stall")
        for (command, status) in [("--version", 1), ("schema", 1), ("list requests", 1), ("run requests --env local", 3)] {
            let result = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" "# + command + " > /dev/full", runner.path],
                                                     in: folder, environment: ["TEST_SERVER_PORT": "1"])
            #expect(result.exitCode == Int32(status), "\(command): \(result.stderr)")
            #expect(result.stderr.hasSuffix("error: cannot write to standard output: no space left on device\n"), "\(command): \(result.stderr)")
        }
        // Out of descriptors (`ulimit -n`), a directory that cannot be listed says why, not that it holds no environment.
        let starved = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                  ["-c", #"ulimit -n 8 && exec "$0" run requests --env local"#, runner.path],
                                                  in: folder, environment: ["TEST_SERVER_PORT": "1"])
        if starved.exitCode == 2 {
            // Which read runs out first (the environments directory, the requests directory, a file) depends on the machine.
            #expect(starved.stderr.contains(": too many open files"), "\(starved.stderr)")
            #expect(!starved.stderr.contains("no environment files") && !starved.stderr.contains("check its permissions"),
                    "\(starved.stderr)")
        } else {
            print("skipping the descriptor check: under ulimit -n 8 run ended with \(starved.exitCode): \(starved.stderr)")
        }
        let piped = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", #""$0" list requests | head -1 > /dev/null"#, runner.path],
                                                in: folder, environment: [:])
        #expect(piped.exitCode == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }
}
