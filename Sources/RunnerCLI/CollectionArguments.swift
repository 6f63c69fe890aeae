import ArgumentParser
import Commands

/// The arguments that name a collection and its environment, shared by `validate` and `run`.
struct CollectionArguments: ParsableArguments {
    @Argument(help: "Request files or directories of them.")
    var paths: [String]

    @Option(name: .customLong("env"), help: "The environment to use: environments/NAME.yaml.")
    var environment: String?

    @Option(name: .customLong("environments"), help: "The directory of environment files (default: found by walking up from the first path).")
    var environmentsDirectory: String?

    @Option(name: .customLong("var"), help: "A variable, NAME=VALUE; overrides the environment and captures.")
    var variables: [String] = []

    @Option(name: .customLong("env-file"),
            help: ArgumentHelp("A dotenv file (NAME=VALUE lines) for secrets' env and $env.NAME; repeatable. The process "
                                   + "environment wins over it, a later file over an earlier one.", valueName: "file"))
    var environmentFiles: [String] = []

    @OptionGroup var tags: TagArguments

    @Flag(name: .customLong("strict"), help: "Count the collection's warnings as errors (exit 2, nothing sent).")
    var strict = false

    mutating func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one request file or directory") }
        try Self.refuseEmpty(paths)
        try Self.refuseEmpty([("--env", environment), ("--environments", environmentsDirectory)]
                             + environmentFiles.map { ("--env-file", $0) })
        for (position, variable) in variables.enumerated() where CollectionSelection.variable(variable) == nil {
            throw ValidationError(Self.malformedVariable(variable, number: position + 1))
        }
    }

    /// Why a `--var` is not `NAME=VALUE`, naming it by its number and its name (never its value, which may be a secret:
    /// `--var "$TOKEN"` with the name left out would otherwise print the token).
    static func malformedVariable(_ argument: String, number: Int) -> String {
        guard let equals = argument.firstIndex(of: "=") else {
            return "--var expects NAME=VALUE: --var number \(number) has no '=' (its text is not shown, as it may be a secret)"
        }
        return "--var expects NAME=VALUE with a variable name (letters, digits, '_' and '-', not starting with a digit or '-'): "
            + "--var number \(number) names '\(argument[..<equals])'"
    }

    /// An empty path (`runner run "$DIR"` with `DIR` unset) would be read as the current directory: refused.
    static func refuseEmpty(_ paths: [String]) throws {
        guard paths.contains("") else { return }
        throw ValidationError("a path is empty (a shell variable not set?): name a request file or directory, '.' for this one")
    }

    /// An option given an empty value (a shell variable not set) would be read as the current directory or as no name:
    /// refused, naming the option.
    static func refuseEmpty(_ options: [(name: String, value: String?)]) throws {
        guard let empty = options.first(where: { $0.value == "" }) else { return }
        throw ValidationError("\(empty.name) is empty (a shell variable not set?): give it a value, or leave the option out")
    }

    /// The collection these arguments select.
    var selection: CollectionSelection {
        var selection = CollectionSelection(paths: paths, environmentName: environment, environmentsDirectory: environmentsDirectory,
                                            variables: variables.compactMap(CollectionSelection.variable),
                                            environmentFiles: environmentFiles, tags: tags.tags,
                                            excludedTags: tags.excludedTags, freedAtExit: true)
        selection.strict = strict
        return selection
    }
}

/// `--tag` and `--exclude-tag`, shared by `run`, `validate` and `list`.
struct TagArguments: ParsableArguments {
    @Option(name: .customLong("tag"), help: "Only requests with this tag (file or request tags); repeatable.")
    var tags: [String] = []

    @Option(name: .customLong("exclude-tag"), help: "Leave out requests with this tag; repeatable.")
    var excludedTags: [String] = []

    func validate() throws {
        // `--tag "$TAG"` with TAG not set names no tag.
        try CollectionArguments.refuseEmpty(tags.map { ("--tag", $0) } + excludedTags.map { ("--exclude-tag", $0) })
    }
}

/// `runner validate`: checks a collection and its environment completely, sending nothing.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check every file, variable and referenced file of a collection; send nothing."
    )

    @OptionGroup var collection: CollectionArguments

    @OptionGroup var color: ColorArguments

    func run() async throws {
        var validate = Validate(collection: collection.selection)
        validate.color = color.choice
        try await validate.execute().end()
    }
}

/// `runner list`: the requests that would run, in order.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the requests that would run, in order: name, method, URL template, tags."
    )

    @Argument(help: "Request files or directories of them.")
    var paths: [String]

    @OptionGroup var tags: TagArguments

    /// Taken only to say that `list` reads none: a `run` line copied whole (`--env qa`) gets told, not "unknown option".
    @Option(help: .hidden) var env: String?

    func validate() throws {
        try CollectionArguments.refuseEmpty(paths)
        if env != nil {
            throw ValidationError("list reads no environment: it prints the URLs as written; leave out --env (runner validate "
                                  + "PATH --env NAME resolves them)")
        }
    }

    func run() async throws {
        try await List(collection: CollectionSelection(paths: paths, tags: tags.tags, excludedTags: tags.excludedTags,
                                                       freedAtExit: true)).execute().end()
    }
}

extension ExitStatus {
    /// Ends the command with this status (returns for success).
    func end() throws {
        if self != .success { throw ExitCode(rawValue) }
    }
}
