public import HTTPCore

/// The JSON Schema (draft 2020-12) of request and environment files, generated from `FormatKeys`: editors that
/// speak yaml-language-server complete keys and flag typos with it.
public enum FormatSchema {
    /// The two kinds of files a schema describes.
    public enum FileKind: String, Sendable, CaseIterable {
        case request, environment
    }

    /// The pattern of a JSONPath query's text: the decoder parses the rest.
    static let jsonPathPattern = "^\\$"
    /// The pattern of a key that is a template: it has a `{{ }}` expression.
    static let templatePattern = "\\{\\{.*\\}\\}"
    /// The pattern of a duration's text (`DurationSyntax.read` accepts it; a duration may not exceed a week).
    static let durationPattern = "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$"

    /// The schema of one kind of file: its top level, and every mapping it reaches under `$defs`.
    public static func document(for kind: FileKind) -> JSONValue {
        let root = kind == .request ? FormatKeys.requestFile : FormatKeys.environmentFile
        var document = JSONObject()
        document["$schema"] = .string("https://json-schema.org/draft/2020-12/schema")
        document["title"] = .string(kind == .request ? "runner request file" : "runner environment file")
        document["description"] = .string(kind == .request
            ? "One request, or a flow of steps (docs/format.md, Request files)."
            : "An environment selected with --env NAME (docs/format.md, Environment files).")
        for (key, value) in schema(of: root).members { document[key] = value }
        var definitions = JSONObject()
        for name in reachableMappings(from: root) {
            definitions[name.rawValue] = .object(schema(of: FormatKeys.mapping(name)))
        }
        document["$defs"] = .object(definitions)
        return .object(document)
    }

    /// The schema as indented JSON text, as `runner schema` prints it.
    public static func text(for kind: FileKind) -> String {
        document(for: kind).serialized(pretty: true)
    }

    /// The mappings a shape leads to, directly or through other mappings, in `Name` order.
    static func reachableMappings(from shape: ValueShape) -> [FormatMapping.Name] {
        var found = Set<FormatMapping.Name>()
        var pending = mappings(in: shape)
        while let name = pending.popLast() {
            guard found.insert(name).inserted else { continue }
            pending += FormatKeys.mapping(name).keys.flatMap { mappings(in: $0.shape) }
        }
        return FormatMapping.Name.allCases.filter(found.contains)
    }

    /// The mappings a shape names without going through another mapping.
    static func mappings(in shape: ValueShape) -> [FormatMapping.Name] {
        switch shape {
        case .keys(let name): [name]
        case .list(let element, _), .scalarOrList(let element), .mapping(let element, _), .queries(let element), .templates(let element):
            mappings(in: element)
        case .anyOf(let shapes): shapes.flatMap(mappings)
        default: []
        }
    }

    /// A mapping as an object schema: its keys with their descriptions, nothing else allowed.
    private static func schema(of mapping: FormatMapping) -> JSONObject {
        var object = JSONObject()
        object["description"] = .string(mapping.description)
        object["type"] = .string("object")
        var properties = JSONObject()
        for key in mapping.keys {
            var property = schema(of: key.shape)
            property["description"] = .string(key.description)
            properties[key.name] = .object(property)
        }
        object["properties"] = .object(properties)
        object["additionalProperties"] = .bool(false)
        if !mapping.required.isEmpty { object["required"] = .array(mapping.required.map { .string($0) }) }
        if mapping.nonEmpty { object["minProperties"] = .int(1) }
        if !mapping.alone.isEmpty {
            let alone = mapping.alone.map { ($0, JSONValue.object(JSONObject([("maxProperties", .int(1))]))) }
            object["dependentSchemas"] = .object(JSONObject(alone))
        }
        if !mapping.needs.isEmpty {
            object["dependentRequired"] = .object(JSONObject(mapping.needs.map { ($0.key, .array([.string($0.other)])) }))
        }
        if !mapping.refusedWhen.isEmpty {
            // If the other key holds its key, the key is not there.
            object["allOf"] = .array(mapping.refusedWhen.map { rule in
                let holds = JSONObject([("properties", .object(JSONObject([(rule.other, requiring([rule.holding]))]))),
                                        ("required", .array([.string(rule.other)]))])
                return .object(JSONObject([("if", .object(holds)), ("then", .object(JSONObject([("not", requiring([rule.key]))])))]))
            })
        }
        if let choice = mapping.choice {
            if choice.required {
                object["oneOf"] = .array(choice.keys.map { requiring([$0]) })
            } else {
                let pairs = choice.keys.indices.flatMap { first in
                    choice.keys[(first + 1)...].map { requiring([choice.keys[first], $0]) }
                }
                object["not"] = .object(JSONObject([("anyOf", .array(pairs))]))
            }
        }
        return object
    }

    /// `{ "required": keys }`.
    private static func requiring(_ keys: [String]) -> JSONValue {
        .object(JSONObject([("required", .array(keys.map { .string($0) }))]))
    }

    /// The schema of a value's shape.
    private static func schema(of shape: ValueShape) -> JSONObject {
        func object(_ members: (String, JSONValue)...) -> JSONObject { JSONObject(members) }
        func types(_ names: String...) -> JSONValue { .array(names.map { .string($0) }) }
        switch shape {
        case .text:
            return object(("type", types("string", "number", "boolean")))
        case .filePath:
            return object(("type", types("string", "number", "boolean")), ("minLength", .int(1)),
                          ("examples", .array([.string("user.json")])))
        case .string(let pattern, let example):
            var result = object(("type", .string("string")), ("examples", .array([.string(example)])))
            if let pattern { result["pattern"] = .string(pattern) }
            return result
        case .scalar:
            return object(("type", types("string", "number", "boolean", "null")))
        case .boolean:
            return object(("type", .string("boolean")))
        case .integer(let range):
            var result = object(("type", .string("integer")), ("minimum", .int(range.lowerBound)))
            if range.upperBound != Int.max { result["maximum"] = .int(range.upperBound) }
            return result
        case .number:
            return object(("type", .string("number")))
        case .positiveNumber:
            return object(("type", .string("number")), ("exclusiveMinimum", .int(0)))
        case .duration:
            return object(("type", .string("string")), ("pattern", .string(durationPattern)),
                          ("examples", .array(["250ms", "5s", "1m"].map { .string($0) })))
        case .oneOf(let values):
            return object(("enum", .array(values)))
        case .anyValue:
            return JSONObject()
        case .notMapping:
            return object(("type", types("string", "number", "boolean", "null", "array")))
        case .list(let element, let nonEmpty):
            var result = object(("type", .string("array")), ("items", .object(schema(of: element))))
            if nonEmpty { result["minItems"] = .int(1) }
            return result
        case .scalarOrList(let element):
            let single = schema(of: element)
            let list = object(("type", .string("array")), ("items", .object(single)))
            return object(("anyOf", .array([.object(single), .object(list)])))
        case .mapping(let value, let names):
            var result = object(("type", .string("object")), ("additionalProperties", .object(schema(of: value))))
            if let names { result["propertyNames"] = .object(object(("pattern", .string(names)))) }
            return result
        case .queries(let value):
            let queries = JSONObject([(jsonPathPattern, .object(schema(of: value)))])
            return object(("type", .string("object")), ("patternProperties", .object(queries)),
                          ("additionalProperties", .bool(false)))
        case .templates(let value):
            let templates = JSONObject([(templatePattern, .object(schema(of: value)))])
            return object(("type", .string("object")), ("patternProperties", .object(templates)),
                          ("additionalProperties", .bool(false)), ("minProperties", .int(1)))
        case .keys(let name):
            return object(("$ref", .string("#/$defs/\(name.rawValue)")))
        case .anyOf(let shapes):
            return object(("anyOf", .array(shapes.map { .object(schema(of: $0)) })))
        }
    }
}
