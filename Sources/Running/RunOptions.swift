public import CollectionFormat

/// How a run is carried out: parallelism, selection by tags, stopping early, recording exchanges.
public struct RunOptions: Sendable {
    /// How many files run at the same time (flows stay sequential inside); at least 1.
    public var jobs: Int
    /// Run only requests that have one of these tags (file tags and request tags count); empty means all.
    public var tags: [String]
    /// Leave out requests that have one of these tags.
    public var excludedTags: [String]
    /// Stop at the first failed or errored request; what did not run is reported as skipped.
    public var bail: Bool
    /// Record every exchange (hop) of each request for `--verbose`.
    public var recordExchanges: Bool
    /// The `User-Agent` of every request that does not set one.
    public var userAgent: String

    public init(jobs: Int = 1, tags: [String] = [], excludedTags: [String] = [], bail: Bool = false,
                recordExchanges: Bool = false, userAgent: String = "runner/0.1") {
        self.jobs = max(1, jobs)
        self.tags = tags
        self.excludedTags = excludedTags
        self.bail = bail
        self.recordExchanges = recordExchanges
        self.userAgent = userAgent
    }

    /// Whether a request with these tags is selected by `--tag` and `--exclude-tag`.
    public func selects(tags requestTags: [String]) -> Bool {
        if !excludedTags.isEmpty, requestTags.contains(where: excludedTags.contains) { return false }
        return tags.isEmpty || requestTags.contains(where: tags.contains)
    }

    /// How many event loops a run's requests should use on a machine with `cores` cores: one for every two
    /// cores, at least one and no more than `jobs`.
    ///
    /// A run's workers share the loops, and its requests are light for a loop (tens of microseconds of CPU
    /// each), so more loops mostly add hand-offs between threads (locks taken from two loops, wake-ups on the
    /// other core). The other half of the machine is left for the thread decoding files ahead, the kernel's
    /// network stack and, often in CI, the API under test itself: on 2 cores, one loop instead of two took
    /// 13% fewer cycles per `--jobs 8` request against nginx on the same machine (16% against the demo API).
    public func eventLoopCount(cores: Int) -> Int {
        max(1, min(jobs, cores / 2))
    }

    /// The steps of a file that the tag filters select, in order.
    public func selectedSteps(of file: RequestFile) -> [RequestDefinition] {
        file.steps.filter { selects(tags: file.tags + $0.tags) }
    }
}

/// Why a request could not be prepared or sent: a located diagnostic (an undefined variable, an unreadable file).
public struct RunFailure: Error, Sendable {
    public var diagnostic: Diagnostic

    public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    /// A failure from a template error in `path`.
    init(_ error: TemplateError, in path: String) { diagnostic = error.diagnostic(in: path) }
}
