import AsyncHTTPClient
import NIOCore
import Testing
import TestSupport

@Suite("TestServer over HTTP/2")
struct HTTP2ServerTests {
    /// Fetches `/echo` from `server` with an unverifying client limited to `version`; returns the status code.
    func fetchEcho(from server: TestServer, version: HTTPClient.Configuration.HTTPVersion) async throws -> UInt {
        var configuration = HTTPClient.Configuration(certificateVerification: .none)
        configuration.httpVersion = version
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(HTTPClientRequest(url: server.url("/echo")), timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 1024 * 1024)
            try await client.shutdown()
            return response.status.code
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    @Test("ALPN picks h2 when offered and falls back to http/1.1; each request records its version")
    func negotiation() async throws {
        let server = try await TestServer.startHTTP2()
        do {
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
            #expect(try await fetchEcho(from: server, version: .automatic) == 200)
            #expect(try await fetchEcho(from: server, version: .http1Only) == 200)
            #expect(server.receivedRequests().map(\.httpVersion) == ["HTTP/2.0", "HTTP/1.1"])
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("a plain server records HTTP/1.1")
    func plainServerRecordsHTTP1() async throws {
        try await Harness.with { harness in
            let response = try await harness.fetch("/echo")
            #expect(response.status == 200)
            #expect(harness.server.receivedRequests().map(\.httpVersion) == ["HTTP/1.1"])
        }
    }
}
