import HTTPCore
import YAML

/// What the command line asks to load.
public struct LoadRequest: Sendable {
    /// Files or directories, as the user typed them.
    public var paths: [String]
    /// `--env NAME`; nil means no environment.
    public var environmentName: String?
    /// `--environments DIR`; nil means "walk up from the first path".
    public var environmentsDirectory: String?
    /// `--var NAME=VALUE`, in order (later wins); values are strings.
    public var variables: [(name: String, value: String)]
    /// The process environment, for secrets and `$env.NAME`.
    public var processEnvironment: [String: String]
    /// The directory relative paths start from.
    public var currentDirectory: String
    /// Whether to check variables and referenced files (`validate`, `run`); `list` only decodes.
    public var checksReferences: Bool
    /// Whether the collection is about to be sent (`run`): then a relative URL without a baseURL is an
    /// error even without `--env`, while `validate` without `--env` cannot know the baseURL to come.
    public var forSending: Bool = false

    public init(paths: [String], environmentName: String? = nil, environmentsDirectory: String? = nil,
                variables: [(name: String, value: String)] = [], processEnvironment: [String: String] = [:],
                currentDirectory: String, checksReferences: Bool = true) {
        self.paths = paths
        self.environmentName = environmentName
        self.environmentsDirectory = environmentsDirectory
        self.variables = variables
        self.processEnvironment = processEnvironment
        self.currentDirectory = currentDirectory
        self.checksReferences = checksReferences
    }
}

/// Everything read for a run: the request files in run order, the environment, and every problem found.
public struct LoadedCollection: Sendable {
    /// The request files in run order, decoded as far as possible even when they have errors; empty when
    /// the collection was only checked (`CollectionLoader.check`, whose visitor saw each file instead).
    public var files: [RequestFile]
    /// The selected environment, or nil without `--env` (or when it is broken).
    public var environment: ResolvedEnvironment?
    /// Every problem, sorted by path then position.
    public var diagnostics: [Diagnostic]
    /// The texts of the files read (only those with problems when checked), for rendering diagnostics.
    public var sources: SourceCache
    /// The starting variable scope: the environment's variables and secrets, `--var`s, the process environment.
    public var scope: VariableScope

    /// Whether any diagnostic is an error (then nothing may be sent; exit 2).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The number of requests in `files` (steps of flows counted one by one).
    public var requestCount: Int { files.reduce(0) { $0 + $1.steps.count } }
}

/// Reads, decodes and validates a collection, collecting every diagnostic.
///
/// Choices where FORMAT.md is silent:
/// - Without `--env` no environment is used (not `default`); `environments/` is still located so that it
///   is skipped when a directory above it is given. Hidden files and directories are skipped too.
/// - `--var` values are strings (no YAML typing: `--var zip=01234` stays "01234").
/// - Durations: a non-negative decimal and a unit `ms`, `s`, `m` or `h` (`1.5s` is fine; `5`, `5 s`, `-1s` are not).
/// - `throttle` is an environment option only; in a request it is an error that says so.
/// - `capture: { status: true }` captures the status code (an addition).
/// - `expect.status` lists may mix codes and classes (`[200, "3xx"]`).
/// - A request's captures count for the requests after it (later steps, later files), not for itself; the
///   captures of skipped requests count too. Environment headers, query and auth (unless the request sets
///   `auth`) are checked at every request, and reported in the environment file.
/// - Environment `variables` may use templates over secrets, `--var`s, built-ins and earlier variables;
///   they and `baseURL` are resolved once when the environment loads.
/// - The default name of a file is its path without extension relative to the directory argument, or
///   the argument itself without extension when a file is given; a step's default name is `step N`.
/// - File paths (`file`, multipart `file`, `schema`) are not templates.
/// - `{{` has no escape; a lone `}}` is literal text.
public enum CollectionLoader {
    /// Decodes every file, resolves the environment and validates variables and referenced files.
    public static func load(_ request: LoadRequest) -> LoadedCollection {
        load(request, keepingFiles: true) { _, _, _ in }
    }

    /// Checks a collection exactly as `load(_:)` does but keeps none of its request files: each decoded
    /// file is handed to `visit` in run order and dropped, and only the texts of files with problems are
    /// kept (`files` is empty). A run decodes each file again when its turn comes, so its memory does not grow
    /// with the number of files: with a `spill`, the parsed document of each file that decodes is written to it,
    /// `visit` is told where, and the run decodes the file from there with `reload(_:from:)`; a file not spilled
    /// (no spill, or writing it failed) is read again from its path with `reload(_:)`.
    public static func check(_ request: LoadRequest, spillingTo spill: SpillFile? = nil,
                             visiting visit: (DiscoveredFile, RequestFile, SpilledFile?) -> Void) -> LoadedCollection {
        load(request, keepingFiles: false, spill: spill, visit: visit)
    }

    /// Reads and decodes a request file again (a run's second pass); nil when it cannot be read.
    public static func reload(_ file: DiscoveredFile) -> DecodedFile<RequestFile>? {
        decode(file, keepingRoot: false)?.decoded
    }

    /// Decodes a request file again from the image its check spilled, or from its path when the image cannot be
    /// read back; the file is decoded as it was checked, even if it changed since.
    public static func reload(_ file: DiscoveredFile, from spilled: SpilledFile) -> DecodedFile<RequestFile>? {
        guard let (text, root) = spilled.withImage(DocumentImage.read) ?? nil else { return reload(file) }
        let document = SourceDocument(source: SourceText(path: file.path, text: text), root: root, diagnostics: [])
        return FileDecoding.requestFile(document, absolutePath: file.absolutePath, defaultName: file.defaultName)
    }

    /// A file read and decoded by a check: its definitions, the root of its document when kept, and which file it is.
    private typealias Read = (decoded: DecodedFile<RequestFile>, root: Node?, identity: FileSystem.FileIdentity?)

    /// Reads and decodes a request file, with the root of its parsed document when `keepingRoot` and it decodes
    /// (to be spilled), and which file it is; nil when it cannot be read.
    private static func decode(_ file: DiscoveredFile, keepingRoot: Bool) -> Read? {
        // A file's paths are joined on each access: once each here.
        let absolutePath = file.absolutePath
        guard let document = SourceLoader.load(path: file.path, absolutePath: absolutePath) else { return nil }
        let decoded = FileDecoding.requestFile(document, absolutePath: absolutePath, defaultName: file.defaultName)
        return (decoded, keepingRoot && decoded.value != nil ? document.root : nil, document.identity)
    }

    private static func load(_ request: LoadRequest, keepingFiles: Bool, spill: SpillFile? = nil,
                             visit: (DiscoveredFile, RequestFile, SpilledFile?) -> Void) -> LoadedCollection {
        var diagnostics = DiagnosticBag()
        let sources = SourceCache()
        for (name, _) in request.variables where !VariablePath.isValidName(name) {
            diagnostics.add(.error("invalid variable name '\(name)' in --var", path: nil, at: nil,
                                   suggestion: "use letters, digits, '_' and '-', not starting with a digit"))
        }

        let environmentsDirectory = locateEnvironments(request, diagnostics: &diagnostics)
        var environment: ResolvedEnvironment?
        if let name = request.environmentName, let directory = environmentsDirectory {
            var resolver = EnvironmentResolver(directory: directory, processEnvironment: request.processEnvironment,
                                               commandLine: request.variables)
            environment = resolver.resolve(name)
            diagnostics.add(contentsOf: resolver.diagnostics.diagnostics)
            for path in resolver.sources.paths { sources.store(resolver.sources.text(for: path)!, for: path) }
        }
        let environmentBroken = request.environmentName != nil && environment == nil
        var validator = CollectionValidator(environment: environment, commandLine: request.variables,
                                            processEnvironment: request.processEnvironment)
        validator.forSending = request.forSending
        let validates = request.checksReferences && !environmentBroken

        var files: [RequestFile] = []
        /// The files read so far: a file reached again (through another argument or a link) counts once, where first found.
        var seen: Set<FileSystem.FileIdentity> = []
        // Each decoded file is checked here in run order while later files are found and decoded.
        func receive(_ location: DiscoveredFile, _ read: Read?) {
            if let identity = read?.identity, !seen.insert(identity).inserted { return }
            guard let decoded = read?.decoded else {
                diagnostics.add(.error("cannot read the file", path: location.path, at: nil))
                return
            }
            diagnostics.add(contentsOf: decoded.diagnostics)
            let validatorProblems = validator.diagnostics.diagnostics.count
            if let file = decoded.value {
                if validates { validator.validate(file) }
                if keepingFiles { files.append(file) }
                let spilled = read?.root.flatMap { root in
                    spill?.append { DocumentImage.append(root, text: decoded.text, to: &$0) }
                }
                visit(location, file, spilled)
            }
            let hasProblems = !decoded.diagnostics.isEmpty || validator.diagnostics.diagnostics.count > validatorProblems
            if keepingFiles || hasProblems { sources.store(decoded.text, for: location.path) }
        }
        let spilling = spill != nil
        var pipeline = DecodingPipeline { decode($0, keepingRoot: spilling) }
        let discoveryProblems = Discovery.requestFiles(request.paths, currentDirectory: request.currentDirectory,
                                                       skipping: environmentsDirectory?.absolute) { file in
            pipeline.add(file, receive: receive)
        }
        pipeline.finish(receive: receive)
        diagnostics.add(contentsOf: discoveryProblems)
        diagnostics.add(contentsOf: validator.diagnostics.diagnostics)

        let scope = environment?.scope(commandLine: request.variables, processEnvironment: request.processEnvironment)
            ?? ResolvedEnvironment.empty.scope(commandLine: request.variables, processEnvironment: request.processEnvironment)
        return LoadedCollection(files: files, environment: environment, diagnostics: diagnostics.sorted,
                                sources: sources, scope: scope)
    }

    /// The environments directory: `--environments DIR`, or found by walking up from the first path.
    private static func locateEnvironments(_ request: LoadRequest,
                                           diagnostics: inout DiagnosticBag) -> (path: String, absolute: String)? {
        if let given = request.environmentsDirectory {
            let absolute = FileSystem.absolute(given, from: request.currentDirectory)
            guard FileSystem.kind(of: absolute).isDirectory else {
                diagnostics.add(.error("environments directory '\(given)' does not exist", path: nil, at: nil))
                return nil
            }
            return (given, absolute)
        }
        let found = request.paths.first.flatMap {
            Discovery.environmentsDirectory(near: $0, currentDirectory: request.currentDirectory)
        }
        if found == nil, let name = request.environmentName {
            let start = request.paths.first ?? "."
            diagnostics.add(.error("cannot find environment '\(name)': no 'environments' directory in '\(start)' or its parents",
                                   path: nil, at: nil, suggestion: "pass --environments DIR"))
        }
        return found
    }
}

extension ResolvedEnvironment {
    /// No environment: no base URL, headers, variables or options.
    static let empty = ResolvedEnvironment(name: "", chain: [], baseURL: nil, headers: [], query: [], variables: JSONObject(),
                                           secrets: [], auth: nil, options: OptionsDefinition())
}
