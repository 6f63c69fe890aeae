internal import Foundation
import HTTPCore

/// Where a subschema is: a schema document and an RFC 6901 JSON pointer in it (escaped tokens, `""` for the root).
struct SchemaLocation: Hashable, Sendable {
    let document: Int
    let pointer: String

    /// The location of member `name` (or element) of the value here.
    func appending(_ token: String) -> SchemaLocation {
        SchemaLocation(document: document, pointer: pointer + "/" + Self.escape(token))
    }

    /// The location of element `index` of the array here.
    func appending(_ index: Int) -> SchemaLocation {
        SchemaLocation(document: document, pointer: pointer + "/" + String(index))
    }

    /// The unescaped tokens of the pointer.
    var tokens: [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { Self.unescape(String($0)) }
    }

    /// A name escaped as a JSON pointer token (`~` as `~0`, `/` as `~1`).
    static func escape(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        return name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A JSON pointer token unescaped.
    static func unescape(_ token: String) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return token }
        return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
}

/// The schema documents of one compilation: the schema itself (document 0) and every document its references
/// reached, loaded from the given documents, the bundled metaschemas or local files, never from the network.
struct SchemaDocuments {
    /// One loaded document.
    struct Document {
        /// The URI it was retrieved by (without fragment).
        let uri: String
        let value: JSONValue
        /// The absolute path when it was read from a file.
        let filePath: String?
    }

    private(set) var list: [Document] = []
    private var indexByURI: [String: Int] = [:]
    let options: JSONSchema.Options

    /// No documents yet; `options` says which may be loaded.
    init(options: JSONSchema.Options) {
        self.options = options
    }

    /// Adds the schema being compiled as document 0.
    mutating func addRoot(_ value: JSONValue, uri: String) -> Int {
        add(Document(uri: uri, value: value, filePath: options.readsLocalFiles ? Self.filePath(of: URIReference(uri)) : nil))
    }

    /// Adds a document; returns its index.
    private mutating func add(_ document: Document) -> Int {
        list.append(document)
        indexByURI[document.uri] = list.count - 1
        return list.count - 1
    }

    /// The document retrieved by `uri` (no fragment), loading it the first time; nil when `uri` names no
    /// document that may be read. Throws when a local file cannot be read or is not JSON.
    mutating func document(retrievedBy uri: String) throws(JSONSchemaError) -> Int? {
        if let known = indexByURI[uri] { return known }
        if let given = options.documents[uri] ?? options.documents[uri + "#"] {
            return add(Document(uri: uri, value: given, filePath: nil))
        }
        if let text = JSONSchemaMetaschemas.texts[uri], let value = try? JSONValue.parse(text) {
            return add(Document(uri: uri, value: value, filePath: nil))
        }
        let reference = URIReference(uri)
        guard options.readsLocalFiles, let path = Self.filePath(of: reference) else { return nil }
        return add(Document(uri: uri, value: try Self.readFile(atPath: path, uri: uri), filePath: path))
    }

    /// How a document is named in schema locations: nothing for the schema itself, a path relative to it
    /// for another local file, the URI otherwise.
    func displayName(of index: Int) -> String {
        guard index != 0 else { return "" }
        let document = list[index]
        if let path = document.filePath, let rootPath = list[0].filePath {
            return Self.relativePath(from: (rootPath as NSString).deletingLastPathComponent, to: path)
        }
        return document.uri
    }

    // MARK: Files

    /// The `file:` URI of an absolute path, percent-encoding what a URI path cannot hold.
    static func fileURI(forPath path: String) -> String {
        var encoded = "file://"
        for byte in path.utf8 {
            if Self.isPathCharacter(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }

    /// Whether a byte stands for itself in a URI path (RFC 3986 unreserved, sub-delims, `:`, `@`, `/`).
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }

    /// The absolute path a `file:` URI names (local host only), nil for other URIs.
    static func filePath(of uri: URIReference) -> String? {
        guard uri.scheme?.lowercased() == "file", uri.authority == nil || uri.authority == "" || uri.authority == "localhost"
        else { return nil }
        return URIReference.percentDecoded(uri.path)
    }

    /// Reads and parses a schema file; `uri` is nil for the schema compiled, whose problems are not "another file".
    static func readFile(atPath path: String, uri: String?) throws(JSONSchemaError) -> JSONValue {
        let other = uri == nil ? nil : path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JSONSchemaError(message: "cannot read the schema file '\(path)'", schemaPath: "#", otherFile: other)
        }
        do {
            // A byte order mark (as some Windows editors write first) is no part of the JSON.
            return try JSONValue.parse(WideEncoding.withoutByteOrderMark(data))
        } catch {
            let yaml = path.hasSuffix(".yaml") || path.hasSuffix(".yml") ? " (schema files are JSON; YAML is not read)" : ""
            throw JSONSchemaError(message: "not valid JSON\(yaml): \(error.message)", schemaPath: "#", otherFile: other,
                                  textPosition: JSONTextPosition(line: error.line, column: error.column),
                                  suggestion: error.fileSuggestion)
        }
    }

    /// `path` relative to the directory `base` (both absolute, `.` and `..` in them read as such): `common.json`,
    /// `../common/id.json`.
    static func relativePath(from base: String, to path: String) -> String {
        let from = components(of: base)
        let to = components(of: path)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...].map(String.init)).joined(separator: "/")
    }

    /// The names of an absolute path's components, with `.` left out and `..` taking away the name before it.
    private static func components(of path: String) -> [Substring] {
        var names: [Substring] = []
        for name in path.split(separator: "/") where name != "." {
            if name == ".." { _ = names.popLast() } else { names.append(name) }
        }
        return names
    }
}
