import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// A started test server with an HTTP client, torn down after each use.
struct Harness {
    let server: TestServer
    let client: HTTPClient

    /// Runs `body` against a fresh server and client, stopping both afterwards even on failure.
    static func with(
        followRedirects: Bool = false,
        decompression: HTTPClient.Decompression = .disabled,
        readTimeout: TimeAmount = .seconds(5),
        _ body: (Harness) async throws -> Void
    ) async throws {
        let server = try await TestServer.start()
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: followRedirects ? .follow(max: 10, allowCycles: false) : .disallow,
            timeout: .init(connect: .seconds(2), read: readTimeout),
            decompression: decompression
        )
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await body(Harness(server: server, client: client))
        } catch {
            try? await client.shutdown()
            try? await server.stop()
            throw error
        }
        try await client.shutdown()
        try await server.stop()
    }

    /// Sends a request to `path` on the server and collects the whole response.
    func fetch(
        _ path: String,
        method: HTTPMethod = .GET,
        headers: [(String, String)] = [],
        body: String? = nil,
        timeout: TimeAmount = .seconds(10)
    ) async throws -> Fetched {
        try await fetch(url: server.url(path), method: method, headers: headers, body: body, timeout: timeout)
    }

    /// Sends a request to an absolute URL and collects the whole response.
    func fetch(
        url: String,
        method: HTTPMethod = .GET,
        headers: [(String, String)] = [],
        body: String? = nil,
        timeout: TimeAmount = .seconds(10)
    ) async throws -> Fetched {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(contentsOf: headers)
        if let body {
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Fetched(status: Int(response.status.code), headers: response.headers, body: Array(bytes.readableBytesView))
    }
}

/// A collected response.
struct Fetched {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}
