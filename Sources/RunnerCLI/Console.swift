import Foundation

/// Writes to standard output and standard error without the non-Sendable C globals.
enum Console {
    /// Writes a line to standard output.
    static func out(_ text: String) { write(text, to: .standardOutput) }

    /// Writes a line to standard error.
    static func error(_ text: String) { write(text, to: .standardError) }

    /// Whether standard error is a terminal that accepts colour (never with `NO_COLOR`).
    static var colorOnStandardError: Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    private static func write(_ text: String, to handle: FileHandle) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        handle.write(Data(line.utf8))
    }
}
