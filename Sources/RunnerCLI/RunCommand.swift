import ArgumentParser
import CollectionFormat
import Foundation
import Loaders
import Reporting
import Running
import Synchronization

/// `runner run`: sends every request of a collection, checks its expectations and reports.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Send the requests of a collection, check their expectations, and report.",
        discussion: """
            Exit status: 0 every request passed, 1 bad command line, 2 invalid collection or environment \
            (nothing is sent), 3 a request could not complete, 4 an expectation failed (3 wins over 4).
            """
    )

    @OptionGroup var collection: CollectionArguments

    @Option(help: "How many files run at the same time (flows stay in order).")
    var jobs: Int = 1

    @Option(name: .customLong("tag"), help: "Run only requests with this tag (file or request tags); repeatable.")
    var tags: [String] = []

    @Option(name: .customLong("exclude-tag"), help: "Leave out requests with this tag; repeatable.")
    var excludedTags: [String] = []

    @Flag(help: "Stop at the first failed request; the rest are reported as skipped.")
    var bail = false

    @Flag(help: "Show each exchange (headers and bodies, credentials hidden).")
    var verbose = false

    @Option(name: .customLong("report-junit"), help: "Write a JUnit XML report to FILE.")
    var junitReport: String?

    @Option(name: .customLong("report-json"), help: "Write a JSON report to FILE.")
    var jsonReport: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        // A report that cannot be written is found out before anything is sent.
        for (flag, path) in [("--report-junit", junitReport), ("--report-json", jsonReport)] {
            guard let path else { continue }
            let parent = (path as NSString).deletingLastPathComponent
            let directory = parent.isEmpty ? "." : parent
            guard FileManager.default.isWritableFile(atPath: directory) else {
                throw ValidationError("\(flag): cannot write '\(path)': the directory '\(directory)' does not exist or is not writable")
            }
        }
    }

    func run() async throws {
        // Interrupted runs end with the shell's status for the signal, never by the signal itself.
        signal(SIGINT) { _ in _exit(130) }
        signal(SIGTERM) { _ in _exit(143) }
        let options = RunOptions(jobs: jobs, tags: tags, excludedTags: excludedTags, bail: bail, recordExchanges: verbose)
        var planner = RunPlanner(options: options)
        let loaded = collection.check(spillingTo: SpillFile.temporary()) { location, file, spilled in
            planner.add(file, at: location, spilled: spilled)
        }
        try DiagnosticsOutput.reportProblems(of: loaded)
        let redactor = Redactor(secrets: loaded.scope.secretValues)
        let console = ConsoleReport(sources: loaded.sources, redactor: redactor, color: Console.colorOnStandardOutput, verbose: verbose)

        let summary: RunSummary
        do {
            summary = try await HTTPClientTransport.withTransport { transport in
                let run = CollectionRun(collection: loaded, plan: planner, transport: transport)
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
            throw ExitStatus.requestFailed.exit
        }
        Console.out(console.summary(summary))
        try writeReports(summary, loaded: loaded, redactor: redactor)
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }

    /// Writes `--report-junit` and `--report-json`; a report that cannot be written is an error (exit 1).
    private func writeReports(_ summary: RunSummary, loaded: LoadedCollection, redactor: Redactor) throws {
        let reports = [
            (junitReport, { JUnitReport.render(summary, sources: loaded.sources, redactor: redactor) }),
            (jsonReport, { JSONReport.render(summary, sources: loaded.sources, redactor: redactor) }),
        ]
        for case let (path?, render) in reports {
            do {
                try Data(render().utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                Console.error("error: cannot write the report '\(path)': \(error.localizedDescription)")
                throw ExitStatus.badCommandLine.exit
            }
        }
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
