internal import Foundation

/// JSON serialisation of Foundation values for response bodies.
public enum JSONText {
    /// The UTF-8 JSON text of a Foundation value (dictionary, array, string, number, bool, NSNull).
    public static func bytes(of object: Any) -> [UInt8] {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else {
            return Array("null".utf8)
        }
        return Array(data)
    }

    /// The Foundation value of a JSON text, or nil when the bytes are not JSON.
    public static func parse(_ bytes: [UInt8]) -> Any? {
        guard !bytes.isEmpty else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }
}
