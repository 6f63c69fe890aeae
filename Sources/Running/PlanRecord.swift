public import CollectionFormat

/// What a run planned, as its JSON report records it: the identity of the plan (the planned files, the contents of every
/// file the collection read, the environment, the selection and the `--var`s), and every planned file with a hash of its text, in run order. Parts of
/// one sharded run share it: `merge-reports` refuses parts of different plans and orders their requests by it, and
/// `--rerun-failed` says which files changed since.
public struct PlanRecord: Sendable, Equatable {
    /// One planned file and the hash of its text.
    public struct File: Sendable, Equatable {
        public let path: String
        public let hash: String

        public init(path: String, hash: String) {
            self.path = path
            self.hash = hash
        }

        /// The hash of a file's text, as the plan records it.
        public static func hash(of text: String) -> String {
            var hash = FNVHash()
            hash.add(text)
            return hash.hex
        }
    }

    /// What a part of a sharded run was dealt: its files, and how many files were dealt among the parts (the whole
    /// selection's, or what `--rerun-failed` chose) with a hash of their paths, so `merge-reports` can tell a part whose
    /// file is missing, or parts of different selections.
    public struct Part: Sendable, Equatable {
        /// The part's files, in run order.
        public let files: [String]
        /// For each of `files`, how many of its steps are selected, times its written or read rows: it reports at least
        /// that many requests (a skipped or errored step too).
        public let steps: [Int]
        /// How many files the parts were dealt.
        public let dealt: Int
        /// A hash of the paths of every file dealt among the parts (`Part.identity(of:)`).
        public let dealtID: String

        public init(files: [String], steps: [Int], dealt: Int, dealtID: String) {
            (self.files, self.steps, self.dealt, self.dealtID) = (files, steps, dealt, dealtID)
        }

        /// The identity of the files dealt among the parts, whatever their order: a hash of their sorted paths.
        public static func identity(of paths: some Sequence<String>) -> String {
            var hash = FNVHash()
            for path in paths.sorted() { hash.add(path) }
            return hash.hex
        }
    }

    /// What the plan's identity holds besides the planned files, kept apart so that `merge-reports` can name what differs
    /// between two runs; a `--var`'s value is never kept, only its name.
    public struct Inputs: Sendable, Equatable {
        /// The environment's chain, from the one given to `--env` to its farthest base; empty without `--env`.
        public let environment: [String]
        /// The tag filter as the command line writes it, each tag once in order; empty without one.
        public let tags: String
        /// The names of the `--var`s, in the order given, but those of secrets.
        public let variables: [String]
        /// The names of the `--var`s that give a secret's value, which the identity holds without it.
        public let secretVariables: [String]
        /// Every file read that is not a request file (environment, used, data and schema files), with the hash of its text.
        public let files: [File]
        /// A hash of the paths and texts of the request files the selection does not run.
        public let unplanned: String

        public init(environment: [String], tags: String, variables: [String], secretVariables: [String], files: [File],
                    unplanned: String) {
            (self.environment, self.tags, self.variables, self.secretVariables) = (environment, tags, variables, secretVariables)
            (self.files, self.unplanned) = (files, unplanned)
        }
    }

    /// A hash of everything below, and of the environment's files and the selection.
    public let id: String
    /// Every file the whole selection plans (of every part when sharded), in run order.
    public let files: [File]
    /// What else the identity holds; nil in a report written before it was recorded.
    public var inputs: Inputs?
    /// For a part of a sharded run, what it was dealt; not part of the identity the parts share.
    public var part: Part?

    public init(id: String, files: [File]) {
        self.id = id
        self.files = files
    }

    /// The record of the files `planner` plans among those of `collection` (whose texts, with every other file read, its
    /// sources hold), run with the `--var`s `variables`.
    ///
    /// The identity holds no secret's value (a hash of one would let a report's reader test guesses of it): a `--var`
    /// naming a secret counts by its name only, as a secret from the process environment does not count.
    public init(_ planner: RunPlanner, collection: LoadedCollection, selection: TagFilter,
                variables: [(name: String, value: String)]) {
        let sources = collection.sources
        var identity = FNVHash()
        // The tags in order: `--tag a --tag b` selects what `--tag b --tag a` does.
        let tags = TagFilter(tags: Self.sortedOnce(selection.tags), excludedTags: Self.sortedOnce(selection.excludedTags)).commandLine
        identity.add(tags)
        let isSecret = { (name: String) in collection.scope.secretNames.contains(name) }
        for variable in variables {
            identity.add(isSecret(variable.name) ? "--var \(variable.name) (a secret)" : "--var \(variable.name)=\(variable.value)")
        }
        let chain = collection.environment?.chain ?? []
        for name in chain { identity.add("environment \(name)") }
        // Every file the collection read: request and environment files, used files and data files, by path.
        let requestPaths = Set(collection.files.map(\.path)), plannedPaths = Set(planner.files.map(\.file.path))
        var others: [File] = [], unplanned = FNVHash()
        for path in sources.paths {
            let text = sources.text(for: path) ?? ""
            identity.add(path)
            identity.add(text)
            if !requestPaths.contains(path) {
                others.append(File(path: path, hash: File.hash(of: text)))
            } else if !plannedPaths.contains(path) {
                unplanned.add(path)
                unplanned.add(text)
            }
        }
        files = planner.files.map { planned in
            identity.add(planned.file.path)
            return File(path: planned.file.path, hash: File.hash(of: sources.text(for: planned.file.path) ?? ""))
        }
        id = identity.hex
        inputs = Inputs(environment: chain, tags: tags, variables: variables.map(\.name).filter { !isSecret($0) },
                        secretVariables: variables.map(\.name).filter(isSecret), files: others, unplanned: unplanned.hex)
    }

    /// Each of `names` once, sorted.
    private static func sortedOnce(_ names: [String]) -> [String] { Array(Set(names)).sorted() }
}
