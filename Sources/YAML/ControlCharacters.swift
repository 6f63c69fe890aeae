/// The control characters (ESC, NUL, C1 controls, …) that would drive a terminal if printed, and how text shows them.
package enum ControlCharacters {
    /// Whether `scalar` is a control character other than a line break (LF) or a tab.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0..<0x20, 0x7F...0x9F: true
        default: false
        }
    }

    /// How a control character is shown: `\u{1B}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
