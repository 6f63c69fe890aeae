import YAML

/// Text from a server or a file made safe to print on a terminal: no raw escape sequences.
package enum TerminalText {
    /// The text with control characters (ESC, NUL, C1 controls, …) shown as `\u{1B}`-style escapes;
    /// line breaks and tabs are kept.
    package static func printable(_ text: String) -> String {
        ControlCharacters.escaped(text)
    }

    /// `printable(text)` on one line: line breaks and tabs as spaces (a name from a data row may hold them).
    package static func oneLine(_ text: String) -> String {
        // Without a control character there is no line break or tab to replace (Foundation's search is slow).
        guard text.utf8.contains(where: { $0 < 0x20 }) else { return printable(text) }
        return printable(text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " "))
            .replacingOccurrences(of: "\t", with: " ")
    }
}
