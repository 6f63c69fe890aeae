import YAML

/// The text of one file and where its lines start, for locating positions inside scalars.
package struct SourceText: Sendable {
    /// The path as displayed in diagnostics.
    package let path: String
    package let text: String

    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The UTF-8 offset where each line starts; lines end at LF, CR LF or CR, as libyaml counts them.
    /// Found only for files with templates (`NodeDecoder` asks once and keeps it).
    func lineStarts() -> [Int] {
        Self.withUTF8(of: text) { bytes in
            var starts = [0]
            var line = LineBreaks.line(startingAt: 0, in: bytes)
            while line.next > line.end {
                starts.append(line.next)
                line = LineBreaks.line(startingAt: line.next, in: bytes)
            }
            return starts
        }
    }

    /// Maps the offset of a `{{` inside a scalar's text to its mark in the file.
    ///
    /// The n-th `{{` of the text is the n-th `{{` of the source from the scalar's start (escapes and folding
    /// change offsets, not the order of braces), for a block scalar (`|`, `>`) from the line after its indicator
    /// (whose comment may hold braces); braces that cannot be found point at the scalar's start.
    func braceLocator(for scalar: Scalar, at mark: Mark, lineStarts: [Int]? = nil) -> (Int) -> Mark {
        let textOffsets = Self.braceOffsets(in: Array(scalar.text.unicodeScalars))
        guard !textOffsets.isEmpty else { return { _ in mark } }
        let isBlock = scalar.style == .literal || scalar.style == .folded
        let sourceMarks = braceMarks(from: isBlock ? Mark(line: mark.line + 1, column: 1) : mark, count: textOffsets.count,
                                     lineStarts: lineStarts ?? self.lineStarts())
        return { offset in
            guard let position = textOffsets.firstIndex(of: offset), position < sourceMarks.count else { return mark }
            return sourceMarks[position]
        }
    }

    /// The mark of the character at `offset` (in Unicode scalars) of `scalar`'s text, the scalar written from `mark` (a
    /// quoted one's opening quote, a block scalar's indicator), over one line or several.
    ///
    /// The text and the source are walked side by side: an escape (`\u00e9`, `\"`, or `''` in single quotes) is one
    /// character of the text and several of the source; a line break, indentation or an escaped line break that folding
    /// turned into a space, or dropped, is skipped. Where the two part ways (which a scalar libyaml read cannot do), the
    /// scalar's mark.
    func mark(ofTextOffset offset: Int, in scalar: Scalar, at mark: Mark, lineStarts: [Int]) -> Mark {
        let value = Array(scalar.text.unicodeScalars)
        guard offset <= value.count, mark.line >= 1, mark.line <= lineStarts.count else { return mark }
        let source = Self.withUTF8(of: text) { bytes in
            Array(String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStarts[mark.line - 1]...]), as: UTF8.self).unicodeScalars)
        }
        var (index, line, column) = (mark.column - 1, mark.line, mark.column)
        func advance() {
            let breaksLine = source[index] == "\n" || (source[index] == "\r" && (index + 1 == source.count || source[index + 1] != "\n"))
            (line, column) = breaksLine ? (line + 1, 1) : (line, column + 1)
            index += 1
        }
        let isSpace = { (character: Unicode.Scalar) in character == " " || character == "\t" || character == "\n" || character == "\r" }
        guard index >= 0, index < source.count else { return mark }
        switch scalar.style {
        case .singleQuoted, .doubleQuoted: advance()
        case .literal, .folded:
            // The text starts on the line after the indicator.
            while index < source.count, source[index] != "\n", source[index] != "\r" { advance() }
            if index < source.count { advance() }
        default: break
        }
        var read = 0
        while read < offset {
            guard index < source.count else { return mark }
            let (character, next) = (source[index], index + 1 < source.count ? source[index + 1] : nil)
            if scalar.style == .doubleQuoted, character == "\\" {
                let length = switch next {
                case "x": 4
                case "u": 6
                case "U": 10
                case "\n", "\r": 1  // an escaped line break: nothing of the text
                default: 2
                }
                for _ in 0..<length where index < source.count { advance() }
                if length > 1 { read += 1 }
            } else if scalar.style == .singleQuoted, character == "'", next == "'" {
                advance()
                advance()
                read += 1
            } else if character == value[read] {
                advance()
                read += 1
            } else if isSpace(character) {
                advance()
            } else if isSpace(value[read]) {
                read += 1
            } else {
                return mark
            }
        }
        // What folding dropped before the character (an escaped line break's backslash too).
        while index < source.count, offset < value.count, source[index] != value[offset],
              isSpace(source[index]) || (scalar.style == .doubleQuoted && source[index] == "\\"
                                         && index + 1 < source.count && ["\n", "\r"].contains(source[index + 1])) {
            advance()
        }
        return Mark(line: line, column: column)
    }

    /// Offsets of non-overlapping `{{` pairs, scanning left to right.
    private static func braceOffsets(in scalars: [Unicode.Scalar]) -> [Int] {
        var offsets: [Int] = []
        var index = 0
        while index + 1 < scalars.count {
            if scalars[index] == "{" && scalars[index + 1] == "{" {
                offsets.append(index)
                index += 2
            } else {
                index += 1
            }
        }
        return offsets
    }

    /// Marks of the first `count` `{{` pairs at or after `start`, scanning the UTF-8 bytes line by line.
    private func braceMarks(from start: Mark, count: Int, lineStarts: [Int]) -> [Mark] {
        guard start.line >= 1, start.line <= lineStarts.count else { return [] }
        return Self.withUTF8(of: text) { bytes in
            var marks: [Mark] = []
            var lineNumber = start.line
            var line = (start: lineStarts[lineNumber - 1], bounds: LineBreaks.line(startingAt: lineStarts[lineNumber - 1], in: bytes))
            var index = LineBreaks.byteOffset(afterScalars: start.column - 1, in: bytes, line.start..<line.bounds.end)
            var column = start.column
            while marks.count < count {
                while index + 1 < line.bounds.end, marks.count < count {
                    if bytes[index] == UInt8(ascii: "{") && bytes[index + 1] == UInt8(ascii: "{") {
                        marks.append(Mark(line: lineNumber, column: column))
                        index += 2
                        column += 2
                        continue
                    }
                    index += 1
                    while index < line.bounds.end, bytes[index] & 0xC0 == 0x80 { index += 1 }
                    column += 1
                }
                guard line.bounds.next > line.bounds.end else { break }
                lineNumber += 1
                line = (line.bounds.next, LineBreaks.line(startingAt: line.bounds.next, in: bytes))
                index = line.start
                column = 1
            }
            return marks
        }
    }

    /// Runs `body` over the UTF-8 bytes of `text` (contiguous for native strings, so no copy).
    private static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = text
        return text.withUTF8(body)
    }
}
