import Foundation
import HTTPCore
import YAML

/// How the shell encodes a variable's value when the command runs, as runner encodes a value at that place of the
/// request, so that curl sends what `runner run` sends whatever the value holds.
public enum ShellEncoding: Sendable, Hashable, CaseIterable {
    /// As it is: headers, `-u`, text bodies, `--data-urlencode` and `--form-string` (curl encodes those itself).
    case none
    /// Escaped for the inside of a JSON string (`"`, `\`, control characters), as in runner's JSON bodies.
    case json
    /// As runner writes a value into the URL's text (`PercentEncoding.encodeURL`): every byte but letters, digits,
    /// `-._~!$&'()*+,;=:@/?#` and valid `%XX` escapes percent-encoded.
    case url
    /// As runner writes a value holding a secret into a URL's path: as `url`, but one value, its `?`, `#` and `%`
    /// percent-encoded too.
    case urlPath
    /// As runner writes a value holding a secret into the query a `url:` writes: as `url`, its `&`, `+`, `#`, `?` and
    /// `%` percent-encoded too.
    case urlQuery
    /// Percent-encoded as runner encodes a `query:` value or a form field: all but letters, digits and `-._~`.
    case query
    /// JSON-escaped, then written into the URL's text: a string inside a structured value (`{{ filter }}` holding a
    /// mapping) in a URL.
    case jsonInURL
    /// JSON-escaped, then percent-encoded as a `query:` value or form field is: a string inside a structured value
    /// sent as one.
    case jsonInQuery
    /// JSON-escaped twice: a string inside a structured value written into a string of a JSON body (`"x{{ filter }}"`).
    case jsonInJSON

    /// `value` encoded as runner writes it in a request (the text a secret's value takes there).
    public func encode(_ value: String) -> String {
        switch self {
        case .none: value
        case .json: JSONValue.stringContents(value)
        case .url: PercentEncoding.encodeURL(value)
        case .urlPath: PercentEncoding.encodeURL(PercentEncoding.encoding(PercentEncoding.pathStructure, in: value))
        case .urlQuery: PercentEncoding.encodeURL(PercentEncoding.encoding(PercentEncoding.queryStructure, in: value))
        case .query: PercentEncoding.encode(value)
        case .jsonInURL: Self.url.encode(Self.json.encode(value))
        case .jsonInQuery: Self.query.encode(Self.json.encode(value))
        case .jsonInJSON: Self.json.encode(Self.json.encode(value))
        }
    }

    /// The double-quoted shell text that gives the value of the shell variable `name` encoded: `"$NAME"`, or a command
    /// substitution that pipes it through `awk` (POSIX; run with `LC_ALL=C`, so it reads bytes). `printf '%s\n'` ends
    /// the value with a line break, so awk reads every line of it, the last one too, and joins them with `\n`.
    func reference(to name: String) -> String {
        let programs: [String]
        switch self {
        case .none: return "\"$\(name)\""
        case .json: programs = [Self.jsonProgram]
        case .url: programs = [Self.urlProgram]
        case .urlPath: programs = [Self.oneValueProgram(PercentEncoding.pathStructure)]
        case .urlQuery: programs = [Self.oneValueProgram(PercentEncoding.queryStructure)]
        case .query: programs = [Self.queryProgram]
        case .jsonInURL: programs = [Self.jsonProgram, Self.urlProgram]
        case .jsonInQuery: programs = [Self.jsonProgram, Self.queryProgram]
        case .jsonInJSON: programs = [Self.jsonProgram, Self.jsonProgram]
        }
        return "\"$(printf '%s\\n' \"$\(name)\"" + programs.map { " | LC_ALL=C awk '\($0)'" }.joined() + ")\""
    }

    private static let urlProgram = percentProgram(keeping: PercentEncoding.urlPunctuation.replacingOccurrences(of: "'", with: #"\047"#),
                                                   escapes: true)
    private static let queryProgram = percentProgram(keeping: "", escapes: false)

    /// An awk program writing its input as runner writes a secret's value where `structure` is the URL's structure.
    private static func oneValueProgram(_ structure: String) -> String {
        percentProgram(keeping: PercentEncoding.urlPunctuation.filter { !structure.contains($0) }.replacingOccurrences(of: "'", with: #"\047"#),
                       escapes: false)
    }

    /// Reads the value's lines back into one text (`s`).
    private static let joinLines = #"{ s = s (NR > 1 ? "\n" : "") $0 }"#

    /// An awk program escaping its input for a JSON string: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f` and `\u00XX`.
    private static let jsonProgram = #"BEGIN { for (i = 1; i < 32; i++) e[sprintf("%c", i)] = sprintf("\\u%04x", i); "#
        + #"e["\n"] = "\\n"; e["\r"] = "\\r"; e["\t"] = "\\t"; e["\b"] = "\\b"; e["\f"] = "\\f"; e["\""] = "\\\""; e["\\"] = "\\\\" } "#
        + joinLines
        + #" END { n = length(s); for (i = 1; i <= n; i++) { c = substr(s, i, 1); if (c in e) c = e[c]; printf "%s", c } }"#

    /// An awk program percent-encoding every byte of its input but letters, digits, `-._~` and `kept` (an awk string),
    /// and with `escapes`, valid `%XX` escapes too.
    private static func percentProgram(keeping kept: String, escapes: Bool) -> String {
        let escape = #"if (c == "%" && substr(s, i + 1, 2) ~ /^[0-9A-Fa-f][0-9A-Fa-f]$/) { printf "%s", substr(s, i, 3); i += 2; continue } "#
        return #"BEGIN { for (i = 1; i < 256; i++) o[sprintf("%c", i)] = i } "# + joinLines + " END { "
            + #"n = length(s); for (i = 1; i <= n; i++) { c = substr(s, i, 1); "# + (escapes ? escape : "")
            + #"if (c ~ /[0-9A-Za-z._~-]/ || index(""# + kept + #"", c)) printf "%s", c; else printf "%%%02X", o[c] } }"#
    }
}

/// A shell word made of literal text and references to shell variables, quoted so that a POSIX shell passes exactly
/// that text with each variable's value in its place: `'{"token":"'"$API_TOKEN"'"}'`.
public struct ShellText: Sendable, Hashable {
    /// Literal text or a variable reference.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        /// A shell variable name (`[A-Za-z_][A-Za-z0-9_]*`), written `"$NAME"`, its value encoded as the place needs.
        case variable(String, ShellEncoding)
    }

    public var segments: [Segment]

    public init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// A word of literal text.
    public static func literal(_ text: String) -> ShellText { ShellText([.literal(text)]) }

    /// `text` as one shell comment line: a line break in it (a name, a skip reason, a client ID may hold one) would end
    /// the comment and make the rest a command, so each becomes a space; a control character shows as `\u{1B}`.
    public static func comment(_ text: String) -> String {
        "# " + ControlCharacters.escaped(String(text.map { $0.isNewline ? " " : $0 }))
    }

    /// The two words as one, the literal text where they meet joined.
    public static func + (lhs: ShellText, rhs: ShellText) -> ShellText {
        guard case .literal(let end)? = lhs.segments.last, case .literal(let start)? = rhs.segments.first else {
            return ShellText(lhs.segments + rhs.segments)
        }
        return ShellText(lhs.segments.dropLast() + [.literal(end + start)] + rhs.segments.dropFirst())
    }

    /// The word as a comment shows it: literal text as it is, each variable as `$NAME` (`${NAME}` before a letter, digit
    /// or `_`, which would read as part of the name).
    public var displayed: String {
        var text = ""
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .variable(let name, _):
                let next = index + 1 < segments.count ? segments[index + 1] : nil
                let glued = if case .literal(let following)? = next, let first = following.unicodeScalars.first {
                    first == "_" || first.properties.isAlphabetic || ("0"..."9").contains(first)
                } else { false }
                text += glued ? "${\(name)}" : "$" + name
            case .literal(let literal): text += literal
            }
        }
        return text
    }

    /// The variables the word refers to.
    public var variables: [String] {
        segments.compactMap { if case .variable(let name, _) = $0 { name } else { nil } }
    }

    /// The word as a shell reads it back: plain when it holds only characters no shell treats specially, otherwise
    /// literal runs in single quotes (a `'` written `'\''`) and variables as `"$NAME"` (or their encoding's command).
    public var quoted: String {
        if segments.isEmpty { return "''" }
        return segments.map { segment in
            switch segment {
            case let .variable(name, encoding): encoding.reference(to: name)
            case .literal(let text): Self.quote(text)
            }
        }.joined()
    }

    /// `text` unquoted when safe, else in single quotes; a control character (one that would drive the terminal the
    /// command is shown on, or make its line read other than it is: `ControlCharacters`) as `"$(printf '\033')"`, its
    /// UTF-8 bytes in octal, so that the command shows no such character and still sends it.
    public static func quote(_ text: String) -> String {
        guard text.isEmpty || !text.unicodeScalars.allSatisfy(isSafe) else { return text }
        guard text.unicodeScalars.contains(where: ControlCharacters.isControl) else {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var words: [String] = []
        var run = ""
        for scalar in text.unicodeScalars {
            guard ControlCharacters.isControl(scalar) else {
                run.unicodeScalars.append(scalar)
                continue
            }
            if !run.isEmpty { words.append(quote(run)) }
            run = ""
            words.append("\"$(printf '" + String(scalar).utf8.map { String(format: "\\%03o", $0) }.joined() + "')\"")
        }
        if !run.isEmpty { words.append(quote(run)) }
        return words.joined()
    }

    /// Characters a shell never treats specially in a word.
    private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "@", "%", "+", ",", "=": true
        default: false
        }
    }

    /// A variable's name made a shell variable name: characters a shell name cannot hold become `_`.
    public static func variableName(_ name: String) -> String {
        var shellName = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? scalar : "_"
        }))
        if shellName.first?.isNumber ?? true { shellName = "_" + shellName }
        return shellName
    }
}

/// Marks that stand for values an export must not print (secrets, captures not known before a run): a template
/// resolves to a mark, which survives URL, form and JSON encoding (letters, digits, `~`, `_` and `-` only) and becomes
/// a `"$NAME"` reference in the command (encoded at run time where runner encodes the value).
public struct ValuePlaceholders: Sendable {
    /// Random letters that make the marks unlike any text of a collection.
    private let nonce: String
    /// Values to hide wherever they appear (a secret's value inside a variable that used it), with their variables.
    public var hiddenValues: [(value: String, variable: String)] = []
    /// The variables whose values runner writes into a URL as text (a process environment variable: its `?`, `#` and
    /// valid `%XX` escapes as they are), not as one value (a secret).
    public var textVariables: Set<String> = []
    /// The variables that hold a secret.
    public var secretVariables: Set<String> = []

    public init(nonce: String = String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement() ?? "q" })) {
        self.nonce = nonce
    }

    /// The mark that stands for the shell variable `variable`.
    public func placeholder(for variable: String) -> String {
        "~rv\(nonce)~\(variable)~"
    }

    /// Whether `text` holds a mark.
    public func marks(_ text: String) -> Bool {
        text.contains("~rv\(nonce)~") || text.contains("~rj\(nonce)~")
    }

    /// `text`, a string inside a structured value (a mapping or list, which runner writes as JSON where it goes), with
    /// each mark as one whose variable is JSON-escaped before it is encoded for its place.
    public func insideJSON(_ text: String) -> String {
        text.replacingOccurrences(of: "~rv\(nonce)~", with: "~rj\(nonce)~")
    }

    /// `text` as a shell word: each mark becomes its variable, encoded at run time as `encoding` says (how runner
    /// encodes a value at the place `text` goes), and each hidden value, in any form runner writes it (as it is,
    /// JSON-escaped or percent-encoded), the variable that holds it, encoded the same way.
    public func shellText(_ text: String, encoding: ShellEncoding = .none) -> ShellText {
        var segments: [ShellText.Segment] = []
        var rest = Substring(text)
        let (plain, insideJSON) = ("~rv\(nonce)~", "~rj\(nonce)~")
        while let start = [rest.range(of: plain), rest.range(of: insideJSON)].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }) {
            appendLiteral(rest[..<start.lowerBound], to: &segments, at: encoding)
            let afterOpening = rest[start.upperBound...]
            guard let end = afterOpening.firstIndex(of: "~") else {
                rest = afterOpening
                continue
            }
            let variable = String(afterOpening[..<end])
            var variableEncoding = textVariables.contains(variable) && (encoding == .urlPath || encoding == .urlQuery) ? .url : encoding
            if rest[start] == insideJSON {
                // In a JSON body, a mapping written into a string has its quotes escaped (`"x{\"k\":\"…`): twice.
                let inString = encoding == .json && rest[..<start.lowerBound].hasSuffix("\\\"")
                variableEncoding = switch encoding {
                case .query, .jsonInQuery: .jsonInQuery
                case .url, .urlPath, .urlQuery, .jsonInURL: .jsonInURL
                case .none, .json, .jsonInJSON: inString ? .jsonInJSON : .json
                }
            }
            segments.append(.variable(variable, variableEncoding))
            rest = afterOpening[afterOpening.index(after: end)...]
        }
        appendLiteral(rest, to: &segments, at: encoding)
        return ShellText(segments)
    }

    /// Each hidden value in every form runner writes it, with the variable and the encoding that give that form, the
    /// longest first; where encodings give the same text (a value of letters only), the one of the place the text
    /// goes (`place`) first: the command then encodes whatever value the variable holds when it runs.
    private func hiddenForms(at place: ShellEncoding) -> [(text: String, variable: String, encoding: ShellEncoding)] {
        var forms: [(text: String, variable: String, encoding: ShellEncoding)] = []
        for entry in hiddenValues where !entry.value.isEmpty {
            for encoding in [place] + ShellEncoding.allCases.filter({ $0 != place }) {
                let text = encoding.encode(entry.value)
                if !forms.contains(where: { $0.text == text && $0.variable == entry.variable }) {
                    forms.append((text, entry.variable, encoding))
                }
            }
        }
        // Among forms of the same length the earlier (the place's encoding) stays first.
        return forms.enumerated().sorted { left, right in
            left.element.text.count != right.element.text.count ? left.element.text.count > right.element.text.count : left.offset < right.offset
        }.map(\.element)
    }

    /// Appends literal text going where runner encodes values as `place`, with hidden values in it as variables.
    private func appendLiteral(_ text: Substring, to segments: inout [ShellText.Segment], at place: ShellEncoding = .none) {
        guard !text.isEmpty else { return }
        let forms = hiddenForms(at: place)
        var rest = text
        while let first = forms.compactMap({ form in rest.range(of: form.text).map { (form, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            if !rest[..<first.1.lowerBound].isEmpty { segments.append(.literal(String(rest[..<first.1.lowerBound]))) }
            segments.append(.variable(first.0.variable, first.0.encoding))
            rest = rest[first.1.upperBound...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
    }
}
