public import CollectionFormat

/// What `--rerun-failed` runs again: the planned files with a failed or errored request, and the files whose captures
/// they read (transitively), each with why it was chosen.
public struct RerunSelection: Sendable {
    /// The files to run, in run order.
    public var files: [RequestFile] = []
    /// One line per file to run, in run order: `requests/a.yaml: failed` or `requests/login.yaml: captures token for
    /// requests/a.yaml`.
    public var reasons: [String] = []
    /// The failed files the plan does not hold (removed, renamed, or left out by the selection), in the report's order.
    public var missing: [String] = []
}

extension RunPlanner {
    /// The selection that runs `failed` (the paths of files with failed or errored requests) again with the files their
    /// captures come from, against the environment's templates too.
    public func rerun(_ failed: [String], environment: ResolvedEnvironment?) -> RerunSelection {
        let dependencies = dependencies(environment: environment)
        var position: [String: Int] = [:]
        for (index, planned) in files.enumerated() { position[planned.file.path] = index }
        var selection = RerunSelection()
        var reasons: [Int: String] = [:]
        var pending: [Int] = []
        for path in failed {
            guard let index = position[path] else {
                if !selection.missing.contains(path) { selection.missing.append(path) }
                continue
            }
            if reasons[index] == nil { pending.append(index) }
            reasons[index] = "failed in the report"
        }
        while let index = pending.popLast() {
            for wait in dependencies.waits[index] {
                for capturer in dependencies.capturers[wait.variable].prefix(wait.capturersBefore) where reasons[capturer] == nil {
                    reasons[capturer] = "captures \(dependencies.names[wait.variable]) for \(files[index].file.path)"
                    pending.append(capturer)
                }
            }
        }
        for index in reasons.keys.sorted() {
            selection.files.append(files[index].file)
            selection.reasons.append("\(files[index].file.path): \(reasons[index] ?? "")")
        }
        return selection
    }
}
