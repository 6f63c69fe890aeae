internal import CYAML

/// Parses YAML text into a node tree.
public enum YAMLParser {
    /// Parses one document; returns nil for an empty input (no document, or only comments).
    public static func parse(_ bytes: [UInt8], limits: Limits = .default) throws(YAMLError) -> Node? {
        // Implemented by the YAML work (see Sources/YAML).
        throw YAMLError(.syntax, "not implemented", at: Mark(line: 1, column: 1))
    }
}
