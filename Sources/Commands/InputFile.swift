import CollectionReading
import Foundation
import HTTPCore

/// A file named on the command line, read whole: a regular file, or a pipe (`<(curl …)`, a FIFO), which Foundation's
/// `contents(atPath:)` refuses; never more than a limit (`/dev/zero` is an error, not a process that grows until the
/// system ends it).
enum InputFile {
    /// The most bytes an input is read to.
    static let limit = 64 << 20
    /// The most bytes a JSON report (`--rerun-failed`, `merge-reports`) is read to: one runner wrote, whose failures'
    /// exchanges hold up to 64 KiB of body each, written as JSON strings, may be larger than other inputs.
    static let reportLimit = 1 << 30

    /// Why an input cannot be read: it cannot be opened or read (the system's reason: it does not exist, it is a
    /// directory), or it is larger than the limit it was read to.
    enum Problem: Error {
        case unreadable(reason: String)
        case tooLarge(limit: Int)
        case notText

        /// What to add after "cannot read 'PATH'".
        var detail: String {
            switch self {
            case .unreadable(let reason): ": \(reason)"
            case .tooLarge(let limit): ": it is larger than \(limit >> 20) MiB, the most runner reads of "
                + (limit == InputFile.reportLimit ? "a report" : "an input")
            case .notText: ": it is not UTF-8 text"
            }
        }

        /// Whether the file could not be opened or read.
        var isUnreadable: Bool {
            if case .unreadable = self { true } else { false }
        }
    }

    /// The bytes of the file at `path`, at most `limit`.
    static func contents(atPath path: String, limit: Int = limit) throws(Problem) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        // Why it cannot be opened, a link that leads nowhere named so.
        guard descriptor >= 0 else { throw .unreadable(reason: FileSystem.unreadableReason(path)) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(reason: reason(errno: errno)) }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[..<count])
            if data.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// A system error number in words: "no such file or directory".
    static func reason(errno code: Int32) -> String { SystemErrorText.words(code) }

    /// The file at `path` as UTF-8 text, at most `limit` bytes.
    static func text(atPath path: String, limit: Int = limit) throws(Problem) -> String {
        guard let text = String(data: try contents(atPath: path, limit: limit), encoding: .utf8) else { throw .notText }
        return text
    }
}
