import CollectionFormat
import Foundation
import Interop
import OpenAPIContract

/// `runner import openapi SPEC --out DIR [--force]`: an OpenAPI 3.0/3.1 document as a collection (a request file per
/// operation and an environment), written all at once or not at all.
public struct ImportOpenAPI: Sendable {
    /// The OpenAPI document (YAML or JSON).
    public var spec: String
    /// The directory the collection goes into: `DIR/requests/…` and `DIR/environments/NAME.yaml`.
    public var out: String
    /// Whether existing files may be replaced.
    public var force = false

    public init(spec: String, out: String, force: Bool = false) {
        self.spec = spec
        self.out = out
        self.force = force
    }

    /// Reads and checks the document, translates it and writes the files; exit 2 when the document cannot be used,
    /// 1 when it cannot be read, a file exists (without `--force`) or a file cannot be written.
    public func execute() -> ExitStatus {
        guard let data = FileManager.default.contents(atPath: spec) else {
            Console.error("error: cannot read the OpenAPI document '\(spec)'")
            return .badCommandLine
        }
        let sources = SourceCache()
        sources.store(String(decoding: data, as: UTF8.self), for: spec)
        let colors = Console.colors(STDERR_FILENO, .auto)
        let document: OpenAPIDocument
        do {
            document = try OpenAPIDocument(bytes: Array(data))
            _ = try OpenAPIContract(document)
        } catch {
            Console.error(DiagnosticRenderer.render(error.problems.map { diagnostic($0, severity: .error) }, sources: sources, color: colors))
            Console.error("error: \(error.problems.count) \(plural(error.problems.count, "problem")) in \(spec); nothing was written")
            return .invalidCollection
        }
        let environmentName = OpenAPIImportNames.environmentName(ofSpec: spec)
        let result = OpenAPIImport.translate(document, specPath: relativePath(of: spec, from: out), environmentName: environmentName)
        if !result.notes.isEmpty {
            Console.error(DiagnosticRenderer.render(result.notes.map { diagnostic($0, severity: .warning) }, sources: sources, color: colors))
        }
        let files = result.requests + [result.environment]
        let existing = files.map { PathJoin.join(out, $0.path) }.filter { FileManager.default.fileExists(atPath: $0) }
        guard force || existing.isEmpty else {
            Console.error("error: runner import overwrites nothing without --force, and these files exist:\n"
                + existing.map { "  \($0)" }.joined(separator: "\n") + "\nnothing was written")
            return .badCommandLine
        }
        do {
            try TreeWriter.writeAtomically(files, into: URL(fileURLWithPath: out))
        } catch {
            Console.error("error: cannot write into '\(out)': \(error.localizedDescription)\nnothing was written")
            return .badCommandLine
        }
        for file in files { Console.out("wrote \(PathJoin.join(out, file.path))") }
        if !result.placeholders.isEmpty {
            Console.error("note: the document gives no example for \(result.placeholders.joined(separator: ", ")): "
                + "set \(result.placeholders.count == 1 ? "it" : "them") in \(PathJoin.join(out, result.environment.path)) "
                + "(written as \(OpenAPIImport.placeholder))")
        }
        return .success
    }

    /// A problem of the document as a diagnostic at its place in the file, with the JSON pointer as a note.
    private func diagnostic(_ problem: OpenAPIProblem, severity: Diagnostic.Severity) -> Diagnostic {
        let message = problem.message.hasPrefix("is ") || problem.message.hasPrefix("has ") || problem.message.hasPrefix("breaks ")
            ? "the OpenAPI document \(problem.message)" : problem.message
        var diagnostic = severity == .error
            ? Diagnostic.error(message, path: spec, at: problem.mark, suggestion: problem.suggestion)
            : Diagnostic.warning(message, path: spec, at: problem.mark, suggestion: problem.suggestion)
        if !problem.pointer.isEmpty { diagnostic.notes = ["at #\(problem.pointer)"] }
        return diagnostic
    }

    /// `path` as seen from the directory `directory` (both as typed, relative to the current directory), or absolute
    /// when they share nothing but the root.
    private func relativePath(of path: String, from directory: String) -> String {
        let file = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let shared = zip(file, base).prefix { $0 == $1 }.count
        guard shared > 1 else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        return (Array(repeating: "..", count: base.count - shared) + file[shared...]).joined(separator: "/")
    }
}

/// The names `import openapi` gives what it writes.
enum OpenAPIImportNames {
    /// The environment's name: the document's file name without extension, as a file name (`petstore`).
    static func environmentName(ofSpec spec: String) -> String {
        let stem = URL(fileURLWithPath: spec).deletingPathExtension().lastPathComponent
        let name = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return name.isEmpty ? "openapi" : name
    }
}

/// Writes a tree of files all at once: into a new folder beside the target directory, then moved into place.
enum TreeWriter {
    /// Writes `files` (paths relative to `directory`); on failure nothing written stays behind.
    static func writeAtomically(_ files: [(path: String, text: String)], into directory: URL) throws {
        let manager = FileManager.default
        let parent = directory.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".runner-import-\(UUID().uuidString)")
        try manager.createDirectory(at: staging, withIntermediateDirectories: false)
        defer { try? manager.removeItem(at: staging) }
        for file in files {
            let target = staging.appendingPathComponent(file.path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: target)
        }
        if !manager.fileExists(atPath: directory.path) {
            try manager.moveItem(at: staging, to: directory)
            return
        }
        var created: [URL] = []
        for file in files {
            let staged = staging.appendingPathComponent(file.path)
            let target = directory.appendingPathComponent(file.path)
            let existed = manager.fileExists(atPath: target.path)
            do {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                for path in created { try? manager.removeItem(at: path) }
                throw error
            }
            guard rename(staged.path, target.path) == 0 else {
                for path in created { try? manager.removeItem(at: path) }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
            }
            if !existed { created.append(target) }
        }
    }
}
