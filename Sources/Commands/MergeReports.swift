import CollectionFormat
import Foundation
import Reporting
import Running

/// `runner merge-reports PART.json...`: the JSON reports of the parts of a sharded run (`--shard I/N`) as one run, in
/// the unsharded run's order, written in any report format; exits with the status the unsharded run would have had.
public struct MergeReports: Sendable {
    /// The parts' JSON reports, as given.
    public var parts: [String]
    /// Where to write the merged reports.
    public var junitReport: String?
    public var jsonReport: String?
    public var markdownReport: String?
    public var tapReport: String?
    public var htmlReport: String?

    public init(parts: [String]) {
        self.parts = parts
    }

    /// Reads and checks the parts, prints the merged summary and writes the reports.
    public func execute() -> ExitStatus {
        let requests = [(ReportFormat.junit, junitReport), (.json, jsonReport), (.markdown, markdownReport), (.tap, tapReport),
                        (.html, htmlReport)].compactMap { format, path in path.map { ReportFiles.Request(format: format, path: $0) } }
        if let problem = ReportFiles.problem(requests) ?? ReportFiles.problem(requests, reading: parts, reader: "merge-reports merges") {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let summary: RunSummary
        do {
            summary = try Self.merge(try parts.map(Self.read))
        } catch {
            Console.error("error: \(error.message)")
            return .badCommandLine
        }
        let console = ConsoleReport(sources: SourceCache(), redactor: Redactor(secrets: []),
                                    color: Console.colors(STDOUT_FILENO, .auto, environment: ProcessInfo.processInfo.environment),
                                    verbose: false)
        Console.out("merged \(parts.count) parts")
        Console.out(console.summary(summary))
        let reports = ReportFiles(requests)
        reports.use(sources: Self.unchangedSources(of: summary.plan), redactor: Redactor(secrets: []))
        guard reports.write(summary) else { return .badCommandLine }
        return ExitStatus(rawValue: summary.exitStatus) ?? .requestFailed
    }

    /// The texts of the planned files that are as the parts read them (their hashes match), so that the merged reports
    /// quote the lines their problems point at, as the run's own reports do; a file changed or gone, or no longer a
    /// regular file (a FIFO would never end the read), is quoted by none.
    private static func unchangedSources(of plan: PlanRecord?) -> SourceCache {
        let sources = SourceCache()
        for file in plan?.files ?? [] {
            var status = stat()
            guard stat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  let text = try? InputFile.text(atPath: file.path), PlanRecord.File.hash(of: text) == file.hash else { continue }
            sources.store(text, for: file.path)
        }
        return sources
    }

    /// Why the parts cannot be merged.
    struct Problem: Error {
        let message: String
    }

    /// One part's report, read; its path names it in problems.
    private static func read(_ path: String) throws(Problem) -> (path: String, report: JSONReportDocument) {
        let text: String
        do throws(InputFile.Problem) { text = try InputFile.text(atPath: path, limit: InputFile.reportLimit) } catch {
            throw Problem(message: "cannot read the report '\(path)'\(error.detail)")
        }
        do {
            return (path, try JSONReportDocument.read(text, name: path))
        } catch {
            throw Problem(message: error.description)
        }
    }

    /// What differs between the runs of two parts: their number of parts, the tags, the environment, a file's text, the
    /// files planned, a file read besides, the `--var`s, or else what the plan's identity holds besides.
    private static func difference(between part: (path: String, report: JSONReportDocument),
                                   and other: (path: String, report: JSONReportDocument)) -> String {
        let (shard, otherShard) = (part.report.summary.shard, other.report.summary.shard)
        if let shard, let otherShard, shard.total != otherShard.total {
            return "it is part \(shard), \(other.path) part \(otherShard): each run was split in its own number of parts"
        }
        let (plan, otherPlan) = (part.report.summary.plan, other.report.summary.plan)
        let (inputs, otherInputs) = (plan?.inputs, otherPlan?.inputs)
        // What the parts were run with first: other tags or another environment plan other files too.
        if let inputs, let otherInputs, inputs.tags != otherInputs.tags {
            let name = { (tags: String) in tags.isEmpty ? "no tag filter" : tags }
            return "it selected with \(name(inputs.tags)), \(other.path) with \(name(otherInputs.tags))"
        }
        if let inputs, let otherInputs, inputs.environment.first != otherInputs.environment.first {
            let name = { (chain: [String]) in chain.first.map { "--env \($0)" } ?? "no --env" }
            return "it ran with \(name(inputs.environment)), \(other.path) with \(name(otherInputs.environment))"
        }
        if let found = fileDifference(plan?.files ?? [], otherPlan?.files ?? [],
                                      onlyIn: ("is in its plan, not in \(other.path)'s", "is in the plan of \(other.path), not in its")) {
            return found
        }
        if plan?.files.map(\.path) != otherPlan?.files.map(\.path) {
            return "they run the same files in another order (paths given in another order)"
        }
        guard let inputs, let otherInputs else {
            return "another plan: another environment, other tags or --vars, or a file they read (an environment, a used or data "
                + "file) edited between the two runs"
        }
        if let found = fileDifference(inputs.files, otherInputs.files,
                                      onlyIn: ("was read by it, not by \(other.path)", "was read by \(other.path), not by it")) {
            return found
        }
        let (names, otherNames) = (inputs.variables + inputs.secretVariables, otherInputs.variables + otherInputs.secretVariables)
        if let only = names.first(where: { !otherNames.contains($0) }) { return "it was given --var \(only), \(other.path) was not" }
        if let only = otherNames.first(where: { !names.contains($0) }) { return "\(other.path) was given --var \(only), it was not" }
        if names != otherNames { return "they were given the same --vars in another order" }
        if inputs.unplanned != otherInputs.unplanned {
            return "a request file neither of them runs (other tags) was edited, added or removed between the two runs"
        }
        let valued = inputs.variables.map { "--var \($0)" }
        guard !valued.isEmpty else { return "another plan (the same files, environment, tags and --vars)" }
        return valued.count == 1 ? "the value of \(valued[0]) differs (values are not recorded)"
            : "the value of one of \(valued.joined(separator: ", ")) differs (values are not recorded)"
    }

    /// The first file of `files` (of the part) whose text differs in `others` (of the other part), or that only one of
    /// them lists (said after its path by `onlyIn`), in words; nil when they list the same files with the same texts.
    private static func fileDifference(_ files: [PlanRecord.File], _ others: [PlanRecord.File],
                                       onlyIn: (mine: String, theirs: String)) -> String? {
        let hashes = Dictionary(others.map { ($0.path, $0.hash) }) { first, _ in first }
        if let edited = files.first(where: { file in hashes[file.path].map { $0 != file.hash } ?? false }) {
            return "\(edited.path) was edited between the two runs"
        }
        let paths = Set(files.map(\.path)), otherPaths = Set(others.map(\.path))
        if let only = files.first(where: { !otherPaths.contains($0.path) }) { return "\(only.path) \(onlyIn.mine)" }
        return others.first { !paths.contains($0.path) }.map { "\($0.path) \(onlyIn.theirs)" }
    }

    /// The parts as one run: every part of the same plan once, the requests in the order of the plan's files (a part's
    /// own order within a file), the longest part's time, the first stop status.
    static func merge(_ parts: [(path: String, report: JSONReportDocument)]) throws(Problem) -> RunSummary {
        guard let first = parts.first else { throw Problem(message: "give the JSON reports of the parts to merge") }
        var byIndex: [Int: String] = [:]
        // A part that stopped before it planned (an invalid collection, a secret unset in its job) has no plan: its
        // errors are merged as they are.
        let planned = parts.first { $0.report.summary.plan != nil }
        for (path, report) in parts {
            guard let shard = report.summary.shard else {
                throw Problem(message: "\(path) is not the report of a part: it was written by a run without --shard")
            }
            guard report.summary.plan == nil || report.summary.plan?.id == planned?.report.summary.plan?.id,
                  shard.total == first.report.summary.shard?.total else {
                let other = [planned, first].compactMap { $0 }.first { $0.path != path } ?? first
                throw Problem(message: "\(path) is a part of another run than \(other.path): "
                                  + difference(between: (path, report), and: other))
            }
            if let other = byIndex[shard.index] {
                throw Problem(message: "part \(shard) is given twice: \(other) and \(path)")
            }
            byIndex[shard.index] = path
        }
        // A flaky pass is a failure in the parts run with --fail-on-flaky only: the merged verdict would be no run's.
        if let strict = parts.first(where: { $0.report.summary.failsFlaky == true }),
           let lenient = parts.first(where: { $0.report.summary.failsFlaky == false }) {
            throw Problem(message: "\(strict.path) was run with --fail-on-flaky, \(lenient.path) without: a flaky pass is a failure "
                              + "in some parts only; run every part with the same flags")
        }
        let total = first.report.summary.shard?.total ?? 0
        let missingCount = max(total, 1) - byIndex.keys.count { (1...max(total, 1)).contains($0) }
        guard missingCount == 0 else {
            // The first ten by number: a part count of a billion lists no billion parts.
            let named = (1...max(total, 1)).lazy.filter { byIndex[$0] == nil }.prefix(10).map { "part \($0)/\(total)" }
            let more = missingCount > named.count ? " and \(missingCount - named.count) more" : ""
            throw Problem(message: "missing " + named.joined(separator: ", ") + more + ": merge the reports of all \(total) parts")
        }
        // The merged run is no part: its plan is the parts' without what one of them was dealt.
        var plan = planned?.report.summary.plan
        plan?.part = nil
        let order = Dictionary((plan?.files ?? []).enumerated().map { ($1.path, $0) }) { first, _ in first }
        try checkDealtAlike(parts)
        // A file runs in one part: its requests in two parts were copied there (an edited part).
        var partOfFile: [String: String] = [:]
        for (path, report) in parts {
            for outcome in report.summary.outcomes where !outcome.method.isEmpty {
                if let other = partOfFile.updateValue(path, forKey: outcome.file), other != path {
                    throw Problem(message: "\(outcome.file) has requests in \(other) and in \(path), but a file runs in one part: "
                                      + "is a part edited?")
                }
            }
        }
        // A request of a file the plan does not hold was not run by this plan (an edited part); an error names no request.
        for (path, report) in parts where report.summary.plan != nil {
            if let (position, outcome) = report.summary.outcomes.enumerated()
                .first(where: { !$0.element.method.isEmpty && order[$0.element.file] == nil }) {
                throw Problem(message: "\(path): request \(position + 1) names \(outcome.file), which is not a file of the run's plan")
            }
        }
        try checkDealt(parts, order: order)
        let sorted = parts.sorted { ($0.report.summary.shard?.index ?? 0) < ($1.report.summary.shard?.index ?? 0) }
        // A problem found before sending that every part found alike (a secret unset in every job, a tag that selects
        // nothing) is the run's problem once, as unsharded.
        var problemsSeen: Set<String> = []
        let outcomes = sorted.flatMap(\.report.summary.outcomes).enumerated()
            .sorted { (order[$0.element.file] ?? 0, $0.offset) < (order[$1.element.file] ?? 0, $1.offset) }
            .map(\.element)
            .filter { outcome in
                guard outcome.method.isEmpty, let error = outcome.error else { return true }
                let place = "\(error.path ?? ""):\(error.mark?.line ?? 0):\(error.mark?.column ?? 0)"
                return problemsSeen.insert([outcome.file, outcome.name, place, error.message].joined(separator: "\u{0}")).inserted
            }
        var summary = RunSummary(outcomes: outcomes, duration: parts.map(\.report.summary.duration).max() ?? .zero)
        summary.plan = plan
        summary.stopStatus = sorted.lazy.compactMap(\.report.summary.stopStatus).first
        let seeds = Set(parts.compactMap(\.report.summary.seed))
        if seeds.count == 1 { summary.seed = seeds.first }
        summary.failsFlaky = parts.lazy.compactMap(\.report.summary.failsFlaky).first
        return summary
    }

    /// Checks that every part that planned records what it was dealt, and that all were dealt from the same files
    /// (`dealtID`): parts of a `--rerun-failed` run and of the first run are not one run.
    private static func checkDealtAlike(_ parts: [(path: String, report: JSONReportDocument)]) throws(Problem) {
        let planned = parts.filter { $0.report.summary.plan != nil }
        // A part that stopped before it planned sent nothing: it has no request record, and its run did not end.
        for (path, report) in parts where report.summary.plan == nil {
            let sent = report.summary.outcomes.contains { !$0.method.isEmpty }
            guard sent || [0, 3, 4].contains(report.exitStatus) else { continue }
            throw Problem(message: "\(path) has no plan, but " + (sent ? "holds request records" : "ran to its end (exit \(report.exitStatus))")
                              + ": a part that stopped before it planned sent nothing; is it edited?")
        }
        if let bare = planned.first(where: { $0.report.summary.plan?.part == nil }) {
            throw Problem(message: "\(bare.path) does not record what its part was dealt (its plan has no 'part'): is it edited, "
                              + "or written by an older runner? Merge parts this runner wrote")
        }
        let dealt = planned.compactMap { part in part.report.summary.plan?.part.map { (path: part.path, part: $0) } }
        guard let first = dealt.first else { return }
        if let other = dealt.first(where: { $0.part.dealtID != first.part.dealtID || $0.part.dealt != first.part.dealt }) {
            throw Problem(message: "\(other.path) was dealt from other files than \(first.path) (\(other.part.dealt) and "
                              + "\(first.part.dealt) files): are they parts of different runs (one of them a --rerun-failed)?")
        }
    }

    /// Checks the parts against what each was dealt (`checkDealtAlike` passed): a part's files are files of the plan, each
    /// once, its requests are of its own files, each of its files has a record unless the part was stopped, no file was
    /// dealt to two parts, and the parts hold every file dealt. A record deleted with the counts made to match is refused.
    private static func checkDealt(_ parts: [(path: String, report: JSONReportDocument)], order: [String: Int]) throws(Problem) {
        let dealt = parts.compactMap { part in part.report.summary.plan?.part.map { (path: part.path, summary: part.report.summary, part: $0) } }
        guard let first = dealt.first else { return }
        var owner: [String: String] = [:]
        for (path, summary, part) in dealt {
            for file in part.files {
                guard order[file] != nil else {
                    throw Problem(message: "\(path) was dealt \(file), which is not a file of the run's plan: is it edited?")
                }
                if let other = owner.updateValue(path, forKey: file) {
                    throw Problem(message: other == path ? "\(path) lists \(file) twice among the files of its part: is it edited?"
                                      : "\(file) was dealt to \(other) and to \(path): are they parts of different runs?")
                }
            }
            let own = Set(part.files)
            if let position = summary.outcomes.firstIndex(where: { !$0.method.isEmpty && !own.contains($0.file) }) {
                throw Problem(message: "\(path): request \(position + 1) names \(summary.outcomes[position].file), which is not a "
                                  + "file of its part: is it edited?")
            }
            // Each selected step of a file reports once at least (skipped or errored too), unless a signal stopped the part.
            let recorded = Dictionary(grouping: summary.outcomes, by: \.file).mapValues(\.count)
            if summary.stopStatus == nil,
               let (missing, steps) = zip(part.files, part.steps).first(where: { (recorded[$0.0] ?? 0) < $0.1 }) {
                let count = recorded[missing] ?? 0
                throw Problem(message: count == 0 ? "\(path) has no record of \(missing), a file of its part: is it edited?"
                                  : "\(path) has \(count) records of \(missing), which reports \(steps) at least (a record per "
                                      + "selected step and row): is it edited?")
            }
        }
        // A part stopped before it planned (its collection invalid in that job) says nothing of what it was dealt.
        guard dealt.count == parts.count else { return }
        guard owner.count == first.part.dealt, PlanRecord.Part.identity(of: owner.keys) == first.part.dealtID else {
            throw Problem(message: "the parts were dealt \(first.part.dealt) files but hold \(owner.count)"
                              + (owner.count == first.part.dealt ? " others" : "") + ": is a part edited?")
        }
    }
}
