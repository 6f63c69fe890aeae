/// Where the innermost flow collection (`[` or `{`) left open at the end of a YAML text starts, for an error at the end
/// of the file that libyaml gives without it ("did not find expected node content"). The text is read roughly as the
/// scanner reads it: quoted scalars and comments are skipped, and a bracket or a quote counts where a value can start
/// (first on its line, or after `:`, `-`, `?`, `,`, `[` or `{`), not inside a plain scalar such as `a[1]` or `it's`.
enum UnclosedFlow {
    /// The innermost collection open at the end of `source`, or before byte `end`: `flow sequence` or `flow mapping`,
    /// and its mark.
    static func innermost(in source: UnsafeBufferPointer<UInt8>, before end: Int? = nil) -> (kind: String, mark: Mark)? {
        let starts: Set<UInt8> = Set(":-?,[{".utf8).union([0x0A])
        var open: [(bracket: UInt8, mark: Mark)] = []
        var (line, column) = (1, 0)
        var significant: UInt8 = 0x0A
        var last: UInt8 = 0x0A
        var quote: UInt8?
        var comment = false
        var index = 0
        while index < min(end ?? source.count, source.count) {
            let byte = source[index]
            index += 1
            if byte == 0x0A {
                (line, column, comment, last) = (line + 1, 0, false, byte)
                if quote == nil { significant = byte }
                continue
            }
            if byte & 0xC0 != 0x80 { column += 1 }
            defer { last = byte }
            if comment { continue }
            if let open = quote {
                if open == UInt8(ascii: "\""), byte == UInt8(ascii: "\\"), index < source.count, source[index] != 0x0A {
                    // An escaped character, the quote included (a multi-byte one counts once).
                    if source[index] & 0xC0 != 0x80 { column += 1 }
                    index += 1
                } else if byte == open {
                    // `''` inside a single-quoted scalar is a quote.
                    if open == UInt8(ascii: "'"), index < source.count, source[index] == open { index += 1; column += 1 } else {
                        (quote, significant) = (nil, byte)
                    }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "#") where last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == 0x0A:
                comment = true
                continue
            // (A `where` clause would guard only the last pattern of a case: the conditions are tested in the bodies.)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if starts.contains(significant) { quote = byte }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if starts.contains(significant) { open.append((byte, Mark(line: line, column: column))) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if !open.isEmpty { open.removeLast() }
            default:
                break
            }
            significant = byte
        }
        return open.last.map { ($0.bracket == UInt8(ascii: "[") ? "flow sequence" : "flow mapping", $0.mark) }
    }
}
