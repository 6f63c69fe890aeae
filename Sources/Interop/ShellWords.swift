public import YAML
import CollectionFormat

/// One word of a shell command as the shell would pass it (quotes removed, escapes applied), and where it starts.
public struct ShellWord: Sendable, Hashable {
    public var text: String
    /// Line and column (Unicode scalars, from 1) of the word's first character in the text.
    public var mark: Mark
    /// Whether any part of the word was quoted (`''` is an empty word; a quoted `-X` is still an option to curl).
    public var quoted: Bool
    /// The word as the text writes it: quotes, escapes and line continuations included.
    public var written: String

    public init(_ text: String, at mark: Mark, quoted: Bool = false, written: String? = nil) {
        self.text = text
        self.mark = mark
        self.quoted = quoted
        self.written = written ?? text
    }
}

/// One command of a text of shell commands: its words, and its number in the text (from 1).
public struct ShellCommand: Sendable {
    public var number: Int
    public var words: [ShellWord]
    /// Where something the command line does not pass to the program was left out (a pipe, a redirection).
    public var ignored: [ShellWord] = []
    /// Warnings about how the shell reads the words (the rest of a `$'…'` after a NUL character is dropped).
    public var notes: [InteropProblem] = []
}

/// A problem in a text of commands, at a place in it.
public struct InteropProblem: Error, Sendable, Hashable {
    public var message: String
    public var mark: Mark
    public var suggestion: String?
    /// The number of the command it is in (from 1), when the text has commands.
    public var command: Int?
    /// Credentials the problem is about, which a quoted source line must show as `***`.
    public var hidden: [String] = []

    public init(_ message: String, at mark: Mark, suggestion: String? = nil, command: Int? = nil) {
        self.message = message
        self.mark = mark
        self.suggestion = suggestion
        self.command = command
    }

    /// `line` (of the input, as a diagnostic quotes it) with every credential one of `problems` is about, and each of
    /// `credentials`, as `***`.
    public static func redacted(_ line: String, hiding problems: [InteropProblem], also credentials: [String] = []) -> String {
        // A credential spanning lines (a quoted value with a line break) is hidden line by line too.
        let values = (problems.flatMap(\.hidden) + credentials).flatMap { value in
            [value] + value.split(whereSeparator: \.isNewline).map(String.init).filter { $0.count > 1 && $0 != value }
        }
        // A template (`{{ k }}`, or a piece of one such as `k }}`) is no credential: what it gives is hidden where it is sent;
        // nor is a shell variable's name alone (`$TOKEN`, `${TOKEN}`), which a shell would have put the value in place of.
        let hidden = Set(values)
            .filter { !$0.isEmpty && !$0.contains("{{") && !$0.contains("}}") && $0.wholeMatch(of: shellVariable) == nil }
            .sorted { $0.count > $1.count }
        return hidden.reduce(line) { text, value in
            // A number (a PIN, a numeric key) only where it stands whole: inside another number it is not it.
            let number = value.allSatisfy { $0.isASCII && $0.isNumber }
            return value.count >= ResolvedSecret.shortestHiddenInText && !number ? text.replacingOccurrences(of: value, with: "***")
                : wholeValuesHidden(value, in: text)
        }
    }

    /// A shell variable's reference: `$NAME` or `${NAME}`.
    private nonisolated(unsafe) static let shellVariable = /\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})/

    /// `text` with `value` (too short to hide inside other text: `x` would hide every letter x) as `***` where it is a
    /// whole value: after `=`, `:`, a quote or a space, and before `;`, `&`, `,`, a quote, a space, cmd's escape `^`
    /// (`Bearer ab^"`), the end of a JSON object or list (`"pin":131}`) or the end of a line.
    private static func wholeValuesHidden(_ value: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: value) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let starts = before.map { "=:\"' ".contains($0) } ?? true
            let ends = after.map { ";&,\"' \n^}]".contains($0) } ?? true
            result += rest[..<range.lowerBound] + (starts && ends ? "***" : value)
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The same problem, in command `number`.
    public func inCommand(_ number: Int) -> InteropProblem {
        var problem = self
        problem.command = number
        return problem
    }

    /// The message with the command it is in: `command 2: unknown curl option '--frob'`.
    public var locatedMessage: String {
        command.map { "command \($0): \(message)" } ?? message
    }
}

/// Splits text into shell commands and words as a POSIX shell reads a pasted command: `'…'`, `"…"` and `$'…'` quotes,
/// backslash escapes, lines continued by `\` (or by `^`, as Windows' cmd writes them), `#` comments, and commands
/// separated by line breaks, `;`, `&&`, `||` and `&`. Pipes, redirections and a background `&` are kept apart from the
/// words. Nothing is expanded: `$NAME` stays as written.
public struct ShellSplitter {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// Whether a backquote opened a command substitution that no backquote has closed yet.
    private var insideBackquotes = false
    private var line = 1
    private var column = 1
    /// The notes about the words of the command being read.
    private var notes: [InteropProblem] = []
    /// The problems of the commands that could not be read, when reading goes on past them (`everyCommand`).
    private var problems: [InteropProblem]?
    /// The first quote of the command being read that ran over lines holding what looks like another curl command: where
    /// it opened and closed (a quote left open there makes a later one read as opening, and unbalanced).
    private var quoteOverCommands: (opened: Mark, closed: Mark)?

    /// A splitter over `text`.
    public init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The commands of the text, in order; blank lines and comments make none.
    public static func commands(in text: String) throws(InteropProblem) -> [ShellCommand] {
        var splitter = ShellSplitter(text)
        return try splitter.commands()
    }

    /// The commands of the text that can be read, in order, and the problem of each that cannot (a bad escape, a quote
    /// left open), which is left out, its number kept: reading goes on at the next line that does not continue it, so
    /// that every command's problem is found in one go.
    public static func everyCommand(in text: String) -> (commands: [ShellCommand], problems: [InteropProblem]) {
        var splitter = ShellSplitter(text)
        splitter.problems = []
        let commands = (try? splitter.commands()) ?? []
        return (commands, splitter.problems ?? [])
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int = 1) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private var mark: Mark { Mark(line: line, column: column) }

    /// Moves past the current character, counting lines and columns.
    private mutating func advance() {
        guard let scalar = current else { return }
        index += 1
        if scalar == "\n" || (scalar == "\r" && current != "\n") {
            line += 1
            column = 1
        } else if scalar != "\r" {
            column += 1
        }
    }

    /// Whether a line break (LF, CR LF or CR) starts `offset` characters ahead.
    private func lineBreak(at offset: Int) -> Bool {
        guard let scalar = peek(offset) else { return false }
        return scalar == "\n" || scalar == "\r"
    }

    /// Skips a line break at the current position.
    private mutating func skipLineBreak() {
        if current == "\r" { advance() }
        if current == "\n" { advance() }
    }

    private mutating func commands() throws(InteropProblem) -> [ShellCommand] {
        var commands: [ShellCommand] = []
        do throws(InteropProblem) {
            try split(into: &commands)
        } catch {
            throw error.inCommand(number)
        }
        return commands
    }

    /// Appends each command of the text to `commands` as it ends.
    private mutating func split(into commands: inout [ShellCommand]) throws(InteropProblem) {
        while current != nil {
            do throws(InteropProblem) {
                try splitWords(into: &commands)
            } catch {
                guard problems != nil else { throw error }
                // The command is left out (its number kept); reading goes on after its last line.
                problems?.append(error.inCommand(number))
                number += 1
                (pending, notes, quoteOverCommands) = (Pending(), [], nil)
                skipRestOfCommand()
            }
        }
        finish(into: &commands)
    }

    /// The command being read: its words, those that are not part of it, and whether a pipe came.
    private struct Pending {
        var words: [ShellWord] = []
        var ignored: [ShellWord] = []
        var piped = false
    }

    private var pending = Pending()
    /// The number of the command being read (those left out counted).
    private var number = 1

    /// Ends the command being read: appended to `commands` when it has words.
    private mutating func finish(into commands: inout [ShellCommand]) {
        if !pending.words.isEmpty {
            commands.append(ShellCommand(number: number, words: pending.words, ignored: pending.ignored, notes: notes))
            number += 1
        }
        (pending, notes, quoteOverCommands) = (Pending(), [], nil)
    }

    /// Moves to the end of the command's last line: past lines a `\` (or `^`) at their end continues.
    private mutating func skipRestOfCommand() {
        while let scalar = current {
            if (scalar == "\\" || scalar == "^") && lineBreak(at: 1) {
                advance()
                skipLineBreak()
            } else if scalar == "\n" || scalar == "\r" {
                return
            } else {
                advance()
            }
        }
    }

    /// Reads the words of the text from the current character on, each command appended to `commands` as it ends.
    private mutating func splitWords(into commands: inout [ShellCommand]) throws(InteropProblem) {
        while let scalar = current {
            switch scalar {
            case " ", "\t":
                advance()
            case "\n", "\r":
                skipLineBreak()
                finish(into: &commands)
            case "\\" where lineBreak(at: 1), "^" where lineBreak(at: 1):
                advance()
                skipLineBreak()
            case "#":
                while let next = current, next != "\n", next != "\r" { advance() }
            case ";":
                advance()
                finish(into: &commands)
            case "&" where peek() == "&", "|" where peek() == "|":
                advance()
                advance()
                finish(into: &commands)
            case "|":
                // What follows a pipe is not sent to curl: noted, never used.
                let start = mark
                var operatorText = ""
                while let next = current, next == "|" || next == "&" {
                    operatorText.unicodeScalars.append(next)
                    advance()
                }
                pending.ignored.append(ShellWord(operatorText, at: start))
                pending.piped = true
            case ">", "<", "&" where peek() == ">", "0"..."9" where startsRedirection():
                pending.ignored.append(try redirection())
            case "&":
                // A command run in the background: the command ends here.
                pending.ignored.append(ShellWord("&", at: mark))
                advance()
                finish(into: &commands)
            default:
                guard let word = try word() else { continue }
                if pending.piped, !pending.ignored.isEmpty {
                    pending.ignored[pending.ignored.count - 1].text += " " + word.text
                } else {
                    pending.words.append(word)
                }
            }
        }
    }

    /// Whether the digits at the current character are a file descriptor's number before `>` or `<` (`2>&1`).
    private func startsRedirection() -> Bool {
        var offset = 0
        while let scalar = peek(offset), ("0"..."9").contains(scalar) { offset += 1 }
        return peek(offset) == ">" || peek(offset) == "<"
    }

    /// A redirection as written, from its file descriptor's number or `&` to its target: `2>&1`, `&> all.log`,
    /// `< in.txt`.
    private mutating func redirection() throws(InteropProblem) -> ShellWord {
        let start = mark
        var text = String.UnicodeScalarView()
        while let scalar = current, ("0"..."9").contains(scalar) || scalar == "&" && text.isEmpty {
            text.append(scalar)
            advance()
        }
        while let scalar = current, scalar == ">" || scalar == "<" || scalar == "&" || scalar == "|" {
            text.append(scalar)
            advance()
        }
        let spaced = current == " " || current == "\t"
        while current == " " || current == "\t" { advance() }
        let target = try word().map { (spaced ? " " : "") + $0.text } ?? ""
        return ShellWord(String(text) + target, at: start)
    }

    /// The word starting at the current character; nil when only a line continuation was there.
    private mutating func word() throws(InteropProblem) -> ShellWord? {
        let start = mark
        let startIndex = index
        var text = String.UnicodeScalarView()
        var quoted = false
        var sawText = false
        loop: while let scalar = current {
            switch scalar {
            case " ", "\t", "\n", "\r", ";", "|", ">", "<":
                break loop
            case "&" where peek() == "&":
                break loop
            case "\\":
                if lineBreak(at: 1) {
                    advance()
                    skipLineBreak()
                    continue
                }
                advance()
                guard let escaped = current else { break loop }
                text.append(escaped)
                advance()
            case "^" where lineBreak(at: 1):
                advance()
                skipLineBreak()
                continue
            case "'":
                try singleQuoted(into: &text)
                quoted = true
            case "\"":
                try doubleQuoted(into: &text)
                quoted = true
            case "$" where peek() == "'":
                advance()
                try ansiQuoted(into: &text)
                quoted = true
            default:
                if scalar == "$" || scalar == "`" { noteShellExpansion() }
                text.append(scalar)
                advance()
            }
            sawText = true
        }
        guard sawText else { return nil }
        let written = String(String.UnicodeScalarView(scalars[startIndex..<index]))
        return ShellWord(String(text), at: start, quoted: quoted, written: written)
    }

    /// Notes a shell expansion at the current `$` or backquote, outside single quotes (`$NAME`, `${NAME}`, `${NAME:-x}`,
    /// `$1`, `$(cmd)`, `` `cmd` ``): the shell a command was written for would put its value there, runner sends the text
    /// as written.
    private mutating func noteShellExpansion() {
        func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        var written: String, variable = ""
        if current == "`" {
            // One command substitution: the closing backquote is no other.
            insideBackquotes.toggle()
            guard insideBackquotes else { return }
            written = "`…`"
        } else if peek() == "(" {
            written = "$(…)"
        } else if peek() == "{" {
            var end = index + 2
            while end < scalars.count, scalars[end] != "}", scalars[end] != "\n" { end += 1 }
            guard end < scalars.count, scalars[end] == "}", end > index + 2 else { return }
            written = String(String.UnicodeScalarView(scalars[index...end]))
            variable = String(String.UnicodeScalarView(scalars[(index + 2)..<end].prefix(while: isNameCharacter)))
        } else if let next = peek(), ("0"..."9").contains(next) || "$@#?*!-".unicodeScalars.contains(next) {
            written = "$" + String(next)
        } else if let next = peek(), isNameCharacter(next) {
            var end = index + 1
            while end < scalars.count, isNameCharacter(scalars[end]) { end += 1 }
            variable = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            written = "$" + variable
        } else {
            return
        }
        let isVariable = variable.first.map { !$0.isNumber } ?? false
        notes.append(InteropProblem("'\(written)' is a shell \(isVariable ? "variable" : "expansion"), which runner does not expand: "
                                        + "it is sent as the text '\(written)'", at: mark,
                                    suggestion: isVariable ? "write {{ $env.\(variable) }} to read it from the process environment when the "
                                        + "request runs (a secret of the environment for a credential)" : "write the value it gives instead"))
    }

    /// `'…'`: every character as it is, up to the next `'`.
    private mutating func singleQuoted(into text: inout String.UnicodeScalarView) throws(InteropProblem) {
        let opening = mark
        let start = index
        advance()
        while let scalar = current, scalar != "'" {
            text.append(scalar)
            advance()
        }
        guard current == "'" else { throw unclosed("'", at: opening) }
        noteQuoteOverCommands(from: start, opened: opening)
        advance()
    }

    /// `"…"`: a backslash escapes `"`, `\`, `$`, a backquote and a line break (which it removes); anything else is kept.
    private mutating func doubleQuoted(into text: inout String.UnicodeScalarView) throws(InteropProblem) {
        let opening = mark
        let start = index
        advance()
        while let scalar = current, scalar != "\"" {
            if scalar == "\\", let next = peek() {
                if next == "\n" || next == "\r" {
                    advance()
                    skipLineBreak()
                    continue
                }
                if next == "\"" || next == "\\" || next == "$" || next == "`" {
                    advance()
                    text.append(next)
                    advance()
                    continue
                }
            }
            if scalar == "$" || scalar == "`" { noteShellExpansion() }
            text.append(scalar)
            advance()
        }
        guard current == "\"" else { throw unclosed("\"", at: opening) }
        noteQuoteOverCommands(from: start, opened: opening)
        advance()
    }

    /// `$'…'` (after the `$`), read as bash reads it up to the next unescaped `'`: C escapes such as `\n`, `\'`, `\cX`,
    /// `\xHH` and `\uHHHH` (see `ansiEscape`), read with the other characters as UTF-8 (`\xc3\xa9` is `é`). A NUL
    /// character ends the text, as bash ends it there (curl never gets the rest), with a note.
    private mutating func ansiQuoted(into text: inout String.UnicodeScalarView) throws(InteropProblem) {
        let opening = Mark(line: line, column: column - 1)
        advance()
        var bytes = EscapedBytes()
        var cut = false
        while let scalar = current, scalar != "'" {
            let escapeMark = mark, escapeStart = index
            let escaped = scalar == "\\" && peek() != nil
            advance()
            if cut, escaped { advance() }
            guard !cut else { continue }
            guard escaped else {
                try bytes.flush(into: &text)
                text.append(scalar)
                continue
            }
            let produced = try ansiEscape(at: escapeMark)
            guard let nul = produced.firstIndex(of: 0) else {
                bytes.append(produced, at: escapeMark)
                continue
            }
            bytes.append(produced[..<nul], at: escapeMark)
            cut = true
            let written = String(String.UnicodeScalarView(scalars[escapeStart..<index]))
            notes.append(InteropProblem("'\(written)' is a NUL character, where bash ends the text of $'…': what follows it inside the "
                                        + "quotes is dropped, as curl never gets it", at: escapeMark,
                                        suggestion: "remove the escape, or write the rest in a $'…' of its own"))
        }
        guard current == "'" else { throw unclosed("$'", at: opening) }
        try bytes.flush(into: &text)
        advance()
    }

    /// The bytes of the `$'…'` escape at `escapeMark`, the current character being the one after its `\`, as bash
    /// gives them: C escapes (`\n`, `\e`, `\\`, `\'`, `\?`), `\xHH`, `\x{H…}` and octal `\NNN` as one byte each, `\uHHHH`
    /// and `\UHHHHHHHH` as a character, `\cX` as a control character; an escape bash does not know, or `\x`, `\u`
    /// without a hexadecimal digit, keeps its backslash (`\d` is `\d`).
    private mutating func ansiEscape(at escapeMark: Mark) throws(InteropProblem) -> [UInt8] {
        guard let letter = current else { return Array("\\".utf8) }
        advance()
        if let byte = Self.cEscapes[letter] { return [byte] }
        switch letter {
        case "\\", "'", "\"", "?": return Array(String(letter).utf8)
        case "0"..."7": return [octalEscape(first: letter)]
        case "x": return hexByte().map { [$0] } ?? Array("\\x".utf8)
        case "u", "U": return try characterEscape(letter, at: escapeMark)
        case "c": return controlEscape()
        default: return Array("\\\(letter)".utf8)
        }
    }

    /// The escapes of `$'…'` that stand for one ASCII control character.
    private static let cEscapes: [Unicode.Scalar: UInt8] = ["n": 0x0A, "t": 0x09, "r": 0x0D, "a": 0x07, "b": 0x08, "e": 0x1B, "E": 0x1B,
                                                           "f": 0x0C, "v": 0x0B]

    /// The byte of `\xHH` (one or two digits) or `\x{H…}` (its lowest byte), after the `x`; nil without a digit.
    private mutating func hexByte() -> UInt8? {
        guard current == "{" else { return hexDigits(upTo: 2).map { UInt8(truncatingIfNeeded: $0.value) } }
        advance()
        let value = hexDigits(upTo: .max)?.value ?? 0
        if current == "}" { advance() }
        return UInt8(truncatingIfNeeded: value)
    }

    /// The UTF-8 bytes of `\uHHHH` or `\UHHHHHHHH` (`letter` is `u` or `U`), after the letter; the escape as written
    /// without a digit. A code point that is no character (a lone surrogate, past U+10FFFF) throws: bash sends bytes
    /// that are not UTF-8 for it.
    private mutating func characterEscape(_ letter: Unicode.Scalar, at escapeMark: Mark) throws(InteropProblem) -> [UInt8] {
        guard let (value, digits) = hexDigits(upTo: letter == "u" ? 4 : 8) else { return Array("\\\(letter)".utf8) }
        if let scalar = Unicode.Scalar(value) { return Array(String(scalar).utf8) }
        let reason = (0xD800...0xDFFF).contains(value) ? "is a lone surrogate, not a character" : "is past U+10FFFF, the last character"
        throw InteropProblem("'\\\(letter)\(digits)' in $'…' \(reason) (bash sends bytes that are not UTF-8 text for it)", at: escapeMark,
                             suggestion: "write the character's code point (\\U0001F600 for 😀, not its UTF-16 surrogates), or its UTF-8 bytes")
    }

    /// The control character of `\cX`, after the `c`, as bash gives it: the low five bits of X's first byte (`\cA` and
    /// `\ca` are 0x01, `\c[` is ESC), 0x7f for `\c?`; `\c\\` is `\c\`, and `\c` at the quote's end stays as written.
    private mutating func controlEscape() -> [UInt8] {
        guard let target = current, target != "'" else { return Array("\\c".utf8) }
        advance()
        var bytes = Array(String(target).utf8)
        bytes[0] = target == "?" ? 0x7F : bytes[0] & 0x1F
        // bash pairs a backslash with the character after it before reading escapes: `\c\'` is 0x1c and a quote.
        if target == "\\", let next = current, next == "\\" || next == "'" {
            advance()
            if next == "'" { bytes.append(0x27) }
        }
        return bytes
    }

    /// The value of up to `count` hexadecimal digits at the current character (its lowest 32 bits) and the digits as
    /// written; nil when there is none.
    private mutating func hexDigits(upTo count: Int) -> (value: UInt32, digits: String)? {
        var digits = ""
        var value: UInt32 = 0
        while digits.unicodeScalars.count < count, let scalar = current, scalar.properties.isASCIIHexDigit {
            digits.unicodeScalars.append(scalar)
            value = value &* 16 &+ (UInt32(String(scalar), radix: 16) ?? 0)
            advance()
        }
        return digits.isEmpty ? nil : (value, digits)
    }

    /// The byte of an octal escape (`\0`, `\101`): the first digit and up to two more, its lowest eight bits.
    private mutating func octalEscape(first: Unicode.Scalar) -> UInt8 {
        var value = first.value - 48
        var count = 1
        while count < 3, let scalar = current, ("0"..."7").contains(scalar) {
            value = value * 8 + scalar.value - 48
            advance()
            count += 1
        }
        return UInt8(truncatingIfNeeded: value)
    }

    /// Bytes given by consecutive escapes of a `$'…'` word, and where each escape is.
    private struct EscapedBytes {
        private var bytes: [UInt8] = []
        private var marks: [Mark] = []

        mutating func append(_ more: some Collection<UInt8>, at mark: Mark) {
            bytes += more
            marks += repeatElement(mark, count: more.count)
        }

        /// Appends the characters the bytes encode as UTF-8 to `text`, and forgets them; throws at the escape that
        /// starts bytes which are not UTF-8 (a request file holds text, and curl would send those bytes as they are).
        mutating func flush(into text: inout String.UnicodeScalarView) throws(InteropProblem) {
            defer { (bytes, marks) = ([], []) }
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            var consumed = 0
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    text.append(scalar)
                    consumed += UTF8.width(scalar)
                case .emptyInput:
                    return
                case .error:
                    let shown = bytes[consumed...].prefix(4).map { byte in
                        "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
                    }.joined()
                    throw InteropProblem("the bytes '\(shown)' of $'…' escapes are not UTF-8 text, which a request file holds",
                                         at: marks[consumed],
                                         suggestion: "write the UTF-8 bytes of the character (\\xc3\\xa9 for é), or \\u with its code point")
                }
            }
        }
    }

    private func unclosed(_ quote: String, at mark: Mark) -> InteropProblem {
        var problem = InteropProblem("unbalanced quote: the \(quote) here is never closed", at: mark,
                                     suggestion: quote == "\"" ? "close the quote; inside \"…\", write a double quote as \\\""
                                         : "close the quote; inside '…', write a single quote as '\\''")
        // The quote the user left open is more likely the one that ran over other commands to close here.
        if let earlier = quoteOverCommands {
            problem.message += " (the quote at \(earlier.opened.line):\(earlier.opened.column) runs to \(earlier.closed.line):"
                + "\(earlier.closed.column), over lines that look like other curl commands: it may be the one left open)"
        }
        return problem
    }

    /// Records the quote that opened at `opened` (scalar `start`) and closes at the current character when it runs over
    /// a line that looks like another curl command (`curl …`, `$ curl …`).
    private mutating func noteQuoteOverCommands(from start: Int, opened: Mark) {
        let quoted = String(String.UnicodeScalarView(scalars[start..<index]))
        guard quoted.split(whereSeparator: \.isNewline).dropFirst()
            .contains(where: { $0.drop { $0 == " " || $0 == "\t" || $0 == "$" }.hasPrefix("curl ") }) else { return }
        // The first such quote of the command: a later one is read wrongly because of it.
        if quoteOverCommands == nil { quoteOverCommands = (opened, mark) }
    }
}
