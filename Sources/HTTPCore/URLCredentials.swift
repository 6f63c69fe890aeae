internal import Foundation

/// Passwords written in URLs (`scheme://user:password@host`), which outputs hide.
public enum URLCredentials {
    public static let mask = "***"

    /// `text` with the password of every URL's user information replaced by `***` (`http://user:***@host`); the user
    /// stays, so the reader sees which credentials were used.
    ///
    /// User information is looked for after every `//` or `:/` and the slashes after them, with or without a valid
    /// scheme before it (the typos `http//user:pw@host`, `http:/user:pw@host` and `http:///user:pw@host` show no
    /// password), and, for proxy values without a scheme (`user:pw@host:port`, which proxy settings accept), at the
    /// start of `text` and after a proxy key (`proxy: "…`, `HTTPS_PROXY=…`). A URL inside quotes (`url: "…"`) ends
    /// at its closing quote, so a password holding spaces is hidden whole; `asOneURL` reads all of `text` so. The user
    /// information of a proxy URL (after a proxy key, or all of `text` with `asProxyURL`) runs to its last `@`, since a
    /// proxy URL has no path: `proxy: http://u:p@ss/w0rd:x@host:3128` hides `p@ss/w0rd:x`.
    public static func hidingPasswords(in text: String, asOneURL: Bool = false, asProxyURL: Bool = false) -> String {
        var result = ""
        var rest = text[...]
        for password in passwordRanges(in: text, asOneURL: asOneURL || asProxyURL, asProxyURL: asProxyURL) {
            result += text[rest.startIndex..<password.lowerBound] + mask
            rest = text[password.upperBound...]
        }
        return result + rest
    }

    /// The passwords of the URLs' user information in `text` (found as `hidingPasswords` finds them), as written.
    public static func passwords(in text: String, asOneURL: Bool = false) -> [String] {
        passwordRanges(in: text, asOneURL: asOneURL, asProxyURL: false).map { String(text[$0]) }
    }

    /// Whether `text` is one template, `{{ name }}`, and nothing else.
    private static func isTemplate(_ text: Substring) -> Bool {
        text.hasPrefix("{{") && text.hasSuffix("}}") && text.dropFirst(2).firstRange(of: "{{") == nil
    }

    /// Where the password of each URL's user information is in `text`, in order (see `hidingPasswords`).
    private static func passwordRanges(in text: String, asOneURL: Bool, asProxyURL: Bool) -> [Range<String.Index>] {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return [] }
        var found: [Range<String.Index>] = []
        var rest = text[...]
        // The start of the text may be a proxy value without a scheme.
        var next: Substring.Index? = rest.startIndex
        while let start = next {
            rest = rest[start...]
            next = nextAuthority(in: rest)
            // A proxy value read from its scheme is read again after the scheme's slashes.
            let proxy = (asProxyURL || followsProxyKey(start, in: text)) && !startsWithScheme(rest)
            let enclosure = asOneURL ? Enclosure.wholeText : enclosure(before: start, in: text)
            // Free text after a proxy key (`--proxy: not a proxy URL: …`) holds no proxy URL: read as any other text.
            guard let (colon, at) = (proxy ? userInformation(in: rest, within: enclosure, proxy: true) : nil)
                    ?? userInformation(in: rest, within: enclosure, proxy: false),
                  rest[rest.index(after: colon)..<at] != mask,
                  // A template (`https://u:{{ pw }}@host`) hides nothing: what it gives is hidden where it is sent.
                  !Self.isTemplate(rest[rest.index(after: colon)..<at]) else { continue }
            // The start of the text read so would take in a proxy key's value (`HTTPS_PROXY=u:p@ss/x@h`): that is read instead.
            if start == text.startIndex, let next, next < at, followsProxyKey(next, in: text) { continue }
            found.append(rest.index(after: colon)..<at)
            rest = rest[at...]
            next = nextAuthority(in: rest)
        }
        return found
    }

    /// The password of one URL (`https://user:password@host/`, or `user:password@host` without a scheme), as written;
    /// nil when it has none. A `proxy` URL's runs to its last `@` (see `hidingPasswords`).
    public static func password(of url: String, proxy: Bool = false) -> String? {
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        guard let (colon, at) = userInformation(in: url[start...], within: .wholeText, proxy: proxy) else { return nil }
        return String(url[url.index(after: colon)..<at])
    }

    /// Why URL `text` cannot be read as its writer meant: user information holding `@`, or `#`, `?` or `/` as it is, which ends
    /// the host part, so the password would be read as the host and port (`http://u:pa#ss@host`: host `u`, port `pa`),
    /// the query or fragment (`http://u:p@ss#x@host`) and the request sent elsewhere; nil when there is none (see
    /// `misplacedUserInformation`). The problem names the character and its escape, never the password.
    public static func misplacedDelimiterProblem(inURL text: String) -> String? {
        // Without an `@` there is no user information (and no call into Foundation's search for most URLs).
        guard text.utf8.contains(UInt8(ascii: "@")), let start = text.range(of: "://")?.upperBound else { return nil }
        let rest = text[start...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        // Two `@`s: the first is the password's (`u:p@ss@host`), which no URL reads as written.
        if authority.count(where: { $0 == "@" }) > 1, !authority.contains("{{") {
            return "its user information holds an '@', which ends it: write it as %40"
        }
        if let at = authority.lastIndex(of: "@"), !authority.contains("{{"), let problem = bracketProblem(authority[..<at]) {
            return problem
        }
        guard misplacedUserInformation(authority: authority, after: rest[authorityEnd...]) != nil else { return nil }
        let delimiter = rest[authorityEnd]
        return problem(holding: delimiter, alsoAt: authority.contains("@"))
            + (!authority.contains("@") && delimiter == "?" ? " (or, for a query, its '@' as %40)" : "")
    }

    /// Why proxy URL `text` cannot be read as its writer meant: user information, which in a proxy URL (it has no path)
    /// runs to the last `@`, holding `#`, `?`, `/` or `@` as it is (`http://u:p@ss/w0rd:x@host:3128`); nil when there is
    /// none. The problem names the character and its escape, never the password.
    public static func misplacedDelimiterProblem(inProxyURL text: String) -> String? {
        guard let start = text.range(of: "://")?.upperBound, let at = text[start...].lastIndex(of: "@") else { return nil }
        let information = text[start..<at]
        if let problem = bracketProblem(information) { return problem }
        if let delimiter = information.first(where: { "/?#".contains($0) }) {
            return problem(holding: delimiter, alsoAt: information.contains("@"))
        }
        return information.contains("@") ? "its user information holds an '@', which ends it: write it as %40" : nil
    }

    /// The problem of user information holding a bracket, which only an IPv6 host is written in; nil without one.
    private static func bracketProblem(_ information: Substring) -> String? {
        information.first { $0 == "[" || $0 == "]" }.map { bracket in
            "its user information holds a '\(bracket)', which only an IPv6 host is written in: write it as " + (bracket == "[" ? "%5B" : "%5D")
        }
    }

    /// The problem of user information holding `delimiter` (`#`, `?` or `/`), and an `@` too when `alsoAt`.
    private static func problem(holding delimiter: Character, alsoAt: Bool) -> String {
        let escape = ["#": "%23", "?": "%3F", "/": "%2F"][delimiter] ?? ""
        return "its user information holds a '\(delimiter)', which ends a URL's host part: write it as \(escape)"
            + (alsoAt ? " (and an '@' in it as %40)" : "")
    }

    /// Whether user information may go on past `delimiter`, which ends `authority` (see `misplacedUserInformation`).
    private static func mayGoOn(authority: Substring, at delimiter: Character) -> Bool {
        guard !authority.contains("{{"), authority.first != "[" else { return false }
        if delimiter != "/" { return true }
        // With an `@` already (a password holding `@`, `:` and `/`: `u:p@ss:w0rd/x@host`), only when what follows it is no
        // host and port.
        guard !authority.contains("@") else { return hasNoPort(authority) }
        guard let colon = authority.lastIndex(of: ":") else { return afterDoubleSlash(authority) }
        return !authority[authority.index(after: colon)...].allSatisfy { ("0"..."9").contains($0) }
    }

    /// Whether the host part of `authority` (after its last `@`) has a `:` followed by something other than a port.
    private static func hasNoPort(_ authority: Substring) -> Bool {
        let host = authority[(authority.lastIndex(of: "@").map(authority.index(after:)) ?? authority.startIndex)...]
        return host.lastIndex(of: ":").map { colon in !host[host.index(after: colon)...].allSatisfy { ("0"..."9").contains($0) } } == true
    }

    /// Where user information holding a `#`, `?` or `/` as it is has its `:` and its `@`, when an `@` follows that
    /// character in `after` (from it to the URL's end) and a `:` (a password) comes before that `@`:
    /// - `authority` (up to the character) has a `:` followed by no port (`u:pa#ss@host`, `u:pa/ss@host`), which no URL
    ///   reads as written;
    /// - or the character is a `#` or `?` with no `/`, `=` or `&` before the `@` (`u:12345#ab@host`, a fragment no
    ///   request sends; `us#er:pw@host`; `u:p@ss#x@host`, a password holding `@`; `u:12345?ab@host`, a query of one word
    ///   holding an `@`);
    /// - or the character is a `/` after a host part without `:` or `@` that follows `//`, and what comes before the `@`
    ///   is one path segment holding a `:` (`CORP/jdoe:pw@host`, a user name holding `/`).
    /// Nil otherwise: a password of digits before a `/` (`u:1234/x@host`) reads as a port and a path, as a URL with an
    /// `@` in its path does, and is left so.
    private static func misplacedUserInformation(authority: Substring, after: Substring) -> (colon: Substring.Index, at: Substring.Index)? {
        guard let delimiter = after.first, mayGoOn(authority: authority, at: delimiter),
              let at = after.firstIndex(of: "@") else { return nil }
        let between = after[after.index(after: after.startIndex)..<at]
        guard let colon = authority.firstIndex(of: ":") ?? between.firstIndex(of: ":") else { return nil }
        let noPort = hasNoPort(authority) && (delimiter == "/" || !authority.contains("@"))
        let word = delimiter != "/" && !between.contains { "/=&".contains($0) }
        let userWithSlash = delimiter == "/" && !authority.contains(":") && afterDoubleSlash(authority) && between.contains(":")
            && !between.contains { "/?#=&".contains($0) }
        return noPort || word || userWithSlash ? (colon, at) : nil
    }

    /// Whether `authority` follows a scheme's `//` (not a slash short, `C:/Users/a:b@c`, nor a proxy value without one).
    private static func afterDoubleSlash(_ authority: Substring) -> Bool {
        authority.base[..<authority.startIndex].hasSuffix("//")
    }

    /// What holds a URL in a text, which says where the URL may end.
    private enum Enclosure {
        /// Nothing: the URL ends at a space or a quote.
        case none
        /// A YAML quoted scalar: the URL ends at the closing quote (`\"` inside double quotes and `''` inside single
        /// ones do not close them).
        case quotes(Character)
        /// A YAML plain value (`url: http://…`): the URL ends at the end of the line or at a ` #` comment.
        case plainValue
        /// The text is one URL: it ends at the end of the line.
        case wholeText

        var isQuotes: Bool { if case .quotes = self { true } else { false } }
    }

    /// Where the user information of the authority at the start of `text` has its `:` and its `@`, when it has a
    /// password. The authority ends at the path, query or fragment, or where the URL's text ends, as `enclosure` says
    /// (a space inside a template, `u:{{ pw }}@host`, ends nothing); a password holding `#`, `?` or `/` as it is
    /// (`misplacedUserInformation`) goes on to its `@`. A `proxy` URL has no path: its user information runs to the last
    /// `@` before the URL's end.
    private static func userInformation(in text: Substring, within enclosure: Enclosure, proxy: Bool) -> (colon: Substring.Index, at: Substring.Index)? {
        var inTemplate = false
        var previous: Character?
        var escaped = false
        var end = text.startIndex
        /// Where the path, query or fragment starts, when one does.
        var authorityEnd: Substring.Index?
        scan: while end < text.endIndex {
            let character = text[end]
            let next = text.index(after: end)
            defer { previous = character }
            if character == "{", previous == "{" { inTemplate = true }
            if character == "}", previous == "}" { inTemplate = false }
            if character == "\n" { break }
            if !proxy, !inTemplate, authorityEnd == nil, "/?#".contains(character) {
                // Only user information holding the character may go on (`misplacedUserInformation`), to its `@`.
                guard mayGoOn(authority: text[..<end], at: character) else { break }
                authorityEnd = end
            } else if authorityEnd != nil, character == "@" || (character.isWhitespace && !enclosure.isQuotes) {
                if character == "@" { end = next }
                break
            }
            switch enclosure {
            case .none:
                if !inTemplate, character.isWhitespace || "\"'<>`".contains(character) { break scan }
            case .quotes(let quote):
                if escaped {
                    escaped = false
                } else if quote == "\"", character == "\\" {
                    escaped = true
                } else if character == quote {
                    // `''` is a quote inside single quotes.
                    guard quote == "'", next < text.endIndex, text[next] == "'" else { break scan }
                    end = text.index(after: next)
                    continue
                }
            case .plainValue:
                // Only ` #` starts a comment; `#` glued to text is the fragment.
                if character == "#", previous?.isWhitespace == true { break scan }
                // Read to its last `@`, a proxy URL ends at white space: free text may follow (`--proxy: not a … @`).
                if proxy, !inTemplate, character.isWhitespace { break scan }
            case .wholeText:
                break
            }
            end = next
        }
        let authority = text[..<(authorityEnd ?? end)]
        // User information holding `#`, `?` or `/` as it is goes on past them.
        if let authorityEnd, let (colon, at) = misplacedUserInformation(authority: authority, after: text[authorityEnd..<end]) {
            return text.index(after: colon) < at ? (colon, at) : nil
        }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":"),
              authority.index(after: colon) < at else { return nil }
        return (colon, at)
    }

    /// Whether the URL whose authority starts at `start` is a proxy key's value (`proxy: "http://…`, `HTTPS_PROXY=…`,
    /// `--proxy http://…`, with or without a scheme and quotes).
    private static func followsProxyKey(_ start: Substring.Index, in text: String) -> Bool {
        var before = textBeforeScheme(of: start, in: text)
        for skipped: Set<Character> in [["\"", "'"], [" "], [":", "="], ["\"", "'"]] {
            while let last = before.last, skipped.contains(last) { before.removeLast() }
        }
        return before.suffix(5).lowercased() == "proxy"
    }

    /// Whether `text` starts with a scheme and a slash (`http://`, `http:/`, `http:\\`).
    private static func startsWithScheme(_ text: Substring) -> Bool {
        let afterScheme = text.drop { $0.isLetter || $0.isNumber || "+.-".contains($0) }
        return afterScheme.startIndex > text.startIndex && afterScheme.first == ":" && afterScheme.dropFirst().first.map { "/\\".contains($0) } == true
    }

    /// The text before the URL whose authority starts at `start`, without its scheme and slashes (`http://`, `//`).
    private static func textBeforeScheme(of start: Substring.Index, in text: String) -> Substring {
        var before = text[..<start]
        while before.last == "/" { before.removeLast() }
        if before.last == ":" {
            before.removeLast()
            while let last = before.last, last.isLetter || last.isNumber || "+.-".contains(last) { before.removeLast() }
        }
        return before
    }

    /// What holds the URL whose authority starts at `start`: the `"` or `'` just before its scheme (or before `start`,
    /// for a proxy value without one), or a YAML mapping's `key: ` (a plain value); none otherwise.
    private static func enclosure(before start: Substring.Index, in text: String) -> Enclosure {
        let before = textBeforeScheme(of: start, in: text)
        if let quote = before.last, quote == "\"" || quote == "'" { return .quotes(quote) }
        // `key: http://…` with the key a YAML name at the start of a line or after `{` or `,` (a flow mapping).
        guard before.hasSuffix(" "), before.dropLast().hasSuffix(":") else { return .none }
        let key = before.dropLast(2).reversed().prefix { !$0.isWhitespace && $0 != "{" && $0 != "," }
        let beforeKey = before.dropLast(2 + key.count).last { !$0.isWhitespace || $0 == "\n" }
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || "_-".contains($0) }),
              beforeKey == nil || "\n{,|".contains(beforeKey!) else { return .none }
        return .plainValue
    }

    /// Just past the first run of slashes after a scheme: `//`, or `:/` (a slash short, `http:/user:pw@host`), with
    /// any further slashes (`http:///user:pw@host`); nil when there is none.
    private static func afterSchemeSlashes(in text: Substring) -> Substring.Index? {
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "/", previous == ":" || previous == "/" {
                return text[index...].firstIndex { $0 != "/" } ?? text.endIndex
            }
            previous = character
            index = text.index(after: index)
        }
        return nil
    }

    /// Just past the first `http:` or `https:` (any case, not inside a word) followed by no slash (`http:u:pw@host`, the
    /// slashes left out, which browsers read as a URL with credentials), or by backslashes (`http:\\u:pw@host`, which
    /// browsers read as slashes), past them; nil when there is none.
    private static func afterBareScheme(in text: Substring) -> Substring.Index? {
        var searched = text
        while let scheme = searched.range(of: "http", options: .caseInsensitive) {
            var after = searched[scheme.upperBound...]
            if after.first == "s" || after.first == "S" { after = after.dropFirst() }
            let wordBefore = scheme.lowerBound > text.startIndex && text[text.index(before: scheme.lowerBound)].isLetter
            if !wordBefore, after.first == ":", let next = after.dropFirst().first, next != "/", !next.isWhitespace {
                return after.dropFirst().firstIndex { $0 != "\\" && $0 != "/" } ?? after.endIndex
            }
            searched = searched[scheme.upperBound...]
        }
        return nil
    }

    /// Where the next user information may start after the start of `text`: after a `//`, or at a value after a proxy
    /// key (`proxy:`, `"proxy":`, `HTTP_PROXY=`, an opening quote skipped); nil when there is none.
    private static func nextAuthority(in text: Substring) -> Substring.Index? {
        guard !text.isEmpty else { return nil }
        let afterFirst = text[text.index(after: text.startIndex)...]
        // A scheme without its slashes is looked for only before the next `//`, so each call reads the text once.
        let doubleSlashes = afterSchemeSlashes(in: text)
        let slashes = afterBareScheme(in: afterFirst[..<(doubleSlashes ?? afterFirst.endIndex)]) ?? doubleSlashes
        var searched = afterFirst
        while let key = searched.range(of: "proxy", options: .caseInsensitive) {
            if let slashes, slashes <= key.lowerBound { break }
            var value = searched[key.upperBound...]
            if let quote = value.first, quote == "\"" || quote == "'" { value = value.dropFirst() }
            if let separator = value.first, separator == ":" || separator == "=" {
                value = value.dropFirst().drop { $0 == " " }
                if let quote = value.first, quote == "\"" || quote == "'" { value = value.dropFirst() }
                return value.startIndex
            }
            searched = searched[key.upperBound...]
        }
        return slashes
    }
}
