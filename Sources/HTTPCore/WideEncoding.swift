/// Text saved in UTF-16 or UTF-32 where UTF-8 is read, told by its byte order mark or by the NUL bytes beside its first
/// character (as those encodings write ASCII).
public enum WideEncoding {
    /// The encoding `bytes` are in (`UTF-16` or `UTF-32`) and how it shows, when they are in one; nil otherwise.
    public static func guess(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, why: String)? {
        guard bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 || bytes[0] >= 0xFE else { return nil }
        let byte = { (index: Int) -> UInt8? in index < bytes.count ? bytes[index] : nil }
        let (b0, b1, b2, b3) = (bytes[0], bytes[1], byte(2), byte(3))
        if (b0, b1, b2, b3) == (0xFF, 0xFE, 0, 0) || (b0, b1, b2, b3) == (0, 0, 0xFE, 0xFF) {
            return ("UTF-32", "its byte order mark is UTF-32's")
        }
        if (b0, b1) == (0xFF, 0xFE) || (b0, b1) == (0xFE, 0xFF) { return ("UTF-16", "its byte order mark is UTF-16's") }
        let littleEndian32 = b0 != 0 && b1 == 0 && b2 == 0 && b3 == 0
        let bigEndian32 = b0 == 0 && b1 == 0 && b2 == 0 && b3 != nil && b3 != 0
        if littleEndian32 || bigEndian32 {
            return ("UTF-32", "NUL bytes stand beside its first character, as in UTF-32")
        }
        if (b0 == 0) != (b1 == 0) { return ("UTF-16", "a NUL byte stands beside its first character, as in UTF-16") }
        return nil
    }
}
