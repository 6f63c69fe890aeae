/// How text comes back from a server that reads or writes it in another encoding than it was sent in.
public enum Mojibake {
    /// The text's UTF-8 bytes read as ISO-8859-1 and as Windows-1252 (`Grüße` echoed as `GrÃ¼Ã\u{9F}e` by a server that
    /// reads header bytes as Latin-1), and its Latin-1 bytes read back as UTF-8 (`pä ss` echoed by a server that writes
    /// headers in Latin-1, read as `p\u{FFFD} ss`); none for ASCII text, which reads the same.
    public static func readings(of text: String) -> [String] {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return [] }
        let latin1 = String(String.UnicodeScalarView(text.utf8.map { Unicode.Scalar($0) }))
        let windows1252 = String(String.UnicodeScalarView(text.utf8.map { byte in
            (0x80...0x9F).contains(byte) ? windows1252C1[Int(byte - 0x80)] : Unicode.Scalar(byte)
        }))
        var forms = Set([latin1, windows1252])
        if text.unicodeScalars.allSatisfy({ $0.value <= 0xFF }) {
            forms.insert(String(decoding: text.unicodeScalars.map { UInt8($0.value) }, as: UTF8.self))
        }
        return Array(forms)
    }

    /// Windows-1252's characters for bytes 0x80–0x9F; the five it leaves undefined read as the C1 control, as
    /// browsers (WHATWG) and Windows read them.
    private static let windows1252C1: [Unicode.Scalar] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ].map { Unicode.Scalar(UInt32($0))! }
}
