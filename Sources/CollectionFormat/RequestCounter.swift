/// How many requests files report: each selected step once per row of its file's `each:` and once per element of its
/// own `each:` list. A list is counted when it is known before sending (a lone template naming a variable of the
/// starting scope that no file captures and no `with:` or data row gives), once otherwise; an empty list is one SKIP.
public struct RequestCounter: Sendable {
    /// The starting scope (the environment's variables, `--var`s); nil when lists are not looked at.
    private let scope: VariableScope?
    /// The variables the files may give other values than the starting scope's.
    private let changed: Set<String>

    /// A counter for `files`, with lists known in `scope`.
    public init(files: [RequestFile], scope: VariableScope?) {
        // Most collections loop over no variable: then no list is looked at, and nothing else need be known.
        let loops = files.contains { $0.rowsTemplate != nil || $0.steps.contains { $0.loop != nil } }
        self.scope = loops ? scope : nil
        var changed = Set<String>()
        for file in files where loops {
            changed.formUnion(file.rows?.columns ?? [])
            for step in file.steps {
                changed.formUnion(step.captures.map(\.name))
                changed.formUnion(step.inputs.map(\.name))
            }
        }
        self.changed = changed
    }

    /// The requests `steps`, the selected steps of `file`, report.
    public func count(_ steps: [RequestDefinition], of file: RequestFile) -> Int {
        let fileRuns = file.rows.map { $0.rows.count } ?? runs(over: file.rowsTemplate)
        return fileRuns * steps.reduce(0) { $0 + runs(over: $1.loop) }
    }

    /// How many times a step or file with `each: template` runs: the length of a known list (at least one), else once.
    private func runs(over template: Template?) -> Int {
        guard let template, let scope, case .variable(let variable)? = template.singleExpression?.expression,
              !changed.contains(variable.name), case .array(let elements)? = try? scope.resolve(template) else { return 1 }
        return max(1, elements.count)
    }
}
