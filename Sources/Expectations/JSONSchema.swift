internal import Foundation
public import HTTPCore

/// A compiled JSON Schema (draft 2020-12 subset) that validates `JSONValue` instances.
///
/// Supported: `type`, `enum`, `const`, numeric bounds and `multipleOf`, `minLength`/`maxLength`
/// (Unicode scalars), `pattern`, `properties`, `patternProperties`, `additionalProperties`, `required`,
/// `minProperties`/`maxProperties`, `prefixItems`, `items`, `minItems`/`maxItems`, `uniqueItems`,
/// `allOf`/`anyOf`/`oneOf`/`not`, `$defs` and local `$ref` (`#`, `#/$defs/name`, any JSON pointer),
/// and boolean schemas. Unknown keywords are ignored. Violations name the instance location in the
/// readable JSONPath style `$.items[0].name`.
public struct JSONSchema: Sendable {
    /// Compiled subschemas; index 0 is the root, `$ref`s point at indexes.
    let nodes: [SchemaNode]

    /// Compiles `schema`, reporting unresolvable `$ref`s and keywords of the wrong type.
    public init(_ schema: JSONValue) throws(JSONSchemaError) {
        var compiler = SchemaCompiler(document: schema)
        nodes = try compiler.compileAll()
    }

    /// Every violation of the schema by `instance`; empty when it is valid.
    public func validate(_ instance: JSONValue) -> [JSONSchemaViolation] {
        var validator = SchemaValidator(nodes: nodes)
        validator.validate(instance, against: 0, at: nil)
        return validator.violations
    }

    /// Whether `instance` is valid against the schema.
    public func isValid(_ instance: JSONValue) -> Bool {
        validate(instance).isEmpty
    }
}

/// A part of an instance that breaks the schema.
public struct JSONSchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, e.g. `$.items[0].name` (`$` is the whole instance).
    public let instancePath: String
    /// Where in the schema, as a JSON pointer fragment, e.g. `#/properties/items/items/type`.
    public let schemaPath: String
    /// What is wrong, e.g. `expected type integer, got "x"`.
    public let message: String

    public var description: String { "\(instancePath): \(message)" }
}

/// A schema that cannot be compiled, with the JSON pointer of the offending keyword.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `$ref '#/$defs/missing' does not resolve`.
    public let message: String
    /// Where in the schema, as a JSON pointer fragment, e.g. `#/properties/a/$ref`.
    public let schemaPath: String

    public var description: String { "invalid schema at \(schemaPath): \(message)" }
}

/// One compiled subschema.
enum SchemaNode: Sendable {
    case always(Bool, path: String)
    case keywords([SchemaKeyword], path: String)
}

/// One compiled keyword; subschemas are indexes into `JSONSchema.nodes`.
enum SchemaKeyword: Sendable {
    case types(Set<JSONType>)
    case enumeration([JSONValue])
    case constant(JSONValue)
    case minimum(Double, exclusive: Bool)
    case maximum(Double, exclusive: Bool)
    case multipleOf(Double)
    case minLength(Int)
    case maxLength(Int)
    case pattern(String, RegularExpression)
    case properties([(String, Int)], patterns: [(String, RegularExpression, Int)], additional: Int?)
    case required([String])
    case minProperties(Int)
    case maxProperties(Int)
    case items(prefix: [Int], rest: Int?)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case ref(Int, String)
}
