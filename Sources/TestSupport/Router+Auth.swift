internal import Foundation
internal import LoopbackHTTP
internal import NIOHTTP1

/// The authentication and retry routes: Basic, Bearer, OAuth client credentials, 429 and flaky endpoints.
extension Router {
    /// `/basic-auth/{user}/{pass}`: 200 when the Basic credentials match, else 401 with a challenge.
    func basicAuth(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard rest.count == 2 else { return badRequest("user and password expected", writer) }
        let credentials = request.basicCredentials
        if credentials?.user == rest[0] && credentials?.password == rest[1] {
            writer.sendJSON(.ok, ["authenticated": true, "user": rest[0]])
        } else {
            unauthorized(challenge: "Basic realm=\"test\"", writer)
        }
    }

    /// `/bearer/{token}`: 200 when `Authorization: Bearer {token}` matches, else 401.
    func bearer(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard let expected = rest.first else { return badRequest("token expected", writer) }
        if request.bearerToken == expected {
            writer.sendJSON(.ok, ["authenticated": true, "token": expected])
        } else {
            unauthorized(challenge: "Bearer realm=\"test\"", writer)
        }
    }

    /// Dispatches `/oauth/token` and `/oauth/protected`.
    func oauth(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        switch rest.first ?? "" {
        case "token": issueToken(request, writer)
        case "protected":
            if let token = request.bearerToken, state.isValid(token: token) {
                writer.sendJSON(.ok, ["ok": true, "token": token])
            } else {
                unauthorized(challenge: "Bearer error=\"invalid_token\"", writer)
            }
        default: notFound(writer)
        }
    }

    /// `POST /oauth/token[?long=1]`: client-credentials grant; credentials by Basic auth or form fields; `long` issues a
    /// token of 20 characters or more.
    private func issueToken(_ request: RecordedRequest, _ writer: ResponseWriter) {
        guard request.method == "POST" else {
            return writer.sendJSON(.methodNotAllowed, headers: [("Allow", "POST")], ["error": "invalid_request"])
        }
        let form = request.formItems
        func field(_ name: String) -> String? { form.first { $0.name == name }?.value }
        guard field("grant_type") == "client_credentials" else {
            return writer.sendJSON(.badRequest, ["error": "unsupported_grant_type"])
        }
        let basic = request.basicCredentials
        let clientID = basic?.user ?? field("client_id")
        let clientSecret = basic?.password ?? field("client_secret")
        guard clientID == TestServer.oauthClientID, clientSecret == TestServer.oauthClientSecret else {
            return writer.sendJSON(.unauthorized, ["error": "invalid_client"])
        }
        let lifetime = request.query("expires_in").flatMap(Int.init) ?? 3600
        let token = state.issueToken(lifetime: TimeInterval(lifetime), long: request.query("long") == "1")
        var document: [String: Any] = ["access_token": token, "token_type": "Bearer", "expires_in": lifetime]
        if let scope = field("scope") {
            document["scope"] = scope
        }
        writer.sendJSON(.ok, headers: [("Cache-Control", "no-store")], document)
    }

    /// `/retry-after/{seconds}?key=K&times=N`: 429 with Retry-After the first N times for key K, then 200.
    func retryAfter(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard let seconds = rest.first else { return badRequest("seconds expected", writer) }
        let times = request.query("times").flatMap(Int.init) ?? 1
        let attempt = state.nextAttempt(for: "retry-after:" + (request.query("key") ?? "default"))
        if attempt <= times {
            writer.sendJSON(.tooManyRequests, headers: [("Retry-After", seconds)], ["attempts": attempt])
        } else {
            writer.sendJSON(.ok, ["attempts": attempt])
        }
    }

    /// `/fail-then-succeed/{key}/{n}?status=503`: that status n times for the key, then 200 `{"attempts":k}`;
    /// `status=stall`: no answer at all n times.
    func failThenSucceed(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard rest.count == 2, let failures = Int(rest[1]) else {
            return badRequest("key and failure count expected", writer)
        }
        let status = request.query("status").flatMap(Int.init) ?? 503
        let attempt = state.nextAttempt(for: "fail-then-succeed:" + rest[0])
        if request.query("status") == "stall", attempt <= failures { return }
        let responseStatus = attempt <= failures ? HTTPResponseStatus(statusCode: status) : .ok
        writer.sendJSON(responseStatus, ["attempts": attempt])
    }

    /// 401 with a WWW-Authenticate challenge.
    private func unauthorized(challenge: String, _ writer: ResponseWriter) {
        writer.sendJSON(.unauthorized, headers: [("WWW-Authenticate", challenge)], ["authenticated": false])
    }
}
