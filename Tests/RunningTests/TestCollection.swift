import CollectionFormat
import CollectionReading
import Foundation
import HTTPCore
import Loaders
import Running
import TestSupport

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

    /// Loads `requests/` with environment `test` when `environments/test.yaml` exists, keeping every file.
    func load(variables: [(name: String, value: String)] = [], processEnvironment: ProcessEnvironment = [:],
              selection: TagFilter = TagFilter()) async -> LoadedCollection {
        var request = readRequest(variables: variables, processEnvironment: processEnvironment)
        request.selection = selection
        return await CollectionReader.read(request)
    }

    /// Loads and runs the collection against a scripted loader as `runner run` does; fails the test when the collection
    /// is invalid.
    func run(_ loader: ScriptedLoader, options: RunOptions = RunOptions(), variables: [(name: String, value: String)] = [],
             processEnvironment: ProcessEnvironment = [:]) async throws -> RunSummary {
        let loaded = await load(variables: variables, processEnvironment: processEnvironment, selection: options.selection)
        guard !loaded.hasErrors else { throw InvalidCollection(diagnostics: loaded.diagnostics) }
        return await CollectionRun(collection: loaded, options: options, transport: loader).run()
    }

    func readRequest(variables: [(name: String, value: String)], processEnvironment: ProcessEnvironment) -> ReadRequest {
        let hasEnvironment = FileManager.default.fileExists(atPath: root.appendingPathComponent("environments/test.yaml").path)
        var request = ReadRequest(
            paths: ["requests"], environmentName: hasEnvironment ? "test" : nil, variables: variables,
            processEnvironment: processEnvironment, currentDirectory: root.path)
        request.forSending = true
        return request
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

/// A login file capturing `token`, twelve files sending it and capturing `last` (the one numbered
/// `failing` expects the wrong `$.n`), and a last file using `last`; answered by `capturingLoader()`.
func capturingCollectionFiles(failing: Int? = nil) -> [String: String] {
    var files = ["environments/test.yaml": environment()]
    files["requests/00-login.yaml"] = "request: { url: /login }\ncapture:\n  token: $.token\n"
    for index in 1...12 {
        files["requests/\(String(format: "%02d", index))-use.yaml"] = """
            request: { url: "/items/\(index)", headers: { X-Token: "{{ token }}" } }
            expect:
              body:
                $.n: \(index == failing ? index * 10 : index)
            capture:
              last: $.n
            """
    }
    files["requests/99-last.yaml"] = "request: { url: '/final/{{ last }}' }\n"
    return files
}

/// Answers the files of `capturingCollectionFiles`, later items sooner, so parallel files finish out of order.
func capturingLoader() -> ScriptedLoader {
    var routes: [ScriptedLoader.Route] = [.path("/v1/login", .delayed(.milliseconds(20), .json(#"{"token":"t-1"}"#)))]
    for index in 1...12 {
        routes.append(.path("/v1/items/\(index)", .delayed(.milliseconds(Int64(13 - index) * 3), .json(#"{"n":\#(index)}"#))))
    }
    return ScriptedLoader(routes: routes, fallback: .response(status: 200))
}
