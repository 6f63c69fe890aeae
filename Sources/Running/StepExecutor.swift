internal import Foundation
internal import CollectionFormat
internal import HTTPCore
internal import Loaders
internal import YAML
internal import Synchronization

/// Sends one request (or step) through the chain and judges it: build, load, check expectations, capture.
struct StepExecutor: Sendable {
    let loader: any HTTPLoader
    /// The OAuth2 tokens `loader` fetches: what they reveal (a refresh token) is hidden in later outputs.
    let tokens: OAuth2TokenStore
    let builder: RequestBuilder
    let recordExchanges: Bool
    /// `--fail-on-flaky`: a flaky pass becomes a failure, and keeps its last hop as a failure does.
    let failsFlaky: Bool
    /// The variables some request sends as credentials (`LoadedCollection.credentialVariables`): a value captured into
    /// one is hidden from its capture on (its response in `--verbose` included), not only once sent.
    let credentialVariables: Set<String>

    /// What a step produced: its outcome and the variables it captured.
    struct Result: Sendable {
        var outcome: RequestOutcome
        var captures: [(name: String, value: JSONValue)]
        /// Whether the step sent nothing: its wait (a `delay`, a throttle slot) was ended by `--bail` or by cancellation.
        var sentNothing = false
        /// The wait the answer's `Retry-After` asks for, which polling gives it.
        var retryAfter: Duration? = nil
        /// The variable the request could not be built without, when none defined it.
        var undefinedName: String? = nil
    }

    /// Why a step is not sent once `--bail` has stopped the run.
    static let bailReason = "not run: --bail stopped the run after a failure"

    /// The note of a request the transport sent twice, `answered` or failed the second time.
    static func resentNote(answered: Bool) -> String {
        "sent twice: the kept connection it went on closed, or brought bytes that are not HTTP, after it was written and before "
            + "any answer, and it was sent again on a new one, as its method is idempotent; "
            + "\(answered ? "this is the second's answer" : "the second failed so"), and the server may have acted on the first"
    }

    /// The note of a request a retry sent again after an attempt written before it failed, its method not idempotent.
    static func retriedAfterWrittenNote(_ method: String) -> String {
        "sent again by retry after an attempt that was written before it failed (a timeout or a broken connection): a \(method) "
            + "is not idempotent, and the server may have acted on more than one"
    }

    /// Runs `step` of `file` with the variables in `scope` (its `with:` variables already defined),
    /// keeping cookies in `jar`; a polled step (`expectations` in `retry.on`) is tried again while an expectation
    /// or capture fails. A step waiting for its `delay` or a throttle slot when `stop` is set sends nothing and is skipped.
    func run(_ step: PreparedStep, of file: RequestFile, scope: VariableScope, jar: CookieJar? = nil,
             stoppedBy stop: StopSignal? = nil) async -> Result {
        var result: Result
        if let retry = builder.writtenOptions(of: step.definition).retry, retry.polls {
            result = await poll(step, of: file, scope: scope, jar: jar, retry: retry, stoppedBy: stop)
        } else {
            result = await attempt(step, of: file, scope: scope, jar: jar, stoppedBy: stop).result
            result.outcome.flaky = result.outcome.verdict == .passed && result.outcome.attempts > 1
        }
        if result.outcome.verdict == .passed, !result.outcome.flaky { result.outcome.exchange = nil }
        // In the order of their places in the files, as the console shows them: every output lists them so.
        if result.outcome.failures.count > 1 { result.outcome.failures = DiagnosticBag.sort(result.outcome.failures, by: \.diagnostic) }
        return result
    }

    /// Tries a polled step until its expectations and captures hold, its attempts are spent (requests sent by
    /// retries for statuses and errors count too), or its `stopWhen` expectations hold; the last try's outcome
    /// reports it, with every request sent counted in its attempts and the whole time since the first try (waits
    /// included) as its duration. A run cancelled while waiting between tries skips the step as `cancelled`.
    private func poll(_ step: PreparedStep, of file: RequestFile, scope: VariableScope, jar: CookieJar?,
                      retry: RetryDefinition, stoppedBy stop: StopSignal?) async -> Result {
        let attempts = retry.attempts?.value ?? RetryDefinition.defaultAttempts
        let strategy = RetryStrategy(attempts: attempts, delay: retry.delay?.value ?? RetryDefinition.defaultDelay,
                                     backoff: retry.backoff?.value == .exponential ? .exponential : .constant)
        let start = ContinuousClock.now
        let waits = WaitsBeforeSending(stoppedBy: stop)
        var (sent, retriedForStatusOrError, tries) = (0, 0, 0)
        while true {
            tries += 1
            var (result, stopped) = await attempt(step, of: file, scope: scope, jar: jar, sendsAtMost: attempts - sent,
                                                  since: (start, waits))
            sent += result.outcome.attempts
            retriedForStatusOrError += result.outcome.attempts - 1
            result.outcome.attempts = sent
            result.outcome.flaky = result.outcome.verdict == .passed && retriedForStatusOrError > 0
            if stopped, let stop = step.stopWhen {
                result.outcome.failures.append(ExpectationFailure(
                    diagnostic: .error("polling stopped: the stopWhen expectations hold", path: step.definition.path, at: stop.mark),
                    expected: "every expectation to hold before stopWhen does", actual: "stopWhen held at try \(tries)"))
            }
            guard result.outcome.verdict == .failed, !stopped, sent < attempts else { return result }
            // A server asking to wait is given that wait, as retries give it; a longer one than a retry waits ends polling
            // with its answer kept (the retry loader's own note says so when it kept it).
            var wait = strategy.delay(afterAttempt: tries, jitter: Double.random(in: 0...1))
            if let asked = result.retryAfter {
                guard asked <= RetryStrategy.longestWait else {
                    let kept = RetryLoader.waitTooLong(asked, not: "retried")
                    for index in result.outcome.failures.indices where !result.outcome.failures[index].diagnostic.notes.contains(kept) {
                        result.outcome.failures[index].diagnostic.notes.append(RetryLoader.waitTooLong(asked, not: "polled again"))
                    }
                    return result
                }
                wait = max(wait, asked)
            }
            do {
                try await Task.sleep(for: wait)
            } catch {
                // Cancelled (SIGINT, SIGTERM) while waiting: the step did not complete, as for a retry's wait.
                result.outcome.cancel()
                result.outcome.duration = start.duration(to: .now) - waits.total
                return result
            }
        }
    }

    /// Sends the step once through the chain (whose retries send at most `sendsAtMost` requests) with `jar` as the
    /// current cookie jar and judges the answer, its duration counted from `since` (the first poll, with the throttle
    /// waits since then) or from the send, less the time spent waiting for throttle slots; `stopped` says whether the
    /// step's `stopWhen` expectations hold for it.
    private func attempt(_ step: PreparedStep, of file: RequestFile, scope: VariableScope, jar: CookieJar?,
                         sendsAtMost: Int? = nil, since poll: (start: ContinuousClock.Instant, waits: WaitsBeforeSending)? = nil,
                         stoppedBy stop: StopSignal? = nil) async -> (result: Result, stopped: Bool) {
        let definition = step.definition
        var outcome = RequestOutcome(
            file: file.path, flow: file.isFlow ? file.name : nil, name: definition.name,
            method: definition.request.method.value, url: definition.request.url.source, verdict: .passed)
        var request: HTTPRequest
        do {
            request = try builder.build(definition, path: definition.path, scope: scope, sendsAtMost: sendsAtMost)
        } catch {
            outcome.verdict = .errored
            outcome.error = error.diagnostic
            return (Result(outcome: outcome, captures: [], undefinedName: error.undefinedName), false)
        }
        outcome.url = request.components.string ?? request.path
        // The query items named as credentials (`access_token`) too, as sent (a short one hidden where it stands as a whole
        // value).
        let queryCredentials = request.components.queryItems?.filter { HTTPHeaders.namesCredential($0.name) }.compactMap(\.value) ?? []
        outcome.sensitiveValues = request.options.auth.credentialTexts + request.headers.credentialValues + credentialValues(of: request.body)
            + (request.options.proxy?.credentialTexts ?? []).filter { $0.count >= SensitiveText.minimumLength } + queryCredentials
            + request.options.auth.shortCredentials + request.headers.shortTokens
        // The credentials a loader learns on the way, not known before: the tokens an OAuth2 auth fetches.
        let oauth2 = if case .oauth2ClientCredentials(let credentials) = request.options.auth { credentials } else { OAuth2ClientCredentials?.none }

        let start = poll?.start ?? ContinuousClock.now
        let waits = poll?.waits ?? (request.options.throttle == nil && request.options.delay == nil ? nil : WaitsBeforeSending(stoppedBy: stop))
        let loaded: Swift.Result<HTTPResponse, HTTPError>
        if recordExchanges {
            let log = ExchangeLog()
            loaded = await ExchangeLog.$current.withValue(log) { await load(request, jar: jar, waits: waits) }
            outcome.exchanges = log.exchanges
        } else {
            loaded = await load(consume request, jar: jar, waits: waits)
        }
        if let unsent = waits?.unsent {
            // Nothing was sent: no time, no status; stopped by --bail, or cancelled (SIGINT, SIGTERM) while waiting.
            outcome.verdict = .skipped
            outcome.skipReason = unsent == .stopped ? Self.bailReason : RequestOutcome.cancelledReason
            // As for any request not sent, the URL as written.
            outcome.url = definition.request.url.source
            return (Result(outcome: outcome, captures: [], sentNothing: true), false)
        }
        let duration = start.duration(to: .now) - (waits?.total ?? .zero)
        outcome.sensitiveValues += jar?.storedCookies.map(\.value).filter { $0.count >= SensitiveText.minimumLength } ?? []
        // An error of the token request (sent without auth to the token URL) is placed at the tokenURL; the request
        // itself was not sent, so it has no status.
        var errorLocation = (path: definition.path, mark: definition.request.url.mark)
        var tokenRequestFailed = false
        if let oauth2 {
            let sent = switch loaded {
            case .success(let response): response.request
            case .failure(let error): error.request
            }
            outcome.sensitiveValues += sent.headers.credentialValues + (await tokens.credentials(revealedFor: oauth2))
            // A token response the auth refused (an error status, no usable token) may hold credentials too.
            if case .failure(let error) = loaded, error.request.url == oauth2.tokenURL, let response = error.response {
                outcome.sensitiveValues += OAuth2AccessToken.credentials(in: response.body)
            }
            if case .failure(let error) = loaded, case .none = error.request.options.auth, error.request.url == oauth2.tokenURL,
               let location = builder.tokenURLLocation(of: definition, path: definition.path) {
                (errorLocation, tokenRequestFailed) = (location, true)
            }
        }
        outcome.duration = duration
        var (result, stopped) = judge(loaded, of: step, outcome: outcome, scope: scope, duration: duration, errorAt: errorLocation)
        if tokenRequestFailed { result.outcome.statusCode = nil }
        // Only polling reads it (a retry's own wait is the retry loader's).
        if poll != nil, case .success(let response) = loaded { result.retryAfter = RetryLoader.retryAfter(in: response.headers) }
        // A pass too under --fail-on-flaky, until `run` knows whether it was flaky.
        if result.outcome.verdict.isFailure || (failsFlaky && result.outcome.verdict == .passed) {
            result.outcome.exchange = Exchange(lastHopOf: loaded)
        }
        return (result, stopped)
    }

    /// An error one of the request's options decided, placed at that option when the request writes it, else with help or
    /// a note saying where it comes from: a timeout (`timeout`), a redirect limit (`maxRedirects`), a proxy's failure
    /// (`proxy`), a certificate refused where `--cacert` replaced a `caCert` (a note) or that the request's `caCert` does
    /// not trust (at it), a client certificate that cannot be
    /// used (`clientCert`, said as `validate` says it).
    private func placeAtItsOption(_ error: HTTPError, of definition: RequestDefinition, placing diagnostic: inout Diagnostic) {
        if error.code == .timedOut {
            timeoutHelp(for: definition, placing: &diagnostic)
        } else if error.code == .tooManyRedirects, !error.message.hasPrefix("redirect cycle") {
            redirectLimitHelp(for: definition, placing: &diagnostic)
        } else if error.atProxy {
            proxyPlace(for: definition, placing: &diagnostic)
        } else if error.code == .insecureConnection, builder.run.caCert != nil,
                  let replaced = definition.options.caCert ?? builder.environment?.options.caCert {
            // The CA the file names is not trusted in this run: say so, as the failure may be that.
            let place = definition.options.caCert != nil ? "this request's (\(definition.path):\(replaced.mark.line):\(replaced.mark.column))"
                : "the environment's"
            diagnostic.notes.append("note: --cacert is trusted in place of \(place) caCert '\(replaced.written)'")
        } else if error.certificateNotTrusted, builder.run.caCert == nil, let written = definition.options.caCert {
            // The authorities this request's own caCert names did not issue it: said there.
            diagnostic.mark = written.mark
        } else if let problem = ClientCertificateCheck.problem(causing: error),
                  let certificate = definition.options.clientCert ?? builder.environment?.options.clientCert {
            // Said as `validate` says it, at the file or at a password the run gave.
            var placed = ClientCertificateProblems.diagnostic(problem, of: certificate, atPassword: true)
            placed.notes = diagnostic.notes
            diagnostic = placed
        }
    }

    /// A timeout's error placed at the request's `options.timeout` when it writes one, with help saying where the limit
    /// comes from: that option, the environment's, or runner's default.
    private func timeoutHelp(for definition: RequestDefinition, placing error: inout Diagnostic) {
        let expecting = "or, when a timeout is what it should do, expect it: expect: { error: timeout }"
        if let written = definition.options.timeout {
            error.mark = written.mark
            error.suggestion = "raise options.timeout here, \(expecting)"
        } else if let limit = builder.environment?.options.timeout {
            let place = builder.environment?.timeoutPath.map { " (\($0):\(limit.mark.line):\(limit.mark.column))" } ?? ""
            error.suggestion = "the limit is the environment's options.timeout\(place): raise it there or set options.timeout in this request, \(expecting)"
        } else {
            error.suggestion = "the limit is runner's default of \(RequestBuilder.defaultTimeout.components.seconds)s: set options.timeout to wait "
                + "longer, \(expecting)"
        }
    }

    /// A redirect limit's error placed at the request's `options.maxRedirects` when it writes one, with help saying where
    /// the limit comes from.
    private func redirectLimitHelp(for definition: RequestDefinition, placing error: inout Diagnostic) {
        let checking = "or, to check the redirect itself, followRedirects: false"
        if let written = definition.options.maxRedirects {
            error.mark = written.mark
            error.suggestion = "raise options.maxRedirects here, \(checking)"
        } else if builder.environment?.options.maxRedirects != nil {
            error.suggestion = "the limit is the environment's options.maxRedirects: raise it there or set options.maxRedirects in this "
                + "request, \(checking)"
        } else {
            error.suggestion = "the limit is runner's default: set options.maxRedirects to follow more, \(checking)"
        }
    }

    /// A proxy's error placed at the request's `options.proxy` when it is the one used, else with a note saying where the
    /// proxy comes from: `--proxy`, the environment's `options.proxy`, or the process environment.
    private func proxyPlace(for definition: RequestDefinition, placing error: inout Diagnostic) {
        let note: String
        if builder.run.proxy != nil {
            note = "the proxy is the one --proxy gives"
        } else if let written = definition.options.proxy {
            error.mark = written.mark
            return
        } else if let proxy = builder.environment?.options.proxy, let path = builder.environment?.proxyPath {
            note = "the proxy is the environment's options.proxy (\(path):\(proxy.mark.line):\(proxy.mark.column))"
        } else {
            note = "the proxy comes from the process environment (HTTPS_PROXY or HTTP_PROXY; NO_PROXY or options: { proxy: none } "
                + "reaches the server directly)"
        }
        error.notes.append("note: " + note)
    }

    /// Judges what loading the step's request gave: its expectations (or `expect.error`) and captures.
    private func judge(_ loaded: Swift.Result<HTTPResponse, HTTPError>, of step: PreparedStep, outcome: RequestOutcome,
                       scope: VariableScope, duration: Duration,
                       errorAt errorLocation: (path: String, mark: Mark)) -> (result: Result, stopped: Bool) {
        let definition = step.definition
        var outcome = outcome
        switch loaded {
        case .failure(let error):
            outcome.attempts = error.attempts
            outcome.statusCode = error.serverResponse?.status.code
            if error.code == .cancelled, Task.isCancelled {
                // The run was cancelled (SIGINT, SIGTERM) while this request was under way: it did not complete.
                outcome.cancel()
                return (Result(outcome: outcome, captures: []), false)
            }
            if let expected = definition.expect.error {
                let kind = ExpectedFailure(error.code)
                outcome.verdict = kind == expected.value ? .passed : .failed
                if kind != expected.value {
                    outcome.failures = [Self.unexpected(expected, actual: "\(kind.map { "error: \($0.rawValue): " } ?? "")\(error.message)", in: definition.path)]
                }
                return (Result(outcome: outcome, captures: []), false)
            }
            outcome.verdict = .errored
            outcome.error = .error(error.message, path: errorLocation.path, at: errorLocation.mark)
            // (Not a token request's, placed at its tokenURL.)
            if errorLocation.mark == definition.request.url.mark { placeAtItsOption(error, of: definition, placing: &outcome.error!) }
            if error.resentAfterConnectionLoss { outcome.error?.notes.append(Self.resentNote(answered: false)) }
            if error.retriedAfterWritten { outcome.error?.notes.append(Self.retriedAfterWrittenNote(error.request.method.rawValue)) }
            return (Result(outcome: outcome, captures: []), false)
        case .success(let response):
            outcome.statusCode = response.status.code
            outcome.attempts = response.attempts
            if let expected = definition.expect.error {
                outcome.verdict = .failed
                outcome.failures = [Self.unexpected(expected, actual: "status \(response.status.code)", in: definition.path)]
                return (Result(outcome: outcome, captures: []), false)
            }
            let content = ResponseContent(response)
            do {
                var checker = ExpectationChecker(step: step, path: definition.path, scope: scope)
                checker.credentials = outcome.sensitiveValues
                outcome.failures = try checker.failures(of: content, duration: duration)
            } catch {
                outcome.verdict = .errored
                outcome.error = error.diagnostic
                return (Result(outcome: outcome, captures: [], undefinedName: error.undefinedName), false)
            }
            let captured = CaptureExtractor(step: step, path: definition.path).capture(from: content)
            let sources = scope.secretValues.union(outcome.sensitiveValues)
            outcome.sensitiveValues += captured.values.flatMap { SensitiveText.derivedTexts(in: $0.value, from: sources) }
            outcome.sensitiveValues += captured.values.filter { credentialVariables.contains($0.name) }.flatMap { SensitiveText.credentialTexts(of: $0.value, sent: credentialVariables) }
            outcome.failures += captured.failures
            if !outcome.failures.isEmpty { outcome.verdict = .failed }
            var stopped = false
            if outcome.verdict == .failed, let stop = step.stopWhen {
                var checker = ExpectationChecker(step: stop.step, path: definition.path, scope: scope)
                checker.judgesStatus = false
                // A stopWhen that cannot be checked (a template's value that is no status) is an error, never a "no".
                do { stopped = try checker.failures(of: content, duration: duration).isEmpty } catch {
                    outcome.verdict = .errored
                    outcome.error = error.diagnostic
                    return (Result(outcome: outcome, captures: [], undefinedName: error.undefinedName), false)
                }
            }
            return (Result(outcome: outcome, captures: captured.values), stopped)
        }
    }

    /// The failure of a request that did not fail the way `expect.error` says.
    private static func unexpected(_ expected: Located<ExpectedFailure>, actual: String, in path: String) -> ExpectationFailure {
        ExpectationFailure(diagnostic: .error("the request did not fail as expect.error says", path: path, at: expected.mark),
                           expected: "error: \(expected.value.rawValue)", actual: actual)
    }

    private func load(_ request: consuming HTTPRequest, jar: CookieJar?,
                      waits: WaitsBeforeSending?) async -> Swift.Result<HTTPResponse, HTTPError> {
        guard let waits else { return await load(request, jar: jar) }
        return await WaitsBeforeSending.$current.withValue(waits) { [request] in await load(request, jar: jar) }
    }

    private func load(_ request: consuming HTTPRequest, jar: CookieJar?) async -> Swift.Result<HTTPResponse, HTTPError> {
        guard let jar else { return await load(request) }
        return await CookieJar.$current.withValue(jar) { [request] in await load(request) }
    }

    private func load(_ request: consuming HTTPRequest) async -> Swift.Result<HTTPResponse, HTTPError> {
        do { return .success(try await loader.load(request)) } catch { return .failure(error) }
    }
}

/// The exchanges of the request being run, filled by the trace layer through a task-local.
final class ExchangeLog: Sendable {
    private let recorded = Mutex<[Exchange]>([])

    /// The log of the request running in the current task, when exchanges are recorded.
    @TaskLocal static var current: ExchangeLog?

    /// Every exchange recorded so far.
    var exchanges: [Exchange] { recorded.withLock { $0 } }

    /// Records a traced exchange (credential headers already masked by the trace loader).
    func record(_ traced: TracedExchange) {
        let body = traced.response.flatMap { Exchange.kept($0.body, type: $0.headers["Content-Type"]) }
        let requestBody = (traced.requestBodyText.map { Data($0.utf8) } ?? traced.binaryRequestBody)
            .flatMap { Exchange.kept($0, type: traced.request.headers["Content-Type"]) }
        var exchange = Exchange(
            method: traced.request.method.rawValue,
            url: traced.request.displayURL,
            requestHeaders: traced.request.headers.map { ($0.name, $0.value) },
            requestBody: requestBody?.text,
            status: traced.response?.status.code,
            responseHeaders: traced.response?.headers.map { ($0.name, $0.value) } ?? [],
            responseBody: body?.text,
            error: traced.error?.message,
            duration: traced.duration)
        (exchange.requestBodyIsJSON, exchange.responseBodyIsJSON) = (requestBody?.isJSON == true, body?.isJSON == true)
        exchange.responseBodySize = traced.response?.body.count
        recorded.withLock { $0.append(exchange) }
    }

    /// The trace layer that records into the current task's log.
    static let layer = LoaderLayer.trace { traced in ExchangeLog.current?.record(traced) }
}

extension ExpectedFailure {
    /// The kind of failure an `HTTPError` code stands for; nil for failures `expect.error` cannot name.
    init?(_ code: HTTPError.Code) {
        switch code {
        case .timedOut: self = .timeout
        case .cannotConnect: self = .connection
        case .insecureConnection: self = .tls
        case .responseTooLarge: self = .tooLarge
        default: return nil
        }
    }
}
