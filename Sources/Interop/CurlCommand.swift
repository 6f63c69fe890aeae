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
    /// `-L`: follow redirects.
    public var followsRedirects = false
    /// `-k`: no certificate verification.
    public var insecure = false
    /// `-T`: the file to upload (with PUT).
    public var uploadFile: CurlArgument?
    /// `-r`: the byte range to ask for.
    public var range: CurlArgument?
    /// The last of `--basic`, `--digest`, `--ntlm`, `--negotiate` and `--anyauth`: how curl sends `-u`'s credentials.
    public var authScheme: CurlArgument?
    /// Where the command starts (its `curl`).
    public var mark: Mark

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
        var curl = CurlCommand(number: command.number, mark: program.mark)
        while let word = words.popFirst() {
            let text = word.text
            if text.hasPrefix("--"), text.count > 2 {
                let name = String(text.dropFirst(2))
                guard let option = CurlOption.named(name) else { throw unknownOption(text, at: word.mark) }
                let value = option.takesValue ? try Self.value(of: text, after: word, from: &words) : nil
                try curl.apply(option, written: CurlArgument(text: text, mark: word.mark), value: value, warnings: &warnings)
            } else if text.hasPrefix("-"), text.count > 1 {
                try curl.applyShortOptions(word, from: &words, warnings: &warnings)
            } else {
                curl.urls.append(CurlArgument(text: text, mark: word.mark))
            }
        }
        return curl
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
                try apply(option, written: written, value: nil, warnings: &warnings)
                column += 1
                continue
            }
            if letters.isEmpty {
                try apply(option, written: written, value: try Self.value(of: "-\(letter)", after: word, from: &words), warnings: &warnings)
            } else {
                try apply(option, written: written, value: CurlArgument(text: String(letters), mark: Mark(line: mark.line, column: mark.column + 1)),
                          warnings: &warnings)
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

    /// Records what `option` (as `written`, with its `value`) asks for; one runner has no equivalent for is a warning.
    private mutating func apply(_ option: CurlOption.Definition, written: CurlArgument, value: CurlArgument?,
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
        case .get: dataInQuery = true
        case .head: head = true
        case .location: followsRedirects = true
        case .insecure: insecure = true
        case .uploadFile: uploadFile = given
        case .range: range = given
        case .authScheme: authScheme = written
        case .alreadyDone: break
        case .noEquivalent:
            // A credential in the value (`-U user:password`, `--pass`, `-E cert.pem:password`) is shown as `***`.
            let credentials = value.map { CurlOption.credentials(of: option, in: $0.text).filter { !$0.isEmpty } } ?? []
            let shown = value.map { InteropProblem.redacted($0.text, hiding: [], also: credentials) }
            let change = CurlOption.requestChanges[option.long].map { " (\($0))" } ?? ""
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
            suggestion = Suggestions.didYouMean(text, among: CurlOption.all.map { "--" + $0.long })
                ?? "see docs/interop.md for the options runner translates"
        }
        var problem = InteropProblem("unknown curl option '\(shown)'", at: mark, suggestion: suggestion)
        problem.hidden = hidden
        return problem
    }
}
