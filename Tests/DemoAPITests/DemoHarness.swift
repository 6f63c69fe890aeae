import AsyncHTTPClient
import DemoAPICore
import Foundation
import NIOCore
import NIOHTTP1
import SelfSignedCertificate

/// A fresh demo server with an HTTP client, both stopped after each use.
struct DemoHarness {
    /// The settings every test server runs with: the documented user, a test password and secret.
    static let settings = DemoSettings(password: "test-password", clientSecret: "test-secret", requestsPerSecond: 5)

    let server: DemoServer
    let client: HTTPClient

    /// Runs `body` against a new server and client, stopping both afterwards even on failure. With `tls`, the
    /// server serves HTTPS with a self-signed certificate (written to a temporary folder, removed afterwards)
    /// and the client does not verify it.
    static func with(followRedirects: Bool = false, tls: Bool = false, _ body: (DemoHarness) async throws -> Void) async throws {
        let redirects: HTTPClient.Configuration.RedirectConfiguration = followRedirects ? .follow(max: 3, allowCycles: false) : .disallow
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-api-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: DemoServer.TLSFiles?
        if tls {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let written = try SelfSignedIdentity.generate().write(into: folder)
            files = DemoServer.TLSFiles(certificateChain: written.certificate, privateKey: written.privateKey)
        }
        let harness = DemoHarness(
            server: try await DemoServer.start(port: 0, settings: settings, tls: files),
            client: HTTPClient(configuration: .init(certificateVerification: tls ? .none : .fullVerification, redirectConfiguration: redirects,
                                                    timeout: .init(connect: .seconds(2), read: .seconds(5))))
        )
        var failure: (any Error)?
        do {
            try await body(harness)
        } catch {
            failure = error
        }
        try await harness.client.shutdown()
        try await harness.server.stop()
        if let failure { throw failure }
    }

    /// Sends a request to `path` and collects the whole response.
    func fetch(
        _ path: String,
        method: HTTPMethod = .GET,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil
    ) async throws -> DemoResponse {
        var request = HTTPClientRequest(url: server.baseURL + path)
        request.method = method
        request.headers.add(contentsOf: headers)
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return DemoResponse(status: Int(response.status.code), headers: response.headers, body: Array(bytes.readableBytesView))
    }

    /// Sends a JSON body.
    func send(_ path: String, method: HTTPMethod = .POST, json: String, headers: [(String, String)] = []) async throws -> DemoResponse {
        try await fetch(path, method: method, headers: headers + [("Content-Type", "application/json")], body: Array(json.utf8))
    }

    /// Sends a form-urlencoded body.
    func send(_ path: String, method: HTTPMethod = .POST, form: String, headers: [(String, String)] = []) async throws -> DemoResponse {
        let contentType = ("Content-Type", "application/x-www-form-urlencoded")
        return try await fetch(path, method: method, headers: headers + [contentType], body: Array(form.utf8))
    }

    /// Logs in as the demo user and returns the `Authorization` header carrying the token.
    func login() async throws -> (String, String) {
        let response = try await send("/api/login", json: #"{"username":"demo","password":"test-password"}"#)
        guard let token = response.json["token"] as? String else {
            throw HarnessError.noToken(response.text)
        }
        return ("Authorization", "Bearer \(token)")
    }
}

/// Failures of the harness itself.
enum HarnessError: Error {
    /// Logging in did not give a token; the response text says why.
    case noToken(String)
}

/// A collected response.
struct DemoResponse {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// The first value of a header, if present.
    func header(_ name: String) -> String? {
        headers.first(name: name)
    }
}
