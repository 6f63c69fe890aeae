public import CollectionFormat

/// What happened to one request (or one step of a flow) in a run.
public struct RequestOutcome: Sendable {
    /// The verdict printed at the start of the request's line.
    public enum Verdict: String, Sendable, CaseIterable {
        case passed = "PASS", failed = "FAIL", errored = "ERROR", skipped = "SKIP"

        /// Whether it fails the run: FAIL or ERROR.
        public var isFailure: Bool { self == .failed || self == .errored }
    }

    /// The request file as the user named it.
    public var file: String
    /// The flow's name when the request is a step of a flow.
    public var flow: String?
    public var name: String
    public var method: String
    /// The URL that was sent (or would have been), before redaction.
    public var url: String
    public var verdict: Verdict
    public var statusCode: Int?
    /// The time of the whole request, retries included.
    public var duration: Duration?
    /// How many attempts it took; more than one when retried.
    public var attempts: Int
    /// Whether it passed only after being retried for a status or an error kind (not for polling).
    public var flaky = false
    /// The expectations that did not hold (verdict `failed`).
    public var failures: [ExpectationFailure]
    /// Why the request could not complete (verdict `errored`), located when it is about the file.
    public var error: Diagnostic?
    /// Why it was skipped (verdict `skipped`).
    public var skipReason: String?
    /// Every hop sent for the request (redirects and retries included), recorded with `--verbose`.
    public var exchanges: [Exchange]
    /// The last hop of a failed or errored request that was sent, as sent and answered, for every report.
    public var exchange: Exchange?
    /// Values this request revealed that every output must hide like secrets: the credentials it sent
    /// (a server may echo them) and captured values derived from secrets.
    public var sensitiveValues: [String] = []

    public init(
        file: String, flow: String? = nil, name: String, method: String, url: String, verdict: Verdict,
        statusCode: Int? = nil, duration: Duration? = nil, attempts: Int = 1,
        failures: [ExpectationFailure] = [], error: Diagnostic? = nil, skipReason: String? = nil,
        exchanges: [Exchange] = []
    ) {
        self.file = file
        self.flow = flow
        self.name = name
        self.method = method
        self.url = url
        self.verdict = verdict
        self.statusCode = statusCode
        self.duration = duration
        self.attempts = attempts
        self.failures = failures
        self.error = error
        self.skipReason = skipReason
        self.exchanges = exchanges
    }

    /// The name shown in reports: `flow › step` for steps.
    public var displayName: String { flow.map { "\($0) › \(name)" } ?? name }

    /// The skip reason of a request the run's cancellation (SIGINT, SIGTERM) stopped before it completed.
    static let cancelledReason = "cancelled"

    /// The skip reason of a request missing what an earlier file's failed request was to capture: the path and the name
    /// follow.
    static let missedCaptureReason = "an earlier request failed: "

    /// Whether the run stopped before this request ran (`--bail`, or a signal when `runCancelled`): skipped, but not
    /// tested. In a run no signal cancelled, `cancelled` is the reason of a user's `skip:`.
    public func wasStoppedBeforeRunning(runCancelled: Bool) -> Bool {
        verdict == .skipped && ((runCancelled && skipReason == Self.cancelledReason) || skipReason == StepExecutor.bailReason)
    }

    /// Whether this request went without a capture an earlier failed request did not make: skipped, but not tested.
    public var missedAFailedCapture: Bool {
        verdict == .skipped && skipReason?.hasPrefix(Self.missedCaptureReason) == true
    }

    /// Marks a request the run's cancellation (SIGINT, SIGTERM) stopped before it completed: skipped as
    /// `cancelled`, with no verdict of its own.
    mutating func cancel() {
        verdict = .skipped
        skipReason = Self.cancelledReason
        failures = []
        flaky = false
        exchange = nil
    }
}

/// An expectation that did not hold: where it was declared, what was expected, what came.
public struct ExpectationFailure: Sendable {
    /// The location of the expectation and what it checks (`status`, `body $.id`), as a diagnostic.
    public var diagnostic: Diagnostic
    public var expected: String
    public var actual: String
    /// Whether the expectation judges the response body (`body`, `schema`, `xpath`, `text`): the console then shows
    /// the start of the body under it.
    public var concernsBody: Bool

    public init(diagnostic: Diagnostic, expected: String, actual: String, concernsBody: Bool = false) {
        self.diagnostic = diagnostic
        self.expected = expected
        self.actual = actual
        self.concernsBody = concernsBody
    }
}

/// One hop of a request as sent and received, for `--verbose` (credential headers already masked).
public struct Exchange: Sendable {
    public var method: String
    public var url: String
    public var requestHeaders: [(name: String, value: String)]
    public var requestBody: String?
    /// The response status, nil when the hop failed.
    public var status: Int?
    public var responseHeaders: [(name: String, value: String)]
    /// The response body as text, or a note such as `(512 bytes of binary data)`.
    public var responseBody: String?
    /// Whether the bodies are JSON, which reports show indented (`Exchange.shown`) once their secrets are hidden.
    public var requestBodyIsJSON = false, responseBodyIsJSON = false
    /// The bodies' sizes in bytes as sent and received, when known (a body kept cut at `bodyLimit` is larger than its text).
    public var requestBodySize: Int?, responseBodySize: Int?
    /// Why the hop failed, when it did.
    public var error: String?
    public var duration: Duration

    public init(
        method: String, url: String, requestHeaders: [(name: String, value: String)], requestBody: String?,
        status: Int?, responseHeaders: [(name: String, value: String)], responseBody: String?, error: String?,
        duration: Duration
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.error = error
        self.duration = duration
    }
}

/// How many requests got each verdict: four numbers, so counting a file's outcomes and adding them to a
/// run's allocates and hashes nothing.
public struct VerdictCounts: Sendable {
    private var passed = 0, failed = 0, errored = 0, skipped = 0
    /// How many passed only after retries for a status or an error kind (counted among `passed`, or among `failed`
    /// when `--fail-on-flaky` failed them).
    public var flaky = 0
    /// How many of the flaky ones `--fail-on-flaky` failed.
    public var flakyFailed = 0

    public init() {}

    /// The counts of `outcomes`.
    public init(_ outcomes: [RequestOutcome]) {
        for outcome in outcomes { add(outcome) }
    }

    /// Counts one more outcome.
    public mutating func add(_ outcome: RequestOutcome) {
        self[outcome.verdict] += 1
        guard outcome.flaky else { return }
        flaky += 1
        if outcome.verdict == .failed { flakyFailed += 1 }
    }

    /// How many requests got `verdict`.
    public subscript(verdict: RequestOutcome.Verdict) -> Int {
        get {
            switch verdict {
            case .passed: passed
            case .failed: failed
            case .errored: errored
            case .skipped: skipped
            }
        }
        set {
            switch verdict {
            case .passed: passed = newValue
            case .failed: failed = newValue
            case .errored: errored = newValue
            case .skipped: skipped = newValue
            }
        }
    }

    /// Every verdict's count.
    public var total: Int { passed + failed + errored + skipped }

    /// Adds `other`'s counts to these.
    public static func += (counts: inout VerdictCounts, other: VerdictCounts) {
        counts.passed += other.passed
        counts.failed += other.failed
        counts.errored += other.errored
        counts.skipped += other.skipped
        counts.flaky += other.flaky
        counts.flakyFailed += other.flakyFailed
    }
}

/// The counts of a whole run's verdicts, how long it took, and its outcomes when they were kept.
public struct RunSummary: Sendable {
    /// Every outcome in run order; empty when the run kept only the counts (no report asked for them).
    public var outcomes: [RequestOutcome]
    public var duration: Duration
    /// The exit status of a run stopped before it could end: 2 when the collection is invalid, the shell's status for
    /// the signal that cancelled it (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    public var stopStatus: Int32?
    /// The seed of the run's random values, when a random built-in was used: `--seed` with it replays them.
    public var seed: UInt64?
    /// The part of a sharded run (`--shard`) this summary is of.
    public var shard: Shard?
    /// Whether the run counted a flaky pass as a failure (`--fail-on-flaky`); nil when a report read does not say.
    public var failsFlaky: Bool?
    /// What the run planned (of every part when sharded): recorded in the JSON report.
    public var plan: PlanRecord?
    private var counts: VerdictCounts

    /// A summary of `outcomes`, which it keeps.
    public init(outcomes: [RequestOutcome], duration: Duration) {
        self.init(counts: VerdictCounts(outcomes), duration: duration, outcomes: outcomes)
    }

    /// A summary from verdict counts, with the outcomes that were kept (none, or all of them).
    public init(counts: VerdictCounts, duration: Duration, outcomes: [RequestOutcome] = []) {
        self.outcomes = outcomes
        self.duration = duration
        self.counts = counts
    }

    /// The summary of a run that ended with `status` and no results (an invalid collection, nothing selected, an
    /// unusable `--cacert` or `--proxy`, a transport that failed): an errored case per error (its location and
    /// message), for the reports a CI step publishes.
    public static func notSent(_ diagnostics: [Diagnostic], status: Int32) -> RunSummary {
        let outcomes = diagnostics.filter { $0.severity == .error }.map { diagnostic in
            RequestOutcome(file: diagnostic.path ?? "collection", name: diagnostic.path ?? "collection", method: "", url: "",
                           verdict: .errored, error: diagnostic)
        }
        var summary = RunSummary(outcomes: outcomes, duration: .zero)
        summary.stopStatus = status
        return summary
    }

    /// How many requests the run reported, whether or not their outcomes were kept.
    public var total: Int { counts.total }

    /// How many outcomes have a verdict.
    public func count(_ verdict: RequestOutcome.Verdict) -> Int { counts[verdict] }

    /// How many passed only after retries for a status or an error kind (whether or not `--fail-on-flaky` failed them).
    public var flakyCount: Int { counts.flaky }

    /// How many of the outcomes with `verdict` are flaky: passed ones, or failed ones under `--fail-on-flaky`.
    public func flakyCount(_ verdict: RequestOutcome.Verdict) -> Int {
        switch verdict {
        case .passed: counts.flaky - counts.flakyFailed
        case .failed: counts.flakyFailed
        default: 0
        }
    }

    /// The signal that cancelled the run (`SIGINT`, `SIGTERM`, `SIGHUP`), read from `stopStatus`; nil when none did.
    public var cancellingSignal: String? {
        stopStatus.flatMap(CancellingSignal.init(exitStatus:))?.name
    }

    /// The exit status (docs/format.md): `stopStatus` when the run stopped early, else 3 when a request could not
    /// complete, else 4 when an expectation failed, else 0.
    public var exitStatus: Int32 {
        if let stopStatus { return stopStatus }
        if count(.errored) > 0 { return 3 }
        if count(.failed) > 0 { return 4 }
        return 0
    }
}
