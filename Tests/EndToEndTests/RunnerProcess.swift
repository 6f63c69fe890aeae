import Foundation

/// Runs the built `runner` executable and captures what it prints.
enum RunnerProcess {
    /// What a run printed and how it ended.
    struct Result: Sendable {
        var exitCode: Int32
        var stdout: String
        var stderr: String
    }

    /// The `runner` binary next to the test bundle in the build folder.
    static var executable: URL {
        get throws {
            var directory = Bundle.main.bundleURL
            for _ in 0..<3 {
                let candidate = directory.appendingPathComponent("runner")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
            throw NotBuilt()
        }
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "the runner executable was not found next to the tests; run `swift build` first" }
    }

    /// Runs `runner` with the arguments in a directory and waits for it to end, on a thread of its own so
    /// that waiting never blocks Swift's cooperative pool (which timing-sensitive tests share).
    static func run(_ arguments: [String], in directory: URL, environment: [String: String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, in: directory, environment: environment) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = try executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs so a large output cannot block it.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            exitCode: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}
