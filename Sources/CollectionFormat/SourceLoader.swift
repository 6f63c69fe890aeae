import YAML

/// A file read and parsed into a YAML node, with its text for diagnostics.
struct SourceDocument {
    let source: SourceText
    /// nil for an empty document (or after a YAML error).
    let root: Node?
    /// The YAML error, if any, as a diagnostic.
    let diagnostics: [Diagnostic]
    /// Which file was read (nil when the text did not come from a file, or fstat failed): a file reached by two paths
    /// is one file.
    var identity: FileSystem.FileIdentity? = nil
}

/// Reads files and parses YAML, turning YAML errors into diagnostics.
enum SourceLoader {
    /// Reads and parses a file; nil when it cannot be read.
    ///
    /// The size is checked with fstat before reading, so a file over `limits.maxInputBytes` is never loaded;
    /// the read itself stops after the limit in case the file grows in between.
    static func load(path: String, absolutePath: String, limits: Limits = .default) -> SourceDocument? {
        guard let read = FileSystem.contents(of: absolutePath, limit: limits.maxInputBytes) else { return nil }
        var document: SourceDocument
        switch read.contents {
        case .tooLarge(let size):
            let diagnostic = Diagnostic.error("the file has \(size) bytes, more than the limit of \(limits.maxInputBytes) bytes",
                                              path: path, at: nil, suggestion: "split it into smaller files")
            document = SourceDocument(source: SourceText(path: path, text: ""), root: nil, diagnostics: [diagnostic])
        case .bytes(let bytes):
            document = parse(bytes, path: path, limits: limits)
        }
        document.identity = read.identity
        return document
    }

    /// Parses bytes as one YAML document.
    static func parse(_ bytes: [UInt8], path: String, limits: Limits = .default) -> SourceDocument {
        let source = SourceText(path: path, text: String(decoding: bytes, as: UTF8.self))
        do {
            let root = try YAMLParser.parse(bytes, limits: limits)
            return SourceDocument(source: source, root: root, diagnostics: [])
        } catch {
            let diagnostic = Diagnostic.error(error.message, path: path, at: error.mark, suggestion: error.suggestion)
            return SourceDocument(source: source, root: nil, diagnostics: [diagnostic])
        }
    }
}
