internal import Foundation
import HTTPCore

/// Turns a schema document into `SchemaNode`s, resolving local `$ref`s to node indexes.
struct SchemaCompiler {
    let document: JSONValue
    private var nodes: [SchemaNode?] = []
    /// Node index by JSON pointer (`#/…`), so each location compiles once and refs can be cyclic.
    private var indexes: [String: Int] = [:]
    /// Locations still to compile, with their values.
    private var pending: [(index: Int, value: JSONValue, path: String)] = []

    init(document: JSONValue) {
        self.document = document
    }

    /// Compiles the root and everything reachable from it; the root is node 0.
    mutating func compileAll() throws(JSONSchemaError) -> [SchemaNode] {
        _ = try reference(document, at: "#")
        while let next = pending.popLast() {
            nodes[next.index] = try compile(next.value, at: next.path)
        }
        return nodes.map { $0! }
    }

    /// The index for the subschema at `path`, queuing it for compilation the first time.
    private mutating func reference(_ value: JSONValue, at path: String) throws(JSONSchemaError) -> Int {
        if let index = indexes[path] { return index }
        switch value {
        case .bool, .object: break
        default: throw JSONSchemaError(message: "a schema must be an object or a boolean", schemaPath: path)
        }
        let index = nodes.count
        nodes.append(nil)
        indexes[path] = index
        pending.append((index, value, path))
        return index
    }

    private mutating func compile(_ value: JSONValue, at path: String) throws(JSONSchemaError) -> SchemaNode {
        guard case .object(let schema) = value else {
            if case .bool(let accepts) = value { return .always(accepts, path: path) }
            throw JSONSchemaError(message: "a schema must be an object or a boolean", schemaPath: path)
        }
        if case .object(let definitions)? = schema["$defs"] {
            for member in definitions.members {
                _ = try reference(member.value, at: "\(path)/$defs/\(Self.escape(member.key))")
            }
        } else if schema["$defs"] != nil {
            throw JSONSchemaError(message: "$defs must be an object", schemaPath: "\(path)/$defs")
        }
        var keywords: [SchemaKeyword] = []
        for member in schema.members {
            if let keyword = try compileKeyword(member.key, member.value, in: schema, at: path) {
                keywords.append(keyword)
            }
        }
        return .keywords(keywords, path: path)
    }

    // MARK: Keywords

    private mutating func compileKeyword(
        _ name: String, _ value: JSONValue, in schema: JSONObject, at schemaPath: String
    ) throws(JSONSchemaError) -> SchemaKeyword? {
        let path = "\(schemaPath)/\(Self.escape(name))"
        switch name {
        case "type": return .types(try types(value, at: path))
        case "enum":
            guard case .array(let values) = value else { throw wrongType(name, "an array", at: path) }
            return .enumeration(values)
        case "const": return .constant(value)
        case "minimum": return .minimum(try number(value, name, at: path), exclusive: false)
        case "exclusiveMinimum": return .minimum(try number(value, name, at: path), exclusive: true)
        case "maximum": return .maximum(try number(value, name, at: path), exclusive: false)
        case "exclusiveMaximum": return .maximum(try number(value, name, at: path), exclusive: true)
        case "multipleOf":
            let divisor = try number(value, name, at: path)
            guard divisor > 0 else { throw wrongType(name, "a number greater than 0", at: path) }
            return .multipleOf(divisor)
        case "minLength": return .minLength(try count(value, name, at: path))
        case "maxLength": return .maxLength(try count(value, name, at: path))
        case "pattern":
            guard case .string(let pattern) = value else { throw wrongType(name, "a string", at: path) }
            return .pattern(pattern, try regularExpression(pattern, at: path))
        case "properties", "patternProperties", "additionalProperties":
            // Compiled together once, on the first of them in member order.
            guard name == schema.keys.first(where: { ["properties", "patternProperties", "additionalProperties"].contains($0) })
            else { return nil }
            return try properties(in: schema, at: schemaPath)
        case "required":
            guard case .array(let names) = value else { throw wrongType(name, "an array of strings", at: path) }
            var required: [String] = []
            for element in names {
                guard case .string(let property) = element else { throw wrongType(name, "an array of strings", at: path) }
                required.append(property)
            }
            return .required(required)
        case "minProperties": return .minProperties(try count(value, name, at: path))
        case "maxProperties": return .maxProperties(try count(value, name, at: path))
        case "prefixItems", "items":
            guard name == schema.keys.first(where: { $0 == "prefixItems" || $0 == "items" }) else { return nil }
            return try items(in: schema, at: schemaPath)
        case "minItems": return .minItems(try count(value, name, at: path))
        case "maxItems": return .maxItems(try count(value, name, at: path))
        case "uniqueItems":
            guard case .bool(let unique) = value else { throw wrongType(name, "a boolean", at: path) }
            return unique ? .uniqueItems : nil
        case "allOf": return .allOf(try schemaList(value, name, at: path))
        case "anyOf": return .anyOf(try schemaList(value, name, at: path))
        case "oneOf": return .oneOf(try schemaList(value, name, at: path))
        case "not": return .not(try reference(value, at: path))
        case "$ref":
            guard case .string(let target) = value else { throw wrongType(name, "a string", at: path) }
            return .ref(try resolve(target, at: path), target)
        default: return nil
        }
    }

    private mutating func properties(in schema: JSONObject, at schemaPath: String) throws(JSONSchemaError) -> SchemaKeyword {
        var named: [(String, Int)] = []
        if let value = schema["properties"] {
            guard case .object(let properties) = value else {
                throw wrongType("properties", "an object", at: "\(schemaPath)/properties")
            }
            for member in properties.members {
                named.append((member.key, try reference(member.value, at: "\(schemaPath)/properties/\(Self.escape(member.key))")))
            }
        }
        var patterns: [(String, RegularExpression, Int)] = []
        if let value = schema["patternProperties"] {
            let path = "\(schemaPath)/patternProperties"
            guard case .object(let properties) = value else { throw wrongType("patternProperties", "an object", at: path) }
            for member in properties.members {
                let memberPath = "\(path)/\(Self.escape(member.key))"
                patterns.append((member.key, try regularExpression(member.key, at: memberPath),
                                 try reference(member.value, at: memberPath)))
            }
        }
        let additional = try schema["additionalProperties"].map { (value) throws(JSONSchemaError) in
            try reference(value, at: "\(schemaPath)/additionalProperties")
        }
        return .properties(named, patterns: patterns, additional: additional)
    }

    private mutating func items(in schema: JSONObject, at schemaPath: String) throws(JSONSchemaError) -> SchemaKeyword {
        let prefix = try schema["prefixItems"].map { (value) throws(JSONSchemaError) in
            try schemaList(value, "prefixItems", at: "\(schemaPath)/prefixItems")
        } ?? []
        let rest = try schema["items"].map { (value) throws(JSONSchemaError) in
            try reference(value, at: "\(schemaPath)/items")
        }
        return .items(prefix: prefix, rest: rest)
    }

    private mutating func schemaList(_ value: JSONValue, _ name: String, at path: String) throws(JSONSchemaError) -> [Int] {
        guard case .array(let schemas) = value, !schemas.isEmpty else {
            throw wrongType(name, "a non-empty array of schemas", at: path)
        }
        var indexes: [Int] = []
        for (offset, schema) in schemas.enumerated() { indexes.append(try reference(schema, at: "\(path)/\(offset)")) }
        return indexes
    }

    private func types(_ value: JSONValue, at path: String) throws(JSONSchemaError) -> Set<JSONType> {
        let names: [JSONValue]
        switch value {
        case .string: names = [value]
        case .array(let list) where !list.isEmpty: names = list
        default: throw wrongType("type", "a type name or an array of them", at: path)
        }
        var types: Set<JSONType> = []
        for name in names {
            guard case .string(let text) = name, let type = JSONType(rawValue: text) else {
                throw JSONSchemaError(message: "unknown type \(name.compactDescription()); expected one of "
                                      + JSONType.allCases.map(\.rawValue).joined(separator: ", "), schemaPath: path)
            }
            types.insert(type)
        }
        return types
    }

    private func number(_ value: JSONValue, _ name: String, at path: String) throws(JSONSchemaError) -> Double {
        guard let number = value.numberValue else { throw wrongType(name, "a number", at: path) }
        return number
    }

    private func count(_ value: JSONValue, _ name: String, at path: String) throws(JSONSchemaError) -> Int {
        guard value.hasType(.integer), let number = value.numberValue, number >= 0, number <= Double(Int.max / 2) else {
            throw wrongType(name, "a non-negative integer", at: path)
        }
        return Int(number)
    }

    private func regularExpression(_ pattern: String, at path: String) throws(JSONSchemaError) -> RegularExpression {
        do {
            return try RegularExpression.cached(icuPattern: pattern)
        } catch {
            throw JSONSchemaError(message: "invalid regular expression '\(pattern)': \(error.reason)", schemaPath: path)
        }
    }

    private func wrongType(_ name: String, _ expected: String, at path: String) -> JSONSchemaError {
        JSONSchemaError(message: "\(name) must be \(expected)", schemaPath: path)
    }

    // MARK: References

    /// The node index of a local `$ref` target (`#`, `#/$defs/a`, `#/properties/a%20b/items`).
    private mutating func resolve(_ target: String, at path: String) throws(JSONSchemaError) -> Int {
        guard target.hasPrefix("#") else {
            throw JSONSchemaError(message: "$ref '\(target)' is not local; only '#…' references are supported",
                                  schemaPath: path)
        }
        guard let decoded = String(target.dropFirst()).removingPercentEncoding,
              decoded.isEmpty || decoded.hasPrefix("/") else {
            throw JSONSchemaError(message: "$ref '\(target)' is not a JSON pointer", schemaPath: path)
        }
        var value = document
        var canonical = "#"
        for token in decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch value {
            case .object(let object) where object[name] != nil: value = object[name]!
            case .array(let elements) where Int(name).map(elements.indices.contains) == true: value = elements[Int(name)!]
            default: throw JSONSchemaError(message: "$ref '\(target)' does not resolve", schemaPath: path)
            }
            canonical += "/\(Self.escape(name))"
        }
        return try reference(value, at: canonical)
    }

    /// A name escaped as a JSON pointer token.
    static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
