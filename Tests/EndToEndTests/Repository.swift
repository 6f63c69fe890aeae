import Foundation

/// The repository the tests run in: its root and what its files say.
enum Repository {
    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// runner's version: the text of the VERSION file.
    static let version = ((try? String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)

    /// The name of the release tarball for this machine, without `.tar.gz`: `runner-VERSION-linux-x86_64`, as
    /// `scripts/dist` names it.
    static var releaseName: String {
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "runner-\(version)-linux-\(machine)"
    }

    /// A file or directory of the repository, by its path from the root.
    static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }
}
