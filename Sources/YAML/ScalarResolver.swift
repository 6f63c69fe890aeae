/// Types scalars by the YAML 1.2 core schema and checks explicit core tags (`!!str`, `!!int`, ...).
///
/// Only plain scalars without a tag are typed implicitly; quoted and block scalars are strings.
/// Integers that do not fit in `Int` become `.double` (with the precision a `Double` has).
enum ScalarResolver {
    static let tagPrefix = "tag:yaml.org,2002:"
    static let strTag = tagPrefix + "str"
    static let intTag = tagPrefix + "int"
    static let floatTag = tagPrefix + "float"
    static let boolTag = tagPrefix + "bool"
    static let nullTag = tagPrefix + "null"
    static let mapTag = tagPrefix + "map"
    static let seqTag = tagPrefix + "seq"

    /// A scalar's core-schema value as resolved: a string's value is its own text, so `.string` carries none
    /// (building a document then holds one reference per scalar, not two).
    enum Resolved: Equatable {
        case string
        case typed(Scalar.Value)
    }

    /// The core schema value of an untagged plain scalar, read from its UTF-8 bytes.
    static func implicitValue(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> Resolved {
        guard let first = bytes.first else { return .typed(.null) }
        // Every typed form starts with one of these; anything else is a string without further work.
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return number(bytes, text: text).map(Resolved.typed) ?? .string
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"):
            return isNull(bytes) ? .typed(.null) : .string
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            return bool(bytes).map { .typed(.bool($0)) } ?? .string
        default:
            return .string
        }
    }

    /// The value of a scalar with an explicit tag, or nil when the text does not fit a core tag.
    static func taggedValue(_ bytes: UnsafeBufferPointer<UInt8>, text: String, tag: String) -> Resolved? {
        switch tag {
        case intTag:
            return integer(bytes).map(Resolved.typed)
        case floatTag:
            let value = float(bytes, text: text) ?? integer(bytes).map { value in
                if case .int(let int) = value { return .double(Double(int)) }
                return value
            }
            return value.map(Resolved.typed)
        case boolTag:
            return bool(bytes).map { .typed(.bool($0)) }
        case nullTag:
            return bytes.isEmpty || isNull(bytes) ? .typed(.null) : nil
        case mapTag, seqTag:
            return nil
        default:
            // `!!str`, the non-specific `!` and tags outside the core schema keep the text.
            return .string
        }
    }

    /// Whether a mapping (or, when `isMapping` is false, a sequence) may carry `tag`.
    static func collectionAccepts(tag: String, isMapping: Bool) -> Bool {
        switch tag {
        case strTag, intTag, floatTag, boolTag, nullTag: return false
        case mapTag: return isMapping
        case seqTag: return !isMapping
        default: return true
        }
    }

    /// A short name for a core tag (`!!int`) used in messages; other tags are returned as written.
    static func shortName(ofTag tag: String) -> String {
        tag.hasPrefix(tagPrefix) ? "!!" + tag.dropFirst(tagPrefix.count) : tag
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let wordBytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return bytes.elementsEqual(wordBytes)
    }

    private static func isNull(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        matches(bytes, "~") || matches(bytes, "null") || matches(bytes, "Null") || matches(bytes, "NULL")
    }

    private static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if matches(bytes, "true") || matches(bytes, "True") || matches(bytes, "TRUE") { return true }
        if matches(bytes, "false") || matches(bytes, "False") || matches(bytes, "FALSE") { return false }
        return nil
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> Scalar.Value? {
        integer(bytes) ?? float(bytes, text: text)
    }

    private static func digitValue(_ byte: UInt8, radix: Int) -> Int? {
        let value: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// Core schema integers: `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`; beyond `Int` they become doubles.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Scalar.Value? {
        var index = 0
        var negative = false
        var radix = 10
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") {
            radix = bytes[1] == UInt8(ascii: "o") ? 8 : 16
            index = 2
        } else if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var accumulated = 0
        var overflowed: Double?
        while index < bytes.count {
            guard let digit = digitValue(bytes[index], radix: radix) else { return nil }
            if let partial = overflowed {
                overflowed = partial * Double(radix) + Double(digit)
            } else {
                let (shifted, multiplyOverflow) = accumulated.multipliedReportingOverflow(by: radix)
                // Accumulate negatives downwards so that Int.min fits.
                let (next, addOverflow) = negative
                    ? shifted.subtractingReportingOverflow(digit)
                    : shifted.addingReportingOverflow(digit)
                if multiplyOverflow || addOverflow {
                    overflowed = (Double(accumulated) * Double(radix)).magnitude + Double(digit)
                } else {
                    accumulated = next
                }
            }
            index += 1
        }
        if let magnitude = overflowed {
            // Decimal digits as the nearest double, which digit-by-digit arithmetic misses by a rounding or more.
            if radix == 10, let nearest = Double(String(decoding: bytes, as: UTF8.self)) { return .double(nearest) }
            return .double(negative ? -magnitude : magnitude)
        }
        return .int(accumulated)
    }

    /// Core schema floats: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?.inf`, `.nan`.
    static func float(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> Scalar.Value? {
        var index = 0
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        let rest = UnsafeBufferPointer(rebasing: bytes[index...])
        if matches(rest, ".inf") || matches(rest, ".Inf") || matches(rest, ".INF") {
            return .double(negative ? -.infinity : .infinity)
        }
        if index == 0, matches(rest, ".nan") || matches(rest, ".NaN") || matches(rest, ".NAN") {
            return .double(.nan)
        }
        func skipDigits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        var mantissaDigits = skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += skipDigits()
        }
        guard mantissaDigits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        guard index == bytes.count, let value = Double(text) else { return nil }
        return .double(value)
    }
}
