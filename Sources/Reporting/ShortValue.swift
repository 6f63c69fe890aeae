/// Where a secret too short to hide inside other text stands as a whole value: the rule `Redactor` keeps its
/// occurrences by (docs/format.md, Secrets).
public enum ShortValue {
    /// `text` with each occurrence of `value` that stands apart (as written, in text that is not decoded base64) as
    /// `replacement`: where outputs hide a short secret, `export curl` writes its reference.
    public static func replacing(_ value: String, in text: String, with replacement: String) -> String {
        let ranges = occurrences(of: value, in: text)
        guard !ranges.isEmpty else { return text }
        var bytes = Array(text.utf8)
        for range in ranges.reversed() { bytes.replaceSubrange(range, with: Array(replacement.utf8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `value` stands apart somewhere in `text` (as written).
    public static func holds(_ value: String, in text: String) -> Bool {
        !occurrences(of: value, in: text).isEmpty
    }

    /// The byte ranges of `value` in `text` that stand apart.
    private static func occurrences(of value: String, in text: String) -> [Range<Int>] {
        guard !value.isEmpty, text.contains(value) else { return [] }
        var text = text
        return text.withUTF8 { bytes in
            Redactor.occurrences(of: Array(value.utf8), in: bytes).filter { standsApart($0, in: bytes, decoded: false, edges: (true, true)) }
        }
    }

    /// Whether the occurrence `range` of a short secret's form in `bytes` stands apart: not inside an escape (the `n` of
    /// `\n`, the `20` of `%20`, the `amp` of `&amp;`); no letter or digit next to it, written or escaped (`\u00e9`,
    /// `%C3%A9`, `&#233;` are letters of the text, `\n` and `%20` are not); no `.` or `:` joining it to a number, host,
    /// version or time (`127.0.0.1`, `v1.2`, `[::1]`, `10:30`). In what base64 text decodes to (`decoded`), where a run of
    /// letters often decodes to random bytes holding a short value, the characters beside it must be text too, as must
    /// six bytes on either side (UTF-8 without controls); the decoded bytes' ends stand for a character beside it only
    /// where they are the run's (`edges`).
    static func standsApart(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, decoded: Bool,
                            edges: (start: Bool, end: Bool)) -> Bool {
        let text = Text(bytes: bytes, decoded: decoded)
        guard !text.isInsideEscape(range) else { return false }
        var before = range.lowerBound
        repeat { before -= 1 } while before > 0 && bytes[before] & 0xC0 == 0x80
        guard !text.joinsBefore(before), !text.joinsAfter(range.upperBound) else { return false }
        guard decoded else { return true }
        // A character beside it, or the end of the run's bytes.
        let apart = { (offset: Int, edge: Bool) -> Bool in
            guard offset >= 0, offset < bytes.count else { return edge }
            return !Text.isControl(bytes[offset]) && text.scalar(at: offset) != nil
        }
        return apart(before, edges.start) && apart(range.upperBound, edges.end)
            && text.isText(max(0, range.lowerBound - 6)..<min(bytes.count, range.upperBound + 6))
    }

    /// What a character written or escaped is, for the rule.
    private enum Kind { case letterOrDigit, other }

    /// The bytes an occurrence is judged in.
    private struct Text {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Whether bytes that are not UTF-8 count as letters (random bytes are no value's bounds).
        let decoded: Bool

        static func isControl(_ byte: UInt8) -> Bool {
            byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x7F
        }

        func isLetterOrDigit(at offset: Int) -> Bool {
            guard offset >= 0, offset < bytes.count else { return false }
            guard let scalar = scalar(at: offset) else { return decoded }
            return Self.kind(of: scalar) == .letterOrDigit
        }

        /// The Unicode scalar whose UTF-8 starts at `offset`; nil when none does.
        func scalar(at offset: Int) -> Unicode.Scalar? {
            var iterator = bytes[offset...].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
            return scalar
        }

        /// Whether the bytes of `range` are text: UTF-8 (a sequence cut at either end of the range aside) without controls.
        func isText(_ range: Range<Int>) -> Bool {
            var start = range.lowerBound
            while start < range.upperBound, start - range.lowerBound < 3, bytes[start] & 0xC0 == 0x80 { start += 1 }
            var iterator = bytes[start..<range.upperBound].makeIterator()
            var decoder = UTF8()
            var read = start
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    if scalar.value < 0x80, Self.isControl(UInt8(scalar.value)) { return false }
                    read += UTF8.width(scalar)
                case .emptyInput: return true
                // A sequence cut by the end of the range is no error of the text.
                case .error:
                    return range.upperBound - read < 4 && bytes[read] >= 0xC0 && bytes[(read + 1)..<range.upperBound].allSatisfy { $0 & 0xC0 == 0x80 }
                }
            }
        }

        private static func kind(of scalar: Unicode.Scalar) -> Kind {
            Character(scalar).isLetter || Character(scalar).isNumber ? .letterOrDigit : .other
        }

        private func byte(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

        private func isHex(_ offset: Int) -> Bool {
            guard let byte = byte(offset) else { return false }
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }

        private func hexValue(_ range: Range<Int>) -> UInt32? {
            guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.allSatisfy(isHex) else { return nil }
            return UInt32(String(decoding: bytes[range], as: UTF8.self), radix: 16)
        }

        private func decimalValue(_ range: Range<Int>) -> UInt32? {
            guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return nil }
            return UInt32(String(decoding: bytes[range], as: UTF8.self), radix: 10)
        }

        /// Whether the backslash at `offset` starts an escape: an odd number of backslashes ends there.
        private func escapes(at offset: Int) -> Bool {
            var count = 0
            var index = offset
            while byte(index) == UInt8(ascii: "\\") { count += 1; index -= 1 }
            return count % 2 == 1
        }

        /// Whether `range` lies inside an escape: after the backslash of one, among the hex digits of `%XX` or `\uXXXX`, or
        /// in the name or number of an HTML reference (`&amp;`, `&#39;`).
        func isInsideEscape(_ range: Range<Int>) -> Bool {
            let start = range.lowerBound
            if byte(start - 1) == UInt8(ascii: "\\"), escapes(at: start - 1), let letter = byte(start), Self.escapeLetters.contains(letter) {
                return true
            }
            if endsControlEscape(at: start) { return true }
            if byte(start - 1) == UInt8(ascii: "%"), isHex(start), isHex(start + 1) || range.count == 1 { return true }
            if byte(start - 2) == UInt8(ascii: "\\"), byte(start - 1) == UInt8(ascii: "u"), escapes(at: start - 2) { return true }
            if byte(range.upperBound) == UInt8(ascii: ";") {
                var reference = start - 1
                while let value = byte(reference), value == UInt8(ascii: "#") || value == UInt8(ascii: "x") || value == UInt8(ascii: "X") {
                    reference -= 1
                }
                if byte(reference) == UInt8(ascii: "&") { return true }
            }
            return false
        }

        /// The letters after a backslash that make an escape: JSON's (`\n`, `\u0041`) and `\x41`. After another letter a
        /// backslash is text (`C:\dir\ok`).
        private static let escapeLetters = Set("ntrbf\"\\/ux".utf8)

        /// Whether the letter at `offset` is that of a control's escape written once more: escaped again (`\\n` of JSON in a
        /// JSON string) or percent-encoded (`%5Cn`), a line break or tab of a value encoded twice.
        private func endsControlEscape(at offset: Int) -> Bool {
            guard let letter = byte(offset), "ntrbf".utf8.contains(letter) else { return false }
            return byte(offset - 1) == UInt8(ascii: "\\")
                || byte(offset - 3) == UInt8(ascii: "%") && byte(offset - 2) == UInt8(ascii: "5") && byte(offset - 1).map { $0 | 0x20 } == UInt8(ascii: "c")
        }

        /// What the escape that ends at `end` stands for: `\n`, `\uXXXX`, `\xHH`, `%XX` (a whole UTF-8 sequence of them),
        /// `&#N;`, `&#xH;` or a named reference (no letter: `&amp;`, most often); nil when none ends there.
        private func escapedKind(endingAt end: Int) -> Kind? {
            if byte(end - 1) == UInt8(ascii: "\\"), escapes(at: end - 1), let letter = byte(end), Self.escapeLetters.contains(letter) {
                return .other
            }
            if endsControlEscape(at: end) { return .other }
            if byte(end - 3) == UInt8(ascii: "\\"), byte(end - 2) == UInt8(ascii: "x"), escapes(at: end - 3), let value = hexValue(end - 1..<end + 1) {
                return Unicode.Scalar(value).map(Self.kind) ?? .other
            }
            if byte(end - 5) == UInt8(ascii: "\\"), byte(end - 4) == UInt8(ascii: "u"), let value = hexValue(end - 3..<end + 1) {
                return Unicode.Scalar(value).map(Self.kind) ?? .other
            }
            if byte(end - 2) == UInt8(ascii: "%"), let last = hexValue(end - 1..<end + 1) {
                // A continuation byte: back to the first byte of its UTF-8 sequence, escaped before it.
                var start = end - 2
                if last & 0xC0 == 0x80 {
                    while start > end - 12, byte(start - 3) == UInt8(ascii: "%"), let value = hexValue(start - 2..<start) {
                        start -= 3
                        if value & 0xC0 != 0x80 { break }
                    }
                }
                return kindOfPercentEncoded(start, end + 1)
            }
            if byte(end) == UInt8(ascii: ";"), let ampersand = (max(0, end - 12)..<end).last(where: { byte($0) == UInt8(ascii: "&") }) {
                return referenceKind(ampersand + 1..<end)
            }
            return nil
        }

        /// What the escape that starts at `start` stands for; nil when none starts there.
        private func escapedKind(startingAt start: Int) -> Kind? {
            if byte(start) == UInt8(ascii: "\\"), escapes(at: start), let letter = byte(start + 1), Self.escapeLetters.contains(letter) {
                guard letter == UInt8(ascii: "u") || letter == UInt8(ascii: "x") else { return .other }
                let digits = letter == UInt8(ascii: "u") ? start + 2..<start + 6 : start + 2..<start + 4
                return hexValue(digits).flatMap(Unicode.Scalar.init).map(Self.kind) ?? .other
            }
            if byte(start) == UInt8(ascii: "%"), isHex(start + 1), isHex(start + 2) {
                var end = start + 3
                while byte(end) == UInt8(ascii: "%"), let value = hexValue(end + 1..<end + 3), value & 0xC0 == 0x80, end - start < 12 { end += 3 }
                return kindOfPercentEncoded(start, end)
            }
            if byte(start) == UInt8(ascii: "&"), let semicolon = (start + 1..<min(bytes.count, start + 12)).first(where: { byte($0) == UInt8(ascii: ";") }) {
                return referenceKind(start + 1..<semicolon)
            }
            return nil
        }

        /// The kind of the character the `%XX` escapes in `start..<end` write (the first whole one).
        private func kindOfPercentEncoded(_ start: Int, _ end: Int) -> Kind {
            let values = stride(from: start, to: end, by: 3).compactMap { hexValue($0 + 1..<$0 + 3).map(UInt8.init) }
            var iterator = values.makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return .letterOrDigit }
            return Self.kind(of: scalar)
        }

        /// The kind of the character an HTML reference's name or number (`#233`, `#xE9`, `eacute`) stands for: a named one
        /// is a letter when its name is a letter's (`eacute`, `uuml`: a letter and a word of the accent), else other.
        private func referenceKind(_ name: Range<Int>) -> Kind? {
            guard let first = byte(name.lowerBound) else { return nil }
            if first == UInt8(ascii: "#") {
                let number = byte(name.lowerBound + 1).map { $0 | 0x20 } == UInt8(ascii: "x")
                    ? hexValue(name.lowerBound + 2..<name.upperBound) : decimalValue(name.lowerBound + 1..<name.upperBound)
                return number.flatMap(Unicode.Scalar.init).map(Self.kind) ?? .other
            }
            let word = String(decoding: bytes[name], as: UTF8.self)
            guard word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
            return Self.accents.contains(where: { word.count == $0.count + 1 && word.hasSuffix($0) }) || word == "szlig" ? .letterOrDigit : .other
        }

        /// The words of the accents ISO-8859-1's named letters end in (`eacute`, `uuml`, `ntilde`, `aring`, `oslash`).
        private static let accents = ["acute", "grave", "circ", "uml", "tilde", "ring", "slash", "cedil", "lig", "th", "eth"]

        /// Whether the character ending at `offset` (before an occurrence) joins it to the text.
        func joinsBefore(_ offset: Int) -> Bool {
            guard offset >= 0 else { return false }
            if let kind = escapedKind(endingAt: offset) { return kind == .letterOrDigit }
            return joins(offset, beyond: offset - 1)
        }

        /// What the characters `\u00c2\u00bb` (or `Â»` as they are) starting at `start` stand for when they are the UTF-8 of one
        /// character read as Latin-1 (a server that misread the header `«ok»`): that character's kind; nil otherwise.
        private func misreadKind(startingAt start: Int) -> Kind? {
            var values: [UInt8] = []
            var offset = start
            while values.count < 4 {
                if byte(offset) == UInt8(ascii: "\\"), byte(offset + 1) == UInt8(ascii: "u"), let value = hexValue(offset + 2..<offset + 6), value <= 0xFF {
                    values.append(UInt8(value))
                    offset += 6
                } else if let scalar = scalar(at: offset), scalar.value >= 0x80, scalar.value <= 0xFF {
                    values.append(UInt8(scalar.value))
                    offset += UTF8.width(scalar)
                } else {
                    break
                }
                // The first byte of a sequence of two bytes or more, then its continuation bytes.
                guard values[0] >= 0xC2, values[0] <= 0xF4 else { return nil }
                if values.count >= 2, let scalar = Self.decodedUTF8(values) { return Self.kind(of: scalar) }
            }
            return nil
        }

        /// The character `bytes` are the UTF-8 of, when they are exactly one; nil otherwise.
        private static func decodedUTF8(_ bytes: [UInt8]) -> Unicode.Scalar? {
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator), UTF8.width(scalar) == bytes.count else { return nil }
            return scalar
        }

        /// Whether the character starting at `offset` (after an occurrence) joins it to the text.
        func joinsAfter(_ offset: Int) -> Bool {
            guard offset < bytes.count else { return false }
            if let kind = misreadKind(startingAt: offset) ?? escapedKind(startingAt: offset) { return kind == .letterOrDigit }
            return joins(offset, beyond: offset + 1)
        }

        /// A letter or digit joins; so does a `.` or `:` with one beyond it, or a `:` with another beyond it.
        private func joins(_ offset: Int, beyond: Int) -> Bool {
            switch byte(offset) {
            case UInt8(ascii: "."): isLetterOrDigit(at: beyond)
            case UInt8(ascii: ":"): isLetterOrDigit(at: beyond) || byte(beyond) == UInt8(ascii: ":")
            default: isLetterOrDigit(at: offset)
            }
        }
    }
}
