import Foundation
import TestSupport

/// Runs `runner` in a folder below `Scenarios/` against a fresh test server, reports to a temporary folder.
enum ScenarioRun {
    /// What a scenario run printed and wrote, and what the test server received.
    struct Output: Sendable {
        var result: RunnerProcess.Result
        var junit: String?
        var json: String?
        var received: [RecordedRequest]
        /// How many TCP connections the test server accepted (a closed connection cannot be reused).
        var connectionsAccepted: Int
        /// The ids of the test server's `/things` left after the run.
        var things: [Int] = []
    }

    /// A scenario folder below `Scenarios/`.
    static func folder(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios/\(name)")
    }

    /// Runs `runner` with `arguments` plus `--report-junit` and `--report-json`; NO_COLOR is set unless
    /// `environment` sets it to "" (then it is left out). The test server speaks `scheme` (https: a self-signed
    /// certificate).
    /// `terminal` and `errorsOnTerminal` are as in `RunnerProcess.run`; `whileRunning` gets the runner's process id, as
    /// there, and the test server.
    static func run(
        _ scenario: String, _ arguments: [String], environment extra: [String: String] = [:], terminal: Bool = false,
        errorsOnTerminal: Bool = false, scheme: TestServerScheme = .http, whileRunning: (@Sendable (Int32, TestServer) -> Void)? = nil
    ) async throws -> Output {
        let server = try await TestServer.start(scheme)
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("runner-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        var environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
        environment.merge(extra) { $1 }
        environment = environment.filter { !$0.value.isEmpty || $0.key != "NO_COLOR" }
        let junit = reports.appendingPathComponent("junit.xml"), json = reports.appendingPathComponent("report.json")
        let all = arguments + ["--report-junit", junit.path, "--report-json", json.path]
        let watch = whileRunning.map { body -> @Sendable (Int32) -> Void in { pid in body(pid, server) } }
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(all, in: folder(scenario), environment: environment, terminal: terminal,
                                                 errorsOnTerminal: errorsOnTerminal, whileRunning: watch)
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        return Output(result: result, junit: try? String(contentsOf: junit, encoding: .utf8),
                      json: try? String(contentsOf: json, encoding: .utf8), received: server.receivedRequests(),
                      connectionsAccepted: server.connectionsAccepted, things: server.things)
    }

    /// Runs `runner` with `arguments` in `folder` against an HTTPS test server speaking `tls` (its port in
    /// `TEST_SERVER_PORT`) and a plain one (`TEST_HTTP_PORT`); both are stopped afterwards, also when the run throws.
    static func run(
        _ arguments: [String], in folder: URL, tls: TestServerTLS, environment extra: [String: String] = [:]
    ) async throws -> (result: RunnerProcess.Result, received: [RecordedRequest]) {
        let server = try await TestServer.start(tls: tls)
        let plain: TestServer
        do { plain = try await TestServer.start() } catch {
            try? await server.stop()
            throw error
        }
        var environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port), "TEST_HTTP_PORT": String(plain.port)]
        environment.merge(extra) { $1 }
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(arguments, in: folder, environment: environment)
        } catch {
            try? await server.stop()
            try? await plain.stop()
            throw error
        }
        try await server.stop()
        try await plain.stop()
        return (result, server.receivedRequests() + plain.receivedRequests())
    }

    /// The `requests` of a JSON report, in run order.
    static func jsonRequests(_ json: String?) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data((json ?? "").utf8)) as? [String: Any]
        return object?["requests"] as? [[String: Any]] ?? []
    }
}

extension TestServer {
    /// Waits until a request for `path` has arrived (looking every 10 ms); false when the process `pid` ends first.
    func waitForRequest(_ path: String, whileRunning pid: Int32) -> Bool {
        while count(of: path) == 0 {
            if kill(pid, 0) != 0 { return false }
            usleep(10_000)
        }
        return true
    }
}

extension TestServerScheme {
    /// The environment of the `faults` and `size` scenarios for a server of this scheme: `local`, or
    /// `local-https` (the same with an https base URL and `insecure: true`, the server's certificate being self-signed).
    var scenarioEnvironment: String {
        self == .http ? "local" : "local-https"
    }
}
