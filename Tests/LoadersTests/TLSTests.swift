import Foundation
import Testing
import HTTPCore
import SelfSignedCertificate
import Loaders
import TestSupport

/// The standard chain against an HTTPS test server whose certificate is self-signed.
@Suite(.serialized) struct TLSTests {
    @Test func selfSignedCertificatesAreRejectedByDefault() async throws {
        try await withStandardChain(on: TestServer.start(tls: .selfSigned)) { server, loader in
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
            let error = try #require(await failure(of: loader, request("/echo")))
            #expect(error.code == .insecureConnection)
            #expect(error.message.contains("certificate"))
            #expect(error.message.contains("self-signed"))
            #expect(error.message.contains("insecure: true"))
            #expect(server.count(of: "/echo") == 0)
        }
    }

    /// A certificate that does not name the URL's host closes its connection at once, as any refused handshake does: a
    /// server that serves one connection at a time is not held up until the run ends.
    @Test func aCertificateForAnotherHostClosesItsConnection() async throws {
        let authority = try TestCertificateAuthority.generate()
        let server = try await TestServer.start(tls: .identity(try authority.issueServerIdentity(dnsNames: ["other.test"])))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        try Data(authority.certificatePEM.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withStandardChain(on: server) { server, loader in
            let options = HTTPRequestOptions(timeout: .seconds(5), trustedCertificateFiles: [file.path])
            let error = try #require(await failure(of: loader, request("/echo", options: options)))
            #expect(error.message.contains("does not list this address among its IP addresses"), "\(error.message)")
            #expect(server.connectionsAccepted == 1)
            for _ in 0..<100 where server.connectionsOpen > 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.connectionsOpen == 0)
        }
    }

    @Test func insecureRequestsReachTheServer() async throws {
        try await withStandardChain(on: TestServer.start(tls: .selfSigned)) { server, loader in
            let response = try await loader.load(request("/echo", options: HTTPRequestOptions(insecure: true)))
            #expect(response.status == .ok)
            #expect(server.count(of: "/echo") == 1)
        }
    }

    @Test func plainHTTPToATLSServerIsAClearError() async throws {
        let server = try await TestServer.start(tls: .selfSigned)
        try await withStandardChain(on: server) { server, loader in
            let error = try #require(await failure(of: loader, request("http://127.0.0.1:\(server.port)/echo",
                                                                       options: HTTPRequestOptions(timeout: .seconds(2)))))
            #expect(error.code != .unknown)
            #expect(error.message.contains("/echo"))
        }
    }

    @Test func httpsToAPlainServerNamesTheTLSFailure() async throws {
        try await withStandardChain(on: TestServer.start()) { server, loader in
            let error = try #require(await failure(of: loader, request("https://127.0.0.1:\(server.port)/echo",
                                                                       options: HTTPRequestOptions(timeout: .seconds(2)))))
            #expect(error.code == .insecureConnection)
            #expect(error.message.hasPrefix("the TLS handshake with 127.0.0.1:\(server.port) failed ("))
            #expect(error.message.contains("does not speak TLS"))
            #expect(!error.message.contains(".build/") && !error.message.contains("OPENSSL_internal"))
        }
    }
}
