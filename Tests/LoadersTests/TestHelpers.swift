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

/// Runs `body` with `server` and the standard chain over a new transport pointed at it; stops both afterwards.
func withStandardChain(on server: TestServer, _ body: (TestServer, any HTTPLoader) async throws -> Void) async throws {
    let transport = HTTPClientTransport()
    try await stopping(server, transport) {
        let environment = try #require(ServerEnvironment(baseURL: server.baseURL))
        let loader = chain(LoaderLayer.standard(environment: environment, userAgent: "runner-tests"), ending: transport)
        try await body(server, loader)
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
