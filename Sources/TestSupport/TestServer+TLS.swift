internal import NIOCore
internal import NIOSSL
public import SelfSignedCertificate

/// The scheme a test server speaks: plain HTTP, or HTTPS with a self-signed certificate (which only requests
/// with `insecure` accept).
public enum TestServerScheme: String, CaseIterable, Sendable {
    case http
    case https
}

/// How a TLS test server proves its identity.
public enum TestServerTLS: Sendable {
    /// A certificate made for this server when it starts, signed by its own key: no client trusts it.
    case selfSigned
    /// This certificate and key (such as one a `TestCertificateAuthority` issued).
    case identity(SelfSignedIdentity)
    /// This certificate and key, and a client certificate signed by the authority whose PEM certificate is given is
    /// required: a handshake without one fails (over TLS 1.2 at most, when `upToTLS12`).
    case requiringClientCertificate(SelfSignedIdentity, authorityPEM: String, upToTLS12: Bool = false)
}

extension TestServer {
    /// Starts an HTTPS server on `host` and a free port, with the same routes as the plain server.
    ///
    /// A self-signed certificate and key are generated in memory at start (never written anywhere); the
    /// certificate names `localhost` and is valid for one day. Its `baseURL` starts with "https://".
    public static func start(host: String = "127.0.0.1", tls: TestServerTLS) async throws -> TestServer {
        try await start(host: host, tls: tls, readingAfter: nil)
    }

    /// Starts an HTTPS server as `start(host:tls:)` does that reads nothing of its connections until `hold` after it
    /// started: the TLS handshakes of every connection made before then, and their requests, are answered together
    /// (a server busy at first).
    public static func start(host: String = "127.0.0.1", tls: TestServerTLS, readingAfter hold: Duration?) async throws -> TestServer {
        var configuration: TLSConfiguration
        switch tls {
        case .selfSigned: configuration = try SelfSignedIdentity.generate().serverConfiguration
        case .identity(let identity): configuration = try identity.serverConfiguration
        case .requiringClientCertificate(let identity, let authorityPEM, let upToTLS12):
            configuration = try identity.serverConfiguration
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(authorityPEM.utf8)))
            if upToTLS12 { configuration.maximumTLSVersion = .tlsv12 }
        }
        let context = try NIOSSLContext(configuration: configuration)
        let reading = hold.map { NIODeadline.now() + .nanoseconds(Int64($0 / .nanoseconds(1))) }
        return try await start(host: host, scheme: "https") { channel in
            if let reading, reading > .now() {
                try channel.syncOptions?.setOption(.autoRead, value: false)
                channel.eventLoop.scheduleTask(deadline: reading) {
                    try? channel.syncOptions?.setOption(.autoRead, value: true)
                }
            }
            try channel.pipeline.syncOperations.addHandlers(UncleanClose(), NIOSSLServerHandler(context: context))
        }
    }

    /// Starts a server speaking `scheme` on `host` and a free port: `start(host:)` for http,
    /// `start(host:tls: .selfSigned)` for https.
    public static func start(_ scheme: TestServerScheme, host: String = "127.0.0.1") async throws -> TestServer {
        switch scheme {
        case .http: try await start(host: host)
        case .https: try await start(host: host, tls: .selfSigned)
        }
    }
}

extension SelfSignedIdentity {
    /// A NIOSSL server configuration presenting this certificate, HTTP/1.1 only.
    var serverConfiguration: TLSConfiguration {
        get throws {
            let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
            return TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        }
    }
}
