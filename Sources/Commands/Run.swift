import CollectionFormat
import CollectionReading
import Foundation
import HTTPCore
import Loaders
import Reporting
import Running
import Synchronization

/// `runner run`: reads and checks the collection, sends every request, checks its expectations and reports.
public struct Run: Sendable {
    public var collection: CollectionSelection
    /// How many files run at the same time.
    public var jobs = 1
    /// Stop at the first failed request.
    public var bail = false
    /// Fail requests that passed only after a retry for a status or an error kind.
    public var failOnFlaky = false
    /// Show each exchange.
    public var verbose = false
    /// Where to write the JUnit XML, JSON, Markdown and TAP reports.
    public var junitReport: String?
    public var jsonReport: String?
    public var markdownReport: String?
    public var tapReport: String?
    public var htmlReport: String?
    /// `--cacert`: a PEM bundle every request trusts, in place of the files' `caCert`.
    public var caCert: String?
    /// `--proxy`: the proxy of every request, in place of the files' `proxy`.
    public var proxy: String?
    /// `--color`: whether the console output (and the diagnostics on standard error) is coloured.
    public var color = ConsoleChoice.auto
    /// `--progress`: whether the `[done/total]` line is drawn on standard error.
    public var progress = ConsoleChoice.auto
    /// `--quiet`: print only failures, errors and the summary (no PASS or SKIP lines).
    public var quiet = false
    /// `--annotations`: whether failures and errors are also printed as GitHub workflow commands.
    public var annotations = AnnotationChoice.auto
    /// `--seed`: the seed of the run's random built-ins.
    public var seed: UInt64?
    /// `--shard I/N`: run only that part (`RUNNER_SHARD` when nil).
    public var shard: String?
    /// `--rerun-failed REPORT.json`: run only what failed in that report, and what it needs.
    public var rerunFailed: String?

    public init(collection: CollectionSelection) {
        self.collection = collection
    }

    /// Runs the collection, printing a line per request and a summary; the exit status says how it went.
    public func execute() async -> ExitStatus {
        // Too few open files would fail every connection (or the event loops: a crash), as if the API could not be reached.
        let openFiles = OpenFileLimit.raise()
        // A report that cannot be written is a bad command line, found before anything is read or sent.
        if let problem = ReportFiles.problem(reportPaths) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let reports = ReportFiles(reportPaths)
        let process = ProcessEnvironment.current()
        let environment = process.variables
        let annotationOutput = AnnotationOutput(printing: annotations.printsAnnotations(environment: environment))
        // Every way out writes the reports, so the CI step that publishes them finds them: a case per problem, each
        // also an annotation.
        // The part this run is, once read: a part that stops before it plans is still a part, for merge-reports.
        var part: Shard?
        // And its plan, once made: a part stopped after planning (a bad --proxy) merges only with parts of that plan.
        var plannedRecord: PlanRecord?
        let stop = { (status: ExitStatus, problems: [Diagnostic]) -> ExitStatus in
            var summary = RunSummary.notSent(problems, status: status.rawValue)
            (summary.shard, summary.plan) = (part, plannedRecord)
            summary.outcomes.forEach(annotationOutput.print)
            _ = reports.write(summary)
            return status
        }
        let stopWithError = { (status: ExitStatus, message: String) -> ExitStatus in
            Console.error("error: \(message)")
            return stop(status, [.error(message, path: nil, at: nil)])
        }
        // Stopped before any event loop starts; the reports, which need a file at a time, say why.
        if let problem = OpenFileLimit.problem(limit: openFiles) { return stopWithError(.badCommandLine, problem) }
        let interruption = Interruption { signal, why in
            let name = Interruption.name(of: signal)
            let message = switch why {
            case .readingDidNotEnd:
                "the run was stopped by \(name) while it read its input (the collection, --env-file, --rerun-failed), which "
                    + "did not end within \(Interruption.readingGraceSeconds) s (a FIFO, or a pipe left open): nothing was sent"
            case .secondSignal(whileReading: true):
                "the run was stopped at once by a second signal (\(name)) while it read its input: nothing was sent"
            case .secondSignal(whileReading: false):
                "the run was stopped at once by a second signal (\(name)): only the requests that ended before it are reported"
            case .runEnded(let status):
                // The reports not written yet are not (the console names them): the run's own status says how it went.
                reports.exitUnwritten(stoppedBy: name, status: status)
            }
            reports.writeAndExit(stoppedBy: signal, message: message)
        }
        // Parsed but unusable (`--shard 5/4`, a report that cannot be read): a case in the reports says why; the part is
        // known before the report is read (which a signal may end), for every report written from then on.
        switch PlanNarrowing.shard(shard, environment: environment) {
        case .success(let read):
            part = read
            reports.use(shard: read, plan: nil)
        case .failure(let problem): return stopWithError(.badCommandLine, problem.message)
        }
        let narrowing: PlanNarrowing
        switch await interruption.reading({ PlanNarrowing.read(shard: part, rerunFailed: rerunFailed) }) {
        case .success(let read): narrowing = read
        case .failure(let problem): return stopWithError(.badCommandLine, problem.message)
        }
        var collection = collection
        collection.seed = seed
        var loaded = await interruption.reading { await collection.load(forSending: true) }
        // Checked before any way out writes the reports: a report would overwrite what it names.
        let certificatesRead = [caCert, environment["SSL_CERT_FILE"]].compactMap { $0 }.filter { !$0.isEmpty }.map(Self.absolutePath)
        if !reportPaths.isEmpty, let problem = ReportFiles.problem(reportPaths, reading: loaded.filesRead + certificatesRead) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let secretsRedactor = Redactor(secrets: loaded.scope.hiddenValues)
        reports.use(sources: loaded.sources, redactor: secretsRedactor)
        annotationOutput.use(redactor: secretsRedactor)
        // The certificate files of the command line are checked beside the collection: one run names every problem.
        loaded.diagnostics += [("--cacert", caCert), ("SSL_CERT_FILE", environment["SSL_CERT_FILE"])].compactMap { name, file in
            guard let file, !file.isEmpty, let problem = CertificateFile.problem(at: Self.absolutePath(file)) else { return nil }
            return .error("\(name): the file '\(file)' \(problem)", path: nil, at: nil)
        }
        if let status = DiagnosticsOutput.report(loaded, color: color) { return stop(status, loaded.diagnostics) }
        let wholePlanner = RunPlanner(planning: loaded.files, selection: collection.filter, scope: loaded.scope)
        guard wholePlanner.requestCount > 0 else { return stopWithError(.badCommandLine, collection.noneSelected(in: loaded)) }
        // What the plan was, for the JSON report and `--rerun-failed` (hashing every file read is not free on large runs).
        var plan = jsonReport != nil || narrowing.rerun != nil
            ? PlanRecord(wholePlanner, collection: loaded, selection: collection.filter,
                         variables: collection.variables) : nil
        let (narrowed, notes, emptyStatus) = narrowing.narrow(wholePlanner, loaded: loaded, plan: &plan, selection: collection.filter)
        reports.use(shard: narrowing.shard, plan: plan)
        plannedRecord = plan
        notes.forEach(Console.out)
        guard let planner = narrowed else {
            // A part with nothing to run (a matrix wider than the collection is normal), or nothing failed to run again;
            // a rerun whose failed files are none of this collection's is an error, and its reports say so.
            guard emptyStatus == .success else { return stop(emptyStatus, [.error(notes.last ?? "nothing to run", path: nil, at: nil)]) }
            var summary = RunSummary(outcomes: [], duration: .zero)
            (summary.shard, summary.plan) = (narrowing.shard, plan)
            return reports.write(summary) ? emptyStatus : .badCommandLine
        }
        let (jobs, jobsWarning) = OpenFileLimit.jobs(jobs, limit: openFiles, origins: OpenFileLimit.origins(in: loaded))
        if let jobsWarning { Console.error(jobsWarning) }
        var options = RunOptions(jobs: jobs, selection: collection.filter, bail: bail, recordExchanges: verbose)
        options.failOnFlaky = failOnFlaky
        options.caCert = caCert.map(Self.absolutePath)
        let proxyHelp = "write http://host:port, with user:password@ before the host when it needs them"
        if proxy == "none" {
            options.proxy = .direct
        } else if let proxy {
            switch HTTPProxy.parse(proxy) {
            case .success(let parsed): options.proxy = ProxySettings(proxy: parsed)
            case .failure(let problem): return stopWithError(.badCommandLine, "--proxy: not a proxy URL: \(problem); \(proxyHelp)")
            }
        }
        // A malformed proxy variable is an error, as curl makes it: going directly instead could reach the server
        // by a way the network does not allow, or fail far from the cause. So is one that is not text (nor read).
        // Unless `--proxy` is given: then the variables name no proxy that is used (`--proxy none` goes directly, as curl's
        // `--noproxy '*'` does); `NO_PROXY` still applies to a `--proxy` URL.
        let readProxyVariables = options.proxy == nil ? ProxySettings.variableNames
            : options.proxy == .direct ? [] : ProxySettings.bypassVariableNames
        let readVariables = readProxyVariables + ["SSL_CERT_FILE"]
        if let name = readVariables.first(where: process.notUTF8.contains) {
            return stopWithError(.badCommandLine, "the environment variable \(name) " + ProcessEnvironment.notUTF8Problem
                                     + "; set it to UTF-8 text, or unset it")
        }
        if options.proxy == nil, let (name, problem) = ProxySettings.malformedVariables(in: environment).first {
            return stopWithError(.badCommandLine, "the environment variable \(name) is not a proxy URL: \(problem); "
                                     + "\(proxyHelp), or unset it")
        }
        options.environmentProxies = ProxySettings(environment: environment)
        options.certificateFile = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : Self.absolutePath($0) }
        let proxyCredentials = (options.proxy?.credentialTexts ?? [])
            + options.environmentProxies.credentialTexts
        let redactor = Redactor(secrets: Array(loaded.scope.hiddenValues) + proxyCredentials)
        reports.use(sources: loaded.sources, redactor: redactor)
        annotationOutput.use(redactor: redactor)
        let console = ConsoleReport(sources: loaded.sources, redactor: redactor,
                                    color: Console.colors(STDOUT_FILENO, color, environment: environment), verbose: verbose)

        var summary: RunSummary
        do {
            // As many connections to one host as requests may run at once: waiting for one would count against `timeout`.
            // Once the last request ended, no connection attempt still under way (for a request that timed out) holds up
            // the summary and the reports: the process ends next.
            summary = try await HTTPClientTransport.withTransport(connectionsPerHost: max(32, jobs), attemptGrace: .zero) { transport in
                let run = CollectionRun(collection: loaded, planner: planner, options: options, transport: transport)
                let progress = ProgressLine(total: run.requestCount, enabled: Console.showsProgress(self.progress, environment: environment))
                let keepingOutcomes = !reportPaths.isEmpty
                let result = await interruption.cancelling(answeringStepsUnderWay: loaded.files.contains(where: \.cleansUp)) {
                    await run.run(keepingOutcomes: keepingOutcomes) { outcome in
                        reports.record(outcome)
                        // `--quiet` leaves out PASS and SKIP lines; the progress line is redrawn either way.
                        if !quiet || [.failed, .errored].contains(outcome.verdict) {
                            progress.clear()
                            Console.out(console.render(outcome))
                            annotationOutput.print(outcome)
                        }
                        progress.advance(console)
                    }
                }
                progress.clear()
                return result
            }
        } catch {
            return stopWithError(.requestFailed, "\(error)")
        }
        summary.stopStatus = interruption.status?.rawValue
        (summary.shard, summary.plan) = (narrowing.shard, plan)
        Console.out(console.summary(summary))
        if let line = ConsoleReport.seedLine(summary) { Console.out(line) }
        let status = ExitStatus(rawValue: summary.exitStatus) ?? .requestFailed
        interruption.runEnded(status: status)
        guard reports.write(summary) else { return .badCommandLine }
        return status
    }

    /// The reports asked for, each with its path, in the order they are written.
    private var reportPaths: [ReportFiles.Request] {
        let paths = [(ReportFormat.junit, junitReport), (.json, jsonReport), (.markdown, markdownReport), (.tap, tapReport),
                     (.html, htmlReport)]
        return paths.compactMap { format, path in path.map { ReportFiles.Request(format: format, path: $0) } }
    }

    /// `path` as an absolute path, relative to the current directory unless it starts with `/`.
    private static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

}

/// The GitHub workflow commands of `--annotations`, printed on standard output after each failed or errored request's
/// lines (and for each problem of a run stopped before sending), through the run's redactor once it is known.
final class AnnotationOutput: Sendable {
    private let printing: Bool
    private let annotations = Mutex(GitHubAnnotations(redactor: Redactor(secrets: [])))

    init(printing: Bool) {
        self.printing = printing
    }

    /// The redactor of every annotation from now on.
    func use(redactor: Redactor) {
        annotations.withLock { $0.redactor = redactor }
    }

    /// Prints the annotations of `outcome` (none for a pass or a skip), when annotations are on.
    func print(_ outcome: RequestOutcome) {
        guard printing else { return }
        for command in annotations.withLock({ $0 }).commands(for: outcome) { Console.out(command) }
    }
}
