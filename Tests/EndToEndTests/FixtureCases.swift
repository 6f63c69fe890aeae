import Foundation
import Testing

/// One end-to-end case: a folder with `args`, input files and the expected exit code and output.
///
/// Layout of `Tests/EndToEndTests/Fixtures/<group>/<case>/`:
/// - `args`: the command line after `runner`, one argument per line (run with the case folder as the
///   current directory);
/// - `env` (optional): `NAME=VALUE` lines, the whole process environment of the run;
/// - `expected-exit`: the exit status;
/// - `expected-stderr`, `expected-stdout` (optional): the exact output; `{{PORT}}` stands for the
///   test server's port where a case needs one, `{{VERSION}}` for runner's version (the VERSION file).
struct FixtureCase: CustomTestStringConvertible, Sendable {
    let directory: URL
    let name: String

    var testDescription: String { name }

    /// Every case folder below `Fixtures/`, in name order.
    static func all() -> [FixtureCase] {
        let root = fixturesRoot
        let groups = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return groups.sorted().flatMap { group -> [FixtureCase] in
            let groupURL = root.appendingPathComponent(group)
            let cases = (try? FileManager.default.contentsOfDirectory(atPath: groupURL.path)) ?? []
            return cases.sorted().compactMap { name in
                let url = groupURL.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: url.appendingPathComponent("args").path) else { return nil }
                return FixtureCase(directory: url, name: "\(group)/\(name)")
            }
        }
    }

    static var fixturesRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// The arguments of the run, one per line of `args`.
    func arguments() throws -> [String] {
        try String(contentsOf: directory.appendingPathComponent("args"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The process environment of the run: the `env` file, plus PATH and NO_COLOR.
    func environment() -> [String: String] {
        var result = ["NO_COLOR": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        if let text = optionalFile("env") {
            for line in text.split(separator: "\n") where line.contains("=") {
                let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                result[String(parts[0])] = String(parts[1])
            }
        }
        return result
    }

    /// The contents of a file in the case folder, or nil when it is absent.
    func optionalFile(_ name: String) -> String? {
        try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Writes the output of a `run` case as the case's expected files, the port written as `{{PORT}}` and the
    /// User-Agent's version as `{{VERSION}}` (`RECORD_FIXTURES=1 swift test --filter EndToEndTests`; review the
    /// diff before committing).
    func record(stdout: String, stderr: String, port: Int) throws {
        for (name, text) in [("expected-stdout", stdout), ("expected-stderr", stderr)] {
            let url = directory.appendingPathComponent(name)
            let generic = OutputPatterns.generalizingVersion(in: text.replacingOccurrences(of: String(port), with: "{{PORT}}"))
            if generic.isEmpty { try? FileManager.default.removeItem(at: url) } else { try Data(generic.utf8).write(to: url) }
        }
    }
}
