internal import Foundation
internal import LoopbackHTTP
internal import NIOHTTP1

/// Signing in: the login token, OAuth2 client credentials, the report they open, and the HTML page with a session.
extension DemoRouter {
    /// The JSON body of `POST /api/login`.
    private struct Credentials: Decodable {
        let username: String
        let password: String
    }

    /// `POST /api/login` with `{"username","password"}`: 200 `{"token"}`, 401 on wrong credentials.
    func login(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard let credentials = try? JSONDecoder().decode(Credentials.self, from: Data(request.body)) else {
            return sendError(.badRequest, "send a JSON object with username and password", writer)
        }
        guard credentials.username == settings.username, credentials.password == settings.password else {
            return sendError(.unauthorized, "wrong username or password", writer)
        }
        let token = tokens.issue(.session, lifetime: settings.tokenLifetime)
        writer.sendJSON(.ok, headers: [("Cache-Control", "no-store")], ["token": token, "expires_in": settings.tokenLifetime])
    }

    /// `POST /oauth/token`: the client-credentials grant; the client authenticates by Basic auth or form fields.
    func issueClientToken(_ request: IncomingRequest, _ writer: ResponseWriter) {
        let form = request.formItems
        func field(_ name: String) -> String? { form.first { $0.name == name }?.value }
        guard field("grant_type") == "client_credentials" else {
            return writer.sendJSON(.badRequest, ["error": "unsupported_grant_type"])
        }
        let basic = request.basicCredentials
        guard (basic?.user ?? field("client_id")) == settings.clientID,
              (basic?.password ?? field("client_secret")) == settings.clientSecret
        else {
            return writer.sendJSON(.unauthorized, headers: [("WWW-Authenticate", "Basic realm=\"oauth\"")], ["error": "invalid_client"])
        }
        let token = tokens.issue(.clientCredentials, lifetime: settings.tokenLifetime)
        var document: [String: Any] = ["access_token": token, "token_type": "Bearer", "expires_in": settings.tokenLifetime]
        document["scope"] = field("scope")
        writer.sendJSON(.ok, headers: [("Cache-Control", "no-store")], document)
    }

    /// `GET /api/reports/daily`: a plain-text report for holders of an OAuth token, else 401.
    func dailyReport(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard tokens.isValid(request.bearerToken, for: .clientCredentials) else {
            return sendError(.unauthorized, "a bearer token from POST /oauth/token is required",
                             headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")], writer)
        }
        let day = Date().formatted(.iso8601.year().month().day())
        let text = "daily report: \(day): \(users.count) users\n"
        writer.send(.ok, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    /// `GET /api/old-page`: a permanent redirect to `/api/page`.
    func oldPage(_ writer: ResponseWriter) {
        writer.send(.movedPermanently, headers: [("Location", "/api/page")], body: Array("moved to /api/page\n".utf8))
    }

    /// `GET /api/page`: an HTML sign-in page with a CSRF token, starting a session cookie.
    func page(_ writer: ResponseWriter) {
        let csrf = Self.randomHex()
        let html = """
        <!DOCTYPE html>
        <html><head><title>Demo API</title></head>
        <body><h1>Welcome to the demo API</h1>
        <form method="post" action="/api/login">
        <input type="hidden" name="csrf" value="\(csrf)">
        <input name="username"><input name="password" type="password"><button type="submit">Sign in</button>
        </form></body></html>

        """
        writer.send(
            .ok,
            headers: [("Set-Cookie", "session=\(Self.randomHex()); Path=/; HttpOnly")],
            contentType: "text/html; charset=utf-8",
            body: Array(html.utf8)
        )
    }

    /// 32 random lowercase hex digits.
    static func randomHex() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
