import Foundation
import TestSupport

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
    /// With `terminal`, standard output is a pseudo-terminal (so the runner may colour it); `errorsOnTerminal` makes
    /// standard error that terminal too, and `stdout` then holds both, interleaved as a terminal shows them.
    /// `whileRunning` is called on a thread of its own with the child's process id once it started.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String], terminal: Bool = false,
        errorsOnTerminal: Bool = false, whileRunning: (@Sendable (Int32) -> Void)? = nil
    ) async throws -> Result {
        let runner = try executable
        return try await onOwnThread {
            try runBlocking(runner, arguments, in: directory, environment: environment, terminal: terminal,
                            errorsOnTerminal: errorsOnTerminal, whileRunning: whileRunning)
        }
    }

    /// Runs another program (a script, `tar`, `chroot`) the same way, and waits for it to end.
    static func run(program: URL, _ arguments: [String], in directory: URL, environment: [String: String]) async throws -> Result {
        try await onOwnThread {
            try runBlocking(program, arguments, in: directory, environment: environment, terminal: false,
                            errorsOnTerminal: false, whileRunning: nil)
        }
    }

    private static func runBlocking(
        _ program: URL, _ arguments: [String], in directory: URL, environment: [String: String], terminal: Bool,
        errorsOnTerminal: Bool, whileRunning: (@Sendable (Int32) -> Void)?
    ) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let out = terminal ? try PseudoTerminal() : nil
        let pipe = Pipe(), err = Pipe()
        let terminalHandle = out.map { FileHandle(fileDescriptor: $0.secondary, closeOnDealloc: false) }
        process.standardOutput = terminalHandle ?? pipe
        process.standardError = errorsOnTerminal ? terminalHandle ?? err : err
        try process.run()
        out?.closeSecondary()
        // The unused pipe's writing end is ours alone then: closed, so that reading it ends at once.
        if errorsOnTerminal { try? err.fileHandleForWriting.close() }
        if let whileRunning {
            let pid = process.processIdentifier
            Thread.detachNewThread { whileRunning(pid) }
        }
        // Read both pipes while the process runs so a large output cannot block it.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = readAll(err.fileHandleForReading.fileDescriptor)
            group.leave()
        }
        let outData = out?.readToEnd() ?? readAll(pipe.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        return Result(
            exitCode: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}

extension RunnerProcess {
    /// Runs a program of /usr/bin and returns what it printed; throws when it fails.
    @discardableResult
    static func tool(_ program: String, _ arguments: [String]) async throws -> RunnerProcess.Result {
        let result = try await RunnerProcess.run(program: URL(fileURLWithPath: "/usr/bin/\(program)"), arguments,
                                                 in: Repository.root, environment: ["PATH": "/usr/bin:/bin"])
        guard result.exitCode == 0 else { throw CommandFailed(command: ([program] + arguments).joined(separator: " "), result: result) }
        return result
    }

    /// A command that exited with a failure status.
    struct CommandFailed: Error, CustomStringConvertible {
        let command: String
        let result: RunnerProcess.Result

        var description: String { "\(command) exited with \(result.exitCode): \(result.stderr)" }
    }
}

/// A pseudo-terminal pair: the child writes to the secondary side, the test reads the primary side.
private final class PseudoTerminal {
    let primary: Int32
    private(set) var secondary: Int32

    /// Opens `/dev/ptmx`, unlocks it (TIOCSPTLCK) and opens the secondary it names (TIOCGPTN); Linux only.
    init() throws {
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard primary >= 0, ioctl(primary, UInt(0x4004_5431), &unlock) == 0, ioctl(primary, UInt(0x8004_5430), &number) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw CocoaError(.fileReadUnknown) }
    }

    /// Closes the test's copy of the child's side, so reading ends when the child exits.
    func closeSecondary() {
        if secondary >= 0 { close(secondary) }
        secondary = -1
    }

    /// Everything the child wrote, until it closed the terminal (read fails with EIO then).
    func readToEnd() -> Data {
        defer { close(primary) }
        return readAll(primary)
    }
}


/// Runs blocking work (spawning and waiting for a process) on a thread of its own, so that it never
/// holds one of the few threads of Swift's cooperative pool, which timing-sensitive tests share.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
