import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

/// A server that closes each connection as soon as it accepts it: over http before any answer, over https during the TLS
/// handshake; directly and through a proxy's tunnel.
@Suite struct ClosedConnectionTests {
    /// Sends a GET to a closing listener over `scheme` (through a forward proxy when `proxied`) with the standard chain,
    /// retried up to 3 times on connection failures; returns the error and how many connections the listener accepted.
    func closedRequest(_ scheme: TestServerScheme, proxied: Bool) async throws -> (HTTPError, accepted: Int, port: Int, proxyPort: Int?) {
        let listener = try await ClosingListener.start()
        let proxy = proxied ? try await ForwardProxy.start() : nil
        let transport = HTTPClientTransport()
        var options = HTTPRequestOptions(retry: RetryStrategy(attempts: 3, delay: .milliseconds(10), retryOn: [.connection]))
        options.proxy = proxy.map { ProxySettings(proxy: HTTPProxy(host: "127.0.0.1", port: $0.port)) }
        let loader = chain(scheme.trusting + LoaderLayer.standard(userAgent: "runner-tests"), ending: transport)
        let error = await failure(of: loader, request("\(scheme.rawValue)://127.0.0.1:\(listener.port)/x", options: options))
        try await transport.shutdown()
        try await proxy?.stop()
        try await listener.stop()
        return (try #require(error), listener.connectionsAccepted, listener.port, proxy?.port)
    }

    @Test(arguments: TestServerScheme.allCases, [false, true])
    func aConnectionClosedAtOnceIsAConnectionFailureThatRetryOnConnectionSendsAgain(_ scheme: TestServerScheme, proxied: Bool) async throws {
        let (error, accepted, port, proxyPort) = try await closedRequest(scheme, proxied: proxied)
        #expect(error.code == .cannotConnect, "\(error.message)")
        // A connection reset before anything was written is tried again within an attempt (as a kept connection the
        // server closed would be), so there may be more connections than attempts.
        #expect(error.attempts == 3 && accepted >= 3, "\(error.attempts) attempts, \(accepted) connections: \(error.message)")
        let through = proxyPort.map { " through the proxy 127.0.0.1:\($0)" } ?? ""
        let url = "\(scheme.rawValue)://127.0.0.1:\(port)/x"
        #expect(["closed ", "was reset "].contains { error.message.hasPrefix("the connection to 127.0.0.1:\(port)\(through) \($0)") },
                "\(error.message)")
        if scheme == .https, !error.message.contains(" was reset ") {
            #expect(error.message.hasSuffix(": the request to \(url) was not sent"), "\(error.message)")
            #expect(error.message.contains("TLS handshake"), "\(error.message)")
        }
    }

    /// A server that resets every connection before anything was written (in its TLS handshake) is tried once more, as a
    /// kept connection it closed might have been, not once for each connection the client may keep (33 connections).
    @Test(arguments: TestServerScheme.allCases)
    func aServerThatResetsEveryConnectionIsTriedAtMostOnceMore(_ scheme: TestServerScheme) async throws {
        let listener = try await ClosingListener.start(resetting: true)
        let transport = HTTPClientTransport()
        let loader = chain(scheme.trusting + LoaderLayer.standard(userAgent: "runner-tests"), ending: transport)
        let error = await failure(of: loader, request("\(scheme.rawValue)://127.0.0.1:\(listener.port)/x"))
        try await transport.shutdown()
        try await listener.stop()
        #expect(error?.code == .cannotConnect, "\(String(describing: error))")
        #expect((1...2).contains(listener.connectionsAccepted), "\(listener.connectionsAccepted) connections")
    }

    /// A proxy that closes each connection at once made no tunnel: the request was not sent, and the message says so.
    @Test(arguments: TestServerScheme.allCases)
    func aProxyThatClosesAtOnceMadeNoTunnel(_ scheme: TestServerScheme) async throws {
        let proxy = try await ClosingListener.start()
        let transport = HTTPClientTransport()
        var options = HTTPRequestOptions()
        options.proxy = ProxySettings(proxy: HTTPProxy(host: "127.0.0.1", port: proxy.port))
        let loader = chain(scheme.trusting + LoaderLayer.standard(userAgent: "runner-tests"), ending: transport)
        let url = "\(scheme.rawValue)://127.0.0.1:9/x"
        let error = await failure(of: loader, request(url, options: options))
        try await transport.shutdown()
        try await proxy.stop()
        #expect(error?.code == .cannotConnect)
        let steps = scheme == .https ? "the tunnel or the TLS handshake" : "the tunnel"
        #expect(error?.message == "the connection to 127.0.0.1:9 through the proxy 127.0.0.1:\(proxy.port) closed while it was being "
            + "made (\(steps)): the request to \(url) was not sent", "\(String(describing: error?.message))")
    }
}
