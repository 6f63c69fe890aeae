import CollectionFormat

/// Credentials written as they are in a collection's files (`Authorization: Bearer abc`, `password: hunter2`, a
/// secret's `default:`, a header named as an API key or token: `X-Api-Key: abc`, `X-Auth-Token: abc`), hidden in the
/// source lines diagnostics quote: the redactor knows secrets' values, not text a file writes where a secret belongs.
enum SourceLineCredentials {
    /// `line` with the value of every entry whose key names a credential as `***` (after the scheme word of an
    /// `Authorization` value), and a comment after one; a template in a value (`"{{ token }}"`) is left, being no
    /// credential itself, and so is a `cookie:` value without `=` (a capture's cookie name).
    static func hiding(in line: String) -> String {
        guard line.utf8.contains(UInt8(ascii: ":")), mayHoldKey(line) else { return line }
        let hidden = hidingScalars(in: hidingCollections(in: line)).replacing(queryCredential) { match in
            match.output.1 + (match.output.2.contains("{{") ? match.output.2 : "***")
        }
        // A comment after a hidden value may hold an earlier one.
        guard hidden != line, let last = hidden.range(of: "***", options: .backwards),
              let comment = hidden[last.upperBound...].firstRange(of: /\s#/),
              hidden[comment.upperBound...].contains(where: { !$0.isWhitespace }) else { return hidden }
        return hidden[..<comment.upperBound] + " ***"
    }

    /// `line` with each credential written as a list or mapping (`bearer: [abc]`, `Cookie: { sid: abc }`) as `[***]` or
    /// `{ *** }`, to its closing bracket or the end of the line; a secret's definition (`password: { env: … }`) and an
    /// `auth:` mapping (whose keys `entry` reads) are left.
    private static func hidingCollections(in line: String) -> String {
        var result = ""
        var rest = line[...]
        while let match = rest.firstMatch(of: collection) {
            let open = rest[match.range].last!
            let inner = rest[match.range.upperBound...]
            let end = closing(of: open, in: inner)
            let content = inner[..<end]
            result += rest[..<match.range.upperBound]
            // What is kept is read on: the keys inside it may be credentials. A matcher or a capture's source
            // (`X-Auth-Token: { exists: true }`, `token: { header: X-Token }`) is what a check reads, no credential.
            let firstKey = content.firstMatch(of: /^\s*([A-Za-z]+)\s*:/).map { String($0.output.1) }
            if isJSONPathKey(endingBefore: match.output.1.startIndex, in: line) || open == "{" && (match.output.1.lowercased() == "auth" || content.contains(/(^|[\s{,])env\s*:/)
                               || firstKey.map(Self.checkKeys.contains) == true) {
                rest = inner
                continue
            }
            result += open == "[" ? "***" : " *** "
            rest = inner[end...]
            // Text glued to the closing bracket (`bearer: {x}abc }`, a YAML error) goes on with the value.
            if let after = rest.dropFirst().first, !after.isWhitespace, !",}]#".contains(after) {
                result += String(rest.prefix(1)) + "***"
                rest = ""
            }
        }
        return result + rest
    }

    /// A URL's query item named as a credential (`?api_key=abc`, `&access_token=abc`): its name and value.
    nonisolated(unsafe) private static let queryCredential =
        /(?i)([?&][\w.-]*(?:token|api[-_]?key|secret|passw(?:or)?d|pwd|session)[\w.-]*=)([^&#\s"']+)/

    /// The keys of a matcher and of a capture's source.
    private static let checkKeys = Set(FormatKeys.matcher.names + FormatKeys.captureSource.names)

    /// Where the collection opened by `open` (just before `text`) closes: at its closing bracket (nested ones and
    /// quoted text skipped), or the end of the line.
    private static func closing(of open: Character, in text: Substring) -> Substring.Index {
        var depth = 0
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                if depth == 0 { return index }
                depth -= 1
            }
        }
        return text.endIndex
    }

    /// `line` with every plain or quoted credential value `entry` finds hidden.
    private static func hidingScalars(in line: String) -> String {
        var result = ""
        var rest = line[...]
        while let match = rest.firstMatch(of: entry) {
            let (key, value) = (String(match.output.1), String(match.output.2))
            result += rest[..<match.range.lowerBound]
            if isJSONPathKey(endingBefore: match.output.1.startIndex, in: line) {
                result += rest[match.range]
                rest = rest[match.range.upperBound...]
                continue
            }
            // A `Cookie` header holds `name=value` pairs; `cookie: NAME` (so written) without `=` is a capture's source, a
            // cookie's name; a header written otherwise (`Cookie: abc`) is hidden whatever it holds.
            // A template is no credential itself, unless a comma before it cut a plain value (`pw: ab,{{ x }}`); text
            // written beside one may be (`bearer: "abc{{ x }}"`).
            let templated = value.contains("{{") && !value.prefix(while: { $0 != "{" }).contains(",")
            // A JSONPath is what a capture or an expectation reads (`token: $.access_token`), no credential.
            let shown = templated ? maskedBesideTemplates(value, of: key)
                : key == "cookie" && !value.contains("=") || value.firstMatch(of: /^["']?\$[.\[]/) != nil ? value
                : masked(value, of: key)
            result += String(rest[match.range].dropLast(value.count)) + shown
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    /// Whether the key whose credential word starts at `index` of `line` is a JSONPath (`$.headers.X-Api-Key: x`, a
    /// member a check reads), not a credential's key.
    private static func isJSONPathKey(endingBefore index: String.Index, in line: String) -> Bool {
        let token = line[..<index].reversed().prefix { !" \t{,".contains($0) }.reversed()
        return token.first == "$" || token.starts(with: ["\"", "$"]) || token.starts(with: ["'", "$"])
    }

    /// The keys `entry` finds, lowercased (`auth` in `authorization` too).
    private static let keys = ["auth", "cookie", "bearer", "password", "secret", "default", "apikey", "api-key", "api_key", "token", "session", "-key", "_key", "pass", "pwd"].map { Array($0.utf8) }

    /// Whether `line` may hold one of the keys, which saves the regular expression (slow on a long line, quoted for
    /// each of many diagnostics) for most lines. The bytes of the line lowercased as `entry`'s case-insensitive match
    /// compares (each scalar's lowercase mapping: the Kelvin sign is a `k`) hold every text it can match.
    private static func mayHoldKey(_ line: String) -> Bool {
        var lowered: [UInt8] = []
        lowered.reserveCapacity(line.utf8.count)
        for scalar in line.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                lowered.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            } else {
                lowered += scalar.properties.lowercaseMapping.utf8
            }
        }
        return keys.contains { key in
            lowered.indices.dropLast(key.count - 1).contains { lowered[$0] == key[0] && lowered[$0..<$0 + key.count].elementsEqual(key) }
        }
    }

    /// `***` in place of the value, its quotes kept; an `Authorization` value keeps its scheme (`Bearer ***`).
    private static func masked(_ value: String, of key: String) -> String {
        let quote = value.first.flatMap { $0 == "\"" || $0 == "'" ? String($0) : nil } ?? ""
        // A quote not closed on the line stays so.
        let closing = !quote.isEmpty && value.count > 1 && value.hasSuffix(quote) ? quote : ""
        let inner = quote.isEmpty ? value : String(value.dropFirst().dropLast(closing.count))
        let scheme = key.lowercased().hasSuffix("authorization") ? inner.split(separator: " ", maxSplits: 1) : []
        return quote + (scheme.count == 2 ? scheme[0] + " ***" : "***") + closing
    }

    /// `value` with its templates kept and each text between them that holds a letter or digit as `***` (the scheme
    /// word that starts an `Authorization` value kept): `"***{{ x }}"` for `"abc{{ x }}"`, `Bearer {{ t }}` as written.
    private static func maskedBesideTemplates(_ value: String, of key: String) -> String {
        let keepsScheme = key.lowercased().hasSuffix("authorization")
        var result = ""
        var rest = value[...]
        var first = true
        while !rest.isEmpty {
            let template = rest.firstRange(of: /\{\{[^}]*\}\}/)
            var text = rest[..<(template?.lowerBound ?? rest.endIndex)]
            if first, let quote = text.first, quote == "\"" || quote == "'" {
                result.append(quote)
                text = text.dropFirst()
            }
            let quoteAtEnd = template == nil && (text.last == "\"" || text.last == "'") ? String(text.last!) : ""
            text = text.dropLast(quoteAtEnd.count)
            if first, keepsScheme, let space = text.firstIndex(of: " ") {
                result += text[...space]
                text = text[text.index(after: space)...]
            }
            if text.contains(where: { $0.isLetter || $0.isNumber }) {
                // Its spaces kept, the template stays apart from what is hidden.
                result += text.prefix(while: \.isWhitespace) + "***" + String(text.reversed().prefix(while: \.isWhitespace))
            } else {
                result += text
            }
            result += (template.map { rest[$0] } ?? "") + quoteAtEnd
            rest = rest[(template?.upperBound ?? rest.endIndex)...]
            first = false
        }
        return result
    }

    /// `key: value` in block or flow YAML, the key one of the credentials' (any case, quoted or not), the value a
    /// scalar (a mapping such as a secret named `password: { env: … }` is not one): quoted (to the end of the line when the
    /// quote is not closed there, as a YAML error quotes it), or up to a `}`, a ` #`, the
    /// end of the line or a `,` before the next `key:` (a comma inside a plain value, which YAML ends there in a `{ }`
    /// mapping, is hidden with it: `password: ab,cd` is a mistake, and `cd` part of the password).
    /// A credential's key and the bracket that opens its value, a list or a mapping.
    nonisolated(unsafe) private static let collection =
        /(?i)(?:^|[\s{,\-])["']?(authorization|proxy-authorization|authentication|auth|cookie|bearer|password|clientsecret|default|[\w-]*api[-_]?key|[\w-]*token|[\w-]*secret|[\w-]*session[\w-]*|[\w-]*(?:auth|access|private|subscription)[-_]?key|passw(?:or)?d|passphrase|pwd|pass)["']?\s*:\s*(?:\[|\{(?!\{))/

    nonisolated(unsafe) private static let entry =
        /(?i)(?:^|[\s{,\-])["']?(authorization|proxy-authorization|authentication|auth|cookie|bearer|password|clientsecret|default|[\w-]*api[-_]?key|[\w-]*token|[\w-]*secret|[\w-]*session[\w-]*|[\w-]*(?:auth|access|private|subscription)[-_]?key|passw(?:or)?d|passphrase|pwd|pass)["']?\s*:(?:\s+|(?=[^\s"'{\[]))("(?:[^"\\]|\\.)*"(?:[^\S\n]*[^\s,}#"'][^,}#]*?(?=\s*$|\s*\}|\s*,|\s+#))?|'(?:[^']|'')*'(?!')(?:[^\S\n]*[^\s,}#"'][^,}#]*?(?=\s*$|\s*\}|\s*,|\s+#))?|"(?:[^"\\]|\\.)*$|'(?:[^']|'')*$|(?:\{\{[^}]*\}\}|[^\s,{}\[\]#'"])(?:\{\{[^}]*\}\}|\}(?=[^\s,}\]#])|[^,}#]|,(?!\s*["']?[^\s"':,{}]+["']?\s*:(?:\s|$)))*?(?=\s*$|\s*\}(?![^\s,}\]#])|\s*,\s*["']?[^\s"':,{}]+["']?\s*:(?:\s|$)|\s*,\s*$|\s+#))/
}
