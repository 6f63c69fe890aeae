import Foundation
import CollectionFormat
import YAML
import HTTPCore

/// Reads a text of curl commands (one, or a file of them) into request documents.
public enum CurlImport {
    /// What a text of curl commands gives: a request per command, and every problem found.
    public struct Result: Sendable {
        public var requests: [ImportedRequest] = []
        /// Commands that cannot be translated, each located; when any, nothing may be written.
        public var errors: [InteropProblem] = []
        /// What was not translated or deserves a look, located; the requests are still written.
        public var warnings: [InteropProblem] = []

        /// Every credential the commands hold, found even past a word that stops a command: a quoted line hides them.
        public var credentials: [String] = []
        /// The secrets the requests' credentials are written as, when asked to write them so.
        public var secrets: SecretReferences?

        /// `line` (of the commands' text, as a diagnostic quotes it) with every credential of the commands, and every
        /// one a problem is about, as `***`.
        public func redacted(_ line: String) -> String {
            InteropProblem.redacted(line, hiding: errors + warnings, also: credentials)
        }
    }

    /// Splits `text` into commands and translates each; `filePath` maps a file a command names to the path its request
    /// file must write. `writingSecrets` writes each credential as a reference to a secret (`{{ token }}`), one name per
    /// value across the commands, instead of as it is.
    public static func read(_ text: String, filePath: @escaping @Sendable (String) -> String = { $0 }, writingSecrets: Bool = false) -> Result {
        var result = refusingCmdCopies(text) ?? Result()
        result.secrets = writingSecrets ? SecretReferences() : nil
        // Read option by option as written too: a quote left open makes a shell read every word after it otherwise.
        result.credentials += CurlCredentials.asWritten(in: text)
        if !result.errors.isEmpty { return result }
        // A command that cannot be read is left out, the others read on: every command's problems are listed at once.
        let (commands, unreadable) = ShellSplitter.everyCommand(in: text)
        if !unreadable.isEmpty {
            result.credentials += credentials(in: text) + cmdCredentials(in: text)
            // JSON members whose quotes do not close as Windows writes them (`""` for `"`, as Firefox's copy for Windows
            // does: `""ab\""cd""`).
            let open = CredentialNames.openQuotedCredentials(readForWindows(text))
            result.credentials += open + open.flatMap(writtenForWindows)
            // A command quoted for Windows' cmd, whose `^"` a shell reads as an opening quote, is refused as such.
            if let refusal = cmdQuoting(in: text) {
                result.errors.append(refusal)
                return result
            }
            result.errors += unreadable
        }
        if commands.isEmpty, unreadable.isEmpty {
            result.errors.append(InteropProblem("no curl command in the text", at: .init(line: 1, column: 1),
                                                suggestion: "give a command such as curl 'https://api.example.com/users'"))
        }
        for command in commands {
            result.credentials += CurlCredentials.values(in: command.words[...])
            result.credentials += cmdCredentials(in: command.words.map(\.written).joined(separator: " "))
            // Quoted for Windows as Firefox writes it (`"{""a"":1}"`): a shell reads other text than the request's.
            if let word = command.words.first(where: { Self.isQuotedForWindows($0.written) }) {
                result.credentials += windowsCredentials(in: command)
                result.errors.append(InteropProblem(CurlCommand.windowsQuotingMessage, at: word.mark, suggestion: CurlCommand.cmdQuotingHelp)
                    .inCommand(command.number))
                continue
            }
            var warnings = command.notes + command.ignored.map { InteropProblem("'\($0.text)' is not part of the request: ignored", at: $0.mark) }
            do throws(InteropProblem) {
                // A URL pattern gives a request per URL, as curl sends them; each warning is listed once.
                for curl in try CurlCommand.parse(command, warnings: &warnings).expandingURLGlob() {
                    var found: [InteropProblem] = []
                    defer { warnings += found.filter { !warnings.contains($0) } }
                    let document = try CurlTranslation.translate(curl, filePath: filePath, warnings: &found, references: &result.secrets)
                    let problems = validationProblems(of: document, from: curl, in: command)
                    // Every one of them, in order (the last is thrown): the user fixes them in one go.
                    result.errors += problems.dropLast().map { $0.inCommand(command.number) }
                    if let last = problems.last { throw last }
                    result.requests.append(ImportedRequest(command: command.number, document: document))
                }
            } catch {
                result.errors.append(error.inCommand(command.number))
            }
            result.warnings += warnings.map { $0.inCommand(command.number) }
        }
        // What is written as a secret is hidden where any message quotes it, as a credential written as it is.
        result.credentials += result.secrets?.hidden ?? []
        // In the order of the text: a command left out was found before the others were read.
        result.errors = result.errors.enumerated().sorted { ($0.element.mark, $0.offset) < ($1.element.mark, $1.offset) }.map(\.element)
        return result
    }

    /// The refusal of `text` when a word in it starts with `^"`, as browsers quote commands copied for Windows' cmd: the
    /// text is read as cmd reads it, not as a shell would (which ends a command at a `;` inside `^"…^"`). Each command
    /// there that holds a `^"` is refused at its first one, and the credentials of every command are found; nil for
    /// other text.
    private static func refusingCmdCopies(_ text: String) -> Result? {
        guard text.ranges(of: "^\"").contains(where: { $0.lowerBound == text.startIndex || text[text.index(before: $0.lowerBound)].isWhitespace })
        else { return nil }
        var result = Result()
        for (offset, command) in cmdCommands(in: text).enumerated() {
            // As cmd reads it, and as a shell would: a value written by hand may escape other characters than browsers do.
            result.credentials += cmdCredentials(in: String(text[command])) + credentials(in: String(text[command]))
            guard let quote = text[command].range(of: "^\"") else { continue }
            result.errors.append(InteropProblem(CurlCommand.cmdQuotingMessage, at: mark(of: quote.lowerBound, in: text),
                                                suggestion: CurlCommand.cmdQuotingHelp).inCommand(offset + 1))
        }
        return result
    }

    /// The commands of `text` as cmd splits them: at a line break, an `&` or a `|` not escaped by a `^` nor inside
    /// `"…"`; a line ending in `^` goes on.
    private static func cmdCommands(in text: String) -> [Range<String.Index>] {
        var commands: [Range<String.Index>] = []
        var (start, escaped, quoted) = (text.startIndex, false, false)
        func end(at index: String.Index) {
            if !text[start..<index].allSatisfy(\.isWhitespace) { commands.append(start..<index) }
        }
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "\n" || character == "\r\n" || !quoted && (character == "&" || character == "|") {
                end(at: index)
                (start, quoted) = (text.index(after: index), false)
            } else if character == "^" && !quoted {
                escaped = true
            }
        }
        end(at: text.endIndex)
        return commands
    }

    /// The line and column of `index` in `text` (columns count Unicode scalars, as the splitter's marks do).
    private static func mark(of index: String.Index, in text: String) -> Mark {
        let before = text[..<index].unicodeScalars
        return Mark(line: before.count { $0 == "\n" } + 1, column: before.reversed().prefix { $0 != "\n" }.count + 1)
    }

    /// The credentials of commands copied for Windows' cmd (`curl ^"URL^" -H ^"…^"`, which is refused), as cmd reads
    /// `written` (each `^` escaping the character after it, a line ending in `^` going on) and as the commands write them
    /// (`^&`): the error that refuses them quotes their lines.
    private static func cmdCredentials(in written: String) -> [String] {
        guard written.contains("^") else { return [] }
        var read = ""
        var escaped = false
        for character in written {
            if escaped {
                if character != "\n" && character != "\r\n" { read.append(character) }
                escaped = false
            } else if character == "^" {
                escaped = true
            } else {
                read.append(character)
            }
        }
        // Also with a `%` written as people write it for cmd, `%^7` with no `^` before it.
        return credentials(readAs: read) { value in
            let written = cmdEscaped(value)
            return written.contains("^%") ? [written, written.replacingOccurrences(of: "^%", with: "%")] : [written]
        }
    }

    /// The credentials of `read` (commands' text as cmd or Windows reads it), also as written inside a JSON string (`\"`,
    /// `\\`, and `\u00e9` as the browser escaped it), and each of these as `write` writes it back.
    private static func credentials(readAs read: String, writtenAs write: (String) -> [String]) -> [String] {
        let values = credentials(in: read)
        let asciiOnly = { (value: String) in
            value.unicodeScalars.map { $0.isASCII ? String($0) : String($0).utf16.map { "\\u" + String(format: "%04x", $0) }.joined() }.joined()
        }
        let forms = Set(values + values.flatMap { [JSONValue.stringContents($0), asciiOnly(JSONValue.stringContents($0))] })
        return Array(forms) + forms.flatMap(write)
    }

    /// The credentials of the commands of `text`; of text a shell cannot split (a quote not closed), those the words
    /// would hold with the quote closed at the end (`-u` before it) and JSON members whose quotes do not close, each
    /// also to its first white space: a quote left open may run a value into the words after it (`Bearer T -H …`).
    private static func credentials(in text: String) -> [String] {
        if let commands = try? ShellSplitter.commands(in: text) { return commands.flatMap { CurlCredentials.values(in: $0.words[...]) } }
        let closed = ["'", "\""].lazy.compactMap { try? ShellSplitter.commands(in: text + $0) }.first ?? []
        let values = closed.flatMap { CurlCredentials.values(in: $0.words[...]) + $0.words.flatMap { CredentialNames.openQuotedCredentials($0.text) } }
            + CredentialNames.openQuotedCredentials(text)
        return values + values.compactMap(CurlCredentials.firstWord)
    }

    /// `text` as browsers write it for Windows' cmd ("Copy as cURL (cmd)", Chrome's and Firefox's `escapeStringWin`):
    /// each `\` doubled, each `"` as `\"`, then a `^` before every character but letters, digits, white space and
    /// ``_-:=+~'/.,?;()*` ``, and a `%` before a letter, digit or `_` followed by a `^`.
    static func cmdEscaped(_ text: String) -> String {
        let kept = Set("_-:=+~'/.,?;()*`")
        var escaped = ""
        let characters = Array(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))
        for (offset, character) in characters.enumerated() {
            let plain = character.isASCII && (character.isLetter || character.isNumber) || character.isWhitespace || kept.contains(character)
            escaped += plain ? String(character) : "^" + String(character)
            if character == "%", offset + 1 < characters.count,
               case let next = characters[offset + 1], next.isASCII && (next.isLetter || next.isNumber || next == "_") {
                escaped += "^"
            }
        }
        return escaped
    }

    /// Whether a word is written quoted for Windows as Firefox's "Copy as cURL (Windows)" writes it: in `"…"`, a `"` of the
    /// value doubled (`"{""password"":""x""}"`) and a `%` as `"%"`; a shell reads each `""` as the end and start of a quote.
    static func isQuotedForWindows(_ written: String) -> Bool {
        guard written.hasPrefix("\""), written.count > 4, !written.contains("'") else { return false }
        // (A `""` at its end, `"X: """`, is a shell's empty string more likely than a value's last `"`.)
        let inside = written.dropFirst().dropLast()
        return inside.dropLast().contains("\"\"") || inside.contains("\"%\"")
    }

    /// The credentials of a command quoted for Windows as Firefox writes it, as Windows reads them (`""` is `"`, `"%"` is
    /// `%`), and as they are written there: the error that refuses it quotes its lines.
    private static func windowsCredentials(in command: ShellCommand) -> [String] {
        let read = command.words.map { word in
            guard isQuotedForWindows(word.written) else { return word.written }
            // Firefox doubles each `\` too (a JSON `\"` is written `\\""`).
            let inside = Self.readForWindows(String(word.written.dropFirst().dropLast()))
            return "'" + inside.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
        return credentials(readAs: read, writtenAs: writtenForWindows)
    }

    /// Text written for Windows as Firefox writes it (`\` doubled, `"` doubled, `%` as `"%"`), read back.
    private static func readForWindows(_ written: String) -> String {
        written.replacingOccurrences(of: "\"%\"", with: "%").replacingOccurrences(of: "\\\\", with: "\\")
            .replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// `text` written for Windows as Firefox writes it (each `\` and `"` doubled, a `%` as `"%"`), and with its `\` as they
    /// are, as people write it.
    private static func writtenForWindows(_ text: String) -> [String] {
        let written = { (text: String) in text.replacingOccurrences(of: "\"", with: "\"\"").replacingOccurrences(of: "%", with: "\"%\"") }
        return [written(text.replacingOccurrences(of: "\\", with: "\\\\")), written(text)]
    }

    /// The refusal of a text quoted for Windows' cmd (a `^"` in it), at its first `^"`, in the command it is in (the last
    /// of the text before it, when that text splits); nil for other text.
    private static func cmdQuoting(in text: String) -> InteropProblem? {
        guard let caret = text.range(of: "^\"") else { return nil }
        let refusal = InteropProblem(CurlCommand.cmdQuotingMessage, at: mark(of: caret.lowerBound, in: text), suggestion: CurlCommand.cmdQuotingHelp)
        guard let commands = try? ShellSplitter.commands(in: String(text[..<caret.lowerBound])), !commands.isEmpty else { return refusal }
        return refusal.inCommand(commands.count)
    }

    /// The first error `runner validate` finds in the request file `document` writes (a method that is no token, a
    /// port out of range, a host that is no name), at the word of `curl` it comes from; nil when there is none. The
    /// files a request names are checked where they are written.
    private static func validationProblems(of document: RequestDocument, from curl: CurlCommand, in command: ShellCommand) -> [InteropProblem] {
        let yaml = document.yaml
        let decoded = FileDecoding.requestFile(Array(yaml.utf8), path: "imported.yaml", absolutePath: "/imported.yaml", defaultName: "imported")
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        return decoded.diagnostics.filter { $0.severity == .error }.map { error in
            let line = error.mark.flatMap { mark in lines.dropFirst(max(0, mark.line - 1)).first } ?? ""
            let trimmed = line.drop { $0 == " " }
            // The word of the command that wrote the value at fault: the method, the URL, else the one holding it.
            let value = trimmed.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'")) } ?? ""
            let holding = value.isEmpty ? nil : command.words.dropFirst().first { $0.text.contains(value) }?.mark
            let word = trimmed.hasPrefix("method:") ? curl.method?.mark : trimmed.hasPrefix("url:") ? curl.urls.first?.mark : holding
            return InteropProblem("the request would not be valid: \(error.message)", at: word ?? command.words.first?.mark ?? Mark(line: 1, column: 1),
                                  suggestion: error.suggestion)
        }
    }
}
