import Foundation
import HTTPCore
import Testing
import Expectations

/// Schemas read from files: `$ref`s to other local files, and the errors a schema file can have.
@Suite struct JSONSchemaFileTests {
    /// A fresh directory with `files` (relative path to text) written in it.
    static func directory(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    @Test func resolvesReferencesToOtherLocalFiles() throws {
        let root = try Self.directory([
            "schemas/user.json": ##"""
            {"type": "object", "properties": {"id": {"$ref": "common/types.json#/$defs/id"},
                                              "tags": {"$ref": "../shared/tags.json"}}}
            """##,
            "schemas/common/types.json": ##"{"$defs": {"id": {"type": "integer", "minimum": 1}}}"##,
            "shared/tags.json": ##"{"type": "array", "items": {"$ref": "#/$defs/tag"}, "$defs": {"tag": {"type": "string"}}}"##,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let schema = try JSONSchema(contentsOfFile: root.appendingPathComponent("schemas/user.json").path)
        #expect(schema.isValid(try JSONValue.parse(#"{"id": 3, "tags": ["a"]}"#)))
        let violations = schema.validate(try JSONValue.parse(#"{"id": 0, "tags": ["a", 2]}"#))
        #expect(violations.map(\.description) == [
            "$.id: 0 is less than the minimum 1 (schema common/types.json#/$defs/id/minimum)",
            "$.tags[1]: 2 is not of type string (schema ../shared/tags.json#/$defs/tag/type)",
        ])
    }

    /// A schema named through `..` (`requests/../schemas/user.json`, as a request file's `../schemas/user.json` is) names
    /// the files it references relative to it all the same (trial helper-141: `../../../schemas/common.json`).
    @Test func aSchemaPathThroughDotDotNamesItsReferencesRelativeToIt() throws {
        let root = try Self.directory([
            "schemas/user.json": ##"{"properties": {"id": {"$ref": "common.json#/$defs/id"}}}"##,
            "schemas/common.json": ##"{"$defs": {"id": {"minimum": 1}}}"##,
            "requests/a.yaml": "",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let schema = try JSONSchema(contentsOfFile: root.path + "/requests/../schemas/./user.json")
        #expect(schema.validate(try JSONValue.parse(#"{"id": 0}"#)).map(\.description)
                == ["$.id: 0 is less than the minimum 1 (schema common.json#/$defs/id/minimum)"])
    }

    @Test func readsFilesWhosePathsNeedPercentEncoding() throws {
        let root = try Self.directory([
            "my schemas #1/user é.json": ##"{"$ref": "common%20types.json#/$defs/id"}"##,
            "my schemas #1/common types.json": ##"{"$defs": {"id": {"type": "integer"}}}"##,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let schema = try JSONSchema(contentsOfFile: root.appendingPathComponent("my schemas #1/user é.json").path)
        #expect(schema.isValid(.int(1)))
        #expect(schema.validate(.string("x")).map(\.schemaPath) == ["common types.json#/$defs/id/type"])
    }

    @Test func reportsANetworkReferenceWhereItIsWritten() throws {
        let root = try Self.directory([
            "user.json": ##"{"properties": {"address": {"$ref": "https://example.com/address.json"}}}"##,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            _ = try JSONSchema(contentsOfFile: root.appendingPathComponent("user.json").path)
            Issue.record("expected a schema error")
        } catch {
            #expect(error.message == "$ref 'https://example.com/address.json' names a network URL, and nothing is fetched")
            #expect(error.schemaPath == "#/properties/address/$ref")
            #expect(error.otherFile == nil)
            #expect(error.suggestion != nil)
        }
    }

    @Test func locatesProblemsInsideAReferencedFile() throws {
        let root = try Self.directory([
            "user.json": ##"{"properties": {"id": {"$ref": "id.json"}, "name": {"$ref": "name.json"}}}"##,
            "id.json": ##"{"type": "integr"}"##,
            "name.json": "{\n  \"type\": \"string\",\n  \"minLength\" 1\n}",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let user = root.appendingPathComponent("user.json").path
        #expect(throws: JSONSchemaError.self) { try JSONSchema(contentsOfFile: user) }
        do {
            _ = try JSONSchema(contentsOfFile: user)
        } catch {
            // Either referenced file may be compiled first; both are located in their own file.
            #expect(error.otherFile?.hasSuffix(".json") == true)
            #expect(error.otherFile != user)
            if error.otherFile?.hasSuffix("name.json") == true {
                #expect(error.textPosition == JSONTextPosition(line: 3, column: 15))
            } else {
                #expect(error.schemaPath == "#/type")
            }
        }
        let missing = try Self.directory(["user.json": ##"{"$ref": "nowhere.json"}"##])
        defer { try? FileManager.default.removeItem(at: missing) }
        do {
            _ = try JSONSchema(contentsOfFile: missing.appendingPathComponent("user.json").path)
            Issue.record("expected a schema error")
        } catch {
            #expect(error.message.hasPrefix("$ref 'nowhere.json' names the file '"))
            #expect(error.schemaPath == "#/$ref")
            #expect(error.otherFile == nil)
        }
    }

    @Test func reportsASchemaFileThatIsNotJSON() throws {
        let root = try Self.directory(["user.json": "{\n  \"type\": object\n}"])
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            _ = try JSONSchema(contentsOfFile: root.appendingPathComponent("user.json").path)
            Issue.record("expected a schema error")
        } catch {
            #expect(error.message.hasPrefix("not valid JSON: "))
            #expect(error.textPosition == JSONTextPosition(line: 2, column: 11))
            #expect(error.otherFile == nil)
        }
        // One written in YAML is told that schema files are JSON.
        let yaml = try Self.directory(["user.yaml": "type: object\n"])
        defer { try? FileManager.default.removeItem(at: yaml) }
        #expect(throws: JSONSchemaError.self) { try JSONSchema(contentsOfFile: yaml.appendingPathComponent("user.yaml").path) }
        do { _ = try JSONSchema(contentsOfFile: yaml.appendingPathComponent("user.yaml").path) } catch {
            #expect(error.message.hasPrefix("not valid JSON (schema files are JSON; YAML is not read): "))
        }
    }

    @Test func doesNotReadFilesUnlessAskedTo() throws {
        let root = try Self.directory(["id.json": ##"{"type": "integer"}"##])
        defer { try? FileManager.default.removeItem(at: root) }
        var options = JSONSchema.Options()
        options.baseURI = "file://" + root.appendingPathComponent("user.json").path
        #expect(throws: JSONSchemaError.self) { try JSONSchema(try JSONValue.parse(##"{"$ref": "id.json"}"##), options: options) }
        options.readsLocalFiles = true
        let schema = try JSONSchema(try JSONValue.parse(##"{"$ref": "id.json"}"##), options: options)
        #expect(!schema.isValid(.string("x")))
    }
}
