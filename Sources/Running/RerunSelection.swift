public import CollectionFormat

/// What `--rerun-failed` runs again: the planned files with a failed or errored request, or with one the reported run
/// stopped before it ran (cancelled, `--bail`), and the files whose captures they read (transitively), each with why
/// it was chosen.
public struct RerunSelection: Sendable {
    /// The files to run, in run order.
    public var files: [RequestFile] = []
    /// One line per file to run, in run order: `requests/a.yaml: failed` or `requests/login.yaml: captures token for
    /// requests/a.yaml`.
    public var reasons: [String] = []
    /// The reported files the plan does not hold (removed, renamed, or left out by the selection), in the report's order,
    /// each with why it was to run: `requests/a.yaml: failed in the report`.
    public var missing: [String] = []
}

extension RunPlanner {
    /// The selection that runs `failed` (the paths of files with failed or errored requests), `notRun` (of files with
    /// requests the reported run stopped before they ran) and `missedCaptures` (of files with requests skipped for a
    /// capture a failed request did not make) again, with the files their captures come from, against the environment's
    /// templates too.
    public func rerun(_ failed: [String], notRun: [String] = [], missedCaptures: [String] = [],
                      environment: ResolvedEnvironment?) -> RerunSelection {
        let dependencies = dependencies(environment: environment)
        var position: [String: Int] = [:]
        for (index, planned) in files.enumerated() { position[planned.file.path] = index }
        var selection = RerunSelection()
        var reasons: [Int: String] = [:]
        var pending: [Int] = []
        let reported = missedCaptures.map { ($0, "skipped in the report: a capture it needs failed") }
            + notRun.map { ($0, "not run in the report (the run stopped)") } + failed.map { ($0, "failed in the report") }
        var missing: Set<String> = []
        for (path, reason) in reported {
            guard let index = position[path] else {
                if missing.insert(path).inserted { selection.missing.append("\(path): \(reason)") }
                continue
            }
            if reasons[index] == nil { pending.append(index) }
            reasons[index] = reason
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
