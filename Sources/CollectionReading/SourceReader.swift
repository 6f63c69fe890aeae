import CollectionFormat
import YAML

/// A file read and parsed, and which file it is.
struct ReadDocument {
    let document: SourceDocument
    /// Which file was read (nil when fstat failed): a file reached by two paths is one file.
    let identity: FileSystem.FileIdentity?
}

/// Reads files and parses them as YAML, turning YAML errors into diagnostics.
enum SourceReader {
    /// Reads and parses a file; nil when it cannot be read.
    ///
    /// The size is checked with fstat before reading, so a file over `limits.maxInputBytes` is never loaded;
    /// the read itself stops after the limit in case the file grows in between.
    static func read(path: String, absolutePath: String, limits: Limits = .default) -> ReadDocument? {
        guard let read = FileSystem.contents(of: absolutePath, limit: limits.maxInputBytes) else { return nil }
        switch read.contents {
        case .tooLarge(let size):
            let diagnostic = Diagnostic.error("the file has \(size) bytes, more than the limit of \(limits.maxInputBytes) bytes",
                                              path: path, at: nil, suggestion: "split it into smaller files")
            let document = SourceDocument(source: SourceText(path: path, text: ""), root: nil, diagnostics: [diagnostic])
            return ReadDocument(document: document, identity: read.identity)
        case .bytes(let bytes):
            return ReadDocument(document: SourceDocument.parse(bytes, path: path, limits: limits), identity: read.identity)
        }
    }
}
