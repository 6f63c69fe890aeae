public import HTTPCore

/// A compiled RFC 9535 JSONPath query, e.g. `$.items[?@.price < 10].name`.
public struct JSONPath: Sendable, CustomStringConvertible {
    /// The query text as written.
    public let text: String
    let query: PathQuery
    /// The literal patterns of `match()` and `search()` that are no I-Regexp (RFC 9485): valid, but they match nothing.
    public let patternsMatchingNothing: [String]

    /// Parses and type-checks `text`; invalid queries throw with a message and the offset of the problem.
    public init(_ text: String) throws(JSONPathError) {
        self.text = text
        (query, patternsMatchingNothing) = try JSONPathParser.parse(text)
    }

    public var description: String { text }

    /// Whether the query is singular (only name and index segments), so it selects at most one node.
    public var isSingular: Bool { query.isSingular }

    /// The nodelist the query selects in `document`: values with their locations, in RFC order.
    public func select(in document: JSONValue) -> [JSONPathNode] {
        JSONPathEvaluator(root: document, tracksLocations: true)
            .evaluate(query, current: document)
            .map { JSONPathNode(value: $0.value, location: $0.location?.elements ?? []) }
    }

    /// The value an expectation or capture sees (docs/format.md): nil when nothing is selected, the value
    /// when one node is, and a list of the values when several are.
    public func comparableValue(in document: JSONValue) -> JSONValue? {
        Self.comparableValue(of: values(in: document))
    }

    /// The value an expectation or capture sees of the values a query `selected` (see `comparableValue(in:)`).
    public static func comparableValue(of selected: [JSONValue]) -> JSONValue? {
        switch selected.count {
        case 0: return nil
        case 1: return selected[0]
        default: return .array(selected)
        }
    }

    /// The values the query selects in `document`, in RFC order.
    public func values(in document: JSONValue) -> [JSONValue] {
        JSONPathEvaluator(root: document, tracksLocations: false).evaluate(query, current: document).map(\.value)
    }
}

/// One node of a JSONPath result: a value and where it is in the document.
public struct JSONPathNode: Sendable, Hashable {
    /// The selected value.
    public let value: JSONValue
    /// The names and indexes leading from the root to the value.
    public let location: [JSONPathElement]

    /// Creates a node.
    public init(value: JSONValue, location: [JSONPathElement]) {
        self.value = value
        self.location = location
    }

    /// The RFC 9535 normalized path of the node, e.g. `$['items'][0]`.
    public var normalizedPath: String { JSONPathElement.normalizedPath(location) }
}

/// One step of a location in a JSON document: an object member name or an array index.
public enum JSONPathElement: Sendable, Hashable {
    case name(String)
    case index(Int)

    /// The RFC 9535 normalized path of `elements`, e.g. `$['a'][0]`.
    public static func normalizedPath(_ elements: [JSONPathElement]) -> String {
        var path = "$"
        for element in elements {
            switch element {
            case .index(let index): path += "[\(index)]"
            case .name(let name): path += "['\(escapedName(name))']"
            }
        }
        return path
    }

    /// A readable path of `elements`: `$.a[0]`, with `['…']` for names that are not identifiers.
    public static func readablePath(_ elements: [JSONPathElement]) -> String {
        var path = "$"
        for element in elements {
            switch element {
            case .index(let index): path += "[\(index)]"
            case .name(let name) where isShorthandName(name): path += ".\(name)"
            case .name(let name): path += "['\(escapedName(name))']"
            }
        }
        return path
    }

    static func isShorthandName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, JSONPathParser.isNameFirst(first) else { return false }
        return name.unicodeScalars.allSatisfy { JSONPathParser.isNameFirst($0) || ("0"..."9").contains($0) }
    }

    /// A name escaped for a single-quoted normalized path segment (RFC 9535 §2.7).
    static func escapedName(_ name: String) -> String {
        var escaped = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\u{08}": escaped += "\\b"
            case "\u{0C}": escaped += "\\f"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "'": escaped += "\\'"
            case "\\": escaped += "\\\\"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// Why a JSONPath query is invalid, with the 0-based offset (in Unicode scalars) of the problem.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `expected ']'`.
    public let message: String
    /// The query text.
    public let query: String
    /// The 0-based offset of the problem in the query, counted in Unicode scalars.
    public let offset: Int

    /// Creates an error.
    public init(message: String, query: String, offset: Int) {
        self.message = message
        self.query = query
        self.offset = offset
    }

    public var description: String { "invalid JSONPath '\(query)' at offset \(offset): \(message)" }
}
