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

    /// A hash of everything below, and of the environment's files and the selection.
    public let id: String
    /// Every file the whole selection plans (of every part when sharded), in run order.
    public let files: [File]
    /// For a part of a sharded run, what it was dealt; not part of the identity the parts share.
    public var part: Part?

    public init(id: String, files: [File]) {
        self.id = id
        self.files = files
    }

    /// The record of the files `planner` plans, whose texts (with every other file read) `sources` holds, run with the
    /// `--var`s `variables`.
    public init(_ planner: RunPlanner, sources: SourceCache, environment: ResolvedEnvironment?, selection: TagFilter,
                variables: [(name: String, value: String)]) {
        var identity = FNVHash()
        identity.add(selection.commandLine)
        for variable in variables { identity.add("--var \(variable.name)=\(variable.value)") }
        for name in environment?.chain ?? [] { identity.add("environment \(name)") }
        // Every file the collection read: request and environment files, used files and data files, by path.
        for path in sources.paths {
            identity.add(path)
            identity.add(sources.text(for: path) ?? "")
        }
        files = planner.files.map { planned in
            identity.add(planned.file.path)
            return File(path: planned.file.path, hash: File.hash(of: sources.text(for: planned.file.path) ?? ""))
        }
        id = identity.hex
    }
}
