import Foundation
import Testing

/// Polling (`retry.on: [expectations]`) under signals, over the built binary.
@Suite struct PollingScenarioTests {
    @Test func aSignalWhileWaitingBetweenPollsSkipsTheRequestAsCancelled() async throws {
        // The first poll is answered "pending" at once; the next one would come 30 s later: the signal comes in between.
        let output = try await ScenarioRun.run("cancel-poll", ["run", "requests", "--env", "local"]) { pid, server in
            // 2 s after the first poll (not after the start, which a busy machine delays).
            guard server.waitForRequest("/poll/never/1000", whileRunning: pid) else { return }
            Thread.sleep(forTimeInterval: 2)
            kill(pid, SIGINT)
        }
        #expect(output.result.exitCode == 130, "\(output.result.stdout)\n\(output.result.stderr)")
        // One poll was sent: the signal came while the run waited for the next.
        #expect(output.received.count == 1)
        let requests = try ScenarioRun.jsonRequests(output.json)
        #expect(requests.map { $0["result"] as? String } == ["skipped", "skipped"])
        #expect(requests.map { $0["skipReason"] as? String } == ["cancelled", "cancelled"])
        // Its time runs from the first poll to the signal, about 2 s, not the first poll's few milliseconds.
        #expect(((requests.first?["durationMs"] as? NSNumber)?.doubleValue ?? 0) >= 1500, "\(requests)")
        #expect(output.result.stdout.contains("2 requests: 0 passed, 2 skipped"), "\(output.result.stdout)")
        #expect(!output.result.stdout.contains("FAIL"))
    }
}
