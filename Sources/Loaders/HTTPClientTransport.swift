public import HTTPCore
internal import AsyncHTTPClient
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression
internal import NIOPosix
internal import NIOSSL
internal import Foundation
internal import Synchronization

/// The end of the chain: sends `http://` requests over a lean SwiftNIO HTTP/1.1 client and `https://` requests
/// over AsyncHTTPClient, and reads the response body under a cap.
///
/// Cleartext requests use pooled keep-alive HTTP/1.1 connections (`HTTP1Client`), to the server or to the proxy
/// `options.proxy` chooses for it. For TLS one pooled AsyncHTTPClient (keep-alive, HTTP/1.1 and HTTP/2, certificates
/// verified against the system's roots) serves every request of the same settings: `options.insecure` (no
/// verification), `options.trustedCertificateFiles` (trusted besides the system's roots), `options.clientCertificate`
/// and the proxy (reached with `CONNECT`); the default settings' client exists from the start, the others are
/// created on first use. A client's connection attempts (TCP, the proxy's `CONNECT`, the TLS handshake) are limited
/// to the `options.timeout` of its requests, so none outlives the request that started it (AsyncHTTPClient keeps an
/// attempt going after its request ended, for 30 s by default, and its shutdown waits for it).
/// No client follows redirects (the redirect loader does). Bodies are gzip/deflate-decoded with a
/// ratio limit and read until `options.maxResponseBytes`, past which reading stops with
/// `responseTooLarge`. Call `shutdown()` when done, or use `withTransport`.
public final class HTTPClientTransport: HTTPLoader {
    private let cleartextClient: HTTP1Client
    private let secureClient: HTTPClient
    /// The clients of TLS settings other than the default's, by settings.
    private let otherClients = Mutex<[TLSSettings: HTTPClient]>([:])
    /// Which of the secure clients' connections have carried a request.
    private let connectionReuse = ConnectionReuseLog()
    private let decompressionRatio: Int

    /// Creates a transport; compressed bodies may expand at most `decompressionRatio` times.
    public convenience init(decompressionRatio: Int = 100) {
        self.init(decompressionRatio: decompressionRatio, cleartextConnectionsPerHost: 32)
    }

    /// Creates a transport that opens at most `cleartextConnectionsPerHost` `http://` connections to one host.
    init(decompressionRatio: Int, cleartextConnectionsPerHost: Int) {
        self.decompressionRatio = decompressionRatio
        cleartextClient = HTTP1Client(decompressionRatio: decompressionRatio, maxConnectionsPerHost: cleartextConnectionsPerHost)
        secureClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                  configuration: Self.configuration(tls: nil, connectTimeout: nil, decompressionRatio: decompressionRatio))
    }

    /// Runs `body` with a new transport and shuts it down afterwards, also when `body` throws.
    public static func withTransport<T: Sendable>(
        decompressionRatio: Int = 100, _ body: (HTTPClientTransport) async throws -> T
    ) async throws -> T {
        let transport = HTTPClientTransport(decompressionRatio: decompressionRatio)
        do {
            let result = try await body(transport)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// Executors for `count` tasks that send requests through this transport, spread over the event loops of its
    /// `http://` connections: a task on one is given connections on its loop, so its responses need no thread
    /// hop. A task on one should not run long without waiting: it holds up the other connections on its loop.
    @available(macOS 15, *)
    public func workerExecutors(_ count: Int) -> [any TaskExecutor] {
        let loops = cleartextClient.eventLoops
        return (0..<count).map { LoopExecutor(loop: loops[$0 % loops.count]) }
    }

    /// Closes every pooled connection; the transport cannot be used afterwards. A connection attempt still under way
    /// (its request was cancelled) is not waited for past `attemptGrace`: it ends by its connect timeout, in the
    /// background.
    public func shutdown(attemptGrace: Duration = .milliseconds(500)) async throws {
        let others = otherClients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        let secureClosed = ([secureClient] + others).map { $0.shutdown() }
        await cleartextClient.shutdown()
        let loop = secureClosed[0].eventLoop
        let closed = EventLoopFuture.andAllSucceed(secureClosed, on: loop)
        // Whichever comes first: every client closed, or the grace period over (a second completion is ignored).
        let done = loop.makePromise(of: Void.self)
        closed.cascade(to: done)
        let grace = loop.scheduleTask(in: Self.timeAmount(attemptGrace)) { done.succeed() }
        closed.whenComplete { _ in grace.cancel() }
        try await done.futureResult.get()
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let (route, headers, body) = try Self.clientRequestParts(for: request)
        let proxy = Self.proxy(for: request)
        let startedAt = Date()
        let start = ContinuousClock.now
        do {
            let (head, received) = try await send(request, route: route, headers: headers, body: body, proxy: proxy)
            if let proxy, head.status == .proxyAuthenticationRequired {
                throw TransportErrorMapping.proxyAuthenticationRequired(proxy, request: request)
            }
            return HTTPResponse(
                request: request, status: HTTPStatus(Int(head.status.code)),
                headers: HTTPHeaders(head.headers.map { ($0.name, $0.value) }),
                body: received.withUnsafeReadableBytes { Data($0) }, startedAt: startedAt, duration: start.duration(to: .now))
        } catch let error as HTTPError {
            throw error
        } catch {
            if let proxy, (error as? HTTPClientError) == .invalidProxyResponse {
                throw await TransportErrorMapping.tunnelRefused(by: proxy, request: request, underlyingError: error)
            }
            throw TransportErrorMapping.httpError(for: error, request: request, decompressionRatio: decompressionRatio, proxy: proxy)
        }
    }

    /// The proxy the request goes through, nil when it goes directly.
    private static func proxy(for request: HTTPRequest) -> HTTPProxy? {
        guard let settings = request.options.proxy, let scheme = request.scheme?.lowercased(), let host = request.host else { return nil }
        return settings.proxy(scheme: scheme, host: host, port: request.port ?? (scheme == "https" ? 443 : 80))
    }

    /// Which client sends a request: the cleartext HTTP/1.1 client for `http://`, AsyncHTTPClient for `https://`
    /// (with the `URL` it needs; the cleartext client needs none, which saves building one per request).
    private enum Route {
        case cleartext
        case secure(URL)
    }

    /// Sends `http://` requests over the cleartext HTTP/1.1 client, `https://` ones over AsyncHTTPClient.
    private func send(
        _ request: HTTPRequest, route: Route, headers: consuming NIOHTTP1.HTTPHeaders, body: ByteBuffer, proxy: HTTPProxy?
    ) async throws -> CappedBodyCollector.Response {
        guard case .secure(let url) = route else {
            return try await cleartextClient.execute(request, headers: headers, body: body, proxy: proxy,
                                                     deadline: request.deadline.map(Self.nioDeadline))
        }
        let outgoing = try HTTPClient.Request(url: url.absoluteString, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
                                              headers: headers, body: body.readableBytes == 0 ? nil : .byteBuffer(body))
        return try await execute(outgoing, for: request, on: try client(for: request, proxy: proxy))
    }

    /// Executes `outgoing` under the request's deadline (which covers the body too), once more on another
    /// connection when the pooled one it got was closed before any response byte arrived, as the cleartext client
    /// does: when it was closed already (nothing was sent), or when it had carried an earlier request (the server
    /// closed the idle keep-alive connection as it was handed out again, or dropped it after a response longer than
    /// its Content-Length). Task cancellation cancels the request.
    private func execute(
        _ outgoing: HTTPClient.Request, for request: HTTPRequest, on client: HTTPClient
    ) async throws -> CappedBodyCollector.Response {
        let deadline = request.deadline.map(Self.nioDeadline)
        func attempt() async throws -> CappedBodyCollector.Response {
            let collector = CappedBodyCollector(request: request)
            let connection = ConnectionReuseLog.Use()
            let task = client.execute(request: outgoing, delegate: collector, deadline: deadline,
                                      logger: connectionReuse.logger(noting: connection))
            do {
                return try await withTaskCancellationHandler {
                    try await task.futureResult.get()
                } onCancel: {
                    task.cancel()
                }
            } catch let error as HTTPClientError where error == .remoteConnectionClosed && connection.wasReused
                        && !collector.receivedHead {
                throw StaleConnectionError(underlying: error)
            }
        }
        do {
            do {
                return try await attempt()
            } catch ChannelError.ioOnClosedChannel {
                return try await attempt()
            } catch is StaleConnectionError where !Task.isCancelled {
                return try await attempt()
            }
        } catch let stale as StaleConnectionError {
            throw stale.underlying
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

    /// The TLS settings of a client: whether it verifies certificates, which files it trusts besides the system's,
    /// the client certificate it presents and the proxy it goes through; and how long its connection attempts may take.
    private struct TLSSettings: Hashable {
        var insecure: Bool
        var trustedCertificateFiles: [String]
        var clientCertificate: ClientCertificate?
        /// The proxy its connections go through (with `CONNECT`).
        var proxy: HTTPProxy?
        /// The requests' `timeout`, which limits each connection attempt (connect, `CONNECT`, TLS handshake) too.
        var connectTimeout: Duration?

        /// The settings a request asks for; the trusted files matter only while certificates are verified.
        init(_ options: HTTPRequestOptions, proxy: HTTPProxy?) {
            insecure = options.insecure
            trustedCertificateFiles = options.insecure ? [] : options.trustedCertificateFiles
            clientCertificate = options.clientCertificate
            self.proxy = proxy
            connectTimeout = options.timeout
        }

        var isDefault: Bool {
            !insecure && trustedCertificateFiles.isEmpty && clientCertificate == nil && proxy == nil && connectTimeout == nil
        }
    }

    /// The client for the request's TLS settings, created on first use; a trusted file or a client certificate that
    /// cannot be loaded fails the request.
    private func client(for request: HTTPRequest, proxy: HTTPProxy?) throws(HTTPError) -> HTTPClient {
        let settings = TLSSettings(request.options, proxy: proxy)
        guard !settings.isDefault else { return secureClient }
        if let client = otherClients.withLock({ $0[settings] }) { return client }
        var roots: [NIOSSLCertificate] = []
        for file in settings.trustedCertificateFiles {
            do { roots += try NIOSSLCertificate.fromPEMFile(file) } catch {
                throw HTTPError(.invalidRequest, request: request, underlyingError: error,
                                message: "cannot use the certificates of '\(file)' for \(request.displayURL): \(error)")
            }
        }
        var identity: ClientIdentity?
        if let certificate = settings.clientCertificate {
            do { identity = try ClientIdentity.load(certificate) } catch {
                let file = error.file == .certificate ? certificate.certificateFile : certificate.keyFile
                throw HTTPError(.invalidRequest, request: request, underlyingError: error,
                                message: "cannot use the client certificate for \(request.displayURL): '\(file)' \(error.message)")
            }
        }
        var configuration = Self.configuration(tls: settings.insecure ? .insecure : .trusting(roots),
                                               connectTimeout: settings.connectTimeout, decompressionRatio: decompressionRatio)
        if let proxy {
            configuration.proxy = .server(host: proxy.host, port: proxy.port,
                                          authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") })
        }
        if let identity {
            configuration.tlsConfiguration?.certificateChain = identity.chain.map { .certificate($0) }
            configuration.tlsConfiguration?.privateKey = .privateKey(identity.key)
        }
        return otherClients.withLock { clients in
            if let client = clients[settings] { return client }
            let created = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[settings] = created
            return created
        }
    }

    /// How a client's certificate verification differs from the default (the system's roots).
    private enum Verification {
        /// No verification.
        case insecure
        /// The system's roots and these certificates.
        case trusting([NIOSSLCertificate])
    }

    private static func configuration(
        tls verification: Verification?, connectTimeout: Duration?, decompressionRatio: Int
    ) -> HTTPClient.Configuration {
        let decompression = HTTPClient.Decompression.enabled(limit: .ratio(decompressionRatio))
        var configuration = if case .insecure = verification {
            HTTPClient.Configuration(certificateVerification: .none, redirectConfiguration: .disallow,
                                     decompression: decompression)
        } else {
            HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: decompression)
        }
        configuration.httpVersion = .automatic
        // An attempt to connect (TCP, the proxy's CONNECT, the TLS handshake) outlives a cancelled or timed-out
        // request until this timeout (30 s when none is set), and shutting the client down waits for it.
        if let connectTimeout { configuration.timeout.connect = timeAmount(connectTimeout) }
        // A connection the client ends (at the size cap, a deadline, cancellation) closes right after its
        // close_notify, as a cleartext one closes at once, instead of reading on, for up to NIOSSL's default of
        // five seconds, whatever the server still sends until its own close_notify.
        var tls = configuration.tlsConfiguration ?? .makeClientConfiguration()
        tls.shutdownTimeout = .zero
        if case .trusting(let roots) = verification, !roots.isEmpty { tls.additionalTrustRoots = [.certificates(roots)] }
        configuration.tlsConfiguration = tls
        // A failed connect fails the request at once; the retry loader decides about trying again.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        return configuration
    }

    /// The route, headers (the body's own filling gaps) and body bytes of the outgoing request.
    private static func clientRequestParts(for request: HTTPRequest) throws(HTTPError) -> (Route, NIOHTTP1.HTTPHeaders, ByteBuffer) {
        // The components form a URL exactly when they form its text, which is cheaper to ask for.
        guard let scheme = request.scheme?.lowercased(), scheme == "http" || scheme == "https",
              request.host?.isEmpty == false,
              let route = scheme == "http" ? request.components.string.map({ _ in Route.cleartext }) : request.url.map(Route.secure)
        else {
            throw HTTPError(.invalidRequest, request: request,
                            message: "\(request.displayURL) is not an absolute http or https URL")
        }
        let body: Data
        do { body = try request.body.encode() } catch {
            throw HTTPError(.invalidRequest, request: request, underlyingError: error,
                            message: "the body of \(request.method) \(request.displayURL) could not be encoded: \(error)")
        }
        // What `--verbose` shows is what is sent: `headersForTransport`, with room for the fields the clients add.
        let fields = request.headersForTransport
        var outgoing = NIOHTTP1.HTTPHeaders()
        outgoing.reserveCapacity(fields.count + 3)
        for field in fields { outgoing.add(name: field.name, value: field.value) }
        return (route, outgoing, ByteBuffer(bytes: body))
    }

    /// A byte count for a message: "10 MiB (10485760 bytes)" for whole mebibytes, else "100000 bytes".
    static func byteCount(_ bytes: Int) -> String {
        let mebibyte = 1024 * 1024
        return bytes >= mebibyte && bytes % mebibyte == 0 ? "\(bytes / mebibyte) MiB (\(bytes) bytes)" : "\(bytes) bytes"
    }
}

/// Collects a response on the event loop, failing as soon as the body would pass `maxResponseBytes`
/// (at once when the Content-Length of an uncompressed body says so).
final class CappedBodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer)

    private let limit: ResponseSizeLimit
    // Touched only on the request's event loop, one callback at a time.
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(request: HTTPRequest) {
        limit = ResponseSizeLimit(request: request)
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        do { try limit.checkDeclaredLength(of: head) } catch { return task.eventLoop.makeFailedFuture(error) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        do { try limit.checkGrowth(received: body.readableBytes, partSize: part.readableBytes) } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
        var part = part
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Whether the response head arrived; read once the request has ended.
    var receivedHead: Bool { head != nil }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return (head, body)
    }
}

/// Translates AsyncHTTPClient and SwiftNIO errors into `HTTPError` codes with readable messages, by their types.
enum TransportErrorMapping {
    /// The `HTTPError` for a failure of AsyncHTTPClient or SwiftNIO; `decompressionRatio` is the transport's
    /// limit on how many times a compressed body may inflate.
    static func httpError(for error: any Error, request: HTTPRequest, decompressionRatio: Int, proxy: HTTPProxy? = nil) -> HTTPError {
        if let proxy, let clientError = error as? HTTPClientError {
            if clientError == .proxyAuthenticationRequired { return proxyAuthenticationRequired(proxy, request: request) }
            if clientError == .invalidProxyResponse {
                return HTTPError(.cannotConnect, request: request, underlyingError: error,
                                 message: "the proxy \(proxy.authority) refused the tunnel to \(authority(of: request))")
            }
        }
        let (code, detail) = classify(error)
        if let proxy, code == .cannotConnect, detail != closedEarly {
            return HTTPError(code, request: request, underlyingError: error,
                             message: "could not connect to the proxy \(proxy.authority): \(detail)")
        }
        let target = request.displayURL
        let message: String = switch code {
        case _ where detail == closedEarly:
            "the connection to \(authority(of: request)) closed before the response from \(target) was complete"
        case .cancelled: "the request to \(target) was cancelled"
        case .cannotConnect: "could not connect to \(authority(of: request)): \(detail)"
        case .timedOut: "the request to \(target) timed out: \(detail)"
        case .insecureConnection: tlsMessage(reason: boringSSLReason(of: error) ?? detail, server: authority(of: request))
        case .responseTooLarge:
            "the response from \(target) inflates more than \(decompressionRatio) times its compressed size "
                + "(the decompression limit, against gzip bombs); reading stopped there"
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
        let answer = await ProxyTunnelProbe.answer(of: proxy, toTunnelTo: target, request: request)
        var error = HTTPError(.cannotConnect, request: request, underlyingError: underlyingError,
                              message: "the proxy \(proxy.authority) refused the tunnel to \(target)"
                                  + (answer.map { ": \($0.status)" } ?? "") + "; check that the proxy allows CONNECT to this host and port, "
                                  + "or reach it directly with NO_PROXY or proxy: none")
        error.response = answer?.response
        return error
    }

    /// The error for a proxy that answered 407: its credentials are missing or wrong.
    static func proxyAuthenticationRequired(_ proxy: HTTPProxy, request: HTTPRequest) -> HTTPError {
        HTTPError(.invalidRequest, request: request,
                  message: "the proxy \(proxy.authority) requires authentication (407 Proxy Authentication Required): "
                      + (proxy.username == nil ? "give its user and password in the proxy URL" : "it refused the user and password given"))
    }

    /// What a failed TLS handshake means, from its BoringSSL reason: an untrusted certificate, a server
    /// without TLS, or another failure named by its reason.
    private static func tlsMessage(reason: String, server: String) -> String {
        switch reason {
        case "CERTIFICATE_VERIFY_FAILED":
            "the certificate of \(server) is not trusted: it is self-signed or signed by an unknown authority, "
                + "has expired, or names another host; trust its authority with `caCert` (or `--cacert`), or set "
                + "`insecure: true` only for servers you trust"
        case "TLSV1_ALERT_CERTIFICATE_REQUIRED", "TLSV13_ALERT_CERTIFICATE_REQUIRED":
            "the server \(server) requires a client certificate (TLS alert: certificate required); give one with "
                + "`options.clientCert` (its cert and key files) in the request or the environment"
        case "WRONG_VERSION_NUMBER":
            "the TLS handshake with \(server) failed (WRONG_VERSION_NUMBER): the server does not speak TLS on "
                + "this port; check the scheme (http or https) and the port"
        default: "the TLS handshake with \(server) failed: \(reason)"
        }
    }

    /// The reason BoringSSL gave for a TLS failure, e.g. `CERTIFICATE_VERIFY_FAILED`, or nil when the error
    /// carries no BoringSSL error stack. BoringSSL puts its reason only in the text of each error on the
    /// stack (`error:…:SSL routines:OPENSSL_internal:REASON at file:line`); the first that names one is taken.
    private static func boringSSLReason(of error: any Error) -> String? {
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
            let reason = text[start...].prefix { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
            if !reason.isEmpty { return String(reason) }
        }
        return nil
    }

    /// The detail that stands for a connection closed while the response was still arriving.
    private static let closedEarly = "closed early"

    /// `host:port` of the request, the port filled in from the scheme when the URL has none.
    private static func authority(of request: HTTPRequest) -> String {
        guard let host = request.host else { return request.displayURL }
        let port = request.port ?? (request.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }

    /// The code and a short detail for an error, by its type.
    private static func classify(_ error: any Error) -> (HTTPError.Code, String) {
        if error is CancellationError || Task.isCancelled { return (.cancelled, "cancelled") }
        switch error {
        case let error as HTTPClientError: return classify(error)
        case let error as IOError: return (.cannotConnect, reason(errno: error.errnoCode))
        case ChannelError.connectTimeout: return (.cannotConnect, "connect timed out")
        case is ChannelError: return (.cannotConnect, "\(error)")
        case HTTPParserError.invalidEOFState: return (.invalidResponse, closedEarly)
        case is HTTPParserError: return (.invalidResponse, "\(error)")
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
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError, is NIOSSLCloseTimedOutError, is NIOTLSUnwrappingError:
            return (.insecureConnection, "\(error)")
        case NIOHTTPDecompression.DecompressionError.limit: return (.responseTooLarge, "\(error)")
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return (.invalidResponse, "\(error)")
        default: return (.unknown, "\(error)")
        }
    }

    /// AsyncHTTPClient's refusals of header names and values (errors that carry the names or values, so
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
        // As the cleartext client reports the same heads (`HTTP1RequestValidation`).
        case _ where invalidHeaderKinds.contains(error.shortDescription): classify(HTTPParserError.invalidHeaderToken)
        default: (.unknown, "\(error)")
        }
    }

    /// The detail for a host name that resolved to no address.
    private static func unresolved(_ host: String) -> String { "the host name '\(host)' could not be resolved" }

    /// A short lower-case reason for a socket error number, e.g. "connection refused".
    private static func reason(errno code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
