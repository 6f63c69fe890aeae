public import CollectionFormat

/// Plans a run from the files of a collection in run order: for each file with selected steps, its definitions,
/// how many steps it reports, and which earlier files capture variables it uses.
public struct RunPlanner: Sendable {
    /// The requests `--tag` and `--exclude-tag` select.
    let selection: TagFilter
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

    /// A file that runs and how many of its steps are selected.
    struct PlannedFile: Sendable {
        let file: RequestFile
        let stepCount: Int
    }

    /// How many files the plan runs.
    public var fileCount: Int { files.count }

    /// The paths of the planned files, in run order.
    public var filePaths: [String] { files.map(\.file.path) }

    /// How many steps of each planned file are selected, times its written or read rows (not a template's list, which a
    /// capture may change), in run order: the fewest requests it reports.
    public var selectedStepCounts: [Int] {
        files.map { selection.selectedSteps(of: $0.file).count * max(1, $0.file.rows?.rows.count ?? 1) }
    }

    /// How many requests the planned files report (selected steps, once per row or known list element).
    public var requestCount: Int { files.reduce(0) { $0 + $1.stepCount } }

    /// Counts the requests of each file.
    private let counter: RequestCounter

    /// Plans `files`, a loaded collection's files in run order, with the steps `selection` selects; lists known in
    /// `scope` (the collection's starting scope) count each element as a request.
    public init(planning files: [RequestFile], selection: TagFilter, scope: VariableScope?) {
        self.selection = selection
        counter = RequestCounter(files: files, scope: scope)
        for file in files { add(file) }
    }

    /// Adds the next file in run order: it waits for the earlier files capturing a variable its selected steps, their
    /// `with:` values, `when:` conditions and `each:` lists, its rows or its row names use.
    private mutating func add(_ file: RequestFile) {
        let steps = selection.selectedSteps(of: file)
        guard !steps.isEmpty else { return }
        let index = files.count
        var used = Set<String>()
        let use = { (template: Template) in used.formUnion(template.variableNames) }
        // A cleanup step reads the flow's own capture of a name the flow captures, never an earlier file's
        // (`CollectionRun.cleanupScope`): no wait for those files.
        let ownCaptures = file.namesItsStepsCapture
        let useInCleanup = { (template: Template) in used.formUnion(template.variableNames.filter { !ownCaptures.contains($0) }) }
        for step in steps {
            let use = step.isCleanup ? useInCleanup : use
            step.forEachTemplate(use)
            step.forEachControlTemplate(use)
            for input in step.inputs { input.value.forEachTemplate(use) }
        }
        for row in file.rows?.rows ?? [] {
            for value in row { value.forEachTemplate(use) }
        }
        file.forEachControlTemplate(use)
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
        files.append(PlannedFile(file: file, stepCount: counter.count(steps, of: file)))
    }

    /// For each planned file, the earlier files capturing a variable it uses, or the environment's headers, query, auth
    /// or client certificate password use where they apply to one of its requests (not the auth of a request with its
    /// own, `auth: none` included; not a header it sets itself).
    func dependencies(environment: ResolvedEnvironment?) -> FileDependencies {
        let ownWaits = FileDependencies(names: names, capturers: capturers, waits: waits, captures: captures)
        guard let environment else { return ownWaits }
        var environmentTemplates: [Template] = []
        environment.forEachRequestTemplate { template, _ in environmentTemplates.append(template) }
        guard Self.variableNames(in: environmentTemplates).contains(where: { variables[$0] != nil }) else { return ownWaits }
        var allWaits = FileLists<FileDependencies.Wait>()
        for index in waits.indices {
            var templates: [Template] = []
            for step in files[index].file.steps { environment.forEachRequestTemplate(usedBy: step) { template, _ in templates.append(template) } }
            var fileWaits = Array(waits[index])
            for variable in Self.variableNames(in: templates).compactMap({ variables[$0] }) where !fileWaits.contains(where: { $0.variable == variable }) {
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
        for template in templates { names.formUnion(template.variableNames) }
        return names
    }
}
