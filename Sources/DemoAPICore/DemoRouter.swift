internal import Foundation
internal import LoopbackHTTP
internal import NIOConcurrencyHelpers
internal import NIOHTTP1

/// Chooses the demo API route for a request by method and path and answers it.
struct DemoRouter: Sendable {
    /// Credentials and limits.
    let settings: DemoSettings
    /// The users resource.
    let users = UserStore(seed: [
        (name: "ada", age: 36, tags: ["admin"]),
        (name: "alan", age: 41, tags: ["staff"]),
        (name: "grace", age: 85, tags: ["admin", "staff"]),
    ])
    /// Issued login and OAuth tokens.
    let tokens = TokenStore()
    /// The limit of `/api/limited`.
    let limiter: RateLimiter
    /// The report jobs of `/api/jobs`.
    let jobs = JobStore()
    /// How many requests `/api/flaky` has received.
    let flakyCount = NIOLockedValueBox(0)

    /// A router with empty state (apart from three seed users) for `settings`.
    init(settings: DemoSettings) {
        self.settings = settings
        self.limiter = RateLimiter(perSecond: settings.requestsPerSecond)
    }

    /// Answers `request` through `writer`, possibly later (for `/api/slow`).
    func respond(to request: IncomingRequest, with writer: ResponseWriter) {
        let segments = request.path.split(separator: "/").map(String.init)
        let on = MethodDispatch(request: request, writer: writer)
        switch segments {
        case ["oauth", "token"]: on.methods(["POST": { issueClientToken(request, writer) }])
        case ["api", "login"]: on.methods(["POST": { login(request, writer) }])
        case ["api", "users"]:
            on.methods(["GET": { listUsers(request, writer) }, "POST": { createUser(request, writer) }])
        case let path where path.count == 3 && path[0] == "api" && path[1] == "users":
            on.methods([
                "GET": { fetchUser(path[2], request, writer) },
                "PUT": { updateUser(path[2], request, writer) },
                "DELETE": { deleteUser(path[2], request, writer) },
            ])
        case ["api", "feed.xml"]: on.methods(["GET": { feed(request, writer) }])
        case ["api", "graphql"]: on.methods(["POST": { graphql(request, writer) }])
        case ["api", "uploads"]: on.methods(["POST": { upload(request, writer) }])
        case ["api", "jobs"]: on.methods(["POST": { createJob(request, writer) }])
        case let path where path.count == 3 && path[0] == "api" && path[1] == "jobs":
            on.methods(["GET": { pollJob(path[2], request, writer) }])
        case ["api", "reports", "daily"]: on.methods(["GET": { dailyReport(request, writer) }])
        case ["api", "limited"]: on.methods(["GET": { limited(writer) }])
        case ["api", "flaky"]: on.methods(["GET": { flaky(writer) }])
        case ["api", "old-page"]: on.methods(["GET": { oldPage(writer) }])
        case ["api", "page"]: on.methods(["GET": { page(writer) }])
        case ["api", "slow"]: on.methods(["GET": { slow(request, writer) }])
        case ["api", "health"]: on.methods(["GET": { writer.sendJSON(.ok, ["status": "ok"]) }])
        default: sendError(.notFound, "no route for \(request.path)", writer)
        }
    }

    /// Sends `{"error": message}` (and the field, for validation errors) with `status`.
    func sendError(
        _ status: HTTPResponseStatus,
        _ message: String,
        field: String? = nil,
        headers: [(String, String)] = [],
        _ writer: ResponseWriter
    ) {
        var document: [String: Any] = ["error": message]
        document["field"] = field
        writer.sendJSON(status, headers: headers, document)
    }

    /// Sends a validation error as 422.
    func sendInvalid(_ error: ValidationError, _ writer: ResponseWriter) {
        sendError(.unprocessableEntity, error.field.map { "\($0) \(error.message)" } ?? error.message, field: error.field, writer)
    }

    /// Sends an `Encodable` value as a JSON body.
    func sendEncoded(_ status: HTTPResponseStatus, headers: [(String, String)] = [], _ value: some Encodable, _ writer: ResponseWriter) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
        writer.send(status, headers: headers, contentType: "application/json", body: body)
    }

    /// `GET /api/limited`: 200 while the client stays within its rate, else 429 with `Retry-After: 1`.
    private func limited(_ writer: ResponseWriter) {
        if limiter.admit(writer.clientAddress ?? "unknown") {
            writer.sendJSON(.ok, ["status": "ok", "limit": settings.requestsPerSecond])
        } else {
            sendError(.tooManyRequests, "rate limit of \(settings.requestsPerSecond) requests per second exceeded",
                      headers: [("Retry-After", "1")], writer)
        }
    }

    /// `GET /api/flaky`: 503 on the 1st, 3rd, 5th… request, 200 on the others.
    private func flaky(_ writer: ResponseWriter) {
        let attempt = flakyCount.withLockedValue { count in
            count += 1
            return count
        }
        if attempt % 2 == 1 {
            sendError(.serviceUnavailable, "temporarily unavailable, try again", writer)
        } else {
            writer.sendJSON(.ok, ["status": "ok", "attempt": attempt])
        }
    }

    /// `GET /api/slow?ms=N`: 200 after N milliseconds (default 1000, at most 30000), without blocking the loop.
    private func slow(_ request: IncomingRequest, _ writer: ResponseWriter) {
        let text = request.query("ms") ?? "1000"
        guard let milliseconds = Int64(text), (0...30_000).contains(milliseconds) else {
            return sendInvalid(ValidationError(field: "ms", message: "must be an integer from 0 to 30000"), writer)
        }
        writer.after(milliseconds: milliseconds) {
            writer.sendJSON(.ok, ["waited_ms": milliseconds])
        }
    }
}

/// Runs the handler registered for a request's method, or answers 405 with an `Allow` header.
private struct MethodDispatch {
    let request: IncomingRequest
    let writer: ResponseWriter

    /// Calls the handler for the request's method among `handlers`.
    func methods(_ handlers: [String: () -> Void]) {
        if let handler = handlers[request.method] {
            handler()
        } else {
            let allowed = handlers.keys.sorted().joined(separator: ", ")
            writer.sendJSON(.methodNotAllowed, headers: [("Allow", allowed)], ["error": "method \(request.method) not allowed"])
        }
    }
}
