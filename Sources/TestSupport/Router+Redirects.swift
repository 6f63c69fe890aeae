internal import LoopbackHTTP
internal import NIOHTTP1

/// The `/redirect/...` routes: single redirects, chains, a loop and a hop to the other host name.
extension Router {
    /// Dispatches `/redirect/{code}`, `/redirect/chain/{n}`, `/redirect/cycle[/b]`, `/redirect/cookie-once` and
    /// `/redirect/cross`.
    func redirect(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        let code = request.query("code").flatMap(Int.init) ?? 302
        switch rest.first ?? "" {
        case "chain":
            guard rest.count == 2, let remaining = Int(rest[1]), remaining >= 0 else {
                return badRequest("redirect count expected", writer)
            }
            if remaining == 0 {
                writer.sendJSON(.ok, ["redirected": true])
            } else {
                sendRedirect(code, to: "/redirect/chain/\(remaining - 1)", writer)
            }
        case "cycle":
            sendRedirect(code, to: rest.count > 1 ? "/redirect/cycle" : "/redirect/cycle/b", writer)
        case "cross":
            crossOriginRedirect(code, request, writer)
        case "cookie-once":
            // Back to itself with a cookie set, as a login or consent page does; answered once the cookie comes.
            guard request.header("Cookie")?.contains("seen=1") != true else { return writer.sendJSON(.ok, ["seen": true]) }
            writer.sendJSON(HTTPResponseStatus(statusCode: code), headers: [("Location", "/redirect/cookie-once"), ("Set-Cookie", "seen=1; Path=/")],
                            ["location": "/redirect/cookie-once"])
        case let segment:
            guard let status = Int(segment), (300...399).contains(status) else {
                return badRequest("redirect status expected", writer)
            }
            sendRedirect(status, to: request.query("to") ?? "/echo", writer)
        }
    }

    /// `/redirect/cross?to=localhost|127.0.0.1&path=/echo`: a redirect to the same port on another host name.
    private func crossOriginRedirect(_ code: Int, _ request: RecordedRequest, _ writer: ResponseWriter) {
        let requestHost = request.header("Host") ?? ""
        let otherHost = requestHost.hasPrefix("localhost") ? "127.0.0.1" : "localhost"
        let targetHost = request.query("to") ?? otherHost
        let port = writer.channel.localAddress?.port ?? 0
        let path = request.query("path") ?? "/echo"
        sendRedirect(code, to: "http://\(targetHost):\(port)\(path)", writer)
    }

    /// A redirect status with a Location header and a small JSON body.
    private func sendRedirect(_ code: Int, to location: String, _ writer: ResponseWriter) {
        writer.sendJSON(HTTPResponseStatus(statusCode: code), headers: [("Location", location)], ["location": location])
    }
}
