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
        // Built as bytes: appending to a String a character at a time costs more than the rest on a long line.
        var prefix: [UInt8] = window.leading ? [UInt8(ascii: " ")] : []
        var current = 1
        // A control character (ESC, NUL) is shown as its escape, which would otherwise drive the terminal.
        var text: [UInt8] = []
        text.reserveCapacity(window.text.utf8.count)
        for scalar in window.text.unicodeScalars {
            let escaped = escapingControls && ControlCharacters.isControl(scalar) ? ControlCharacters.escape(scalar) : nil
            if let escaped { text += escaped.utf8 } else { UTF8.encode(scalar) { text.append($0) } }
            guard current < window.column else { continue }
            let spaces = scalar == "\t" ? 0 : escaped?.unicodeScalars.count ?? 1
            if spaces == 0 { prefix.append(UInt8(ascii: "\t")) }
            for _ in 0..<spaces { prefix.append(UInt8(ascii: " ")) }
            current += 1
        }
        for _ in current..<max(current, window.column) { prefix.append(UInt8(ascii: " ")) }
        self.line = (window.leading ? "…" : "") + String(decoding: text, as: UTF8.self) + (window.trailing ? "…" : "")
        self.caret = String(decoding: prefix, as: UTF8.self) + "^"
    }

    /// The line followed by the caret line.
    public var rendered: String {
        line + "\n" + caret
    }
}
