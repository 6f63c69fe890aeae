internal import CYAML

/// Builds a `Document` from libyaml events with an explicit stack (no recursion per nesting level).
///
/// Enforces the limits while consuming events, rejects duplicate and non-scalar keys, more than one
/// document, and resolves aliases. The root of an alias copy carries the alias's mark; the nodes inside
/// it keep their marks at the anchor (they are the anchored nodes themselves).
struct TreeBuilder {
    /// A node that an anchor names, with its size in nodes and its nesting height, computed once.
    private struct Anchored {
        var index: Int
        var size: Int
        var height: Int
    }

    /// A mapping or sequence whose end event has not arrived yet.
    private struct Frame {
        let isMapping: Bool
        let mark: Mark
        let anchor: String?
        /// Where this collection's children start in `pending`.
        let firstChild: Int
        /// Key value to pair index, built once a mapping grows past `linearKeySearchLimit`.
        var keyIndex: [Scalar.Value: Int]?
        /// The pairs (by position) whose key an earlier pair has: left out of the mapping, which keeps the first.
        var duplicatePairs: [Int] = []
        /// Nodes in this subtree, including alias expansions.
        var size = 1
        /// Collections on the deepest path, this one included.
        var height = 1
    }

    private static let linearKeySearchLimit = 8

    let limits: Limits
    private var stack: [Frame] = []
    private var records: [Document.Record] = []
    private var children: [Int32] = []
    private var scalars = ScalarTable()
    /// The children of the open collections, innermost last; moved to `children` when a collection ends.
    private var pending: [Int32] = []
    private var anchors: [String: Anchored] = [:]
    private var aliasExpansion = 0
    private var nodeCount = 0
    private var documentCount = 0
    private var rootIndex: Int?

    init(limits: Limits) {
        self.limits = limits
        // Room for a small request file's nodes and nesting; each array stays under 1 KiB (30 records of 32 bytes,
        // 8 frames), which glibc serves from its per-thread cache (larger requests make it consolidate its free lists).
        stack.reserveCapacity(8)
        records.reserveCapacity(30)
        children.reserveCapacity(32)
        scalars.reserveCapacity(24)
        pending.reserveCapacity(16)
    }

    /// The duplicate keys found so far, in the order they stand: the parse goes on after one, so that each is reported.
    private(set) var duplicates: [YAMLError] = []

    /// The error that ends the parse: the first duplicate key with the others and `error` after it, or `error` alone.
    func failure(_ error: YAMLError?) -> YAMLError? {
        guard var first = duplicates.first else { return error }
        first.more = Array(duplicates.dropFirst()) + (error.map { [$0] } ?? [])
        return first
    }

    /// The document's root node, once its events are consumed.
    var root: Node? {
        rootIndex.map { Node(Document(records: records, children: children, scalars: scalars), $0) }
    }

    /// Consumes one event; returns true at the end of the stream.
    mutating func consume(_ event: yaml_event_t) throws(YAMLError) -> Bool {
        let mark = SyntaxErrors.mark(of: event.start_mark)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                throw Self.secondDocument(at: mark)
            }
        case YAML_SCALAR_EVENT:
            try countNodes(1, at: mark)
            try appendScalar(of: event, at: mark)
            let index = append(Document.Record(kind: .scalar, mark: mark, start: scalars.count - 1, count: 0))
            try complete(index, size: 1, height: 0, anchor: Self.string(event.data.scalar.anchor))
        case YAML_ALIAS_EVENT:
            try expandAlias(named: Self.string(event.data.alias.anchor) ?? "", at: mark)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            try open(isMapping: false, tag: Self.string(data.tag), anchor: Self.string(data.anchor), at: mark)
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            try open(isMapping: true, tag: Self.string(data.tag), anchor: Self.string(data.anchor), at: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = stack.removeLast()
            let start = children.count
            if frame.duplicatePairs.isEmpty {
                children.append(contentsOf: pending[frame.firstChild...])
            } else {
                for key in stride(from: frame.firstChild, to: pending.count, by: 2)
                where !frame.duplicatePairs.contains((key - frame.firstChild) / 2) {
                    children.append(contentsOf: pending[key...key + 1])
                }
            }
            let count = children.count - start
            pending.removeSubrange(frame.firstChild...)
            let index = append(Document.Record(kind: frame.isMapping ? .mapping : .sequence, mark: frame.mark, start: start,
                                               count: frame.isMapping ? count / 2 : count))
            try complete(index, size: frame.size, height: frame.height, anchor: frame.anchor)
        default:
            break
        }
        return false
    }

    /// Adds a node's record and returns its index.
    private mutating func append(_ record: Document.Record) -> Int {
        records.append(record)
        return records.count - 1
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// Stores a scalar event's text, style, value and tag.
    private mutating func appendScalar(of event: yaml_event_t, at mark: Mark) throws(YAMLError) {
        let data = event.data.scalar
        guard data.length <= limits.maxScalarBytes else {
            throw YAMLError(.tooLarge, "this value has \(data.length) bytes, more than the limit of \(limits.maxScalarBytes) bytes",
                            at: mark, suggestion: "put long text in a file and send it with `file:`")
        }
        let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
        let text = String(decoding: bytes, as: UTF8.self)
        let style: Scalar.Style
        switch data.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        let tag = Self.string(data.tag)
        let value: ScalarResolver.Resolved
        if let tag {
            guard let tagged = ScalarResolver.taggedValue(bytes, text: text, tag: tag) else {
                throw YAMLError(.tagMismatch, "\"\(text)\" is not a valid value for tag \(ScalarResolver.shortName(ofTag: tag))",
                                at: mark, suggestion: "correct the value or remove the tag")
            }
            value = tagged
        } else if style == .plain {
            value = ScalarResolver.implicitValue(bytes, text: text)
        } else {
            value = .string
        }
        scalars.append(text: text, style: style, value: value, tag: tag)
    }

    private static func kindName(isMapping: Bool) -> String {
        isMapping ? "mapping" : "list"
    }

    private mutating func open(isMapping: Bool, tag: String?, anchor: String?, at mark: Mark) throws(YAMLError) {
        if stack.count >= limits.maxDepth {
            throw tooDeep(at: mark)
        }
        try countNodes(1, at: mark)
        if let top = stack.last, top.isMapping, (pending.count - top.firstChild).isMultiple(of: 2) {
            throw nonScalarKey(kindName: Self.kindName(isMapping: isMapping), at: mark)
        }
        if let tag, !ScalarResolver.collectionAccepts(tag: tag, isMapping: isMapping) {
            throw YAMLError(.tagMismatch, "tag \(ScalarResolver.shortName(ofTag: tag)) cannot be used on a \(Self.kindName(isMapping: isMapping))",
                            at: mark, suggestion: "remove the tag")
        }
        stack.append(Frame(isMapping: isMapping, mark: mark, anchor: anchor, firstChild: pending.count))
    }

    private mutating func expandAlias(named name: String, at mark: Mark) throws(YAMLError) {
        guard let anchored = anchors[name] else {
            throw YAMLError(.undefinedAlias, "undefined alias *\(name)", at: mark,
                            suggestion: "define the anchor &\(name) before this alias, outside the node that uses it")
        }
        aliasExpansion += anchored.size
        if aliasExpansion > limits.maxAliasExpansion {
            throw YAMLError(.aliasBudgetExceeded,
                            "aliases expand to more than \(limits.maxAliasExpansion) nodes",
                            at: mark, suggestion: "use fewer aliases; nested aliases multiply the size of the document")
        }
        if stack.count + anchored.height > limits.maxDepth {
            throw tooDeep(at: mark)
        }
        try countNodes(anchored.size, at: mark)
        let copy = append(records[anchored.index].moved(to: mark))
        try attach(copy, size: anchored.size, height: anchored.height)
    }

    /// Adds nodes about to be built to the document's count, failing at `mark` past `limits.maxNodes`.
    private mutating func countNodes(_ count: Int, at mark: Mark) throws(YAMLError) {
        nodeCount += count
        if nodeCount > limits.maxNodes {
            throw YAMLError(.tooLarge, "the document has more than \(limits.maxNodes) nodes", at: mark,
                            suggestion: "split it into several files, or put a large body in a file and send it with `file:`")
        }
    }

    private mutating func complete(_ index: Int, size: Int, height: Int, anchor: String?) throws(YAMLError) {
        if let anchor {
            anchors[anchor] = Anchored(index: index, size: size, height: height)
        }
        try attach(index, size: size, height: height)
    }

    /// Adds a finished node to the collection being built, or makes it the root.
    private mutating func attach(_ index: Int, size: Int, height: Int) throws(YAMLError) {
        guard !stack.isEmpty else {
            rootIndex = index
            return
        }
        let top = stack.count - 1
        stack[top].size += size
        stack[top].height = max(stack[top].height, height + 1)
        if stack[top].isMapping, (pending.count - stack[top].firstChild).isMultiple(of: 2) {
            let record = records[index]
            guard record.kind == .scalar else {
                throw nonScalarKey(kindName: Self.kindName(isMapping: record.kind == .mapping), at: record.mark)
            }
            checkDuplicate(scalarAt: record.start, at: record.mark, inFrame: top)
        }
        pending.append(Int32(index))
    }

    /// Records as an error a key (the scalar at `scalarIndex`) whose value an earlier key of the mapping has.
    private mutating func checkDuplicate(scalarAt scalarIndex: Int, at mark: Mark, inFrame top: Int) {
        let first = stack[top].firstChild
        let count = (pending.count - first) / 2
        func keyScalar(_ position: Int) -> Int {
            records[Int(pending[first + 2 * position])].start
        }
        func keyValue(_ position: Int) -> Scalar.Value {
            scalars.value(at: keyScalar(position))
        }
        var firstIndex: Int?
        if count < Self.linearKeySearchLimit {
            firstIndex = (0..<count).first { scalars.sameValue(at: keyScalar($0), scalarIndex) }
        } else {
            if stack[top].keyIndex == nil {
                var index: [Scalar.Value: Int] = [:]
                // The first of equal keys is the one kept: a later one is a duplicate of it.
                for position in (0..<count).reversed() { index[keyValue(position)] = position }
                stack[top].keyIndex = index
            }
            let value = scalars.value(at: scalarIndex)
            firstIndex = stack[top].keyIndex?[value]
            if firstIndex == nil { stack[top].keyIndex?[value] = count }
        }
        if let firstIndex {
            stack[top].duplicatePairs.append(count)
            let firstLine = records[Int(pending[first + 2 * firstIndex])].line
            duplicates.append(YAMLError(.duplicateKey, "duplicate key \"\(scalars.texts[scalarIndex])\" (first defined on line \(firstLine))",
                                        at: mark, suggestion: "remove one of the two entries or rename this key"))
        }
    }

    /// The error for a second document in the input, which libyaml may also report after a `...` line.
    static func secondDocument(at mark: Mark) -> YAMLError {
        YAMLError(.multipleDocuments, "a file holds one document, but a second document starts here",
                  at: mark, suggestion: "remove the '---' or '...' line, or split the documents into separate files")
    }

    private func tooDeep(at mark: Mark) -> YAMLError {
        YAMLError(.tooDeep, "nesting is deeper than the limit of \(limits.maxDepth) levels", at: mark,
                  suggestion: "flatten the structure")
    }

    private func nonScalarKey(kindName: String, at mark: Mark) -> YAMLError {
        YAMLError(.nonScalarKey, "a \(kindName) cannot be used as a mapping key", at: mark,
                  suggestion: "use a string, number or boolean as the key")
    }
}
