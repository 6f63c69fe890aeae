public import Foundation

/// A response as a value: the request that produced it, status, headers, body and timing.
public struct HTTPResponse: Sendable {
    /// The request that produced this response (the last hop after redirects).
    public var request: HTTPRequest
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// The body bytes, decompressed.
    public var body: Data
    /// When sending started.
    public var startedAt: Date
    /// The time of the whole exchange, from sending to the last body byte.
    public var duration: Duration
    /// How many attempts it took, counting the first.
    public var attempts: Int
    /// Why a response with a status its request retries on was kept, not retried (a `Retry-After` asking for a longer
    /// wait than a run gives); nil otherwise.
    public var notRetried: String?
    /// Whether the request was sent twice: written on a kept connection that closed before any answer, then sent again
    /// on another (an idempotent method), whose answer this is.
    public var resentAfterConnectionLoss = false
    /// Whether a retry sent the request again after an attempt that was written before it failed, its method not
    /// idempotent (a `POST`): the server may have acted on more than one.
    public var retriedAfterWritten = false
    /// Whether this is what came of a response cut short (its connection closed, its time out, its body past the size
    /// limit): the body ends where reading stopped, perhaps inside a secret.
    public var isCutShort = false

    public init(
        request: HTTPRequest, status: HTTPStatus, headers: HTTPHeaders = [:], body: Data = Data(),
        startedAt: Date = Date(), duration: Duration = .zero, attempts: Int = 1
    ) {
        self.request = request
        self.status = status
        self.headers = headers
        self.body = body
        self.startedAt = startedAt
        self.duration = duration
        self.attempts = attempts
    }

    /// The body as UTF-8 text, nil when it is not valid UTF-8.
    public var text: String? { String(data: body, encoding: .utf8) }

    /// The body as outputs show it: text cut short ends in `…` (without a character the cut fell inside of), so that a
    /// secret the cut fell inside of is hidden from its first bytes on, as in text runner cuts; other bodies as they are.
    public var shownBody: Data {
        guard isCutShort, !body.isEmpty else { return body }
        // A UTF-8 sequence begun at the end: its lead byte and what came of it.
        let lead = body.suffix(4).lastIndex { $0 & 0xC0 != 0x80 } ?? body.endIndex
        let needed = lead == body.endIndex ? 0 : body[lead] >= 0xF0 ? 4 : body[lead] >= 0xE0 ? 3 : body[lead] >= 0xC0 ? 2 : 1
        let whole = needed > body.endIndex - lead ? body[..<lead] : body[...]
        return String(data: whole, encoding: .utf8) == nil ? body : whole + Data("…".utf8)
    }
}
