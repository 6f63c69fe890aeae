import HTTPCore

/// Writing JSON values as text inside templates.
enum JSONText {
    /// The text a value contributes to a string: strings as is, everything else as compact JSON.
    static func interpolated(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return value.serialized()
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
