internal import LoopbackHTTP
internal import NIOHTTP1

/// Framing faults beyond the streaming routes: responses whose body is longer than they announce, status lines HTTP/1.1
/// cannot encode.
extension Router {
    /// `/overlong-body`: announces 10 bytes, sends 30 ("0123456789" then 20 `x`), and keeps the connection open.
    func overlongBody(_ writer: ResponseWriter) {
        writer.writeHead(.ok, headers: [("Content-Type", "text/plain"), ("Content-Length", "10")])
        writer.writeBody(Array("0123456789".utf8) + Array(repeating: UInt8(ascii: "x"), count: 20))
    }
}

    /// `/not-modified/{length}`: a 304 declaring `Content-Length: {length}` (its representation's length; a 304 has no
    /// body), written past the HTTP/1.1 encoder, which drops the header; the connection closed. Over HTTP/2, the same head.
    func notModified(declaring length: String, _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard request.httpVersion == "HTTP/2.0" else {
            return writer.writeRaw(Array("HTTP/1.1 304 Not Modified\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8))
        }
        writer.writeHead(.notModified, headers: [("Content-Length", length)])
        writer.finish()
    }

    /// `/no-content-with-body`: a 204 declaring `Content-Length: 2`, its head written past the HTTP/1.1 encoder (which
    /// drops the header), then, 100 ms later, the two bytes `{}` a 204 cannot have; the connection stays open. Over
    /// HTTP/2, a plain 204.
    func noContentWithBody(_ request: RecordedRequest, _ writer: ResponseWriter) {
        guard request.httpVersion == "HTTP/2.0" else {
            writer.writeRaw(Array("HTTP/1.1 204 No Content\r\nContent-Length: 2\r\n\r\n".utf8), closing: false)
            return writer.writeRaw(Array("{}".utf8), after: .milliseconds(100), closing: false)
        }
        writer.writeHead(.noContent, headers: [])
        writer.finish()
    }

    /// `/late-body`: a 200 declaring `Content-Length: 11`, its head written at once and its body `{"late": 1}` 100 ms
    /// later, also to a `HEAD` (which has no body: the bytes then stand where the next answer should start); the
    /// connection stays open. Over HTTP/2, a plain 200.
    func lateBody(_ request: RecordedRequest, _ writer: ResponseWriter) {
        guard request.httpVersion == "HTTP/2.0" else {
            writer.writeRaw(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n".utf8), closing: false)
            return writer.writeRaw(Array(#"{"late": 1}"#.utf8), after: .milliseconds(100), closing: false)
        }
        writer.send(.ok, contentType: "application/json", body: Array(#"{"late": 1}"#.utf8))
    }

    /// `/raw-status/{code}`: the status line `HTTP/1.1 {code} Raw` as written (`099`, `000`), an empty body, and the
    /// connection closed; over HTTP/2, `:status` of the code's number.
    func rawStatus(_ code: String, _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard request.httpVersion == "HTTP/2.0" else {
            return writer.writeRaw(Array("HTTP/1.1 \(code) Raw\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        }
        writer.writeHead(HTTPResponseStatus(statusCode: Int(code) ?? 0), headers: [("Content-Length", "0")])
        writer.finish()
    }
