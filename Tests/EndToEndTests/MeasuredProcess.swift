import Foundation

/// Runs `runner` with posix_spawn and reaps it with wait4, so that the resource usage is that one child's
/// own (getrusage(RUSAGE_CHILDREN) would give the maximum over every child so far).
///
/// Peak memory needs care on Linux: posix_spawn shares the test process's memory until exec, and exec
/// starts the child's ru_maxrss at that memory's peak, so wait4's ru_maxrss is only an upper bound that
/// includes the test process (100 MB and more while other tests run). The child's own peak is its
/// `VmHWM` in /proc/PID/status (the high-water mark of the memory it got at exec), read in a loop while
/// it runs; it can miss growth in the last moment before exit (the loop reads about every 50 µs).
enum MeasuredProcess {
    /// How a run ended and what it cost.
    struct Measurement: Sendable {
        var exitCode: Int32
        var stderr: String
        /// From just before posix_spawn to wait4's return: process start-up included.
        var wallTime: Duration
        /// The child's own peak resident size (VmHWM, sampled while it runs), in bytes.
        var peakMemoryBytes: Int
        /// wait4's ru_maxrss in bytes: an upper bound that includes the test process's memory at the spawn.
        var maxRSSBoundBytes: Int
    }

    struct SpawnFailed: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "posix_spawn or wait4 failed: \(String(cString: strerror(code)))" }
    }

    /// Runs `runner` with the arguments; standard output is discarded, standard error is kept in `scratch`.
    static func run(_ arguments: [String], scratch: URL) throws -> Measurement {
        let executable = try RunnerProcess.executable.path
        let stderrPath = scratch.appendingPathComponent("stderr-\(UUID().uuidString)").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        _ = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        _ = posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("NO_COLOR=1"), nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        var status: Int32 = 0
        var usage = rusage()
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnFailed(code: spawned) }
        var peak = 0
        // Until the child has exited (WNOWAIT leaves it to wait4), sample its high-water mark.
        var info = siginfo_t()
        while true {
            peak = max(peak, highWaterMark(of: pid))
            info.si_signo = 0
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { throw SpawnFailed(code: errno) }
            if info.si_signo != 0 { break }
        }
        guard wait4(pid, &status, 0, &usage) == pid else { throw SpawnFailed(code: errno) }
        let wallTime = clock.now - start

        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: stderrPath)
        // Exited normally: the status is in bits 8-15 (WIFEXITED/WEXITSTATUS are macros Swift cannot import).
        let exitCode = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        // Linux reports ru_maxrss in kilobytes.
        return Measurement(exitCode: exitCode, stderr: stderr, wallTime: wallTime,
                           peakMemoryBytes: peak, maxRSSBoundBytes: Int(usage.ru_maxrss) * 1024)
    }

    /// The `VmHWM` of a running process in bytes, or 0 when it cannot be read (it has exited).
    static func highWaterMark(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// The fastest of `attempts` runs (the start-up of a debug binary varies with the machine's load);
    /// peak memory is the largest seen.
    static func fastest(of attempts: Int, _ arguments: [String], scratch: URL) throws -> Measurement {
        var best = try run(arguments, scratch: scratch)
        for _ in 1..<attempts {
            let next = try run(arguments, scratch: scratch)
            best.peakMemoryBytes = max(best.peakMemoryBytes, next.peakMemoryBytes)
            best.maxRSSBoundBytes = max(best.maxRSSBoundBytes, next.maxRSSBoundBytes)
            best.wallTime = min(best.wallTime, next.wallTime)
        }
        return best
    }
}
