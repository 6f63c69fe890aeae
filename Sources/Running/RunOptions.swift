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
