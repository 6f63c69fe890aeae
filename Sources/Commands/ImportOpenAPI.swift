import CollectionFormat
import Foundation
import HTTPCore
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
        if let problem = ImportProblems.outProblem(out, folder: URL(fileURLWithPath: out)) {
            Console.error("error: \(problem)\nnothing was written")
            return .badCommandLine
        }
        let data: Data
        do throws(InputFile.Problem) { data = try InputFile.contents(atPath: spec) } catch {
            Console.error("error: cannot read the OpenAPI document '\(spec)'\(error.detail)")
            return .badCommandLine
        }
        let sources = SourceCache()
        sources.store(WideEncoding.displayText(data), for: spec)
        let colors = Console.colors(STDERR_FILENO, .auto)
        let document: OpenAPIDocument
        do {
            // Response schemas are not compiled here: `validate` and `run` compile them for `expect.openapi`.
            document = try OpenAPIDocument(bytes: Array(data))
        } catch {
            Console.error(DiagnosticRenderer.render(error.problems.map { diagnostic($0, severity: .error) }, sources: sources, color: colors))
            Console.error("error: \(error.problems.count) \(plural(error.problems.count, "problem")) in \(spec); nothing was written")
            return .invalidCollection
        }
        let specPath = OutputPlacement(out: PathJoin.join(out, "")).relativePath(spec)
        let result = OpenAPIImport.translate(document, specPath: specPath, environmentName: OpenAPIImportNames.environmentName(ofSpec: spec))
        if !result.notes.isEmpty {
            Console.error(DiagnosticRenderer.render(result.notes.map { diagnostic($0, severity: .warning) }, sources: sources, color: colors))
        }
        let files = result.requests + [result.environment]
        let targets = files.map { PathJoin.join(out, $0.path) }
        if ImportProblems.refusesOverwritingInput(targets, input: spec) { return .badCommandLine }
        if ImportProblems.refusesOverwriting(targets, force: force) { return .badCommandLine }
        do {
            try StagedFolder.write(files, into: URL(fileURLWithPath: out).standardizedFileURL)
        } catch {
            Console.error("error: cannot write into '\(out)': \(StagedFolder.reason(error))\nnothing was written")
            return .badCommandLine
        }
        for file in files { Console.out("wrote \(PathJoin.join(out, file.path))") }
        if result.requests.isEmpty {
            Console.error("note: \(spec) has no operation (no path with a method; webhooks are not requests): only the environment was written")
        }
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
}

/// The names `import openapi` gives what it writes.
enum OpenAPIImportNames {
    /// The environment's name: the document's file name without extension, as a file name (`petstore`) that does not
    /// start with `-` (which `--env` would read as an option: `.hidden.yaml` gives `hidden`).
    static func environmentName(ofSpec spec: String) -> String {
        let stem = URL(fileURLWithPath: spec).deletingPathExtension().lastPathComponent
        let name = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.drop { $0 == "-" })
        return name.isEmpty ? "openapi" : name
    }
}
