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
            throw InteropProblem("'\(caret.text)' is quoted for Windows' cmd (^\"…^\"), which runner does not read", at: caret.mark,
                                 suggestion: "copy the request as cURL (bash), or write the command with '…' quotes")
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
    /// with `-g` or without a glob. A pattern curl would refuse is kept as written, with a warning; too many URLs throw.
    public func expandingURLGlob(warnings: inout [InteropProblem]) throws(InteropProblem) -> [CurlCommand] {
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
        case .refused(let reason):
            warnings.append(InteropProblem("'\(url.text)' \(reason): it is read as written, as curl reads it with -g",
                                           at: url.mark, suggestion: "add -g (--globoff) to the command, which curl needs too"))
            return [self]
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

    /// The error for an option curl has and runner does not know, with the closest known one.
    private static func unknownOption(_ text: String, at mark: Mark) -> InteropProblem {
        let suggestion: String
        var shown = text, hidden: [String] = []
        if text.hasPrefix("--"), let equals = text.firstIndex(of: "=") {
            // `--user=bob:pw`, `--header=Authorization: Bearer T`, `--usr=bob:pw`: the credentials the value holds (for
            // the option, or the one the name is likely a typo of) are shown as `***`.
            let name = String(text[text.index(text.startIndex, offsetBy: 2)..<equals])
            let option = CurlOption.named(name) ?? CurlCredentials.misspelt(name)
            hidden = CurlCredentials.credentials(of: name, String(text[text.index(after: equals)...])).filter { !$0.isEmpty }
            let value = InteropProblem.redacted(String(text[text.index(after: equals)...]), hiding: [], also: hidden)
            shown = String(text[...equals]) + value
            suggestion = CurlOption.named(name) != nil ? "curl takes the value as the next word: write '\(text[..<equals]) \(value)'"
                : option.map { "did you mean '--\($0.long)'? curl takes the value as the next word" } ?? "see docs/interop.md for the options runner translates"
        } else {
            suggestion = Suggestions.didYouMean(text, among: CurlOption.writtenNames)
                ?? "see docs/interop.md for the options runner translates"
        }
        var problem = InteropProblem("unknown curl option '\(shown)'", at: mark, suggestion: suggestion)
        problem.hidden = hidden
        return problem
    }
}

/// curl's URL globbing: `{a,b}` sets and `[1-3]`, `[a-c]`, `[01-10:2]` ranges make a URL several, the last pattern
/// varying fastest. A `\\` escapes a brace or bracket; `[::1]` (an IPv6 address) and runner's `{{ name }}` are literal.
enum CurlURLGlob {
    /// The most URLs a pattern may give.
    static let mostURLs = 100

    /// What a URL gives.
    enum Outcome: Equatable {
        /// The URLs, in curl's order (the URL itself when it has no pattern).
        case urls([String])
        /// More than `mostURLs`: how many.
        case tooMany(Int)
        /// Why curl refuses the URL as a pattern.
        case refused(String)
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
            } else if character == "{" || character == "[" {
                let closing: Character = character == "{" ? "}" : "]"
                guard let close = rest.firstIndex(of: closing) else { return .refused("has a '\(character)' without its '\(closing)'") }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if character == "[", isIPv6(inside) {
                    literal += rest[...close]
                } else {
                    switch character == "{" ? set(inside).map(Outcome.urls) : range(inside) {
                    case .urls(let values)?:
                        choices += [[literal], values]
                        literal = ""
                    case .tooMany(let count)?:
                        return .tooMany(count)
                    default:
                        return .refused("has '\(rest[...close])', which curl reads as a pattern and refuses")
                    }
                }
                rest = rest[rest.index(after: close)...]
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

    /// `a,b,c` of `{a,b,c}`; nil when it holds another pattern.
    private static func set(_ inside: Substring) -> [String]? {
        guard !inside.contains(where: { "{[]".contains($0) }) else { return nil }
        return inside.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The values of `1-3`, `01-10:2`, `a-z` in `[…]`: numbers (as wide as the first, when it starts with 0) or
    /// letters, by the step after `:`; nil when it is no range.
    private static func range(_ inside: Substring) -> Outcome? {
        let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let step = parts.count == 2 ? Int(parts[1]) : 1
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard let step, step > 0, bounds.count == 2 else { return nil }
        if let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 0, first <= last, bounds.allSatisfy({ $0.allSatisfy(\.isASCII) }) {
            let count = (last - first) / step + 1
            guard count <= mostURLs else { return .tooMany(count) }
            let width = bounds[0].hasPrefix("0") ? bounds[0].count : 0
            return .urls(stride(from: first, through: last, by: step).map { number in
                let digits = String(number)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            })
        }
        guard let first = bounds[0].unicodeScalars.first, let last = bounds[1].unicodeScalars.first,
              bounds[0].unicodeScalars.count == 1, bounds[1].unicodeScalars.count == 1, first.isASCII, last.isASCII,
              first.properties.isAlphabetic, last.properties.isAlphabetic, first.value <= last.value,
              first.properties.isLowercase == last.properties.isLowercase
        else { return nil }
        return .urls(stride(from: first.value, through: last.value, by: step).compactMap { Unicode.Scalar($0).map { String($0) } })
    }

    /// Whether the inside of `[…]` is an IPv6 address (with a zone), which curl does not read as a range.
    private static func isIPv6(_ inside: Substring) -> Bool {
        inside.contains(":") && inside.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ":.%".contains($0)) }
    }
}
