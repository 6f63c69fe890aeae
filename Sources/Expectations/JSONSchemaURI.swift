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
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Whether `text` is an RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
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

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
