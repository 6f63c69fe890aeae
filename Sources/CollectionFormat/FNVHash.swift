/// FNV-1a over 64 bits: a fingerprint of texts (not a cryptographic hash).
public struct FNVHash: Sendable {
    /// The hash so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Adds a text, and a separator so that ("ab", "c") and ("a", "bc") differ.
    public mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value = (value ^ 0xff) &* 0x100_0000_01b3
    }

    /// The hash as 16 hexadecimal digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
