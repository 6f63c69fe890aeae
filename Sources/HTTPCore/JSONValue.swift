/// A JSON value; objects keep member order, numbers compare by value (1 == 1.0).
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object that keeps its members in insertion order; equality ignores order.
///
/// Members are kept as a list, found by a linear search while there are few of them (most objects), through an index
/// of positions by key once there are more than `indexedAbove`. Keys compare by code points, as JSON's do: `é` as one
/// code point and `e` with a combining accent are two members (Swift's `==` would take them for one).
public struct JSONObject: Sendable {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    /// The position of each member by key; kept only once there are more than `indexedAbove` members.
    private var positions: [Key: Int]?
    private static let indexedAbove = 12

    public init() {}

    /// An object of `members` in order; a key given again keeps its first place and its last value.
    public init(_ members: [(String, JSONValue)]) {
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let newValue {
                if let position = position(of: key) {
                    members[position].value = newValue
                } else {
                    members.append((key, newValue))
                    if positions != nil {
                        positions![Key(key)] = members.count - 1
                    } else if members.count > Self.indexedAbove {
                        reindex()
                    }
                }
            } else if let position = position(of: key) {
                members.remove(at: position)
                if positions != nil { reindex() }
            }
        }
    }

    /// Builds the index of positions anew from the members.
    private mutating func reindex() {
        positions = Dictionary(uniqueKeysWithValues: members.indices.map { (Key(members[$0].key), $0) })
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[Key(key)] }
        return members.firstIndex { $0.key.utf8.elementsEqual(key.utf8) }
    }

    /// A key compared and hashed by its UTF-8 bytes (its code points).
    private struct Key: Hashable {
        let text: String

        init(_ text: String) { self.text = text }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
        }
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Combines the members' hashes so that their order does not matter, as equality ignores it.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        // By code points, as JSON compares strings: Swift's `==` would take `é` and `e` with a combining accent as one.
        case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        case let (.int(a), .int(b)): a == b
        default: JSONValue.numericOrder(lhs, rhs) == 0
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

extension JSONValue {
    /// -1, 0 or 1 as the number `lhs` is below, equal to or above the number `rhs`, exactly: an integer against a
    /// double is not compared as two doubles (2^63, which a body's `9223372036854775808` reads as, is above every
    /// integer, and 2^53 + 1 is not 2^53); nil when either is not a number, or is NaN.
    public static func numericOrder(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case let (.int(a), .int(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case let (.int(a), .double(b)): return order(a, b)
        case let (.double(a), .int(b)): return order(b, a).map { -$0 }
        case let (.double(a), .double(b)): return a.isNaN || b.isNaN ? nil : (a < b ? -1 : (a == b ? 0 : 1))
        default: return nil
        }
    }

    /// `numericOrder` of an integer against a double.
    private static func order(_ integer: Int, _ double: Double) -> Int? {
        guard !double.isNaN else { return nil }
        // 2^63: every double from there up is above every Int, every one below -2^63 beneath it.
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let floor = double.rounded(.down)
        let whole = Int(floor)
        if integer != whole { return integer < whole ? -1 : 1 }
        return floor == double ? 0 : -1
    }

    /// The value as a Double when it is a number.
    public var numberValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
}

extension JSONValue {
    /// What kind of value it is, for messages: `a string`, `a number`, `a list`, `an object`, `a boolean`, `null`.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The text a value contributes to a string (a template with text around it, a URL, a header, a query or form
    /// value): strings as they are, a whole number below 1e21 as an integer (`3`, not `3.0`; `100000000000000000000`,
    /// not `1e+20`), anything else as compact JSON.
    /// The one rule for every place a value becomes text.
    public var interpolatedText: String {
        switch self {
        case .string(let string): string
        case .double(let double) where double.isFinite && double == double.rounded() && abs(double) < 1e21:
            // Every digit, as JavaScript writes whole numbers below 1e21; past Int's range through the C formatter.
            abs(double) < 1e18 ? String(Int(double)) : String(format: "%.0f", double)
        default: serialized()
        }
    }
}
