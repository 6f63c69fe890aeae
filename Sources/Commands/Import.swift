import CollectionFormat
import Foundation
import Interop

/// `runner import curl INPUT [--out PATH] [--force]`: curl commands (an argument, a file of them, or `-` for standard
/// input) as request files, printed or written all at once, never half of them.
public struct ImportCurl: Sendable {
    /// A curl command, the path of a file of them, or `-`.
    public var input: String
    /// A request file (one command) or a directory (a file per command); nil prints the YAML.
    public var out: String?
    /// Whether existing files may be replaced.
    public var force = false

    public init(input: String, out: String? = nil, force: Bool = false) {
        self.input = input
        self.out = out
        self.force = force
    }

    /// Translates every command, then prints or writes them; exit 2 when a command cannot be translated, 1 when the
    /// input cannot be read or a file cannot be written.
    public func execute() -> ExitStatus {
        guard let source = readInput() else { return .badCommandLine }
        let placement = out.map { OutputPlacement(out: $0) }
        let filePath: @Sendable (String) -> String = if let placement { placement.relativePathFunction } else { { $0 } }
        let result: CurlImport.Result = CurlImport.read(source.text, filePath: filePath)
        let sources = SourceCache()
        sources.store(source.text, for: source.name)
        let errors: [Diagnostic] = result.errors.map { problem in
            Diagnostic.error(problem.locatedMessage, path: source.name, at: problem.mark, suggestion: problem.suggestion)
        }
        let warnings: [Diagnostic] = result.warnings.map { problem in
            Diagnostic.warning(problem.locatedMessage, path: source.name, at: problem.mark, suggestion: problem.suggestion)
        }
        let diagnostics = errors + warnings
        if !diagnostics.isEmpty {
            Console.error(DiagnosticRenderer.render(diagnostics, sources: sources, color: Console.colors(STDERR_FILENO, .auto)))
        }
        guard result.errors.isEmpty else {
            Console.error("error: \(result.errors.count) \(plural(result.errors.count, "problem")) in \(source.name); nothing was written")
            return .invalidCollection
        }
        guard let placement else {
            Console.out(result.requests.map { "# command \($0.command)\n" + $0.document.yaml }.joined(separator: "---\n"))
            return .success
        }
        return write(result.requests.map { $0.document }, to: placement)
    }

    /// The text to read and the name its diagnostics give it; nil (after saying why) when a file cannot be read.
    private func readInput() -> (text: String, name: String)? {
        if input == "-" {
            return (String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self), "<stdin>")
        }
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.contains(where: \.isWhitespace), !trimmed.hasPrefix("curl") else { return (input, "<command>") }
        guard let data = FileManager.default.contents(atPath: input) else {
            Console.error("error: '\(input)' is neither a curl command nor a readable file of them\n"
                + "give a command in quotes, such as runner import curl 'curl https://api.example.com/users', a file, or - for standard input")
            return nil
        }
        return (String(decoding: data, as: UTF8.self), input)
    }

    /// Writes the documents where `placement` says, through a temporary folder beside it, so that either every file is
    /// in place or none is.
    private func write(_ documents: [RequestDocument], to placement: OutputPlacement) -> ExitStatus {
        let targets = placement.targets(for: documents)
        if let problem = placement.problem(writing: targets.count) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let existing = targets.map { $0.path }.filter { FileManager.default.fileExists(atPath: $0) }
        guard force || existing.isEmpty else {
            Console.error("error: runner import overwrites nothing without --force, and these files exist:\n"
                + existing.map { "  \($0)" }.joined(separator: "\n") + "\nnothing was written")
            return .badCommandLine
        }
        do {
            try placement.writeAtomically(zip(targets, documents).map { (path: $0, text: $1.yaml) })
        } catch {
            Console.error("error: cannot write into '\(placement.out)': \(error.localizedDescription)\nnothing was written")
            return .badCommandLine
        }
        for target in targets { Console.out("wrote \(target.path)") }
        return .success
    }
}

/// Where `--out` puts request files: one file, or a directory with a file per command named from its method and path.
struct OutputPlacement: Sendable {
    let out: String
    /// Whether `out` names a directory: it ends with `/` or is one.
    let isDirectory: Bool
    /// The directory the written files are in, absolute.
    let directory: URL

    init(out: String) {
        self.out = out
        var existingDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: out, isDirectory: &existingDirectory)
        isDirectory = out.hasSuffix("/") || (exists && existingDirectory.boolValue) || !(out.hasSuffix(".yaml") || out.hasSuffix(".yml"))
        let url = URL(fileURLWithPath: out)
        directory = isDirectory ? url : url.deletingLastPathComponent()
    }

    /// The path of each document's file, names made unique by `-2`, `-3`.
    func targets(for documents: [RequestDocument]) -> [URL] {
        guard isDirectory else { return [URL(fileURLWithPath: out)] }
        var used: Set<String> = []
        return documents.map { document in
            let name = document.suggestedFileName
            var candidate = name
            var number = 2
            while !used.insert(candidate).inserted {
                candidate = String(name.dropLast(5)) + "-\(number).yaml"
                number += 1
            }
            return URL(fileURLWithPath: PathJoin.join(out, candidate))
        }
    }

    /// Why the documents cannot go to `out`: several commands into one file.
    func problem(writing count: Int) -> String? {
        guard !isDirectory, count > 1 else { return nil }
        return "--out \(out) names one file, and the input has \(count) commands: give a directory for a file per command"
    }

    /// `relativePath` as a function value.
    var relativePathFunction: @Sendable (String) -> String {
        let placement = self
        return { placement.relativePath($0) }
    }

    /// A path a command names (relative to the current directory) as seen from the written files' directory.
    func relativePath(_ path: String) -> String {
        let file = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = directory.standardizedFileURL.pathComponents
        let shared = zip(file, base).prefix { $0 == $1 }.count
        guard shared > 1 else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        return (Array(repeating: "..", count: base.count - shared) + file[shared...]).joined(separator: "/")
    }

    /// Writes each file into a new folder beside the directory, then moves them into place (the folder itself when the
    /// directory does not exist yet); on failure nothing stays behind.
    func writeAtomically(_ files: [(path: URL, text: String)]) throws {
        let manager = FileManager.default
        let parent = directory.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".runner-import-\(UUID().uuidString)")
        try manager.createDirectory(at: staging, withIntermediateDirectories: false)
        defer { try? manager.removeItem(at: staging) }
        for file in files {
            try Data(file.text.utf8).write(to: staging.appendingPathComponent(file.path.lastPathComponent))
        }
        if !manager.fileExists(atPath: directory.path) {
            try manager.moveItem(at: staging, to: directory)
            return
        }
        var created: [URL] = []
        for file in files {
            let staged = staging.appendingPathComponent(file.path.lastPathComponent)
            let existed = manager.fileExists(atPath: file.path.path)
            guard rename(staged.path, file.path.path) == 0 else {
                for path in created { try? manager.removeItem(at: path) }
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path.path])
            }
            if !existed { created.append(file.path) }
        }
    }
}

/// Joins paths as typed, without doubling the separator.
enum PathJoin {
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
