/// A place in JSON text: 1-based line and 1-based column in bytes, as `JSONParseError` counts them.
public struct JSONTextPosition: Sendable, Hashable {
    public let line: Int
    public let column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Where the value at a JSON pointer (`/properties/a`, RFC 6901, unescaped tokens given) starts in `text`;
    /// nil when the text is not JSON or the pointer leads nowhere. A repeated key counts at its last
    /// occurrence, as `JSONValue.parse` keeps the last value.
    public static func of(pointer tokens: [String], in text: [UInt8]) -> JSONTextPosition? {
        var scanner = JSONPointerScanner(bytes: text)
        guard let offset = scanner.offset(of: tokens) else { return nil }
        var line = 1
        var lineStart = 0
        for index in 0..<offset where text[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONTextPosition(line: line, column: offset - lineStart + 1)
    }
}

/// Walks JSON text along a pointer without building values: skips what is not on the way.
private struct JSONPointerScanner {
    let bytes: [UInt8]
    var position = 0

    /// The byte offset where the value at `tokens` starts.
    mutating func offset(of tokens: [String]) -> Int? {
        skipWhitespace()
        for token in tokens {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                guard let start = memberValue(named: token) else { return nil }
                position = start
            case UInt8(ascii: "["):
                guard let index = Int(token), index >= 0, let start = element(at: index) else { return nil }
                position = start
            default:
                return nil
            }
        }
        return position < bytes.count ? position : nil
    }

    /// The offset of the value of the last member called `name` in the object at `position`.
    private mutating func memberValue(named name: String) -> Int? {
        position += 1
        var found: Int?
        skipWhitespace()
        if peek == UInt8(ascii: "}") { return nil }
        while position < bytes.count {
            skipWhitespace()
            guard let key = string() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            if key == name { found = position }
            guard skipValue() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ",") else { break }
            position += 1
        }
        return found
    }

    /// The offset of element `index` of the array at `position`.
    private mutating func element(at index: Int) -> Int? {
        position += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") { return nil }
        for _ in 0..<index {
            guard skipValue() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ",") else { return nil }
            position += 1
            skipWhitespace()
        }
        return position < bytes.count ? position : nil
    }

    /// The byte at `position`, nil at the end.
    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    /// Skips one value; false when the text is not JSON there.
    private mutating func skipValue() -> Bool {
        guard let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // Strings are skipped whole, so brackets inside them do not count.
            var depth = 0
            while let current = peek {
                switch current {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                position += 1
                if depth == 0 { return true }
            }
            return false
        default:
            while let current = peek, !Self.ends(current) { position += 1 }
            return true
        }
    }

    /// Whether a byte ends a number or literal.
    private static func ends(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The string at `position` (its opening quote), decoded, with `position` after its closing quote.
    private mutating func string() -> String? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        position += 1
        var decoded: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return nil }
                position += 1
                if escaped == UInt8(ascii: "u") {
                    guard position + 4 <= bytes.count,
                          let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    position += 4
                    if (0xD800...0xDBFF).contains(code) {
                        pendingHighSurrogate = code
                        continue
                    }
                    var scalarValue = code
                    if let high = pendingHighSurrogate, (0xDC00...0xDFFF).contains(code) {
                        scalarValue = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    }
                    decoded += Array(String(Unicode.Scalar(scalarValue) ?? "\u{FFFD}").utf8)
                } else {
                    let simple: [UInt8: UInt8] = [UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D,
                                                  UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C]
                    decoded.append(simple[escaped] ?? escaped)
                }
                pendingHighSurrogate = nil
            default:
                decoded.append(byte)
                pendingHighSurrogate = nil
            }
        }
        return nil
    }
}
