public import CollectionFormat

/// Plans a run from the files of a collection in run order: for each file with selected steps, where to
/// find its definitions, how many steps it reports, and which earlier files capture variables it uses.
///
/// Fed by `CollectionLoader.check` (files streamed, decoded again when they run) or by a loaded
/// collection's files (kept).
public struct RunPlanner: Sendable {
    public let options: RunOptions
    /// The files that run, in order.
    private(set) var files: [PlannedFile] = []
    /// The number of each variable captured so far.
    private var variables: [String: Int] = [:]
    /// The name of each variable, by number.
    private var names: [String] = []
    /// For each variable, by number, the planned files capturing it, in order.
    private var capturers: [[Int]] = []
    /// For each planned file, the variables its steps use that earlier files capture.
    private var waits = FileLists<FileDependencies.Wait>()
    /// For each planned file, the variables it captures.
    private var captures = FileLists<Int>()

    /// A file that runs: where its definitions come from and how many of its steps are selected.
    struct PlannedFile: Sendable {
        let source: FileSource
        let stepCount: Int
    }

    /// Where a planned file's definitions come from when its turn comes.
    enum FileSource: Sendable {
        /// Kept in memory since loading (boxed: a plan holds one source per file, mostly on disk).
        indirect case kept(RequestFile)
        /// Read and decoded again from disk (it was checked when the collection was loaded).
        case onDisk(DiscoveredFile)
        /// Decoded again from the image of its parsed document that the check spilled.
        case spilled(DiscoveredFile, SpilledFile)

        /// A file's definitions ready to run, or why it cannot run any more.
        enum Definitions {
            /// The definitions and, when decoded again, the file's text.
            case file(RequestFile, text: String?)
            /// The outcome reporting that the file changed or went away after it was checked.
            case unusable(RequestOutcome)
        }

        /// Whether the file is decoded again at its turn (not kept from the check).
        var decodesAgain: Bool {
            if case .kept = self { return false }
            return true
        }

        /// The file's definitions, decoded again when they are not kept.
        func definitions() -> Definitions {
            switch self {
            case .kept(let file):
                return .file(file, text: nil)
            case .onDisk(let location):
                return Self.definitions(of: location, decoded: CollectionLoader.reload(location))
            case .spilled(let location, let spilled):
                return Self.definitions(of: location, decoded: CollectionLoader.reload(location, from: spilled))
            }
        }

        /// The definitions of a file decoded again, or why it cannot run.
        private static func definitions(of location: DiscoveredFile, decoded: DecodedFile<RequestFile>?) -> Definitions {
            guard let decoded else {
                return .unusable(Self.unusable(location, "the file cannot be read any more"))
            }
            let error = decoded.diagnostics.first { $0.severity == .error }
            guard let file = decoded.value, error == nil else {
                let reason = error.map { ": \($0.message)" } ?? ""
                return .unusable(Self.unusable(location, "the file changed after it was checked\(reason)"))
            }
            return .file(file, text: decoded.text)
        }

        private static func unusable(_ location: DiscoveredFile, _ message: String) -> RequestOutcome {
            RequestOutcome(file: location.path, name: location.defaultName, method: "", url: "", verdict: .errored,
                           error: .error(message, path: location.path, at: nil,
                                         suggestion: "run again once the collection stops changing"))
        }
    }

    public init(options: RunOptions) {
        self.options = options
    }

    /// Adds the next file in run order, to be decoded again when it runs: from its spilled image when there is
    /// one, otherwise from `location`.
    public mutating func add(_ file: RequestFile, at location: DiscoveredFile, spilled: SpilledFile? = nil) {
        add(file, source: spilled.map { .spilled(location, $0) } ?? .onDisk(location))
    }

    /// Adds the next file in run order, kept in memory.
    public mutating func add(_ file: RequestFile) {
        add(file, source: .kept(file))
    }

    private mutating func add(_ file: RequestFile, source: FileSource) {
        let steps = options.selectedSteps(of: file)
        guard !steps.isEmpty else { return }
        let index = files.count
        var used = Set<String>()
        for step in steps { step.forEachTemplate { Self.addVariableNames(of: $0, to: &used) } }
        waits.append(used.compactMap { name in
            variables[name].map { FileDependencies.Wait(variable: $0, capturersBefore: capturers[$0].count) }
        })
        let captured = Set(steps.flatMap { $0.captures.map(\.name) }).map { name in
            let variable = variables[name] ?? capturers.count
            if variable == capturers.count {
                variables[name] = variable
                names.append(name)
                capturers.append([])
            }
            capturers[variable].append(index)
            return variable
        }
        captures.append(captured)
        files.append(PlannedFile(source: source, stepCount: steps.count))
    }

    /// For each planned file, the earlier files capturing a variable it or the environment's headers,
    /// query or auth (applied to every request) use.
    func dependencies(environment: ResolvedEnvironment?) -> FileDependencies {
        var environmentTemplates: [Template] = []
        if let environment {
            environmentTemplates = environment.headers.map(\.value.value) + environment.query.flatMap(\.value.templates)
            if let auth = environment.auth { environmentTemplates += auth.value.value.templates }
        }
        let ownWaits = FileDependencies(names: names, capturers: capturers, waits: waits, captures: captures)
        let environmentVariables = Self.variableNames(in: environmentTemplates).compactMap { variables[$0] }
        guard !environmentVariables.isEmpty else { return ownWaits }
        var allWaits = FileLists<FileDependencies.Wait>()
        for index in waits.indices {
            var fileWaits = Array(waits[index])
            for variable in environmentVariables where !fileWaits.contains(where: { $0.variable == variable }) {
                let before = ownWaits.capturers(of: variable, before: index)
                if before > 0 { fileWaits.append(FileDependencies.Wait(variable: variable, capturersBefore: before)) }
            }
            allWaits.append(fileWaits)
        }
        return FileDependencies(names: names, capturers: capturers, waits: allWaits, captures: captures)
    }

    /// The root names of the variables the templates read.
    private static func variableNames(in templates: [Template]) -> Set<String> {
        var names = Set<String>()
        for template in templates { addVariableNames(of: template, to: &names) }
        return names
    }

    /// Adds the root names of the variables a template reads.
    private static func addVariableNames(of template: Template, to names: inout Set<String>) {
        for (expression, _) in template.expressions {
            if case .variable(let path) = expression { names.insert(path.name) }
        }
    }
}
