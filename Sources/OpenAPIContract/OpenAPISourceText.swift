internal import Foundation
public import HTTPCore
public import YAML

/// An OpenAPI document's text read as JSON values (from YAML or JSON), and where each value is written.
struct OpenAPISourceText {
    /// The document as JSON values.
    let value: JSONValue
    private let place: Place

    /// How places in the text are found: through the YAML tree, or by scanning the JSON text.
    private enum Place {
        case yaml(Node)
        case json(JSONTextPlaces)
    }

    /// The largest document read (a spec is bigger than a request file, so YAML's default limits are raised).
    static let limits = Limits(maxDepth: 512, maxAliasExpansion: 100_000, maxInputBytes: 64 << 20, maxNodes: 5_000_000,
                               maxScalarBytes: 4 << 20)

    /// Reads `bytes`: as JSON when the text starts with `{`, else as YAML; a syntax error is located.
    init(bytes: [UInt8]) throws(OpenAPIProblem) {
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "{") {
            do {
                value = try JSONValue.parse(bytes)
            } catch {
                throw OpenAPIProblem("is not valid JSON: \(error.message)", pointer: "", mark: Mark(line: error.line, column: error.column))
            }
            place = .json(JSONTextPlaces(bytes))
            return
        }
        let root: Node?
        do {
            root = try YAMLParser.parse(bytes, limits: Self.limits)
        } catch {
            throw OpenAPIProblem("is not valid YAML: \(error.message)", pointer: "", mark: error.mark, suggestion: error.suggestion)
        }
        guard let root else { throw OpenAPIProblem("is empty, not an OpenAPI document", pointer: "", mark: Mark(line: 1, column: 1)) }
        value = Self.json(root)
        place = .yaml(root)
    }

    /// Where the value at a JSON pointer is written; the nearest written ancestor when the pointer leads past the text.
    /// A key's value that begins on a later line (a block mapping or list, at its own first key or item) is placed at its key.
    func mark(of pointer: String) -> Mark? {
        let tokens = OpenAPIPointer.tokens(of: pointer)
        switch place {
        case .json(let places):
            for count in stride(from: tokens.count, through: 0, by: -1) {
                if let position = places.position(of: Array(tokens.prefix(count))) {
                    return Mark(line: position.line, column: position.column)
                }
            }
            return nil
        case .yaml(var node):
            var key: Node?
            for token in tokens {
                key = nil
                switch node.content {
                case .mapping(let pairs):
                    guard let pair = pairs.last(where: { Self.keyText($0.key) == token }) else { return node.mark }
                    (node, key) = (pair.value, pair.key)
                case .sequence(let items):
                    guard let index = Int(token), items.indices.contains(index) else { return node.mark }
                    node = items[index]
                case .scalar:
                    return node.mark
                }
            }
            if let key, node.mark.line > key.mark.line { return key.mark }
            return node.mark
        }
    }

    /// A YAML tree as JSON values: typed plain scalars, mappings with their keys' text, in order.
    private static func json(_ node: Node) -> JSONValue {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return .null
            case .bool(let bool): return .bool(bool)
            case .int(let int): return .int(int)
            case .double(let double): return .double(double)
            case .string(let text): return .string(text)
            }
        case .mapping(let pairs):
            return .object(JSONObject(pairs.map { (keyText($0.key), json($0.value)) }))
        case .sequence(let items):
            return .array(items.map(json))
        }
    }

    /// A mapping key's text (a key that is not a scalar is written as its JSON).
    private static func keyText(_ node: Node) -> String {
        if case .scalar(let scalar) = node.content { return scalar.text }
        return json(node).serialized()
    }
}

/// JSON pointers (RFC 6901) into an OpenAPI document.
public enum OpenAPIPointer {
    /// The pointer of `tokens`: `/paths/~1users~1{id}/get`.
    public static func pointer(_ tokens: [String]) -> String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }

    /// The unescaped tokens of a pointer (with or without a leading `#`).
    public static func tokens(of pointer: String) -> [String] {
        let bare = pointer.hasPrefix("#") ? String(pointer.dropFirst()) : pointer
        guard !bare.isEmpty else { return [] }
        return bare.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
    }

    /// The object at `pointer` in `document`, following local `$ref`s (`#/…`), with the pointer of where it is.
    public static func resolvedObject(at pointer: String, in document: JSONValue) -> (pointer: String, object: JSONObject)? {
        var pointer = pointer
        for _ in 0..<32 {
            guard case .object(let object)? = value(at: pointer, in: document) else { return nil }
            guard case .string(let reference)? = object["$ref"], reference.hasPrefix("#") else { return (pointer, object) }
            pointer = String(reference.dropFirst()).removingPercentEncoding ?? String(reference.dropFirst())
        }
        return nil
    }

    /// `value` itself, or what it names when it is a local `$ref`; nil when that leads nowhere or is not an object.
    public static func resolved(_ value: JSONValue?, in document: JSONValue) -> JSONObject? {
        guard case .object(let object)? = value else { return nil }
        guard case .string(let reference)? = object["$ref"], reference.hasPrefix("#") else { return object }
        return resolvedObject(at: String(reference.dropFirst()).removingPercentEncoding ?? String(reference.dropFirst()), in: document)?.object
    }

    /// The value at `pointer` in `document`, nil when there is none.
    public static func value(at pointer: String, in document: JSONValue) -> JSONValue? {
        var value = document
        for token in tokens(of: pointer) {
            switch value {
            case .object(let object):
                guard let member = object[token] else { return nil }
                value = member
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                value = items[index]
            default:
                return nil
            }
        }
        return value
    }
}

/// A problem with an OpenAPI document: what, where (a JSON pointer and, when known, the line and column).
public struct OpenAPIProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, written to follow the file's name: `is not valid YAML: …`, `breaks OpenAPI: …`.
    public var message: String
    /// Where, as a JSON pointer (empty for the whole document).
    public var pointer: String
    /// The line and column, when the text leads there.
    public var mark: Mark?
    public var suggestion: String?

    public init(_ message: String, pointer: String, mark: Mark? = nil, suggestion: String? = nil) {
        self.message = message
        self.pointer = pointer
        self.mark = mark
        self.suggestion = suggestion
    }

    /// `line:column (pointer)`, or the parts known.
    public var place: String {
        let position = mark.map { "\($0.line):\($0.column)" }
        let shownPointer = pointer.isEmpty ? nil : "#\(pointer)"
        return [position, shownPointer.map { position == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " ")
    }

    public var description: String { place.isEmpty ? message : "\(place): \(message)" }
}
