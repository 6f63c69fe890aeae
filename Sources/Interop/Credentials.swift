import CollectionFormat
import YAML
import Foundation
import HTTPCore

/// Which names say that a value is a credential: one rule for the warnings of an import and for the values its quoted
/// lines hide.
enum CredentialNames {
    /// Header names whose values are credentials.
    static func isSecretHeader(_ name: String) -> Bool {
        HTTPHeaders.namesCredential(name)
    }

    /// Form field, query item and variable names whose values are credentials.
    static func isSecretField(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["pass", "pwd", "secret", "token", "bearer", "credential", "jwt", "private_key", "privatekey", "authorization",
                "api_key", "api-key", "apikey", "session"].contains { lowered.contains($0) }
            || lowered.hasSuffix("key") || lowered.hasPrefix("auth") || lowered.hasSuffix("auth") || lowered.contains("-auth")
            || lowered.contains("_auth")
            // A PIN, not a word holding the letters (`ping`, `shipping`): `pin`, `card_pin`, `userPin`.
            || lowered == "pin" || lowered.hasSuffix("_pin") || lowered.hasSuffix("-pin") || name.hasSuffix("Pin")
    }

    /// The values of members named like a credential anywhere in `text`, when it is JSON (`{"password": "…"}`), each
    /// as it is and as the JSON text escapes it.
    static func jsonCredentials(_ text: String) -> [String] {
        guard text.contains(where: { "{(:=".contains($0) }) else { return [] }
        // Text that is not JSON (comments, a `{{variable}}` where a value goes): quoted values, and numbers.
        guard let root = try? JSONValue.parse(Array(text.utf8)) else { return quotedCredentials(text) + openQuotedCredentials(text) }
        var found: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .array(let elements): elements.forEach(collect)
            case .object(let object):
                for (name, member) in object.members {
                    switch member {
                    case .string(let value) where isSecretField(name): found += [value, JSONValue.stringContents(value)]
                    case .int where isSecretField(name), .double where isSecretField(name): found += numberLiterals(of: name, in: text)
                    default: collect(member)
                    }
                }
            default: break
            }
        }
        collect(root)
        return found
    }

    /// `name=value` pairs of a query, form data or a cookie string (`&` or `;` between them), names and values as written.
    static func pairs(_ text: String) -> [(name: Substring, value: Substring)] {
        text.split { $0 == "&" || $0 == ";" }.compactMap { piece -> (name: Substring, value: Substring)? in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return (parts[0].drop { $0 == " " }, parts[1])
        }
    }

    /// The values of a cookie string that may be credentials: not one of a few characters (`lang=en`, `a=1`), which,
    /// hidden, would hide those characters wherever they stand in a quoted line.
    static func cookieValues(_ text: String) -> [String] {
        // A piece without `=` beside pairs is a cookie without a name (`sid=a;b`); a text without any is a file's name.
        let nameless = text.contains("=") ? text.split(separator: ";").filter { !$0.contains("=") }.map { String($0.drop { $0 == " " }) } : []
        return (pairs(text).map { String($0.value) } + nameless).filter { $0.count >= 4 }
    }

    /// The credentials a header's value holds when its name says it holds some: the values of a cookie string, the
    /// part after the scheme of `Bearer token`, or the whole value.
    static func headerCredentials(name: String, value: String) -> [String] {
        guard isSecretHeader(name) else { return [] }
        let value = value.trimmingCharacters(in: .whitespaces)
        if name.lowercased().contains("cookie") { return cookieValues(value) }
        return [value.split(separator: " ", maxSplits: 1).last.map(String.init) ?? value]
    }

    /// The values of `"name": "value"`, `name: 'value'` and `name = "value"` pairs named like a credential, as written, in
    /// text that is not JSON as a whole: a Postman body with a `{{variable}}` where a value goes, GraphQL arguments, a
    /// script's assignments.
    static func quotedCredentials(_ text: String) -> [String] {
        var found: [String] = []
        // `{key: 'Cookie', value: 'sid=…'}`: a `key` names the header the next `value` is for.
        var header: String?
        for match in text.matches(of: quotedPair) {
            let name = String(match.output.1)
            guard let value = (match.output.2 ?? match.output.3).map(String.init) else { continue }
            if name == "key" {
                header = value
            } else if name == "value", let header {
                found += headerCredentials(name: header, value: value)
            } else if isSecretField(name) {
                found.append(value)
            }
        }
        return found
    }

    /// The values of `"name": "value` and `"name": 123` pairs named like a credential in text whose quotes may not close
    /// (a command a shell cannot split, `'{"password":"pw1` with its quote never closed): each value up to its closing
    /// quote, else to the end of its line.
    static func openQuotedCredentials(_ text: String) -> [String] {
        text.matches(of: openPair).compactMap { match in
            isSecretField(String(match.output.1)) ? String(match.output.2 ?? match.output.3 ?? "") : nil
        }.filter { !$0.isEmpty }
    }

    /// Names are read up to 64 characters, ending at the `:`: a name tried from every place of a long word would take
    /// time growing with the square of its length (a 40 KB body took minutes); a credential's name is short.
    nonisolated(unsafe) private static let openPair =
        /["']?([A-Za-z_][A-Za-z0-9_\-]{0,63})["']?\s*:\s*(?:"((?:[^"\\\n]|\\.)*)|(-?[0-9][0-9.eE+\-]*))/

    /// The tokens of `Bearer T`, `Basic T` and `Token T` credentials in any text (a script line that sets a header).
    static func schemeCredentials(_ text: String) -> [String] {
        guard text.contains("Bearer") || text.contains("Basic") || text.contains("Token") else { return [] }
        return text.matches(of: schemeToken).map { String($0.output.1) }
    }

    nonisolated(unsafe) private static let quotedPair =
        /["']?([A-Za-z_][A-Za-z0-9_\-]{0,63})["']?\s*[:=]\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')/
    nonisolated(unsafe) private static let schemeToken = /(?:Bearer|Basic|Token)\s+([A-Za-z0-9._~+\/=\-]{6,})/

    /// A URL's password and the values of its credential query items, as written.
    static func urlCredentials(_ url: String) -> [String] {
        let query = url.firstIndex(of: "?").map { url[url.index(after: $0)...].prefix { $0 != "#" } } ?? ""
        return (URLCredentials.password(of: url).map { [$0] } ?? []) + secretFields(String(query))
    }

    /// Credential names an unknown option's name may be a typo of (`--api-kee`, `--pasword`, `--tokne`); the shortest
    /// (`pwd`, `auth`) only as `isSecretField` finds them, since many names are a letter or two from them.
    private static let secretOptionNames = ["password", "passwd", "passphrase", "secret", "token", "bearer", "credential", "credentials",
                                            "api-key", "api_key", "apikey", "access-token", "private-key", "authorization", "session"]

    /// Names in which a credential glued to them may start (`--api-keyK3y9`), longest first.
    static let secretNameParts = ["authorization", "credential", "passphrase", "password", "private-key", "passwd", "api-key",
                                  "api_key", "apikey", "bearer", "secret", "token", "pass", "auth", "pwd", "jwt"]

    /// Option names (curl's or not) whose value is a credential: named like one (`--token`), or one letter or two from
    /// such a name (`--api-kee`, `--pasword`).
    static func isSecretOption(_ name: String) -> Bool {
        isSecretField(name) || Suggestions.closest(to: name, among: secretOptionNames) != nil
    }

    /// The values of credential fields among `name=value` pairs.
    /// The numbers JSON text `text` writes as the value of a member named `name` (`"pin": 1234` gives `1234`), as written.
    static func numberLiterals(of name: String, in text: String) -> [String] {
        text.components(separatedBy: JSONValue.string(name).serialized()).dropFirst().compactMap { after -> String? in
            let value = after.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard value.first == ":" else { return nil }
            let number = value.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                .prefix { $0.isNumber || "+-.eE".contains($0) }
            return number.isEmpty ? nil : String(number)
        }
    }

    static func secretFields(_ text: String) -> [String] {
        pairs(text).filter { isSecretField(String($0.name)) }.map { String($0.value) }
    }
}

/// A `--name…` word curl does not know, read as the option meant and the value written in the word: after `=`, `:` or
/// white space (`--api-key=K`, `--api-key:K`, `'--api-key K'`, `--user:bob:pw`), or glued to a name that says it is a
/// credential when it looks like one (`--api-keyK3y9`: a digit, a capital or a symbol, four characters or more).
struct CurlOptionWord {
    /// The option's name, without `--`.
    var name: String
    /// What stands between the name and the value: `=`, `:`, white space, or nothing.
    var separator: String
    /// The value written in the word; nil when the word holds none (`--token`, `--token=`).
    var value: String?

    /// Whether the value is glued to the name, which may then have been a longer name instead (`--token2`).
    var isGlued: Bool { value != nil && separator.isEmpty }

    /// Reads `text`, the word without its `--`.
    init(_ text: Substring) {
        if let split = text.firstIndex(where: { $0 == "=" || $0 == ":" || $0.isWhitespace }) {
            let rest = text[text.index(after: split)...]
            let value = text[split].isWhitespace ? rest.drop(while: \.isWhitespace) : rest
            (name, separator) = (String(text[..<split]), String(text[split..<value.startIndex]))
            self.value = value.isEmpty ? nil : String(value)
        } else if let glued = Self.gluedValue(in: text) {
            (name, separator, value) = (String(text[..<glued]), "", String(text[glued...]))
        } else {
            (name, separator, value) = (String(text), "", nil)
        }
    }

    /// Where a value glued to a credential's name starts (`--tokenAbC123`), when what follows the name looks like one:
    /// at least `ResolvedSecret.shortestHiddenInText` characters, one of them not a small letter, `-` or `_` (which a
    /// longer name, `--token-file`, would hold).
    private static func gluedValue(in text: Substring) -> Substring.Index? {
        for part in CredentialNames.secretNameParts {
            guard let range = text.range(of: part, options: .caseInsensitive) else { continue }
            let tail = text[range.upperBound...]
            let looksLikeValue = tail.count >= ResolvedSecret.shortestHiddenInText
                && tail.contains { !($0.isLowercase || $0 == "-" || $0 == "_") }
            return looksLikeValue ? range.upperBound : nil
        }
        return nil
    }
}

/// The credentials a curl command holds, found without stopping where curl would (an unknown option, a missing value),
/// so that a quoted line of the command hides them whatever problem it is quoted for.
enum CurlCredentials {
    /// Passwords of `-u`, `-U`, `-E`, `-x` and of URLs, `--pass`, `--oauth2-bearer`, cookies, credential headers and
    /// credential form fields or query items, as the words hold them.
    static func values(in words: ArraySlice<ShellWord>) -> [String] {
        var words = words
        var found: [String] = []
        while let word = words.popFirst() {
            let text = word.text
            if text.hasPrefix("--"), text.count > 2 {
                let name = text.dropFirst(2)
                if let option = CurlOption.reading(String(name))?.option {
                    if option.takesValue, let value = words.popFirst() { found += hiding(values(of: option, value.text), of: value) }
                    continue
                }
                // An option curl does not have: its value, written in the word (`--api-key:K`) or the next word (`--token T`),
                // is read as the one it is likely a typo of (`--usr bob:pw`), and is a credential when the name says so.
                let written = CurlOptionWord(name)
                if let value = written.value { found += hiding(credentials(of: written.name, value), of: word) }
                // The next word may be the value too, unless the word holds it; a URL is never taken for one.
                guard written.value == nil || written.isGlued, readsValue(written.name),
                      let next = words.first, !next.text.contains("://") else { continue }
                words.removeFirst()
                found += hiding(credentials(of: written.name, next.text), of: next)
            } else if text.hasPrefix("-"), text.count > 1 {
                var letters = text.dropFirst()
                while let letter = letters.popFirst() {
                    guard let option = CurlOption.lettered(letter), option.takesValue else { continue }
                    if letters.isEmpty, let value = words.popFirst() {
                        found += hiding(values(of: option, value.text), of: value)
                    } else if !letters.isEmpty {
                        found += hiding(values(of: option, String(letters)), of: word)
                    }
                    break
                }
            } else {
                found += hiding(CredentialNames.urlCredentials(text), of: word)
            }
        }
        return found
    }

    /// The credentials of `text` read option by option as written, without a shell's reading of the whole: the value of
    /// each option (a word starting with `-` after white space) is the quoted text after it, to the next such quote on
    /// its line or the line's end (`^"` as cmd's quote), else the word after it; and the credentials of each URL.
    /// For text a shell reads otherwise than its author meant, where a quote left open shifts every word after it (a
    /// value left open before `-u 'bob:pw'`), whose quoted lines must hide the credentials all the same. A value read
    /// to its line's end (its quote not closed) is a credential to its first white space too.
    static func asWritten(in text: String) -> [String] {
        var found: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let characters = Array(line)
            for (index, character) in characters.enumerated() where index == 0 || characters[index - 1].isWhitespace {
                if character == "-", index + 1 < characters.count, characters[index + 1] != "-" || index + 2 < characters.count {
                    var end = index
                    while end < characters.count, !characters[end].isWhitespace, characters[end] != "=" { end += 1 }
                    let name = String(characters[index..<end])
                    var start = end
                    if start < characters.count, characters[start] == "=" { start += 1 } else { while start < characters.count, characters[start].isWhitespace { start += 1 } }
                    let (value, closed) = writtenValue(characters, from: start)
                    let credentials = optionCredentials(name, value)
                    found += credentials + (closed ? [] : credentials.compactMap(firstWord))
                } else if let url = urlWord(characters, at: index) {
                    found += CredentialNames.urlCredentials(url)
                }
            }
        }
        // JSON members named like a credential, whatever quotes hold the body: as written, with cmd's carets and
        // Windows' doubled quotes read (`^"{"password":"x"}^"`, `"{""password"":""x""}"`), and `\"` as `"`.
        let unquoted = text.replacingOccurrences(of: "^", with: "").replacingOccurrences(of: "\"\"", with: "\"")
        for form in Set([text, unquoted, unquoted.replacingOccurrences(of: "\\\"", with: "\"")]) {
            found += CredentialNames.openQuotedCredentials(form)
        }
        return found.filter { !$0.isEmpty }
    }

    /// The value written from `start` of a line: the text inside the quote there (`'`, `"`, `$'`, cmd's `^"`) to the next
    /// quote of its kind, and whether there was one; else the word there.
    private static func writtenValue(_ characters: [Character], from start: Int) -> (value: String, closed: Bool) {
        var start = start
        while start < characters.count, characters[start] == "$" || characters[start] == "^" { start += 1 }
        guard start < characters.count else { return ("", true) }
        let quote = characters[start]
        guard quote == "'" || quote == "\"" else {
            let word = characters[start...].prefix { !$0.isWhitespace }
            return (String(word), true)
        }
        let inside = characters[(start + 1)...]
        guard let close = inside.firstIndex(of: quote) else { return (String(inside), false) }
        // cmd's closing `^"`: its caret is no part of the value.
        let value = inside[..<close]
        return (String(value.last == "^" ? value.dropLast() : value), true)
    }

    /// The credentials the option written as `name` (`-u`, `--user`, `-ubob:pw`, `--token:T`) holds with `value` after it,
    /// read as `values(in:)` reads the two words.
    private static func optionCredentials(_ name: String, _ value: String) -> [String] {
        let start = Mark(line: 1, column: 1)
        return values(in: [ShellWord(name, at: start), ShellWord(value, at: start)])
    }

    /// The word at `index` of a line when it is a URL (holding `://`), without the quotes around it.
    private static func urlWord(_ characters: [Character], at index: Int) -> String? {
        let word = String(characters[index...].prefix { !$0.isWhitespace }).trimmingCharacters(in: CharacterSet(charactersIn: "'\"^$"))
        return word.contains("://") ? word : nil
    }

    /// `value` to its first white space, when it goes on after it and that part is long enough to hide alone.
    static func firstWord(_ value: String) -> String? {
        let first = value.prefix { !$0.isWhitespace }
        return first.count < value.count && first.count >= 4 ? String(first) : nil
    }

    /// The credentials the value of `--name=value` holds: as the option's; for a name curl does not have, as the one it
    /// most likely means, and the whole value when the name says it is a credential (`--token=T`, `--api-key=K`, though
    /// close to `--pubkey`, whose value is none).
    static func credentials(of name: String, _ value: String) -> [String] {
        if let option = CurlOption.reading(name)?.option { return values(of: option, value) }
        return (misspelt(name).map { values(of: $0, value) } ?? []) + (CredentialNames.isSecretOption(name) ? [value] : [])
    }

    /// Whether an option curl does not have likely takes a value: it is a typo of one that does (`--usr`), or it is
    /// named like a credential (`--token`, `--api-kee`).
    static func readsValue(_ name: String) -> Bool {
        misspelt(name)?.takesValue == true || CredentialNames.isSecretOption(name)
    }

    /// The known option a mistyped long name (`--usr`) most likely means, whose value is then hidden as that option's.
    static func misspelt(_ name: String) -> CurlOption.Definition? {
        Suggestions.closest(to: name, among: CurlOption.all.map(\.long)).flatMap(CurlOption.named)
    }

    /// `credentials` found in `word`, and when the shell's quoting or escapes wrote one of them otherwise (`$'p\x40ss'`,
    /// `'it'"'"'s'`, a `\` line continuation inside it), the word as written, line by line.
    private static func hiding(_ credentials: [String], of word: ShellWord) -> [String] {
        let credentials = credentials.filter { !$0.isEmpty }
        guard credentials.contains(where: { !word.written.contains($0) }) else { return credentials }
        return credentials + word.written.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init).filter { $0.count > 1 }
    }

    /// The credentials one option's value holds.
    static func values(of option: CurlOption.Definition, _ value: String) -> [String] {
        switch option.effect {
        case .user: return value.firstIndex(of: ":").map { [String(value[value.index(after: $0)...])] } ?? []
        case .oauth2Bearer: return [value]
        case .cookie: return CredentialNames.cookieValues(value)
        case .header:
            guard let colon = value.firstIndex(of: ":") else { return [] }
            return CredentialNames.headerCredentials(name: String(value[..<colon]), value: String(value[value.index(after: colon)...]))
        case .url, .proxy: return CredentialNames.urlCredentials(value)
        case .data, .json: return CredentialNames.secretFields(value) + CredentialNames.jsonCredentials(value)
        case .form: return CredentialNames.secretFields(value)
        default: return CurlOption.credentials(of: option, in: value)
        }
    }
}

/// The credentials a Postman file holds, as its JSON text writes them, so that a quoted line of the file hides them
/// whatever problem it is quoted for (a one-line export puts a whole collection on one line).
enum PostmanCredentials {
    /// Values of credential headers, variables (by name or `type: secret`), query items and form fields, of every
    /// `auth` setting but the ones naming things (`username`, `key`, `in`, URLs), members named like a credential,
    /// and passwords of URLs; nothing when the file is not JSON.
    static func values(in source: PostmanSource) -> [String] {
        guard let root = try? JSONValue.parse(source.bytes) else { return [] }
        var found: [String] = []
        collect(root, inAuth: false, into: &found)
        return found.filter { !$0.isEmpty && !($0.hasPrefix("{{") && $0.hasSuffix("}}")) }
            .flatMap { [$0, JSONValue.stringContents($0)] }
    }

    /// Auth settings that name or place a credential rather than hold it.
    private static let namingAuthSettings: Set<String> = [
        "key", "in", "username", "addTokenTo", "headerPrefix", "grant_type", "tokenName", "tokenType", "authUrl",
        "accessTokenUrl", "redirect_uri", "scope", "client_authentication", "algorithm", "realm", "clientId", "state",
    ]

    private static func collect(_ value: JSONValue, inAuth: Bool, into found: inout [String]) {
        switch value {
        case .string(let text):
            if text.contains("://") { found += CredentialNames.urlCredentials(text) }
            // A raw JSON body or GraphQL variables or query, a form body as text, a script line setting a header.
            found += CredentialNames.jsonCredentials(text) + CredentialNames.secretFields(text) + CredentialNames.schemeCredentials(text)
        case .array(let elements):
            for element in elements { collect(element, inAuth: inAuth, into: &found) }
        case .object(let object):
            if case .string(let key)? = object["key"], case .string(let text)? = object["value"] {
                let secretType = object["type"].map { $0 == .string("secret") } ?? false
                if secretType || (inAuth ? !namingAuthSettings.contains(key) : CredentialNames.isSecretField(key)) {
                    found.append(text)
                } else {
                    found += CredentialNames.headerCredentials(name: key, value: text)
                }
            }
            for (name, member) in object.members {
                if case .string(let text) = member, name != "key", CredentialNames.isSecretField(name) { found.append(text) }
                collect(member, inAuth: inAuth || name == "auth", into: &found)
            }
        default: break
        }
    }
}
