import CollectionFormat
import Foundation
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
    /// Show each exchange.
    public var verbose = false
    /// Where to write the JUnit XML and JSON reports.
    public var junitReport: String?
    public var jsonReport: String?

    public init(collection: CollectionSelection) {
        self.collection = collection
    }

    /// Runs the collection, printing a line per request and a summary; the exit status says how it went.
    public func execute() async -> ExitStatus {
        // Interrupted runs end with the shell's status for the signal, never by the signal itself.
        signal(SIGINT) { _ in _exit(130) }
        signal(SIGTERM) { _ in _exit(143) }
        let loaded = await collection.load(forSending: true)
        if let status = DiagnosticsOutput.report(loaded) { return status }
        guard collection.selectedRequests(in: loaded) != nil else { return .badCommandLine }
        let options = RunOptions(jobs: jobs, selection: collection.filter, bail: bail, recordExchanges: verbose)
        let redactor = Redactor(secrets: loaded.scope.secretValues)
        let console = ConsoleReport(sources: loaded.sources, redactor: redactor, color: Console.colorOnStandardOutput, verbose: verbose)

        let summary: RunSummary
        do {
            summary = try await HTTPClientTransport.withTransport { transport in
                let run = CollectionRun(collection: loaded, options: options, transport: transport)
                let progress = ProgressLine(total: run.requestCount, enabled: Console.progressOnStandardError)
                let result = await run.run(keepingOutcomes: junitReport != nil || jsonReport != nil) { outcome in
                    progress.clear()
                    Console.out(console.render(outcome))
                    progress.advance(console)
                }
                progress.clear()
                return result
            }
        } catch {
            Console.error("error: \(error)")
            return .requestFailed
        }
        Console.out(console.summary(summary))
        guard writeReports(summary, loaded: loaded, redactor: redactor) else { return .badCommandLine }
        return ExitStatus(rawValue: summary.exitStatus) ?? .requestFailed
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
