internal import LoopbackHTTP
internal import NIOCore
internal import NIOHTTP2
internal import NIOSSL
internal import SelfSignedCertificate

extension TestServer {
    /// Starts an HTTPS server (a self-signed certificate, as `start(tls: .selfSigned)`) that offers HTTP/2 by
    /// ALPN (`h2`, falling back to `http/1.1`), with the same routes as the plain server.
    ///
    /// Each HTTP/2 stream is converted to HTTP/1 messages and answered by the same router; every recorded
    /// request carries the version it arrived over (`httpVersion`, "HTTP/2.0" or "HTTP/1.1").
    /// `connectionsAccepted` counts TCP connections, so multiplexed streams show as one.
    public static func startHTTP2(host: String = "127.0.0.1") async throws -> TestServer {
        var configuration = try SelfSignedIdentity.generate().serverConfiguration
        configuration.applicationProtocols = ["h2", "http/1.1"]
        let context = try NIOSSLContext(configuration: configuration)
        return try await start(host: host, scheme: "https", prepareConnection: { channel in
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
        }, protocolSetup: negotiatedHTTP)
    }

    /// HTTP/2 or HTTP/1.1 as ALPN decided, each stream (or the HTTP/1.1 connection) handed to the router.
    private static let negotiatedHTTP: LoopbackServer.ProtocolSetup = { connection, handleRequests in
        connection.configureCommonHTTPServerPipeline { messages in
            messages.eventLoop.makeCompletedFuture { try handleRequests(messages) }
        }
    }
}
