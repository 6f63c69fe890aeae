import ArgumentParser
import Commands

/// `runner run`: sends every request of a collection, checks its expectations and reports.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Send the requests of a collection, check their expectations, and report.",
        discussion: """
            Exit status: 0 every request passed, 1 bad command line, nothing selected or a report not written, 2 invalid collection or \
            environment (nothing is sent), 3 a request could not complete, 4 an expectation failed (3 wins over 4), \
            130/143/129 cancelled by SIGINT/SIGTERM/SIGHUP.
            """
    )

    @OptionGroup var collection: CollectionArguments

    // Unconditional: a negative number is this option's (wrong) value, not an unknown option.
    @Option(parsing: .unconditional, help: "How many files run at the same time (flows stay in order).")
    var jobs: Int = 1

    @Flag(help: "Stop at the first failed request; the rest are reported as skipped.")
    var bail = false

    @Flag(name: .customLong("fail-on-flaky"), help: "Fail requests that passed only after a retry for a status or an error.")
    var failOnFlaky = false

    @Flag(help: "Show each exchange (headers and bodies, credentials hidden).")
    var verbose = false

    @Option(name: .customLong("cacert"), help: "Trust the certificates of this PEM file (besides the system's) for every request.")
    var caCert: String?

    @Option(name: .customLong("proxy"), help: "Send every request through this HTTP proxy (http://[user:password@]host:port), or none: directly.")
    var proxy: String?

    @Option(parsing: .unconditional,
            help: "The seed (0 to 9223372036854775807) of every random built-in ($uuid, $randomInt, ...): the same seed sends the same values.")
    var seed: UInt64?

    // Unconditional, as --jobs: `--shard -1/3` is this option's (wrong) value.
    @Option(parsing: .unconditional, help: "Run only part I of N (1 ≤ I ≤ N): files that share captures stay together; default: $RUNNER_SHARD.")
    var shard: String?

    @Option(name: .customLong("rerun-failed"), help: ArgumentHelp("Run only what failed, errored or was not run (cancelled, --bail) in this JSON report, and the files whose captures it needs.", valueName: "report.json"))
    var rerunFailed: String?

    @OptionGroup var color: ColorArguments

    @OptionGroup var output: RunOutputArguments

    @OptionGroup var reports: ReportArguments

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        try CollectionArguments.refuseEmpty([("--cacert", caCert), ("--proxy", proxy)])
        if let seed, seed > UInt64(Int64.max) { throw ValidationError("--seed must be from 0 to \(Int64.max), got \(seed)") }
        // Report paths are checked by `Run`, before anything is read or sent.
    }

    func run() async throws {
        var run = Run(collection: collection.selection)
        run.jobs = jobs
        run.bail = bail
        run.failOnFlaky = failOnFlaky
        run.verbose = verbose
        (run.junitReport, run.jsonReport, run.markdownReport, run.tapReport, run.htmlReport) = reports.paths
        run.caCert = caCert
        run.proxy = proxy
        run.seed = seed
        run.shard = shard
        run.rerunFailed = rerunFailed
        run.color = color.choice
        run.quiet = output.quiet
        run.progress = output.progress
        run.annotations = output.annotations
        try await run.execute().end()
    }
}

/// Where to write each report, shared by `run` and `merge-reports`.
struct ReportArguments: ParsableArguments {
    @Option(name: .customLong("report-junit"), help: "Write a JUnit XML report to FILE.")
    var junitReport: String?

    @Option(name: .customLong("report-json"), help: "Write a JSON report to FILE.")
    var jsonReport: String?

    @Option(name: .customLong("report-markdown"), help: "Write a Markdown summary (for $GITHUB_STEP_SUMMARY) to FILE.")
    var markdownReport: String?

    @Option(name: .customLong("report-tap"), help: "Write a TAP version 14 report to FILE.")
    var tapReport: String?

    @Option(name: .customLong("report-html"), help: "Write a self-contained HTML report to FILE.")
    var htmlReport: String?

    /// The JUnit, JSON, Markdown, TAP and HTML report paths, in that order.
    var paths: (String?, String?, String?, String?, String?) {
        (junitReport, jsonReport, markdownReport, tapReport, htmlReport)
    }

    /// A report flag given twice is refused: the later would replace the first without a word (a job's own
    /// `--report-json` beside the one its CI step adds).
    func validate() throws {
        let given = CommandLine.arguments.dropFirst().prefix { $0 != "--" }
        for flag in ["--report-junit", "--report-json", "--report-markdown", "--report-tap", "--report-html"] {
            let uses = given.filter { $0 == flag || $0.hasPrefix(flag + "=") }.count
            if uses > 1 { throw ValidationError("\(flag) is given \(uses) times: give each report flag once, with one file") }
        }
    }
}
