import CollectionFormat
import Foundation
import Reporting
import Running

/// Which of the planned files a run sends: `--rerun-failed` narrows the plan to what failed in a report and the files
/// whose captures it needs, and `--shard` (or `RUNNER_SHARD`) to one part of what is left.
struct PlanNarrowing {
    var shard: Shard?
    /// The report of `--rerun-failed`, and its path as given.
    var rerun: (report: JSONReportDocument, path: String)?

    /// Reads `--shard` (`RUNNER_SHARD` when it is not given): the part this run is, nil for a whole run; a message for
    /// the command line when it is wrong.
    static func shard(_ shard: String?, environment: [String: String]) -> Result<Shard?, Problem> {
        // An empty `RUNNER_SHARD` is unset, as an empty variable is everywhere; an empty `--shard ""` (a CI matrix
        // variable left empty) is an error, never the whole collection on every part.
        guard let (shardText, shardSource) = shard.map({ ($0, "--shard") })
            ?? environment["RUNNER_SHARD"].flatMap({ $0.isEmpty ? nil : ($0, "RUNNER_SHARD") }) else { return .success(nil) }
        return Shard.parse(shardText).map(Optional.some).mapError { Problem(message: "\(shardSource): \($0.message)") }
    }

    /// The narrowing of the part `shard` by the report of `--rerun-failed`; a message for the command line when the
    /// report cannot be read.
    static func read(shard: Shard?, rerunFailed: String?) -> Result<PlanNarrowing, Problem> {
        var narrowing = PlanNarrowing(shard: shard)
        if let path = rerunFailed {
            let text: String
            do throws(InputFile.Problem) { text = try InputFile.text(atPath: path, limit: InputFile.reportLimit) } catch {
                var isDirectory: ObjCBool = false
                let directory = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                return .failure(Problem(message: "--rerun-failed: cannot read the report '\(path)'"
                    + (directory ? ": it is a directory; give the JSON report a run wrote (--report-json FILE)" : error.detail)))
            }
            do {
                narrowing.rerun = (try JSONReportDocument.read(text, name: path), path)
            } catch {
                return .failure(Problem(message: "--rerun-failed: \(error.description)"))
            }
        }
        return .success(narrowing)
    }

    /// What is wrong with the command line.
    struct Problem: Error {
        let message: String
    }

    /// The planner of the files this run sends, and the lines that say what was chosen and why; without a planner,
    /// nothing is to run, and the status says whether that is a success (an empty part, nothing failed) or not (every
    /// failed file gone from the collection). `plan`, the record of the whole plan, is there whenever a rerun is asked for;
    /// it gets what this part was dealt.
    func narrow(_ planner: RunPlanner, loaded: LoadedCollection, plan: inout PlanRecord?,
                selection: TagFilter) -> (planner: RunPlanner?, notes: [String], status: ExitStatus) {
        var planner = planner
        var notes: [String] = []
        // The reported requests; a run's own errors (an invalid collection, a bad --proxy, a signal) name no request.
        let requests = rerun?.report.summary.outcomes.filter { !$0.method.isEmpty } ?? []
        // A part a signal ended before any request ended runs its own part's files (below), not every file.
        let signalledPart = rerun.map { $0.report.summary.shard != nil && $0.report.summary.cancellingSignal != nil } ?? false
        if let (report, path) = rerun, report.exitStatus != 0, requests.isEmpty, !signalledPart || plan == nil {
            // No request is reported (the run stopped before sending, or was ended at once): every file runs.
            notes.append("--rerun-failed: \(path) reports no request (exit \(report.exitStatus)): every file runs")
        } else if let (report, path) = rerun, let stop = report.summary.stopStatus, stop == 1 || stop == 2 {
            // A merged report one of whose parts stopped before sending (an invalid collection or environment, exit 2; a
            // bad --proxy, exit 1): that part tested nothing.
            notes.append("--rerun-failed: \(path) reports a part that stopped before sending (exit \(stop)): every file runs")
        } else if let (report, path) = rerun, let plan {
            let paths = ReportedPaths(files: loaded.files)
            let failed = requests.filter { $0.verdict.isFailure }.map { paths.current($0.file) }
            // Requests a cancelled run, or --bail, stopped before they ran were not tested either; nor, after a run a
            // signal stopped at once, the files it never reached.
            let cancelled = report.summary.cancellingSignal != nil
            var notRun = requests.filter { $0.wasStoppedBeforeRunning(runCancelled: cancelled) }.map { paths.current($0.file) }
            if cancelled {
                let reached = Set(requests.map { paths.current($0.file) })
                // A part's report: only the files of its part were to run (the other parts ran theirs), as it records them
                // (a part of a rerun was dealt what that rerun chose), else as this collection deals them.
                let planned = report.summary.plan?.part?.files.map(paths.current)
                    ?? report.summary.shard.map { planner.files(in: $0, environment: loaded.environment).map(\.path) }
                    ?? plan.files.map(\.path)
                notRun += planned.filter { !reached.contains($0) }
            }
            let missedCaptures = requests.filter(\.missedAFailedCapture).map { paths.current($0.file) }
            guard !failed.isEmpty || !notRun.isEmpty else {
                // A report of another collection is a wrong path, not a green rerun.
                let reported = Set(requests.map { paths.current($0.file) })
                if !reported.isEmpty, reported.isDisjoint(with: plan.files.map(\.path)) {
                    return (nil, ["--rerun-failed: no file of \(path) is in this collection: is it the report of another one?"],
                            .badCommandLine)
                }
                return (nil, ["--rerun-failed: nothing failed in \(path); nothing to run"], .success)
            }
            let chosen = planner.rerun(failed, notRun: notRun, missedCaptures: missedCaptures, environment: loaded.environment)
            let hashes = Dictionary((report.summary.plan?.files ?? []).map { (paths.current($0.path), $0.hash) }) { first, _ in first }
            // A chosen file whose text changed since the report is named so on its line.
            let changed = Set(plan.files.filter { file in hashes[file.path].map { $0 != file.hash } == true }.map(\.path))
            notes.append("--rerun-failed: \(chosen.files.count) of \(planner.fileCount) files from \(path)")
            notes += zip(chosen.files, chosen.reasons).map { file, reason in
                "  \(reason)" + (changed.contains(file.path) ? ", and changed since the report" : "")
            }
            notes += chosen.missing.map { "  \($0), but is not in this collection (removed, renamed or not selected)" }
            guard !chosen.files.isEmpty else {
                return (nil, notes + ["--rerun-failed: none of the files to run again is in this collection; nothing to run"],
                        .badCommandLine)
            }
            planner = RunPlanner(planning: chosen.files, selection: selection, scope: loaded.scope)
        }
        if let shard {
            let part = planner.files(in: shard, environment: loaded.environment)
            let partPlanner = RunPlanner(planning: part, selection: selection, scope: loaded.scope)
            plan?.part = PlanRecord.Part(files: partPlanner.filePaths, steps: partPlanner.selectedStepCounts, dealt: planner.fileCount,
                                         dealtID: PlanRecord.Part.identity(of: planner.filePaths))
            let requests = RunPlanner(planning: part, selection: selection, scope: loaded.scope).requestCount
            guard !part.isEmpty else {
                return (nil, notes + ["shard \(shard): nothing to run (\(planner.fileCount == 1 ? "the file selected is in another part" : "the \(planner.fileCount) files selected are in the other parts"))"],
                        .success)
            }
            notes.append("shard \(shard): \(part.count) of \(planner.fileCount) files, \(requests) of \(planner.requestCount) requests")
            planner = RunPlanner(planning: part, selection: selection, scope: loaded.scope)
        }
        return (planner, notes, .success)
    }
}

/// The collection file a report's path names, when the report was written from another directory than this run's, or
/// with the collection named otherwise (`requests` here, `sh/requests` or an absolute path there): the one planned
/// file whose absolute path ends with the reported path's names, or whose path as given here ends the reported one; or
/// the file the reported path leads to from here through symbolic links (`link/requests` there, `real/requests` here).
final class ReportedPaths {
    private let files: [RequestFile]
    private let paths: Set<String>
    /// Each file's names and its path without symbolic links, made the first time a reported path is not one of `paths`.
    private lazy var others: [(path: String, absolute: [Substring], given: [Substring], resolved: String)] = files.map {
        ($0.path, Self.names($0.absolutePath), Self.names($0.path), Self.resolved($0.absolutePath))
    }

    init(files: [RequestFile]) {
        self.files = files
        paths = Set(files.map(\.path))
    }

    /// The path of the collection file `reported` names: itself when a file has it, or when none or several match.
    func current(_ reported: String) -> String {
        guard !paths.contains(reported) else { return reported }
        let resolved = Self.resolved(reported)
        if let file = others.first(where: { $0.resolved == resolved }) { return file.path }
        let names = Self.names(reported)
        guard !names.isEmpty else { return reported }
        let matches = others.filter { $0.absolute.ends(with: names) || (!$0.given.isEmpty && names.ends(with: $0.given)) }
        return matches.count == 1 ? matches[0].path : reported
    }

    /// A path (relative to the current directory) as an absolute one without symbolic links.
    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// The names a path goes through, without `.` and `..`.
    private static func names(_ path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." && $0 != ".." }
    }
}

extension Array where Element: Equatable {
    /// Whether the last elements are `suffix`.
    fileprivate func ends(with suffix: [Element]) -> Bool {
        suffix.count <= count && Array(self[(count - suffix.count)...]) == suffix
    }
}
