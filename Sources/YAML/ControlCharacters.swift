/// The control characters (ESC, NUL, C1 controls, …) that would drive a terminal if printed, and the characters that
/// would make a line read other than it is (line and paragraph separators, bidirectional overrides, isolates and marks), and
/// how text shows them.
package enum ControlCharacters {
    /// Whether `scalar` is such a character (a line break, LF, and a tab are not).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0..<0x20, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// `text` with its control characters shown as `\u{1B}`-style escapes; line breaks and tabs are kept unless
    /// `keepingLineBreaks` is false (a file's name on a diagnostic's first line).
    package static func escaped(_ text: String, keepingLineBreaks: Bool = true) -> String {
        // Most text is printable ASCII, which needs no look at its scalars.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { (0x20..<0x7F).contains($0) || (keepingLineBreaks && ($0 == 0x0A || $0 == 0x09)) }
        }
        let shownEscaped = { (scalar: Unicode.Scalar) in isControl(scalar) || (!keepingLineBreaks && (scalar == "\n" || scalar == "\t")) }
        guard plain != true, text.unicodeScalars.contains(where: shownEscaped) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if shownEscaped(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// How a control character is shown: `\u{1B}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
