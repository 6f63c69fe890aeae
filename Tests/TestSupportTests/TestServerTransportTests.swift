import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

@Suite("TestServer transport and body routes")
struct TestServerTransportTests {
    @Test("keep-alive reuses one connection; Connection: close ends it")
    func keepAlive() async throws {
        try await Harness.with { harness in
            for _ in 0..<3 {
                #expect(try await harness.fetch("/echo").status == 200)
            }
            #expect(harness.server.connectionsAccepted == 1)
            let closing = try await harness.fetch("/echo", headers: [("Connection", "close")])
            #expect(closing.headers["Connection"] == ["close"])
            #expect(try await harness.fetch("/echo").status == 200)
            #expect(harness.server.connectionsAccepted == 2)
        }
    }

    @Test("HEAD gets headers without a body and keeps the connection usable")
    func head() async throws {
        try await Harness.with { harness in
            let response = try await harness.fetch("/large/100", method: .HEAD)
            #expect(response.headers["Content-Length"] == ["100"])
            #expect(response.body.isEmpty)
            #expect(try await harness.fetch("/large/5").text == "xxxxx")
        }
    }

    @Test("stop closes a stalled connection so the waiting client fails instead of hanging")
    func stopClosesStalledConnections() async throws {
        let server = try await TestServer.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let stalled = Task {
            try await client.execute(HTTPClientRequest(url: server.url("/stall")), timeout: .seconds(30))
        }
        while server.count(of: "/stall") == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await server.stop()
        do {
            _ = try await stalled.value
            Issue.record("a stalled request must not succeed")
        } catch {
            #expect(error as? HTTPClientError != .deadlineExceeded)
        }
        try await client.shutdown()
    }

    @Test("close-mid-body and wrong-length deliver fewer bytes than announced")
    func truncatedBodies() async throws {
        try await Harness.with(readTimeout: .milliseconds(300)) { harness in
            await #expect(throws: (any Error).self) {
                _ = try await harness.fetch("/close-mid-body")
            }
            await #expect(throws: HTTPClientError.readTimeout) {
                _ = try await harness.fetch("/wrong-length")
            }
        }
    }

    @Test("drip sends the announced bytes one at a time")
    func drip() async throws {
        try await Harness.with { harness in
            let response = try await harness.fetch("/drip?bytes=5&interval_ms=20")
            #expect(response.headers["Content-Length"] == ["5"])
            #expect(response.text == "xxxxx")
        }
    }

    @Test("chunked, large and large-chunked bodies arrive whole")
    func bodies() async throws {
        try await Harness.with { harness in
            let chunked = try await harness.fetch("/chunked?chunks=3&size=4")
            #expect(chunked.headers["Transfer-Encoding"] == ["chunked"])
            #expect(chunked.text == "aaaabbbbcccc")

            let large = try await harness.fetch("/large/1000000")
            #expect(large.headers["Content-Length"] == ["1000000"])
            #expect(large.body.count == 1_000_000)
            #expect(large.body.allSatisfy { $0 == UInt8(ascii: "x") })

            let largeChunked = try await harness.fetch("/large-chunked/300001")
            #expect(largeChunked.headers["Content-Length"].isEmpty)
            #expect(largeChunked.body.count == 300_001)
        }
    }

    @Test("gzip bodies are valid gzip and the bomb inflates far beyond its size")
    func gzip() async throws {
        try await Harness.with { harness in
            let raw = try await harness.fetch("/gzip")
            #expect(raw.headers["Content-Encoding"] == ["gzip"])
            #expect(Array(raw.body.prefix(2)) == [0x1F, 0x8B])
            let rawBomb = try await harness.fetch("/gzip-bomb?bytes=1000000")
            #expect(rawBomb.body.count < 10_000)
            let gigabyteBomb = try await harness.fetch("/gzip-bomb?bytes=1000000000")
            #expect(gigabyteBomb.body.count < 1_000_000_000 / 150)
        }
        try await Harness.with(decompression: .enabled(limit: .none)) { harness in
            let decoded = try await harness.fetch("/gzip")
            #expect(decoded.json["gzipped"] as? Bool == true)
            let bomb = try await harness.fetch("/gzip-bomb?bytes=1000000")
            #expect(bomb.body.count == 1_000_000)
            #expect(bomb.body.allSatisfy { $0 == 0 })
            // Every path of the generator (no copy, a partial group, whole groups) inflates with a valid CRC.
            for count in [0, 1, 258, 259, 260, 2323, 2324, 5000] {
                let small = try await harness.fetch("/gzip-bomb?bytes=\(count)")
                #expect(small.body == [UInt8](repeating: 0, count: count), "\(count) zero bytes")
            }
        }
        try await Harness.with(decompression: .enabled(limit: .ratio(20))) { harness in
            await #expect(throws: (any Error).self) {
                _ = try await harness.fetch("/gzip-bomb?bytes=1000000")
            }
        }
    }

    @Test("set-cookie, headers, json fixtures and text serve what they promise")
    func fixedContent() async throws {
        try await Harness.with { harness in
            let cookie = try await harness.fetch("/set-cookie?session=abc")
            #expect(cookie.headers["Set-Cookie"] == ["session=abc; Path=/"])

            let headers = try await harness.fetch("/headers?X-Custom=1&ETag=v2")
            #expect(headers.headers["X-Custom"] == ["1"])
            #expect(headers.headers["ETag"] == ["v2"])
            #expect(headers.json["ETag"] as? String == "v2")

            let users = try await harness.fetch("/json/users")
            #expect(users.headers["Content-Type"] == ["application/json"])
            let list = try #require(users.json["users"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? Int } == [1, 2, 3])
            #expect(try await harness.fetch("/json/missing").status == 404)

            let text = try await harness.fetch("/text")
            #expect(text.text.contains(#"<input type="hidden" name="csrf" value="abc123">"#))
        }
    }
}
