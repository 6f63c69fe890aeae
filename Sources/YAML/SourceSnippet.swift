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
    /// than `maxWidth` is cut to a window around the column, with `…` where text was left out.
    public init?(source: String, mark: Mark, maxWidth: Int = 120) {
        guard mark.line >= 1, let fullLine = Self.line(number: mark.line, in: source) else { return nil }
        let scalars = Array(fullLine.unicodeScalars)
        var window = scalars[...]
        var column = mark.column
        var leading = "", trailing = ""
        if scalars.count > maxWidth {
            let start = max(0, min(mark.column - 1 - maxWidth / 2, scalars.count - maxWidth))
            window = scalars[start..<min(scalars.count, start + maxWidth)]
            if start > 0 { leading = "…"; column = column - start + 1 }
            if window.endIndex < scalars.count { trailing = "…" }
        }
        var prefix = leading.isEmpty ? "" : " "
        var current = 1
        for character in window where current < column {
            prefix.unicodeScalars.append(character == "\t" ? "\t" : " ")
            current += 1
        }
        if current < column {
            prefix += String(repeating: " ", count: column - current)
        }
        var line = String.UnicodeScalarView()
        line.append(contentsOf: window)
        self.line = leading + String(line) + trailing
        self.caret = prefix + "^"
    }

    /// The line followed by the caret line.
    public var rendered: String {
        line + "\n" + caret
    }

    private static func line(number: Int, in source: String) -> Substring? {
        var current = 1
        var lineStart = source.unicodeScalars.startIndex
        var index = lineStart
        let scalars = source.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                scalars.formIndex(after: &index)
                continue
            }
            if current == number { return Substring(scalars[lineStart..<index]) }
            scalars.formIndex(after: &index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" {
                scalars.formIndex(after: &index)
            }
            current += 1
            lineStart = index
        }
        return current == number ? Substring(scalars[lineStart..<index]) : nil
    }
}
