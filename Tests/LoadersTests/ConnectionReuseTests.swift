import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

/// The transport's connection pools through the standard chain: keep-alive reuse over HTTP/1.1 and a bounded
/// number of connections under parallel load (over http and https), and HTTP/2 negotiated by ALPN and
/// multiplexed on one connection (over https only: HTTP/2 is offered by TLS's ALPN).
@Suite(.serialized) struct ConnectionReuseTests {
    /// Sends `count` requests for `path` at once and returns their statuses.
    func parallelStatuses(_ count: Int, _ path: String, options: HTTPRequestOptions = HTTPRequestOptions(),
                          through loader: any HTTPLoader) async throws -> [HTTPStatus] {
        try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
            for _ in 0..<count {
                group.addTask { try await loader.load(request(path, options: options)).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func sequentialRequestsReuseOneKeepAliveConnection(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { server, loader in
            for _ in 0..<20 {
                let response = try await loader.load(request("/echo"))
                #expect(response.status == .ok)
            }
            #expect(server.count(of: "/echo") == 20)
            #expect(server.connectionsAccepted == 1)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func parallelRequestsShareABoundedPool(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { server, loader in
            // 64 overlapping requests: the pool opens at most its per-host limit of 32 connections.
            let burst = try await parallelStatuses(64, "/wait/100", through: loader)
            #expect(burst == Array(repeating: .ok, count: 64))
            let afterBurst = server.connectionsAccepted
            #expect(afterBurst > 1)
            #expect(afterBurst <= 32)
            // Later rounds of fewer parallel requests find idle pooled connections and open none.
            for _ in 0..<3 {
                let round = try await parallelStatuses(8, "/wait/20", through: loader)
                #expect(round == Array(repeating: .ok, count: 8))
            }
            #expect(server.connectionsAccepted == afterBurst)
        }
    }

    @Test func http2IsNegotiatedOverTLS() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            let response = try await loader.load(request("/echo", options: HTTPRequestOptions(insecure: true)))
            #expect(response.status == .ok)
            #expect(server.receivedRequests().map(\.httpVersion) == ["HTTP/2.0"])
        }
    }

    /// A body without a Content-Length over HTTP/2 shows no `Transfer-Encoding`, which HTTP/2 has not (trial helper-194
    /// K4: the one NIO's HTTP/1 view adds was shown, and `expect.headers` checked against it).
    @Test func anHTTP2ResponseHasNoTransferEncoding() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            let response = try await loader.load(request("/chunked", options: HTTPRequestOptions(insecure: true)))
            #expect(response.status == .ok && response.body.count == 30)
            #expect(response.headers["Transfer-Encoding"] == nil, "\(response.headers)")
            #expect(server.receivedRequests().map(\.httpVersion) == ["HTTP/2.0"])
        }
    }

    /// A response whose HTTP/2 stream is closed part-way through its body (the server resets it) is a connection failure,
    /// as a connection closed mid-body is over HTTP/1.1: said in words with what came, retried on `connection` (trial
    /// helper-196 M0: NIO's StreamClosed dump, not retried, no `expect.error` kind).
    @Test func anHTTP2StreamResetMidBodyIsAConnectionFailure() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            let insecure = HTTPRequestOptions(insecure: true)
            let error = try #require(await failure(of: loader, request("/close-mid-body", options: insecure)))
            #expect(error.code == .cannotConnect, "\(error)")
            #expect(error.message == "the server reset the HTTP/2 stream of the request to \(server.url("/close-mid-body")) before the "
                + "response was complete (CANCEL): the response began (status 200), its body did not complete (10 of its 1000 bytes came)",
                "\(error.message)")
            #expect(error.response?.status == .ok, "\(error)")
            var retried = insecure
            retried.retry = RetryStrategy(attempts: 2, delay: .milliseconds(10), retryOn: [.connection])
            #expect(await failure(of: loader, request("/close-mid-body", options: retried))?.attempts == 2)
            #expect(try await loader.load(request("/echo", options: insecure)).status == .ok)
        }
    }

    /// More HTTP/2 streams reset by the server than NIO's guard against floods of resets lets one connection take (200 in
    /// 30 seconds): each is a connection failure at once, none waits out its timeout on a connection the guard failed
    /// (trial helper-197 N1: after 200, every request timed out, all on one connection).
    @Test func aFloodOfHTTP2StreamResetsNeverStallsTheRequestsAfter() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            var options = HTTPRequestOptions(insecure: true)
            options.timeout = .seconds(5)
            var codes: [String: Int] = [:]
            for _ in 0..<230 {
                let error = await failure(of: loader, request("/close-mid-body", options: options))
                codes[error.map { "\($0.code)" } ?? "passed", default: 0] += 1
            }
            #expect(codes == ["cannotConnect": 230], "\(codes)")
            #expect(server.connectionsAccepted >= 3, "\(server.connectionsAccepted)")
            let after = try await loader.load(request("/echo", options: options))
            #expect(after.status == .ok)
        }
    }

    /// A `:status` below 100 on an HTTP/2 stream is an invalid response, as over HTTP/1.1 (the client would trap on it).
    @Test func anHTTP2StatusBelow100IsAnInvalidResponse() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            let insecure = HTTPRequestOptions(insecure: true)
            let error = await failure(of: loader, request("/raw-status/99", options: insecure))
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains("its status 099 is not an HTTP status") == true, "\(String(describing: error))")
            let next = try await loader.load(request("/echo", options: insecure))
            #expect(next.status == .ok)
            #expect(server.receivedRequests().allSatisfy { $0.httpVersion == "HTTP/2.0" })
        }
    }

    /// An HTTP/2 answer declaring a `Content-Encoding` with no body bytes is an empty body, as over HTTP/1.1.
    @Test func anHTTP2EncodedAnswerWithoutBodyBytesIsAnEmptyBody() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            let insecure = HTTPRequestOptions(insecure: true)
            for (path, method) in [("/gzip", HTTPMethod.head), ("/gzip?cut=0", .get)] {
                let response = try await loader.load(request(path, method: method, options: insecure))
                #expect(response.status == .ok && response.headers["Content-Encoding"] == "gzip" && response.body.isEmpty)
            }
            #expect(server.receivedRequests().allSatisfy { $0.httpVersion == "HTTP/2.0" })
        }
    }

    @Test func parallelHTTP2RequestsShareOneConnection() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            let insecure = HTTPRequestOptions(insecure: true)
            // The first request establishes the connection; until it has, the pool cannot know it is HTTP/2.
            let first = try await loader.load(request("/echo", options: insecure))
            #expect(first.status == .ok)
            let statuses = try await parallelStatuses(20, "/wait/50", options: insecure, through: loader)
            #expect(statuses == Array(repeating: .ok, count: 20))
            #expect(server.count(of: "/wait/50") == 20)
            #expect(server.receivedRequests().allSatisfy { $0.httpVersion == "HTTP/2.0" })
            #expect(server.connectionsAccepted == 1)
        }
    }

    @Test func http2EchoRoundTrip() async throws {
        try await withStandardChain(on: TestServer.startHTTP2()) { server, loader in
            var post = request("/echo?a=1", method: .post, headers: ["X-Trace": "abc"],
                               options: HTTPRequestOptions(insecure: true))
            post.body = JSONBody(.object(JSONObject([("name", .string("Arthur"))])))
            let response = try await loader.load(post)
            #expect(response.status == .ok)
            let echoed = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(echoed["method"] as? String == "POST")
            #expect(echoed["path"] as? String == "/echo")
            #expect(echoed["body"] as? String == #"{"name":"Arthur"}"#)
            let headers = try #require(echoed["headers"] as? [String: String])
            #expect(headers["x-trace"] == "abc")
            #expect(headers["user-agent"] == "runner-tests")
            #expect(headers["content-type"] == "application/json")
            let recorded = try #require(server.receivedRequests().last)
            #expect(recorded.httpVersion == "HTTP/2.0")
            #expect(recorded.query("a") == "1")
        }
    }
}
