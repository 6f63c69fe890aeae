/// Why a request could not complete: a code, the request, any response, the cause and a readable message.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure: a struct over a private enum, so that a new kind breaks no caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case invalidRequest, cannotConnect, timedOut, cancelled, insecureConnection
            case invalidResponse, responseTooLarge, tooManyRedirects, unknown
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The request cannot be sent as it is (not an absolute http(s) URL, a body that cannot be encoded).
        public static let invalidRequest = Code(.invalidRequest)
        /// No connection could be made, or it closed before the response.
        public static let cannotConnect = Code(.cannotConnect)
        /// The request did not complete within its timeout.
        public static let timedOut = Code(.timedOut)
        /// The request was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The TLS handshake failed (an untrusted certificate, a server without TLS).
        public static let insecureConnection = Code(.insecureConnection)
        /// The response was not valid HTTP, or was cut short.
        public static let invalidResponse = Code(.invalidResponse)
        /// The response body passed its size or decompression limit.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// Redirects went on past the limit or in a cycle.
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// Any other failure.
        public static let unknown = Code(.unknown)

        /// The code's name, such as `timedOut`.
        public var description: String { kind.rawValue }
    }

    public var code: Code
    public var request: HTTPRequest
    /// The response, when one arrived before the failure (for example the last redirect).
    public var response: HTTPResponse?
    /// The error that caused this one, when there is one.
    public var underlyingError: (any Error & Sendable)?
    /// What went wrong, for a person.
    public var message: String
    /// How many attempts were made before giving up.
    public var attempts: Int
    /// Whether the request was sent twice: written on a kept connection that closed before any answer, then sent again
    /// on another (an idempotent method), which failed so.
    public var resentAfterConnectionLoss = false
    /// Whether the request's head was written before it failed: the server may have acted on it.
    public var requestWritten = false
    /// Whether the failure is the proxy's: it could not be reached, asked for credentials or refused the tunnel.
    public var atProxy = false
    /// Whether the server's certificate was refused because no trusted authority issued it (not for its dates or name):
    /// what `caCert` decides.
    public var certificateNotTrusted = false
    /// Whether a retry sent the request again after an attempt that was written before it failed, its method not
    /// idempotent (a `POST`): the server may have acted on more than one.
    public var retriedAfterWritten = false
    /// The URL (as shown) of the request a redirect led from to `request`, when `request` is a redirect's hop.
    public private(set) var redirectedFrom: String?

    /// Marks the error as a redirect hop's, from the request shown as `previous` (nil: not one), and says so at the end of
    /// the message: ` (after a redirect from URL)`.
    public mutating func redirected(from previous: String?) {
        guard let previous else { return }
        redirectedFrom = previous
        message += " (after a redirect from \(previous))"
    }

    /// The server's response: `response`, unless that is a proxy's answer to the `CONNECT` of a tunnel it refused.
    public var serverResponse: HTTPResponse? { response?.request.method == .connect ? nil : response }

    /// The request last written: the `CONNECT` a proxy refused (the request of its answer), else `request`.
    public var lastWritten: HTTPRequest {
        if let response, response.request.method == .connect { return response.request }
        return request
    }

    public init(
        _ code: Code, request: HTTPRequest, response: HTTPResponse? = nil,
        underlyingError: (any Error & Sendable)? = nil, message: String, attempts: Int = 1
    ) {
        self.code = code
        self.request = request
        self.response = response
        self.underlyingError = underlyingError
        self.message = message
        self.attempts = attempts
    }

    public var description: String { message }
}
