import Foundation

/// Writes to standard output and standard error without the non-Sendable C globals.
public enum Console {
    /// Writes a line to standard output.
    public static func out(_ text: String) { write(text, to: .standardOutput) }

    /// Writes a line to standard error.
    public static func error(_ text: String) { write(text, to: .standardError) }

    /// Whether standard error is a terminal that accepts colour (never with `NO_COLOR`).
    public static var colorOnStandardError: Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// Whether standard output is a terminal that accepts colour (never with `NO_COLOR`).
    public static var colorOnStandardOutput: Bool { isatty(STDOUT_FILENO) == 1 && colorAllowed }

    /// Whether a progress line may be drawn on standard error (a terminal).
    public static var progressOnStandardError: Bool { isatty(STDERR_FILENO) == 1 }

    /// Replaces the progress line on standard error with `text` (empty clears it), without a line break.
    public static func progress(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(("\r\u{1B}[K" + text).utf8))
    }

    private static var colorAllowed: Bool { ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true }

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
