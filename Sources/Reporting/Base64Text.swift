import Running

/// Runs of text that may be base64, and the bytes they decode to, so that what a server encoded (a body, a header, a
/// secret escaped in any way first) is found inside: standard or URL-safe characters, `+` and `/` also percent-encoded
/// (`%2B`, `%2F`: base64 sent on in a URL) or `/` JSON-escaped (`\/`), and line breaks inside a run skipped with the
/// indentation after them (MIME writes 76 characters a line), as themselves, JSON-escaped (`\n`) or percent-encoded.
struct Base64Text {
    /// One base64 character of a run: its 6-bit value and where it is written.
    struct Symbol {
        let value: UInt8
        let written: Range<Int>
    }

    /// The characters of the run, in order.
    let symbols: [Symbol]

    /// The shortest run looked into: 8 characters encode 6 bytes, the shortest piece of a secret hidden in text.
    static let shortest = 8

    /// The shortest run looked into where text was cut short: 6 characters encode 4 bytes, the shortest start of a secret
    /// hidden before a cut.
    static let shortestCut = 6

    /// The runs of `minimum` characters or more in `bytes` (`shortest` unless said). A run of letters alone in one case (a
    /// word) is left out: base64 of 6 bytes or more mixes cases, digits or signs, nearly always.
    static func runs(in bytes: UnsafeBufferPointer<UInt8>, minimum: Int = shortest) -> [Base64Text] {
        var runs: [Base64Text] = []
        var current: [Symbol] = []
        var offset = 0
        func close() {
            if current.count >= minimum, !readsAsWord(current) { runs.append(Base64Text(symbols: current)) }
            current.removeAll(keepingCapacity: true)
        }
        while offset < bytes.count {
            if let (value, length) = symbol(at: offset, in: bytes) {
                current.append(Symbol(value: value, written: offset..<offset + length))
                offset += length
            } else if !current.isEmpty, let length = lineBreak(at: offset, in: bytes) {
                offset += length
            } else {
                close()
                offset += 1
            }
        }
        close()
        return runs
    }

    /// The bytes the run decodes to with its groups of four starting `shift` characters in (a run may start inside a
    /// group, after letters glued to it), the characters after the last whole group read as a partial group.
    func decoded(shift: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity((symbols.count - shift) * 3 / 4)
        var index = shift
        while index + 1 < symbols.count {
            let group = index..<min(index + 4, symbols.count)
            var bits: UInt32 = 0
            for position in group { bits |= UInt32(symbols[position].value) << UInt32(18 - 6 * (position - index)) }
            for byte in 0..<group.count - 1 { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(16 - 8 * byte))) }
            index += 4
        }
        return bytes
    }

    /// The texts the run may hold, each read on its own: the whole run and, for a run across line breaks, each of its
    /// lines of `shortest` characters or more (a token alone on its line, a list of them: a MIME body's lines, 76 or 64
    /// characters, decode alone to the pieces of its text the whole run decodes to) and the run without its first line,
    /// its last or both where they are shorter than `shortest` (a word or a label beside a token wrapped across lines:
    /// `done` after `eyJwIjoi` and `b2sifQ`, whose decoded bytes then end in random ones).
    var readings: [Base64Text] {
        let breaks = symbols.indices.dropFirst().filter { symbols[$0].written.lowerBound != symbols[$0 - 1].written.upperBound }
        guard let first = breaks.first, let last = breaks.last else { return [self] }
        let bounds = [0] + breaks + [symbols.count]
        var parts: [Range<Int>] = zip(bounds, bounds.dropFirst()).map { $0..<$1 }.filter { $0.count >= Self.shortest }
        // Without a short edge line, where more than one line is left (one line alone is read already).
        let starts = first < Self.shortest ? [0, first] : [0]
        let ends = symbols.count - last < Self.shortest ? [symbols.count, last] : [symbols.count]
        for start in starts {
            for end in ends where (start > 0 || end < symbols.count) && end - start >= Self.shortest {
                if breaks.contains(where: { $0 > start && $0 < end }) { parts.append(start..<end) }
            }
        }
        return [self] + parts.map { Base64Text(symbols: Array(symbols[$0])) }
    }

    /// Whether the character before `index` is a `/` (or the `_` of URL-safe base64): a path's slash, after which the
    /// base64 of a segment may start.
    func startsAfterSlash(_ index: Int) -> Bool {
        index > 0 && index <= symbols.count && symbols[index - 1].value == 63
    }

    /// Where the characters that encode the decoded bytes `range` (of `decoded(shift:)`) are written: their whole groups
    /// of four, except past a line break (the group's other characters there encode the text after the bytes, or before).
    func writtenRange(of range: Range<Int>, shift: Int) -> Range<Int> {
        let lastIndex = symbols.count - 1
        // The characters holding the first and the last bit of the bytes, and the ends of their groups.
        var first = min(lastIndex, shift + range.lowerBound * 8 / 6)
        var last = min(lastIndex, shift + (max(range.upperBound, range.lowerBound + 1) * 8 - 1) / 6)
        let groupStart = shift + range.lowerBound / 3 * 4, groupEnd = min(symbols.count, shift + (range.upperBound + 2) / 3 * 4) - 1
        while first > groupStart, adjoins(first - 1) { first -= 1 }
        while last < groupEnd, adjoins(last) { last += 1 }
        return symbols[first].written.lowerBound..<symbols[max(first, last)].written.upperBound
    }

    /// Whether the character after `index` is written right after it (no line break between them).
    private func adjoins(_ index: Int) -> Bool {
        symbols[index].written.upperBound == symbols[index + 1].written.lowerBound
    }

    /// The base64 value of the character (or escape) at `offset`, and the bytes it takes.
    private static func symbol(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt8, Int)? {
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return (byte - UInt8(ascii: "A"), 1)
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return (byte - UInt8(ascii: "a") + 26, 1)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return (byte - UInt8(ascii: "0") + 52, 1)
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return (62, 1)
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return (63, 1)
        case UInt8(ascii: "%") where offset + 2 < bytes.count && bytes[offset + 1] == UInt8(ascii: "2"):
            switch bytes[offset + 2] | 0x20 {
            case UInt8(ascii: "b"): return (62, 3)
            case UInt8(ascii: "f"): return (63, 3)
            default: return nil
            }
        case UInt8(ascii: "\\") where offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "/"): return (63, 2)
        default: return nil
        }
    }

    /// The bytes a line break at `offset` takes with the spaces and tabs that indent the next line: CR, LF, JSON-escaped
    /// once or more (`\n`, `\\n` as a failure shows a JSON body) or percent-encoded (`%0A`); a tab JSON-escaped too.
    private static func lineBreak(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard var end = control(at: offset, in: bytes, [UInt8(ascii: "\r"), UInt8(ascii: "\n")]) else { return nil }
        while end < bytes.count, let next = control(at: end, in: bytes, [UInt8(ascii: " "), UInt8(ascii: "\t")]) { end = next }
        return end - offset
    }

    /// Where one of `characters` at `offset` ends: written, JSON-escaped once or more (`\n`, `\\t`) or percent-encoded
    /// (`%0A`); nil when none stands there.
    private static func control(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ characters: [UInt8]) -> Int? {
        let byte = bytes[offset]
        if characters.contains(byte) { return offset + 1 }
        switch byte {
        case UInt8(ascii: "\\"):
            var end = offset
            while end < bytes.count, bytes[end] == UInt8(ascii: "\\") { end += 1 }
            let escaped: [UInt8: UInt8] = [UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09]
            guard end < bytes.count, let character = escaped[bytes[end]], characters.contains(character) else { return nil }
            return end + 1
        case UInt8(ascii: "%"):
            guard offset + 2 < bytes.count, let high = bytes[offset + 1].hexDigitValue, let low = bytes[offset + 2].hexDigitValue,
                  characters.contains(high << 4 | low) else { return nil }
            return offset + 3
        default:
            return nil
        }
    }

    /// Whether the run is letters alone, all in one case (a word, or words run together).
    private static func readsAsWord(_ symbols: [Symbol]) -> Bool {
        symbols.allSatisfy { $0.value < 26 && $0.written.count == 1 } || symbols.allSatisfy { (26..<52).contains($0.value) && $0.written.count == 1 }
    }
}
