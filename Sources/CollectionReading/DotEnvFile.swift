public import CollectionFormat
import Foundation
import HTTPCore
public import YAML

/// A dotenv file (`--env-file`) read as docker compose and python-dotenv read one: its variables in order, and its
/// problems located by line and column.
///
/// - `NAME=VALUE` lines, `export NAME=VALUE`, blank lines and `#` comment lines; spaces around `=` are allowed.
///   A name is `[A-Za-z_][A-Za-z0-9_]*`.
/// - An unquoted value ends at the end of the line, or at a `#` after a space or tab (a comment); spaces and tabs
///   around it are dropped.
/// - A single-quoted value is taken literally. A double-quoted value reads `\n`, `\r`, `\t`, `\"`, `\'`, `\\` and
///   `\$` (other backslashes stay as written). Both may span lines, and may be followed by a comment only.
/// - `${NAME}` and `${NAME:-default}` in unquoted and double-quoted values are replaced by the variable's value (the
///   process environment's, else the latest value the files gave so far); an unset one without a default is empty,
///   with a warning. A `$` not followed by `{NAME}` is kept as written.
public struct DotEnvFile: Sendable {
    /// One `NAME=VALUE` line.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var value: String
        /// Where the name is.
        public var mark: Mark
    }

    /// The variables in the order the file sets them (a name set twice appears twice; the later wins).
    public private(set) var entries: [Entry]
    /// Every problem found: errors for lines that do not parse, warnings for unset variables in `${NAME}`.
    public private(set) var diagnostics: [Diagnostic]
    /// The text with every value, and the rest of every line that does not parse, written as `*`s of the same length:
    /// what a diagnostic quotes, since a dotenv file holds secrets.
    public private(set) var maskedText: String

    /// Reads `text`, the file displayed as `path`; `${NAME}` looks a name up in `environment` before the file's own
    /// earlier lines, then in `earlier` (what previous files set). A name `environment` sets to a value that is not
    /// UTF-8 text is an error where it is used.
    public init(text: String, path: String, environment: ProcessEnvironment = [:], earlier: [String: String] = [:]) {
        var parser = DotEnvParser(text: text, path: path, environment: environment, earlier: earlier)
        parser.parse()
        entries = parser.entries
        diagnostics = parser.diagnostics
        var masked = String.UnicodeScalarView()
        masked.append(contentsOf: parser.masked)
        maskedText = String(masked)
    }
}

/// The `--env-file` files of a command, read into the environment that secrets and `$env.NAME` read.
public enum DotEnvFiles {
    /// `processEnvironment` with the variables of the files at `paths` (as typed, relative to `currentDirectory`) where
    /// it does not set them (a set but empty variable counts as unset, as it does for secrets); among the files, a
    /// later one wins, as in docker compose. Every problem names its file; each file's masked text is stored in
    /// `sources` for quoting its lines.
    public static func environment(_ processEnvironment: ProcessEnvironment, adding paths: [String],
                                   currentDirectory: String, sources: SourceCache)
        -> (environment: ProcessEnvironment, diagnostics: [Diagnostic]) {
        let process = ProcessEnvironment(processEnvironment.variables.filter { !$0.value.isEmpty },
                                         notUTF8: processEnvironment.notUTF8)
        var fromFiles: [String: String] = [:], origins: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        for path in paths {
            let text: String
            switch contents(of: path, absolutePath: FileSystem.absolute(path, from: currentDirectory)) {
            case .unreadable(let problem):
                diagnostics.append(problem)
                continue
            case .text(let read):
                text = read
            }
            let file = DotEnvFile(text: text, path: path, environment: process, earlier: fromFiles)
            sources.store(file.maskedText, for: path)
            diagnostics += file.diagnostics
            for entry in file.entries {
                fromFiles[entry.name] = entry.value
                origins[entry.name] = "\(path):\(entry.mark.line)"
            }
        }
        // A variable the process sets to a value that is not text stays so: a file does not replace it.
        var merged = processEnvironment
        merged.variables.merge(fromFiles.filter { !processEnvironment.notUTF8.contains($0.key) }) { set, fromFile in
            set.isEmpty ? fromFile : set
        }
        merged.origins = origins.filter { processEnvironment[$0.key]?.isEmpty != false && !processEnvironment.notUTF8.contains($0.key) }
        return (merged, diagnostics)
    }

    /// What reading a file gave.
    private enum FileContents {
        case text(String)
        /// The error that says why it cannot be read.
        case unreadable(Diagnostic)
    }

    /// The text of the file at `absolutePath` (displayed as `path`), or why it cannot be read.
    private static func contents(of path: String, absolutePath: String) -> FileContents {
        let limit = Limits.default.maxInputBytes
        func failure(_ problem: String, _ suggestion: String? = nil) -> FileContents {
            .unreadable(.error("cannot read the --env-file: \(problem)", path: path, at: nil, suggestion: suggestion))
        }
        let kind = FileSystem.kind(of: absolutePath)
        guard kind.exists else {
            return failure(FileSystem.brokenLink(absolutePath).map { "it is " + $0 } ?? "no such file",
                           "the path is relative to the current directory")
        }
        guard !kind.isDirectory else { return failure("it is a directory", "give the path of a dotenv file") }
        guard let read = FileSystem.contents(of: absolutePath, limit: limit) else {
            return failure(access(absolutePath, R_OK) == 0 ? "reading it failed" : "permission denied")
        }
        switch read.contents {
        case .tooLarge(let size):
            return failure("it has \(size) bytes, more than the limit of \(limit) bytes")
        case .bytes(let bytes):
            let wide = bytes.withUnsafeBufferPointer(WideEncoding.guess)
            // A byte order mark is no character of the text: columns count from after it, and quoted lines leave it out.
            guard wide == nil, let text = String(validating: WideEncoding.withoutByteOrderMark(bytes), as: UTF8.self) else {
                return failure("it is not UTF-8 text" + (wide.map { " but \($0.name): \($0.why)" } ?? ""), "save it as UTF-8")
            }
            return .text(text)
        }
    }
}

/// Reads a dotenv text scalar by scalar, recovering at the next line after a problem.
private struct DotEnvParser {
    let path: String
    let environment: ProcessEnvironment
    let earlier: [String: String]
    private let scalars: [Unicode.Scalar]
    /// The mark of each scalar, and one past the end (lines end at LF, CR LF or CR; columns count scalars).
    private let marks: [Mark]
    private var index = 0
    private var known: [String: String] = [:]
    private(set) var entries: [DotEnvFile.Entry] = []
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var masked: [Unicode.Scalar]

    init(text: String, path: String, environment: ProcessEnvironment, earlier: [String: String]) {
        (self.path, self.environment, self.earlier) = (path, environment, earlier)
        scalars = Array(text.unicodeScalars)
        masked = scalars
        var marks: [Mark] = []
        marks.reserveCapacity(scalars.count + 1)
        var (line, column) = (1, 1)
        for (offset, scalar) in scalars.enumerated() {
            marks.append(Mark(line: line, column: column))
            if scalar == "\n" || (scalar == "\r" && (offset + 1 == scalars.count || scalars[offset + 1] != "\n")) {
                (line, column) = (line + 1, 1)
            } else if scalar != "\r" {
                column += 1
            }
        }
        marks.append(Mark(line: line, column: column))
        self.marks = marks
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private var atLineEnd: Bool { current.map(Self.isLineBreak) ?? true }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" }
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    /// Reads every line.
    mutating func parse() {
        while index < scalars.count {
            skipBlanks()
            if current == "#" {
                skipRestOfLine(masking: false)
            } else if !atLineEnd {
                entry()
            }
            skipLineBreak()
        }
    }

    /// `[export ]NAME=VALUE`, up to the end of its (last) line.
    private mutating func entry() {
        let lineStart = index
        let lineHasEquals = scalars[index...].prefix { !Self.isLineBreak($0) }.contains("=")
        if scalars[index...].starts(with: "export".unicodeScalars), index + 6 < scalars.count, Self.isBlank(scalars[index + 6]) {
            index += 6
            skipBlanks()
        }
        let nameStart = index
        while let scalar = current, !Self.isLineBreak(scalar), !Self.isBlank(scalar), scalar != "=" { index += 1 }
        let name = text(nameStart..<index)
        guard lineHasEquals else {
            problem("expected '=' after the variable name: a line is NAME=VALUE, a comment starts with '#'",
                    at: index, maskingFrom: lineStart,
                    suggestion: "write NAME=VALUE, or start the line with '#' to make it a comment")
            return
        }
        guard !name.isEmpty else {
            problem("expected a variable name before '='", at: nameStart, suggestion: "write NAME=VALUE")
            return
        }
        guard Self.isVariableName(name) else {
            problem("invalid variable name '\(name)'", at: nameStart, maskingFrom: index,
                    suggestion: "use letters, digits and '_', not starting with a digit")
            return
        }
        skipBlanks()
        guard current == "=" else {
            problem("expected '=' after the variable name '\(name)'", at: index,
                    suggestion: "write NAME=VALUE, without spaces in the name")
            return
        }
        index += 1
        let blankAfterEquals = current.map(Self.isBlank) ?? false
        skipBlanks()
        let value: String?
        switch current {
        case "'": value = quoted(expanding: false)
        case "\"": value = quoted(expanding: true)
        default: value = unquoted(afterBlank: blankAfterEquals)
        }
        guard let value else { return }
        entries.append(DotEnvFile.Entry(name: name, value: value, mark: marks[nameStart]))
        known[name] = value
    }

    /// An unquoted value up to the end of the line or a comment (` #`), without the blanks around it.
    private mutating func unquoted(afterBlank: Bool) -> String {
        let start = index
        var end = index
        var previousIsBlank = afterBlank
        while let scalar = current, !Self.isLineBreak(scalar) {
            if scalar == "#", previousIsBlank { break }
            previousIsBlank = Self.isBlank(scalar)
            index += 1
            if !previousIsBlank { end = index }
        }
        skipRestOfLine(masking: false)
        mask(start..<end)
        return expanded(start..<end)
    }

    /// A quoted value (the quote is the current scalar), then at most a comment before the end of the line; nil after
    /// reporting an unterminated quote or text after the closing quote.
    private mutating func quoted(expanding: Bool) -> String? {
        let quote = scalars[index]
        let opening = index
        index += 1
        while let scalar = current, scalar != quote {
            index += expanding && scalar == "\\" && index + 1 < scalars.count ? 2 : 1
        }
        let kind = expanding ? "double-quoted" : "single-quoted"
        guard current == quote else {
            return problem("unterminated \(kind) value: no closing \(quote) before the end of the file", at: opening,
                           maskingFrom: opening + 1,
                           suggestion: "close the value with \(quote)")
        }
        let content = opening + 1..<index
        mask(content)
        index += 1
        skipBlanks()
        guard atLineEnd || current == "#" else {
            return problem("unexpected text after the closing \(quote) of a \(kind) value", at: index,
                           suggestion: "put the whole value inside the quotes, or start a comment with ' #'")
        }
        skipRestOfLine(masking: false)
        let value = expanding ? expanded(content, escapes: true) : text(content)
        return value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// The text of `range` with `${NAME}` and `${NAME:-default}` replaced and, with `escapes`, backslash escapes read.
    private mutating func expanded(_ range: Range<Int>, escapes: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        var position = range.lowerBound
        while position < range.upperBound {
            let scalar = scalars[position]
            if escapes, scalar == "\\", position + 1 < range.upperBound {
                let next = scalars[position + 1]
                let escaped: [Unicode.Scalar: Unicode.Scalar] = ["n": "\n", "r": "\r", "t": "\t", "\"": "\"", "'": "'", "\\": "\\", "$": "$"]
                if let replacement = escaped[next] {
                    result.append(replacement)
                } else {
                    result.append(contentsOf: [scalar, next])
                }
                position += 2
            } else if scalar == "$", let reference = reference(at: position, before: range.upperBound) {
                result.append(contentsOf: value(of: reference, at: position).unicodeScalars)
                position = reference.end
            } else {
                result.append(scalar)
                position += 1
            }
        }
        return String(result)
    }

    /// A `${NAME}` or `${NAME:-default}` starting at `start` and ending before `limit`; nil for anything else.
    private func reference(at start: Int, before limit: Int) -> (name: String, fallback: String?, end: Int)? {
        guard start + 1 < limit, scalars[start + 1] == "{",
              let close = scalars[(start + 2)..<limit].firstIndex(of: "}") else { return nil }
        let inside = text(start + 2..<close)
        let parts = inside.components(separatedBy: ":-")
        guard Self.isVariableName(parts[0]) else { return nil }
        return (parts[0], parts.count > 1 ? parts.dropFirst().joined(separator: ":-") : nil, close + 1)
    }

    /// The value a reference at `position` stands for: the process environment's, the file's own, an earlier file's,
    /// then the default; empty, with a warning, when none is set, and with an error when the process sets it to a value
    /// that is not text (neither a default nor a file's value stands in for it).
    private mutating func value(of reference: (name: String, fallback: String?, end: Int), at position: Int) -> String {
        if environment.notUTF8.contains(reference.name) {
            diagnostics.append(.error("the process environment's '\(reference.name)' \(ProcessEnvironment.notUTF8Problem)",
                                      path: path, at: marks[position],
                                      suggestion: "set '\(reference.name)' to UTF-8 text, or unset it to use this file's value"))
            return ""
        }
        let set = [environment[reference.name], known[reference.name], earlier[reference.name]]
            .compactMap { $0 }.first { !$0.isEmpty }
        if let set { return set }
        if let fallback = reference.fallback { return fallback }
        diagnostics.append(.warning("'\(reference.name)' is not set: '${\(reference.name)}' is empty in this value",
                                    path: path, at: marks[position],
                                    suggestion: "set it in the process environment or on an earlier line, or give a default: "
                                        + "${\(reference.name):-default}"))
        return ""
    }

    /// Reports an error at `position`, masks its line from `maskingFrom` (default: `position`) and moves past it;
    /// always nil.
    @discardableResult
    private mutating func problem(_ message: String, at position: Int, maskingFrom: Int? = nil, suggestion: String) -> String? {
        diagnostics.append(.error(message, path: path, at: marks[position], suggestion: suggestion))
        index = maskingFrom ?? position
        skipRestOfLine(masking: true)
        return nil
    }

    /// Whether `name` is `[A-Za-z_][A-Za-z0-9_]*`, the names the process environment and secrets' `env` use.
    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    private mutating func skipBlanks() {
        while let scalar = current, Self.isBlank(scalar) { index += 1 }
    }

    private mutating func skipRestOfLine(masking: Bool) {
        let start = index
        while !atLineEnd { index += 1 }
        if masking { mask(start..<index) }
    }

    private mutating func skipLineBreak() {
        if current == "\r" { index += 1 }
        if current == "\n" { index += 1 }
    }

    /// Writes `*` over the scalars of `range` that are not line breaks.
    private mutating func mask(_ range: Range<Int>) {
        for position in range where !Self.isLineBreak(scalars[position]) { masked[position] = "*" }
    }

    private func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        return String(view)
    }
}
