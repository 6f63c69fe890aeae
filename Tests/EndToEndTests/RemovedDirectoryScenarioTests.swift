import Foundation
import Testing

/// A run whose working directory was removed under the shell (trial helper-143): relative paths name nothing, and the
/// runner says why instead of only "no such file".
@Suite struct RemovedDirectoryScenarioTests {
    @Test func aRemovedWorkingDirectoryIsNamed() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("runner-gone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent.appendingPathComponent("gone"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let result = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                 ["-c", #"cd gone && rmdir "$PWD" && exec "$0" validate requests"#,
                                                  try RunnerProcess.executable.path],
                                                 in: parent, environment: [:])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("warning: the current directory no longer exists (it was removed)"), "\(result.stderr)")
    }
}
