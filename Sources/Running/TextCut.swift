extension String {
    /// The first `count` bytes of the text's UTF-8 at most, ending where a Unicode scalar's bytes end.
    public func prefix(utf8Count count: Int) -> String {
        guard utf8.count > count else { return String(self) }
        var end = utf8.index(utf8.startIndex, offsetBy: count)
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }
}
