extension UInt8 {
    /// The byte's value as a hexadecimal digit (`0`–`9`, `a`–`f` in either case); nil for another byte.
    public var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): (self | 0x20) - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
