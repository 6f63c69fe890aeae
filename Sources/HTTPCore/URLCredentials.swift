/// Passwords written in URLs (`scheme://user:password@host`), which outputs hide.
public enum URLCredentials {
    public static let mask = "***"

    /// `text` with the password of every URL's user information replaced by `***` (`http://user:***@host`); the user
    /// stays, so the reader sees which credentials were used.
    public static func hidingPasswords(in text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = text[...]
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            // The authority ends at the path, query or fragment, or where the URL's text ends.
            let authority = rest.prefix { !"/?#".contains($0) && !$0.isWhitespace && !"\"'<>`".contains($0) }
            guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { continue }
            let password = rest[rest.index(after: colon)..<at]
            guard !password.isEmpty, password != mask else { continue }
            result += rest[...colon] + mask
            rest = rest[at...]
        }
        return result + rest
    }
}
