internal import LoopbackHTTP
internal import NIOHTTP1

/// The transport-misbehaviour and body-shape routes: truncated, dripping, stalled, chunked, large, gzip.
extension Router {
    /// `/close-mid-body`: announces 1000 bytes, sends 10, then closes the connection.
    func closeMidBody(_ writer: ResponseWriter) {
        writer.writeHead(.ok, headers: [("Content-Type", "text/plain"), ("Content-Length", "1000")])
        writer.writeBody(Array(repeating: UInt8(ascii: "x"), count: 10)).whenComplete { _ in
            writer.closeConnection()
        }
    }

    /// `/cut-echo?trim=N`: announces 1000 bytes of JSON echoing the request's `Authorization`, sends it up to N bytes
    /// (default 4) before the header value's end, then closes the connection: a body cut inside a credential.
    func cutEcho(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let trim = request.query("trim").flatMap(Int.init) ?? 4
        let body = Array(#"{"message": "partial", "auth": ""#.utf8) + (request.header("Authorization") ?? "").utf8.dropLast(trim)
        writer.writeHead(.ok, headers: [("Content-Type", "application/json"), ("Content-Length", "1000")])
        writer.writeBody(body).whenComplete { _ in writer.closeConnection() }
    }

    /// `/wrong-length`: announces 100 bytes, sends 10, then leaves the connection idle until the client gives up.
    func wrongLength(_ writer: ResponseWriter) {
        writer.writeHead(.ok, headers: [("Content-Type", "text/plain"), ("Content-Length", "100")])
        writer.writeBody(Array(repeating: UInt8(ascii: "x"), count: 10))
    }

    /// `/drip?bytes=N&interval_ms=M`: N bytes (default 10) with Content-Length, one every M ms (default 100).
    func drip(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let byteCount = request.query("bytes").flatMap(Int.init) ?? 10
        let interval = request.query("interval_ms").flatMap(Int64.init) ?? 100
        writer.writeHead(.ok, headers: [("Content-Type", "text/plain"), ("Content-Length", String(byteCount))])
        writer.stream(byteCount: byteCount, pieceSize: 1, pause: interval)
    }

    /// `/chunked?chunks=N&size=S`: chunked transfer encoding, N chunks (default 3) of S bytes (default 10),
    /// chunk i filled with the letter `a`+i (cycling), so the body is e.g. "aaaa…bbbb…cccc…".
    func chunked(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let chunks = request.query("chunks").flatMap(Int.init) ?? 3
        let size = max(1, request.query("size").flatMap(Int.init) ?? 10)
        writer.writeHead(.ok, headers: [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
        for index in 0..<max(0, chunks) {
            writer.writeBody(Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size))
        }
        writer.finish()
    }

    /// `/large/{bytes}` (Content-Length) and `/large-chunked/{bytes}` (chunked): that many `x` bytes, streamed.
    func large(_ rest: [String], chunked: Bool, _ writer: ResponseWriter) {
        guard let byteCount = rest.first.flatMap(Int.init), byteCount >= 0 else {
            return badRequest("byte count expected", writer)
        }
        let framing = chunked ? ("Transfer-Encoding", "chunked") : ("Content-Length", String(byteCount))
        writer.writeHead(.ok, headers: [("Content-Type", "application/octet-stream"), framing])
        writer.stream(byteCount: byteCount)
    }

    /// `/gzip`: a gzip-encoded JSON body `{"gzipped":true,"method":…,"headers":…}`; `/gzip?cut=N`: its first N bytes
    /// (`cut=0`: `Content-Encoding: gzip` and no body).
    func gzip(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let echo = Self.echoDocument(of: request)
        let document: [String: Any] = ["gzipped": true, "method": request.method, "headers": echo["headers"] ?? [:]]
        writer.send(
            .ok,
            headers: [("Content-Encoding", "gzip")],
            contentType: "application/json",
            body: Array(Gzip.stored(JSONText.bytes(of: document)).prefix(request.query("cut").flatMap(Int.init) ?? .max))
        )
    }

    /// `/gzip-bomb?bytes=N`: a small gzip body that inflates to N zero bytes (default 10 MiB, about 66 KB sent).
    func gzipBomb(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let byteCount = request.query("bytes").flatMap(Int.init) ?? 10 * 1024 * 1024
        writer.send(
            .ok,
            headers: [("Content-Encoding", "gzip")],
            contentType: "application/octet-stream",
            body: Gzip.zeros(count: max(0, byteCount))
        )
    }
}
