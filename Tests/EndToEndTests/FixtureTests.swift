import Foundation
import Testing

/// Runs `runner` on every fixture folder and compares exit code, stderr and stdout with the expected files.
@Suite struct FixtureTests {
    @Test(arguments: FixtureCase.all())
    func fixture(_ fixture: FixtureCase) throws {
        let result = try RunnerProcess.run(try fixture.arguments(), in: fixture.directory, environment: fixture.environment())
        let expectedExit = try #require(fixture.optionalFile("expected-exit"), "missing expected-exit")
        #expect(result.exitCode == Int32(expectedExit.trimmingCharacters(in: .whitespacesAndNewlines)),
                "stderr:\n\(result.stderr)\nstdout:\n\(result.stdout)")
        if let expected = fixture.optionalFile("expected-stderr") {
            #expect(result.stderr == expected)
        }
        if let expected = fixture.optionalFile("expected-stdout") {
            #expect(result.stdout == expected)
        }
    }

    @Test func thereAreFixtures() {
        #expect(FixtureCase.all().count >= 40)
    }
}
