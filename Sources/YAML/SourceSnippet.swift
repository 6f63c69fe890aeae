/// One source line and a caret line (`    ^`) under the column of a mark, for error messages.
public struct SourceSnippet: Sendable, Hashable {
    /// The source line the mark is on, without its line break.
    public var line: String
    /// Spaces (and the line's own tabs, so the caret aligns) followed by `^` under the mark's column.
    public var caret: String

    /// The snippet for `mark` in `source`, or nil when the mark's line is not in the source.
    ///
    /// Lines end at LF, CR LF or CR, as libyaml counts them; columns count characters (Unicode scalars).
    /// A column past the end of the line puts the caret just after the last character. A line longer
    /// than `maxWidth` is cut to a window around the column, with `…` where text was left out. Control characters are
    /// shown as escapes unless `escapingControls` is false (a line to redact before it is shown).
    public init?(source: String, mark: Mark, maxWidth: Int = 120, escapingControls: Bool = true) {
        guard mark.line >= 1 else { return nil }
        // Works on the UTF-8 bytes and decodes only the window, so a line of megabytes costs one pass.
        var source = source
        let window: (text: String, column: Int, leading: Bool, trailing: Bool)? = source.withUTF8 { bytes in
            guard let line = LineBreaks.range(ofLine: mark.line, in: bytes) else { return nil }
            let scalarCount = LineBreaks.scalarCount(in: bytes, line)
            var start = 0, end = scalarCount
            if scalarCount > maxWidth {
                start = max(0, min(mark.column - 1 - maxWidth / 2, scalarCount - maxWidth))
                end = min(scalarCount, start + maxWidth)
            }
            let lower = LineBreaks.byteOffset(afterScalars: start, in: bytes, line)
            let upper = LineBreaks.byteOffset(afterScalars: end - start, in: bytes, lower..<line.upperBound)
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self),
                    mark.column - start, start > 0, end < scalarCount)
        }
        guard let window else { return nil }
        var prefix = window.leading ? " " : ""
        var current = 1
        // A control character (ESC, NUL) is shown as its escape, which would otherwise drive the terminal.
        var text = ""
        for character in window.text.unicodeScalars {
            let shown = escapingControls && ControlCharacters.isControl(character) ? ControlCharacters.escape(character) : String(character)
            text += shown
            guard current < window.column else { continue }
            prefix += character == "\t" ? "\t" : String(repeating: " ", count: shown.unicodeScalars.count)
            current += 1
        }
        if current < window.column {
            prefix += String(repeating: " ", count: window.column - current)
        }
        self.line = (window.leading ? "…" : "") + text + (window.trailing ? "…" : "")
        self.caret = prefix + "^"
    }

    /// The line followed by the caret line.
    public var rendered: String {
        line + "\n" + caret
    }
}
