internal import CYAML

/// Parses YAML text into a node tree.
///
/// Behaviour shared by every entry point:
/// - Input over `limits.maxInputBytes` fails with `.tooLarge` at 1:1; invalid UTF-8 fails with `.invalidUTF8`
///   at the first bad byte; a raw U+0085, U+2028 or U+2029 (a line break to libyaml, a character to YAML 1.2) fails
///   with `.ambiguousLineBreak` where it stands; an empty or comment-only input returns nil; a second document is an error.
/// - Every node carries the mark of its start (1-based line and column, columns count Unicode scalars).
///   For a node with an anchor or tag, the start is the first property (`&a` or `!!str`).
/// - An alias yields a copy of the anchored node: the copy's root carries the alias's mark, the nodes
///   inside it keep their marks at the anchor. An alias before its anchor (or inside it) is `.undefinedAlias`.
/// - Plain untagged scalars are typed by the YAML 1.2 core schema; integers beyond `Int` become `.double`.
///   `<<` is an ordinary key (no merge).
/// - Nesting deeper than `limits.maxDepth` (aliases included) and alias expansion beyond
///   `limits.maxAliasExpansion` nodes fail as soon as they are seen; so do more than `limits.maxNodes` nodes
///   (alias copies included) and a scalar over `limits.maxScalarBytes`, at the node that crosses the limit.
public enum YAMLParser {
    /// Parses one document; returns nil for an empty input (no document, or only comments).
    public static func parse(_ bytes: [UInt8], limits: Limits = .default) throws(YAMLError) -> Node? {
        try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> Node? in
            try parse(buffer: buffer, limits: limits)
        }
    }

    /// Parses one document from a string; returns nil for an empty input (no document, or only comments).
    public static func parse(_ text: String, limits: Limits = .default) throws(YAMLError) -> Node? {
        var text = text
        // `withUTF8` rethrows untyped errors, so the typed result travels out in a `Result`.
        let result = text.withUTF8 { buffer in
            Result { () throws(YAMLError) -> Node? in try parse(buffer: buffer, limits: limits) }
        }
        return try result.get()
    }

    /// Parses one document from UTF-8 bytes that stay valid for the duration of the call.
    public static func parse(buffer: UnsafeBufferPointer<UInt8>, limits: Limits = .default) throws(YAMLError) -> Node? {
        let parsed = try parseKeepingDuplicateKeys(buffer: buffer, limits: limits)
        if var first = parsed.duplicateKeys.first {
            first.more = Array(parsed.duplicateKeys.dropFirst())
            throw first
        }
        return parsed.root
    }

    /// Parses one document from UTF-8 bytes, a duplicate key not being fatal: the document (each mapping keeping the
    /// first of its pairs with one key) and the duplicate keys' errors, in order, so that a reader can go on and report
    /// the document's other problems with them.
    public static func parseKeepingDuplicateKeys(_ bytes: [UInt8], limits: Limits = .default)
        throws(YAMLError) -> (root: Node?, duplicateKeys: [YAMLError]) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> (root: Node?, duplicateKeys: [YAMLError]) in
            try parseKeepingDuplicateKeys(buffer: buffer, limits: limits)
        }
    }

    /// `parseKeepingDuplicateKeys` over bytes that stay valid for the duration of the call.
    private static func parseKeepingDuplicateKeys(buffer: UnsafeBufferPointer<UInt8>, limits: Limits)
        throws(YAMLError) -> (root: Node?, duplicateKeys: [YAMLError]) {
        guard buffer.count <= limits.maxInputBytes else {
            throw YAMLError(.tooLarge, "the input has \(buffer.count) bytes, more than the limit of \(limits.maxInputBytes) bytes",
                            at: Mark(line: 1, column: 1), suggestion: "split it into smaller files")
        }
        if let error = YAMLError.invalidUTF8(in: buffer) ?? YAMLError.ambiguousLineBreak(in: buffer) { throw error }
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return (nil, []) }

        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw YAMLError(.syntax, "out of memory while parsing YAML", at: Mark(line: 1, column: 1))
        }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_input_string(parser, base, buffer.count)

        var builder = TreeBuilder(limits: limits)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else {
                let error = SyntaxErrors.error(from: parser, source: buffer)
                throw builder.failure(error) ?? error
            }
            defer { yaml_event_delete(&event) }
            let ended: Bool
            do { ended = try builder.consume(event) } catch { throw builder.failure(error) ?? error }
            if ended { return (builder.root, builder.duplicates) }
        }
    }
}

extension YAMLParser {
    /// Valid JSON `bytes` with each raw U+0085, U+2028 and U+2029 (inside a string, the only place JSON has them) written
    /// as its `\uXXXX` escape, which JSON and YAML read alike, where YAML's reader (libyaml, YAML 1.1) would take the raw
    /// one for a line break.
    package static func escapingLineBreaks(inJSON bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer in
            var (result, start) = ([UInt8](), 0)
            while let found = SourcePosition.firstYAML11LineBreak(in: UnsafeBufferPointer(rebasing: buffer[start...])) {
                let hex = String(found.scalar, radix: 16, uppercase: true)
                result += buffer[start..<start + found.offset] + Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                start += found.offset + (found.scalar == 0x85 ? 2 : 3)
            }
            return start == 0 ? bytes : result + buffer[start...]
        }
    }
}
