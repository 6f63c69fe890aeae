import CollectionFormat
import Foundation
import HTTPCore
import Interop
import YAML
import Reporting

/// `runner import curl INPUT [--out PATH] [--force]`: curl commands (an argument, a file of them, or `-` for standard
/// input) as request files, printed or written all at once, never half of them.
public struct ImportCurl: Sendable {
    /// A curl command, the path of a file of them, or `-`.
    public var input: String
    /// A request file (one command) or a directory (a file per command); nil prints the YAML.
    public var out: String?
    /// Whether existing files may be replaced.
    public var force = false
    /// Whether credentials are written as references to secrets (`{{ token }}`) rather than as they are.
    public var secrets = false

    public init(input: String, out: String? = nil, force: Bool = false, secrets: Bool = false) {
        self.input = input
        self.out = out
        self.force = force
        self.secrets = secrets
    }

    /// Translates every command, then prints or writes them; exit 2 when a command cannot be translated, 1 when the
    /// input cannot be read or a file cannot be written.
    public func execute() -> ExitStatus {
        guard let source = readInput() else { return .badCommandLine }
        let placement = out.map { OutputPlacement(out: $0) }
        if let placement, let problem = ImportProblems.outProblem(placement.out, folder: placement.directory) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let filePath: @Sendable (String) -> String = if let placement { placement.relativePathFunction } else { { $0 } }
        let result: CurlImport.Result = CurlImport.read(source.text, filePath: filePath, writingSecrets: secrets)
        let sources = SourceCache()
        sources.store(source.text, for: source.name)
        ImportProblems.print(errors: result.errors.map { (source.name, $0) }, warnings: result.warnings.map { (source.name, $0) },
                             credentials: result.credentials, sources: sources)
        guard result.errors.isEmpty else {
            Console.error("error: \(result.errors.count) \(plural(result.errors.count, "problem")) in \(source.name); nothing was written")
            return .invalidCollection
        }
        if let references = result.secrets, !references.secrets.isEmpty {
            // The values are written nowhere: the user has them, and sets the variables.
            Console.error("note: the credentials are written as references to secrets, not as they are; add to the environment file:\n"
                + references.environmentEntries.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
                + "\n  and set \(references.secrets.map(\.variable).joined(separator: ", ")) in the process environment when running")
        }
        guard let placement else {
            Console.out(result.requests.map { "# command \($0.command)\n" + $0.document.yaml }.joined(separator: "---\n"))
            return .success
        }
        return write(result.requests.map { $0.document }, to: placement)
    }

    /// The text to read and the name its diagnostics give it; nil (after saying why) when a file cannot be read.
    private func readInput() -> (text: String, name: String)? {
        if input == "-" { return Self.text(of: FileHandle.standardInput.readDataToEndOfFile(), name: "<stdin>") }
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        // A command has a space (`curl URL`); a single word is a file's path (`curl-commands.txt`), and so is a name with
        // a space when such a file exists (`my commands.txt`).
        if trimmed.contains(where: \.isWhitespace), !FileManager.default.fileExists(atPath: input) {
            return (input, "<command>")
        }
        let data: Data
        do throws(InputFile.Problem) { data = try InputFile.contents(atPath: input) } catch {
            guard case .unreadable = error else {
                Console.error("error: cannot read '\(input)'\(error.detail)")
                return nil
            }
            Console.error("error: '\(input)' is neither a curl command nor a readable file of them\n"
                + "give a command in quotes, such as runner import curl 'curl https://api.example.com/users', a file, or - for standard input")
            return nil
        }
        return Self.text(of: data, name: input)
    }

    /// The input as text; nil, after saying where, when it is not UTF-8 (a byte replaced would change what is sent).
    private static func text(of data: Data, name: String) -> (text: String, name: String)? {
        let data = WideEncoding.withoutByteOrderMark(data)
        let text = String(decoding: data, as: UTF8.self)
        guard let error = data.withUnsafeBytes({ YAMLError.invalidUTF8(in: $0.bindMemory(to: UInt8.self)) }) else { return (text, name) }
        let sources = SourceCache()
        sources.store(WideEncoding.displayText(data), for: name)
        Console.error(DiagnosticRenderer.render([.error(error.message, path: name, at: error.mark, suggestion: "save the commands as UTF-8")],
                                                sources: sources, color: Console.colors(STDERR_FILENO, .auto)))
        return nil
    }

    /// Writes the documents where `placement` says, through a temporary folder beside it, so that either every file is
    /// in place or none is.
    private func write(_ documents: [RequestDocument], to placement: OutputPlacement) -> ExitStatus {
        let targets = placement.targets(for: documents)
        if let problem = placement.problem(writing: documents.count) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        if input != "-", ImportProblems.refusesOverwritingInput(targets.map(\.path), input: input) { return .badCommandLine }
        if ImportProblems.refusesOverwriting(targets.map(\.relativePath), force: force) { return .badCommandLine }
        do {
            try StagedFolder.write(zip(targets, documents).map { ($0.lastPathComponent, $1.yaml) }, into: placement.directory)
        } catch {
            Console.error("error: cannot write into '\(placement.out)': \(StagedFolder.reason(error))\nnothing was written")
            return .badCommandLine
        }
        for target in targets { Console.out("wrote " + (placement.isDirectory ? PathJoin.join(placement.out, target.lastPathComponent) : placement.out)) }
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
        // Several commands are numbered in their order, which runner's lexical order of files then keeps (a login
        // before what needs its token).
        let digits = max(2, String(documents.count).count)
        return documents.enumerated().map { index, document in
            let number = String(repeating: "0", count: digits - String(index + 1).count) + String(index + 1)
            return URL(fileURLWithPath: PathJoin.join(out, documents.count > 1 ? "\(number)-\(document.suggestedFileName)" : document.suggestedFileName))
        }
    }

    /// Why the documents cannot go to `out`: several commands into one file.
    func problem(writing count: Int) -> String? {
        guard !isDirectory, count > 1 else { return nil }
        return "--out \(out) names one file, and the input gives \(count) requests (commands, or URLs a pattern expands to): "
            + "give a directory for a file per request"
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
}

/// Joins paths as typed, without doubling the separator.
enum PathJoin {
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// Prints the located problems of an import on standard error, errors first, each with its line and a caret.
enum ImportProblems {
    /// The credentials the problems are about, and `credentials`, show as `***` in the messages, hints and quoted lines
    /// (a token in a curl command).
    static func print(errors: [(file: String, problem: InteropProblem)], warnings: [(file: String, problem: InteropProblem)],
                      credentials: [String], sources: SourceCache) {
        let problems = (errors + warnings).map(\.problem)
        // Messages and hints may quote the input (a script line of a Postman test): they hide what the quoted lines hide.
        // Controls in the input (an escape sequence pasted with a command) are shown escaped, never sent to the terminal.
        let redacted = { (text: String) in TerminalText.printable(InteropProblem.redacted(text, hiding: problems, also: credentials)) }
        let diagnostics = errors.map { Diagnostic.error(redacted($0.problem.locatedMessage), path: $0.file, at: $0.problem.mark,
                                                        suggestion: $0.problem.suggestion.map(redacted)) }
            + warnings.map { Diagnostic.warning(redacted($0.problem.locatedMessage), path: $0.file, at: $0.problem.mark,
                                                suggestion: $0.problem.suggestion.map(redacted)) }
        guard !diagnostics.isEmpty else { return }
        Console.error(DiagnosticRenderer.render(diagnostics, sources: sources, color: Console.colors(STDERR_FILENO, .auto),
                                                redacting: redacted))
    }

    /// Why `--out` cannot name where files go: it is empty, or a file stands where a folder on its way must be
    /// (`--out notes.txt/requests`); nil otherwise. `folder`: the folder the files go in.
    static func outProblem(_ out: String, folder: URL) -> String? {
        if out.isEmpty { return "--out is empty: give the folder (or file) to write" }
        var isFolder: ObjCBool = false
        var ancestor = folder.standardizedFileURL
        while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
            ancestor.deleteLastPathComponent()
        }
        guard !isFolder.boolValue, ancestor.path != "/" else { return nil }
        return "'\(StagedFolder.shown(ancestor))' is a file, and --out \(out) needs a folder there"
    }

    /// Whether writing must stop because files among `targets` exist and `force` is off: then names them on standard
    /// error.
    /// Whether one of `targets` is the file `input` (the one being imported, by any path): `--force` would replace it
    /// with its translation; after saying so.
    static func refusesOverwritingInput(_ targets: [String], input: String) -> Bool {
        var read = stat()
        guard stat(input, &read) == 0, let target = targets.first(where: { path in
            var written = stat()
            return stat(path, &written) == 0 && written.st_dev == read.st_dev && written.st_ino == read.st_ino
        }) else { return false }
        Console.error("error: '\(target)' is '\(input)', which this import reads: it would be replaced by what is written; "
            + "write into another place\nnothing was written")
        return true
    }

    static func refusesOverwriting(_ targets: [String], force: Bool) -> Bool {
        // A link to nothing counts: writing there would replace the link.
        let existing = targets.filter { StagedFolder.kind(of: $0) != .none }
        guard !force, !existing.isEmpty else { return false }
        Console.error("error: runner import overwrites nothing without --force, and these files exist:\n"
            + existing.map { "  \($0)" }.joined(separator: "\n") + "\nnothing was written")
        return true
    }
}

/// Files written into a new hidden folder first, so that a failure leaves nothing half written.
enum StagedFolder {
    /// A new folder beside `target` (in its parent, created when missing) holding `files`, their paths relative to it;
    /// the caller moves it or its files into place, and removes it.
    static func stage(_ files: [(path: String, text: String)], beside target: URL) throws -> URL {
        // Folders made by `makeFolders`, so that a refusal names the folder as `write`'s do.
        let staging = target.deletingLastPathComponent().appendingPathComponent(".runner-staged-\(UUID().uuidString)")
        _ = try makeFolders(upTo: staging)
        do {
            for file in files {
                let url = staging.appendingPathComponent(file.path)
                _ = try makeFolders(upTo: url.deletingLastPathComponent())
                try createFile(file.text, at: url)
            }
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        return staging
    }

    /// Writes `text` into a new file with stdio, not syncing it to disk as Foundation's `Data.write` does: syncing each
    /// of the 501 files of a 500-operation OpenAPI import took as long as reading and translating the document.
    private static func createFile(_ text: String, at url: URL) throws {
        let failed = { WriteProblem(description: "cannot write '\(shown(url))': \(SystemErrorText.words(errno))") }
        guard let file = fopen(url.path, "wx") else { throw failed() }
        var bytes = text
        let written = bytes.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
        guard fclose(file) == 0, written else {
            let problem = failed()
            unlink(url.path)
            throw problem
        }
    }

    /// Why writing failed, in words: a `WriteProblem`'s own, else the system's.
    static func reason(_ error: any Error) -> String {
        (error as? WriteProblem)?.description ?? error.localizedDescription
    }

    /// Writes `files` (paths relative to `directory`) file by file, each replacing the file at its place: each written
    /// first beside its place (in the same folder, so that a rename puts it there, on another file system too), then
    /// each renamed into place, what it replaces kept aside until all are in place; the folders it needs are made. On
    /// failure everything is as it was: the new files and folders removed, the replaced files put back. A place taken by
    /// a folder, or a file or a link to nothing where a folder goes, fails before anything is written, its message naming
    /// `command` and ending with `hint`. SIGINT, SIGTERM and SIGHUP are held from then on: one that comes ends the process
    /// once every file is in place or none, and the command has said which (`Runner` gives them back as it exits).
    static func write(_ files: [(path: String, text: String)], into directory: URL, by command: String = "runner import",
                      hint: String = "move it away, or give another --out") throws {
        try checkPlaces(of: files, in: directory, by: command, hint: hint)
        HeldSignals.hold()
        var folders: [URL] = []
        var staged: [(file: URL, target: URL)] = []
        var placed: [URL] = []
        var replaced: [(target: URL, kept: URL)] = []
        do {
            for file in files {
                let target = directory.appendingPathComponent(file.path)
                folders += try makeFolders(upTo: target.deletingLastPathComponent())
                let beside = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).runner-\(UUID().uuidString)")
                try createFile(file.text, at: beside)
                staged.append((beside, target))
            }
            for (file, target) in staged {
                if kind(of: target.path) != .none {
                    let kept = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).runner-replaced")
                    try renaming(target, to: kept)
                    replaced.append((target, kept))
                } else {
                    placed.append(target)
                }
                try renaming(file, to: target)
            }
        } catch {
            for target in placed.reversed() { unlink(target.path) }
            for (target, kept) in replaced.reversed() { try? renaming(kept, to: target) }
            for (file, _) in staged { unlink(file.path) }
            for folder in folders.reversed() { rmdir(folder.path) }
            throw error
        }
        for (_, kept) in replaced { unlink(kept.path) }
    }

    /// Fails before anything is written when a place of `files` is a folder, or a folder they go in is a file or a link to
    /// nothing (`directory` itself too).
    private static func checkPlaces(of files: [(path: String, text: String)], in directory: URL, by command: String, hint: String) throws {
        let folderProblem = { (folder: URL) -> WriteProblem? in
            let what = switch kind(of: folder.path) {
            case .file: "a file"
            case .linkToNothing: "a link to nothing"
            case .folder, .none: nil as String?
            }
            return what.map { WriteProblem(description: "'\(shown(folder))' is \($0), where \(command) writes a folder of files: \(hint)") }
        }
        if let problem = folderProblem(directory) { throw problem }
        for file in files {
            let target = directory.appendingPathComponent(file.path)
            if kind(of: target.path) == .folder {
                throw WriteProblem(description: "'\(shown(target))' is a folder, and \(command) replaces files only")
            }
            // The folders on its way inside `directory` (`requests`, `requests/pets`).
            var folder = target.deletingLastPathComponent()
            while folder.path.count > directory.path.count {
                if let problem = folderProblem(folder) { throw problem }
                folder.deleteLastPathComponent()
            }
        }
    }

    /// Makes the folders missing on the way to `folder`, outermost first, and returns them; or says which it cannot make.
    private static func makeFolders(upTo folder: URL) throws -> [URL] {
        var missing: [URL] = []
        var next = folder
        while kind(of: next.path) == .none, next.path != "/" {
            missing.append(next)
            next.deleteLastPathComponent()
        }
        var made: [URL] = []
        for folder in missing.reversed() {
            guard mkdir(folder.path, 0o777) == 0 || errno == EEXIST else {
                let problem = WriteProblem(description: "cannot create '\(shown(folder))': \(SystemErrorText.words(errno))")
                for folder in made.reversed() { rmdir(folder.path) }
                throw problem
            }
            made.append(folder)
        }
        return made
    }

    /// Renames `source` to `target` (replacing a file there), or says why it cannot.
    private static func renaming(_ source: URL, to target: URL) throws {
        guard rename(source.path, target.path) == 0 else {
            throw WriteProblem(description: "cannot write '\(shown(target))': \(SystemErrorText.words(errno))")
        }
    }

    /// A path as messages show it: relative to the current directory when it is inside it, as the user gave it.
    static func shown(_ url: URL) -> String {
        let path = url.standardizedFileURL.path, current = FileManager.default.currentDirectoryPath
        return path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
    }

    /// What is at a path: nothing, a folder (or a link to one), a link to nothing, or another file.
    enum Kind { case none, folder, linkToNothing, file }

    /// What is at `path`, a link read as what it leads to.
    static func kind(of path: String) -> Kind {
        var link = stat(), target = stat()
        guard lstat(path, &link) == 0 else { return .none }
        guard stat(path, &target) == 0 else { return .linkToNothing }
        return target.st_mode & S_IFMT == S_IFDIR ? .folder : .file
    }

    /// A file that cannot be written, and why.
    struct WriteProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// Puts `staging` in the place of `target`: moved there, or, with `replacing`, swapped with what is there (which
    /// is then removed); on failure `target` stays as it was.
    static func move(_ staging: URL, to target: URL, replacing: Bool) throws {
        let manager = FileManager.default
        guard replacing, manager.fileExists(atPath: target.path) else {
            try manager.moveItem(at: staging, to: target)
            return
        }
        let previous = target.deletingLastPathComponent().appendingPathComponent(".runner-replaced-\(UUID().uuidString)")
        try manager.moveItem(at: target, to: previous)
        do {
            try manager.moveItem(at: staging, to: target)
        } catch {
            try? manager.moveItem(at: previous, to: target)
            throw error
        }
        try? manager.removeItem(at: previous)
    }
}

/// `runner import postman COLLECTION.json --out DIR [--environment ENV.json]... [--force]`: a Postman collection (and its
/// environments) as a folder of request files and environment files, written all at once.
public struct ImportPostman: Sendable {
    /// The collection's JSON file.
    public var collection: String
    /// The folder to write; it must not exist, unless `force`.
    public var out: String
    /// Postman environment exports, each written as an environment.
    public var environments: [String]
    /// Whether an existing `out` is replaced.
    public var force: Bool

    public init(collection: String, out: String, environments: [String] = [], force: Bool = false) {
        self.collection = collection
        self.out = out
        self.environments = environments
        self.force = force
    }

    /// Translates the collection and writes the folder; exit 2 when the input cannot be translated, 1 when a file
    /// cannot be read, the folder exists (without `--force`) or cannot be written.
    public func execute() -> ExitStatus {
        let sources = SourceCache()
        var inputs: [PostmanSource] = []
        for path in [collection] + environments {
            let data: Data
            do throws(InputFile.Problem) { data = WideEncoding.withoutByteOrderMark(try InputFile.contents(atPath: path)) } catch {
                Console.error("error: cannot read '\(path)'"
                    + error.detail + (error.isUnreadable ? "; give the path of a Postman \(path == collection ? "collection" : "environment") export (JSON)" : ""))
                return .badCommandLine
            }
            sources.store(WideEncoding.displayText(data), for: path)
            inputs.append(PostmanSource(path: path, bytes: Array(data)))
        }
        let target = URL(fileURLWithPath: out).standardizedFileURL
        // Said before the collection's notes: what is in the way is known at once.
        if let problem = ImportProblems.outProblem(out, folder: target.deletingLastPathComponent()) ?? problemReplacing(target) {
            Console.error("error: \(problem)\nnothing was written")
            return .badCommandLine
        }
        let result = PostmanImport.read(collection: inputs[0], environments: Array(inputs.dropFirst()),
                                        fileReference: fileReference(into: target))
        ImportProblems.print(errors: result.errors.map { ($0.file, $0.problem) }, warnings: result.warnings.map { ($0.file, $0.problem) },
                             credentials: result.credentials, sources: sources)
        guard result.errors.isEmpty else {
            Console.error("error: \(result.errors.count) \(plural(result.errors.count, "problem")); nothing was written")
            return .invalidCollection
        }
        do {
            let staging = try StagedFolder.stage(result.files, beside: target)
            defer { try? FileManager.default.removeItem(at: staging) }
            try StagedFolder.move(staging, to: target, replacing: force)
        } catch {
            Console.error("error: cannot write '\(out)': \(StagedFolder.reason(error))\nnothing was written")
            return .badCommandLine
        }
        for file in result.files { Console.out("wrote \(PathJoin.join(out, file.path))") }
        for secret in result.secrets {
            Console.out("environments/\(secret.environment).yaml reads the secret '\(secret.name)' from the environment variable \(secret.variable)")
        }
        Console.out("check it with: runner validate \(out) --env \(result.environments.last ?? PostmanImport.collectionEnvironment)")
        return .success
    }

    /// Where a file a request names (relative to the collection's folder, or absolute) is, as seen from the request
    /// file `requestFile` (relative to `target`), and whether it exists.
    private func fileReference(into target: URL) -> (String, String) -> (path: String, exists: Bool) {
        let collectionFolder = URL(fileURLWithPath: collection).deletingLastPathComponent()
        return { source, requestFile in
            let file = source.hasPrefix("/") ? URL(fileURLWithPath: source) : collectionFolder.appendingPathComponent(source)
            let requestFolder = target.appendingPathComponent(requestFile).deletingLastPathComponent()
            let placement = OutputPlacement(out: requestFolder.path + "/")
            return (placement.relativePath(file.path), FileManager.default.fileExists(atPath: file.path))
        }
    }

    /// Why the folder cannot be written where `target` is: it exists (without `--force`), it is a file, or it holds
    /// the current directory or a file this import reads (which `--force` would remove).
    private func problemReplacing(_ target: URL) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return "'\(out)' is a file: --out names the folder to write" }
        guard force else {
            return "'\(out)' exists: runner import postman writes a whole folder and replaces one only with --force"
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        if current == target.path || current.hasPrefix(target.path + "/") {
            return "'\(out)' holds the current directory: --force would remove it; write into a folder of its own"
        }
        let folder = target.resolvingSymlinksInPath().path + "/"
        if let input = ([collection] + environments).first(where: {
            URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path.hasPrefix(folder)
        }) {
            return "'\(out)' holds '\(input)', which this import reads: --force would remove it; write into a folder of its own"
        }
        return nil
    }
}
