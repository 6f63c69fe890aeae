import HTTPCore
import YAML

/// A file's text parsed into a YAML node, with the text for diagnostics.
package struct SourceDocument {
    package let source: SourceText
    /// nil for an empty document (or after a YAML error other than duplicate keys).
    package let root: Node?
    /// The YAML errors as diagnostics: the duplicate keys (the document is kept, each mapping with the first pair of a
    /// key) and what stopped the parse, if anything did.
    package let diagnostics: [Diagnostic]

    /// A document of `source` with the YAML error, if any, of parsing it.
    package init(source: SourceText, root: Node?, diagnostics: [Diagnostic]) {
        self.source = source
        self.root = root
        self.diagnostics = diagnostics
    }

    /// Parses bytes as one YAML document, its YAML errors becoming diagnostics.
    package static func parse(_ bytes: [UInt8], path: String, limits: Limits = .default) -> SourceDocument {
        // A UTF-8 byte order mark (what some Windows editors write first) is no character of the file: columns of its
        // first line count from after it, as editors count them, and quoted lines leave it out.
        let bytes = WideEncoding.withoutByteOrderMark(bytes)
        let source = SourceText(path: path, text: WideEncoding.displayText(bytes))
        func diagnostics(_ errors: [YAMLError]) -> [Diagnostic] {
            errors.map { error in
                let template = error.kind == .nonScalarKey && source.startsTemplate(before: error.mark)
                return Diagnostic.error(error.message, path: path, at: error.mark, suggestion: template
                    ? "a template written without quotes reads as a YAML mapping ({ { ... } }): write it in quotes, as \"{{ name }}\""
                    : error.suggestion)
            }
        }
        do {
            let parsed = try YAMLParser.parseKeepingDuplicateKeys(bytes, limits: limits)
            return SourceDocument(source: source, root: parsed.root, diagnostics: diagnostics(parsed.duplicateKeys))
        } catch {
            return SourceDocument(source: source, root: nil, diagnostics: diagnostics([error] + error.more))
        }
    }
}

extension SourceText {
    /// Whether `{{` starts one column before `mark` (the inner `{` of an unquoted template, where YAML sees a mapping), or
    /// at it (a template as a key, `{{ x }}: 1` in a `when:`, where YAML sees a mapping key).
    func startsTemplate(before mark: Mark) -> Bool {
        let lines = text.split(separator: "\n", maxSplits: mark.line, omittingEmptySubsequences: false)
        guard mark.column >= 1, mark.line <= lines.count else { return false }
        let line = lines[mark.line - 1]
        return (mark.column >= 2 && line.dropFirst(mark.column - 2).hasPrefix("{{")) || line.dropFirst(mark.column - 1).hasPrefix("{{")
    }
}
