/// An RFC 3986 URI reference split into its five parts, resolvable against a base URI.
///
/// Schema identifiers (`$id`, `$ref`, `$schema`) are URI references; this is the little of RFC 3986 they
/// need: parsing (Appendix B), reference resolution with dot-segment removal (§5.2) and recomposition.
/// Nothing is percent-decoded or case-normalized, so two spellings of one URI stay two keys.
struct URIReference: Hashable, Sendable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits `text` into its parts; every string is some URI reference, so this never fails.
    init(_ text: String) {
        // The delimiters are ASCII, so the UTF-8 view finds them without grapheme breaking.
        let bytes = text.utf8
        var end = bytes.endIndex
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(text[bytes.index(after: hash)...])
            end = hash
        }
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = String(text[bytes.index(after: question)..<end])
            end = question
        }
        var start = bytes.startIndex
        if let colon = bytes[..<end].firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }),
           bytes[colon] == UInt8(ascii: ":"), Self.isScheme(bytes[start..<colon]) {
            scheme = String(text[start..<colon])
            start = bytes.index(after: colon)
        }
        let rest = bytes[start..<end]
        if rest.starts(with: "//".utf8) {
            let authorityStart = bytes.index(start, offsetBy: 2)
            let authorityEnd = bytes[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            authority = String(text[authorityStart..<authorityEnd])
            start = authorityEnd
        }
        path = String(text[start..<end])
    }

    /// A reference from its parts.
    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Whether `bytes` are an RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ bytes: Substring.UTF8View) -> Bool {
        guard let first = bytes.first, Self.isLetter(first) else { return false }
        return bytes.allSatisfy { byte in
            Self.isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// Whether a byte is an ASCII letter.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// `text` with `%XX` escapes decoded (as UTF-8); malformed escapes stay as written.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16) {
                decoded.append(value)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The reference as text.
    var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// Whether the reference has a scheme (is an absolute URI, perhaps with a fragment).
    var isAbsolute: Bool { scheme != nil }

    /// The same URI without its fragment.
    var withoutFragment: URIReference {
        URIReference(scheme: scheme, authority: authority, path: path, query: query, fragment: nil)
    }

    /// The target URI of this reference with `base` as its base URI (RFC 3986 §5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        if let scheme {
            return URIReference(scheme: scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                                fragment: fragment)
        }
        if let authority {
            return URIReference(scheme: base.scheme, authority: authority, path: Self.removingDotSegments(path),
                                query: query, fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
                                fragment: fragment)
        }
        let merged = path.hasPrefix("/") ? path : Self.merge(base: base, with: path)
        return URIReference(scheme: base.scheme, authority: base.authority, path: Self.removingDotSegments(merged),
                            query: query, fragment: fragment)
    }

    /// RFC 3986 §5.2.3: the relative path appended to the base path's directory.
    private static func merge(base: URIReference, with path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// RFC 3986 §5.2.4: `.` and `..` segments removed from an absolute or relative path.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") || input == "/.." {
                input = input == "/.." ? "/" : input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
