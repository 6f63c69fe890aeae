import Foundation

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

    /// Writes a line about a signal to standard error, on a line of its own in a terminal (which echoed `^C` without a
    /// line break), and without an empty line before it in a log.
    public static func signalNotice(_ text: String) { error((isatty(STDERR_FILENO) == 1 ? "\n" : "") + text) }

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

    /// Writes a line; a closed pipe is ignored rather than ending the process.
    private static func write(_ text: String, to handle: FileHandle) {
        var line = text.hasSuffix("\n") ? text : text + "\n"
        // Written from the string's own bytes (a line per request), without copying them into `Data` first.
        line.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = Foundation.write(handle.fileDescriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return
                }
                written += result
            }
        }
    }
}
