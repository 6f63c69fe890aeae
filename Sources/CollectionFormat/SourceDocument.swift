import YAML

/// A file's text parsed into a YAML node, with the text for diagnostics.
package struct SourceDocument {
    package let source: SourceText
    /// nil for an empty document (or after a YAML error).
    package let root: Node?
    /// The YAML error, if any, as a diagnostic.
    package let diagnostics: [Diagnostic]

    /// A document of `source` with the YAML error, if any, of parsing it.
    package init(source: SourceText, root: Node?, diagnostics: [Diagnostic]) {
        self.source = source
        self.root = root
        self.diagnostics = diagnostics
    }

    /// Parses bytes as one YAML document, a YAML error becoming its diagnostic.
    package static func parse(_ bytes: [UInt8], path: String, limits: Limits = .default) -> SourceDocument {
        let source = SourceText(path: path, text: String(decoding: bytes, as: UTF8.self))
        do {
            let root = try YAMLParser.parse(bytes, limits: limits)
            return SourceDocument(source: source, root: root, diagnostics: [])
        } catch {
            let diagnostics = ([error] + error.more).map { Diagnostic.error($0.message, path: path, at: $0.mark, suggestion: $0.suggestion) }
            return SourceDocument(source: source, root: nil, diagnostics: diagnostics)
        }
    }
}
