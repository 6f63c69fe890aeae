import Foundation

/// A shell word made of literal text and references to shell variables, quoted so that a POSIX shell passes exactly
/// that text with each variable's value in its place: `'{"token":"'"$API_TOKEN"'"}'`.
public struct ShellText: Sendable, Hashable {
    /// Literal text or a variable reference.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        /// A shell variable name (`[A-Za-z_][A-Za-z0-9_]*`), written `"$NAME"`.
        case variable(String)
    }

    public var segments: [Segment]

    public init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// A word of literal text.
    public static func literal(_ text: String) -> ShellText { ShellText([.literal(text)]) }

    /// The variables the word refers to.
    public var variables: [String] {
        segments.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    /// The word as a shell reads it back: plain when it holds only characters no shell treats specially, otherwise
    /// literal runs in single quotes (a `'` written `'\''`) and variables as `"$NAME"`.
    public var quoted: String {
        if segments.isEmpty { return "''" }
        return segments.map { segment in
            switch segment {
            case .variable(let name): "\"$\(name)\""
            case .literal(let text): Self.quote(text)
            }
        }.joined()
    }

    /// `text` unquoted when safe, else in single quotes.
    private static func quote(_ text: String) -> String {
        guard text.isEmpty || !text.unicodeScalars.allSatisfy(isSafe) else { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
/// a `"$NAME"` reference in the command.
public struct ValuePlaceholders: Sendable {
    /// Random letters that make the marks unlike any text of a collection.
    private let nonce: String
    /// Values to hide wherever they appear (a secret's value inside a variable that used it), with their variables.
    public var hiddenValues: [(value: String, variable: String)] = []

    public init(nonce: String = String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement() ?? "q" })) {
        self.nonce = nonce
    }

    /// The mark that stands for the shell variable `variable`.
    public func placeholder(for variable: String) -> String {
        "~rv\(nonce)~\(variable)~"
    }

    /// `text` as a shell word: each mark becomes its variable, each hidden value the variable that holds it.
    public func shellText(_ text: String) -> ShellText {
        var segments: [ShellText.Segment] = []
        var rest = Substring(text)
        let opening = "~rv\(nonce)~"
        while let start = rest.range(of: opening) {
            appendLiteral(rest[..<start.lowerBound], to: &segments)
            let afterOpening = rest[start.upperBound...]
            guard let end = afterOpening.firstIndex(of: "~") else {
                rest = afterOpening
                continue
            }
            segments.append(.variable(String(afterOpening[..<end])))
            rest = afterOpening[afterOpening.index(after: end)...]
        }
        appendLiteral(rest, to: &segments)
        return ShellText(segments)
    }

    /// Appends literal text, with hidden values in it as variables.
    private func appendLiteral(_ text: Substring, to segments: inout [ShellText.Segment]) {
        guard !text.isEmpty else { return }
        let hidden = hiddenValues.filter { !$0.value.isEmpty }.sorted { $0.value.count > $1.value.count }
        guard let first = hidden.compactMap({ entry in text.range(of: entry.value).map { (entry, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound }) else {
            segments.append(.literal(String(text)))
            return
        }
        if !text[..<first.1.lowerBound].isEmpty { segments.append(.literal(String(text[..<first.1.lowerBound]))) }
        segments.append(.variable(first.0.variable))
        appendLiteral(text[first.1.upperBound...], to: &segments)
    }
}
