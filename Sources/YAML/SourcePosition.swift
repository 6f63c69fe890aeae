/// Byte-level helpers over a UTF-8 source: validation and byte offset to 1-based `Mark`.
enum SourcePosition {
    /// The byte offset of the first byte that is not well-formed UTF-8, or nil when the whole buffer is valid.
    static func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // A raw pointer keeps this loop fast in debug builds too (it runs over every file read).
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upperBound = 0x9F
            case 0xF0: length = 4; lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upperBound = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = base[index + 1]
            guard second >= lowerBound, second <= upperBound else { return index }
            var continuation = index + 2
            while continuation < index + length {
                guard base[continuation] & 0xC0 == 0x80 else { return index }
                continuation += 1
            }
            index += length
        }
        return nil
    }

    /// The byte offset and value of the first NEXT LINE (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR
    /// (U+2029) in valid UTF-8 `bytes`, or nil when it has none.
    static func firstYAML11LineBreak(in bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, scalar: UInt32)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index + 1 < count {
            switch base[index] {
            case 0xC2 where base[index + 1] == 0x85: return (index, 0x85)
            case 0xE2 where index + 2 < count && base[index + 1] == 0x80 && (base[index + 2] == 0xA8 || base[index + 2] == 0xA9):
                return (index, base[index + 2] == 0xA8 ? 0x2028 : 0x2029)
            default: index += 1
            }
        }
        return nil
    }

    /// The 1-based mark of a byte offset: lines end at LF, CR LF or CR; columns count characters (code points).
    static func mark(ofByteOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Mark {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != UInt8(ascii: "\r") {
                column += 1
            }
            index += 1
        }
        return Mark(line: line, column: column)
    }

    /// The byte offset of a 1-based mark, or nil when the mark lies outside the source.
    static func byteOffset(of mark: Mark, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var line = 1
        var index = 0
        while line < mark.line {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
            } else if byte == UInt8(ascii: "\r") {
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                line += 1
            }
        }
        var column = 1
        while column < mark.column {
            guard index < bytes.count else { return nil }
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index < bytes.count ? index : nil
    }
}
