import CollectionFormat
import Expectations
import Foundation
import HTTPCore

/// The JSON Schema files `expect.schema` names, read and compiled when the collection is checked.
enum SchemaFile {
    /// The schema in the file at `absolutePath` (which exists), compiled, or why it cannot be used: not JSON, not a
    /// schema, an unknown `$schema`, a `$ref` that does not resolve or names a network URL. `displayPath` is how the
    /// file is shown, and where the problem is is shown relative to it.
    static func compiled(atPath absolutePath: String, displayPath: String) -> Result<JSONSchema, SchemaProblem> {
        do {
            return .success(try JSONSchema(contentsOfFile: absolutePath))
        } catch {
            return .failure(SchemaProblem(error, schemaFile: absolutePath, displayPath: displayPath))
        }
    }
}

/// A schema file that cannot be used, with where the problem is: the file (the schema itself or one it
/// references), the line and column in it when they can be found, and the JSON pointer.
struct SchemaProblem: Error {
    let message: String
    /// `requests/schemas/user.json:3:14 (#/properties/id/type)`, or without the position when the file does
    /// not lead there.
    let location: String
    let suggestion: String?

    /// The problem `error` describes in the schema file `schemaFile`, shown as `displayPath`.
    init(_ error: JSONSchemaError, schemaFile: String, displayPath: String) {
        let file = error.otherFile ?? schemaFile
        let shownFile = error.otherFile.map { Self.displayPath(of: $0, besides: schemaFile, shownAs: displayPath) } ?? displayPath
        let position = error.textPosition ?? FileSystem.read(file).flatMap { bytes in
            JSONTextPosition.of(pointer: Self.tokens(ofFragment: error.schemaPath), in: bytes)
        }
        let notJSON = error.textPosition != nil
        switch (notJSON, error.otherFile) {
        case (true, nil): message = "is \(error.message)"
        case (true, _?): message = "is invalid: '\(shownFile)' is \(error.message)"
        case (false, _): message = "is invalid: \(error.message)"
        }
        location = shownFile + (position.map { ":\($0.line):\($0.column)" } ?? "") + (notJSON ? "" : " (\(error.schemaPath))")
        suggestion = error.suggestion
    }

    /// The unescaped tokens of a JSON pointer fragment `#/a/b~1c`.
    private static func tokens(ofFragment fragment: String) -> [String] {
        guard let hash = fragment.firstIndex(of: "#") else { return [] }
        return fragment[fragment.index(after: hash)...].split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
    }

    /// How to show `path`, a file referenced from the schema file `schemaFile` shown as `shownAs`: in the same
    /// terms (`requests/schemas/common.json` beside `requests/schemas/user.json`).
    private static func displayPath(of path: String, besides schemaFile: String, shownAs: String) -> String {
        var components = (shownAs as NSString).deletingLastPathComponent.split(separator: "/").map(String.init)
        for component in JSONSchemaError.path(of: path, relativeTo: schemaFile).split(separator: "/").map(String.init) {
            if component == "..", let last = components.last, last != ".." { components.removeLast() } else { components.append(component) }
        }
        return components.joined(separator: "/")
    }
}
