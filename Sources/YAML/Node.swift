internal import HTTPCore

/// A position in a YAML source: 1-based line and column (columns count characters).
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: Mark, rhs: Mark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// One node of a parsed YAML document, with the mark where it starts.
///
/// A node is a place in its document: the document keeps every node in a few flat arrays, so parsing
/// a file allocates per array, not per node, and a node is cheap to copy.
public struct Node: Sendable {
    /// What the node holds.
    public enum Content: Sendable {
        case scalar(Scalar)
        case mapping(Pairs)
        case sequence(Items)
    }

    let document: Document
    let index: Int

    init(_ document: Document, _ index: Int) {
        self.document = document
        self.index = index
    }

    /// Where the node starts (for an alias, where the alias is written).
    public var mark: Mark { document.records[index].mark }

    public var content: Content {
        let record = document.records[index]
        switch record.kind {
        case .scalar: return .scalar(document.scalars.scalar(at: record.start))
        case .mapping: return .mapping(pairs(of: record))
        case .sequence: return .sequence(items(of: record))
        }
    }

    /// The pairs of a mapping's record.
    func pairs(of record: Document.Record) -> Pairs {
        Pairs(nodes: Items(document: document, start: record.start, count: 2 * record.count))
    }

    /// The items of a sequence's record.
    func items(of record: Document.Record) -> Items {
        Items(document: document, start: record.start, count: record.count)
    }

    /// A mapping's pairs in source order.
    public struct Pairs: RandomAccessCollection, Sendable {
        /// The keys and values in turn: key, value, key, value.
        let nodes: Items

        public var startIndex: Int { 0 }
        public var endIndex: Int { nodes.count / 2 }

        public subscript(position: Int) -> Pair {
            Pair(key: key(at: position), value: value(at: position))
        }

        /// The key of the pair at `position`.
        public func key(at position: Int) -> Node { nodes[2 * position] }

        /// The value of the pair at `position`.
        public func value(at position: Int) -> Node { nodes[2 * position + 1] }

        /// The text of the key at `position` when it is a scalar, read in place: a decoder looking up its keys
        /// makes no node (and no reference to the document) for each of them.
        public func keyText(at position: Int) -> String? { nodes.scalarText(at: 2 * position) }
    }

    /// A sequence's items in source order.
    public struct Items: RandomAccessCollection, Sendable {
        let document: Document
        let start: Int
        public let count: Int

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }

        public subscript(position: Int) -> Node {
            Node(document, Int(document.children[start + position]))
        }

        /// The text of the item at `position` when it is a scalar, read in place.
        func scalarText(at position: Int) -> String? {
            document.scalarText(ofNode: Int(document.children[start + position]))
        }
    }
}

/// The nodes of one parsed document in flat arrays; `Node` values point into it.
final class Document: Sendable {
    /// What a node is and where its parts are.
    struct Record: Sendable {
        enum Kind: UInt8, Sendable { case scalar, mapping, sequence }

        let kind: Kind
        let line: Int32
        let column: Int32
        /// For a scalar, its index in `scalars`; for a collection, where its children start in `children`.
        let start: Int
        /// For a mapping, its pairs; for a sequence, its items; 0 for a scalar.
        let count: Int

        init(kind: Kind, mark: Mark, start: Int, count: Int) {
            self.init(kind: kind, line: Int32(clamping: mark.line), column: Int32(clamping: mark.column), start: start, count: count)
        }

        init(kind: Kind, line: Int32, column: Int32, start: Int, count: Int) {
            self.kind = kind
            self.line = line
            self.column = column
            self.start = start
            self.count = count
        }

        var mark: Mark { Mark(line: Int(line), column: Int(column)) }

        /// The same node written at another place (an alias).
        func moved(to mark: Mark) -> Record {
            Record(kind: kind, mark: mark, start: start, count: count)
        }
    }

    let records: [Record]
    /// The children of every collection, each collection's together (a mapping's as key, value, key, value).
    let children: [Int32]
    let scalars: ScalarTable

    init(records: [Record], children: [Int32], scalars: ScalarTable) {
        self.records = records
        self.children = children
        self.scalars = scalars
    }

    /// The text of node `index` when it is a scalar, or nil.
    func scalarText(ofNode index: Int) -> String? {
        let record = records[index]
        return record.kind == .scalar ? scalars.texts[record.start] : nil
    }
}

/// The scalars of a document, by index, stored so that a scalar costs one string (its text, which is also its
/// value when the value is a string): building and freeing a document retains and releases nothing more.
struct ScalarTable: Sendable {
    /// What a scalar holds besides its text, with no reference in it.
    struct Facts: Sendable {
        enum Kind: UInt8, Sendable { case null, bool, int, double, string }

        let style: Scalar.Style
        let kind: Kind
        /// A bool's, int's or double's bits; 0 otherwise.
        let bits: UInt64
        /// The scalar's explicit tag, as an index in `tags`, or -1.
        let tag: Int32
    }

    /// The text of each scalar.
    private(set) var texts: [String] = []
    /// The rest of each scalar.
    private(set) var facts: [Facts] = []
    /// The explicit tags of the scalars that have one.
    private(set) var tags: [String] = []

    init() {}

    /// Reserves room for `count` scalars.
    mutating func reserveCapacity(_ count: Int) {
        texts.reserveCapacity(count)
        facts.reserveCapacity(count)
    }

    /// Adds a scalar; its index is the count before.
    mutating func append(text: String, style: Scalar.Style, value: ScalarResolver.Resolved, tag: String?) {
        let kind: Facts.Kind, bits: UInt64
        switch value {
        case .typed(.null): (kind, bits) = (.null, 0)
        case .typed(.bool(let bool)): (kind, bits) = (.bool, bool ? 1 : 0)
        case .typed(.int(let int)): (kind, bits) = (.int, UInt64(bitPattern: Int64(int)))
        case .typed(.double(let double)): (kind, bits) = (.double, double.bitPattern)
        case .typed(.string), .string: (kind, bits) = (.string, 0)
        }
        if let tag { tags.append(tag) }
        facts.append(Facts(style: style, kind: kind, bits: bits, tag: tag == nil ? -1 : Int32(tags.count - 1)))
        texts.append(text)
    }

    var count: Int { texts.count }

    /// The core-schema value of the scalar at `index`.
    func value(at index: Int) -> Scalar.Value {
        let facts = facts[index]
        switch facts.kind {
        case .null: return .null
        case .bool: return .bool(facts.bits != 0)
        case .int: return .int(Int(Int64(bitPattern: facts.bits)))
        case .double: return .double(Double(bitPattern: facts.bits))
        case .string: return .string(texts[index])
        }
    }

    /// The scalar at `index`, whole.
    func scalar(at index: Int) -> Scalar {
        let facts = facts[index]
        return Scalar(text: texts[index], style: facts.style, tag: facts.tag < 0 ? nil : tags[Int(facts.tag)],
                      value: value(at: index))
    }

    /// Whether the scalars at `first` and `second` have equal core-schema values, compared in place.
    func sameValue(at first: Int, _ second: Int) -> Bool {
        let (one, other) = (facts[first], facts[second])
        guard one.kind == other.kind else { return false }
        switch one.kind {
        case .null: return true
        case .bool, .int: return one.bits == other.bits
        case .double: return Double(bitPattern: one.bits) == Double(bitPattern: other.bits)
        // By code points: `é` composed and decomposed are two keys, as JSON reads them (Swift's `==` takes them for one).
        case .string: return texts[first].utf8.elementsEqual(texts[second].utf8)
        }
    }
}

/// A key and its value in a mapping; mappings keep their source order.
public struct Pair: Sendable {
    public var key: Node
    public var value: Node

    public init(key: Node, value: Node) {
        self.key = key
        self.value = value
    }
}

/// A scalar as written, with its style, explicit tag and core-schema value.
public struct Scalar: Sendable, Hashable {
    /// How the scalar was written.
    public enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The value under the YAML 1.2 core schema; only plain scalars are typed, quoted ones are strings.
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)

        /// Strings compare by code points (UTF-8 bytes), as JSON compares them.
        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case let (.bool(a), .bool(b)): a == b
            case let (.int(a), .int(b)): a == b
            case let (.double(a), .double(b)): a == b
            case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .null: hasher.combine(0)
            case .bool(let value): hasher.combine(value)
            case .int(let value): hasher.combine(value)
            case .double(let value): hasher.combine(value)
            case .string(let value): for byte in value.utf8 { hasher.combine(byte) }
            }
        }
    }

    /// The text of the scalar, after unescaping and folding.
    public var text: String
    public var style: Style
    /// An explicit tag such as `!!str`, in its resolved form (`tag:yaml.org,2002:str`), or nil.
    public var tag: String?
    public var value: Value

    public init(text: String, style: Style, tag: String?, value: Value) {
        self.text = text
        self.style = style
        self.tag = tag
        self.value = value
    }
}

/// An error in YAML input, located where libyaml or the tree builder found it.
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        case syntax, duplicateKey, nonScalarKey, multipleDocuments, invalidUTF8,
             tooDeep, aliasBudgetExceeded, tooLarge, undefinedAlias
        /// A raw U+0085, U+2028 or U+2029, which libyaml reads as a line break (YAML 1.1) where YAML 1.2 reads a character.
        case ambiguousLineBreak
        /// An explicit tag that does not fit its node, such as `!!int foo` or `!!str [a]`.
        case tagMismatch
    }

    public var kind: Kind
    public var message: String
    public var mark: Mark
    /// A hint that helps fix it, such as "indent with spaces, not tabs".
    public var suggestion: String?
    /// The errors found in the same input after this one (every duplicate key is reported, and what stopped the parse).
    public var more: [YAMLError] = []

    public init(_ kind: Kind, _ message: String, at mark: Mark, suggestion: String? = nil) {
        self.kind = kind
        self.message = message
        self.mark = mark
        self.suggestion = suggestion
    }

    public var description: String { "\(mark): \(message)" }
}

/// Bounds that make hostile input fail fast.
///
/// The defaults keep the whole path (reading, UTF-8 check, libyaml, tree, decoding, diagnostics) of any
/// rejected file under about 100 ms and 64 MB in a debug build; request files are far smaller.
public struct Limits: Sendable, Hashable {
    /// Deepest nesting of mappings and sequences.
    public var maxDepth: Int
    /// Most nodes that aliases may expand to, in total, per document.
    public var maxAliasExpansion: Int
    /// Largest input in bytes.
    public var maxInputBytes: Int
    /// Most nodes in a document, alias copies included.
    public var maxNodes: Int
    /// Longest scalar, in bytes of its value.
    public var maxScalarBytes: Int

    public init(maxDepth: Int = 256, maxAliasExpansion: Int = 10_000, maxInputBytes: Int = 1 << 20,
                maxNodes: Int = 20_000, maxScalarBytes: Int = 64 << 10) {
        self.maxDepth = maxDepth
        self.maxAliasExpansion = maxAliasExpansion
        self.maxInputBytes = maxInputBytes
        self.maxNodes = maxNodes
        self.maxScalarBytes = maxScalarBytes
    }

    public static let `default` = Limits()
}

extension YAMLError {
    /// The error at the first byte of `buffer` that is not UTF-8 (any text file, not only YAML), or for text in UTF-16 or
    /// UTF-32 (`WideEncoding`); nil when there is none.
    public static func invalidUTF8(in buffer: UnsafeBufferPointer<UInt8>) -> YAMLError? {
        if let (encoding, why) = WideEncoding.guess(buffer) {
            return YAMLError(.invalidUTF8, "the file is not UTF-8 but \(encoding): \(why)", at: Mark(line: 1, column: 1),
                             suggestion: "save the file as UTF-8")
        }
        guard let offset = SourcePosition.firstInvalidUTF8Offset(in: buffer) else { return nil }
        let byte = String(buffer[offset], radix: 16, uppercase: true)
        return YAMLError(.invalidUTF8, "invalid UTF-8 (byte 0x\(byte.count == 1 ? "0" + byte : byte))",
                         at: SourcePosition.mark(ofByteOffset: offset, in: buffer), suggestion: "save the file as UTF-8")
    }

    /// The error at the first raw NEXT LINE (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR (U+2029) of valid
    /// UTF-8 `buffer`; nil when there is none.
    ///
    /// libyaml reads these as line breaks, as YAML 1.1 says, where YAML 1.2 (and every editor's line count) reads them as
    /// characters: one would fold a quoted value (`"p<NEL>q"` is `p q`), end a comment early or break the file, and put
    /// every mark after it a line off. Written as an escape in double quotes, each is the character it names.
    static func ambiguousLineBreak(in buffer: UnsafeBufferPointer<UInt8>) -> YAMLError? {
        guard let (offset, scalar) = SourcePosition.firstYAML11LineBreak(in: buffer) else { return nil }
        let (code, name, escape) = switch scalar {
        case 0x85: ("U+0085", "NEXT LINE", "\\N")
        case 0x2028: ("U+2028", "LINE SEPARATOR", "\\L")
        default: ("U+2029", "PARAGRAPH SEPARATOR", "\\P")
        }
        return YAMLError(.ambiguousLineBreak, "a raw \(code) \(name) here would be read as a line break",
                         at: SourcePosition.mark(ofByteOffset: offset, in: buffer),
                         suggestion: "write it as \(escape) inside double quotes, or remove it")
    }
}

