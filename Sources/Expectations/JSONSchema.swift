internal import Foundation
public import HTTPCore

/// A compiled JSON Schema (draft 2020-12, or draft-07 when the schema declares it) that validates `JSONValue`s.
///
/// Every keyword of the 2020-12 core, applicator, unevaluated and validation vocabularies is applied, and
/// every draft-07 keyword; `format`, the content keywords and the meta-data keywords are annotations and
/// assert nothing. `$ref` and `$dynamicRef` resolve against `$id`s, `$anchor`s, `$dynamicAnchor`s and
/// JSON pointers, in this document, in other schema documents given in `Options.documents`, in local
/// files (with `Options.readsLocalFiles`) and in the bundled metaschemas; a network URL is never fetched.
/// The schema is compiled once into nodes; validation reports every violation with the instance location,
/// the failing keyword and its schema location.
public struct JSONSchema: Sendable {
    /// Compiled subschemas; `root` is the schema itself, references point at indexes.
    let nodes: [SchemaNode]
    /// The node of the schema itself.
    let root: Int
    /// The `$dynamicAnchor` nodes of each schema resource, by resource index then anchor name.
    let dynamicAnchors: [[String: Int]]

    /// How a schema is compiled: its URI, its default draft and the documents its references may name.
    public struct Options: Sendable {
        /// The retrieval URI of the schema, against which its `$id` and relative `$ref`s resolve.
        public var baseURI: String?
        /// The draft of a schema (or referenced document) that does not declare `$schema`.
        public var defaultDraft: JSONSchemaDraft = .draft2020_12
        /// Other schema documents by absolute URI, for `$ref`s that name them (instead of fetching them).
        public var documents: [String: JSONValue] = [:]
        /// Whether a `$ref` to a `file:` URI reads that file.
        public var readsLocalFiles = false

        /// Options with the defaults: draft 2020-12, no base URI, no other documents, no file reading.
        public init() {}
    }

    /// Compiles `schema`, reporting unresolvable references and keywords of the wrong type.
    public init(_ schema: JSONValue, options: Options = Options()) throws(JSONSchemaError) {
        var compiler = SchemaCompiler(options: options)
        let compiled = try compiler.compile(root: schema)
        nodes = compiled.nodes
        root = compiled.root
        dynamicAnchors = compiled.dynamicAnchors
    }

    /// Reads, parses and compiles the schema file at `absolutePath`; `$ref`s to other local files resolve
    /// relative to it and are read too, network URLs are errors.
    public init(contentsOfFile absolutePath: String, defaultDraft: JSONSchemaDraft = .draft2020_12) throws(JSONSchemaError) {
        var options = Options()
        options.baseURI = SchemaDocuments.fileURI(forPath: absolutePath)
        options.defaultDraft = defaultDraft
        options.readsLocalFiles = true
        let document = try SchemaDocuments.readFile(atPath: absolutePath, uri: nil)
        try self.init(document, options: options)
    }

    /// Every violation of the schema by `instance`, in evaluation order; empty when it is valid.
    public func validate(_ instance: JSONValue) -> [JSONSchemaViolation] {
        var validator = SchemaValidator(schema: self, reports: true)
        validator.validateRoot(instance)
        return validator.violations
    }

    /// Whether `instance` is valid against the schema (stops at the first violation).
    public func isValid(_ instance: JSONValue) -> Bool {
        var validator = SchemaValidator(schema: self, reports: false)
        return validator.validateRoot(instance)
    }
}

/// The JSON Schema drafts a schema may be written for.
public enum JSONSchemaDraft: String, Sendable, CaseIterable {
    case draft2020_12 = "https://json-schema.org/draft/2020-12/schema"
    case draft7 = "http://json-schema.org/draft-07/schema#"
}

/// A part of an instance that breaks the schema: where, which keyword, where that keyword is, and why.
public struct JSONSchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, readable: `$.items[0].name` (`$` is the whole instance).
    public let instancePath: String
    /// Where in the instance as a JSON pointer: `/items/0/name` (empty for the whole instance).
    public let instancePointer: String
    /// The keyword that failed, e.g. `type`, `required`, `additionalProperties`.
    public let keyword: String
    /// Where the failing keyword is: a JSON pointer fragment in the schema document, e.g.
    /// `#/properties/items/items/type`, prefixed with the document for a keyword in another file
    /// (`common.json#/$defs/id/type`).
    public let schemaPath: String
    /// What is wrong, e.g. `'abc' is not of type integer`.
    public let message: String

    public var description: String { "\(instancePath): \(message) (schema \(schemaPath))" }
}

/// A schema that cannot be compiled, with where the problem is.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `$ref '#/$defs/missing' does not resolve`.
    public let message: String
    /// Where in its document, as a JSON pointer fragment, e.g. `#/properties/a/$ref`.
    public let schemaPath: String
    /// The absolute path of the file holding the problem when that is another local file than the one
    /// compiled (a referenced schema); nil for the schema itself.
    public let otherFile: String?
    /// The 1-based line and byte column of the problem when the file is not JSON.
    public let textPosition: JSONTextPosition?
    /// How to fix it, when there is more to say than the message.
    public let suggestion: String?

    /// Creates an error.
    public init(message: String, schemaPath: String, otherFile: String? = nil, textPosition: JSONTextPosition? = nil,
                suggestion: String? = nil) {
        self.message = message
        self.schemaPath = schemaPath
        self.otherFile = otherFile
        self.textPosition = textPosition
        self.suggestion = suggestion
    }

    /// `path` (a file a schema references) relative to the directory of `schemaFile`: `common.json`, `../common/id.json`.
    public static func path(of path: String, relativeTo schemaFile: String) -> String {
        SchemaDocuments.relativePath(from: (schemaFile as NSString).deletingLastPathComponent, to: path)
    }

    public var description: String {
        let place = textPosition.map { "line \($0.line), column \($0.column)" } ?? schemaPath
        return "invalid schema at \(otherFile.map { "\($0) " } ?? "")\(place): \(message)"
    }
}
