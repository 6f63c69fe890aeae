/// One source line and a caret line (`    ^`) under the column of a mark, for error messages.
public struct SourceSnippet: Sendable, Hashable {
    /// The source line the mark is on, without its line break.
    public var line: String
    /// Spaces (and the line's own tabs, so the caret aligns) followed by `^` under the mark's column.
    public var caret: String

    /// The snippet for `mark` in `source`, or nil when the mark's line is not in the source.
    ///
    /// Lines end at LF, CR LF or CR, as libyaml counts them; columns count characters (Unicode scalars).
    /// A column past the end of the line puts the caret just after the last character.
    public init?(source: String, mark: Mark) {
        guard mark.line >= 1, let line = Self.line(number: mark.line, in: source) else { return nil }
        var prefix = ""
        var column = 1
        for character in line.unicodeScalars where column < mark.column {
            prefix.unicodeScalars.append(character == "\t" ? "\t" : " ")
            column += 1
        }
        if column < mark.column {
            prefix += String(repeating: " ", count: mark.column - column)
        }
        self.line = String(line)
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
