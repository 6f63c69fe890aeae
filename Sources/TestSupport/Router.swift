internal import Foundation
internal import LoopbackHTTP
internal import NIOHTTP1

/// Chooses the route for a request by its first path segment and answers it.
struct Router: Sendable {
    /// Counters, tokens and records shared by all connections of the server.
    let state: ServerState

    /// Answers `request` through `writer`, possibly later or never (for `/stall`).
    func respond(to request: RecordedRequest, with writer: ResponseWriter) {
        let segments = request.path.split(separator: "/").map(String.init)
        let rest = Array(segments.dropFirst())
        switch segments.first ?? "" {
        case "echo": echo(request, writer)
        case "status": status(rest, request, writer)
        case "wait": wait(rest, writer)
        case "headers": headers(request, writer)
        case "set-cookie": setCookie(request, writer)
        case "json": fixture(rest, writer)
        case "xml": xmlFixture(rest, writer)
        case "text": writer.send(.ok, contentType: "text/html; charset=utf-8", body: Array(Fixtures.html.utf8))
        case "binary": writer.send(.ok, contentType: "application/octet-stream", body: Array(0...255))
        case "html": writer.send(.ok, contentType: "text/html", body: Array(Fixtures.looseHTML.utf8))
        case "redirect": redirect(rest, request, writer)
        case "basic-auth": basicAuth(rest, request, writer)
        case "bearer": bearer(rest, request, writer)
        case "oauth": oauth(rest, request, writer)
        case "retry-after": retryAfter(rest, request, writer)
        case "fail-then-succeed": failThenSucceed(rest, request, writer)
        case "poll": poll(rest, request, writer)
        case "close-mid-body": closeMidBody(writer)
        case "cut-echo": cutEcho(request, writer)
        case "wrong-length": wrongLength(writer)
        case "overlong-body": overlongBody(writer)
        case "raw-status": rawStatus(rest.first ?? "099", request, writer)
        case "not-modified": notModified(declaring: rest.first ?? "0", request, writer)
        case "no-content-with-body": noContentWithBody(request, writer)
        case "late-body": lateBody(request, writer)
        case "drip": drip(request, writer)
        case "stall": break
        case "chunked": chunked(request, writer)
        case "large": large(rest, chunked: false, writer)
        case "large-chunked": large(rest, chunked: true, writer)
        case "gzip": gzip(request, writer)
        case "gzip-bomb": gzipBomb(request, writer)
        case "hostile": hostile(request, writer)
        case "anything": anything(request, writer)
        case "drop": drop(rest, request, writer)
        case "close-after": closeAfter(writer)
        case "linger": linger(rest, writer)
        case "http10": http10(writer)
        case "things": things(rest, request, writer)
        default: notFound(writer)
        }
    }

    /// 404 with a JSON error body.
    func notFound(_ writer: ResponseWriter) {
        writer.sendJSON(.notFound, ["error": "not found"])
    }

    /// 400 with a JSON error body naming the problem.
    func badRequest(_ message: String, _ writer: ResponseWriter) {
        writer.sendJSON(.badRequest, ["error": message])
    }

    /// `/echo`: the request back as JSON (method, path, query, headers, body, parsed JSON body).
    private func echo(_ request: RecordedRequest, _ writer: ResponseWriter) {
        writer.sendJSON(.ok, Self.echoDocument(of: request))
    }

    /// The JSON document `/echo` answers with, also embedded by `/gzip`.
    static func echoDocument(of request: RecordedRequest) -> [String: Any] {
        var query: [String: [String]] = [:]
        for item in request.queryItems {
            query[item.name, default: []].append(item.value)
        }
        var headers: [String: String] = [:]
        for header in request.headers {
            let name = header.name.lowercased()
            headers[name] = headers[name].map { $0 + ", " + header.value } ?? header.value
        }
        let text = request.bodyText
        return [
            "method": request.method,
            "path": request.path,
            "uri": request.uri,
            "query": query.mapValues { $0.count == 1 ? $0[0] as Any : $0 as Any },
            "headers": headers,
            "body": text ?? Data(request.body).base64EncodedString(),
            "bodyEncoding": text == nil ? "base64" : "utf8",
            "json": JSONText.parse(request.body) ?? NSNull(),
        ]
    }

    /// `/status/{code}?header=Name:Value`: that status with a small JSON body and any extra headers.
    private func status(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard let code = rest.first.flatMap(Int.init), (100...999).contains(code) else {
            return badRequest("status code expected", writer)
        }
        let extraHeaders: [(String, String)] = request.queryItems.filter { $0.name == "header" }.compactMap { item in
            guard let colon = item.value.firstIndex(of: ":") else { return nil }
            let name = item.value[..<colon].trimmingCharacters(in: .whitespaces)
            let value = item.value[item.value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return (name, value)
        }
        let status = HTTPResponseStatus(statusCode: code)
        let bodyless = code == 204 || code == 304 || code < 200
        writer.send(
            status,
            headers: extraHeaders,
            contentType: "application/json",
            body: bodyless ? [] : JSONText.bytes(of: ["status": code])
        )
    }

    /// `/wait/{ms}`: 200 after the given delay, scheduled on the event loop.
    private func wait(_ rest: [String], _ writer: ResponseWriter) {
        guard let milliseconds = rest.first.flatMap(Int64.init), milliseconds >= 0 else {
            return badRequest("milliseconds expected", writer)
        }
        writer.after(milliseconds: milliseconds) {
            writer.sendJSON(.ok, ["waited_ms": milliseconds])
        }
    }

    /// `/headers?Name=Value`: a response carrying those headers, listed again in the JSON body.
    private func headers(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let pairs = request.queryItems.map { ($0.name, $0.value) }
        writer.sendJSON(.ok, headers: pairs, Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
    }

    /// `/set-cookie?name=value`: one Set-Cookie header per query parameter; `/set-cookie/redirect?to=PATH&name=value`
    /// sets them on a 302 to `PATH`.
    private func setCookie(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let redirects = request.path.split(separator: "/").dropFirst().first == "redirect"
        let items = request.queryItems.filter { !redirects || $0.name != "to" }
        let cookies = items.map { ("Set-Cookie", "\($0.name)=\($0.value); Path=/") }
        let body = Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        if redirects {
            let location = request.query("to") ?? "/echo"
            writer.sendJSON(.found, headers: cookies + [("Location", location)], ["location": location])
        } else {
            writer.sendJSON(.ok, headers: cookies, ["cookies": body])
        }
    }

    /// `/xml/{name}`: one of the fixed XML documents as `application/xml`, or 404.
    private func xmlFixture(_ rest: [String], _ writer: ResponseWriter) {
        guard let name = rest.first, let document = Fixtures.xml[name] else {
            return notFound(writer)
        }
        writer.send(.ok, contentType: "application/xml", body: Array(document.utf8))
    }

    /// `/json/{name}`: one of the fixed JSON documents, or 404.
    private func fixture(_ rest: [String], _ writer: ResponseWriter) {
        guard let name = rest.first, let document = Fixtures.json[name] else {
            return notFound(writer)
        }
        writer.sendJSONText(.ok, document)
    }
}
