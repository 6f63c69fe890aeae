/// An HTTP request method: a validated RFC 9110 token such as `GET` or `PROPFIND`.
public struct HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    /// The method token exactly as sent on the wire.
    public let rawValue: String

    /// Creates a method from a token; nil when it is empty or holds a character RFC 9110 does not allow.
    public init?(_ token: String) {
        guard !token.isEmpty, token.utf8.allSatisfy(HTTPToken.isTokenCharacter) else { return nil }
        rawValue = token
    }

    private init(known token: String) { rawValue = token }

    public var description: String { rawValue }

    public static let get = HTTPMethod(known: "GET")
    public static let head = HTTPMethod(known: "HEAD")
    public static let post = HTTPMethod(known: "POST")
    public static let put = HTTPMethod(known: "PUT")
    public static let patch = HTTPMethod(known: "PATCH")
    public static let delete = HTTPMethod(known: "DELETE")
    public static let options = HTTPMethod(known: "OPTIONS")
    public static let trace = HTTPMethod(known: "TRACE")
    public static let connect = HTTPMethod(known: "CONNECT")

    /// Whether sending the request twice has the effect of sending it once (RFC 9110, 9.2.2): `GET`, `HEAD`,
    /// `OPTIONS`, `TRACE`, `PUT` and `DELETE`.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"].contains(rawValue)
    }
}

/// The `tchar` grammar of RFC 9110 section 5.6.2, shared by methods and header names.
enum HTTPToken {
    /// Whether a byte is allowed in a token.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether a whole string is a non-empty token.
    static func isToken(_ string: String) -> Bool {
        !string.isEmpty && string.utf8.allSatisfy(isTokenCharacter)
    }
}
