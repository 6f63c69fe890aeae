import Foundation
import TestSupport
import Testing

/// `--jobs` above the transport's usual 32 connections per host: every request gets a connection of its own, so none
/// waits for one and fails a `timeout` that waiting, not the server, used up.
@Suite struct ParallelScenarioTests {
    typealias Folder = ProxyScenarioTests.Folder

    @Test(arguments: TestServerScheme.allCases)
    func fortyJobsAgainstOneHostNeedNoWaitForAConnection(scheme: TestServerScheme) async throws {
        var files: [String: String] = [:]
        // A request waiting for another's connection would take two waits (3 s), past its timeout; one wait leaves a
        // second for 40 connections and their TLS handshakes on a busy machine.
        for index in 1...40 {
            files["requests/\(index).yaml"] = "request: { url: \"/wait/1500?n=\(index)\" }\noptions: { timeout: 2500ms }\n"
        }
        let (result, received, _) = try await Folder(scheme: scheme, files: files)
            .run(["run", "requests", "--env", "local", "--jobs", "40"], scheme: scheme)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("40 requests: 40 passed"), "\(result.stdout.suffix(400))")
        #expect(received.count == 40)
    }
}
