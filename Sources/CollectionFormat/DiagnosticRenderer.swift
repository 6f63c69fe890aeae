import Foundation
import HTTPCore
import YAML

/// Renders diagnostics the way a compiler does: location, message, source line with a caret, help.
public enum DiagnosticRenderer {
    /// Renders all diagnostics, sorted by path and position, separated by blank lines; `redacting` is applied to each
    /// quoted source line, its caret kept under the same text, and `redactingText` to each message, note and help (never
    /// to a path of the collection's files, its own names, nor to a line or column number: a short secret's value may
    /// equal a folder's name or a number).
    public static func render(_ diagnostics: [Diagnostic], sources: SourceCache, color: Bool,
                              redacting: (String) -> String = { $0 }, redactingText: (String) -> String = { $0 }) -> String {
        var lines = QuotedLines()
        return sharingHiddenLines(DiagnosticBag.sort(diagnostics))
            .map { render($0, sources: sources, color: color, redacting: redacting, redactingText: redactingText, lines: &lines) }
            .joined(separator: "\n")
    }

    /// `diagnostics` with a line one of them quotes with its values hidden (in a secret's definition or an `auth:`)
    /// quoted so by every one on it, and a key one of them hides (it may be the secret) hidden by all: a template's or
    /// the YAML reader's problem there knows nothing of what it holds. Each is then rendered alone as it would be with
    /// the others (a report renders them one by one).
    public static func sharingHiddenLines(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var hiddenLines: [HiddenLine: Bool] = [:]
        for diagnostic in diagnostics where diagnostic.quotesSecret {
            guard let mark = diagnostic.mark else { continue }
            let line = HiddenLine(path: diagnostic.path, line: mark.line)
            hiddenLines[line] = diagnostic.hidesKey || hiddenLines[line] == true
        }
        guard !hiddenLines.isEmpty else { return diagnostics }
        return diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if let mark = diagnostic.mark, let hidesKey = hiddenLines[HiddenLine(path: diagnostic.path, line: mark.line)] {
                diagnostic.quotesSecret = true
                diagnostic.hidesKey = diagnostic.hidesKey || hidesKey
            }
            return diagnostic
        }
    }

    /// Renders one diagnostic, ending with a line break; `redacting` is applied to the quoted source line, and the
    /// caret moved to stay under the text it points at when what comes before it is shortened (a secret as `***`).
    public static func render(_ diagnostic: Diagnostic, sources: SourceCache, color: Bool,
                              redacting: (String) -> String = { $0 }) -> String {
        var lines = QuotedLines()
        return render(diagnostic, sources: sources, color: color, redacting: redacting, redactingText: { $0 }, lines: &lines)
    }

    /// Renders one diagnostic, its quoted line cut by `lines`.
    private static func render(_ diagnostic: Diagnostic, sources: SourceCache, color: Bool, redacting: (String) -> String,
                               redactingText: (String) -> String, lines: inout QuotedLines) -> String {
        let style = Style(enabled: color)
        var location = ""
        if let path = diagnostic.path {
            // A file's name may hold any character but `/` and NUL: one that would drive a terminal or break the line is
            // shown as an escape, as the quoted line's are.
            location = ControlCharacters.escaped(path, keepingLineBreaks: false)
            if let mark = diagnostic.mark { location += ":\(mark.line):\(mark.column)" }
            location += ": "
        }
        let severity = diagnostic.severity == .error
            ? style.apply("error", .boldRed) : style.apply("warning", .boldYellow)
        var output = style.apply(location, .bold) + severity + style.apply(": \(ControlCharacters.escaped(redactingText(diagnostic.message)))", .bold) + "\n"

        let gutterWidth = diagnostic.mark.map { String($0.line).count } ?? 1
        let emptyGutter = String(repeating: " ", count: gutterWidth + 2)
        // The line is quoted when its file's text is known (not, say, in a merged report once the file has changed).
        if let mark = diagnostic.mark, let path = diagnostic.path, let source = sources.text(for: path) {
            // A line that goes on with a credential's value begun above it is hidden whole.
            let continues = continuesCredential(mark.line) { lines.text(ofLine: $0, of: path, source: source) }
            // A line holding a mistyped credential key (`pasword: x`, which no other rule knows) is quoted with its values
            // hidden too: the decoder may not have read it (a YAML error on the line).
            // The key a message does not name, which may be the secret, is hidden where it stands: the first key of its line,
            // or one inside a mapping written on the line (`pw: { env: X, s3cret: 1 }`), where the first is the secret's
            // name, which the message names.
            let hidesFirstKey = diagnostic.hidesKey
                && mark.column <= (lines.text(ofLine: mark.line, of: path, source: source)?.prefix { " \t-".contains($0) }.count ?? 0) + 1
            func hiding(_ text: String) -> String {
                if continues {
                    let indent = text.prefix { $0 == " " || $0 == "\t" }
                    return indent.count == text.count ? text : indent + "***"
                }
                return diagnostic.quotesSecret || mistypesCredentialKey(text)
                    ? hidingValues(in: redacting(text), hidingFirstKey: hidesFirstKey) : redacting(text)
            }
            let quoted = lines.text(at: mark, of: path, source: source, width: redactedWidth)
            let way = continues ? 3 : diagnostic.quotesSecret ? hidesFirstKey ? 2 : 1 : 0
            let snippet = quoted.flatMap { quoted in
                redactedSnippet(quoted.text, at: quoted.mark, redacting: hiding, redactingLine: { lines.redacted($0, way: way, by: hiding) })
            }
            let line = snippet?.line ?? ""
            let caret = snippet?.caret ?? String(repeating: " ", count: max(0, mark.column - 1)) + "^"
            output += style.apply(" \(mark.line) |", .blue) + (line.isEmpty ? "" : " \(line)") + "\n"
            output += style.apply(emptyGutter + "|", .blue) + " " + caret.dropLast() + style.apply("^", .boldRed) + "\n"
        }
        for note in diagnostic.notes.map(redactingText) {
            output += emptyGutter + "= " + note.replacingOccurrences(of: "\n", with: "\n" + emptyGutter + "  ") + "\n"
        }
        if let suggestion = diagnostic.suggestion {
            output += emptyGutter + style.apply("= help:", .bold) + " \(redactingText(suggestion))\n"
        }
        return output
    }

    /// `line` of a secret's definition or an `auth:` with everything after its first key (the secret's name) hidden but
    /// the keys a definition has (`env`, `default`), `env:`'s value (the variable the secret is read from) and the keys
    /// of `auth:` (`basic:`, `password:`): a value written by mistake (`pw: s3cret`, `[s3cret]`, `defualt: s3cret`,
    /// `default:s3cret`, `{ s3cret }`, a password pasted as a key) may be the secret.
    static func hidingValues(in line: String, hidingFirstKey: Bool = false) -> String {
        let indent = line.prefix { $0 == " " || $0 == "\t" || $0 == "-" }
        guard let colon = line.firstRange(of: /:(\s|$)/) else { return line.count == indent.count ? line : indent + "***" }
        // The first key is the secret's name, or a mistyped key the message names; one the message does not name (a key
        // under the secret's name in a block, `s3cret: 1`) may be the secret, unless it is a key of `auth:`.
        let firstKey = line[indent.endIndex..<colon.lowerBound]
        var result = hidingFirstKey && !authKeys.contains(String(firstKey))
            ? indent + "***" + line[colon.lowerBound..<colon.upperBound] : String(line[..<colon.upperBound])
        var (word, afterEnv) = ("", firstKey == "env")
        func flush(asKey: Bool = false) {
            guard !word.isEmpty else { return }
            result += ["env", "default"].contains(word) || afterEnv || asKey && authKeys.contains(word) ? word : "***"
            (afterEnv, word) = (word == "env", "")
        }
        var rest = line[colon.upperBound...]
        while let character = rest.first {
            // A comment may hold a credential too (one commented out).
            if character == "#", word.isEmpty, result.last?.isWhitespace ?? true { return result + (rest.count > 1 ? "# ***" : "#") }
            if word.isEmpty, character == "\"" || character == "'", let close = closingQuote(of: rest) {
                // A quoted text is one word.
                word = String(rest[...close])
                rest = rest[rest.index(after: close)...]
            } else if " \t{}[],:".contains(character) {
                flush(asKey: character == ":" && rest.dropFirst().first.map { $0 == " " || $0 == "\t" } ?? true)
                result.append(character)
                rest = rest.dropFirst()
            } else {
                word.append(character)
                rest = rest.dropFirst()
            }
        }
        flush()
        return result
    }

    /// `auth:` and the keys inside it (`basic`, `username`, `clientSecret`): names of the format, shown where they are keys.
    private static let authKeys = Set(["auth"] + [FormatKeys.auth, FormatKeys.basicAuth, FormatKeys.oauth2].flatMap { $0.keys.map(\.name) })

    /// The keys whose values are credentials, lowercased, as `mistypesCredentialKey` compares them.
    private static let credentialKeys = (NodeDecoder.credentialKeys.map { $0.lowercased() } + ["default"]
                                         + HTTPHeaders.credentialNames.map { $0.lowercased() }).map { Array($0.utf8) }

    /// The format's own keys, lowercased: one a typo away from a credential's (`cookies`, the option) is no typo of it.
    private static let formatKeys = Set(FormatKeys.all.flatMap(\.keys).map { Array($0.name.lowercased().utf8) })

    /// Whether `line` holds a key (letters and `-` before a `:`) one typo from a credential's but not one (`pasword:`,
    /// `barer:`, `Autorization:`), nor a key of the format (`cookies:`), read over its bytes.
    static func mistypesCredentialKey(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ":") {
            var start = index
            // ASCII letters and `-`, byte by byte (a Character's isLetter for each took a fifth of a long document's import).
            while start > 0, case let byte = bytes[start - 1],
                  (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-") {
                start -= 1
            }
            let length = index - start
            guard length >= 4, length <= 20 else { continue }
            let key = bytes[start..<index].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            guard !credentialKeys.contains(key), !formatKeys.contains(key) else { continue }
            let word = String(decoding: key, as: UTF8.self)
            if credentialKeys.contains(where: { abs($0.count - key.count) <= 1 && Suggestions.editDistance(Array(word), Array(String(decoding: $0, as: UTF8.self))) == 1 }) {
                return true
            }
        }
        return false
    }

    /// Whether line `number` goes on with a credential's value begun on a line above it, as `lines` gives them: a
    /// plain value folded over lines (`password: ab` then `  cd`), a quoted one not closed on its key's line, a block
    /// scalar (`bearer: |`), or the value of a credential's key written alone on its line (`password:` then
    /// `  hunter2`); or whether it is a text without a key inside `secrets:` or `auth:` (a value whose key was left
    /// out). The nearest line above that is less indented (skipping blank lines and other lines of the value) is the
    /// key's; a key at the same indentation before it is a sibling. Read over at most 100 lines.
    static func continuesCredential(_ number: Int, lines: (Int) -> String?) -> Bool {
        guard number > 1, let text = lines(number) else { return false }
        let isKey = keyOfLine(text) != nil
        var indent = indentation(of: text)
        // The quotes on the lines between this one and the line looked at: one of them closes a quote opened there.
        var quotes = Set<Character>()
        var nearest = true
        for line in stride(from: number - 1, through: max(1, number - 100), by: -1) {
            guard let above = lines(line), !above.allSatisfy(\.isWhitespace) else { continue }
            defer { nearest = false }
            let aboveIndent = indentation(of: above)
            guard let key = keyOfLine(above) else {
                // A line of a folded value, or a text beside this one.
                indent = min(indent, aboveIndent)
                quotes.formUnion(above.filter { $0 == "\"" || $0 == "'" })
                continue
            }
            if isCredential(key.name) || mistypesCredentialKey(above) {
                let value = key.value
                // Its value below it: a text (at any indentation right below it), or a mapping but a secret's definition.
                if value.isEmpty || value.hasPrefix("#") {
                    let definitionKey = ["env", "default"].contains(keyOfLine(text)?.name ?? "")
                    return isKey ? aboveIndent < indent && !definitionKey : aboveIndent < indent || nearest
                }
                let unclosed = (value.first == "\"" || value.first == "'") && closingQuote(of: value) == nil
                if aboveIndent < indent || unclosed && !quotes.contains(value.first!) { return true }
            }
            quotes.formUnion(above.filter { $0 == "\"" || $0 == "'" })
            // A key of its own is read by the rules of its key; a text is hidden under a secret's or an auth's mapping.
            if isKey { return false }
            if aboveIndent < indent {
                if ["secrets", "auth"].contains(key.name.lowercased()) { return true }
                indent = aboveIndent
            }
        }
        return false
    }

    /// The width of the indentation of `line`, a tab counted to the next multiple of 8 (YAML refuses tabs there: a line
    /// indented with one is read as the terminal shows it).
    private static func indentation(of line: String) -> Int {
        var width = 0
        for character in line {
            if character == " " { width += 1 } else if character == "\t" { width = (width / 8 + 1) * 8 } else { break }
        }
        return width
    }

    /// The key a line holds (`  - "name": value`): its name, quotes around it left out, and what follows its colon and
    /// the blanks after it (empty when nothing does); nil when the line holds no key (a `:` glued to a value is none).
    static func keyOfLine(_ line: String) -> (name: Substring, value: Substring)? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var rest = line.drop(while: blank)
        if rest.first == "-", rest.dropFirst().first.map(blank) == true { rest = rest.dropFirst().drop(while: blank) }
        if rest.first == "\"" || rest.first == "'" { rest = rest.dropFirst() }
        let name = rest.prefix { !$0.isWhitespace && !"\"':{}[],#".contains($0) }
        guard !name.isEmpty else { return nil }
        rest = rest[name.endIndex...]
        if rest.first == "\"" || rest.first == "'" { rest = rest.dropFirst() }
        rest = rest.drop(while: blank)
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        guard rest.isEmpty || rest.first.map(blank) == true else { return nil }
        return (name, rest.drop(while: blank))
    }

    /// Whether `key` is a credential's key (any case), or a header's name that says its value is one (`X-Api-Key`) but
    /// a key of the format holding such a word (`secrets:`, `tokenURL:`).
    private static func isCredential(_ key: Substring) -> Bool {
        let key = String(key)
        return NodeDecoder.credentialKey(key) || HTTPHeaders.namesCredential(key) && !["secrets", "tokenurl"].contains(key.lowercased())
    }

    /// Where the quoted text `text` starts closes: its next `"` not escaped by a backslash, or its next `'` not doubled;
    /// nil when it does not close on the line.
    private static func closingQuote(of text: Substring) -> Substring.Index? {
        let quote = text.first!
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if quote == "\"", character == "\\" {
                index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                continue
            }
            if character == quote {
                let next = text.index(after: index)
                guard quote == "'", next < text.endIndex, text[next] == "'" else { return index }
                index = text.index(after: next)
                continue
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// How many characters around its column a quoted line is redacted over before it is cut to the shown window: twice
    /// the longest value a request file takes (64 KiB), so that a credential reaching the column is found whole.
    private static let redactedWidth = 131_072

    /// The snippet of the line of `mark` in `source`, redacted over a wide window (`redactedWidth`) before it is cut to
    /// the shown one (a secret cut in two by that window would not be found), its caret under the same text. The wide
    /// window bounds the work on a line of megabytes; a secret would need 64 KiB to reach past it (trial helper-183: at
    /// 4,096, a 5,000-character token showed).
    /// `redactingLine` redacts the whole window (as `redacting` does: the caller may keep what it gave for the next
    /// diagnostic on the line), `redacting` the text before the column.
    private static func redactedSnippet(_ source: String, at mark: Mark, redacting: (String) -> String,
                                        redactingLine: (String) -> String) -> SourceSnippet? {
        // A line that hides nothing is cut to the shown window at once (a document's thousand notes on one long line each
        // built the wide window for nothing). The wide window is the line itself here, redacted once for the two uses.
        if source.utf8.count <= redactedWidth, redactingLine(source) == source { return SourceSnippet(source: source, mark: mark) }
        // Redacted as written: a credential holding a control character is found whole, then shown escaped.
        guard let whole = SourceSnippet(source: source, mark: mark, maxWidth: redactedWidth, escapingControls: false) else { return nil }
        let line = redactingLine(whole.line)
        guard line != whole.line else { return SourceSnippet(source: source, mark: mark) }
        // The text before the caret hides alone what the whole line may hide with more after it (a value running past
        // the caret, to the line's end): the caret then points at the hidden end of the line as shown.
        let before = redacting(String(whole.line.prefix(whole.caret.count - 1))).count + 1
        let column = before > line.count + 1 ? max(line.count, 1) : before
        return SourceSnippet(source: line, mark: Mark(line: 1, column: column))
    }

    /// A line of a file whose values a diagnostic hides.
    private struct HiddenLine: Hashable {
        let path: String?
        let line: Int
    }

    /// ANSI styling that is a no-op when color is off.
    private struct Style {
        enum Code: String {
            case bold = "1", boldRed = "1;31", boldYellow = "1;33", blue = "34"
        }

        let enabled: Bool

        func apply(_ text: String, _ code: Code) -> String {
            enabled && !text.isEmpty ? "\u{1B}[\(code.rawValue)m\(text)\u{1B}[0m" : text
        }
    }
}
