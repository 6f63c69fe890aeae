public import HTTPCore
internal import AsyncHTTPClient
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTP2
internal import NIOHTTPCompression
internal import NIOPosix
internal import NIOSSL
internal import Foundation
internal import Synchronization

/// The end of the chain: sends `http://` and `https://` requests over AsyncHTTPClient and reads the response body
/// under a cap.
///
/// One pooled client (keep-alive HTTP/1.1, and HTTP/2 where TLS negotiates it; certificates verified against the
/// system's roots) serves every request of the same settings: `options.insecure` (no verification),
/// `options.trustedCertificateFiles` (trusted besides the system's roots), `options.clientCertificate`, the proxy
/// `options.proxy` chooses (reached with `CONNECT` for both schemes), the request `timeout` and, verifying `https://`,
/// the host its certificate must name (`CertificateIdentity`); each client is made on first use. A client's connection
/// attempts (TCP, the proxy's `CONNECT`, the TLS handshake) are limited to the `options.timeout` of its requests, so none outlives the
/// request that started it (AsyncHTTPClient keeps an attempt going after its request ended, for 30 s by default,
/// and its shutdown waits for it). No client follows redirects (the redirect loader does). Bodies are
/// gzip/deflate-decoded and read until `options.maxResponseBytes` of decoded bytes, past which reading stops with
/// `responseTooLarge` (the limit against gzip bombs: a ratio would also fail healthy repetitive bodies, which deflate
/// shrinks up to about a thousand times). Call `shutdown()` when done, or use `withTransport`.
public final class HTTPClientTransport: HTTPLoader {
    /// The clients made so far: those in use by settings, with how many HTTP/2 streams servers reset for each, and those
    /// replaced (`noteStreamReset`), closed at shutdown.
    private let clients = Mutex<(current: [ClientSettings: HTTPClient], resets: [ClientSettings: Int], replaced: [HTTPClient])>(
        ([:], [:], []))

    /// How many HTTP/2 streams servers may reset for one client before later requests get a new one: half NIO's guard
    /// against floods of resets (200 in 30 seconds), past which it fails the connection while AsyncHTTPClient's pool goes
    /// on giving it to requests, which then wait out their timeouts (trial helper-197 N1).
    static let streamResetsPerClient = 100
    private let connectionsPerHost: Int

    /// Told (on an event loop) each time the head of a request the current task sends is written on its connection: how a
    /// throttle learns when its request started.
    @TaskLocal public static var writes: (any RequestWrites)?

    /// Creates a transport that opens at most `connectionsPerHost` HTTP/1.1 connections to one host (AsyncHTTPClient's
    /// soft limit: a request beyond it waits for a connection, and the wait counts against its deadline).
    public init(connectionsPerHost: Int = 32) {
        self.connectionsPerHost = connectionsPerHost
    }

    /// Runs `body` with a new transport (at most `connectionsPerHost` connections to one host) and shuts it down
    /// afterwards, also when `body` throws, waiting at most `attemptGrace` for connection attempts still under way.
    public static func withTransport<T: Sendable>(
        connectionsPerHost: Int = 32, attemptGrace: Duration = .milliseconds(500), _ body: (HTTPClientTransport) async throws -> T
    ) async throws -> T {
        let transport = HTTPClientTransport(connectionsPerHost: connectionsPerHost)
        do {
            let result = try await body(transport)
            try await transport.shutdown(attemptGrace: attemptGrace)
            return result
        } catch {
            try? await transport.shutdown(attemptGrace: attemptGrace)
            throw error
        }
    }

    /// Closes every pooled connection; the transport cannot be used afterwards. A connection attempt still under way
    /// (its request was cancelled) is not waited for past `attemptGrace`: it ends by its connect timeout, in the
    /// background.
    public func shutdown(attemptGrace: Duration = .milliseconds(500)) async throws {
        let made = clients.withLock { clients in
            defer { clients = ([:], [:], []) }
            return Array(clients.current.values) + clients.replaced
        }
        guard !made.isEmpty else { return }
        let closing = made.map { $0.shutdown() }
        let loop = closing[0].eventLoop
        let closed = EventLoopFuture.andAllSucceed(closing, on: loop)
        // Whichever comes first: every client closed, or the grace period over (a second completion is ignored).
        let done = loop.makePromise(of: Void.self)
        closed.cascade(to: done)
        let grace = loop.scheduleTask(in: Self.timeAmount(attemptGrace)) { done.succeed() }
        closed.whenComplete { _ in grace.cancel() }
        try await done.futureResult.get()
    }

    /// Settles how many event loops this process sends on: one for every two cores, at least one, unless
    /// `NIO_SINGLETON_GROUP_LOOP_COUNT` (NIO's own setting) says, as a whole number from 1 to 1,024; any other value of
    /// it is not used, and the warning returned says so. Call it once, first thing in `main`: every client shares NIO's
    /// singleton group, which reads the count when first used (setting it later, or twice, stops the process).
    ///
    /// The loops do about 40% of a request's work (AsyncHTTPClient, NIO, TLS), the cooperative pool, which has a thread
    /// per core, the rest (reading, building and judging requests); a loop per core, NIO's default, kept two busy threads
    /// on each core (docs/benchmarks.md).
    public static func settleEventLoopCount() -> String? {
        let name = "NIO_SINGLETON_GROUP_LOOP_COUNT"
        let asked = ProcessInfo.processInfo.environment[name]
        if let asked, let count = Int(asked), (1...1024).contains(count) { return nil }
        let count = max(1, System.coreCount / 2)
        NIOSingletons.groupLoopCountSuggestion = count
        return asked.map {
            "warning: \(name) is \"\($0)\", not a whole number from 1 to 1024; runner sends on \(count) event "
                + "loop\(count == 1 ? "" : "s") (one for every two cores)"
        }
    }

    /// The event loop that handles the responses to the current task's requests, when it has one.
    @TaskLocal private static var affineLoop: (any EventLoop)?

    /// Whether an exchange the current task started goes on to its answer (or its deadline, or `answerGrace`) when the
    /// task is cancelled, once its request's head was written: a step whose flow cleans up after it (`finally:`) must
    /// capture what it created. None starts once the task is cancelled, and one still connecting is abandoned.
    @TaskLocal public static var finishesExchangeUnderWay = false

    /// How long an exchange `finishesExchangeUnderWay` keeps is given, after its task was cancelled, to answer (within
    /// its own deadline): a server that stalls does not hold the cleanup for a whole timeout.
    public static let answerGrace = Duration.seconds(5)

    /// Runs `body` with the responses to its requests handled on one event loop, chosen now (a new connection opens
    /// on it too). A task sending one request after another then meets one loop: without it, AsyncHTTPClient picks
    /// a loop per request, and a response crosses from its connection's loop to the request's, which costs thread
    /// switches and CPU time on every request (docs/benchmarks.md).
    public static func withEventLoopAffinity<T: Sendable>(_ body: () async -> T) async -> T {
        await $affineLoop.withValue(HTTPClient.defaultEventLoopGroup.next()) { await body() }
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let outgoing = try Self.clientRequest(for: request)
        let proxy = request.proxy
        let startedAt = Date()
        let start = ContinuousClock.now
        var resent = false, written = false
        var arrived: CappedBodyCollector.Response?
        let (client, settings) = try client(for: request, proxy: proxy)
        do {
            let received = try await execute(outgoing, for: request, on: client, resent: &resent, written: &written, arrived: &arrived)
            if let proxy, received.head.status == .proxyAuthenticationRequired {
                throw TransportErrorMapping.proxyAuthenticationRequired(proxy, request: request)
            }
            return Self.response(received, to: request, startedAt: startedAt, since: start, resent: resent)
        } catch var error as HTTPError {
            error.resentAfterConnectionLoss = resent
            error.requestWritten = written
            // A body past the size limit: its response shows what came.
            if error.code == .responseTooLarge, error.response == nil, let arrived {
                error.response = Self.response(arrived, to: request, startedAt: startedAt, since: start, resent: resent)
                error.response?.isCutShort = true
            }
            throw error
        } catch {
            if let proxy, (error as? HTTPClientError) == .invalidProxyResponse {
                throw await TransportErrorMapping.tunnelRefused(by: proxy, request: request, underlyingError: error)
            }
            if let proxy, (error as? HTTPClientError) == .proxyAuthenticationRequired {
                var refused = TransportErrorMapping.proxyAuthenticationRequired(proxy, request: request)
                refused.response = await TransportErrorMapping.tunnelAnswer(of: proxy, for: request)?.response
                throw refused
            }
            let lost = error as? KeptConnectionWatch.KeptConnectionLost
            if (lost?.underlying ?? error) is NIOHTTP2Errors.StreamClosed { noteStreamReset(of: client, settings: settings) }
            var mapped = TransportErrorMapping.httpError(for: lost?.underlying ?? error, request: request, proxy: proxy)
            mapped.requestWritten = written
            if lost != nil {
                mapped.message += ": it went on a kept-alive connection the server had closed, or sent more on, without saying so "
                    + "(no Connection: close), and a \(request.method) is not sent again by itself, as the server may have acted on "
                    + "it (options.retry sends it again)"
            }
            if let precise = await TransportErrorMapping.unverifiedCertificateMessage(for: error, request: request, proxy: proxy) {
                (mapped.message, mapped.certificateNotTrusted) = (precise.message, precise.notTrusted)
            } else if TransportErrorMapping.boringSSLReason(of: error) == "CERTIFICATE_VERIFY_FAILED" {
                mapped.certificateNotTrusted = true
            }
            mapped.resentAfterConnectionLoss = resent
            // A response that began and was cut short (closed, reset, out of time) shows its status, headers and the body
            // that came; a closed connection's message says how far it had come, as a timeout's does.
            if mapped.response == nil, let arrived {
                mapped.response = Self.response(arrived, to: request, startedAt: startedAt, since: start, resent: resent)
                mapped.response?.isCutShort = true
                if mapped.code == .cannotConnect { mapped.message += ": " + CappedBodyCollector.began(arrived) }
            }
            throw mapped
        }
    }

    /// The response `received` to `request`, sent at `startedAt` (`start` on the clock).
    private static func response(_ received: CappedBodyCollector.Response, to request: HTTPRequest, startedAt: Date,
                                 since start: ContinuousClock.Instant, resent: Bool) -> HTTPResponse {
        // An HTTP/2 response has no Transfer-Encoding (RFC 9113 section 8.2.2): the one NIO's HTTP/1 view of it adds to a
        // body without a Content-Length is not the server's, and expectations must not see it.
        let fields = received.head.version.major == 2
            ? received.head.headers.filter { $0.name.lowercased() != "transfer-encoding" } : Array(received.head.headers)
        var response = HTTPResponse(
            request: request, status: HTTPStatus(Int(received.head.status.code)),
            headers: HTTPHeaders(fields.map { ($0.name, withoutTrailingWhitespace($0.value)) }),
            body: received.body.withUnsafeReadableBytes { Data($0) }, startedAt: startedAt, duration: start.duration(to: .now))
        response.resentAfterConnectionLoss = resent
        return response
    }


    /// A header value without the spaces and tabs after it, which are not part of it (RFC 9110 section 5.5; the parser
    /// drops those before it).
    static func withoutTrailingWhitespace(_ value: String) -> String {
        guard let last = value.utf8.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") else { return value }
        return String(value[..<(value.lastIndex { $0 != " " && $0 != "\t" }.map(value.index(after:)) ?? value.startIndex)])
    }
    /// Executes `outgoing` under the request's deadline (which covers the body too). Task cancellation cancels it.
    /// `arrived` is left holding the last attempt's response head and the body that came, when a head came.
    ///
    /// A request whose connection closed (or was reset) before any response byte arrived is sent again, when nothing was
    /// written (the pooled connection was closed already), or when its method is idempotent (RFC 9110, 9.2.2) and the
    /// connection was a kept one, which had answered before (`KeptConnectionWatch`): the server most likely closed the
    /// idle keep-alive connection as it was handed out again. It goes again while that happens (a server that closed one
    /// kept connection likely closed the others too), so at last on a new connection; a new connection that closes before
    /// answering ends it, and so does a second loss before anything was written that may have been a new connection's (a
    /// reset in its TLS handshake). A `POST` or `PATCH` is never sent twice.
    ///
    /// A request that joins a connection attempt another request started (AsyncHTTPClient hands a waiting request the
    /// connection being established) fails with that attempt when it times out, however young the request is: such a
    /// request, failed by a connect, `CONNECT` or TLS handshake timeout before its own deadline, gets an attempt of its
    /// own (which its deadline ends, as its timeout, if it fails to connect too).
    private func execute(
        _ outgoing: HTTPClient.Request, for request: HTTPRequest, on client: HTTPClient, resent: inout Bool, written: inout Bool,
        arrived: inout CappedBodyCollector.Response?
    ) async throws -> CappedBodyCollector.Response {
        let deadline = request.deadline.map(Self.nioDeadline)
        let start = ContinuousClock.now
        func attempt() async throws -> CappedBodyCollector.Response {
            let collector = CappedBodyCollector(request: request, writes: Self.writes)
            defer { (written, arrived) = (collector.sentHead, collector.arrived) }
            do {
                return try await Self.started(outgoing, delegate: collector, on: client, deadline: deadline) { collector.sentHead }
            } catch where (error as? HTTPClientError) == .deadlineExceeded || Self.deadlinePassed(for: request) {
                // Whatever ends a request once its deadline has passed (also a connection attempt it joined, failing at
                // the same moment) is its timeout, with how far it had come.
                throw DeadlinePassed(phase: collector.progress(https: request.usesTLS, proxied: request.proxy != nil))
            } catch where error as? ChannelError == .ioOnClosedChannel {
                // The pooled connection it was given had closed already: nothing was written.
                throw Stale(underlying: error, kept: true)
            } catch where !collector.sentHead && KeptConnectionWatch.isConnectionLoss(error) {
                // Nothing was written: a pooled connection the server had closed, or a new one reset in its TLS handshake.
                throw Stale(underlying: error, kept: false)
            } catch let lost as KeptConnectionWatch.KeptConnectionLost where request.method.isIdempotent {
                throw Stale(underlying: lost.underlying, kept: true, written: true)
            } catch where !collector.sentHead && TransportErrorMapping.isUnknown(error) {
                // AsyncHTTPClient ends a connection closed while its proxy tunnel or TLS handshake was being made with an
                // error of a type it does not make public.
                throw ClosedWhileConnecting(underlying: error)
            }
        }
        do {
            do {
                return try await attempt()
            } catch let stale as Stale where !Task.isCancelled {
                // At most as many times more as the client keeps connections to a host; after a loss that may have been a
                // new connection's, once (a server that resets every TLS handshake is not tried 33 times).
                var uncertain = stale.kept ? 0 : 1
                resent = stale.written
                for _ in 0..<connectionsPerHost {
                    do {
                        return try await attempt()
                    } catch let again as Stale where !Task.isCancelled && (again.kept || uncertain == 0) {
                        if !again.kept { uncertain += 1 }
                        resent = resent || again.written
                    }
                }
                return try await attempt()
            } catch where Self.isConnectionAttemptTimeout(error) && !Task.isCancelled && Self.hasTimeLeft(request, since: start) {
                return try await attempt()
            }
        } catch let stale as Stale {
            // Nothing was written (else it went on a kept connection): the connection closed before the request was sent.
            throw stale.kept ? stale.underlying : ClosedWhileConnecting(underlying: stale.underlying)
        }
    }

    /// A request that may be sent again: nothing of it was written, or it is idempotent and the kept connection it went
    /// on closed before answering; `kept` when the connection was surely a kept one.
    private struct Stale: Error {
        let underlying: any Error
        let kept: Bool
        /// Whether the request was written before the connection closed: sending it again sends it twice.
        var written = false
    }

    /// The connection closed while it was being made (the proxy's tunnel or the TLS handshake), or before anything was
    /// written on it: nothing was sent.
    struct ClosedWhileConnecting: Error {
        let underlying: any Error
    }

    /// A request's deadline passed; `phase` says how far it had come (`CappedBodyCollector.progress`).
    struct DeadlinePassed: Error {
        let phase: String
    }

    /// Executes `outgoing` with the client, started on the event loop that handles its response (the task's affine
    /// loop, else the next of the group), and waits for it; task cancellation cancels it, once it is `written` (its head
    /// is) only when `finishesExchangeUnderWay` is not set.
    ///
    /// Started there, AsyncHTTPClient's steps (its request's bookkeeping, the deadline's timer, taking a pooled
    /// connection, writing) run on the loop as one task: started from the caller's thread, each of them is a task sent
    /// to the loop, which woke it about twice a request instead of once (docs/benchmarks.md). Only AsyncHTTPClient's own
    /// work runs there: the caller checks the response.
    private static func started<Delegate: HTTPClientResponseDelegate>(
        _ outgoing: HTTPClient.Request, delegate: Delegate, on client: HTTPClient, deadline: NIODeadline?,
        written: @escaping @Sendable () -> Bool
    ) async throws -> Delegate.Response {
        let loop = affineLoop ?? client.eventLoopGroup.next()
        let state = Mutex(StartState<Delegate.Response>.waiting)
        let finishes = finishesExchangeUnderWay
        if finishes, Task.isCancelled { throw HTTPClientError.cancelled }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.execute {
                    let task = client.execute(request: outgoing, delegate: delegate, eventLoop: .delegate(on: loop), deadline: deadline)
                    let cancelled = state.withLock { state in
                        defer { state = .started(task) }
                        if case .cancelled = state { return true }
                        return false
                    }
                    if cancelled { task.cancel() }
                    task.futureResult.whenComplete { continuation.resume(with: $0) }
                }
            }
        } onCancel: {
            let task = state.withLock { state -> HTTPClient.Task<Delegate.Response>? in
                guard case .started(let task) = state else {
                    state = .cancelled
                    return nil
                }
                return task
            }
            guard let task else { return }
            // Asked on the loop, where the client writes: a request not written yet is abandoned all the same, and one
            // written gets `answerGrace` to answer.
            guard finishes else { return task.cancel() }
            loop.execute {
                if written() { loop.scheduleTask(in: timeAmount(answerGrace)) { task.cancel() } } else { task.cancel() }
            }
        }
    }

    /// Where a request started on its event loop is, for its cancellation.
    private enum StartState<Response: Sendable>: Sendable {
        case waiting
        case cancelled
        case started(HTTPClient.Task<Response>)
    }

    /// Whether a request has time for another attempt: before its deadline; without one, within the first half of the
    /// 10 s a connection attempt is given then.
    private static func hasTimeLeft(_ request: HTTPRequest, since start: ContinuousClock.Instant) -> Bool {
        request.deadline == nil ? start.duration(to: .now) < .seconds(5) : !deadlinePassed(for: request)
    }

    /// Whether the request's deadline (if it has one) has passed.
    private static func deadlinePassed(for request: HTTPRequest) -> Bool {
        request.deadline.map { ContinuousClock.now >= $0 } ?? false
    }

    /// Whether `error` is a connection attempt's timeout: TCP connect, a proxy's `CONNECT` or the TLS handshake.
    private static func isConnectionAttemptTimeout(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: [.connectTimeout, .httpProxyHandshakeTimeout, .tlsHandshakeTimeout].contains(error)
        case ChannelError.connectTimeout: true
        case let error as NIOConnectionError:
            error.connectionErrors.contains { if case ChannelError.connectTimeout = $0.error { true } else { false } }
        default: false
        }
    }

    /// The NIO deadline at the same moment as a continuous-clock instant.
    private static func nioDeadline(_ instant: ContinuousClock.Instant) -> NIODeadline {
        .now() + timeAmount(ContinuousClock.now.duration(to: instant))
    }

    /// A duration as a NIO time amount (limited to about 30 years).
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let components = duration.components
        return .nanoseconds(min(components.seconds, 1 << 30) * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }

    /// The settings of a client: whether it verifies certificates, which files it trusts besides the system's, the
    /// client certificate it presents and the proxy it goes through; how long its connection attempts may take; and for
    /// verified `https://`, the host its certificates must name (a client per such host).
    private struct ClientSettings: Hashable {
        var insecure: Bool
        var trustedCertificateFiles: [String]
        var clientCertificate: ClientCertificate?
        /// The proxy its connections go through (with `CONNECT`).
        var proxy: HTTPProxy?
        /// The requests' `timeout`, which limits each connection attempt (connect, `CONNECT`, TLS handshake) too.
        var connectTimeout: Duration?
        /// The host a verified `https://` connection's certificate must name (`CertificateIdentity`), in lower case and as
        /// sent (an international name as its `xn--` labels, as certificates list it).
        var verifiedHost: String?

        /// The settings a request asks for; the trusted files matter only while certificates are verified, and with the
        /// client certificate only for `https://` (an `http://` request does not load them: `SSL_CERT_FILE` is often set).
        init(_ options: HTTPRequestOptions, https: Bool, host: String?, proxy: HTTPProxy?) {
            insecure = options.insecure
            trustedCertificateFiles = options.insecure || !https ? [] : options.trustedCertificateFiles
            clientCertificate = https ? options.clientCertificate : nil
            self.proxy = proxy
            connectTimeout = options.timeout
            verifiedHost = https && !options.insecure ? host?.lowercased() : nil
        }
    }

    /// The client for the request's settings, created on first use; a trusted file or a client certificate that
    /// cannot be loaded fails the request. Files are loaded under the lock: workers starting together load them once.
    private func client(for request: HTTPRequest, proxy: HTTPProxy?) throws(HTTPError) -> (client: HTTPClient, settings: ClientSettings) {
        let settings = ClientSettings(request.options, https: request.usesTLS, host: request.hostAsSent, proxy: proxy)
        return try clients.withLock { (clients) throws(HTTPError) -> (client: HTTPClient, settings: ClientSettings) in
            if let client = clients.current[settings] { return (client, settings) }
            let created = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                     configuration: try configuration(settings, for: request))
            clients.current[settings] = created
            return (created, settings)
        }
    }

    /// Counts an HTTP/2 stream a server reset for `client`; past `streamResetsPerClient` the requests after get a new
    /// client (its connections new), and this one is closed at shutdown.
    private func noteStreamReset(of client: HTTPClient, settings: ClientSettings) {
        clients.withLock { clients in
            guard clients.current[settings] === client else { return }
            let resets = clients.resets[settings, default: 0] + 1
            clients.resets[settings] = resets
            guard resets >= Self.streamResetsPerClient else { return }
            (clients.current[settings], clients.resets[settings]) = (nil, nil)
            clients.replaced.append(client)
        }
    }

    /// The configuration of a client of `settings` with its trusted files and client certificate loaded; a file that
    /// cannot be loaded fails `request`.
    private func configuration(_ settings: ClientSettings, for request: HTTPRequest) throws(HTTPError) -> HTTPClient.Configuration {
        var roots: [NIOSSLCertificate] = []
        for file in settings.trustedCertificateFiles {
            do { roots += try NIOSSLCertificate.fromPEMFile(file) } catch {
                throw HTTPError(.invalidRequest, request: request, underlyingError: error,
                                message: "cannot use the certificates of '\(file)' for \(request.displayURL): \(error)")
            }
        }
        // Across the files: a renewed root in `SSL_CERT_FILE` replaces its expired one in `--cacert`, and the other way.
        roots = TrustRoots.current(roots)
        var identity: ClientIdentity?
        if let certificate = settings.clientCertificate {
            do { identity = try ClientIdentity.load(certificate) } catch {
                // The file as its request names it is in the diagnostic the run makes of this error (at its option).
                let file = error.file == .certificate ? "its certificate file" : "its key file"
                throw HTTPError(.invalidRequest, request: request, underlyingError: error,
                                message: "cannot use the client certificate for \(request.displayURL): \(file) \(error.message); "
                                    + "the request was not sent")
            }
        }
        return Self.configuration(settings, roots: roots, identity: identity, connectionsPerHost: connectionsPerHost)
    }

    /// The configuration of a client of `settings`, trusting `roots` besides the system's and presenting `identity`.
    private static func configuration(
        _ settings: ClientSettings, roots: [NIOSSLCertificate], identity: ClientIdentity?, connectionsPerHost: Int
    ) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            // The host is checked by `CertificateIdentity` (NIOSSL's check compares addresses with the socket's).
            certificateVerification: settings.insecure ? .none : settings.verifiedHost == nil ? .fullVerification : .noHostnameVerification,
            redirectConfiguration: .disallow,
            decompression: .enabled(limit: .none))
        configuration.httpVersion = .automatic
        if let host = settings.verifiedHost {
            configuration.http1_1ConnectionDebugInitializer = { channel in
                CertificateIdentity.check(channel, host: host).flatMap { ResponseHeadGuard.install(on: channel) }
            }
            configuration.http2ConnectionDebugInitializer = { CertificateIdentity.check($0, host: host) }
        } else {
            configuration.http1_1ConnectionDebugInitializer = ResponseHeadGuard.install
        }
        configuration.http2StreamChannelDebugInitializer = ResponseHeadGuard.installOnStream
        // No tracing: the client would otherwise start a span (of the global no-op tracer) and set its attributes
        // for every request.
        configuration.tracing.tracer = nil
        // An attempt to connect (TCP, the proxy's CONNECT, the TLS handshake) outlives a cancelled or timed-out
        // request until this timeout (30 s when none is set), and shutting the client down waits for it.
        if let connectTimeout = settings.connectTimeout { configuration.timeout.connect = timeAmount(connectTimeout) }
        // A connection the client ends (at the size cap, a deadline, cancellation) closes right after its
        // close_notify, as a cleartext one closes at once, instead of reading on, for up to NIOSSL's default of
        // five seconds, whatever the server still sends until its own close_notify.
        var tls = configuration.tlsConfiguration ?? .makeClientConfiguration()
        tls.shutdownTimeout = .zero
        if !roots.isEmpty { tls.additionalTrustRoots = [.certificates(roots)] }
        if let identity {
            tls.certificateChain = identity.chain.map { .certificate($0) }
            tls.privateKey = .privateKey(identity.key)
        }
        configuration.tlsConfiguration = tls
        if let proxy = settings.proxy {
            configuration.proxy = .server(host: proxy.host, port: proxy.port,
                                          authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
        }
        // A failed connect fails the request at once; the retry loader decides about trying again.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
        return configuration
    }

    /// The AsyncHTTPClient request for `request`: its URL, method, `headersForTransport` (what `--verbose` shows;
    /// the client adds `Host` and the framing) and encoded body.
    private static func clientRequest(for request: HTTPRequest) throws(HTTPError) -> HTTPClient.Request {
        guard let scheme = request.scheme?.lowercased(), scheme == "http" || scheme == "https",
              request.host?.isEmpty == false, let url = request.url
        else {
            throw HTTPError(.invalidRequest, request: request,
                            message: "\(request.displayURL) is not an absolute http or https URL")
        }
        // Checked where each URL is written or built; here for every request (AsyncHTTPClient traps on such a port).
        if let problem = request.components.portProblem {
            throw HTTPError(.invalidRequest, request: request, message: "\(request.displayURL): \(problem)")
        }
        let body: Data
        do { body = try request.body.encode() } catch {
            throw HTTPError(.invalidRequest, request: request, underlyingError: error,
                            message: "the body of \(request.method) \(request.displayURL) could not be encoded: \(error)")
        }
        let fields = request.headersForTransport
        var headers = NIOHTTP1.HTTPHeaders()
        headers.reserveCapacity(fields.count + 3)
        for field in fields { headers.add(name: field.name, value: field.value) }
        do {
            return try HTTPClient.Request(url: url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue), headers: headers,
                                          body: body.isEmpty ? nil : .bytes(body))
        } catch {
            throw TransportErrorMapping.httpError(for: error, request: request)
        }
    }

    /// A byte count for a message: "10 MiB (10485760 bytes)" for whole mebibytes, else "100000 bytes".
    static func byteCount(_ bytes: Int) -> String {
        let mebibyte = 1024 * 1024
        return bytes >= mebibyte && bytes % mebibyte == 0 ? "\(bytes / mebibyte) MiB (\(bytes) bytes)" : "\(bytes) bytes"
    }
}

/// What is told when the transport writes a request's head on its connection (`HTTPClientTransport.writes`).
public protocol RequestWrites: AnyObject, Sendable {
    /// The head of a request was written (on an event loop; again for each hop or sending of it).
    func headWritten()
}

/// Collects a response on the event loop, failing as soon as the body would pass `maxResponseBytes`
/// (at once when the Content-Length of an uncompressed body says so).
final class CappedBodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer)

    private let limit: ResponseSizeLimit
    // Touched only on the request's event loop, one callback at a time.
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    /// Whether the client wrote the request's head on a connection; read once the request has ended.
    private(set) var sentHead = false
    /// Whether the client wrote the whole request; read once the request has ended.
    private var sentAll = false

    private let writes: (any RequestWrites)?

    init(request: HTTPRequest, writes: (any RequestWrites)? = nil) {
        limit = ResponseSizeLimit(request: request)
        self.writes = writes
    }

    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        sentHead = true
        writes?.headWritten()
    }

    func didSendRequest(task: HTTPClient.Task<Response>) {
        sentAll = true
    }

    /// The response's head and the body that came with it, once a head came; read once the request has ended.
    var arrived: Response? { head.map { ($0, body) } }

    /// How much of a response cut short came: `the response began (status 200), its body did not complete (101 of its 1000
    /// bytes came)` (of its Content-Length when it is not encoded; else the bytes decoded, said so).
    static func began(_ arrived: Response) -> String {
        let encoded = arrived.head.headers.first(name: "Content-Encoding") != nil
        let declared = encoded ? nil : arrived.head.headers.first(name: "Content-Length").flatMap(Int.init)
        let came = declared.map { "\(arrived.body.readableBytes) of its \($0) bytes came" }
            ?? "\(arrived.body.readableBytes) bytes of it came\(encoded ? ", once decoded" : "")"
        return "the response began (status \(arrived.head.status.code)), its body did not complete (\(came))"
    }

    /// How far the exchange had come, for a timeout's message (read once the request has ended): `https` says whether a
    /// TLS handshake was part of making the connection.
    func progress(https: Bool, proxied: Bool) -> String {
        if let arrived { return Self.began(arrived) }
        if sentAll { return "the request was sent, no complete response head came" }
        if sentHead { return "the request's head was sent, its body was not all sent" }
        // Through a proxy, the tunnel: reaching the proxy, then its answer to the CONNECT (AsyncHTTPClient tells neither).
        let connection = proxied ? "the tunnel through the proxy (its connection, or its answer to the CONNECT)" : "the connection"
        return https ? "the request was not sent: \(connection) or its TLS handshake did not complete"
            : "the request was not sent: \(connection) was not made"
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        do { try limit.checkDeclaredLength(of: head) } catch { return task.eventLoop.makeFailedFuture(error) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        do {
            try limit.checkGrowth(received: body.readableBytes, partSize: part.readableBytes,
                                  encoding: head?.headers.first(name: "Content-Encoding"))
        } catch {
            // What fits is kept: the body that came, up to the limit, shows with the error.
            body.writeBytes(part.readableBytesView.prefix(max(0, limit.maxBytes - body.readableBytes)))
            return task.eventLoop.makeFailedFuture(error)
        }
        var part = part
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return (head, body)
    }
}

/// Translates AsyncHTTPClient and SwiftNIO errors into `HTTPError` codes with readable messages, by their types.
enum TransportErrorMapping {
    /// The `HTTPError` for a failure of AsyncHTTPClient or SwiftNIO.
    static func httpError(for error: any Error, request: HTTPRequest, proxy: HTTPProxy? = nil) -> HTTPError {
        if let proxy, let clientError = error as? HTTPClientError {
            if clientError == .proxyAuthenticationRequired { return proxyAuthenticationRequired(proxy, request: request) }
            if clientError == .invalidProxyResponse {
                return HTTPError(.cannotConnect, request: request, underlyingError: error,
                                 message: "the proxy \(proxy.authority) refused the tunnel to \(authority(of: request))").atTheProxy
            }
        }
        let (code, detail) = classify(error)
        if let proxy, code == .cannotConnect, ![closedEarly, reset, closedConnecting].contains(detail), !detail.hasPrefix(streamReset) {
            return HTTPError(code, request: request, underlyingError: error,
                             message: "could not connect to the proxy \(proxy.authority): \(detail)").atTheProxy
        }
        let target = request.displayURL
        let through = proxy.map { " through the proxy \($0.authority)" } ?? ""
        let message: String = switch code {
        case _ where detail == closedEarly:
            "the connection to \(authority(of: request))\(through) closed before the response from \(target) was complete"
        case _ where detail == reset:
            "the connection to \(authority(of: request))\(through) was reset before the response from \(target) was complete"
        case _ where detail.hasPrefix(streamReset):
            "the server reset the HTTP/2 stream of the request to \(target) before the response was complete "
                + detail.dropFirst(streamReset.count).trimmingCharacters(in: .whitespaces)
        case _ where detail == closedConnecting:
            connectingSteps(request, proxy).isEmpty
                ? "the connection to \(authority(of: request)) \(closedOrReset(error)) before the request to \(target) was sent"
                : "the connection to \(authority(of: request))\(through) \(closedOrReset(error)) while it was being made"
                    + "\(connectingSteps(request, proxy)): the request to \(target) was not sent"
        case .cancelled: "the request to \(target) was cancelled"
        case .cannotConnect: "could not connect to \(authority(of: request)): \(detail)"
        // As the timeout loader says it, so that `--verbose` shows a timed-out hop as the reports do.
        case .timedOut: "no complete response from \(target)\(through) \(request.options.timeout.map { "within \($0.readable)" } ?? "in time"): \(detail)"
        case .insecureConnection:
            tlsMessage(reason: (error as? NIOSSLExtraError) != .failedToValidateHostname ? boringSSLReason(of: error) ?? detail
                           : request.hostAsSent.map(CertificateIdentity.isAddress) == true ? addressMismatch : hostnameMismatch,
                       server: authority(of: request))
        // Framed as HTTP, its body undecodable (a gzip stream cut short, data that is not what Content-Encoding says).
        case .invalidResponse where error is NIOHTTPDecompression.DecompressionError || error is NIOHTTPDecompression.ExtraDecompressionError:
            "the body of the response from \(target) could not be decoded: \(detail)"
        case .invalidResponse: "the response from \(target) was not valid HTTP: \(detail)"
        case .invalidRequest: "the request to \(target) is invalid: \(detail)"
        default: "the request to \(target) failed: \(detail)"
        }
        return HTTPError(code, request: request, underlyingError: error, message: message)
    }

    /// The error for a proxy that refused a tunnel with a status other than 407, naming the status and carrying the
    /// proxy's answer (which `--verbose` shows) when a second `CONNECT` gets it (AsyncHTTPClient keeps neither).
    static func tunnelRefused(by proxy: HTTPProxy, request: HTTPRequest, underlyingError: any Error) async -> HTTPError {
        let target = authority(of: request)
        let answer = await tunnelAnswer(of: proxy, for: request)
        // What to check, by the proxy's status: its credentials (401), the target behind it (5xx), else its rules.
        let hint = switch answer?.response.status.code ?? 0 {
        case 401: "check the user and password in the proxy URL"
        case 500...599: "the proxy could not reach \(target): check that the server is up and that the proxy can reach it"
        default: "check that the proxy allows CONNECT to this host and port, or reach it directly with NO_PROXY or proxy: none"
        }
        var error = HTTPError(.cannotConnect, request: request, underlyingError: underlyingError,
                              message: "the proxy \(proxy.authority) refused the tunnel to \(target)"
                                  + (answer.map { ": \($0.status)" } ?? "") + "; " + hint)
        error.response = answer?.response
        return error.atTheProxy
    }

    /// The proxy's answer to a second `CONNECT` to the request's host and port, with that `CONNECT` (AsyncHTTPClient keeps
    /// neither when it refuses a tunnel), so that `--verbose` shows what was written and not the request, which was not.
    static func tunnelAnswer(of proxy: HTTPProxy, for request: HTTPRequest) async -> ProxyTunnelProbe.Answer? {
        guard let endpoint = endpoint(of: request) else { return nil }
        return await ProxyTunnelProbe.answer(of: proxy, toTunnelTo: endpoint)
    }

    /// The error for a proxy that answered 407: its credentials are missing or wrong.
    static func proxyAuthenticationRequired(_ proxy: HTTPProxy, request: HTTPRequest) -> HTTPError {
        HTTPError(.invalidRequest, request: request,
                  message: "the proxy \(proxy.authority) requires authentication (407 Proxy Authentication Required): "
                      + (proxy.username == nil ? "give its user and password in the proxy URL" : "it refused the user and password given"))
            .atTheProxy
    }

    /// For a certificate BoringSSL could not verify, what its dates say, read by `CertificateValidityProbe`: expired, not
    /// valid yet, or within its dates (so its authority is not trusted here); nil for other errors, or when the server
    /// sent no certificates to the probe (which goes through `proxy`'s tunnel, as the request did).
    static func unverifiedCertificateMessage(for error: any Error, request: HTTPRequest,
                                             proxy: HTTPProxy?) async -> (message: String, notTrusted: Bool)? {
        guard boringSSLReason(of: error) == "CERTIFICATE_VERIFY_FAILED", let endpoint = endpoint(of: request),
              let finding = await CertificateValidityProbe.finding(for: endpoint, through: proxy,
                                                                   trustedFiles: request.options.trustedCertificateFiles)
        else { return nil }
        let server = authority(of: request)
        let whose = { (position: Int) in
            position == 0 ? "the certificate of \(server)" : "a certificate of the authorities in the chain of \(server) (number \(position + 1))"
        }
        let utc = { (date: Date) in date.formatted(.iso8601) }
        // `dir/../ca.pem`, as joined to the environment's folder, as the path it comes to.
        let shown = { (file: String) in URL(fileURLWithPath: file).standardized.path }
        if case .withinDates = finding { return (untrusted(server, trusting: request.options.trustedCertificateFiles), true) }
        let message: String = switch finding {
        case .expired(let date, let position):
            "\(whose(position)) expired at \(utc(date)): the server must be given a renewed one (if its authority is not trusted "
                + "here either, trust it with `caCert`; or set `insecure: true` only for a server you trust)"
        case .notYetValid(let date, let position):
            "\(whose(position)) is valid only from \(utc(date)): check this machine's clock, and the dates of the server's certificate"
        case .trustedAuthorityOutsideDates(let file, true, let date):
            "the authority that issued the certificate of \(server), trusted from '\(shown(file))', expired at \(utc(date)): trust its "
                + "renewed certificate with `caCert` (or `--cacert`)"
        case .trustedAuthorityOutsideDates(let file, false, let date):
            "the authority that issued the certificate of \(server), trusted from '\(shown(file))', is valid only from \(utc(date)): "
                + "check this machine's clock, and the dates of that authority's certificate"
        case .withinDates: untrusted(server, trusting: request.options.trustedCertificateFiles)
        }
        return (message, false)
    }

    /// A certificate within its dates that no trusted authority issued: which files were trusted besides the system's, and
    /// what a trust anchor must be (the root of the chain: an intermediate alone is not one).
    static func untrusted(_ server: String, trusting files: [String]) -> String {
        let shown = files.map { "'\(URL(fileURLWithPath: $0).standardized.path)'" }
        guard !shown.isEmpty else {
            return "the certificate of \(server) is not trusted: it is self-signed or signed by an authority not trusted here; trust its "
                + "authority with `caCert` (or `--cacert`), or set `insecure: true` only for servers you trust"
        }
        return "the certificate of \(server) is not trusted: no authority in \(shown.joined(separator: " or ")) nor the system's issued "
            + "it (it is self-signed, or its authority is another; an intermediate authority alone is not trusted: the root of the "
            + "chain is); give the authority that issued it, the root of its chain, in the file `caCert` (or `--cacert`) names, or "
            + "set `insecure: true` only for servers you trust"
    }

    /// What a failed TLS handshake means, from its BoringSSL reason: an untrusted certificate, a server
    /// without TLS, or another failure named by its reason.
    private static func tlsMessage(reason: String, server: String) -> String {
        switch reason {
        case "CERTIFICATE_VERIFY_FAILED":
            "the certificate of \(server) is not trusted: it is self-signed or signed by an authority not trusted here, "
                + "or expired or not valid yet; trust its authority with `caCert` (or `--cacert`), or set "
                + "`insecure: true` only for servers you trust"
        case "TLSV1_ALERT_CERTIFICATE_REQUIRED", "TLSV13_ALERT_CERTIFICATE_REQUIRED":
            "the server \(server) requires a client certificate (TLS alert: certificate required); give one with "
                + "`options.clientCert` (its cert and key files) in the request or the environment"
        case "SSLV3_ALERT_HANDSHAKE_FAILURE":
            "the server \(server) refused the TLS handshake (TLS alert: handshake failure): a server says so when it requires "
                + "a client certificate and was given none, or one it does not accept (give one with `options.clientCert`), "
                + "or when it accepts none of this client's TLS versions and ciphers"
        case "TLSV1_ALERT_UNKNOWN_CA":
            "the server \(server) did not accept the client certificate (TLS alert: unknown CA): it does not trust the authority "
                + "that issued it; give `options.clientCert` a certificate issued by an authority the server trusts"
        case "SSLV3_ALERT_BAD_CERTIFICATE", "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE", "SSLV3_ALERT_CERTIFICATE_REVOKED",
             "SSLV3_ALERT_CERTIFICATE_EXPIRED", "SSLV3_ALERT_CERTIFICATE_UNKNOWN", "TLSV1_ALERT_ACCESS_DENIED",
             "TLSV1_ALERT_DECRYPT_ERROR":
            "the server \(server) did not accept the client certificate (TLS alert: \(alertName(reason))); check the "
                + "certificate `options.clientCert` gives: its dates, its use (client authentication) and who issued it"
        case hostnameMismatch:
            "the certificate of \(server) was issued for another host name: reach the server by a name its certificate "
                + "lists (its subject alternative names), or have it give a certificate for this name"
        case addressMismatch:
            "the certificate of \(server) does not list this address among its IP addresses: reach the server by a name or "
                + "address its certificate lists (its subject alternative names), or have it give a certificate for this address"
        case "WRONG_VERSION_NUMBER":
            "the TLS handshake with \(server) failed (WRONG_VERSION_NUMBER): the server does not speak TLS on "
                + "this port; check the scheme (http or https) and the port"
        default: "the TLS handshake with \(server) failed: \(reason)"
        }
    }

    /// An alert's name in words: `SSLV3_ALERT_BAD_CERTIFICATE` as "bad certificate".
    private static func alertName(_ reason: String) -> String {
        reason.split(separator: "_").drop { $0 != "ALERT" }.dropFirst().joined(separator: " ").lowercased()
    }

    /// The reason BoringSSL gave for a TLS failure, e.g. `CERTIFICATE_VERIFY_FAILED`, or nil when the error
    /// carries no BoringSSL error stack. BoringSSL puts its reason only in the text of each error on the
    /// stack (`error:…:SSL routines:OPENSSL_internal:REASON at file:line`); the first that names one is taken.
    static func boringSSLReason(of error: any Error) -> String? {
        let stack: NIOBoringSSLErrorStack
        switch error {
        case NIOSSLError.handshakeFailed(let failure), NIOSSLError.shutdownFailed(let failure): return boringSSLReason(of: failure)
        case BoringSSLError.sslError(let errors), BoringSSLError.unknownError(let errors),
             BoringSSLError.invalidSNIName(let errors), BoringSSLError.failedToSetALPN(let errors):
            stack = errors
        default: return nil
        }
        let marker = "OPENSSL_internal:"
        for entry in stack {
            let text = entry.description
            guard let start = text.range(of: marker)?.upperBound else { continue }
            let rest = text[start...]
            let reason = rest.prefix { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
            // A system error's words (`Too many open files`, out of file descriptors), not a reason's name: whole.
            if let next = rest.dropFirst(reason.count).first, next.isLowercase {
                let words = rest.range(of: " at ").map { rest[..<$0.lowerBound] } ?? rest
                return words.prefix(1).lowercased() + words.dropFirst()
            }
            if !reason.isEmpty { return String(reason) }
        }
        return nil
    }

    /// The detail that stands for a connection closed while the response was still arriving.
    private static let closedEarly = "closed early"
    /// The detail that stands for a connection reset by the other end once it was made.
    private static let reset = "reset"
    /// An HTTP/2 error code as RFC 9113 (section 7) names it: `INTERNAL_ERROR`.
    private static func errorName(_ code: HTTP2ErrorCode) -> String {
        let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
                     "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
                     "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
        return names.indices.contains(code.networkCode) ? names[code.networkCode] : "error code \(code.networkCode)"
    }

    /// The detail that starts the one of an HTTP/2 stream the other end reset (`RST_STREAM`) before its response was
    /// complete, its error code after it.
    private static let streamReset = "stream reset"
    /// The detail that stands for a connection that ended before anything was sent on it: while its proxy tunnel or TLS
    /// handshake was being made, or before the request was written.
    private static let closedConnecting = "closed while connecting"
    /// The reason given for a certificate that does not name the host reached.
    private static let hostnameMismatch = "HOSTNAME_MISMATCH"
    /// The same, for a URL that names the server by its IP address.
    private static let addressMismatch = "ADDRESS_MISMATCH"

    /// `host:port` of the request, the port filled in from the scheme when the URL has none.
    private static func authority(of request: HTTPRequest) -> String {
        endpoint(of: request).map { "\($0.host):\($0.port)" } ?? request.displayURL
    }

    /// The host (as sent) and port a request goes to (the scheme's default port when it names none).
    private static func endpoint(of request: HTTPRequest) -> (host: String, port: Int)? {
        request.hostAsSent.map { ($0, request.effectivePort) }
    }

    /// How a connection that ended before anything was sent ended: "was reset" (by the other end, as `classify` tells a
    /// reset) or "closed".
    private static func closedOrReset(_ error: any Error) -> String {
        let underlying = (error as? HTTPClientTransport.ClosedWhileConnecting)?.underlying
        return underlying.map { classify($0).1 == reset } == true ? "was reset" : "closed"
    }

    /// The steps of making a request's connection after TCP, in brackets: ` (the tunnel or the TLS handshake)`.
    private static func connectingSteps(_ request: HTTPRequest, _ proxy: HTTPProxy?) -> String {
        let steps = [proxy == nil ? nil : "the tunnel", request.usesTLS ? "the TLS handshake" : nil].compactMap { $0 }
        return steps.isEmpty ? "" : " (\(steps.joined(separator: " or ")))"
    }

    /// Whether an error is of a type the mapping does not know (and is not AsyncHTTPClient's public error).
    static func isUnknown(_ error: any Error) -> Bool {
        !(error is HTTPClientError) && classify(error).0 == .unknown
    }

    /// The code and a short detail for an error, by its type.
    private static func classify(_ error: any Error) -> (HTTPError.Code, String) {
        if error is CancellationError || Task.isCancelled { return (.cancelled, "cancelled") }
        switch error {
        case let error as HTTPClientError: return classify(error)
        case let error as HTTPClientTransport.DeadlinePassed: return (.timedOut, error.phase)
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE: return (.cannotConnect, reset)
        case let error as IOError: return (.cannotConnect, reason(errno: error.errnoCode))
        case ChannelError.connectTimeout: return (.cannotConnect, "connect timed out")
        case is ChannelError: return (.cannotConnect, "\(error)")
        // The connection broke while the response came: a connection failure (retried `on: connection`).
        case HTTPParserError.invalidEOFState: return (.cannotConnect, closedEarly)
        // Over HTTP/2 the server (or a proxy in front of it) reset the response's stream: a connection failure too.
        case let error as NIOHTTP2Errors.StreamClosed: return (.cannotConnect, streamReset + " (\(errorName(error.errorCode)))")
        case let error as HTTPParserError: return (.invalidResponse, words(for: error))
        case let error as ResponseHeadGuard.StatusBelow100: return (.invalidResponse, error.description)
        case let error as NIOConnectionError:
            // No address to try: both lookups failed (NIO's text is "DNS error: SocketAddressError.UnknownHost: …").
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return (.cannotConnect, unresolved(error.host))
            }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return (.cannotConnect, refused ? reason(errno: ECONNREFUSED) : "\(error)")
        case let error as SocketAddressError.UnknownHost: return (.cannotConnect, unresolved(error.host))
        case is SocketAddressError, is SocketAddressError.FailedToParseIPByteBuffer:
            return (.cannotConnect, "\(error)")
        // After the handshake (NIOSSL says handshakeFailed before it): the connection ended without TLS's close_notify.
        case NIOSSLError.uncleanShutdown: return (.cannotConnect, closedEarly)
        case NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake])), is HTTPClientTransport.ClosedWhileConnecting:
            return (.cannotConnect, closedConnecting)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError, is NIOSSLCloseTimedOutError, is NIOTLSUnwrappingError:
            return (.insecureConnection, "\(error)")
        case NIOHTTPDecompression.DecompressionError.inflationError, NIOHTTPDecompression.DecompressionError.initializationError:
            return (.invalidResponse, "its body is not the gzip or deflate data its Content-Encoding says")
        case let error as NIOHTTPDecompression.ExtraDecompressionError where error == .truncatedData:
            return (.invalidResponse, "its gzip or deflate body ends before its compressed data does")
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return (.invalidResponse, "\(error)")
        default: return (.unknown, "\(error)")
        }
    }

    /// AsyncHTTPClient's refusals of the request's header names and values (errors that carry the names or values, so
    /// told apart by their kind's `shortDescription`).
    private static let invalidHeaderKinds: Set<String> = [
        HTTPClientError.invalidHeaderFieldNames([]).shortDescription,
        HTTPClientError.invalidHeaderFieldValues([]).shortDescription,
    ]

    /// The code and a short detail for an AsyncHTTPClient error, by its value.
    private static func classify(_ error: HTTPClientError) -> (HTTPError.Code, String) {
        switch error {
        case .cancelled: (.cancelled, "cancelled")
        case .connectTimeout: (.cannotConnect, "connect timed out")
        case .readTimeout: (.timedOut, "no data arrived in time")
        case .writeTimeout: (.timedOut, "the request could not be written in time")
        case .deadlineExceeded: (.timedOut, "the deadline passed")
        case .remoteConnectionClosed: (.cannotConnect, closedEarly)
        case .invalidURL, .emptyHost, .emptyScheme, .traceRequestWithBody:
            (.invalidRequest, "\(error)")
        case .tlsHandshakeTimeout: (.insecureConnection, "TLS handshake timed out")
        case .httpProxyHandshakeTimeout: (.cannotConnect, "no answer to CONNECT in time")
        // The request's own head (AsyncHTTPClient checks it before sending): nothing was sent.
        case _ where invalidHeaderKinds.contains(error.shortDescription):
            (.invalidRequest, "a header name or value holds a character HTTP does not allow")
        default: (.unknown, "\(error)")
        }
    }

    /// What the HTTP parser found wrong, in words where its own name for it is its code's (`invalid constant string`).
    private static func words(for error: HTTPParserError) -> String {
        switch error {
        case .invalidConstant: "it does not start with a status line such as HTTP/1.1 200 OK"
        case .lfExpected: "a line of its head does not end in CR LF"
        case .closedConnection: "it sent more bytes after an answer that said the connection closes (Connection: close), as "
            + "a server that answers only with an interim status (100 Continue) does"
        case .unknown: "its head could not be read as HTTP/1.1 (a line that does not end in CR LF, or both Transfer-Encoding and "
            + "Content-Length)"
        default: "\(error)"
        }
    }

    /// The detail for a host name that resolved to no address.
    private static func unresolved(_ host: String) -> String { "the host name '\(host)' could not be resolved" }

    /// A short lower-case reason for a socket error number, e.g. "connection refused".
    private static func reason(errno code: Int32) -> String { SystemErrorText.words(code) }
}
