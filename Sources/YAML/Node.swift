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
public struct Node: Sendable {
    /// What the node holds.
    public indirect enum Content: Sendable {
        case scalar(Scalar)
        case mapping([Pair])
        case sequence([Node])
    }

    public var content: Content
    public var mark: Mark

    public init(_ content: Content, mark: Mark) {
        self.content = content
        self.mark = mark
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
        /// An explicit tag that does not fit its node, such as `!!int foo` or `!!str [a]`.
        case tagMismatch
    }

    public var kind: Kind
    public var message: String
    public var mark: Mark
    /// A hint that helps fix it, such as "indent with spaces, not tabs".
    public var suggestion: String?

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
