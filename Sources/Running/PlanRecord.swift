public import CollectionFormat

/// What a run planned, as its JSON report records it: the identity of the plan (the selected files and their contents,
/// the environment's files, the selection and the `--var`s), and every planned file with a hash of its text, in run order. Parts of
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
    }

    /// A hash of everything below, and of the environment's files and the selection.
    public let id: String
    /// Every file the whole selection plans (of every part when sharded), in run order.
    public let files: [File]

    public init(id: String, files: [File]) {
        self.id = id
        self.files = files
    }

    /// The record of the files `planner` plans, whose texts (and the environment's) `sources` holds, run with the
    /// `--var`s `variables`.
    public init(_ planner: RunPlanner, sources: SourceCache, environment: ResolvedEnvironment?, selection: TagFilter,
                variables: [(name: String, value: String)]) {
        var identity = FNVHash()
        identity.add(selection.commandLine)
        for variable in variables { identity.add("--var \(variable.name)=\(variable.value)") }
        for name in environment?.chain ?? [] { identity.add("environment \(name)") }
        for path in sources.paths where path.contains("environments/") { identity.add(path + "\n" + (sources.text(for: path) ?? "")) }
        files = planner.files.map { planned in
            let text = sources.text(for: planned.file.path) ?? ""
            var hash = FNVHash()
            hash.add(text)
            identity.add(planned.file.path)
            identity.add(text)
            return File(path: planned.file.path, hash: hash.hex)
        }
        id = identity.hex
    }
}
