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
    /// A URL as written: parsed as it is, or, when it holds characters a URL cannot (spaces, non-ASCII letters, CR,
    /// LF, a `%` that starts no escape), with `encodeURL` applied (Foundation's own fallback encodes every `%` again:
    /// `my%20doc` became `my%2520doc`); nil when it is not a URL either way. An international host, written as it
    /// reads or percent-encoded, becomes its IDNA name (`xn--` labels), which is what `Host`, DNS and a proxy get.
    public static func components(ofURL text: String) -> URLComponents? {
        guard var components = URLComponents(string: text, encodingInvalidCharacters: false)
            ?? URLComponents(string: encodeURL(text), encodingInvalidCharacters: false) else { return nil }
        if let host = components.encodedHost, host.utf8.contains(UInt8(ascii: "%")),
           let name = components.host, !name.utf8.allSatisfy({ $0 < 0x80 }) {
            // A name IDNA cannot write (`-bücher`) stays as it was, for the URL check to name.
            var international = components
            international.host = name
            if international.string != nil { components = international }
        }
        return components
    }

    /// A URL's text with what a URL cannot hold percent-encoded, byte by byte of its UTF-8 form: letters, digits,
    /// `-._~`, the punctuation `urlPunctuation` (so `?`, `&`, `#` keep their meaning) and valid `%XX` escapes stay as
    /// they are; a `%` that starts no escape becomes `%25`. The one rule for a value written into a URL's text.
    public static func encodeURL(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var encoded = ""
        encoded.reserveCapacity(bytes.count)
        let authority = Self.authority(in: bytes)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // An IPv6 host keeps its brackets.
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]"), authority.contains(index) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                encoded += String(decoding: bytes[index...(index + 2)], as: UTF8.self)
                index += 3
                continue
            }
            if isUnreserved(byte) || urlPunctuation.utf8.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(of: byte, to: &encoded)
            }
            index += 1
        }
        return encoded
    }

    /// Where the authority of an absolute URL's text is (after `scheme://`, up to the path, query or fragment); empty
    /// for a relative one.
    private static func authority(in bytes: [UInt8]) -> Range<Int> {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8),
              bytes[..<colon].allSatisfy({ isUnreserved($0) || $0 == UInt8(ascii: "+") }) else { return 0..<0 }
        let start = colon + 3
        let end = bytes[start...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
        return start..<end
    }

    /// What is a URL's structure in its user and password, its path, and its query, which a value holding a secret never
    /// is: percent-encoded there (`encoding(_:in:)`), it stays one value.
    public static let authorityStructure = "@/:?#%[]", pathStructure = "?#%", queryStructure = "&+#?%"

    /// `value` with each of `characters` percent-encoded.
    public static func encoding(_ characters: String, in value: String) -> String {
        value.contains(where: characters.contains) ? value.map { characters.contains($0) ? encode(String($0)) : String($0) }.joined() : value
    }

    /// The punctuation a URL's text keeps as it is, besides `-._~`: what separates and delimits its parts.
    public static let urlPunctuation = "!$&'()*+,;=:@/?#"

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// `%` and the byte's two hexadecimal digits, upper case.
    private static func appendEscape(of byte: UInt8, to encoded: inout String) {
        encoded += "%"
        encoded += hexDigits[Int(byte >> 4)]
        encoded += hexDigits[Int(byte & 0x0F)]
    }

    /// Letters, digits and `-._~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

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
            let keeps = kept == .unreserved ? isUnreserved(byte) : isUnreserved(byte) && !"-._~".utf8.contains(byte)
            if keeps {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscape(of: byte, to: &encoded)
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

    /// The encoded text: `name=value` pairs joined by `&`, all but letters, digits and `-._~` percent-encoded.
    public var encodedText: String {
        fields.map {
            PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value)
        }.joined(separator: "&")
    }

    public func encode() throws -> Data { Data(encodedText.utf8) }
}
