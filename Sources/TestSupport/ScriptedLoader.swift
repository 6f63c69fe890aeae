public import HTTPCore
public import Loaders
public import Foundation

/// A loader for tests: answers from canned replies and records every request it receives.
public actor ScriptedLoader: HTTPLoader {
    /// One canned answer.
    public enum Reply: Sendable {
        /// A response with this status, headers and body.
        case response(status: Int, headers: HTTPHeaders = [:], body: Data = Data())
        /// A failure with this code.
        case failure(HTTPError.Code)
        /// The reply after a wait; cancellation during the wait fails with `cancelled`, and a request
        /// deadline that comes first fails it with `timedOut` at the deadline.
        indirect case delayed(Duration, Reply)

        /// A JSON text response with status 200 unless told otherwise.
        public static func json(_ text: String, status: Int = 200) -> Reply {
            .response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
    }

    /// A reply given when a request matches.
    public struct Route: Sendable {
        let matches: @Sendable (HTTPRequest) -> Bool
        let reply: Reply

        /// A route answering `reply` to requests for which `matches` holds.
        public init(_ matches: @escaping @Sendable (HTTPRequest) -> Bool, reply: Reply) {
            self.matches = matches
            self.reply = reply
        }

        /// A route for requests whose path is `path`.
        public static func path(_ path: String, _ reply: Reply) -> Route {
            Route({ $0.path == path }, reply: reply)
        }
    }

    private var replies: [Reply]
    private let routes: [Route]
    private let fallback: Reply

    /// The requests received so far, in order.
    public private(set) var received: [HTTPRequest] = []

    /// Answers with `replies` in order, then with `fallback` (a 200 with no body unless told).
    public init(_ replies: [Reply] = [], fallback: Reply = .response(status: 200)) {
        self.replies = replies
        self.routes = []
        self.fallback = fallback
    }

    /// Answers with the first route that matches, or `fallback`.
    public init(routes: [Route], fallback: Reply = .response(status: 404)) {
        self.replies = []
        self.routes = routes
        self.fallback = fallback
    }

    /// How many requests were received.
    public var count: Int { received.count }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        received.append(copy request)
        let reply = routes.first { $0.matches(request) }?.reply ?? (replies.isEmpty ? fallback : replies.removeFirst())
        return try await answer(reply, to: request)
    }

    private func answer(_ reply: Reply, to request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        switch reply {
        case let .response(status, headers, body):
            return HTTPResponse(request: request, status: HTTPStatus(status), headers: headers, body: body)
        case .failure(let code):
            throw HTTPError(code, request: request, message: "scripted \(code) for \(request.displayURL)")
        case let .delayed(duration, reply):
            if let deadline = request.deadline, ContinuousClock.now + duration > deadline {
                try await Sleeper.continuous(ContinuousClock.now.duration(to: deadline), for: request)
                throw HTTPError(.timedOut, request: request, message: "scripted deadline passed for \(request.displayURL)")
            }
            try await Sleeper.continuous(duration, for: request)
            return try await answer(reply, to: request)
        }
    }
}
