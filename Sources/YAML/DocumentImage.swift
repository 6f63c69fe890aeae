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
    ///
    /// The image is written in place at the end of `bytes`, into room for its largest possible size, which is then
    /// cut to what was written: appending it byte by byte cost more than everything else the check does to a file
    /// but parse and decode it.
    public static func append(_ root: Node, text: String, to bytes: inout [UInt8]) {
        let document = root.document
        let scalars = document.scalars
        // LEB128 takes at most 10 bytes for a 64-bit number; each record is a byte and four numbers, each scalar a
        // byte, two numbers and its text with its length.
        let numberBytes = 10
        var bound = 4 + 6 * numberBytes + text.utf8.count + document.records.count * (1 + 4 * numberBytes)
            + document.children.count * numberBytes + scalars.count * (1 + 3 * numberBytes)
            + scalars.tags.count * numberBytes
        for scalarText in scalars.texts { bound += scalarText.utf8.count }
        for tag in scalars.tags { bound += tag.utf8.count }

        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: bound))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var writer = ImageWriter(UnsafeMutableBufferPointer(rebasing: buffer[start...]))
            writer.bytes(of: magic)
            writer.number(text.utf8.count)
            writer.number(document.records.count)
            writer.number(document.children.count)
            writer.number(scalars.count)
            writer.number(scalars.tags.count)
            writer.number(root.index)
            writer.text(text)
            for record in document.records {
                writer.byte(record.kind.rawValue)
                writer.number(Int(record.line))
                writer.number(Int(record.column))
                writer.number(record.start)
                writer.number(record.count)
            }
            for child in document.children { writer.number(Int(child)) }
            for index in scalars.facts.indices {
                let facts = scalars.facts[index]
                writer.byte(facts.style.code << 4 | facts.kind.rawValue)
                writer.number(facts.bits)
                writer.number(Int(facts.tag) + 1)
                writer.counted(scalars.texts[index])
            }
            for tag in scalars.tags { writer.counted(tag) }
            return writer.offset
        }
        bytes.removeLast(bound - written)
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

/// Writes the fields of an image into room known to be large enough (`append` reserves the largest size).
private struct ImageWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var offset = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func byte(_ byte: UInt8) {
        precondition(offset < buffer.count, "an image outgrew the room reserved for it")
        buffer[offset] = byte
        offset += 1
    }

    /// A number in LEB128: seven bits a byte, low bits first, the high bit set on all bytes but the last.
    mutating func number(_ number: UInt64) {
        var number = number
        while number >= 0x80 {
            byte(UInt8(truncatingIfNeeded: number) | 0x80)
            number >>= 7
        }
        byte(UInt8(number))
    }

    /// A count, index or non-negative field as a number.
    mutating func number(_ number: Int) {
        self.number(UInt64(number))
    }

    /// The bytes of a fixed-size value as they are in memory.
    mutating func bytes<Value>(of value: Value) {
        withUnsafeBytes(of: value) { raw in
            for byte in raw { self.byte(byte) }
        }
    }

    /// A string's UTF-8 bytes.
    mutating func text(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            guard let source = utf8.baseAddress else { return }
            precondition(utf8.count <= buffer.count - offset, "an image outgrew the room reserved for it")
            (buffer.baseAddress! + offset).update(from: source, count: utf8.count)
            offset += utf8.count
        }
    }

    /// A string's UTF-8 byte count and bytes.
    mutating func counted(_ string: String) {
        number(string.utf8.count)
        text(string)
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
