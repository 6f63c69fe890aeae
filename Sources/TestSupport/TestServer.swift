public import LoopbackHTTP
internal import NIOCore

/// A real HTTP/1.1 server inside the test process, on 127.0.0.1 and a free port, with routes for client tests.
///
/// Start it with `TestServer.start()`, always `stop()` it. Both `localhost` and `127.0.0.1` reach it when
/// `localhost` resolves to 127.0.0.1 (as on Linux); clients that try `::1` first fall back to 127.0.0.1.
///
/// Routes (keep-alive everywhere; Content-Length bodies unless noted):
/// `/echo` (any method, JSON of the request), `/status/{code}?header=N:V`, `/wait/{ms}`,
/// `/redirect/{code}?to=URL`, `/redirect/chain/{n}`, `/redirect/cycle` ⇄ `/redirect/cycle/b`,
/// `/redirect/cross?to=localhost|127.0.0.1&path=/echo` (all take `?code=`, default 302),
/// `/basic-auth/{user}/{pass}`, `/bearer/{token}`, `POST /oauth/token[?expires_in=S]`, `/oauth/protected`,
/// `/retry-after/{s}?key=K&times=N`, `/fail-then-succeed/{key}/{n}?status=503`, `/set-cookie?n=v`,
/// `/set-cookie/redirect?to=PATH&n=v`, `/headers?N=V`, `/json/{users|user|empty|types|nested}`, `/xml/{slides|feed}`,
/// `/text`, `/html`, `/close-mid-body`, `/cut-echo?trim=N`, `/wrong-length`, `/overlong-body`, `/raw-status/{code}` (as written, `099`),
/// `/not-modified/{length}`, `/drip?bytes=N&interval_ms=M`, `/stall`, `/chunked?chunks=N&size=S` (chunked), `/large/{bytes}`,
/// `/large-chunked/{bytes}` (chunked), `/gzip`, `/gzip-bomb?bytes=N`,
/// `/hostile?nul=1&json=1` (markup, `]]>`, NUL and terminal escapes in the body); anything else is 404.
public final class TestServer: Sendable {
    /// The client id `/oauth/token` accepts.
    public static let oauthClientID = "test-client"
    /// The client secret `/oauth/token` accepts.
    public static let oauthClientSecret = "test-secret"

    /// "http", or "https" for a TLS server.
    public let scheme: String
    /// The host the server listens on.
    public var host: String { server.host }
    /// The port the server listens on, chosen by the system.
    public var port: Int { server.port }

    private let server: LoopbackServer
    private let state: ServerState

    private init(scheme: String, server: LoopbackServer, state: ServerState) {
        self.scheme = scheme
        self.server = server
        self.state = state
    }

    /// Starts a server listening on `host` and a port the system picks.
    public static func start(host: String = "127.0.0.1") async throws -> TestServer {
        try await start(host: host, scheme: "http", prepareConnection: nil)
    }

    /// Starts a server whose connections pass through `prepareConnection` (e.g. a TLS handler) before HTTP,
    /// which `protocolSetup` adds.
    static func start(
        host: String, scheme: String, prepareConnection: (@Sendable (any Channel) throws -> Void)?,
        protocolSetup: @escaping LoopbackServer.ProtocolSetup = LoopbackServer.http1
    ) async throws -> TestServer {
        let state = ServerState()
        let router = Router(state: state)
        let server = try await LoopbackServer.start(host: host, prepareConnection: prepareConnection,
                                                    protocolSetup: protocolSetup) { request, writer in
            state.record(request)
            router.respond(to: request, with: writer)
        }
        return TestServer(scheme: scheme, server: server, state: state)
    }

    /// The server's root URL, e.g. "http://127.0.0.1:8080".
    public var baseURL: String {
        "\(scheme)://\(host):\(port)"
    }

    /// The absolute URL of `path` on this server; `path` should start with "/".
    public func url(_ path: String) -> String {
        baseURL + path
    }

    /// Closes the listener and every open connection (stalled ones included) and releases the threads.
    public func stop() async throws {
        try await server.stop()
    }

    /// All requests received so far, oldest first.
    public func receivedRequests() -> [RecordedRequest] {
        state.requests
    }

    /// When each received request arrived whole, oldest first.
    public func arrivalTimes() -> [ContinuousClock.Instant] {
        state.arrivals
    }

    /// How many requests arrived for exactly this path (query ignored), e.g. `count(of: "/echo")`.
    public func count(of route: String) -> Int {
        state.requests.count { $0.path == route }
    }

    /// How many requests arrived for exactly this path (query ignored); the same as `count(of:)`.
    public func requestCount(path: String) -> Int {
        count(of: path)
    }

    /// How many TCP connections the server has accepted so far (keep-alive reuse shows as fewer).
    public var connectionsAccepted: Int {
        server.connectionsAccepted
    }

    /// How many of the connections it accepted are open now.
    public var connectionsOpen: Int {
        server.connectionsOpen
    }

    /// The ids of the `/things` that exist now (created and not deleted).
    public var things: [Int] {
        state.things
    }

    /// How many OAuth tokens `/oauth/token` has issued.
    public var tokensIssued: Int {
        state.tokensIssued
    }

    /// Makes every token issued so far invalid, as if they had all expired.
    public func expireAllTokens() {
        state.expireAllTokens()
    }
}
