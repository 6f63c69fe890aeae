/// Why a request could not complete: a code, the request, any response, the cause and a readable message.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case invalidRequest, cannotConnect, timedOut, cancelled, insecureConnection
        case invalidResponse, responseTooLarge, tooManyRedirects, unknown
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
