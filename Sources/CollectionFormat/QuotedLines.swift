import YAML

/// The lines the diagnostics of one rendering quote, each cut from its file once: a file with thousands of problems is
/// not searched from its start for each, and a long ASCII line (where a column is a byte offset) gives each problem the
/// window around its column without counting the characters before it.
struct QuotedLines {
    /// One line of a file: its text, and whether it is ASCII.
    private struct Line {
        let text: String
        let isASCII: Bool
    }

    /// Byte offsets of the start of each line of a file, by path.
    private var starts: [String: [Int]] = [:]
    /// Lines cut so far, by path and number.
    private var lines: [String: [Int: Line]] = [:]
    /// The last text `redacted` redacted, how, and what it gave.
    private var lastRedacted: (text: String, way: Int, redacted: String)?

    /// `text` redacted by `redacting` (the `way`th of the caller's ways of redacting), which is redacted once for the
    /// diagnostics of one line that come one after the other (as sorted), the same window of it quoted for each.
    mutating func redacted(_ text: String, way: Int, by redacting: (String) -> String) -> String {
        if let last = lastRedacted, last.way == way, last.text == text { return last.redacted }
        let redacted = redacting(text)
        lastRedacted = (text, way, redacted)
        return redacted
    }

    /// The text to quote for `mark` in the file at `path` (`source`), and the mark in that text: the mark's line, or
    /// for an ASCII line longer than `width` the `width` characters around the column (as `SourceSnippet` would keep
    /// them); nil when the file has no such line.
    mutating func text(at mark: Mark, of path: String, source: String, width: Int) -> (text: String, mark: Mark)? {
        guard let line = line(mark.line, of: path, source: source) else { return nil }
        let count = line.text.utf8.count
        guard line.isASCII, count > width else { return (line.text, Mark(line: 1, column: mark.column)) }
        let start = max(0, min(mark.column - 1 - width / 2, count - width))
        let utf8 = line.text.utf8
        let window = utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: start + width)]
        return (String(Substring(window)), Mark(line: 1, column: mark.column - start))
    }

    /// The text of line `number` of the file at `path` (`source`), nil when it has no such line.
    mutating func text(ofLine number: Int, of path: String, source: String) -> String? {
        line(number, of: path, source: source)?.text
    }

    /// Line `number` of the file at `path`, cut once.
    private mutating func line(_ number: Int, of path: String, source: String) -> Line? {
        if let known = lines[path]?[number] { return known }
        let offsets = starts[path] ?? Self.lineStarts(of: source)
        starts[path] = offsets
        guard number >= 1, number <= offsets.count else { return nil }
        var source = source
        let line = source.withUTF8 { bytes -> Line in
            let range = offsets[number - 1]..<LineBreaks.line(startingAt: offsets[number - 1], in: bytes).end
            let slice = UnsafeBufferPointer(rebasing: bytes[range])
            return Line(text: String(decoding: slice, as: UTF8.self), isASCII: slice.allSatisfy { $0 < 0x80 })
        }
        lines[path, default: [:]][number] = line
        return line
    }

    /// The byte offset of the start of each line of `source` (the last line's break is followed by no line).
    private static func lineStarts(of source: String) -> [Int] {
        var source = source
        return source.withUTF8 { bytes in
            var offsets = [0]
            var start = 0
            while true {
                let line = LineBreaks.line(startingAt: start, in: bytes)
                guard line.next > line.end else { return offsets }
                start = line.next
                offsets.append(start)
            }
        }
    }
}
