public import Foundation

/// A JSON body over a `JSONValue`, sent as `application/json`.
public struct JSONBody: HTTPBody {
    public var value: JSONValue

    /// Creates a body that sends `value` as compact JSON.
    public init(_ value: JSONValue) { self.value = value }

    public var additionalHeaders: HTTPHeaders { ["Content-Type": "application/json"] }

    /// The compact JSON text; throws for numbers JSON cannot express (NaN, infinity).
    public func encode() throws -> Data {
        var writer = CompactJSONWriter()
        try writer.write(value)
        return Data(writer.text.utf8)
    }
}

/// The error thrown when a body cannot be encoded.
public struct BodyEncodingError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Writes a `JSONValue` as compact JSON text; member order is kept.
struct CompactJSONWriter {
    private(set) var text = ""

    mutating func write(_ value: JSONValue) throws {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        case .double(let number):
            guard number.isFinite else { throw BodyEncodingError("JSON cannot express the number \(number)") }
            text += number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let string): writeString(string)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                try write(element)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                writeString(member.key)
                text += ":"
                try write(member.value)
            }
            text += "}"
        }
    }

    private mutating func writeString(_ string: String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
