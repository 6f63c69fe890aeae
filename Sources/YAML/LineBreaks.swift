/// Lines of UTF-8 text as libyaml counts them: a line ends at LF, CR LF or CR.
///
/// The loops read through a raw pointer and compare with constants, so they stay fast in debug builds,
/// where a megabyte of text is scanned for every diagnostic and every file read.
public enum LineBreaks {
    /// Where the line that starts at byte `start` ends (the offset of its break, or the end of the text)
    /// and where the next line starts (after the break).
    public static func line(startingAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (end: Int, next: Int) {
        guard let base = bytes.baseAddress else { return (start, start) }
        let count = bytes.count
        var index = start
        while index < count {
            let byte = base[index]
            if byte == 0x0A {
                return (index, index + 1)
            }
            if byte == 0x0D {
                return (index, index + 1 < count && base[index + 1] == 0x0A ? index + 2 : index + 1)
            }
            index += 1
        }
        return (count, count)
    }

    /// The byte range of line `number` (1-based) without its break, or nil when the text has fewer lines.
    public static func range(ofLine number: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard number >= 1 else { return nil }
        var start = 0
        for _ in 1..<number {
            let line = line(startingAt: start, in: bytes)
            // The last line has no break: nothing follows it.
            guard line.next > line.end else { return nil }
            start = line.next
        }
        return start..<line(startingAt: start, in: bytes).end
    }

    /// The number of Unicode scalars (lead bytes) in a range of valid UTF-8.
    public static func scalarCount(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if base[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    /// The byte offset `scalars` Unicode scalars after the start of `range`, or its end when it holds fewer.
    public static func byteOffset(afterScalars scalars: Int, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        guard let base = bytes.baseAddress else { return range.lowerBound }
        var index = range.lowerBound
        var passed = 0
        while index < range.upperBound {
            if base[index] & 0xC0 != 0x80 {
                if passed == scalars { return index }
                passed += 1
            }
            index += 1
        }
        return range.upperBound
    }
}
