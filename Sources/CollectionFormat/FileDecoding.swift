/// One file decoded from its bytes: its definitions, every problem found in it, and its text.
public struct DecodedFile<Value: Sendable>: Sendable {
    /// The definitions; nil when the YAML does not parse (and, for an environment, when it has errors).
    public var value: Value?
    /// The problems of this file, in the order found.
    public var diagnostics: [Diagnostic]
    /// The file's text, for rendering diagnostics.
    public var text: String
    /// The credentials the file writes as they are, which every output hides (`WrittenCredentials`).
    public var credentials: [String] = []
}

/// Decodes request and environment files from bytes in memory; `CollectionReader` reads each file and
/// decodes it through the same functions, so this is exactly its per-file path without the file system.
public enum FileDecoding {
    /// Decodes a request file's bytes; `path` is shown in diagnostics, and relative file references
    /// (`file`, multipart files, `schema`) resolve against the directory of `absolutePath`. Nothing is read.
    public static func requestFile(_ bytes: [UInt8], path: String, absolutePath: String,
                                   defaultName: String) -> DecodedFile<RequestFile> {
        requestFile(SourceDocument.parse(bytes, path: path), absolutePath: absolutePath, defaultName: defaultName)
    }

    /// Decodes an environment file's bytes; `name` is the environment's name, `path` is shown in diagnostics.
    public static func environment(_ bytes: [UInt8], path: String, name: String) -> DecodedFile<EnvironmentDefinition> {
        environment(SourceDocument.parse(bytes, path: path), name: name, absolutePath: path)
    }

    /// Decodes a parsed request file; a YAML error that stopped the parse is its only diagnostic, a duplicate key is
    /// reported with the problems of the rest of the file.
    package static func requestFile(_ document: SourceDocument, absolutePath: String,
                            defaultName: String) -> DecodedFile<RequestFile> {
        guard parsed(document) else {
            return DecodedFile(value: nil, diagnostics: document.diagnostics, text: document.source.text)
        }
        var decoder = NodeDecoder(source: document.source)
        let location = FileLocation(displayPath: document.source.path, absolutePath: absolutePath)
        let file = decoder.requestFile(document.root, absolutePath: absolutePath, defaultName: defaultName,
                                       location: location)
        return DecodedFile(value: file, diagnostics: document.diagnostics + decoder.diagnostics.diagnostics,
                           text: document.source.text, credentials: WrittenCredentials.texts(in: document.root))
    }

    /// Decodes a parsed environment file (at `absolutePath`, which the files it names are relative to); no value when
    /// it has errors.
    package static func environment(_ document: SourceDocument, name: String, absolutePath: String) -> DecodedFile<EnvironmentDefinition> {
        environmentForChecking(document, name: name, absolutePath: absolutePath).decoded
    }

    /// `environment(_:name:absolutePath:)`, and beside it the definition to resolve and check when all of the file's
    /// errors are in `options` (what it resolves is whole: its problems are reported with those), else nil.
    package static func environmentForChecking(_ document: SourceDocument, name: String, absolutePath: String)
        -> (decoded: DecodedFile<EnvironmentDefinition>, checkable: EnvironmentDefinition?) {
        guard parsed(document) else {
            return (DecodedFile(value: nil, diagnostics: document.diagnostics, text: document.source.text), nil)
        }
        var decoder = NodeDecoder(source: document.source)
        let (definition, errorsOnlyInOptions) = decoder.environment(document.root, name: name, absolutePath: absolutePath)
        let valid = !decoder.diagnostics.hasErrors && document.diagnostics.isEmpty
        let decoded = DecodedFile(value: valid ? definition : nil, diagnostics: document.diagnostics + decoder.diagnostics.diagnostics,
                                  text: document.source.text, credentials: WrittenCredentials.texts(in: document.root))
        return (decoded, valid || (errorsOnlyInOptions && document.diagnostics.isEmpty) ? definition : nil)
    }

    /// Whether the YAML parse went to the end (without errors, or with duplicate keys only): the document is decoded.
    private static func parsed(_ document: SourceDocument) -> Bool {
        document.diagnostics.isEmpty || document.root != nil
    }
}
