internal import NIOHTTP1

/// The check SwiftNIO's `NIOHTTPRequestHeadersValidator` makes on a request head, made here once per request
/// before a connection is leased rather than by a pipeline handler that every outbound part passes.
///
/// The method and header names must be tokens, header values must hold no control character but HTAB, and the
/// request target only the characters RFC 3986 allows literally; so no value can end a line and smuggle a header
/// or a second request (RFC 9110 sections 5.1, 5.5 and 9.1, RFC 9112 section 3.2). A head that fails is refused
/// with the validator's error, `HTTPParserError.invalidHeaderToken`.
enum HTTP1RequestValidation {
    /// Throws `invalidHeaderToken` unless every part of `head` may be sent.
    static func check(_ head: HTTPRequestHead) throws(HTTPParserError) {
        guard all(head.method.rawValue, isTokenByte), all(head.uri, isTargetByte),
              head.headers.allSatisfy({ all($0.name, isTokenByte) && all($0.value, isFieldValueByte) })
        else { throw HTTPParserError.invalidHeaderToken }
    }

    private static func all(_ text: String, _ allowed: Set256) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(allowed.contains) } ?? text.utf8.allSatisfy(allowed.contains)
    }

    /// A set of bytes, looked up in one step.
    struct Set256 {
        private var members = [Bool](repeating: false, count: 256)

        init(_ ranges: [ClosedRange<UInt8>], _ singles: String) {
            for range in ranges { for byte in range { members[Int(byte)] = true } }
            for byte in singles.utf8 { members[Int(byte)] = true }
        }

        func contains(_ byte: UInt8) -> Bool { members[Int(byte)] }
    }

    private static let alphanumerics: [ClosedRange<UInt8>] = [
        UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
    ]

    /// `tchar` of RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static let isTokenByte = Set256(alphanumerics, "!#$%&'*+-.^_`|~")

    /// The bytes a field value may hold: anything but a control character (HTAB is allowed).
    private static let isFieldValueByte = Set256([0x20...0x7E, 0x80...0xFF], "\t")

    /// The bytes the request target may hold literally: unreserved, gen-delims, sub-delims and `%` of RFC 3986.
    private static let isTargetByte = Set256(alphanumerics, "-._~:/?#[]@!$&'()*+,;=%")
}
