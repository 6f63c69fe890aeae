import Synchronization

/// The exit statuses of the command line.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case badCommandLine = 1
    case invalidCollection = 2
    case requestFailed = 3
    case expectationFailed = 4
    /// Stopped by SIGHUP (its terminal closed, an SSH session dropped), as a shell reports it.
    case hungUp = 129
    /// Stopped by SIGINT (Ctrl-C), as a shell reports it.
    case interrupted = 130
    /// Stopped by SIGTERM, as a shell reports it.
    case terminated = 143
}

/// Values kept until the process exits, which frees them at once.
enum ProcessExit {
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: any Sendable) {
        kept.withLock { $0.append(value) }
    }
}
