/// Conveniences for decoders that walk a `Node` tree and report what they found.
extension Node {
    /// The scalar, when this node is one.
    public var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The pairs in source order, when this node is a mapping.
    public var mapping: Pairs? {
        let record = document.records[index]
        return record.kind == .mapping ? pairs(of: record) : nil
    }

    /// The items, when this node is a sequence.
    public var sequence: Items? {
        let record = document.records[index]
        return record.kind == .sequence ? items(of: record) : nil
    }

    /// The text of a scalar as written (after unescaping), or nil; cheaper than `scalar?.text`, which
    /// copies the whole scalar.
    public var scalarText: String? { document.scalarText(ofNode: index) }

    /// The text of a scalar whose core-schema value is a string, or nil.
    public var string: String? {
        let record = document.records[index]
        guard record.kind == .scalar, document.scalars.facts[record.start].kind == .string else { return nil }
        return document.scalars.texts[record.start]
    }

    /// Whether this node is a null scalar (`null`, `~`, or empty).
    public var isNull: Bool {
        let record = document.records[index]
        return record.kind == .scalar && document.scalars.facts[record.start].kind == .null
    }

    /// The value of the first pair whose key is a scalar with this text, when this node is a mapping.
    public subscript(key: String) -> Node? {
        mapping?.first { $0.key.scalarText == key }?.value
    }

    /// A word for messages such as "expected a mapping, found a list": mapping, list, string, number, boolean or null.
    public var kindName: String {
        let record = document.records[index]
        switch record.kind {
        case .mapping: return "mapping"
        case .sequence: return "list"
        case .scalar: return document.scalars.value(at: record.start).kindName
        }
    }
}

extension Scalar.Value {
    /// A word for messages: string, number, boolean or null.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        }
    }
}
