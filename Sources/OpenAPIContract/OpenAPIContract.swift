internal import Foundation
public import HTTPCore
internal import Expectations
internal import YAML

/// A document's operations ready to judge responses: each response's required headers and, per media type, its schema
/// compiled for the project's JSON Schema validator (3.0 schemas rewritten as 2020-12).
public struct OpenAPIContract: Sendable {
    /// The path prefixes of the document's servers (`/api`), longest first; empty for a server at the root.
    let basePaths: [String]
    let operations: [Operation]

    /// One operation: its method, path template and documented responses.
    struct Operation: Sendable {
        let method: String
        let template: String
        /// The template read to match paths.
        let path: OpenAPIPathTemplate
        let operationID: String?
        /// Responses by their key as written (`200`, `2XX`, `default`), in order.
        let responses: [(key: String, response: Response)]
        /// Where its `responses` are in the document.
        let responsesPointer: String

        /// `GET /users/{id} (getUser)`.
        var label: String { "\(method) \(template)" + (operationID.map { " (\($0))" } ?? "") }
    }

    /// One documented response.
    struct Response: Sendable {
        /// Where it is in the document (where a `$ref` leads).
        let pointer: String
        let requiredHeaders: [String]
        /// Media types as written (lowercased) with the compiled schema of each that has one.
        let content: [(mediaType: String, schema: JSONSchema?)]
    }

    /// The URI the document is known by to the schemas that point into it.
    private static let documentURI = "runner:///openapi.json"

    /// Compiles every response schema of `document`; throws the schemas that cannot be compiled, located.
    public init(_ document: OpenAPIDocument) throws(OpenAPIProblems) {
        var moved: [(to: String, from: String)] = []
        let raw = OpenAPISchemaDialect.checkingDiscriminators(
            document.isVersion30 ? OpenAPISchemaDialect.jsonSchema2020(fromVersion30: document.raw) : document.raw, moved: &moved)
        var options = JSONSchema.Options()
        options.documents = [Self.documentURI: raw]
        var problems: [OpenAPIProblem] = []
        var operations: [Operation] = []
        for entry in OpenAPIOperations.list(in: raw) {
            var responses: [(key: String, response: Response)] = []
            let responsesPointer = OpenAPIPointer.pointer(entry.tokens + ["responses"])
            guard case .object(let documented)? = entry.operation["responses"] else { continue }
            for (key, _) in documented.members {
                guard let (pointer, response) = OpenAPIPointer.resolvedObject(at: responsesPointer + OpenAPIPointer.pointer([key]), in: raw) else { continue }
                var content: [(mediaType: String, schema: JSONSchema?)] = []
                if case .object(let media)? = response["content"] {
                    for (mediaType, value) in media.members {
                        var schema: JSONSchema?
                        if case .object(let object) = value, object["schema"] != nil {
                            let schemaPointer = pointer + OpenAPIPointer.pointer(["content", mediaType, "schema"])
                            do {
                                schema = try JSONSchema(.object(JSONObject([("$ref", .string(Self.reference(to: schemaPointer)))])),
                                                        options: options)
                            } catch {
                                let place = Self.pointer(inSchemaPath: error.schemaPath) ?? schemaPointer
                                problems.append(OpenAPIProblem("has a schema that cannot be used: \(error.message)", pointer: place,
                                                               mark: document.mark(of: place)))
                            }
                        }
                        content.append((mediaType.lowercased(), schema))
                    }
                }
                responses.append((key, Response(pointer: pointer, requiredHeaders: Self.requiredHeaders(of: response, in: raw), content: content)))
            }
            operations.append(Operation(method: entry.method.uppercased(), template: entry.path, path: OpenAPIPathTemplate(entry.path),
                                        operationID: entry.operationID, responses: responses, responsesPointer: responsesPointer))
        }
        guard problems.isEmpty else { throw OpenAPIProblems(problems) }
        self.operations = operations
        basePaths = Self.basePaths(of: raw)
        locate = { document.mark(of: $0) }
        self.moved = moved
    }

    /// The `oneOf` and `anyOf` a discriminator's check moved: their new places and their places in the document.
    private let moved: [(to: String, from: String)]

    /// The pointer into the document of a violation's or error's schema path, as the document writes it (a `oneOf` a
    /// discriminator's check moved named at its own place).
    func documentPointer(inSchemaPath schemaPath: String) -> String? {
        guard let pointer = Self.pointer(inSchemaPath: schemaPath) else { return nil }
        guard let (to, from) = moved.first(where: { pointer == $0.to || pointer.hasPrefix($0.to + "/") }) else { return pointer }
        return from + pointer.dropFirst(to.count)
    }

    /// Where the value at a pointer into the document is written.
    private let locate: @Sendable (String) -> Mark?

    /// The line and column of the document's value at `pointer`, when the text leads there.
    func mark(of pointer: String) -> Mark? { locate(pointer) }

    /// The names of a response's headers marked `required: true`.
    private static func requiredHeaders(of response: JSONObject, in raw: JSONValue) -> [String] {
        guard case .object(let headers)? = response["headers"] else { return [] }
        return headers.members.compactMap { name, value in
            guard let object = OpenAPIPointer.resolved(value, in: raw), object["required"] == .bool(true) else { return nil }
            return name
        }
    }

    /// The path of each server URL (its variables replaced by their defaults), without a trailing `/`, longest first.
    private static func basePaths(of raw: JSONValue) -> [String] {
        guard case .object(let root) = raw, case .array(let servers)? = root["servers"], !servers.isEmpty else { return [""] }
        let paths = servers.compactMap { server -> String? in
            guard case .object(let object) = server, case .string(let url) = object["url"] ?? .null else { return nil }
            return serverPath(OpenAPIServer.substituted(url, variables: object["variables"]))
        }
        return paths.isEmpty ? [""] : Array(Set(paths)).sorted { $0.count > $1.count }
    }

    /// The path part of a server URL: `/api` of `https://example.com/api/` and of `/api`.
    private static func serverPath(_ url: String) -> String {
        var path = url
        if let scheme = url.range(of: "://") {
            let afterHost = url[scheme.upperBound...].drop { $0 != "/" }
            path = String(afterHost)
        }
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The URI of the document's value at `pointer`: the pointer percent-encoded as a URI fragment holds it (a path key
    /// `/a%2Fb` has a `%` of its own).
    static func reference(to pointer: String) -> String {
        documentURI + "#" + (pointer.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? pointer)
    }

    /// The document pointer in a violation's or error's schema path (`runner:///openapi.json#/components/…`; the
    /// validator gives it decoded).
    static func pointer(inSchemaPath schemaPath: String) -> String? {
        guard let hash = schemaPath.firstIndex(of: "#") else { return nil }
        let prefix = schemaPath[..<hash]
        guard prefix.isEmpty || prefix == documentURI else { return nil }
        return String(schemaPath[schemaPath.index(after: hash)...])
    }
}

/// Server URLs with their variables.
public enum OpenAPIServer {
    /// `url` with each `{name}` replaced by the default of that variable in `variables` (a server's `variables`).
    public static func substituted(_ url: String, variables: JSONValue?) -> String {
        guard case .object(let members)? = variables else { return url }
        var result = url
        for (name, value) in members.members {
            guard case .object(let variable) = value, case .string(let defaultValue)? = variable["default"] else { continue }
            result = result.replacingOccurrences(of: "{\(name)}", with: defaultValue)
        }
        return result
    }
}
