import Foundation
import Testing
import YAML
@testable import CollectionFormat
@testable import CollectionReading

/// Decodes YAML text as a request file named `path` in /project, the way the collection reader decodes each file.
func decodeRequestFile(_ yaml: String, path: String = "requests/r.yaml") -> (file: RequestFile, diagnostics: [Diagnostic]) {
    let decoded = FileDecoding.requestFile(Array(yaml.utf8), path: path, absolutePath: "/project/" + path, defaultName: "r")
    let file = decoded.value
        ?? RequestFile(path: path, absolutePath: "/project/" + path, name: "r", tags: [], skip: nil, steps: [], isFlow: false)
    return (file, DiagnosticBag.sort(decoded.diagnostics))
}

/// Decodes YAML text as a single request and expects no diagnostics.
func decodeRequest(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> RequestDefinition? {
    let (file, diagnostics) = decodeRequestFile(yaml)
    #expect(diagnostics.isEmpty, "\(diagnostics)", sourceLocation: sourceLocation)
    return file.steps.first
}

/// The one-line form (`path:line:col: error: message`) and help of every diagnostic.
func problems(_ yaml: String) -> [String] {
    decodeRequestFile(yaml).diagnostics.map { diagnostic in
        diagnostic.description + (diagnostic.suggestion.map { " [help: \($0)]" } ?? "")
    }
}

/// Decodes YAML text as an environment file.
func decodeEnvironment(_ yaml: String, name: String = "qa") -> (EnvironmentDefinition, [Diagnostic]) {
    let path = "environments/\(name).yaml"
    let document = SourceDocument.parse(Array(yaml.utf8), path: path)
    var decoder = NodeDecoder(source: document.source)
    let environment = decoder.environment(document.root, name: name, absolutePath: path).definition
    return (environment, document.diagnostics + decoder.diagnostics.sorted)
}

/// A scratch directory tree for loader tests, removed by `remove()`.
struct ScratchDirectory {
    let root: String

    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("collection-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// Writes a file (creating directories) relative to the root, in `encoding` (UTF-8 unless given).
    func write(_ relativePath: String, _ text: String, encoding: String.Encoding = .utf8) {
        let path = root + "/" + relativePath
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: text.data(using: encoding))
    }

    /// Writes several files, by path relative to the root.
    func write(_ files: KeyValuePairs<String, String>) {
        for (path, text) in files { write(path, text) }
    }

    /// Reads the collection at `paths` with the root as the current directory.
    func readCollection(_ paths: [String], env: String? = nil, environments: String? = nil,
                        vars: [(name: String, value: String)] = [], processEnvironment: ProcessEnvironment = [:],
                        forSending: Bool = false) async -> LoadedCollection {
        var request = ReadRequest(paths: paths, environmentName: env, environmentsDirectory: environments,
                                  variables: vars, processEnvironment: processEnvironment, currentDirectory: root)
        request.forSending = forSending
        return await CollectionReader.read(request)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// The one-line form and help of a loaded collection's diagnostics.
func problems(of collection: LoadedCollection) -> [String] {
    collection.diagnostics.map { $0.description + ($0.suggestion.map { " [help: \($0)]" } ?? "") }
}
