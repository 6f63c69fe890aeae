import Foundation
import Synchronization
import Testing

/// How many event loops `runner run` sends on: one for every two cores unless `NIO_SINGLETON_GROUP_LOOP_COUNT` says.
@Suite struct EventLoopCountTests {
    /// The names of the process's NIO event-loop threads, read while its request stalls on the test server.
    static func loopThreads(environment: [String: String]) async throws -> (names: [String], stderr: String) {
        let names = LockedNames()
        let output = try await ScenarioRun.run("cancel", ["run", "requests", "--env", "local"], environment: environment) { pid, server in
            guard server.waitForRequest("/stall", whileRunning: pid) else { return }
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            names.set(tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
                .filter { $0.hasPrefix("NIO-SGLTN") })
            kill(pid, SIGTERM)
        }
        return (names.get(), output.result.stderr)
    }

    @Test func oneLoopForEveryTwoCoresUnlessNIOsVariableSays() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let byDefault = try await Self.loopThreads(environment: [:])
        #expect((1...max(1, cores / 2)).contains(byDefault.names.count), "\(byDefault.names) on \(cores) cores")
        #expect(!byDefault.stderr.contains("NIO_SINGLETON_GROUP_LOOP_COUNT"))
        let asked = try await Self.loopThreads(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "3"])
        #expect(asked.names.count == 3, "\(asked.names)")
        #expect(!asked.stderr.contains("NIO_SINGLETON_GROUP_LOOP_COUNT"))
        for bad in ["0", "-1", "two", "", "5000"] {
            let ignored = try await Self.loopThreads(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": bad])
            #expect(ignored.names.count == byDefault.names.count, "\(bad): \(ignored.names)")
            #expect(ignored.stderr.contains("warning: NIO_SINGLETON_GROUP_LOOP_COUNT is \"\(bad)\", not a whole number from 1 to 1024"),
                    "\(bad): \(ignored.stderr)")
        }
    }

    /// The names a watching thread found.
    final class LockedNames: Sendable {
        private let names = Mutex<[String]>([])
        func set(_ found: [String]) { names.withLock { $0 = found } }
        func get() -> [String] { names.withLock { $0 } }
    }
}
