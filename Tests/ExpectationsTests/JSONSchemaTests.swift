import HTTPCore
import Testing
import Expectations

@Suite struct JSONSchemaTests {
    /// A keyword case: schema and instance as JSON text, and the expected violations as `path: message`.
    struct Case: Sendable, CustomTestStringConvertible {
        let schema: String
        let instance: String
        let violations: [String]
        var testDescription: String { "\(schema) with \(instance)" }

        init(_ schema: String, _ instance: String, _ violations: String...) {
            self.schema = schema
            self.instance = instance
            self.violations = violations
        }
    }

    static let keywordCases: [Case] = [
        Case(#"{"type": "integer"}"#, "3.0"),
        Case(#"{"type": "integer"}"#, "3.5", "$: expected type integer, got 3.5"),
        Case(#"{"type": ["string", "null"]}"#, "null"),
        Case(#"{"type": ["string", "null"]}"#, "1", "$: expected type null or string, got 1"),
        Case(#"{"type": "number"}"#, "1"),
        Case(#"{"type": "object"}"#, "[]", "$: expected type object, got []"),
        Case(#"{"enum": [1, "a", [true]]}"#, "[true]"),
        Case(#"{"enum": [1, "a"]}"#, "1.0"),
        Case(#"{"enum": [1, "a"]}"#, "\"b\"", #"$: expected one of [1,"a"], got "b""#),
        Case(#"{"const": {"a": 1}}"#, #"{"a": 1.0}"#),
        Case(#"{"const": 2}"#, "3", "$: expected 2, got 3"),
        Case(#"{"minimum": 2}"#, "2"),
        Case(#"{"minimum": 2}"#, "1.5", "$: expected a number at least 2, got 1.5"),
        Case(#"{"minimum": 2}"#, "\"x\""),
        Case(#"{"exclusiveMinimum": 2}"#, "2", "$: expected a number greater than 2, got 2"),
        Case(#"{"maximum": 2.5}"#, "2.5"),
        Case(#"{"maximum": 2.5}"#, "3", "$: expected a number at most 2.5, got 3"),
        Case(#"{"exclusiveMaximum": 0}"#, "-1"),
        Case(#"{"exclusiveMaximum": 0}"#, "0", "$: expected a number less than 0, got 0"),
        Case(#"{"multipleOf": 3}"#, "9"),
        Case(#"{"multipleOf": 3}"#, "10", "$: expected a multiple of 3, got 10"),
        Case(#"{"multipleOf": 0.0001}"#, "0.0075"),
        Case(#"{"multipleOf": 0.5}"#, "1.25", "$: expected a multiple of 0.5, got 1.25"),
        Case(#"{"minLength": 2}"#, "\"😀😀\""),
        Case(#"{"minLength": 2}"#, "\"😀\"", "$: expected at least 2 characters, got 1"),
        Case(#"{"maxLength": 2}"#, "\"abc\"", "$: expected at most 2 characters, got 3"),
        Case(#"{"maxLength": 2}"#, "5"),
        Case(#"{"pattern": "^[a-z]+\\d$"}"#, "\"abc1\""),
        Case(#"{"pattern": "b"}"#, "\"abc\""),
        Case(#"{"pattern": "^b"}"#, "\"abc\"", "$: expected a string matching '^b', got \"abc\""),
        Case(#"{"properties": {"a": {"type": "string"}, "b c": {"type": "integer"}}}"#, #"{"a": "x", "z": 1}"#),
        Case(#"{"properties": {"a": {"type": "string"}, "b c": {"type": "integer"}}}"#, #"{"a": 1, "b c": "y"}"#,
             "$.a: expected type string, got 1", #"$['b c']: expected type integer, got "y""#),
        Case(#"{"required": ["a", "b"]}"#, #"{"a": null, "b": 0}"#),
        Case(#"{"required": ["a", "b", "c"]}"#, #"{"b": 0}"#, "$: missing required properties 'a', 'c'"),
        Case(#"{"required": ["a"]}"#, "[]"),
        Case(#"{"properties": {"a": true}, "additionalProperties": false}"#, #"{"a": 1}"#),
        Case(#"{"properties": {"a": true}, "additionalProperties": false}"#, #"{"a": 1, "b": 2}"#,
             "$.b: property 'b' is not allowed (additionalProperties)"),
        Case(#"{"properties": {"a": true}, "additionalProperties": {"type": "integer"}}"#, #"{"a": "x", "b": "y"}"#,
             #"$.b: expected type integer, got "y""#),
        Case(#"{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}"#,
             #"{"x-a": "ok", "x-b": 1, "y": 0}"#,
             "$['x-b']: expected type string, got 1", "$.y: property 'y' is not allowed (additionalProperties)"),
        Case(#"{"items": {"type": "integer"}}"#, "[1, 2, 3]"),
        Case(#"{"items": {"type": "integer"}}"#, #"[1, "2", 3.5]"#,
             #"$[1]: expected type integer, got "2""#, "$[2]: expected type integer, got 3.5"),
        Case(#"{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}"#, #"["a", 1]"#),
        Case(#"{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}"#, #"[1, 1, null]"#,
             "$[0]: expected type string, got 1", "$[2]: no value is allowed here (schema false)"),
        Case(#"{"prefixItems": [{"type": "string"}]}"#, #"["a", 1, {}]"#),
        Case(#"{"minItems": 2}"#, "[1]", "$: expected at least 2 items, got 1"),
        Case(#"{"maxItems": 1}"#, "[1]"),
        Case(#"{"maxItems": 1}"#, "[1, 2]", "$: expected at most 1 items, got 2"),
        Case(#"{"uniqueItems": true}"#, #"[1, "1", {"a": 1}, {"a": 2}]"#),
        Case(#"{"uniqueItems": true}"#, "[1, 2, 1.0]", "$: expected unique items, but items [0] and [2] are equal"),
        Case(#"{"uniqueItems": false}"#, "[1, 1]"),
        Case(#"{"minProperties": 1}"#, "{}", "$: expected at least 1 properties, got 0"),
        Case(#"{"maxProperties": 1}"#, #"{"a": 1}"#),
        Case(#"{"maxProperties": 1}"#, #"{"a": 1, "b": 2}"#, "$: expected at most 1 properties, got 2"),
        Case(#"{"allOf": [{"type": "integer"}, {"minimum": 3}]}"#, "4"),
        Case(#"{"allOf": [{"type": "integer"}, {"minimum": 3}]}"#, "2.5",
             "$: expected type integer, got 2.5", "$: expected a number at least 3, got 2.5"),
        Case(#"{"anyOf": [{"type": "string"}, {"minimum": 3}]}"#, "5"),
        Case(#"{"anyOf": [{"type": "string"}, {"minimum": 3}]}"#, "1",
             "$: expected a value matching at least one of 2 schemas (anyOf), got 1"),
        Case(#"{"oneOf": [{"type": "integer"}, {"minimum": 3}]}"#, "2"),
        Case(#"{"oneOf": [{"type": "integer"}, {"minimum": 3}]}"#, "4",
             "$: expected a value matching exactly one of 2 schemas (oneOf), but it matches 2"),
        Case(#"{"oneOf": [{"type": "integer"}, {"minimum": 3}]}"#, "1.5",
             "$: expected a value matching exactly one of 2 schemas (oneOf), but it matches 0"),
        Case(#"{"not": {"type": "null"}}"#, "1"),
        Case(#"{"not": {"type": "null"}}"#, "null", "$: expected a value not matching the 'not' schema, got null"),
        Case("true", #"{"anything": [1]}"#),
        Case("false", "1", "$: no value is allowed here (schema false)"),
        Case(#"{"unknownKeyword": 5, "format": "email", "type": "string"}"#, "\"not an email\""),
    ]

    @Test(arguments: keywordCases)
    func validatesKeyword(_ testCase: Case) throws {
        let schema = try JSONSchema(try JSONValue.parse(testCase.schema))
        let violations = schema.validate(try JSONValue.parse(testCase.instance))
        #expect(violations.map(\.description) == testCase.violations)
        #expect(schema.isValid(try JSONValue.parse(testCase.instance)) == testCase.violations.isEmpty)
    }

    static let treeSchema = #"""
    {
      "$defs": {
        "node": {
          "type": "object",
          "required": ["name"],
          "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
          }
        },
        "a/b~c": {"const": 1}
      },
      "properties": {
        "root": {"$ref": "#/$defs/node"},
        "odd": {"$ref": "#/$defs/a~1b~0c"},
        "self": {"properties": {"again": {"$ref": "#"}}}
      }
    }
    """#

    @Test func resolvesLocalReferencesRecursively() throws {
        let schema = try JSONSchema(try JSONValue.parse(Self.treeSchema))
        let valid = #"{"root": {"name": "r", "children": [{"name": "c", "children": []}]}, "odd": 1}"#
        #expect(schema.validate(try JSONValue.parse(valid)).isEmpty)
        let invalid = #"""
        {"root": {"name": "r", "children": [{"name": 2}, {"children": []}]}, "odd": 2,
         "self": {"again": {"odd": 3}}}
        """#
        let violations = schema.validate(try JSONValue.parse(invalid))
        #expect(violations.map(\.description) == [
            "$.root.children[0].name: expected type string, got 2",
            "$.root.children[1]: missing required property 'name'",
            "$.odd: expected 1, got 2",
            "$.self.again.odd: expected 1, got 3",
        ])
        #expect(violations[0].schemaPath == "#/$defs/node/properties/name/type")
        #expect(violations[2].schemaPath == "#/$defs/a~1b~0c/const")
    }

    @Test func stopsReferenceCyclesThatConsumeNothing() throws {
        let schema = try JSONSchema(try JSONValue.parse(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##))
        let violations = schema.validate(.int(1))
        #expect(violations.count == 1)
        #expect(violations.first?.message.contains("nest deeper") == true)
    }

    @Test(arguments: [
        (##"{"$ref": "#/$defs/missing"}"##, "#/$ref", "$ref '#/$defs/missing' does not resolve"),
        (##"{"$ref": "other.json#/a"}"##, "#/$ref", "$ref 'other.json#/a' is not local; only '#…' references are supported"),
        (#"{"type": "integr"}"#, "#/type", #"unknown type "integr"; expected one of string, number, integer, boolean, array, object, null"#),
        (#"{"minLength": -1}"#, "#/minLength", "minLength must be a non-negative integer"),
        (#"{"required": [1]}"#, "#/required", "required must be an array of strings"),
        (#"{"properties": {"a": 3}}"#, "#/properties/a", "a schema must be an object or a boolean"),
        (#"{"anyOf": []}"#, "#/anyOf", "anyOf must be a non-empty array of schemas"),
        (#"{"pattern": "("}"#, "#/pattern", "invalid regular expression '('"),
        (##"{"items": {"$ref": "#/$defs/x"}, "$defs": {"y": {}}}"##, "#/items/$ref", "$ref '#/$defs/x' does not resolve"),
        (#"{"multipleOf": 0}"#, "#/multipleOf", "multipleOf must be a number greater than 0"),
        ("3", "#", "a schema must be an object or a boolean"),
    ])
    func reportsSchemaErrorsWhenCompiled(schema: String, path: String, message: String) throws {
        let document = try JSONValue.parse(schema)
        do {
            _ = try JSONSchema(document)
            Issue.record("expected a schema error")
        } catch {
            #expect(error.schemaPath == path)
            #expect(error.message.hasPrefix(message))
        }
    }
}
