import Foundation
import Testing
import HTTPCore
@testable import Loaders
import TestSupport

/// The pool at its per-host connection limit, over http and https: requests wait for a connection, and give up
/// waiting on their deadline or cancellation.
@Suite(.serialized) struct PoolLimitTests {
    /// Runs `body` with a test server of `scheme` and a chain ending at a transport allowing one connection per host.
    func withOneConnection(over scheme: TestServerScheme, _ body: (TestServer, any HTTPLoader) async throws -> Void) async throws {
        let server = try await TestServer.start(scheme)
        let transport = HTTPClientTransport(connectionsPerHost: 1)
        try await stopping(server, transport) { try await body(server, chain(scheme.trusting, ending: transport)) }
    }

    @Test(arguments: TestServerScheme.allCases)
    func requestsBeyondTheLimitWaitForTheConnection(_ scheme: TestServerScheme) async throws {
        try await withOneConnection(over: scheme) { server, transport in
            try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<6 { group.addTask { try await transport.load(request(server.url("/wait/20"))).status } }
                for try await status in group { #expect(status == .ok) }
            }
            #expect(server.count(of: "/wait/20") == 6)
            #expect(server.connectionsAccepted == 1)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aWaitingRequestEndsOnItsDeadlineOrCancellation(_ scheme: TestServerScheme) async throws {
        try await withOneConnection(over: scheme) { server, transport in
            let holder = Task { await failure(of: transport, request(server.url("/stall"))) }
            try await Task.sleep(for: .milliseconds(100))
            var waiting = request(server.url("/echo"))
            waiting.deadline = .now + .milliseconds(200)
            let timedOut = await failure(of: transport, waiting)
            #expect(timedOut?.code == .timedOut)
            let cancelled = Task { await failure(of: transport, request(server.url("/echo"))) }
            try await Task.sleep(for: .milliseconds(100))
            cancelled.cancel()
            #expect(await cancelled.value?.code == .cancelled)
            #expect(server.count(of: "/echo") == 0)
            // Ending the request that holds the connection frees the slot for the next one.
            holder.cancel()
            #expect(await holder.value?.code == .cancelled)
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            #expect(server.connectionsAccepted == 2)
        }
    }
}
