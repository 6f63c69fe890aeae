public import Foundation

/// A request body: knows whether it is empty, which headers it implies and how to become bytes.
public protocol HTTPBody: Sendable {
    /// Whether the body has no content to send.
    var isEmpty: Bool { get }
    /// Headers the body implies, such as `Content-Type`; a request's own headers win.
    var additionalHeaders: HTTPHeaders { get }
    /// The bytes to send.
    func encode() throws -> Data
}

extension HTTPBody {
    public var isEmpty: Bool { false }
    public var additionalHeaders: HTTPHeaders { [:] }
}

/// No body at all.
public struct EmptyBody: HTTPBody {
    public init() {}
    public var isEmpty: Bool { true }
    public func encode() throws -> Data { Data() }
}

/// Raw bytes with an optional content type.
public struct DataBody: HTTPBody {
    public var data: Data
    public var contentType: String?

    /// Creates a body from bytes, sending `contentType` as `Content-Type` when given.
    public init(_ data: Data, contentType: String? = nil) {
        self.data = data
        self.contentType = contentType
    }

    /// Creates a body from text sent as UTF-8, `text/plain; charset=utf-8` unless told otherwise.
    public init(text: String, contentType: String? = "text/plain; charset=utf-8") {
        self.init(Data(text.utf8), contentType: contentType)
    }

    public var isEmpty: Bool { data.isEmpty }

    public var additionalHeaders: HTTPHeaders {
        contentType.map { ["Content-Type": $0] } ?? [:]
    }

    public func encode() throws -> Data { data }
}

/// Percent-encoding shared by form bodies, query strings and URLs.
public enum PercentEncoding {
    /// A whole URL's text that does not parse as written (spaces, CR, LF) with what a URL cannot hold encoded, while
    /// `?`, `&`, `#` and existing escapes keep their meaning; nil when it cannot be encoded.
    public static func encodeURL(_ text: String) -> String? {
        text.addingPercentEncoding(withAllowedCharacters: urlCharacters)
    }

    /// The characters `encodeURL` keeps.
    private static let urlCharacters: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%")
        return allowed
    }()

    /// The ASCII bytes an encoding leaves as they are.
    public enum Kept: Sendable {
        /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_` and `~` (query names and values, forms).
        case unreserved
        /// Letters and digits only.
        case alphanumerics
    }

    /// Percent-encodes every byte of the UTF-8 form except the ones `kept` names.
    public static func encode(_ string: String, keeping kept: Kept = .unreserved) -> String {
        var encoded = ""
        encoded.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            let keeps = switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): kept == .unreserved
            default: false
            }
            if keeps {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%"
                encoded += hexDigits[Int(byte >> 4)]
                encoded += hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
    }

    private static let hexDigits = "0123456789ABCDEF".map(String.init)
}

/// An `application/x-www-form-urlencoded` body; fields keep their order and may repeat.
public struct FormBody: HTTPBody {
    public var fields: [(name: String, value: String)]

    /// Creates a form from ordered name/value pairs.
    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    public var isEmpty: Bool { fields.isEmpty }

    public var additionalHeaders: HTTPHeaders {
        ["Content-Type": "application/x-www-form-urlencoded"]
    }

    /// The encoded text: `name=value` pairs joined by `&`, all but ASCII alphanumerics percent-encoded.
    public var encodedText: String {
        fields.map {
            PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value)
        }.joined(separator: "&")
    }

    public func encode() throws -> Data { Data(encodedText.utf8) }
}
