import Foundation
import TestSupport
import Testing

/// Runs `runner` on every fixture folder and compares exit code, stderr and stdout with the expected files.
@Suite struct FixtureTests {
    /// Runs the case; a `run` case gets a test server whose port is `TEST_SERVER_PORT` in the run's environment, while
    /// `validate` and `list` send nothing and run without one.
    @Test(arguments: FixtureCase.all())
    func fixture(_ fixture: FixtureCase) async throws {
        let arguments = try fixture.arguments()
        let sends = arguments.first == "run"
        let server = sends ? try await TestServer.start() : nil
        defer { if let server { Task { try? await server.stop() } } }
        var environment = fixture.environment()
        environment["TEST_SERVER_PORT"] = server.map { String($0.port) }
        let result = try await RunnerProcess.run(arguments, in: fixture.directory, environment: environment)
        try await server?.stop()
        let expectedExit = try #require(fixture.optionalFile("expected-exit"), "missing expected-exit")
        #expect(result.exitCode == Int32(expectedExit.trimmingCharacters(in: .whitespacesAndNewlines)),
                "stderr:\n\(result.stderr)\nstdout:\n\(result.stdout)")
        let normalize = { (text: String) in sends ? OutputPatterns.normalizingTimes(text) : text }
        if let server, ProcessInfo.processInfo.environment["RECORD_FIXTURES"] == "1" {
            try fixture.record(stdout: normalize(result.stdout), stderr: normalize(result.stderr), port: server.port)
        }
        if let expected = fixture.optionalFile("expected-stderr") {
            #expect(normalize(result.stderr) == OutputPatterns.substituting(port: server?.port, in: expected))
        }
        if let expected = fixture.optionalFile("expected-stdout") {
            #expect(normalize(result.stdout) == OutputPatterns.substituting(port: server?.port, in: expected))
        }
    }

    @Test func thereAreFixtures() {
        #expect(FixtureCase.all().count >= 40)
    }
}
