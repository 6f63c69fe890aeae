internal import LoopbackHTTP
internal import NIOCore
internal import NIOSSL

/// The demo API: a small in-memory service on 127.0.0.1 to run the example collection against.
///
/// Routes (under `/api` unless noted): `POST /login`, `GET|POST /users`, `GET|PUT|DELETE /users/{id}`,
/// `POST /uploads`, `POST /oauth/token`, `GET /reports/daily`, `GET /limited`, `GET /flaky`,
/// `GET /old-page` (301 to `/page`), `GET /page`, `GET /slow?ms=N`, `GET /health`.
public final class DemoServer: Sendable {
    /// PEM files of a certificate chain and its private key, for serving HTTPS.
    public struct TLSFiles: Sendable {
        public var certificateChain: String
        public var privateKey: String

        public init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    private let server: LoopbackServer
    /// "http", or "https" when serving TLS.
    private let scheme: String

    private init(server: LoopbackServer, scheme: String) {
        self.server = server
        self.scheme = scheme
    }

    /// Starts the demo API on 127.0.0.1 and `port` (0: a free port the system picks), over HTTPS (HTTP/1.1)
    /// with the certificate and key of `tls` when given.
    public static func start(port: Int = 0, settings: DemoSettings = .fromEnvironment(), tls: TLSFiles? = nil) async throws -> DemoServer {
        let router = DemoRouter(settings: settings)
        var addTLS: (@Sendable (any Channel) throws -> Void)?
        if let tls {
            let context = try NIOSSLContext(configuration: serverConfiguration(tls))
            addTLS = { channel in try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
        }
        let server = try await LoopbackServer.start(host: "127.0.0.1", port: port, prepareConnection: addTLS) { request, writer in
            router.respond(to: request, with: writer)
        }
        return DemoServer(server: server, scheme: tls == nil ? "http" : "https")
    }

    /// A TLS server configuration presenting the certificate chain and key of `files`.
    private static func serverConfiguration(_ files: TLSFiles) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    }

    /// The port the server listens on.
    public var port: Int {
        server.port
    }

    /// The server's root URL, e.g. "http://127.0.0.1:8080" (or "https://…" when serving TLS).
    public var baseURL: String {
        "\(scheme)://\(server.host):\(port)"
    }

    /// Closes the listener and every open connection; calling it again does nothing.
    public func stop() async throws {
        try await server.stop()
    }
}
