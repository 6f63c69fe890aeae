import Foundation

/// A file named on the command line, read whole: a regular file, or a pipe (`<(curl …)`, a FIFO), which Foundation's
/// `contents(atPath:)` refuses; never more than `limit` bytes (`/dev/zero` is an error, not a process that grows
/// until the system ends it).
enum InputFile {
    /// The most bytes an input is read to.
    static let limit = 64 << 20

    /// Why an input cannot be read: it cannot be opened or read (a directory, say), or it is larger than `limit`.
    enum Problem: Error {
        case unreadable
        case tooLarge
        case notText

        /// What to add after "cannot read 'PATH'".
        var detail: String {
            switch self {
            case .unreadable: ""
            case .tooLarge: ": it is larger than \(InputFile.limit >> 20) MiB, the most runner reads of an input"
            case .notText: ": it is not UTF-8 text"
            }
        }
    }

    /// The bytes of the file at `path`.
    static func contents(atPath path: String) throws(Problem) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable }
        defer { try? handle.close() }
        var data = Data()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { throw .unreadable }
            guard let chunk, !chunk.isEmpty else { return data }
            data += chunk
            if data.count > limit { throw .tooLarge }
        }
    }

    /// The file at `path` as UTF-8 text.
    static func text(atPath path: String) throws(Problem) -> String {
        guard let text = String(data: try contents(atPath: path), encoding: .utf8) else { throw .notText }
        return text
    }
}
