import Foundation
import Testing

/// runner's version comes from one place, the VERSION file.
@Suite struct VersionTests {
    @Test func versionIsTheVersionFile() async throws {
        let result = try await RunnerProcess.run(["--version"], in: Repository.root, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 0)
        #expect(!Repository.version.isEmpty)
        #expect(result.stdout == Repository.version + "\n")
    }
}
