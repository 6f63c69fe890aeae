import Foundation
import Testing
import HTTPCore
@testable import Loaders
import NIOHTTP1
import TestSupport

/// The transport's own HTTP/1.1 client for `http://` URLs: the bytes it refuses in a request target and method.
/// Only over http: `HTTP1RequestValidation` is the cleartext client's own (AsyncHTTPClient checks heads for
/// https itself); what users see of it over both schemes is in `TransportTests`.
@Suite(.serialized) struct CleartextTransportTests {
    @Test func theRequestTargetAndMethodMustBeMadeOfAllowedBytes() throws {
        func head(_ uri: String, method: NIOHTTP1.HTTPMethod = .GET) -> HTTPRequestHead {
            HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: ["Host": "h"])
        }
        try HTTP1RequestValidation.check(head("/a%20b/~x;y=1?q=[1]&r=$!'()*+,:@#f"))
        try HTTP1RequestValidation.check(head("/", method: .RAW(value: "PURGE-ALL")))
        for refused in [head("/a b"), head("/a\r\nX: 1"), head("/é"), head("/a\"b"), head("/{x}"), head("/", method: .RAW(value: "GE T"))] {
            #expect(throws: HTTPParserError.invalidHeaderToken) { try HTTP1RequestValidation.check(refused) }
        }
    }
}

/// The cleartext pool at its per-host connection limit: requests wait for a connection, and give up waiting on
/// their deadline or cancellation. Only over http: the limit and the waiting are the cleartext pool's own
/// (AsyncHTTPClient's pool for https has its own soft limit, not configurable per transport).
@Suite(.serialized) struct CleartextPoolLimitTests {
    /// Runs `body` with a test server and a transport allowing one cleartext connection per host.
    func withOneConnection(_ body: (TestServer, HTTPClientTransport) async throws -> Void) async throws {
        let server = try await TestServer.start()
        let transport = HTTPClientTransport(decompressionRatio: 100, cleartextConnectionsPerHost: 1)
        try await stopping(server, transport) { try await body(server, transport) }
    }

    @Test func requestsBeyondTheLimitWaitForTheConnection() async throws {
        try await withOneConnection { server, transport in
            try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<6 { group.addTask { try await transport.load(request(server.url("/wait/20"))).status } }
                for try await status in group { #expect(status == .ok) }
            }
            #expect(server.count(of: "/wait/20") == 6)
            #expect(server.connectionsAccepted == 1)
        }
    }

    @Test func aWaitingRequestEndsOnItsDeadlineOrCancellation() async throws {
        try await withOneConnection { server, transport in
            let holder = Task { await failure(of: transport, request(server.url("/stall"))) }
            try await Task.sleep(for: .milliseconds(100))
            var waiting = request(server.url("/echo"))
            waiting.deadline = .now + .milliseconds(200)
            let start = ContinuousClock.now
            let timedOut = await failure(of: transport, waiting)
            #expect(timedOut?.code == .timedOut)
            #expect(start.duration(to: .now) < .milliseconds(800))
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
