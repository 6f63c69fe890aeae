import HTTPCore

/// Writing JSON values as text inside templates.
enum JSONText {
    /// The text a value contributes to a string: strings as is, everything else as compact JSON.
    static func interpolated(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return serialize(value)
    }

    /// Compact JSON text.
    static func serialize(_ value: JSONValue) -> String {
        // TODO: replace with JSONValue.serialized() once branch `expectations` is merged.
        switch value {
        case .null: return "null"
        case .bool(let bool): return String(bool)
        case .int(let int): return String(int)
        case .double(let double): return number(double)
        case .string(let string): return quoted(string)
        case .array(let items): return "[" + items.map(serialize).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.members.map { quoted($0.key) + ":" + serialize($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// A double as JSON writes it: integral values without a fraction.
    static func number(_ double: Double) -> String {
        if double.isFinite, double == double.rounded(), abs(double) < 1e15 { return String(Int(double)) }
        return String(double)
    }

    private static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// "a string", "a number", ... for messages.
    static func kindName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
