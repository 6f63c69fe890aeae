/// An HTTP response status code with its class (1xx to 5xx).
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    /// The class of a status code, given by its first digit.
    public enum Class: Sendable, Hashable {
        case informational, successful, redirection, clientError, serverError, unknown
    }

    /// The numeric code, such as 200 or 404.
    public let code: Int

    /// Creates a status from its numeric code.
    public init(_ code: Int) { self.code = code }

    /// The class the code belongs to.
    public var `class`: Class {
        switch code {
        case 100..<200: .informational
        case 200..<300: .successful
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500..<600: .serverError
        default: .unknown
        }
    }

    /// Whether the code is 2xx.
    public var isSuccess: Bool { self.class == .successful }

    /// Whether the code is one of the redirects a client follows: 301, 302, 303, 307, 308.
    public var isFollowableRedirect: Bool { [301, 302, 303, 307, 308].contains(code) }

    public var description: String { String(code) }

    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let noContent = HTTPStatus(204)
    public static let movedPermanently = HTTPStatus(301)
    public static let found = HTTPStatus(302)
    public static let seeOther = HTTPStatus(303)
    public static let notModified = HTTPStatus(304)
    public static let temporaryRedirect = HTTPStatus(307)
    public static let permanentRedirect = HTTPStatus(308)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let tooManyRequests = HTTPStatus(429)
    public static let internalServerError = HTTPStatus(500)
    public static let badGateway = HTTPStatus(502)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let gatewayTimeout = HTTPStatus(504)
}
