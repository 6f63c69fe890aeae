import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

/// Records the waits a loader asks for instead of waiting.
actor SleepLog {
    private(set) var durations: [Duration] = []

    func add(_ duration: Duration) { durations.append(duration) }

    nonisolated var sleeper: Sleeper { Sleeper { await self.add($0) } }
}

/// A request to an absolute URL with the given options.
func request(_ url: String = "http://api.test/items", method: HTTPMethod = .get,
             headers: HTTPHeaders = [:], options: HTTPRequestOptions = HTTPRequestOptions()) -> HTTPRequest {
    HTTPRequest(method: method, url: url, headers: headers, options: options)!
}

/// Loads `request`, returning the error it fails with, or nil when it succeeds.
func failure(of loader: any HTTPLoader, _ request: HTTPRequest) async -> HTTPError? {
    do {
        _ = try await loader.load(request)
        return nil
    } catch {
        return error
    }
}

/// The headers `/echo` saw, lower-cased names.
func echoedHeaders(_ response: HTTPResponse) throws -> [String: String] {
    let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    return try #require(document["headers"] as? [String: String])
}

/// Runs `body` with `server` and the standard chain over a new transport pointed at it, after `layers` when
/// given; stops both afterwards.
func withStandardChain(on server: TestServer, after layers: [LoaderLayer] = [],
                       _ body: (TestServer, any HTTPLoader) async throws -> Void) async throws {
    let transport = HTTPClientTransport()
    try await stopping(server, transport) {
        let environment = try #require(ServerEnvironment(baseURL: server.baseURL))
        let relative = LoaderLayer.modifyRequest { $0 = environment.complete($0) }
        let loader = chain(layers + [relative] + LoaderLayer.standard(userAgent: "runner-tests"), ending: transport)
        try await body(server, loader)
    }
}

/// Runs `body` with a new test server speaking `scheme` and the standard chain pointed at it, trusting the
/// server's certificate (`TestServerScheme.trusting`); stops both afterwards.
func withStandardChain(over scheme: TestServerScheme, _ body: (TestServer, any HTTPLoader) async throws -> Void) async throws {
    try await withStandardChain(on: TestServer.start(scheme), after: scheme.trusting, body)
}

/// Runs `body` with a new test server speaking `scheme` and a bare transport (no chain but
/// `TestServerScheme.trusting`); stops both afterwards.
func withTransport(over scheme: TestServerScheme, _ body: (TestServer, any HTTPLoader) async throws -> Void) async throws {
    let server = try await TestServer.start(scheme)
    let transport = HTTPClientTransport()
    try await stopping(server, transport) { try await body(server, chain(scheme.trusting, ending: transport)) }
}

extension TestServerScheme {
    /// What lets requests reach a test server of this scheme: for https a layer setting `insecure` on every
    /// request (the server's certificate is self-signed), as an environment's `options: { insecure: true }`
    /// does in a run; nothing for http.
    var trusting: [LoaderLayer] {
        self == .https ? [.modifyRequest { $0.options.insecure = true }] : []
    }
}

/// Runs `body`, then shuts `transport` down and stops `server`, also when `body` throws.
func stopping(_ server: TestServer, _ transport: HTTPClientTransport, after body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try? await transport.shutdown()
        try? await server.stop()
        throw error
    }
    try await transport.shutdown()
    try await server.stop()
}
