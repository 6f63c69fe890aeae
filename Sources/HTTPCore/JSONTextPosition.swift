internal import Synchronization

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
    /// occurrence, as `JSONValue.parse` keeps the last value. (For many pointers into one text, `JSONTextPlaces`.)
    public static func of(pointer tokens: [String], in text: [UInt8]) -> JSONTextPosition? {
        JSONTextPlaces(text).position(of: tokens)
    }
}

/// Where values start in one JSON text, for many pointers: each object and array on the way is scanned once, however
/// many pointers lead through it (a document's thousand notes each placed by a scan from its start took seconds).
public final class JSONTextPlaces: Sendable {
    private let bytes: [UInt8]
    /// By the offset of each object and array scanned: where its members' values (by name) or its elements start.
    private let scanned = Mutex<(members: [Int: [String: Int]], elements: [Int: [Int]], lineStarts: [Int]?)>(([:], [:], nil))

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Where the value at the pointer `tokens` starts; nil when the text is not JSON there or the pointer leads nowhere.
    public func position(of tokens: [String]) -> JSONTextPosition? {
        scanned.withLock { scanned in
            var scanner = JSONPointerScanner(bytes: bytes)
            scanner.skipWhitespace()
            var offset = scanner.position
            for token in tokens {
                guard offset < bytes.count else { return nil }
                switch bytes[offset] {
                case UInt8(ascii: "{"):
                    if scanned.members[offset] == nil {
                        scanner.position = offset
                        guard let members = scanner.members() else { return nil }
                        scanned.members[offset] = members
                    }
                    guard let start = scanned.members[offset]?[token] else { return nil }
                    offset = start
                case UInt8(ascii: "["):
                    if scanned.elements[offset] == nil {
                        scanner.position = offset
                        guard let elements = scanner.elements() else { return nil }
                        scanned.elements[offset] = elements
                    }
                    guard let index = Int(token), index >= 0, let elements = scanned.elements[offset], index < elements.count else { return nil }
                    offset = elements[index]
                default:
                    return nil
                }
            }
            guard offset < bytes.count else { return nil }
            if scanned.lineStarts == nil { scanned.lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 } }
            let lineStarts = scanned.lineStarts ?? [0]
            // The last line starting at or before the offset.
            var (low, high) = (0, lineStarts.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return JSONTextPosition(line: low + 1, column: offset - lineStarts[low] + 1)
        }
    }
}

/// Walks JSON text without building values: skips what is not on the way.
private struct JSONPointerScanner {
    let bytes: [UInt8]
    var position = 0

    /// The offsets of the values of the object at `position`, by member name (a repeated name at its last).
    mutating func members() -> [String: Int]? {
        position += 1
        var found: [String: Int] = [:]
        skipWhitespace()
        if peek == UInt8(ascii: "}") { return found }
        while position < bytes.count {
            skipWhitespace()
            guard let key = string() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            found[key] = position
            guard skipValue() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ",") else { break }
            position += 1
        }
        return found
    }

    /// The offsets of the elements of the array at `position`.
    mutating func elements() -> [Int]? {
        position += 1
        var found: [Int] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { return found }
        while position < bytes.count {
            skipWhitespace()
            found.append(position)
            guard skipValue() else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ",") else { break }
            position += 1
        }
        return found
    }

    /// The byte at `position`, nil at the end.
    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
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
