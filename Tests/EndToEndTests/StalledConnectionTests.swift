import Foundation
import Synchronization
import Testing

/// A connection attempt that never completes (a TLS handshake with a server that accepts and never writes, a proxy that
/// never answers `CONNECT`) ends with its request: the run exits as soon as its last request ended, and SIGINT ends it
/// promptly (scenario `Scenarios/stalled-connect`).
@Suite struct StalledConnectionTests {
    /// The time a 1 s request is allowed with start-up and reports on a busy machine; the transport's own connect
    /// timeout, when the request's timeout did not limit the attempt, was 30 s.
    static let ceiling: Duration = .seconds(10)

    /// Runs `runner` with `arguments` in the `stalled-connect` scenario against a listener that never answers, as the
    /// server, or also as the proxy.
    static func runAgainstSilence(_ arguments: [String], throughProxy: Bool = false) async throws -> ScenarioRun.Output {
        let silent = try SilentListener()
        defer { silent.close() }
        let proxy = throughProxy ? ["--proxy", "http://127.0.0.1:\(silent.port)"] : []
        return try await ScenarioRun.run("stalled-connect", arguments + proxy, environment: ["SILENT_PORT": String(silent.port)])
    }

    /// How a timeout says nothing was sent to a server that never completed the TLS handshake, directly or through a proxy.
    static func notSent(throughProxy: Bool) -> String {
        let connection = throughProxy ? "the tunnel through the proxy (its connection, or its answer to the CONNECT)" : "the connection"
        return "the request was not sent: \(connection) or its TLS handshake did not complete"
    }

    /// The error message of each request of the JSON report ("" for one without an error).
    static func errorMessages(_ output: ScenarioRun.Output) throws -> [String] {
        try ScenarioRun.jsonRequests(output.json).map { ($0["error"] as? [String: Any])?["message"] as? String ?? "" }
    }

    @Test(arguments: [false, true])
    func aHandshakeThatNeverEndsEndsWithTheRequestsTimeout(throughProxy: Bool) async throws {
        let start = ContinuousClock.now
        let output = try await Self.runAgainstSilence(["run", "requests/times-out.yaml", "--env", "local"], throughProxy: throughProxy)
        let elapsed = ContinuousClock.now - start
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(elapsed >= .seconds(1))
        #expect(elapsed < Self.ceiling, "the run took \(elapsed)")
        #expect(try ScenarioRun.jsonRequests(output.json).map { $0["result"] as? String } == ["errored"])
        #expect(output.junit?.contains("<error") == true)
        #expect(output.result.stdout.contains("within 1s: " + Self.notSent(throughProxy: throughProxy)), "\(output.result.stdout)")
    }

    /// A request right after one whose connection attempt timed out gets an attempt of its own: it is not failed early
    /// by the attempt it would otherwise join (AsyncHTTPClient's pool hands it the connection being established).
    @Test(arguments: [false, true])
    func eachRequestGetsItsOwnTimeAfterAnAttemptTimedOut(throughProxy: Bool) async throws {
        let output = try await Self.runAgainstSilence(["run", "one-after-another", "--env", "local"], throughProxy: throughProxy)
        #expect(output.result.exitCode == 0, "\(output.result.stdout)\n\(output.result.stderr)")
        let durations = try ScenarioRun.jsonRequests(output.json).map { ($0["durationMs"] as? Double) ?? 0 }
        #expect(durations.count == 3 && durations.allSatisfy { $0 >= 650 }, "each waited its own 700 ms: \(durations)")
    }

    /// Every request that times out says how far it had come, also one that joined a connection attempt still under
    /// way for the one before it (it failed with that attempt, at its own deadline).
    @Test(arguments: [false, true])
    func everyTimeoutSaysHowFarItCame(throughProxy: Bool) async throws {
        let output = try await Self.runAgainstSilence(["run", "three-times", "--env", "local"], throughProxy: throughProxy)
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        let messages = try Self.errorMessages(output)
        #expect(messages.count == 3 && messages.allSatisfy { $0.hasSuffix("within 700ms: " + Self.notSent(throughProxy: throughProxy)) },
                "\(messages)")
    }

    /// With `--jobs`, a request that joined the connection attempt of one started before it is not failed by that
    /// attempt's timeout (a TLS handshake timeout, before its own deadline): it gets an attempt of its own, and its own
    /// timeout, with how far it came.
    @Test func aRequestThatJoinedAnotherJobsAttemptGetsItsOwnTimeout() async throws {
        let output = try await Self.runAgainstSilence(["run", "two-jobs", "--env", "local", "--jobs", "2"])
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        let messages = try Self.errorMessages(output)
        #expect(messages.count == 2 && messages.allSatisfy { $0.hasSuffix("within 1.5s: " + Self.notSent(throughProxy: false)) },
                "\(messages)")
    }

    @Test func sigintDuringAHandshakeEndsTheRunPromptly() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let signalled = Mutex<ContinuousClock.Instant?>(nil)
        let output = try await ScenarioRun.run("stalled-connect", ["run", "requests/waits.yaml", "--env", "local"],
                                               environment: ["SILENT_PORT": String(silent.port)]) { pid, _ in
            Thread.sleep(forTimeInterval: 2)
            signalled.withLock { $0 = .now }
            kill(pid, SIGINT)
        }
        let sinceSignal = try ContinuousClock.now - #require(signalled.withLock { $0 })
        #expect(output.result.exitCode == 130, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(sinceSignal < Self.ceiling, "the run ended \(sinceSignal) after SIGINT")
        #expect(try ScenarioRun.jsonRequests(output.json).map { $0["skipReason"] as? String } == ["cancelled"])
    }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts: the kernel completes connections into its backlog,
/// and nothing is ever written to them. Closing it resets them.
final class SilentListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 64) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
