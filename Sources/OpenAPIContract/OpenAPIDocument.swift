internal import Foundation
public import HTTPCore
public import OpenAPIKit
internal import OpenAPIKit30
internal import OpenAPIKitCompat
public import YAML

/// An OpenAPI 3.0 or 3.1 document, read (YAML or JSON) and checked against the OpenAPI rules through OpenAPIKit:
/// the typed document (3.0 converted to 3.1) beside the JSON values as written.
public struct OpenAPIDocument: @unchecked Sendable {
    // OpenAPIKit's document is an immutable value tree; it is not declared Sendable.
    /// The typed document, as OpenAPI 3.1.
    public let document: OpenAPIKit.OpenAPI.Document
    /// The document's JSON values as written.
    public let raw: JSONValue
    /// Whether the document is OpenAPI 3.0 (its schemas follow the 3.0 rules: `nullable`, boolean exclusive bounds).
    public let isVersion30: Bool
    /// The `openapi` version as written.
    public let version: String
    /// The text, for the places of problems found later.
    private let text: OpenAPISourceText

    /// Reads and checks the document in `bytes`; throws every problem found, each located.
    public init(bytes: [UInt8]) throws(OpenAPIProblems) {
        let text: OpenAPISourceText
        do {
            text = try OpenAPISourceText(bytes: bytes)
        } catch {
            throw OpenAPIProblems([error])
        }
        raw = text.value
        self.text = text
        func located(_ message: String, _ pointer: String, suggestion: String? = nil) -> OpenAPIProblem {
            OpenAPIProblem(message, pointer: pointer, mark: text.mark(of: pointer), suggestion: suggestion)
        }
        guard case .object(let root) = raw else {
            throw OpenAPIProblems([located("is not an OpenAPI document: its top level is not a mapping", "")])
        }
        // `openapi: 3.0` unquoted is a number to YAML: the key is there, its version cut short.
        if let number = root["openapi"], number.numberValue != nil {
            throw OpenAPIProblems([located("has 'openapi' \(number.serialized()), a number, not a version such as \"3.0.3\"", "/openapi",
                                           suggestion: "write the full version in quotes: openapi: \"3.1.0\" (or \"3.0.3\")")])
        }
        guard case .string(let version)? = root["openapi"] else {
            let swagger = root["swagger"] != nil
            throw OpenAPIProblems([located(swagger ? "is a Swagger 2.0 document, not OpenAPI 3" : "is not an OpenAPI document: it has no 'openapi' version",
                                           "", suggestion: swagger ? "convert it to OpenAPI 3.0 or 3.1 first" : "an OpenAPI document starts with openapi: 3.1.0 (or 3.0.x)")])
        }
        self.version = version
        isVersion30 = version.hasPrefix("3.0")
        // `3.0` or `3.1` alone, as OpenAPIKit reads none but full versions.
        guard isVersion30 || version.hasPrefix("3.1"), version.split(separator: ".").count == 3 else {
            throw OpenAPIProblems([located("has OpenAPI version '\(version)'; 3.0.x and 3.1.x are read", "/openapi",
                                           suggestion: version.hasPrefix("3.0") || version.hasPrefix("3.1")
                                               ? "write the full version, such as \"\(version).0\"" : nil)])
        }
        let data = Data(raw.serialized().utf8)
        let decoded: OpenAPIKit.OpenAPI.Document
        do {
            decoded = isVersion30
                ? try Self.decoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: data).convert(to: .v3_1_1)
                : try Self.decoder.decode(OpenAPIKit.OpenAPI.Document.self, from: data)
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            let pointer = OpenAPIPointer.pointer(described.codingPath.map(Self.token))
            throw OpenAPIProblems([located("breaks the OpenAPI rules: \(Self.sentence(described.localizedDescription))", pointer)])
        }
        document = decoded
        var problems = Self.referenceProblems(in: raw).map { located($0.message, $0.pointer) }
        problems += Self.duplicateOperationIDs(in: raw).map { located($0.message, $0.pointer) }
        do {
            try decoded.validate(using: Self.validator, strict: false)
        } catch let collection as OpenAPIKit.ValidationErrorCollection {
            for error in collection.values {
                let pointer = OpenAPIPointer.pointer(error.codingPath.map(Self.token))
                problems.append(located("breaks the OpenAPI rules: \(Self.sentence(error.reason))", pointer))
            }
        } catch {
            problems.append(located("breaks the OpenAPI rules: \(Self.sentence(String(describing: error)))", ""))
        }
        guard problems.isEmpty else { throw OpenAPIProblems(problems) }
    }

    /// Where the value at a JSON pointer is written (its nearest written ancestor's place when it is not).
    public func mark(of pointer: String) -> Mark? {
        text.mark(of: pointer)
    }

    /// Reads and checks the document in the file at `path`.
    public init(contentsOfFile path: String) throws(OpenAPIProblems) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OpenAPIProblems([OpenAPIProblem("cannot be read", pointer: "")])
        }
        try self.init(bytes: Array(data))
    }

    /// OpenAPIKit's default rules but those checked here with the place of each problem: unique operation ids and
    /// references that resolve (its ten reference rules took a fifth of the time of reading a large document).
    private static var validator: OpenAPIKit.Validator {
        OpenAPIKit.Validator().withoutValidating(
            \.operationIdsAreUnique, \.schemaReferencesAreValid, \.jsonSchemaReferencesAreValid, \.responseReferencesAreValid,
            \.parameterReferencesAreValid, \.exampleReferencesAreValid, \.requestReferencesAreValid, \.headerReferencesAreValid,
            \.linkReferencesAreValid, \.callbacksReferencesAreValid, \.pathItemReferencesAreValid)
    }

    /// A decoder that skips OpenAPIKit's vendor extensions (`x-…`): read, each object would decode its whole subtree
    /// once more to find them, which made reading most of the time of a large document's import. Nothing here uses
    /// them; the raw JSON keeps them.
    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[OpenAPIKit.VendorExtensionsConfiguration.enabledKey] = false
        return decoder
    }

    /// The HTTP methods of a path item, in the order OpenAPI lists them.
    public static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// A coding key as a pointer token.
    private static func token(_ key: any CodingKey) -> String {
        key.intValue.map(String.init) ?? key.stringValue
    }

    /// A message as one line of plain text without its trailing period.
    private static func sentence(_ text: String) -> String {
        // OpenAPIKit writes Markdown (`**GET**`) over several lines, some blank.
        let lines = text.replacingOccurrences(of: "**", with: "").split(whereSeparator: \.isNewline)
        let plain = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        return plain.hasSuffix(".") ? String(plain.dropLast()) : plain
    }

    /// Every local `$ref` (`#/…`) that leads nowhere, every one into another document (which is not read), and every
    /// cycle of objects that are only a `$ref` (which never reach a schema), at the `$ref` (a cycle at its first member).
    private static func referenceProblems(in raw: JSONValue) -> [(message: String, pointer: String)] {
        var problems: [(message: String, pointer: String)] = []
        func target(of reference: String) -> JSONValue? {
            OpenAPIPointer.value(at: String(reference.dropFirst()).removingPercentEncoding ?? reference, in: raw)
        }
        /// The references of the cycle `reference` is in, through objects that are only a `$ref`; nil when it is in none.
        func cycle(from reference: String) -> [String]? {
            var chain = [reference]
            while chain.count <= 100, case .object(let object)? = target(of: chain[chain.count - 1]), object.members.count == 1,
                  case .string(let next)? = object["$ref"], next.hasPrefix("#") {
                if next == reference { return chain }
                if chain.contains(next) { return nil }
                chain.append(next)
            }
            return nil
        }
        func visit(_ value: JSONValue, _ tokens: [String]) {
            switch value {
            case .object(let object):
                if case .string(let reference)? = object["$ref"], !reference.hasPrefix("#") {
                    problems.append(("$ref '\(reference)' points into another document, which runner does not read: bundle the "
                                     + "documents into one file first (such as with `redocly bundle`)", OpenAPIPointer.pointer(tokens + ["$ref"])))
                } else if case .string(let reference)? = object["$ref"], target(of: reference) == nil {
                    problems.append(("$ref '\(reference)' does not resolve: nothing is at that place in the document",
                                     OpenAPIPointer.pointer(tokens + ["$ref"])))
                } else if case .string(let reference)? = object["$ref"], object.members.count == 1, let cycle = cycle(from: reference),
                          cycle.contains("#" + OpenAPIPointer.pointer(tokens)), reference == cycle.min() {
                    problems.append(("$ref '\(reference)' is in a cycle of references that never reaches a schema: "
                                     + (cycle + [reference]).map { "'\($0)'" }.joined(separator: " → "), OpenAPIPointer.pointer(tokens + ["$ref"])))
                }
                for (key, member) in object.members where key != "example" && key != "examples" { visit(member, tokens + [key]) }
            case .array(let items):
                for (index, item) in items.enumerated() { visit(item, tokens + [String(index)]) }
            default:
                break
            }
        }
        visit(raw, [])
        return problems
    }

    /// Every operation whose `operationId` an earlier operation has, at the repeated id.
    private static func duplicateOperationIDs(in raw: JSONValue) -> [(message: String, pointer: String)] {
        var seen: [String: String] = [:]
        var problems: [(message: String, pointer: String)] = []
        for operation in OpenAPIOperations.list(in: raw) {
            guard let id = operation.operationID else { continue }
            let pointer = OpenAPIPointer.pointer(operation.tokens + ["operationId"])
            if let first = seen[id] {
                problems.append(("operationId '\(id)' is used twice: \(first) has it too; operation ids are unique in a document", pointer))
            } else {
                seen[id] = "\(operation.method.uppercased()) \(operation.path)"
            }
        }
        return problems
    }
}

/// The problems found reading an OpenAPI document, in document order.
public struct OpenAPIProblems: Error, Sendable {
    public var problems: [OpenAPIProblem]

    public init(_ problems: [OpenAPIProblem]) {
        self.problems = problems.sorted { ($0.mark ?? Mark(line: 0, column: 0)) < ($1.mark ?? Mark(line: 0, column: 0)) }
    }
}

/// The operations of a document's JSON values, in document order.
public enum OpenAPIOperations {
    /// One operation as written: its method, path template, id and place.
    public struct Entry: Sendable {
        public let method: String
        public let path: String
        public let operationID: String?
        /// The pointer tokens of the operation object where it is written (`paths`, the path, the method; under the
        /// path item a `$ref` leads to, such as `components`, `pathItems`, its name, the method).
        public let tokens: [String]
        /// The operation object, and the path item's JSON (for its shared parameters).
        public let operation: JSONObject
        public let pathItem: JSONObject
    }

    /// Every operation of `raw`'s `paths`, each path in order and its methods in the order written (a path item
    /// that is a `$ref` is followed).
    public static func list(in raw: JSONValue) -> [Entry] {
        guard case .object(let root) = raw, case .object(let paths)? = root["paths"] else { return [] }
        var entries: [Entry] = []
        for (path, _) in paths.members {
            guard let (pointer, item) = OpenAPIPointer.resolvedObject(at: OpenAPIPointer.pointer(["paths", path]), in: raw) else {
                continue
            }
            for (key, member) in item.members where OpenAPIDocument.methods.contains(key) {
                guard case .object(let operation) = member else { continue }
                let id: String? = if case .string(let text)? = operation["operationId"] { text } else { nil }
                entries.append(Entry(method: key, path: path, operationID: id, tokens: OpenAPIPointer.tokens(of: pointer) + [key],
                                     operation: operation, pathItem: item))
            }
        }
        return entries
    }
}
