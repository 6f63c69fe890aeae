import Foundation
import Synchronization
import Testing

/// How many event loops `runner run` sends on: one for every two cores unless `NIO_SINGLETON_GROUP_LOOP_COUNT` says.
@Suite struct EventLoopCountTests {
    /// The names of the process's NIO event-loop threads, read while its request stalls on the test server.
    static func loopThreads(environment: [String: String]) async throws -> [String] {
        let names = LockedNames()
        _ = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local"], environment: environment) { pid, server in
            guard server.waitForRequest("/stall", whileRunning: pid) else { return }
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            names.set(tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
                .filter { $0.hasPrefix("NIO-SGLTN") })
            kill(pid, SIGTERM)
        }
        return names.get()
    }

    @Test func oneLoopForEveryTwoCoresUnlessNIOsVariableSays() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let byDefault = try await Self.loopThreads(environment: [:])
        #expect((1...max(1, cores / 2)).contains(byDefault.count), "\(byDefault) on \(cores) cores")
        let asked = try await Self.loopThreads(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "3"])
        #expect(asked.count == 3, "\(asked)")
    }

    /// The names a watching thread found.
    final class LockedNames: Sendable {
        private let names = Mutex<[String]>([])
        func set(_ found: [String]) { names.withLock { $0 = found } }
        func get() -> [String] { names.withLock { $0 } }
    }
}
