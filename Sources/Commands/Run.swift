import CollectionFormat
import Foundation
import HTTPCore
import Loaders
import Reporting
import Running
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
    /// Where to write the JUnit XML and JSON reports.
    public var junitReport: String?
    public var jsonReport: String?
    /// `--cacert`: a PEM bundle every request trusts, in place of the files' `caCert`.
    public var caCert: String?
    /// `--proxy`: the proxy of every request, in place of the files' `proxy`.
    public var proxy: String?

    public init(collection: CollectionSelection) {
        self.collection = collection
    }

    /// Runs the collection, printing a line per request and a summary; the exit status says how it went.
    public func execute() async -> ExitStatus {
        let interruption = Interruption()
        var planner = RunPlanner(selection: collection.filter)
        let loaded = await collection.load(forSending: true) { planner.add($0) }
        // Every way out writes the reports, so the CI step that publishes them finds them: a case per problem.
        let stop = { (status: ExitStatus, problems: [Diagnostic]) -> ExitStatus in
            _ = writeReports(.notSent(problems, status: status.rawValue), loaded: loaded,
                             redactor: Redactor(secrets: loaded.scope.secretValues))
            return status
        }
        let stopWithError = { (status: ExitStatus, message: String) -> ExitStatus in
            Console.error("error: \(message)")
            return stop(status, [.error(message, path: nil, at: nil)])
        }
        if let status = DiagnosticsOutput.report(loaded) { return stop(status, loaded.diagnostics) }
        guard planner.requestCount > 0 else { return stopWithError(.badCommandLine, collection.noneSelected(in: loaded)) }
        var options = RunOptions(jobs: jobs, selection: collection.filter, bail: bail, recordExchanges: verbose)
        options.failOnFlaky = failOnFlaky
        let environment = ProcessInfo.processInfo.environment
        for (name, file) in [("--cacert", caCert), ("SSL_CERT_FILE", environment["SSL_CERT_FILE"])] {
            guard let file, !file.isEmpty else { continue }
            if let problem = CertificateFile.problem(at: Self.absolutePath(file)) {
                return stopWithError(.invalidCollection, "\(name): the file '\(file)' \(problem)")
            }
        }
        options.caCert = caCert.map(Self.absolutePath)
        let proxyHelp = "write http://host:port, with user:password@ before the host when it needs them"
        if let proxy {
            switch HTTPProxy.parse(proxy) {
            case .success(let parsed): options.proxy = parsed
            case .failure(let problem): return stopWithError(.badCommandLine, "--proxy: not a proxy URL (\(problem)); \(proxyHelp)")
            }
        }
        // A malformed proxy variable is an error, as curl makes it: going directly instead could reach the server
        // by a way the network does not allow, or fail far from the cause.
        if let (name, problem) = ProxySettings.malformedVariables(in: environment).first {
            return stopWithError(.badCommandLine, "the environment variable \(name) is not a proxy URL (\(problem)); "
                                     + "\(proxyHelp), or unset it")
        }
        options.environmentProxies = ProxySettings(environment: environment)
        options.certificateFile = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : Self.absolutePath($0) }
        let proxyCredentials = (options.proxy.map { ProxySettings(proxy: $0) }?.credentialTexts ?? [])
            + options.environmentProxies.credentialTexts
        let redactor = Redactor(secrets: Array(loaded.scope.secretValues) + proxyCredentials)
        let console = ConsoleReport(sources: loaded.sources, redactor: redactor, color: Console.colorOnStandardOutput, verbose: verbose)

        var summary: RunSummary
        do {
            summary = try await HTTPClientTransport.withTransport { transport in
                let run = CollectionRun(collection: loaded, planner: planner, options: options, transport: transport)
                let progress = ProgressLine(total: run.requestCount, enabled: Console.progressOnStandardError)
                let keepingOutcomes = junitReport != nil || jsonReport != nil
                let result = await interruption.cancelling {
                    await run.run(keepingOutcomes: keepingOutcomes) { outcome in
                        progress.clear()
                        Console.out(console.render(outcome))
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
        Console.out(console.summary(summary))
        guard writeReports(summary, loaded: loaded, redactor: redactor) else { return .badCommandLine }
        return ExitStatus(rawValue: summary.exitStatus) ?? .requestFailed
    }

    /// `path` as an absolute path, relative to the current directory unless it starts with `/`.
    private static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Writes `--report-junit` and `--report-json`; false (after saying why) when one cannot be written.
    private func writeReports(_ summary: RunSummary, loaded: LoadedCollection, redactor: Redactor) -> Bool {
        let reports = [
            (junitReport, { JUnitReport.render(summary, sources: loaded.sources, redactor: redactor) }),
            (jsonReport, { JSONReport.render(summary, sources: loaded.sources, redactor: redactor) }),
        ]
        for case let (path?, render) in reports {
            do {
                try Data(render().utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                Console.error("error: cannot write the report '\(path)': \(error.localizedDescription)")
                return false
            }
        }
        return true
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

/// Turns SIGINT and SIGTERM into the cancellation of the run, so that what ran is reported and the reports are
/// written; a second signal ends the process at once. (Unchecked: `sources` is set in `init` and only cancelled in
/// `deinit`; the rest is behind a mutex.)
final class Interruption: @unchecked Sendable {
    private struct State {
        var signal: Int32?
        var task: Task<RunSummary, Never>?
    }

    private let state = Mutex(State())
    private let sources: [any DispatchSourceSignal]

    /// Watches SIGINT and SIGTERM from now on.
    init() {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: .global()))
        }
        self.sources = sources
        for (source, number) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [unowned self] in received(number) }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// The exit status for the signal received, if one was.
    var status: ExitStatus? {
        state.withLock { $0.signal }.map { $0 == SIGTERM ? .terminated : .interrupted }
    }

    /// Runs `body` in a task that a signal cancels.
    func cancelling(_ body: @escaping @Sendable () async -> RunSummary) async -> RunSummary {
        let task = Task { await body() }
        let cancelled = state.withLock { state in
            state.task = task
            return state.signal != nil
        }
        if cancelled { task.cancel() }
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    /// The first signal cancels the run; a second one ends the process with its status.
    private func received(_ number: Int32) {
        let (first, task) = state.withLock { state in
            defer { if state.signal == nil { state.signal = number } }
            return (state.signal == nil, state.task)
        }
        guard first else { _exit(number == SIGTERM ? 143 : 130) }
        Console.error("\n\(number == SIGTERM ? "terminated" : "interrupted"): cancelling the run; the requests not run are reported as skipped")
        task?.cancel()
    }
}
