public import CollectionFormat
import RunnerVersion
public import HTTPCore

/// How a run is carried out: parallelism, selection by tags, stopping early, recording exchanges.
public struct RunOptions: Sendable {
    /// How many files run at the same time (flows stay sequential inside); at least 1.
    public var jobs: Int
    /// The requests `--tag` and `--exclude-tag` select.
    public var selection: TagFilter
    /// Stop at the first failed or errored request; what did not run is reported as skipped.
    public var bail: Bool
    /// Fail a request that passed only after a retry for a status or an error kind.
    public var failOnFlaky = false
    /// Record every exchange (hop) of each request for `--verbose`.
    public var recordExchanges: Bool
    /// The `User-Agent` of every request that does not set one.
    public var userAgent: String
    /// `--cacert`: the PEM bundle every request trusts besides the system's, in place of its files' `caCert`.
    public var caCert: String?
    /// `SSL_CERT_FILE`: a PEM bundle every request trusts besides the system's and its `caCert`.
    public var certificateFile: String?
    /// `--proxy`: the proxy of every request, in place of its files' `proxy` and the process environment's (`.direct` for
    /// `--proxy none`).
    public var proxy: ProxySettings?
    /// The proxies of `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`: for requests whose files set no `proxy`, and the
    /// hosts every proxy is bypassed for.
    public var environmentProxies = ProxySettings.direct

    public init(jobs: Int = 1, selection: TagFilter = TagFilter(), bail: Bool = false,
                recordExchanges: Bool = false, userAgent: String = RunnerVersion.userAgent) {
        self.jobs = max(1, jobs)
        self.selection = selection
        self.bail = bail
        self.recordExchanges = recordExchanges
        self.userAgent = userAgent
    }
}

/// Why a request could not be prepared or sent: a located diagnostic (an undefined variable, an unreadable file).
public struct RunFailure: Error, Sendable {
    public var diagnostic: Diagnostic
    /// The variable the failure is that no layer defines, when it is.
    var undefinedName: String?

    public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    /// A failure from a template error in `path`.
    init(_ error: TemplateError, in path: String) {
        diagnostic = error.diagnostic(in: path)
        undefinedName = error.undefinedName
    }
}

extension VariableScope {
    /// The scope with a step's `with:` variables defined, each resolved in the scope so far; an error is placed in the
    /// file that wrote the value (the using flow), else in `path`. A value that reads a variable the step's `when:`
    /// requires to exist (`required`), which does not, is left undefined, as is one that reads such a value (a nested
    /// `use:`): the step is skipped by its `when:`.
    public func defining(_ inputs: [StepInput], in path: String, required: Set<String> = []) throws(RunFailure) -> VariableScope {
        var scope = self
        var unset = required
        for input in inputs { try scope.define(input, in: path, unset: &unset) }
        return scope
    }

    /// Defines a step's `with:` variable, resolved in this scope; a value that reads a name in `unset` (required by a
    /// `when:` and absent, or left unset before) is left unset, and its name joins `unset`.
    mutating func define(_ input: StepInput, in path: String, unset: inout Set<String>) throws(RunFailure) {
        do { define(input.name, try resolve(input.value), in: .input) } catch {
            guard let name = error.undefinedName, unset.contains(name) else { throw RunFailure(error, in: input.path ?? path) }
            unset.insert(input.name)
        }
    }
}
