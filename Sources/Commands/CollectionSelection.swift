import CollectionFormat
import CollectionReading
import Foundation
import Running

/// The collection a command works on: its paths, environment and `--var`s.
public struct CollectionSelection: Sendable {
    /// Request files or directories, as typed.
    public var paths: [String]
    /// `--env NAME`.
    public var environmentName: String?
    /// `--environments DIR`.
    public var environmentsDirectory: String?
    /// `--var NAME=VALUE`, in order (later wins).
    public var variables: [(name: String, value: String)]
    /// `--env-file FILE`, in order (a later file wins; the process environment wins over every file).
    public var environmentFiles: [String]
    /// `--tag` and `--exclude-tag`.
    public var filter: TagFilter
    /// Whether the process exits once the command is done (the command line): the loaded collection is then left for
    /// the exit to free, not freed object by object after the output is complete.
    public var freedAtExit: Bool
    /// `--seed`: the seed of the random built-ins (`run` only).
    public var seed: UInt64?
    /// `--strict`: the collection's warnings are errors (a likely typo then stops a run before anything is sent).
    public var strict = false

    public init(paths: [String], environmentName: String? = nil, environmentsDirectory: String? = nil,
                variables: [(name: String, value: String)] = [], environmentFiles: [String] = [], tags: [String] = [],
                excludedTags: [String] = [], freedAtExit: Bool = false) {
        self.freedAtExit = freedAtExit
        self.paths = paths
        self.environmentName = environmentName
        self.environmentsDirectory = environmentsDirectory
        self.variables = variables
        self.environmentFiles = environmentFiles
        filter = TagFilter(tags: tags, excludedTags: excludedTags)
    }

    /// A `--var` argument as a name and a value; nil unless it is `NAME=VALUE` with a valid variable name.
    public static func variable(_ argument: String) -> (name: String, value: String)? {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let name = String(argument[..<equals])
        guard VariablePath.isValidName(name) else { return nil }
        return (name, String(argument[argument.index(after: equals)...]))
    }

    /// Reads and checks the collection in the current directory with the process environment and the `--env-file`s
    /// (with `checksReferences`, the files it names and the client certificates too).
    func load(forSending: Bool, checksReferences: Bool = true) async -> LoadedCollection {
        let currentDirectory = FileManager.default.currentDirectoryPath
        let environmentFileSources = SourceCache()
        let (environment, environmentFileProblems) = DotEnvFiles.environment(
            ProcessEnvironment.current(), adding: environmentFiles, currentDirectory: currentDirectory,
            sources: environmentFileSources)
        var loaded: LoadedCollection
        if environmentFileProblems.contains(where: { $0.severity == .error }) {
            // Not read: checked without the variables a broken line was to set, it would report them as unset too.
            loaded = LoadedCollection(files: [], environment: nil, diagnostics: [], sources: SourceCache(),
                                      scope: ResolvedEnvironment.empty.scope())
        } else {
            var request = ReadRequest(
                paths: paths, environmentName: environmentName, environmentsDirectory: environmentsDirectory,
                variables: variables, processEnvironment: environment, currentDirectory: currentDirectory,
                checksReferences: checksReferences)
            request.forSending = forSending
            request.selection = filter
            request.seed = seed
            loaded = await CollectionReader.read(request)
            if checksReferences { loaded.diagnostics += ClientCertificateProblems.diagnostics(in: loaded) }
        }
        for path in environmentFileSources.paths {
            environmentFileSources.text(for: path).map { loaded.sources.store($0, for: path) }
        }
        loaded.diagnostics = DiagnosticBag.sort(environmentFileProblems + loaded.diagnostics)
        if strict {
            for index in loaded.diagnostics.indices where loaded.diagnostics[index].severity == .warning {
                loaded.diagnostics[index].severity = .error
                loaded.diagnostics[index].notes.append("an error under --strict")
            }
        }
        if freedAtExit { ProcessExit.keep(loaded) }
        return loaded
    }

    /// How many requests of `loaded` the filter selects; nil, after saying why, when it selects none (a run that tests
    /// nothing must not pass).
    func selectedRequests(in loaded: LoadedCollection) -> Int? {
        let count = loaded.requestCount(selecting: filter.selectedSteps)
        guard count == 0 else { return count }
        Console.error("error: " + noneSelected(in: loaded))
        return nil
    }

    /// Why no request of `loaded` is selected: no request file was found, or the tag filter selects none (with the
    /// tags the collection has).
    func noneSelected(in loaded: LoadedCollection) -> String {
        guard !filter.selectsAll else {
            let place = "no request to run in \(paths.joined(separator: " "))"
            guard loaded.foundOnlyUsedFiles else { return place + ": no .yaml or .yml request file was found" }
            return place + ": only used files were found (named with a leading '_', or in a '_' folder), which run only where a "
                + "flow uses them with 'use:'\n  give the path of a flow that uses them, or take the '_' off a file that runs on its own"
        }
        let known = Set(loaded.files.flatMap { file in file.tags + file.steps.flatMap(\.tags) })
        var message = "\(filter.commandLine) selects no request"
        let guesses = filter.tags.filter { !known.contains($0) }.compactMap { Suggestions.closest(to: $0, among: known) }
        if let guess = guesses.first { message += "; did you mean '\(guess)'?" }
        return message + (known.isEmpty ? "\n  the collection has no tags" : "\n  the collection's tags: " + known.sorted().joined(separator: ", "))
    }
}
