public import HTTPCore

/// Naming JSON values in messages.
public enum JSONText {
    /// "a string", "a number", ... for messages.
    public static func kindName(of value: JSONValue) -> String {
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
