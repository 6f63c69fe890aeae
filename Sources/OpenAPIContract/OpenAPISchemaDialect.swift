internal import HTTPCore

/// OpenAPI 3.0 schemas rewritten as JSON Schema 2020-12, which the project's validator reads (3.1 schemas already are).
enum OpenAPISchemaDialect {
    /// `raw` (a 3.0 document) with every schema rewritten: `nullable: true` adds `null` to `type` (and to `enum`), and
    /// boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric bounds of 2020-12.
    static func jsonSchema2020(fromVersion30 raw: JSONValue) -> JSONValue {
        rewrite(raw, isSchema: false)
    }

    /// `raw` (a 3.0 or 3.1 document) with each `discriminator` made a check: a schema whose `oneOf` or `anyOf` names its
    /// branches by `$ref`, with `discriminator: { propertyName: kind }`, also holds, for each value of `kind` the mapping
    /// gives (or a branch's schema name, `Cat` of `#/components/schemas/Cat`), `if kind is that value then that branch`
    /// (added to its `allOf`), in place of the `oneOf` or `anyOf`, which is kept for a value no mapping names.
    /// `moved` gets, for each `oneOf` or `anyOf` moved so, its new place and its place in the document (JSON pointers).
    static func checkingDiscriminators(_ raw: JSONValue, at path: [String] = [], moved: inout [(to: String, from: String)]) -> JSONValue {
        switch raw {
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object.members {
                result[key] = key == "example" || key == "examples" ? member : checkingDiscriminators(member, at: path + [key], moved: &moved)
            }
            let combinator = object["oneOf"] != nil ? "oneOf" : "anyOf"
            guard case .object(let discriminator)? = object["discriminator"], case .string(let property)? = discriminator["propertyName"],
                  case .array(let branches)? = result[combinator] else { return .object(result) }
            var targets: [(value: String, reference: String)] = []
            for case .object(let branch) in branches {
                guard case .string(let reference)? = branch["$ref"], let name = reference.split(separator: "/").last else { continue }
                targets.append((String(name), reference))
            }
            if case .object(let mapping)? = discriminator["mapping"] {
                for case (let value, .string(let target)) in mapping.members {
                    let reference = target.contains("/") || target.contains("#") ? target : "#/components/schemas/" + target
                    targets.removeAll { $0.value == value }
                    targets.append((value, reference))
                }
            }
            guard !targets.isEmpty else { return .object(result) }
            /// `if` the property holds one of `values`.
            func holds(_ values: [String]) -> JSONValue {
                let value: JSONValue = values.count == 1 ? .object(JSONObject([("const", .string(values[0]))]))
                    : .object(JSONObject([("enum", .array(values.map(JSONValue.string)))]))
                return .object(JSONObject([("properties", .object(JSONObject([(property, value)]))), ("required", .array([.string(property)]))]))
            }
            var checks: [JSONValue] = []
            if case .array(let existing)? = result["allOf"] { checks = existing }
            for (value, reference) in targets {
                checks.append(.object(JSONObject([("if", holds([value])), ("then", .object(JSONObject([("$ref", .string(reference))])))])))
            }
            // The branch selected is the one checked (branches may share a shape: `oneOf` would find two); `oneOf` or
            // `anyOf` only for a value no mapping names.
            moved.append((OpenAPIPointer.pointer(path + ["allOf", String(checks.count), "else", combinator]),
                          OpenAPIPointer.pointer(path + [combinator])))
            checks.append(.object(JSONObject([("if", holds(targets.map(\.value))),
                                              ("else", .object(JSONObject([(combinator, .array(branches))])))])))
            result[combinator] = nil
            result["allOf"] = .array(checks)
            return .object(result)
        case .array(let items):
            return .array(items.enumerated().map { checkingDiscriminators($1, at: path + [String($0)], moved: &moved) })
        default:
            return raw
        }
    }

    /// The keywords of a 3.0 schema that hold one schema, a list of them, or a map of them.
    private static let single: Set = ["items", "not", "additionalProperties"]
    private static let lists: Set = ["allOf", "anyOf", "oneOf"]
    private static let maps: Set = ["properties"]

    /// Rewrites `value`: a schema when `isSchema`, else any other part of the document, where `schema` members and the
    /// members of `components.schemas` are schemas.
    private static func rewrite(_ value: JSONValue, isSchema: Bool, inSchemas: Bool = false) -> JSONValue {
        switch value {
        case .object(let object):
            if isSchema { return schema(object) }
            var result = JSONObject()
            for (key, member) in object.members {
                let memberIsSchema = key == "schema" || inSchemas
                result[key] = key == "example" || key == "examples" ? member
                    : rewrite(member, isSchema: memberIsSchema, inSchemas: !memberIsSchema && key == "schemas")
            }
            return .object(result)
        case .array(let items) where !isSchema:
            return .array(items.map { rewrite($0, isSchema: false) })
        default:
            return value
        }
    }

    /// One 3.0 schema object as 2020-12.
    private static func schema(_ object: JSONObject) -> JSONValue {
        var result = JSONObject()
        for (key, member) in object.members {
            switch key {
            case _ where single.contains(key): result[key] = rewrite(member, isSchema: true)
            case _ where lists.contains(key):
                if case .array(let items) = member { result[key] = .array(items.map { rewrite($0, isSchema: true) }) } else { result[key] = member }
            case _ where maps.contains(key):
                if case .object(let members) = member {
                    result[key] = .object(JSONObject(members.members.map { ($0.key, rewrite($0.value, isSchema: true)) }))
                } else {
                    result[key] = member
                }
            case "nullable", "exclusiveMinimum", "exclusiveMaximum": continue
            default: result[key] = member
            }
        }
        if object["nullable"] == .bool(true) {
            if case .string(let type)? = object["type"] { result["type"] = .array([.string(type), .string("null")]) }
            if case .array(let values)? = object["enum"], !values.contains(.null) { result["enum"] = .array(values + [.null]) }
        }
        for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            switch object[flag] {
            case .bool(true)?:
                if let limit = object[bound] {
                    result[flag] = limit
                    result[bound] = nil
                }
            case .bool?, nil: break
            case let number?: result[flag] = number
            }
        }
        return .object(result)
    }
}
