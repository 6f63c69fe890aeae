import Foundation

/// A file named on the command line, read whole: a regular file, or a pipe (`<(curl …)`, a FIFO), which Foundation's
/// `contents(atPath:)` refuses.
enum InputFile {
    /// The bytes of the file at `path`, nil when it cannot be opened or read (a directory, say).
    static func contents(atPath path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.readToEnd() ?? Data()
    }
}
