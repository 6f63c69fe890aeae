public import Foundation

/// Text saved in UTF-16 or UTF-32 where UTF-8 is read, told by its byte order mark or by the NUL bytes beside its first
/// character (as those encodings write ASCII), or for UTF-16 beside other characters of its start.
public enum WideEncoding {
    /// How wide text is laid out: its code unit's width in bytes, its byte order, and how that shows.
    private struct Layout {
        let width: Int
        let bigEndian: Bool
        let why: String
    }

    /// The encoding `bytes` are in (`UTF-16` or `UTF-32`) and how it shows, when they are in one; nil otherwise.
    public static func guess(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, why: String)? {
        layout(of: bytes).map { ("UTF-\($0.width * 8)", $0.why) }
    }

    /// `bytes` without a leading UTF-8 byte order mark (what some Windows editors write first), which is no character of
    /// the text: columns count from after it, and nothing shows it.
    public static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: utf8ByteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// `withoutByteOrderMark` of bytes read as `Data`.
    public static func withoutByteOrderMark(_ data: Data) -> Data {
        data.starts(with: utf8ByteOrderMark) ? data.dropFirst(3) : data
    }

    private static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` as text to quote in a diagnostic: decoded from UTF-16 or UTF-32 when they are in one, otherwise as UTF-8
    /// (an invalid byte replaced), a byte order mark left out, so the quoted line reads as an editor shows it.
    public static func displayText(_ bytes: some Collection<UInt8>) -> String {
        let array = Array(bytes)
        guard let layout = array.withUnsafeBufferPointer(layout(of:)) else {
            return String(decoding: withoutByteOrderMark(array), as: UTF8.self)
        }
        let units = stride(from: 0, to: array.count - layout.width + 1, by: layout.width).map { start in
            (0..<layout.width).reduce(UInt32(0)) { value, index in
                value | UInt32(array[start + index]) << (8 * (layout.bigEndian ? layout.width - 1 - index : index))
            }
        }
        let text = layout.width == 2
            ? String(decoding: units.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self)
            : String(decoding: units, as: UTF32.self)
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }

    /// The layout of `bytes` when they are UTF-16 or UTF-32; nil otherwise.
    private static func layout(of bytes: UnsafeBufferPointer<UInt8>) -> Layout? {
        guard bytes.count >= 2 else { return nil }
        guard bytes[0] == 0 || bytes[1] == 0 || bytes[0] >= 0xFE else { return utf16ByItsNULs(bytes) }
        let byte = { (index: Int) -> UInt8? in index < bytes.count ? bytes[index] : nil }
        let (b0, b1, b2, b3) = (bytes[0], bytes[1], byte(2), byte(3))
        if (b0, b1, b2, b3) == (0xFF, 0xFE, 0, 0) || (b0, b1, b2, b3) == (0, 0, 0xFE, 0xFF) {
            return Layout(width: 4, bigEndian: b0 == 0, why: "its byte order mark is UTF-32's")
        }
        if (b0, b1) == (0xFF, 0xFE) || (b0, b1) == (0xFE, 0xFF) {
            return Layout(width: 2, bigEndian: b0 == 0xFE, why: "its byte order mark is UTF-16's")
        }
        let littleEndian32 = b0 != 0 && b1 == 0 && b2 == 0 && b3 == 0
        let bigEndian32 = b0 == 0 && b1 == 0 && b2 == 0 && b3 != nil && b3 != 0
        if littleEndian32 || bigEndian32 {
            return Layout(width: 4, bigEndian: bigEndian32, why: "NUL bytes stand beside its first character, as in UTF-32")
        }
        if (b0 == 0) != (b1 == 0) {
            return Layout(width: 2, bigEndian: b0 == 0, why: "a NUL byte stands beside its first character, as in UTF-16")
        }
        return utf16ByItsNULs(bytes)
    }

    /// UTF-16 without a byte order mark whose first character is beyond Latin-1 (`名` is `0D 54`): two NUL bytes or more
    /// among its first 512, all at even or all at odd places, as UTF-16 writes the ASCII after it (spaces, colons, line
    /// breaks). UTF-8 text holds no NUL byte, so most text is passed over by one `memchr`.
    private static func utf16ByItsNULs(_ bytes: UnsafeBufferPointer<UInt8>) -> Layout? {
        let sample = min(bytes.count, 512) & ~1
        guard let base = bytes.baseAddress, memchr(base, 0, sample) != nil else { return nil }
        var (even, odd) = (0, 0)
        for index in 0..<sample where bytes[index] == 0 {
            if index % 2 == 0 { even += 1 } else { odd += 1 }
        }
        guard (even == 0) != (odd == 0), even + odd >= 2 else { return nil }
        return Layout(width: 2, bigEndian: even > 0, why: "NUL bytes stand beside its characters, as in UTF-16")
    }
}
