import Foundation

/// The repository the tests run in: its root and what its files say.
enum Repository {
    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// runner's version: the text of the VERSION file.
    static let version = ((try? String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)

    /// A file or directory of the repository, by its path from the root.
    static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
