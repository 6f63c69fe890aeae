public import HTTPCore

/// A value to write as YAML: a scalar already written, a mapping in order, or a list.
public indirect enum YAMLNode: Sendable {
    case scalar(String)
    case mapping([(key: String, value: YAMLNode)])
    case sequence([YAMLNode])

    /// A string, plain when YAML reads it back as the same string, else double-quoted.
    public static func string(_ text: String) -> YAMLNode { .scalar(YAMLText.scalar(text)) }

    /// A JSON value with its types: numbers stay numbers, strings stay strings.
    public static func json(_ value: JSONValue) -> YAMLNode {
        switch value {
        case .null: .scalar("null")
        case .bool(let bool): .scalar(bool ? "true" : "false")
        case .int(let int): .scalar(String(int))
        case .double: .scalar(value.serialized())
        case .string(let text): .string(text)
        case .array(let items): .sequence(items.map(json))
        case .object(let object): .mapping(object.members.map { ($0.key, json($0.value)) })
        }
    }

    /// The text of a document whose root is this mapping, in block style, ending with a line break.
    public var document: String {
        lines(indent: 0).joined(separator: "\n") + "\n"
    }

    /// The lines of a mapping's or list's entries at `indent`; a scalar is its one line.
    private func lines(indent: Int) -> [String] {
        let padding = String(repeating: " ", count: indent)
        switch self {
        case .scalar(let text):
            return [padding + text]
        case .mapping(let members):
            return members.flatMap { member -> [String] in
                let key = padding + YAMLText.scalar(member.key) + ":"
                guard let nested = member.value.nestedLines(indent: indent + 2) else { return [key + " " + member.value.inline] }
                return [key] + nested
            }
        case .sequence(let items):
            return items.flatMap { item -> [String] in
                guard var nested = item.nestedLines(indent: indent + 2) else { return [padding + "- " + item.inline] }
                nested[0] = padding + "- " + nested[0].dropFirst(indent + 2)
                return nested
            }
        }
    }

    /// The lines of a non-empty mapping or list at `indent`; nil for what fits on its key's line.
    private func nestedLines(indent: Int) -> [String]? {
        switch self {
        case .scalar: nil
        case .mapping(let members): members.isEmpty ? nil : lines(indent: indent)
        case .sequence(let items): items.isEmpty ? nil : lines(indent: indent)
        }
    }

    /// A scalar, `{}` or `[]`.
    private var inline: String {
        switch self {
        case .scalar(let text): text
        case .mapping: "{}"
        case .sequence: "[]"
        }
    }
}

/// How a string is written as a YAML scalar.
public enum YAMLText {
    /// `text` plain when YAML's core schema reads it back as this same string (no number, boolean or null, no
    /// indicator), else double-quoted with escapes.
    public static func scalar(_ text: String) -> String {
        isPlain(text) ? text : doubleQuoted(text)
    }

    /// Words YAML would read as booleans or null (or that readers confuse with them).
    private static let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n"]

    /// Characters allowed after the first one of a plain scalar.
    private static func isPlainCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", " ", "_", ".", "/", "-", "+", "(", ")", "=", "?", "&", "%", "~", "*", "!",
             "$", ";", "@", ":", "'", "^": true
        default: false
        }
    }

    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic && first.isASCII || first == "/",
              !reserved.contains(text.lowercased()), text.unicodeScalars.allSatisfy(isPlainCharacter),
              text.last != " ", text.last != ":", !text.contains(": "), !text.contains(" #")
        else { return false }
        return true
    }

    /// `"…"` with `"`, `\`, control characters, DEL, C1 controls and the byte order mark escaped.
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{FEFF}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
