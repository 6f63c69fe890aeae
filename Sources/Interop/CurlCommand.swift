import CollectionFormat
public import YAML

/// A piece of a request body given to curl by one of the `--data` options, or `--json`.
public struct CurlData: Sendable, Hashable {
    /// Which option gave it, which decides how curl reads the value.
    public enum Kind: Sendable, Hashable {
        /// `-d`, `--data`, `--data-ascii`: `@file` reads a file (without its line breaks).
        case ascii
        /// `--data-raw`: the value as written.
        case raw
        /// `--data-binary`: `@file` reads a file as it is.
        case binary
        /// `--data-urlencode`: `name=value` (the value encoded), `=value`, `value`, `name@file` or `@file`.
        case urlencode
        /// `--json`: like `--data-binary`, with JSON content and accept headers.
        case json
    }

    public var kind: Kind
    public var value: String
    public var mark: Mark

    /// Whether the value names a file to read (`@file`), as `-d`, `--data-binary` and `--json` read it.
    public var readsFile: Bool {
        kind != .raw && kind != .urlencode && value.hasPrefix("@")
    }
}

/// An option or argument of a curl command and where it was.
public struct CurlArgument: Sendable, Hashable {
    /// As written: `-H`, `--data-raw`, or the value.
    public var text: String
    public var mark: Mark
}

/// What a curl command asks for, option by option, before it is read as a request.
public struct CurlCommand: Sendable {
    /// The command's number in its text, from 1.
    public var number: Int
    public var method: CurlArgument?
    public var urls: [CurlArgument] = []
    /// `-H` values as written (`Name: value`), and `-A`/`-e` as the headers they set.
    public var headers: [CurlArgument] = []
    public var data: [CurlData] = []
    /// `-F` values; `literal` for `--form-string`.
    public var formParts: [(argument: CurlArgument, literal: Bool)] = []
    public var user: CurlArgument?
    public var cookies: [CurlArgument] = []
    public var bearer: CurlArgument?
    public var maxTime: CurlArgument?
    public var proxy: CurlArgument?
    public var maxRedirects: CurlArgument?
    /// `-G`: the data goes into the query.
    public var dataInQuery = false
    /// `-I`: a HEAD request.
    public var head = false
    /// `--no-head`: curl asks for a GET request, and refuses it beside `-I`, `-T`, `-F` or data sent as a body.
    public var getRequest: CurlArgument?
    /// `-L`: follow redirects.
    public var followsRedirects = false
    /// `--location-trusted` (until `--no-location-trusted`): curl sends the credentials to every host a redirect leads to.
    public var trustedRedirects: CurlArgument?
    /// `-k`: no certificate verification.
    public var insecure = false
    /// `-g`: no URL globbing.
    public var globOff = false
    /// `-T`: the file to upload (with PUT).
    public var uploadFile: CurlArgument?
    /// `-r`: the byte range to ask for.
    public var range: CurlArgument?
    /// `--basic`, `--digest`, `--ntlm`, `--negotiate` and `--anyauth` switched on, each once, in the order last given
    /// (`--no-digest` takes `--digest` out).
    public var authSchemes: [CurlArgument] = []
    /// The last of `authSchemes`: how curl sends `-u`'s credentials.
    public var authScheme: CurlArgument? { authSchemes.last }
    /// Where the command starts (its `curl`).
    public var mark: Mark
    /// Where the command's first `{{` is, which a request file reads as a template.
    public var templateMark: Mark?

    /// Why a command copied as cURL (cmd) is refused, and what to do.
    static let cmdQuotingMessage = "the command is quoted for Windows' cmd (^\"…^\"), which runner does not read"
    static let cmdQuotingHelp = "copy the request as cURL (bash), or write the command with '…' quotes"
    /// Why a command copied as cURL (Windows) from Firefox is refused.
    static let windowsQuotingMessage = "the command is quoted for Windows (\"\" inside \"…\"), which runner does not read: a shell "
        + "would read other text than the request's"

    /// Reads the words of `command`: the first must be `curl`; options as curl reads them (short ones may be grouped,
    /// `-XPOST` and `-X POST` alike); other words are URLs. Options runner has no equivalent for are added to `warnings`
    /// as they are read. Throws at the first word curl would not accept.
    public static func parse(_ command: ShellCommand, warnings: inout [InteropProblem]) throws(InteropProblem) -> CurlCommand {
        var words = command.words[...]
        if words.first?.text == "$" { words = words.dropFirst() }
        guard let program = words.popFirst() else { throw InteropProblem("empty command", at: Mark(line: 1, column: 1)) }
        guard isCurl(program.text) else {
            throw InteropProblem("not a curl command: it starts with '\(program.text)'", at: program.mark,
                                 suggestion: "give curl commands, one per line (continue a line with '\\'), such as curl 'https://api.example.com/users'")
        }
        if let caret = words.first(where: { $0.text.hasPrefix("^") && $0.text.dropFirst().contains("^") }) {
            throw InteropProblem(cmdQuotingMessage, at: caret.mark, suggestion: cmdQuotingHelp)
        }
        var curl = CurlCommand(number: command.number, mark: program.mark, templateMark: words.lazy.compactMap(Self.templateMark).first)
        while let word = words.popFirst() {
            let text = word.text
            if text.hasPrefix("--"), text.count > 2 {
                let (option, on) = try longOption(text, at: word.mark)
                let value = option.takesValue ? try Self.value(of: text, after: word, from: &words) : nil
                try curl.apply(option, on: on, written: CurlArgument(text: text, mark: word.mark), value: value, warnings: &warnings)
            } else if text.hasPrefix("-"), text.count > 1 {
                try curl.applyShortOptions(word, from: &words, warnings: &warnings)
            } else {
                curl.urls.append(CurlArgument(text: text, mark: word.mark))
            }
        }
        return curl
    }

    /// The command once per URL its first URL's glob gives (`{a,b}`, `[1-3]`), as curl sends a request per URL; itself
    /// with `-g` or without a glob. Throws for a pattern curl refuses (`[name]`, an unmatched `]`) and for too many URLs.
    public func expandingURLGlob() throws(InteropProblem) -> [CurlCommand] {
        guard !globOff, let url = urls.first else { return [self] }
        switch CurlURLGlob.expand(url.text) {
        case .urls(let expanded):
            return expanded.map { text in
                var command = self
                command.urls[0].text = text
                return command
            }
        case .tooMany(let count):
            throw InteropProblem("'\(url.text)' is a curl URL pattern giving \(count) URLs; runner writes a request file for at "
                                 + "most \(CurlURLGlob.mostURLs)", at: url.mark,
                                 suggestion: "narrow the pattern, or add -g if its {} and [] are part of the URL")
        case .refused(let reason, let pattern):
            throw InteropProblem("'\(url.text)' has '\(pattern)', which curl reads as a URL pattern and refuses (\(reason)): "
                                 + "it sends no request", at: url.mark,
                                 suggestion: "add -g (--globoff) if the braces and brackets are part of the URL: curl then sends them as written")
        }
    }

    /// Where the first `{{` of `word` is: its column in the word as written, or the word's start when a line break is
    /// written before it.
    private static func templateMark(in word: ShellWord) -> Mark? {
        guard let range = word.written.range(of: "{{") else { return nil }
        let before = word.written[..<range.lowerBound]
        guard !before.contains(where: \.isNewline) else { return word.mark }
        return Mark(line: word.mark.line, column: word.mark.column + before.unicodeScalars.count)
    }

    /// The option a `--name` word gives and whether it switches it on (`--no-location` switches `--location` off);
    /// throws for a name curl does not know, and for `--no-` before an option that is no switch, which curl refuses.
    private static func longOption(_ text: String, at mark: Mark) throws(InteropProblem) -> (option: CurlOption.Definition, on: Bool) {
        guard let (option, on) = CurlOption.reading(String(text.dropFirst(2))) else { throw unknownOption(text, at: mark) }
        guard on || option.isSwitch else {
            throw InteropProblem("'\(text)': curl reads '--no-' only before an on/off option, and '--\(option.long)' is not one",
                                 at: mark, suggestion: "remove '\(text)'")
        }
        return (option, on)
    }

    /// Whether a program name is curl (`curl`, `/usr/bin/curl`, `curl.exe`).
    static func isCurl(_ program: String) -> Bool {
        let name = program.split(separator: "/").last.map(String.init) ?? program
        return name == "curl" || name.lowercased() == "curl.exe"
    }

    /// Applies a group of short options (`-sSL`, `-XPOST`): a letter that takes a value takes the rest of the word, or the
    /// next word.
    private mutating func applyShortOptions(_ word: ShellWord, from words: inout ArraySlice<ShellWord>,
                                            warnings: inout [InteropProblem]) throws(InteropProblem) {
        var letters = Array(word.text.dropFirst())[...]
        var column = word.mark.column + 1
        while let letter = letters.popFirst() {
            let mark = Mark(line: word.mark.line, column: column)
            guard let option = CurlOption.lettered(letter) else { throw Self.unknownOption("-\(letter)", at: mark) }
            let written = CurlArgument(text: "-\(letter)", mark: mark)
            guard option.takesValue else {
                try apply(option, on: true, written: written, value: nil, warnings: &warnings)
                column += 1
                continue
            }
            if letters.isEmpty {
                try apply(option, on: true, written: written, value: try Self.value(of: "-\(letter)", after: word, from: &words),
                          warnings: &warnings)
            } else {
                try apply(option, on: true, written: written,
                          value: CurlArgument(text: String(letters), mark: Mark(line: mark.line, column: mark.column + 1)), warnings: &warnings)
            }
            return
        }
    }

    /// The word after an option that takes a value.
    private static func value(of option: String, after word: ShellWord,
                              from words: inout ArraySlice<ShellWord>) throws(InteropProblem) -> CurlArgument {
        guard let value = words.popFirst() else {
            throw InteropProblem("'\(option)' needs a value, and the command ends here", at: word.mark)
        }
        return CurlArgument(text: value.text, mark: value.mark)
    }

    /// Records what `option` (as `written`, with its `value`) asks for, or for a switch `on` false (`--no-location`) that
    /// it is off; one runner has no equivalent for is a warning.
    private mutating func apply(_ option: CurlOption.Definition, on: Bool, written: CurlArgument, value: CurlArgument?,
                                warnings: inout [InteropProblem]) throws(InteropProblem) {
        let given = value ?? written
        switch option.effect {
        case .method: method = given
        case .header: headers.append(given)
        case .url: urls.append(given)
        case .data(let kind): data.append(CurlData(kind: kind, value: given.text, mark: given.mark))
        case .json: data.append(CurlData(kind: .json, value: given.text, mark: given.mark))
        case .form(let parsesFiles): formParts.append((given, !parsesFiles))
        case .user: user = given
        case .cookie: cookies.append(given)
        case .userAgent: headers.append(CurlArgument(text: "User-Agent: " + given.text, mark: given.mark))
        case .referer: headers.append(CurlArgument(text: "Referer: " + given.text, mark: given.mark))
        case .oauth2Bearer: bearer = given
        case .maxTime: maxTime = given
        case .proxy: proxy = given
        case .maxRedirects: maxRedirects = given
        case .get: dataInQuery = on
        case .head:
            // curl reads --no-head as asking for GET, which -I does not switch back (it refuses the two).
            if on { head = true } else { getRequest = written }
        case .location: followsRedirects = on
        case .locationTrusted:
            followsRedirects = on
            trustedRedirects = on ? written : nil
        case .insecure: insecure = on
        case .globOff: globOff = on
        case .uploadFile: uploadFile = given
        case .range: range = given
        case .authScheme:
            let scheme = CurlArgument(text: "--" + option.long, mark: written.mark)
            authSchemes.removeAll { $0.text == scheme.text }
            if on { authSchemes.append(scheme) }
        case .alreadyDone: break
        case .noEquivalent:
            // A credential in the value (`-U user:password`, `--pass`, `-E cert.pem:password`) is shown as `***`.
            let credentials = value.map { CurlOption.credentials(of: option, in: $0.text).filter { !$0.isEmpty } } ?? []
            let shown = value.map { InteropProblem.redacted($0.text, hiding: [], also: credentials) }
            let change = on ? CurlOption.requestChanges[option.long].map { " (\($0))" } ?? "" : ""
            var warning = InteropProblem("'\(shown.map { written.text + " " + $0 } ?? written.text)' has no equivalent in a request file: "
                                         + "it is not translated" + change, at: written.mark)
            warning.hidden = credentials
            warnings.append(warning)
        }
    }

    /// The error for an option curl has and runner does not know, with the closest known one. A value written in the
    /// word (`--user=bob:pw`, `--api-key:K`, `'--token T'`, `--api-keyK3y9`) is shown with the credentials it holds (for
    /// the option, the one the name is likely a typo of, or as a whole when the name says so) as `***`.
    private static func unknownOption(_ text: String, at mark: Mark) -> InteropProblem {
        let written = text.hasPrefix("--") ? CurlOptionWord(text.dropFirst(2)) : nil
        guard let written, let value = written.value else {
            // `--api-key=` is read as `--api-key`.
            let name = written.map { "--" + $0.name } ?? text
            return InteropProblem("unknown curl option '\(text)'", at: mark,
                                  suggestion: Suggestions.didYouMean(name, among: CurlOption.writtenNames) ?? seeTheDocs)
        }
        let hidden = CurlCredentials.credentials(of: written.name, value).filter { !$0.isEmpty }
        let shownValue = InteropProblem.redacted(value, hiding: [], also: hidden)
        let known = CurlOption.reading(written.name)?.option
        let suggestion = known != nil ? "curl takes the value as the next word: write '--\(written.name) \(shownValue)'"
            : CurlCredentials.misspelt(written.name).map { "did you mean '--\($0.long)'? curl takes the value as the next word" }
            ?? seeTheDocs
        var problem = InteropProblem("unknown curl option '--\(written.name)\(written.separator)\(shownValue)'", at: mark,
                                     suggestion: suggestion)
        problem.hidden = hidden
        return problem
    }

    /// The hint for an option that is none of curl's.
    private static let seeTheDocs = "see docs/interop.md for the options runner translates"
}

/// curl's URL globbing: `{a,b}` sets and `[1-3]`, `[a-c]`, `[01-10:2]` ranges make a URL several, the last pattern
/// varying fastest. A `\\` escapes a brace or bracket; `[::1]` (an IPv6 address), `[]` and runner's `{{ name }}` are
/// literal. What curl refuses (an unmatched brace or bracket, a range it cannot read) is refused, as curl reads it.
enum CurlURLGlob {
    /// The most URLs a pattern may give.
    static let mostURLs = 100

    /// What a URL gives.
    enum Outcome: Equatable {
        /// The URLs, in curl's order (the URL itself when it has no pattern).
        case urls([String])
        /// More than `mostURLs`: how many.
        case tooMany(Int)
        /// curl refuses the URL: its reason, in curl's words, and the pattern or character it is about.
        case refused(reason: String, at: String)
    }

    /// The URLs `url` gives.
    static func expand(_ url: String) -> Outcome {
        var choices: [[String]] = []
        var literal = ""
        var rest = Substring(url)
        while let character = rest.first {
            if character == "\\", let escaped = rest.dropFirst().first, "{}[]".contains(escaped) {
                literal.append(escaped)
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("{{"), let close = rest.range(of: "}}") {
                literal += rest[..<close.upperBound]
                rest = rest[close.upperBound...]
            } else if character == "[", let bracketed = literalBrackets(at: rest) {
                literal += bracketed
                rest = rest.dropFirst(bracketed.count)
            } else if character == "{" || character == "[" {
                switch character == "{" ? set(at: rest) : range(at: rest) {
                case .values(let values, let end):
                    guard values.count <= mostURLs else { return .tooMany(values.count) }
                    choices += [[literal], values]
                    literal = ""
                    rest = rest[end...]
                case .stop(let outcome):
                    return outcome
                }
            } else if character == "}" || character == "]" {
                return .refused(reason: "unmatched close brace/bracket", at: String(character))
            } else {
                literal.append(character)
                rest = rest.dropFirst()
            }
        }
        choices.append([literal])
        let count = choices.reduce(1) { count, values in
            let product = count.multipliedReportingOverflow(by: values.count)
            return product.overflow ? Int.max : product.partialValue
        }
        guard count <= mostURLs else { return .tooMany(count) }
        return .urls(choices.reduce([""]) { urls, values in urls.flatMap { url in values.map { url + $0 } } })
    }

    /// What a pattern at the start of a text gives.
    private enum Pattern {
        /// Its values, and where the text after it starts.
        case values([String], end: Substring.Index)
        /// What the URL gives instead: too many URLs, or curl's refusal.
        case stop(Outcome)

        /// curl's refusal of the pattern `text` starts with (shown up to its closing brace or bracket), in curl's words.
        static func refused(_ reason: String, _ text: Substring) -> Pattern {
            let closing: Character = text.first == "{" ? "}" : "]"
            return .stop(.refused(reason: reason, at: String(text.firstIndex(of: closing).map { text[...$0] } ?? text)))
        }
    }

    /// `[::1]` (an IPv6 address, with its zone) or `[]` at the start of `text`, which curl keeps as written; nil otherwise.
    private static func literalBrackets(at text: Substring) -> Substring? {
        guard let close = text.firstIndex(of: "]") else { return nil }
        let inside = text[text.index(after: text.startIndex)..<close]
        let isIPv6 = inside.contains(":") && inside.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ":.%".contains($0)) }
        return inside.isEmpty || isIPv6 ? text[...close] : nil
    }

    /// The values of the `{a,b}` set `text` starts with: a `\\` takes the next character as it is; curl refuses a set
    /// that is empty, unclosed, or holds a bracket or another brace.
    private static func set(at text: Substring) -> Pattern {
        var values: [String] = []
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            switch character {
            case "{", "[": return .refused("nested brace", text)
            case "]": return .refused("unexpected close bracket", text)
            case "}" where values.isEmpty && text.index(text.startIndex, offsetBy: 2) == index:
                return .refused("empty string within braces", text)
            case ",", "}":
                values.append(value)
                value = ""
                if character == "}" { return .values(values, end: index) }
            case "\\" where index < text.endIndex:
                value.append(text[index])
                index = text.index(after: index)
            default:
                value.append(character)
            }
        }
        return .refused("unmatched brace", text)
    }

    /// The values of the `[1-3]`, `[01-10:2]` or `[a-z]` range `text` starts with, read as curl reads it: numbers (as
    /// wide as the first when it starts with 0) or characters (at most 26 of them), the first not after the last, by
    /// a step (after `:`) no larger than their distance.
    private static func range(at text: Substring) -> Pattern {
        let bad = Pattern.refused("bad range", text)
        var rest = text.dropFirst()
        guard let first = rest.first, first.isASCII, first.isLetter || first.isNumber else { return bad }
        let firstValue: Int, lastValue: Int, width: Int
        if first.isLetter {
            let scalars = Array(rest.prefix(4).unicodeScalars)
            guard scalars.count == 4, scalars[1] == "-", scalars[2].isASCII else { return bad }
            (firstValue, lastValue, width) = (Int(scalars[0].value), Int(scalars[2].value), 0)
            rest = rest.dropFirst(3)
            guard lastValue - firstValue <= 25 else { return bad }
        } else {
            width = first == "0" ? rest.prefix(while: isDigit).count : 0
            guard let low = number(from: &rest), rest.popFirst() == "-" else { return bad }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let high = number(from: &rest) else { return bad }
            (firstValue, lastValue) = (low, high)
        }
        var step = 1
        if rest.first == ":" {
            rest = rest.dropFirst()
            guard let written = number(from: &rest), written <= (first.isLetter ? 256 : Int.max) else { return bad }
            step = written
        }
        guard rest.popFirst() == "]", step > 0, firstValue == lastValue ? step == 1 : firstValue < lastValue && step <= lastValue - firstValue
        else { return bad }
        let count = (lastValue - firstValue) / step + 1
        guard count <= mostURLs else { return .stop(.tooMany(count)) }
        let values = stride(from: firstValue, through: lastValue, by: step).map { value in
            guard !first.isLetter else { return String(Character(Unicode.Scalar(UInt8(value)))) }
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return .values(values, end: rest.startIndex)
    }

    /// Whether `character` is one of `0` to `9`.
    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }

    /// The decimal number `text` starts with, taken off it; nil without a digit or past `Int.max`.
    private static func number(from text: inout Substring) -> Int? {
        let digits = text.prefix(while: isDigit)
        text = text.dropFirst(digits.count)
        return Int(digits)
    }
}
