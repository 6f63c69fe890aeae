import Testing
import YAML

/// Parses text that must hold a document.
func document(_ text: String, limits: Limits = .default) throws -> Node {
    try #require(try YAMLParser.parse(text, limits: limits))
}

/// The error that parsing `bytes` throws, or nil when it parses.
func parseError(_ bytes: [UInt8], limits: Limits = .default) -> YAMLError? {
    do {
        _ = try YAMLParser.parse(bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// The error that parsing `text` throws, or nil when it parses.
func parseError(_ text: String, limits: Limits = .default) -> YAMLError? {
    parseError(Array(text.utf8), limits: limits)
}

/// The value node under a top-level key.
func value(_ key: String, in text: String) throws -> Node {
    try #require(try document(text)[key])
}

extension Mark {
    /// Shorthand for tests: `Mark(3, 5)`.
    init(_ line: Int, _ column: Int) {
        self.init(line: line, column: column)
    }
}

/// Expects parsing `text` to fail with this kind, mark and (when given) message.
func expectError(
    _ text: String, _ kind: YAMLError.Kind, at mark: Mark, _ message: String? = nil,
    limits: Limits = .default, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = parseError(text, limits: limits) else {
        Issue.record("expected \(kind) at \(mark), but it parsed", sourceLocation: sourceLocation)
        return
    }
    #expect(error.kind == kind, sourceLocation: sourceLocation)
    #expect(error.mark == mark, sourceLocation: sourceLocation)
    if let message {
        #expect(error.message == message, sourceLocation: sourceLocation)
    }
}
