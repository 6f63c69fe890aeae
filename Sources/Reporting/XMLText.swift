import YAML

/// Escaping that keeps JUnit XML well-formed whatever a response contains.
enum XMLText {
    /// Text safe inside an element or, with `inAttribute`, a double-quoted attribute: markup escaped, control
    /// characters (NUL, ESC, C1 controls, which XML 1.0 forbids or discourages, and the line separators and
    /// bidirectional overrides that would make a line read other than it is) shown as `\u{1B}`-style escapes, as the
    /// console shows them, and U+FFFE and U+FFFF replaced by U+FFFD. A carriage return is
    /// a reference (a reader turns a raw one into a line feed), and so are a tab and a line feed in an attribute
    /// (a reader turns raw ones into spaces).
    static func escape(_ text: String, inAttribute: Bool = false) -> String {
        // Most text is printable ASCII without markup, which needs no look at its scalars.
        guard text.utf8.contains(where: needsLookAtScalar) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\r": result += "&#13;"
            case "\t" where inAttribute: result += "&#9;"
            case "\n" where inAttribute: result += "&#10;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if ControlCharacters.isControl(scalar) {
                    result += ControlCharacters.escape(scalar)
                } else if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether a byte is other than printable ASCII without markup.
    private static func needsLookAtScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        case 0x20..<0x7F: false
        default: true
        }
    }
}
