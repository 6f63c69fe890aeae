import Foundation
import TestSupport
import Testing

/// A report path that cannot be written is a bad command line (exit 1) found before anything is sent, with a message
/// naming the path and what is wrong; a report that fails to be written at the end says why in words.
@Suite struct ReportPathTests {
    /// Runs `runner run requests` with `arguments` in a new folder holding one request to a fresh test server, a
    /// directory `adir`, a file `file.txt`, a symbolic link to it `link.txt` and a hard link `hard.txt`, and symbolic links
    /// to files not written yet: `ahead.txt` to `new.txt`, `nowhere.txt` into a missing directory.
    static func run(_ arguments: [String]) async throws -> (result: RunnerProcess.Result, received: [RecordedRequest], folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-report-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("adir"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("file.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.txt").path, withDestinationPath: "file.txt")
        try FileManager.default.linkItem(atPath: folder.appendingPathComponent("file.txt").path,
                                         toPath: folder.appendingPathComponent("hard.txt").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("ahead.txt").path, withDestinationPath: "new.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("nowhere.txt").path,
                                                   withDestinationPath: "missing/new.txt")
        try Data(#"request: { url: "http://127.0.0.1:{{ $env.TEST_SERVER_PORT }}/status/200" }"#.utf8)
            .write(to: folder.appendingPathComponent("requests/ping.yaml"))
        let server = try await TestServer.start()
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(["run", "requests"] + arguments, in: folder,
                                                 environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)])
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        return (result, server.receivedRequests(), folder)
    }

    @Test(arguments: [
        (["--report-junit", "adir"], "error: --report-junit: cannot write 'adir': it is a directory; give the path of a file"),
        (["--report-json", "adir/"], "error: --report-json: cannot write 'adir/': it is a directory; give the path of a file"),
        (["--report-json", "a/b/report.json"], "error: --report-json: cannot write 'a/b/report.json': its directory 'a/b' does not exist"),
        (["--report-junit", "file.txt/junit.xml"], "error: --report-junit: cannot write 'file.txt/junit.xml': 'file.txt' is not a directory"),
        (["--report-junit", "x", "--report-json", "x"],
         "error: --report-junit and --report-json name the same file ('x'); give each report its own file"),
        (["--report-junit", "x", "--report-json", "./x"],
         "error: --report-junit and --report-json name the same file ('x' and './x'); give each report its own file"),
        (["--report-junit", "file.txt", "--report-json", "link.txt"],
         "error: --report-junit and --report-json name the same file ('file.txt' and 'link.txt'); give each report its own file"),
        (["--report-junit", "hard.txt", "--report-json", "file.txt"],
         "error: --report-junit and --report-json name the same file ('hard.txt' and 'file.txt'); give each report its own file"),
        (["--report-junit", "ahead.txt", "--report-json", "new.txt"],
         "error: --report-junit and --report-json name the same file ('ahead.txt' and 'new.txt'); give each report its own file"),
        (["--report-json", "nowhere.txt"],
         "error: --report-json: cannot write 'nowhere.txt': it links to 'missing/new.txt': its directory './missing' does not exist"),
        (["--report-markdown", "missing/summary.md"],
         "error: --report-markdown: cannot write 'missing/summary.md': its directory 'missing' does not exist"),
        (["--report-tap", "file.txt/report.tap"], "error: --report-tap: cannot write 'file.txt/report.tap': 'file.txt' is not a directory"),
        (["--report-tap", "adir"], "error: --report-tap: cannot write 'adir': it is a directory; give the path of a file"),
        (["--report-json", "-"],
         "error: --report-json: cannot write '-': '-' is not standard output here (the console writes there); give the path of a file"),
        (["--report-html", "missing/report.html"],
         "error: --report-html: cannot write 'missing/report.html': its directory 'missing' does not exist"),
        (["--report-json", "r.json", "--report-markdown", "x", "--report-tap", "./x"],
         "error: --report-markdown and --report-tap name the same file ('x' and './x'); give each report its own file"),
        // A directory that takes no new file whatever its permissions (trial helper-176: found after sending, as root).
        (["--report-junit", "/proc/junit.xml"],
         "error: --report-junit: cannot write '/proc/junit.xml': its directory '/proc' "),
    ])
    func anUnusableReportPathIsABadCommandLineBeforeAnythingIsSent(arguments: [String], message: String) async throws {
        let (result, received, folder) = try await Self.run(arguments)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        #expect(received.isEmpty, "the server received \(received.map(\.path))")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x").path))
    }

    /// A report path that names a file the run reads (a request file, however written: through `..`, a symbolic link; a
    /// body file, a schema) is refused before anything is sent, and the files keep their text.
    @Test(arguments: [["--report-junit", "requests/ping.yaml"], ["--report-json", "./requests/../requests/ping.yaml"],
                      ["--report-html", "ping-link.html"], ["--report-tap", "requests/body.txt"],
                      ["--report-json", "requests/s.json"], ["--report-junit", "requests/ca.pem", "--cacert", "requests/ca.pem"]])
    func aReportPathNamingAFileTheRunReadsIsRefused(arguments: [String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-report-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["ping.yaml": "request: { url: \"http://127.0.0.1:9/never\", method: POST, file: body.txt }\nexpect: { schema: s.json }\n",
                     "body.txt": "a body", "s.json": "{}", "ca.pem": "a CA bundle"]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent("requests/\(name)")) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("ping-link.html").path,
                                                   withDestinationPath: "requests/ping.yaml")
        let result = try await RunnerProcess.run(["run", "requests"] + arguments, in: folder, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: \(arguments[0]): '\(arguments[1])' is a file the run reads; writing the report "
                                       + "would overwrite it; give the report a path of its own"), "\(result.stderr)")
        #expect(!result.stdout.contains("ping"), "nothing was sent: \(result.stdout)")
        for (name, text) in files {
            #expect(try String(contentsOf: folder.appendingPathComponent("requests/\(name)"), encoding: .utf8) == text)
        }
    }

    /// A report path naming the file the console's output goes to (`/dev/stdout` with the output redirected to a log, or
    /// the log itself) is refused before anything is sent, and the log keeps what was written (trial helper-95: the
    /// report truncated it).
    @Test(arguments: ["/dev/stdout", "run.log", "/dev/stderr"])
    func aReportPathNamingTheConsolesFileIsRefused(path: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-report-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"request: { url: "http://127.0.0.1:9/never" }"#.utf8).write(to: folder.appendingPathComponent("requests/ping.yaml"))
        let script = "echo earlier > run.log; \"$RUNNER\" run requests --report-json \(path) >> run.log 2>&1"
        let result = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: folder,
                                                 environment: ["NO_COLOR": "1", "RUNNER": try RunnerProcess.executable.path])
        #expect(result.exitCode == 1)
        let log = try String(contentsOf: folder.appendingPathComponent("run.log"), encoding: .utf8)
        #expect(log.hasPrefix("earlier\nerror: --report-json: cannot write '\(path)': it is where the console's output goes; "
                              + "the report would overwrite or mix with that output; give the report a file of its own"), "\(log)")
        #expect(!log.contains("ping"), "nothing was sent: \(log)")
    }

    /// So is `/dev/stdout` when the console's output goes to a pipe (the report would be mixed with it, as with `-`);
    /// `/dev/null` takes a report whatever goes there.
    @Test func aReportPathNamingThePipeTheConsoleWritesToIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-report-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"request: { url: "http://127.0.0.1:9/never" }"#.utf8).write(to: folder.appendingPathComponent("requests/ping.yaml"))
        let runner = try RunnerProcess.executable.path
        let piped = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", "\"$RUNNER\" run requests --report-json /dev/stdout 2>&1 | cat"],
                                                in: folder, environment: ["RUNNER": runner, "NO_COLOR": "1"])
        #expect(piped.stdout.contains("error: --report-json: cannot write '/dev/stdout': it is where the console's output goes"), "\(piped.stdout)")
        let discarded = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                    ["-c", "\"$RUNNER\" run requests --report-json /dev/null > /dev/null 2>&1; echo \"exit $?\""],
                                                    in: folder, environment: ["RUNNER": runner, "NO_COLOR": "1"])
        #expect(discarded.stdout == "exit 3\n", "the request errored (nothing listens on port 9): \(discarded.stdout)")
    }

    /// Whether this process has a terminal `/dev/tty` opens to (the runner it starts has the same one).
    static let hasTerminal: Bool = {
        let descriptor = open("/dev/tty", O_WRONLY | O_NONBLOCK | O_NOCTTY)
        if descriptor >= 0 { close(descriptor) }
        return descriptor >= 0
    }()

    /// A device that cannot be opened (`/dev/tty` without a terminal) is refused before anything is sent, not after.
    @Test(.enabled(if: !hasTerminal, "this process has a terminal: /dev/tty opens"))
    func aDeviceThatCannotBeOpenedIsRefusedBeforeAnythingIsSent() async throws {
        let (result, received, folder) = try await Self.run(["--report-json", "/dev/tty"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: --report-json: cannot write '/dev/tty': no such device or address"), "\(result.stderr)")
        #expect(received.isEmpty, "the server received \(received.map(\.path))")
    }

    /// `/dev/tty` is refused when the console writes to that terminal (run under `script`, which gives the runner one),
    /// as `/dev/stdout` is (trial helper-97).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script (util-linux) is missing"))
    func theConsolesTerminalIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-report-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"request: { url: "http://127.0.0.1:9/never" }"#.utf8).write(to: folder.appendingPathComponent("requests/ping.yaml"))
        let result = try await RunnerProcess.run(program: URL(fileURLWithPath: "/usr/bin/script"),
                                                 ["-qec", "\"$RUNNER\" run requests --report-json /dev/tty; echo \"exit $?\"", "/dev/null"],
                                                 in: folder, environment: ["RUNNER": try RunnerProcess.executable.path, "NO_COLOR": "1",
                                                                           "TERM": "dumb"])
        #expect(result.stdout.contains("cannot write '/dev/tty': it is where the console's output goes"), "\(result.stdout)")
        #expect(result.stdout.contains("exit 1"), "\(result.stdout)")
    }

    /// A report that cannot be written at the end says why in words, and the reports after it are written all the same.
    /// Too few open files (`ulimit -n`) is said before anything is sent, not a crash of the event loops nor every
    /// connection failing as if the API could not be reached; `--jobs` is lowered to what the limit allows; a closed
    /// standard output takes no file meant for anything else (trial helper-176).
    @Test func fewOpenFilesAreSaidAndJobsFitThem() async throws {
        let runner = try RunnerProcess.executable.path
        let server = try await TestServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A second host: a connection each (trial helper-179: kept connections to several hosts ran out of files).
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("other"), withIntermediateDirectories: true)
        try Data("request: { url: \"http://127.0.0.1:1/x\" }\n".utf8).write(to: folder.appendingPathComponent("other/x.yaml"))
        for index in 0..<4 {
            try Data("request: { url: \"http://127.0.0.1:\(server.port)/status/200\" }\n".utf8)
                .write(to: folder.appendingPathComponent("requests/\(index).yaml"))
        }
        func shell(_ script: String) async throws -> RunnerProcess.Result {
            try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: folder, environment: ["NO_COLOR": "1"])
        }
        let results: [RunnerProcess.Result]
        do {
            results = [try await shell("ulimit -n 10; exec '\(runner)' run requests --report-junit few.xml"),
                       try await shell("ulimit -n 30; exec '\(runner)' run requests --jobs 64"),
                       try await shell("exec '\(runner)' run requests --report-json r.json >&-"),
                       try await shell("ulimit -n 5; exec '\(runner)' validate requests"),
                       try await shell("ulimit -n 30; exec '\(runner)' run requests other --jobs 64")]
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        let (few, lowered, closed, fewest, hosts) = (results[0], results[1], results[2], results[3], results[4])
        #expect(hosts.stderr.contains("warning: --jobs 64 lowered to 4: this process may open 30 files (ulimit -n), and each job needs a "
                                      + "connection to each of the 2 hosts its requests reach and a file or two"), "\(hosts.stderr)")
        #expect(few.exitCode == 1 && few.stderr.contains("error: runner run needs at least 20 open files, and this process may open 10 (ulimit -n)"),
                "\(few.stdout)\(few.stderr)")
        // Its JUnit report says so, as on every way out (trial helper-179).
        let junit = try String(contentsOf: folder.appendingPathComponent("few.xml"), encoding: .utf8)
        #expect(junit.contains("<error type=\"request\" message=\"runner run needs at least 20 open files"), "\(junit)")
        // Fewer than the runtime's own threads need: said, not SIGILL, in any command.
        #expect(fewest.exitCode == 1 && fewest.stderr.contains("error: runner needs at least 8 open files, and this process may open 5"),
                "\(fewest.stderr)")
        #expect(lowered.exitCode == 0 && lowered.stderr.contains("warning: --jobs 64 lowered to 7: this process may open 30 files"),
                "\(lowered.stdout)\(lowered.stderr)")
        #expect(closed.exitCode == 0 && closed.stderr.isEmpty, "\(closed.stderr)")
    }

    @Test func aReportThatCannotBeWrittenAtTheEndSaysWhyInWords() async throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is missing")
        let (result, received, folder) = try await Self.run(["--report-junit", "/dev/full", "--report-json", "after.json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(received.count == 1, "the request was sent before the report was written")
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: cannot write the report '/dev/full': no space left on device"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        let after = try String(contentsOf: folder.appendingPathComponent("after.json"), encoding: .utf8)
        #expect(after.contains(#""passed": 1"#), "\(after)")
    }
}
