/// A parsed document and its source text written out as bytes, and read back without parsing the YAML again.
///
/// A run checks every file before sending anything and takes each file up again at its turn; with the images of
/// the checked documents kept in a file rather than in memory, taking a file up again costs one read and these
/// copies instead of reading the file, libyaml and the tree builder. Numbers are written in LEB128 (a small file's
/// image is three or four times its text, well under 1 KiB). The bytes are not a storage format: only the build that wrote
/// them reads them. Reading checks every count and index (children
/// come before their collection, so the nodes cannot form a cycle): damaged bytes give nil, never a node that
/// points outside its document.
public enum DocumentImage {
    /// Marks the start of an image and the version of its layout.
    private static let magic: UInt32 = 0x3149_4452  // "RDI1"

    /// Appends the image of `root`'s document and of the text it was parsed from to `bytes`.
    public static func append(_ root: Node, text: String, to bytes: inout [UInt8]) {
        let document = root.document
        let scalars = document.scalars
        var text = text
        text.withUTF8 { utf8 in
            Swift.withUnsafeBytes(of: magic) { bytes.append(contentsOf: $0) }
            for count in [utf8.count, document.records.count, document.children.count, scalars.count, scalars.tags.count,
                          root.index] {
                bytes.append(number: UInt64(count))
            }
            bytes.append(contentsOf: utf8)
        }
        for record in document.records {
            bytes.append(record.kind.rawValue)
            for number in [Int(record.line), Int(record.column), record.start, record.count] {
                bytes.append(number: UInt64(number))
            }
        }
        for child in document.children { bytes.append(number: UInt64(child)) }
        for (facts, scalarText) in zip(scalars.facts, scalars.texts) {
            bytes.append(facts.style.code << 4 | facts.kind.rawValue)
            bytes.append(number: facts.bits)
            bytes.append(number: UInt64(facts.tag + 1))
            bytes.append(string: scalarText)
        }
        for tag in scalars.tags { bytes.append(string: tag) }
    }

    /// The source text and root node of the document an image holds; nil when the bytes are not one whole image.
    public static func read(_ bytes: UnsafeRawBufferPointer) -> (text: String, root: Node)? {
        var reader = ImageReader(bytes)
        guard reader.magic() == magic,
              let textCount = reader.count(), let recordCount = reader.count(), let childCount = reader.count(),
              let scalarCount = reader.count(), let tagCount = reader.count(), let root = reader.count(),
              root < recordCount, let text = reader.string(byteCount: textCount),
              // Each record, child, scalar and tag takes a byte at least: no count of damaged bytes reserves more.
              recordCount + childCount + scalarCount + tagCount <= bytes.count else { return nil }

        var records: [Document.Record] = []
        records.reserveCapacity(recordCount)
        for _ in 0..<recordCount {
            guard let kind = reader.read(UInt8.self).flatMap(Document.Record.Kind.init(rawValue:)),
                  let line = reader.count().flatMap(Int32.init(exactly:)), let column = reader.count().flatMap(Int32.init(exactly:)),
                  let start = reader.count(), let count = reader.count() else { return nil }
            records.append(Document.Record(kind: kind, line: line, column: column, start: start, count: count))
        }
        var children: [Int32] = []
        children.reserveCapacity(childCount)
        for _ in 0..<childCount {
            guard let child = reader.count().flatMap(Int32.init(exactly:)) else { return nil }
            children.append(child)
        }
        var facts: [ScalarTable.Facts] = [], texts: [String] = [], tags: [String] = []
        facts.reserveCapacity(scalarCount)
        texts.reserveCapacity(scalarCount)
        for _ in 0..<scalarCount {
            guard let codes = reader.read(UInt8.self), let style = Scalar.Style(code: codes >> 4),
                  let kind = ScalarTable.Facts.Kind(rawValue: codes & 0xF),
                  let bits = reader.number(), let tag = reader.count(), tag <= tagCount,
                  let scalarText = reader.count().flatMap({ reader.string(byteCount: $0) }) else { return nil }
            facts.append(ScalarTable.Facts(style: style, kind: kind, bits: bits, tag: Int32(tag) - 1))
            texts.append(scalarText)
        }
        for _ in 0..<tagCount {
            guard let tag = reader.count().flatMap({ reader.string(byteCount: $0) }) else { return nil }
            tags.append(tag)
        }
        guard reader.isAtEnd, isWellFormed(records, children: children, scalarCount: scalarCount) else { return nil }
        let scalars = ScalarTable(texts: texts, facts: facts, tags: tags)
        return (text, Node(Document(records: records, children: children, scalars: scalars), root))
    }

    /// Whether every record points into the arrays and every child comes before its collection.
    private static func isWellFormed(_ records: [Document.Record], children: [Int32], scalarCount: Int) -> Bool {
        records.indices.allSatisfy { index in
            let record = records[index]
            switch record.kind {
            case .scalar:
                return record.start < scalarCount && record.count == 0
            case .mapping, .sequence:
                let count = record.kind == .mapping ? 2 * record.count : record.count
                guard record.start + count <= children.count else { return false }
                return children[record.start..<(record.start + count)].allSatisfy { $0 >= 0 && Int($0) < index }
            }
        }
    }
}

/// Reads the fields of an image in order, failing past its end.
private struct ImageReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    /// The next byte, or nil past the end.
    mutating func read(_: UInt8.Type) -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The image's first four bytes.
    mutating func magic() -> UInt32? {
        guard bytes.count - offset >= 4 else { return nil }
        defer { offset += 4 }
        return bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }

    /// The next LEB128 number, or nil past the end or beyond 64 bits.
    mutating func number() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = read(UInt8.self), shift < 64 {
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// The next count or index: a number that fits in 32 bits.
    mutating func count() -> Int? {
        number().flatMap { $0 <= UInt32.max ? Int($0) : nil }
    }

    /// The next `byteCount` bytes as UTF-8 text, or nil past the end.
    mutating func string(byteCount: Int) -> String? {
        guard bytes.count - offset >= byteCount else { return nil }
        defer { offset += byteCount }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + byteCount)]), as: UTF8.self)
    }
}

private extension [UInt8] {
    /// Appends a number in LEB128: seven bits a byte, low bits first, the high bit set on all bytes but the last.
    mutating func append(number: UInt64) {
        var number = number
        while number >= 0x80 {
            append(UInt8(truncatingIfNeeded: number) | 0x80)
            number >>= 7
        }
        append(UInt8(number))
    }

    /// Appends a string's UTF-8 byte count and bytes.
    mutating func append(string: String) {
        var string = string
        string.withUTF8 { utf8 in
            append(number: UInt64(utf8.count))
            append(contentsOf: utf8)
        }
    }
}

private extension Scalar.Style {
    /// The style's number in an image.
    var code: UInt8 {
        switch self {
        case .plain: 0
        case .singleQuoted: 1
        case .doubleQuoted: 2
        case .literal: 3
        case .folded: 4
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .plain
        case 1: self = .singleQuoted
        case 2: self = .doubleQuoted
        case 3: self = .literal
        case 4: self = .folded
        default: return nil
        }
    }
}
