import CollectionFormat
import Foundation
import HTTPCore
import Loaders
import Running

/// A collection written to a temporary folder: `requests/…` files and `environments/test.yaml`.
struct TestCollection {
    let root: URL

    /// Writes the files (paths relative to the folder) and returns the collection.
    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("runner-tests-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// Loads `requests/` with environment `test` when `environments/test.yaml` exists.
    func load(variables: [(name: String, value: String)] = [], processEnvironment: [String: String] = [:]) -> LoadedCollection {
        let hasEnvironment = FileManager.default.fileExists(atPath: root.appendingPathComponent("environments/test.yaml").path)
        return CollectionLoader.load(LoadRequest(
            paths: ["requests"], environmentName: hasEnvironment ? "test" : nil, variables: variables,
            processEnvironment: processEnvironment, currentDirectory: root.path))
    }

    /// Runs the collection against a scripted loader; fails the test when the collection is invalid.
    func run(_ loader: ScriptedLoader, options: RunOptions = RunOptions(), variables: [(name: String, value: String)] = [],
             processEnvironment: [String: String] = [:]) async throws -> RunSummary {
        let loaded = load(variables: variables, processEnvironment: processEnvironment)
        guard !loaded.hasErrors else { throw InvalidCollection(diagnostics: loaded.diagnostics) }
        return await CollectionRun(collection: loaded, options: options, transport: loader).run()
    }

    /// Removes the folder.
    func remove() { try? FileManager.default.removeItem(at: root) }

    struct InvalidCollection: Error, CustomStringConvertible {
        let diagnostics: [Diagnostic]
        var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }
}

/// An environment file for tests: the base URL of the scripted server plus extra lines.
func environment(_ extra: String = "") -> String {
    "baseURL: http://api.test/v1\n" + extra
}

extension ScriptedLoader.Reply {
    /// A JSON response with extra headers.
    static func json(_ text: String, status: Int = 200, headers: [(String, String)]) -> Self {
        var all = HTTPHeaders(headers)
        all["Content-Type"] = "application/json"
        return .response(status: status, headers: all, body: Data(text.utf8))
    }
}
