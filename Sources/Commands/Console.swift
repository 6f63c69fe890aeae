import Foundation
import Synchronization
import HTTPCore

/// `--color` and `--progress`: `auto` (decided by the terminal and the environment), `always` or `never`.
public enum ConsoleChoice: String, Sendable, CaseIterable {
    case auto, always, never
}

/// `--annotations`: `github` prints GitHub workflow commands for failures and errors, `none` does not, and `auto` is
/// `github` when `GITHUB_ACTIONS=true` (on GitHub Actions).
public enum AnnotationChoice: String, Sendable, CaseIterable {
    case auto, github, none

    /// Whether annotations are printed under `environment`.
    public func printsAnnotations(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .github: true
        case .none: false
        case .auto: environment["GITHUB_ACTIONS"] == "true"
        }
    }
}

/// Writes to standard output and standard error without the non-Sendable C globals.
public enum Console {
    /// Writes a line to standard output.
    public static func out(_ text: String) { write(text, to: .standardOutput) }

    /// Writes a line to standard error.
    public static func error(_ text: String) { write(text, to: .standardError) }

    /// Writes a line about a signal to standard error, in a terminal in place of what the line held (the progress line,
    /// the `^C` it echoed without a line break), and without an empty line before it in a log.
    public static func signalNotice(_ text: String) { error((isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : "") + text) }

    /// Whether output written to `descriptor` is coloured: `always` and `never` say so; `auto` colours a terminal,
    /// except that a non-empty `NO_COLOR` turns colour off, else `FORCE_COLOR` (non-empty, not `0`) turns it on, else
    /// `TERM=dumb` turns it off.
    public static func colors(_ descriptor: Int32, _ choice: ConsoleChoice,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return false }
            if let force = environment["FORCE_COLOR"], !force.isEmpty, force != "0" { return true }
            if environment["TERM"] == "dumb" { return false }
            return isatty(descriptor) == 1
        }
    }

    /// Whether the progress line is drawn on standard error: `always` and `never` say so; `auto` on a terminal only, and
    /// not on one that says it cannot move the cursor (`TERM=dumb`: Emacs' shell, some CI consoles).
    public static func showsProgress(_ choice: ConsoleChoice,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        choice == .auto ? isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb" : choice == .always
    }

    /// Replaces the progress line on standard error with `text` (empty clears it), without a line break.
    public static func progress(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(("\r\u{1B}[K" + text).utf8))
    }

    /// Writes a line; a closed pipe is ignored rather than ending the process, and any other failure (a full disk, a
    /// descriptor not open for writing) is kept for `writeProblem(of:)`.
    ///
    /// A pipe or socket is waited on before each write of at most `PIPE_BUF` bytes, which it then takes without blocking:
    /// once a signal has asked the run to stop, a stream that takes nothing for `stalledStreamSeconds` (a reader that
    /// stopped reading) is given up, so that the run still writes its reports and exits.
    private static func write(_ text: String, to handle: FileHandle) {
        let descriptor = handle.fileDescriptor
        guard let waits = waitsBeforeWriting(descriptor) else { return }
        var line = text.hasSuffix("\n") ? text : text + "\n"
        // Written from the string's own bytes (a line per request), without copying them into `Data` first.
        line.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                if waits, !waitUntilWritable(descriptor) { return fail(descriptor, stalled) }
                let result = Foundation.write(descriptor, bytes.baseAddress! + written, min(bytes.count - written, Int(PIPE_BUF)))
                if result < 0 {
                    if errno == EINTR { continue }
                    // A descriptor another program made non-blocking: waited on as a pipe is.
                    if errno == EAGAIN { if waitUntilWritable(descriptor) { continue } else { return fail(descriptor, stalled) } }
                    if errno != EPIPE { fail(descriptor, SystemErrorText.words(errno)) }
                    return
                }
                written += result
            }
        }
    }

    /// How long a stream that takes no output may hold up a run a signal stopped.
    static let stalledStreamSeconds = 1

    /// The failure of a stream given up so.
    private static let stalled = "it took no output for \(stalledStreamSeconds) s after the signal that stopped the run"

    /// What is known of standard output and standard error, by descriptor: whether writes wait for room (a pipe or
    /// socket), and the first failure, after which nothing more is written there.
    private static let streams = Mutex<[Int32: (waits: Bool, problem: String?)]>([:])

    /// Whether writes to `descriptor` wait until it has room: a pipe or a socket, which may be full; nil once a write to it
    /// has failed, as nothing more is written there.
    private static func waitsBeforeWriting(_ descriptor: Int32) -> Bool? {
        streams.withLock { streams in
            if let known = streams[descriptor] { return known.problem == nil ? known.waits : nil }
            var status = stat()
            let type = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
            let waits = type == S_IFIFO || type == S_IFSOCK
            streams[descriptor] = (waits, nil)
            return waits
        }
    }

    /// Keeps the first failure of `descriptor`.
    private static func fail(_ descriptor: Int32, _ problem: String) {
        streams.withLock { streams in
            if streams[descriptor]?.problem == nil { streams[descriptor] = (streams[descriptor]?.waits ?? false, problem) }
        }
    }

    /// Waits until `descriptor` has room for `PIPE_BUF` bytes (or an error for the write to say); false when a signal
    /// has asked the run to stop and it has had none for `stalledStreamSeconds` since.
    private static func waitUntilWritable(_ descriptor: Int32) -> Bool {
        var stalledSinceSignal = 0
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, 100)
            if ready > 0 || (ready < 0 && errno != EINTR) { return true }
            if HeldSignals.anyReceived {
                stalledSinceSignal += 100
                if stalledSinceSignal >= stalledStreamSeconds * 1000 { return false }
            }
        }
    }

    /// Why output written to `descriptor` (standard output or standard error) was not all written, when it was not: the
    /// system's words (`no space left on device`), or that it stalled after a signal. A closed pipe is not a failure.
    public static func writeProblem(of descriptor: Int32) -> String? {
        streams.withLock { $0[descriptor]?.problem }
    }
}
