import YAML

/// A file read and parsed into a YAML node, with its text for diagnostics.
struct SourceDocument {
    let source: SourceText
    /// nil for an empty document (or after a YAML error).
    let root: Node?
    /// The YAML error, if any, as a diagnostic.
    let diagnostics: [Diagnostic]
}

/// Reads files and parses YAML, turning YAML errors into diagnostics.
enum SourceLoader {
    /// Reads and parses a file; nil when it cannot be read.
    static func load(path: String, absolutePath: String) -> SourceDocument? {
        guard let bytes = FileSystem.read(absolutePath) else { return nil }
        return parse(bytes, path: path)
    }

    /// Parses bytes as one YAML document.
    static func parse(_ bytes: [UInt8], path: String) -> SourceDocument {
        let source = SourceText(path: path, text: String(decoding: bytes, as: UTF8.self))
        do {
            let root = try YAMLParser.parse(bytes)
            return SourceDocument(source: source, root: root, diagnostics: [])
        } catch {
            let diagnostic = Diagnostic.error(error.message, path: path, at: error.mark, suggestion: error.suggestion)
            return SourceDocument(source: source, root: nil, diagnostics: [diagnostic])
        }
    }
}
