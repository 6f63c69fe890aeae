public import CollectionFormat
import Expectations
import Foundation
import HTTPCore
import YAML

/// What the command line asks to read.
public struct ReadRequest: Sendable {
    /// Files or directories, as the user typed them.
    public var paths: [String]
    /// `--env NAME`; nil means no environment.
    public var environmentName: String?
    /// `--environments DIR`; nil means "walk up from the first path".
    public var environmentsDirectory: String?
    /// `--var NAME=VALUE`, in order (later wins); values are strings.
    public var variables: [(name: String, value: String)]
    /// The process environment, for secrets and `$env.NAME`.
    public var processEnvironment: ProcessEnvironment
    /// The directory relative paths start from.
    public var currentDirectory: String
    /// Whether to check variables and referenced files (`validate`, `run`); `list` only decodes.
    public var checksReferences: Bool
    /// Whether the collection is about to be sent (`run`): then a relative URL without a baseURL is an
    /// error even without `--env`, while `validate` without `--env` cannot know the baseURL to come.
    public var forSending: Bool = false
    /// The requests `--tag` and `--exclude-tag` select: a selected request may not use a variable that only a
    /// request left out captures.
    public var selection = TagFilter()
    /// `--seed`: the seed of the run's random built-ins (environment variables included); nil chooses one.
    public var seed: UInt64?

    public init(paths: [String], environmentName: String? = nil, environmentsDirectory: String? = nil,
                variables: [(name: String, value: String)] = [], processEnvironment: ProcessEnvironment = [:],
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

/// Reads, decodes and validates a collection, collecting every diagnostic.
///
/// Choices where the format alone would be silent (docs/format.md documents each):
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
///   they and `baseURL` are resolved once when the environment is read.
/// - The default name of a file is its path without extension relative to the directory argument, or
///   the argument itself without extension when a file is given; a step's default name is `step N`.
/// - File paths (`file`, multipart `file`, `schema`) are not templates.
/// - `{{` has no escape; a lone `}}` is literal text.
public enum CollectionReader {
    /// Reads, decodes and checks every file once, resolves the environment and validates variables and
    /// referenced files; the decoded files are kept, so what was checked is what runs.
    public static func read(_ request: ReadRequest) async -> LoadedCollection {
        var diagnostics = DiagnosticBag()
        let sources = SourceCache()
        for (name, _) in request.variables where !VariablePath.isValidName(name) {
            diagnostics.add(.error("invalid variable name '\(name)' in --var", path: nil, at: nil,
                                   suggestion: "use letters, digits, '_' and '-', not starting with a digit"))
        }

        let random = RandomValues(seed: request.seed ?? RandomValues.randomSeed())
        let environmentsDirectory = locateEnvironments(request, diagnostics: &diagnostics)
        var environment: ResolvedEnvironment?
        var credentials: Set<String> = []
        // An environment with errors in its values still checks the requests (nothing is sent): every problem at once.
        var checkedEnvironment: ResolvedEnvironment?
        var readByEnvironment: Set<String> = []
        if let name = request.environmentName, let directory = environmentsDirectory {
            var resolver = EnvironmentResolver(directory: directory, processEnvironment: request.processEnvironment,
                                               commandLine: request.variables, random: random)
            environment = resolver.resolve(name)
            checkedEnvironment = environment ?? resolver.withErrors
            diagnostics.add(contentsOf: resolver.diagnostics.diagnostics)
            credentials.formUnion(resolver.credentials)
            readByEnvironment = resolver.read
            for path in resolver.sources.paths { sources.store(resolver.sources.text(for: path)!, for: path) }
        }
        let environmentBroken = request.environmentName != nil && checkedEnvironment == nil
        var validator = CollectionValidator(environment: checkedEnvironment, commandLine: request.variables,
                                            processEnvironment: request.processEnvironment)
        validator.forSending = request.forSending
        validator.selection = request.selection
        validator.environmentUnknown = environmentBroken
        let validates = request.checksReferences

        var discoveryProblems: [Diagnostic] = []
        var files: [RequestFile] = []
        var fragments = FragmentInliner(sources: sources)
        // A file reached again (through another argument or a link) counts once, where first found.
        var seen: Set<FileSystem.FileIdentity> = []
        // Whether a request file could not be read or decoded: what its templates read is then unknown.
        var someFileUnknown = false
        await readFiles(discovering: { found in
            discoveryProblems = Discovery.requestFiles(request.paths, currentDirectory: request.currentDirectory,
                                                       skipping: environmentsDirectory?.absolute, found: found)
        }) { location, read in
            guard let read else {
                diagnostics.add(.error("cannot read the file: \(FileSystem.unreadableReason(location.absolutePath))", path: location.path, at: nil))
                someFileUnknown = true
                return
            }
            if let identity = read.identity, !seen.insert(identity).inserted { return }
            diagnostics.add(contentsOf: read.decoded.diagnostics)
            sources.store(read.decoded.text, for: location.path)
            credentials.formUnion(read.decoded.credentials)
            guard var decoded = read.decoded.value else {
                someFileUnknown = true
                return
            }
            if let reference = decoded.rowsFile {
                let (rows, problems) = DataRowsReader.rows(reference, in: decoded.path, sources: sources)
                diagnostics.add(contentsOf: problems)
                (decoded.rows, decoded.rowsFile, decoded.rowsUnknown) = (rows, nil, rows == nil)
            }
            let file = fragments.inline(decoded)
            if validates { validator.validate(file) }
            files.append(file)
        }
        // A --var is said to be read by nothing only when every file, used ones included, could be read (trial helper-174).
        let readsKnown = !environmentBroken && !someFileUnknown && !fragments.someFileUnknown
        let checked = !validates ? [] : validator.finish() + (readsKnown ? unread(request.variables, read: validator.read.union(readByEnvironment),
                                                                                  environment: checkedEnvironment) : [])
        // The schema files and OpenAPI documents checked are files read too (the plan's identity holds their texts).
        for (absolutePath, path) in validator.documentPaths {
            if let bytes = FileSystem.read(absolutePath) { sources.store(WideEncoding.displayText(bytes), for: path) }
        }
        diagnostics.add(contentsOf: discoveryProblems)
        diagnostics.add(contentsOf: fragments.diagnostics)
        diagnostics.add(contentsOf: checked)

        var scope = (environment ?? .empty).scope(commandLine: request.variables, processEnvironment: request.processEnvironment,
                                                  builtins: BuiltinValues(now: { Date() }, random: random))
        // A short one that is a number or a word every exchange shows (`password: 200`) would hide every status 200.
        scope.writtenCredentials = credentials.filter { !ResolvedSecret.isCommonWord($0) }
        var loaded = LoadedCollection(files: files, environment: environment,
                                      diagnostics: DiagnosticRenderer.sharingHiddenLines(diagnostics.sorted),
                                      sources: sources, scope: scope)
        loaded.schemas = validator.schemas.compactMapValues { try? $0.get() }
        loaded.openAPIContracts = validator.openAPIContracts.compactMapValues { try? $0.get() }
        loaded.foundOnlyUsedFiles = files.isEmpty && discoveryProblems.contains(where: Discovery.skipsUsedFiles)
        return loaded
    }

    /// A request file read and decoded, and which file it is (nil when that is not known).
    private typealias Read = (decoded: DecodedFile<RequestFile>, identity: FileSystem.FileIdentity?)

    /// Reads and decodes the files `discover` finds on every core, a batch of files per task, and hands each file to
    /// `check` in the order found (nil when it cannot be read) as soon as it and every file before it are decoded.
    ///
    /// Batches are decoded while later files are still being found. A few batches more than there are cores are under
    /// way at once: with every batch queued up front, the checking would wait behind all of them.
    private static func readFiles(discovering discover: ((DiscoveredFile) -> Void) -> Void,
                                  inOrder check: (DiscoveredFile, Read?) -> Void) async {
        let batchSize = 64
        let inFlight = ProcessInfo.processInfo.activeProcessorCount + 1
        await withTaskGroup(of: (index: Int, reads: [Read?]).self) { group in
            var batches: [[DiscoveredFile]] = [[]]
            var started = 0
            func decodeNext() {
                let (index, batch) = (started, batches[started])
                group.addTask { (index, batch.map(readFile)) }
                started += 1
            }
            discover { location in
                batches[batches.count - 1].append(location)
                guard batches[batches.count - 1].count == batchSize else { return }
                batches.append([])
                if started < inFlight { decodeNext() }
            }
            if batches[batches.count - 1].isEmpty { batches.removeLast() }
            while started < min(inFlight, batches.count) { decodeNext() }
            var decoded: [Int: [Read?]] = [:]
            var next = 0
            for await batch in group {
                if started < batches.count { decodeNext() }
                decoded[batch.index] = batch.reads
                while let reads = decoded.removeValue(forKey: next) {
                    for (location, read) in zip(batches[next], reads) { check(location, read) }
                    next += 1
                }
            }
        }
    }

    /// Reads and decodes one request file; nil when it cannot be read.
    private static func readFile(_ location: DiscoveredFile) -> Read? {
        let absolutePath = location.absolutePath
        guard let read = SourceReader.read(path: location.path, absolutePath: absolutePath) else { return nil }
        return (FileDecoding.requestFile(read.document, absolutePath: absolutePath, defaultName: location.defaultName), read.identity)
    }

    /// A warning for each `--var` that no template of the files or the environment reads and that names no variable or
    /// secret of the environment (a typo: `--var prot=8080`), which would give nothing its value.
    private static func unread(_ variables: [(name: String, value: String)], read: Set<String>,
                               environment: ResolvedEnvironment?) -> [Diagnostic] {
        let defined = Set(environment.map { Array($0.variables.keys) + $0.secrets.map(\.name) } ?? [])
        var warned: Set<String> = []
        return variables.compactMap { variable in
            guard VariablePath.isValidName(variable.name), !read.contains(variable.name), !defined.contains(variable.name),
                  warned.insert(variable.name).inserted else { return nil }
            // A name the environment defines was likely meant; one only the files read may be the mistyped one.
            let suggestion = VariableScope.closestName(to: variable.name, among: defined).map { "did you mean '\($0)'?" }
                ?? VariableScope.closestName(to: variable.name, among: read).map { "the files read '\($0)': is one of the two names mistyped?" }
                ?? "a --var gives its value to the templates that read it ({{ \(variable.name) }})"
            return .warning("--var '\(variable.name)' is read by no request and no environment variable: it gives nothing its value",
                            path: nil, at: nil, suggestion: suggestion)
        }
    }

    /// The environments directory: `--environments DIR`, or found by walking up from the first path.
    private static func locateEnvironments(_ request: ReadRequest,
                                           diagnostics: inout DiagnosticBag) -> (path: String, absolute: String)? {
        if let given = request.environmentsDirectory {
            let absolute = FileSystem.absolute(given, from: request.currentDirectory)
            guard FileSystem.kind(of: absolute).isDirectory else {
                diagnostics.add(.error("environments directory '\(given)' does not exist", path: nil, at: nil))
                return nil
            }
            return (given, absolute)
        }
        // A first path that is not there (an error of its own, with its likely name) says nothing of where they are: the
        // directory found above it may be another collection's, and its environments not the ones meant.
        if let first = request.paths.first, !FileSystem.kind(of: FileSystem.absolute(first, from: request.currentDirectory)).exists {
            return nil
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
