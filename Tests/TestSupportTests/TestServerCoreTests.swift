import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

@Suite("TestServer core routes")
struct TestServerCoreTests {
    @Test("starts on a free port and refuses connections after stop")
    func startAndStop() async throws {
        let server = try await TestServer.start()
        #expect(server.port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        #expect(server.url("/echo") == "http://127.0.0.1:\(server.port)/echo")
        try await server.stop()
        try await server.stop()  // idempotent

        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        await #expect(throws: (any Error).self) {
            _ = try await client.execute(HTTPClientRequest(url: server.url("/echo")), timeout: .milliseconds(500))
        }
        try await client.shutdown()
    }

    @Test("echo returns method, path, query, headers including secrets, and the body")
    func echo() async throws {
        try await Harness.with { harness in
            let response = try await harness.fetch(
                "/echo/sub?a=1&b=x%20y&b=2",
                method: .POST,
                headers: [("Authorization", "Bearer s3cret"), ("Cookie", "session=abc"), ("Content-Type", "application/json")],
                body: #"{"name":"ada","n":3}"#
            )
            #expect(response.status == 200)
            let json = response.json
            #expect(json["method"] as? String == "POST")
            #expect(json["path"] as? String == "/echo/sub")
            let query = try #require(json["query"] as? [String: Any])
            #expect(query["a"] as? String == "1")
            #expect(query["b"] as? [String] == ["x y", "2"])
            let headers = try #require(json["headers"] as? [String: String])
            #expect(headers["authorization"] == "Bearer s3cret")
            #expect(headers["cookie"] == "session=abc")
            #expect(json["body"] as? String == #"{"name":"ada","n":3}"#)
            let parsed = try #require(json["json"] as? [String: Any])
            #expect(parsed["name"] as? String == "ada")
        }
    }

    @Test("echo base64-encodes a binary body")
    func echoBinary() async throws {
        try await Harness.with { harness in
            var request = HTTPClientRequest(url: harness.server.url("/echo"))
            request.method = .PUT
            request.body = .bytes(ByteBuffer(bytes: [0xFF, 0xFE, 0x00]))
            let response = try await harness.client.execute(request, timeout: .seconds(5))
            let body = try await response.body.collect(upTo: 1 << 20)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
            #expect(json["bodyEncoding"] as? String == "base64")
            #expect(json["body"] as? String == Data([0xFF, 0xFE, 0x00]).base64EncodedString())
        }
    }

    @Test("status route answers the code with extra headers, over one kept-alive client")
    func status() async throws {
        try await Harness.with { harness in
            let response = try await harness.fetch("/status/418?header=X-Test:%20yes&header=X-Other:2")
            #expect(response.status == 418)
            #expect(response.headers["X-Test"] == ["yes"])
            #expect(response.headers["X-Other"] == ["2"])
            #expect(response.headers["Connection"] == ["keep-alive"])
            let second = try await harness.fetch("/status/204")
            #expect(second.status == 204)
            #expect(second.body.isEmpty)
        }
    }

    @Test("wait answers after the delay while the single event loop keeps serving others")
    func wait() async throws {
        try await Harness.with { harness in
            async let slow = harness.fetch("/wait/1500")
            while harness.server.count(of: "/wait/1500") == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let fast = try await harness.fetch("/status/200", timeout: .seconds(1))
            #expect(fast.status == 200)
            let waited = try await slow
            #expect(waited.status == 200)
            #expect(waited.json["waited_ms"] as? Int == 1500)
        }
    }

    @Test("redirect routes set Location; chains end in 200; cycles are detected")
    func redirects() async throws {
        try await Harness.with { harness in
            let single = try await harness.fetch("/redirect/307?to=/status/201")
            #expect(single.status == 307)
            #expect(single.headers["Location"] == ["/status/201"])

            let cross = try await harness.fetch("/redirect/cross?path=/echo")
            #expect(cross.status == 302)
            #expect(cross.headers["Location"] == ["http://localhost:\(harness.server.port)/echo"])

            let cycle = try await harness.fetch("/redirect/cycle")
            #expect(cycle.headers["Location"] == ["/redirect/cycle/b"])
            let cycleBack = try await harness.fetch("/redirect/cycle/b")
            #expect(cycleBack.headers["Location"] == ["/redirect/cycle"])
        }
        try await Harness.with(followRedirects: true) { harness in
            let chained = try await harness.fetch("/redirect/chain/3")
            #expect(chained.status == 200)
            #expect(harness.server.count(of: "/redirect/chain/0") == 1)
            #expect(harness.server.receivedRequests().count == 4)

            await #expect(throws: HTTPClientError.redirectCycleDetected) {
                _ = try await harness.fetch("/redirect/cycle")
            }
        }
    }

    @Test("localhost reaches the server too, as cross-origin redirects need")
    func localhostReachesServer() async throws {
        try await Harness.with(followRedirects: true) { harness in
            let response = try await harness.fetch("/redirect/cross?path=/echo")
            #expect(response.status == 200)
            let headers = try #require(response.json["headers"] as? [String: String])
            #expect(headers["host"] == "localhost:\(harness.server.port)")
        }
    }

    @Test("basic and bearer auth accept matching credentials and challenge others")
    func basicAndBearer() async throws {
        try await Harness.with { harness in
            let good = Data("ada:pw".utf8).base64EncodedString()
            let accepted = try await harness.fetch("/basic-auth/ada/pw", headers: [("Authorization", "Basic \(good)")])
            #expect(accepted.status == 200)
            let bad = Data("ada:nope".utf8).base64EncodedString()
            let rejected = try await harness.fetch("/basic-auth/ada/pw", headers: [("Authorization", "Basic \(bad)")])
            #expect(rejected.status == 401)
            #expect(rejected.headers["WWW-Authenticate"].first?.hasPrefix("Basic") == true)
            #expect(try await harness.fetch("/basic-auth/ada/pw").status == 401)

            #expect(try await harness.fetch("/bearer/t1", headers: [("Authorization", "Bearer t1")]).status == 200)
            #expect(try await harness.fetch("/bearer/t1", headers: [("Authorization", "Bearer t2")]).status == 401)
        }
    }

    @Test("oauth issues counted tokens that unlock the protected route until they expire")
    func oauth() async throws {
        try await Harness.with { harness in
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let credentials = "client_id=\(TestServer.oauthClientID)&client_secret=\(TestServer.oauthClientSecret)"
            let issued = try await harness.fetch(
                "/oauth/token", method: .POST, headers: form, body: "grant_type=client_credentials&" + credentials
            )
            #expect(issued.status == 200)
            #expect(issued.json["access_token"] as? String == "tok-1")
            #expect(issued.json["token_type"] as? String == "Bearer")
            #expect(issued.json["expires_in"] as? Int == 3600)
            #expect(harness.server.tokensIssued == 1)

            let protected = try await harness.fetch("/oauth/protected", headers: [("Authorization", "Bearer tok-1")])
            #expect(protected.status == 200)
            #expect(try await harness.fetch("/oauth/protected").status == 401)
            #expect(try await harness.fetch("/oauth/protected", headers: [("Authorization", "Bearer tok-9")]).status == 401)

            let basic = Data("\(TestServer.oauthClientID):\(TestServer.oauthClientSecret)".utf8).base64EncodedString()
            let expiring = try await harness.fetch(
                "/oauth/token?expires_in=0", method: .POST,
                headers: form + [("Authorization", "Basic \(basic)")], body: "grant_type=client_credentials"
            )
            #expect(expiring.json["access_token"] as? String == "tok-2")
            #expect(expiring.json["expires_in"] as? Int == 0)
            #expect(try await harness.fetch("/oauth/protected", headers: [("Authorization", "Bearer tok-2")]).status == 401)
            #expect(harness.server.tokensIssued == 2)

            harness.server.expireAllTokens()
            #expect(try await harness.fetch("/oauth/protected", headers: [("Authorization", "Bearer tok-1")]).status == 401)

            let wrongSecret = try await harness.fetch(
                "/oauth/token", method: .POST, headers: form,
                body: "grant_type=client_credentials&client_id=\(TestServer.oauthClientID)&client_secret=x"
            )
            #expect(wrongSecret.status == 401)
            #expect(try await harness.fetch("/oauth/token", method: .GET).status == 405)
            #expect(harness.server.tokensIssued == 2)
        }
    }

    @Test("retry-after and fail-then-succeed fail the given number of times per key, then succeed")
    func retries() async throws {
        try await Harness.with { harness in
            let first = try await harness.fetch("/retry-after/2?key=k&times=2")
            #expect(first.status == 429)
            #expect(first.headers["Retry-After"] == ["2"])
            #expect(try await harness.fetch("/retry-after/2?key=k&times=2").status == 429)
            #expect(try await harness.fetch("/retry-after/2?key=other&times=2").status == 429)
            #expect(try await harness.fetch("/retry-after/2?key=k&times=2").status == 200)

            #expect(try await harness.fetch("/fail-then-succeed/a/2?status=500").status == 500)
            #expect(try await harness.fetch("/fail-then-succeed/a/2").status == 503)
            let success = try await harness.fetch("/fail-then-succeed/a/2")
            #expect(success.status == 200)
            #expect(success.json["attempts"] as? Int == 3)
            #expect(harness.server.requestCount(path: "/fail-then-succeed/a/2") == 3)
        }
    }

    @Test("receivedRequests records method, path, query, headers and body")
    func recordsRequests() async throws {
        try await Harness.with { harness in
            _ = try await harness.fetch("/echo?x=1", method: .PATCH, headers: [("X-Trace", "t")], body: "hello")
            _ = try await harness.fetch("/nowhere")
            let requests = harness.server.receivedRequests()
            #expect(requests.map(\.path) == ["/echo", "/nowhere"])
            #expect(requests[0].method == "PATCH")
            #expect(requests[0].uri == "/echo?x=1")
            #expect(requests[0].query("x") == "1")
            #expect(requests[0].header("x-trace") == "t")
            #expect(requests[0].bodyText == "hello")
            #expect(harness.server.count(of: "/nowhere") == 1)
        }
    }
}
