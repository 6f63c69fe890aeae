internal import LoopbackHTTP

/// The demo API: a small in-memory service on 127.0.0.1 to run the example collection against.
///
/// Routes (under `/api` unless noted): `POST /login`, `GET|POST /users`, `GET|PUT|DELETE /users/{id}`,
/// `POST /uploads`, `POST /oauth/token`, `GET /reports/daily`, `GET /limited`, `GET /flaky`,
/// `GET /old-page` (301 to `/page`), `GET /page`, `GET /slow?ms=N`, `GET /health`.
public final class DemoServer: Sendable {
    private let server: LoopbackServer

    private init(server: LoopbackServer) {
        self.server = server
    }

    /// Starts the demo API on 127.0.0.1 and `port` (0: a free port the system picks).
    public static func start(port: Int = 0, settings: DemoSettings = .fromEnvironment()) async throws -> DemoServer {
        let router = DemoRouter(settings: settings)
        let server = try await LoopbackServer.start(host: "127.0.0.1", port: port) { request, writer in
            router.respond(to: request, with: writer)
        }
        return DemoServer(server: server)
    }

    /// The port the server listens on.
    public var port: Int {
        server.port
    }

    /// The server's root URL, e.g. "http://127.0.0.1:8080".
    public var baseURL: String {
        server.baseURL
    }

    /// Closes the listener and every open connection; calling it again does nothing.
    public func stop() async throws {
        try await server.stop()
    }
}
