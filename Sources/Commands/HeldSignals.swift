internal import CHeldSignals
import Foundation
import Synchronization

/// SIGINT, SIGTERM and SIGHUP held from the moment the program is loaded (a C constructor, before `main` and the libraries'
/// static initializers) until `runner run` watches them itself, so that a signal in the milliseconds before (starting,
/// parsing the command line, checking the report paths, installing the watch) stops the run as any other does, its
/// reports written, instead of killing the process or being lost. Other commands release them at once.
public enum HeldSignals {
    /// From now on, SIGINT, SIGTERM and SIGHUP are recorded instead of ending the process (and no longer given to a watcher).
    public static func hold() {
        runner_hold_signals()
    }

    /// Gives SIGINT, SIGTERM and SIGHUP their default actions again, and raises the one held, if any (it ends the process).
    public static func release() {
        runner_release_held_signals()
    }

    /// The signal held, if one was, once whoever calls this watches the signals itself (they are no longer held).
    static func take() -> Int32? {
        let number = runner_take_held_signal()
        return number == 0 ? nil : Int32(number)
    }

    /// A watched signal: its number, and when it came (`now()`'s clock), which may be well before its handler runs.
    struct Received: Sendable {
        var number: Int32
        var nanoseconds: Int64
    }

    /// The time on the clock `Received` tells of, in nanoseconds.
    static func now() -> Int64 { runner_monotonic_nanoseconds() }

    /// From now on, each SIGINT, SIGTERM and SIGHUP is given to `handler` on a thread of its own (not a queue that busy workers
    /// could keep it waiting on) until `hold()` or the next `watch`; then the signal held before, if one was. False when
    /// it cannot be watched.
    static func watch(_ handler: @escaping @Sendable (Received) -> Void) -> Bool {
        let descriptor = runner_watch_signals()
        guard descriptor >= 0 else { return false }
        let start = watcher.withLock { watcher in
            defer { (watcher.handler, watcher.started) = (handler, true) }
            return !watcher.started
        }
        if start {
            // One thread for the process, reading the pipe the signal handler writes to.
            let thread = Thread {
                var record = [UInt8](repeating: 0, count: Int(RUNNER_SIGNAL_RECORD_SIZE))
                while true {
                    // A record is written at once, so it is read whole.
                    let count = record.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count == record.count {
                        let nanoseconds = record.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 1, as: Int64.self) }
                        watcher.withLock { $0.handler }?(Received(number: Int32(record[0]), nanoseconds: nanoseconds))
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else if count <= 0 {
                        return
                    }
                }
            }
            thread.name = "runner signals"
            thread.start()
        }
        if let early = take() { handler(Received(number: early, nanoseconds: now())) }
        return true
    }

    /// The handler signals go to, and whether the thread that reads them runs.
    private static let watcher = Mutex<(handler: (@Sendable (Received) -> Void)?, started: Bool)>((nil, false))

    /// Whether a SIGINT, SIGTERM or SIGHUP has come since the program was loaded, at the moment it came (before a watcher's
    /// handler has run).
    static var anyReceived: Bool {
        runner_any_signal_received() != 0
    }
}
