import CollectionFormat
import CollectionReading
import Foundation
import HTTPCore
import Loaders
import Reporting
import Running
import RunnerVersion
import Synchronization
import Dispatch

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
        if let problem = OpenFileLimit.problem(limit: openFiles) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let (jobs, jobsWarning) = OpenFileLimit.jobs(jobs, limit: openFiles)
        if let jobsWarning { Console.error(jobsWarning) }
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
        let loaded = await interruption.reading { await collection.load(forSending: true) }
        // Checked before any way out writes the reports: a report would overwrite what it names.
        let certificatesRead = [caCert, environment["SSL_CERT_FILE"]].compactMap { $0 }.filter { !$0.isEmpty }.map(Self.absolutePath)
        if !reportPaths.isEmpty, let problem = ReportFiles.problem(reportPaths, reading: loaded.filesRead + certificatesRead) {
            Console.error("error: \(problem)")
            return .badCommandLine
        }
        let secretsRedactor = Redactor(secrets: loaded.scope.hiddenValues)
        reports.use(sources: loaded.sources, redactor: secretsRedactor)
        annotationOutput.use(redactor: secretsRedactor)
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
        var options = RunOptions(jobs: jobs, selection: collection.filter, bail: bail, recordExchanges: verbose)
        options.failOnFlaky = failOnFlaky
        for (name, file) in [("--cacert", caCert), ("SSL_CERT_FILE", environment["SSL_CERT_FILE"])] {
            guard let file, !file.isEmpty else { continue }
            if let problem = CertificateFile.problem(at: Self.absolutePath(file)) {
                return stopWithError(.invalidCollection, "\(name): the file '\(file)' \(problem)")
            }
        }
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

/// A report `run` can write, named after its flag.
enum ReportFormat: Sendable {
    case junit, json, markdown, tap, html

    /// The flag that asks for the report.
    var flag: String {
        switch self {
        case .junit: "--report-junit"
        case .json: "--report-json"
        case .markdown: "--report-markdown"
        case .tap: "--report-tap"
        case .html: "--report-html"
        }
    }

    /// Whether the report shows each failure's exchange, its bodies: all but Markdown's.
    var showsExchanges: Bool { self != .markdown }

    /// The report of `summary`, redacted by `redactor`.
    func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        switch self {
        case .junit: JUnitReport.render(summary, sources: sources, redactor: redactor)
        case .json: JSONReport.render(summary, sources: sources, redactor: redactor)
        case .markdown: MarkdownReport.render(summary, sources: sources, redactor: redactor)
        case .tap: TAPReport.render(summary, sources: sources, redactor: redactor)
        case .html: HTMLReport.render(summary, sources: sources, redactor: redactor, version: RunnerVersion.current)
        }
    }
}

/// `--report-junit`, `--report-json`, `--report-markdown`, `--report-tap` and `--report-html`, written once on every way out: by the
/// run, or, when a second signal ends the process at once, from the outcomes reported so far.
final class ReportFiles: Sendable {
    /// A report asked for on the command line and the file it goes to.
    struct Request: Sendable {
        var format: ReportFormat
        var path: String
    }

    private struct State {
        var sources = SourceCache()
        var redactor = Redactor(secrets: [])
        /// The outcomes printed so far, in run order (kept only when a report is asked for).
        var outcomes: [RequestOutcome] = []
        /// The part this run is and its plan, once known.
        var shard: Shard?
        var plan: PlanRecord?
    }

    private let requests: [Request]
    private let started = ContinuousClock.now
    private let state = Mutex(State())
    /// The status the reports give once their writing has begun, and the paths of those written, complete, so far: read
    /// by a second signal also while the lock is held.
    private let progress = Mutex<(status: Int32?, done: Set<String>)>((nil, []))

    init(_ requests: [Request]) {
        self.requests = requests
    }

    /// The sources that diagnostics point into and the redactor of every output, once they are known.
    func use(sources: SourceCache, redactor: Redactor) {
        state.withLock { state in
            state.sources = sources
            state.redactor = redactor
        }
    }

    /// The part this run is and what it planned, once known, for a report written before the run ends.
    func use(shard: Shard?, plan: PlanRecord?) {
        state.withLock { ($0.shard, $0.plan) = (shard, plan) }
    }

    /// Keeps an outcome for a report written before the run ends.
    func record(_ outcome: RequestOutcome) {
        guard !requests.isEmpty else { return }
        state.withLock { $0.outcomes.append(outcome) }
    }

    /// Writes the reports of `summary`; false (after saying why) when one cannot be written. They are rendered before the
    /// lock is taken: a second signal meanwhile writes its own (see `writeAndExit`) without waiting for them.
    func write(_ summary: RunSummary) -> Bool {
        let (sources, redactor) = state.withLock { ($0.sources, $0.redactor) }
        let texts = Self.render(summary, as: requests, sources: sources, redactor: redactor)
        return state.withLock { state in
            progress.withLock { $0.status = Int32(summary.exitStatus) }
            return write(texts)
        }
    }

    /// Ends the process at once with the status of `signal`, after writing the reports from what ran so far and
    /// `message`; once the run has written its reports, with the status they give instead (the reports and the exit
    /// status agree). Holding the lock until the end keeps the run from writing them at the same time; while the run
    /// writes them (the lock held, a FIFO's reader perhaps slow), it ends as `exitUnwritten` says.
    func writeAndExit(stoppedBy signal: Int32, message: String) -> Never {
        let status = Interruption.status(for: signal)
        _ = state.withLockIfAvailable { state -> Never in
            if let written = progress.withLock({ $0.status }) { _exit(written) }
            Console.error("error: \(message)")
            var summary = RunSummary(outcomes: state.outcomes + RunSummary.notSent([.error(message, path: nil, at: nil)],
                                                                                      status: status.rawValue).outcomes,
                                     duration: ContinuousClock.now - started)
            (summary.stopStatus, summary.shard, summary.plan) = (status.rawValue, state.shard, state.plan)
            _ = write(Self.render(summary, as: requests, sources: state.sources, redactor: state.redactor))
            _exit(status.rawValue)
        }
        exitWhileWriting(stoppedBy: Interruption.name(of: signal), status: status)
    }

    /// Ends the process at once with the run's `status`, once the run has ended and its reports are being rendered or
    /// written, after naming those not written.
    func exitUnwritten(stoppedBy signal: String, status: ExitStatus) -> Never {
        switch state.withLockIfAvailable({ _ in progress.withLock { $0.status == nil } }) {
        case false?: _exit(status.rawValue)
        case true?:
            Self.nameUnwritten(requests, by: signal, while: "rendered")
            _exit(status.rawValue)
        case nil: exitWhileWriting(stoppedBy: signal, status: status)
        }
    }

    /// Ends the process at once while the reports are written, with the status they give (else `status`), after naming
    /// those not written yet: the one being written is left as it was before the run (its temporary file removed).
    private func exitWhileWriting(stoppedBy signal: String, status: ExitStatus) -> Never {
        let flight = ReportFileWriting.inFlight.withLockIfAvailable { $0 }
        if let temporary = flight?.temporary { unlink(temporary) }
        let (done, written) = progress.withLock { ($0.done, $0.status) }
        // One written in place (a FIFO, a device) is cut short, not left as it was.
        let cut = requests.filter { $0.path == flight?.inPlace }
        Self.nameUnwritten(requests.filter { !done.contains($0.path) && $0.path != flight?.inPlace }, by: signal, while: "written",
                           cutShort: cut)
        _exit(written ?? status.rawValue)
    }

    /// Says that a second signal left `requests` unwritten (and `cutShort` cut short), while the reports were rendered
    /// or written.
    private static func nameUnwritten(_ requests: [Request], by signal: String, while doing: String, cutShort: [Request] = []) {
        let named = [("not written", requests), ("cut short", cutShort)].filter { !$0.1.isEmpty }
            .map { "\($0.0): " + $0.1.map { "'\($0.path)'" }.joined(separator: ", ") }
        guard !named.isEmpty else { return }
        Console.error("error: stopped at once by a second signal (\(signal)) while the reports were \(doing); " + named.joined(separator: "; "))
    }

    /// Renders the reports side by side (each is independent; they share the thread-safe redactor, and each text it
    /// redacted for one of them).
    private static func render(_ summary: RunSummary, as requests: [Request], sources: SourceCache, redactor: Redactor) -> [String] {
        let redactor = redactor.sharingResults()
        // What every outcome revealed is learnt first; then the longest texts the reports show, each exchange's bodies.
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        if requests.contains(where: \.format.showsExchanges) {
            redactor.redactAhead(summary.outcomes.compactMap(\.exchange).flatMap { [$0.requestBody, $0.responseBody].compactMap { $0 } })
        }
        let texts = Mutex([String](repeating: "", count: requests.count))
        // The HTML page takes longest: begun first, it leaves the other threads the other reports (begun last, it
        // would run alone after them).
        let order = requests.indices.filter { requests[$0].format == .html } + requests.indices.filter { requests[$0].format != .html }
        DispatchQueue.concurrentPerform(iterations: order.count) { position in
            let index = order[position]
            let text = requests[index].format.render(summary, sources: sources, redactor: redactor)
            texts.withLock { $0[index] = text }
        }
        return texts.withLock { $0 }
    }

    /// Writes the rendered reports in order, each whatever happened to the ones before it; false, having said why for
    /// each, when one cannot be written.
    private func write(_ texts: [String]) -> Bool {
        var written = true
        for (request, text) in zip(requests, texts) {
            if let reason = ReportFileWriting.write(text, to: request.path) {
                Console.error("error: cannot write the report '\(request.path)': \(reason)")
                written = false
            } else {
                progress.withLock { _ = $0.done.insert(request.path) }
            }
        }
        return written
    }

    /// A system error number in words: "no space left on device".
    private static func reason(_ code: Int32) -> String { InputFile.reason(errno: code) }

    /// What makes a report unusable, in words naming the flag and path: a directory, a path whose directory is missing
    /// or not writable, a file that cannot be written, or two flags naming one file.
    static func problem(_ requests: [Request]) -> String? {
        var files: [(request: Request, file: String)] = []
        // Where the console's output goes (`/dev/stdout` with `> run.log` or `| jq`, the log itself): the report would
        // truncate or mix with it, as `-` would. `/dev/null` takes anything.
        var consoleFiles = [STDOUT_FILENO, STDERR_FILENO].compactMap(FileIdentity.init(writtenBy:))
            .filter { $0 != FileIdentity(ofFileAt: "/dev/null") }
        // `/dev/tty` is the terminal the console writes to when its output goes to one.
        if isatty(STDOUT_FILENO) == 1 || isatty(STDERR_FILENO) == 1, let terminal = FileIdentity(ofFileAt: "/dev/tty") {
            consoleFiles.append(terminal)
        }
        for request in requests {
            if let file = FileIdentity(ofFileAt: request.path), consoleFiles.contains(file) {
                return "\(request.format.flag): cannot write '\(request.path)': it is where the console's output goes; "
                    + "the report would overwrite or mix with that output; give the report a file of its own"
            }
            switch check(request.path) {
            case .failure(let problem): return "\(request.format.flag): cannot write '\(request.path)': \(problem.text)"
            case .success(let file):
                if let earlier = files.first(where: { $0.file == file })?.request {
                    return "\(earlier.format.flag) and \(request.format.flag) name the same file ('\(earlier.path)'"
                        + (earlier.path == request.path ? "" : " and '\(request.path)'") + "); give each report its own file"
                }
                files.append((request, file))
            }
        }
        return nil
    }

    /// A report path that names a file the run reads (`LoadedCollection.filesRead`) or `merge-reports` merges (as
    /// `reader` says), in words; nil when none does.
    static func problem(_ requests: [Request], reading paths: [String], reader: String = "the run reads") -> String? {
        // Only report files that exist can be files read (a new one overwrites nothing): without one, nothing is looked at.
        let reports = requests.compactMap { request in FileIdentity(ofFileAt: request.path).map { (request, $0) } }
        guard !reports.isEmpty else { return nil }
        let identities = Set(reports.map(\.1))
        guard let read = paths.lazy.compactMap(FileIdentity.init(ofFileAt:)).first(where: identities.contains),
              let request = reports.first(where: { $0.1 == read })?.0 else { return nil }
        return "\(request.format.flag): '\(request.path)' is a file \(reader); writing the report would overwrite it; "
            + "give the report a path of its own"
    }

    /// What names an existing file whatever the path to it: its device and inode.
    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        /// The identity of the file at `path`; nil when there is none.
        init?(ofFileAt path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
        }

        /// The identity of what `descriptor` writes to (a file, a pipe, a terminal); nil for a closed descriptor.
        init?(writtenBy descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
        }
    }

    /// Why a report path cannot be written.
    private struct PathProblem: Error {
        var text: String
    }

    /// The file a report path names (its device and inode when it exists, so that symbolic and hard links to one file
    /// are one file; else its absolute path with symbolic links resolved, a dangling link's target included), or why it
    /// cannot be written.
    private static func check(_ path: String, links: Int = 0) -> Result<String, PathProblem> {
        guard !path.isEmpty else { return .failure(PathProblem(text: "the path is empty")) }
        // As many tools read it, `-` would be standard output, where the console writes: not a file named `-`.
        guard path != "-" else { return .failure(PathProblem(text: "'-' is not standard output here (the console writes there); give the path of a file")) }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            return .failure(PathProblem(text: "it is a directory; give the path of a file"))
        }
        if path.hasSuffix("/") { return .failure(PathProblem(text: "it ends with '/'; give the path of a file")) }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard stat(directory, &status) == 0 else {
            return .failure(PathProblem(text: errno == ENOENT ? "its directory '\(directory)' does not exist"
                                                               : "its directory '\(directory)': \(reason(errno))"))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return .failure(PathProblem(text: "'\(directory)' is not a directory")) }
        if let file = FileIdentity(ofFileAt: path) {
            guard access(path, W_OK) == 0 else { return .failure(PathProblem(text: "the file is not writable")) }
            // A device that cannot be opened (`/dev/tty` without a terminal) fails now, not after the run; so does a file
            // whose directory takes no new one (the report goes through one beside it). (A FIFO is not opened: its
            // reader would take that for the end of what it reads.)
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR {
                let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
                guard descriptor >= 0 else { return .failure(PathProblem(text: reason(errno))) }
                close(descriptor)
            } else if status.st_mode & S_IFMT == S_IFREG, let problem = ReportFileWriting.problemCreatingFiles(in: directory) {
                return .failure(PathProblem(text: "its directory '\(directory)' takes no new file: \(problem)"))
            }
            return .success("device \(file.device) inode \(file.inode)")
        }
        // A symbolic link to a file still to be written is that file.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        if count > 0 {
            guard links < 8 else { return .failure(PathProblem(text: "too many levels of symbolic links")) }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let resolved = target.hasPrefix("/") ? target : directory + "/" + target
            return check(resolved, links: links + 1).mapError { PathProblem(text: "it links to '\(target)': \($0.text)") }
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            return .failure(PathProblem(text: "its directory '\(directory)' is not writable"))
        }
        // Writable as permissions go, yet on a read-only file system or in `/proc`.
        if let problem = ReportFileWriting.problemCreatingFiles(in: directory) {
            return .failure(PathProblem(text: "its directory '\(directory)' takes no new file: \(problem)"))
        }
        guard let resolved = realpath(directory, nil) else { return .failure(PathProblem(text: reason(errno))) }
        defer { free(resolved) }
        return .success(String(cString: resolved) + "/" + name)
    }
}

/// The `[done/total] running…` line on a terminal, redrawn after each request of a long run.
final class ProgressLine: Sendable {
    private let total: Int
    private let enabled: Bool
    private let done = Mutex(0)

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    /// Counts a finished request and redraws the line.
    func advance(_ console: ConsoleReport) {
        guard enabled else { return }
        let count = done.withLock { value in
            value += 1
            return value
        }
        if count < total { Console.progress(console.progress(done: count, total: total)) }
    }

    /// Removes the line so regular output starts at the beginning of a clean line.
    func clear() {
        if enabled { Console.progress("") }
    }
}

/// Turns SIGINT, SIGTERM and SIGHUP into the cancellation of the run, so that what ran is reported and the reports are
/// written. The same signal again within `repeatWindow` is the same request to stop (GNU `timeout` signals the child
/// and then its process group, microseconds apart) and is ignored; a different signal, or the same one later, ends the
/// process at once through `stopAtOnce`. A signal while the input is read, when the reading has not ended
/// `readingGraceSeconds` later (a read that blocks: a FIFO, a pipe left open), ends the process too, as nothing was sent.
final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        /// When the first signal came (`HeldSignals.now()`'s nanoseconds).
        var receivedAt: Int64?
        var task: Task<RunSummary, Never>?
        var reading = false
        /// Whether a step under way in a flow that cleans up gets its answer when the run is cancelled.
        var answersStepsUnderWay = false
        /// Once the run is over (its reports are written next): its exit status.
        var ended: ExitStatus?
    }

    /// How soon the same signal again counts as the same request to stop.
    static let repeatWindow: Int64 = 500_000_000
    /// How many seconds a reading of the input that a signal came during may still take before the process ends.
    static let readingGraceSeconds = 1

    private let state = Mutex(State())
    /// Ends the process for a signal: a second one, or one whose reading did not end in time.
    private let stopAtOnce: @Sendable (_ signal: Int32, _ why: StopReason) -> Never

    /// Why the process ends at once.
    enum StopReason: Sendable {
        /// A second signal; `whileReading` when the input was still being read (nothing was sent).
        case secondSignal(whileReading: Bool)
        /// A first signal came while the input was read, and the reading did not end in time.
        case readingDidNotEnd
        /// A second signal after the run ended with this status, while its reports were written.
        case runEnded(ExitStatus)
    }

    /// Watches SIGINT, SIGTERM and SIGHUP from now on (a signal held since `main` began is the first); `stopAtOnce` ends the
    /// process for a second signal, or for a first one when the reading it came during does not end within
    /// `readingGraceSeconds`.
    init(stopAtOnce: @escaping @Sendable (_ signal: Int32, _ why: StopReason) -> Never = { signal, _ in
        _exit(Interruption.status(for: signal).rawValue)
    }) {
        self.stopAtOnce = stopAtOnce
        // Weak: a signal that comes when the run has ended (the second of a pair) finds no run to stop.
        _ = HeldSignals.watch { [weak self] signal in self?.received(signal) }
    }

    deinit {
        // The run is over: a signal that comes now (the second of a pair, a few milliseconds behind the first) is held,
        // not the end of the process before it exits with the run's status.
        HeldSignals.hold()
    }

    /// The exit status for a signal, 128 and its number: 143 for SIGTERM, 129 for SIGHUP, 130 for SIGINT.
    static func status(for signal: Int32) -> ExitStatus {
        ExitStatus(rawValue: CancellingSignal(number: signal).exitStatus) ?? .interrupted
    }

    /// `SIGTERM`, `SIGHUP` or `SIGINT`.
    static func name(of signal: Int32) -> String { CancellingSignal(number: signal).name }

    /// The exit status for the signal received, if one was.
    var status: ExitStatus? {
        state.withLock { $0.signal }.map(Self.status(for:))
    }

    /// Marks the run over, with `status`: its reports are written next. A signal from now on changes neither them nor
    /// the exit status: the first says so, a second ends the process at once with `status`.
    func runEnded(status: ExitStatus) {
        state.withLock { $0.ended = status }
    }

    /// Reads the run's input (the collection, `--env-file`, `--rerun-failed`) with `body`: a signal that comes meanwhile
    /// cancels the run once it is read, or ends the process if the reading has not ended `readingGraceSeconds` after it.
    func reading<T: Sendable>(_ body: () async -> T) async -> T {
        state.withLock { $0.reading = true }
        defer { state.withLock { $0.reading = false } }
        return await body()
    }

    /// Whether a signal has asked the run to stop.
    private var stopRequested: Bool {
        state.withLock { $0.signal != nil } || HeldSignals.anyReceived
    }

    /// Runs `body` in a task that a signal cancels; `answeringStepsUnderWay` when the run has flows that clean up, whose
    /// steps under way get their answers first, as the notice says.
    func cancelling(answeringStepsUnderWay: Bool = false, _ body: @escaping @Sendable () async -> RunSummary) async -> RunSummary {
        // A signal that came already, even one the watcher has not handled yet, cancels the task before its body begins
        // (cancelled from here, the body could send its first request before `cancel` is reached on a busy machine).
        let task = Task {
            if self.stopRequested { withUnsafeCurrentTask { $0?.cancel() } }
            return await body()
        }
        let cancelled = state.withLock { state in
            (state.task, state.answersStepsUnderWay) = (task, answeringStepsUnderWay)
            return state.signal != nil
        }
        if cancelled { task.cancel() }
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    /// What a signal asks for.
    private enum Request {
        /// The first signal: cancel the run (the task, when it has started); `reading` while the input is read;
        /// `answering` when steps under way in flows that clean up get their answers.
        case cancel(Task<RunSummary, Never>?, reading: Bool, answering: Bool)
        /// The first signal, once the run is over.
        case ended
        /// A second signal once the run is over, with its status.
        case exit(ExitStatus)
        /// The same signal again soon after: the same request.
        case same
        /// Another signal, or the same one later: stop at once (`reading` while the input is read).
        case stopAtOnce(reading: Bool)
    }

    /// The first signal cancels the run; the same one within `repeatWindow` of it (by when each came, not when its handler
    /// ran: a notice blocked on standard error may hold the handler) is ignored; any other ends the process. (Signals
    /// that arrive before their handler runs are delivered to it once.)
    private func received(_ signal: HeldSignals.Received) {
        let number = signal.number
        let request = state.withLock { state -> Request in
            guard let first = state.signal, let receivedAt = state.receivedAt else {
                state.signal = number
                state.receivedAt = signal.nanoseconds
                return state.ended == nil ? .cancel(state.task, reading: state.reading, answering: state.answersStepsUnderWay) : .ended
            }
            if first == number && signal.nanoseconds - receivedAt < Self.repeatWindow { return .same }
            return state.ended.map(Request.exit) ?? .stopAtOnce(reading: state.reading)
        }
        switch request {
        case .cancel(let task, let reading, let answering):
            // Cancelled, and the reading's grace begun, before the notice, which standard error may hold up (a pipe nobody
            // reads).
            task?.cancel()
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.readingGraceSeconds)) { [weak self] in
                guard let self, self.state.withLock({ $0.reading }) else { return }
                self.stopAtOnce(number, .readingDidNotEnd)
            }
            Console.signalNotice("\(CancellingSignal(number: number).verb): "
                + (reading ? "stopping while the input is read; nothing is sent" : "cancelling the run; the requests not run are reported as skipped")
                + (answering && !reading ? " (a step under way in a flow with finally: steps is given up to "
                    + "\(HTTPClientTransport.answerGrace.components.seconds) s to answer, for its cleanup; a second signal stops at once)" : ""))
        case .ended:
            Console.signalNotice("\(CancellingSignal(number: number).verb): the run has ended; its reports are being written "
                + "(a second signal ends the process at once, with the run's status, before the rest are)")
        case .same: break
        case .exit(let status): stopAtOnce(number, .runEnded(status))
        case .stopAtOnce(let reading): stopAtOnce(number, .secondSignal(whileReading: reading))
        }
    }
}
