#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What one finished child process cost: wall time, peak resident memory and how it ended.
struct ChildMeasurement: Sendable {
    /// Time from spawn to exit, in seconds.
    var seconds: Double
    /// User plus system CPU time the child used, in seconds (all its threads).
    var cpuSeconds: Double
    /// The child's own peak resident set size in bytes (from `wait4`'s `ru_maxrss`).
    var peakResidentBytes: Int
    /// The exit status, or nil when a signal ended the child.
    var exitStatus: Int32?
    /// The end of what the child wrote to standard error, for failure messages.
    var errorTail: String
}

/// Why a measurement could not be taken.
struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong, in words.
    var description: String
}

/// Runs a program to its end and measures it with `posix_spawn` and `wait4` (its own rusage, not the
/// running maximum of every child that `RUSAGE_CHILDREN` reports).
enum ChildProcess {
    /// The start of the names of this process's temporary error logs of children.
    private static var errorLogPrefix: String { "runner-bench-stderr-\(getpid())-" }

    /// Removes the error logs of children still running (the benchmark was interrupted).
    static func removeErrorLogs() {
        let directory = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(errorLogPrefix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Runs `executable` with `arguments`, standard output to /dev/null, and measures it.
    static func measure(_ executable: String, _ arguments: [String]) throws -> ChildMeasurement {
        let errorLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(errorLogPrefix)\(UInt32.random(in: 0 ... .max)).log").path
        defer { unlink(errorLog) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let elapsed = start.duration(to: .now)

        let exited = status & 0x7f == 0
        return ChildMeasurement(
            seconds: elapsed.inSeconds,
            cpuSeconds: usage.cpuSeconds,
            peakResidentBytes: Int(usage.ru_maxrss) * 1024,
            exitStatus: exited ? (status >> 8) & 0xff : nil,
            errorTail: tail(ofFile: errorLog))
    }

    /// The last few lines of a file, or "" when it cannot be read.
    private static func tail(ofFile path: String, lines: Int = 8) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

extension rusage {
    /// User plus system CPU time, in seconds.
    var cpuSeconds: Double {
        Double(ru_utime.tv_sec) + Double(ru_utime.tv_usec) / 1e6 + Double(ru_stime.tv_sec) + Double(ru_stime.tv_usec) / 1e6
    }

    /// This process's usage so far (all threads).
    static func ofThisProcess() -> rusage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage
    }
}
