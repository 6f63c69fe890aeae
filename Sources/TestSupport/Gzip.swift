/// A minimal gzip writer (RFC 1952 around RFC 1951 deflate) without zlib: stored blocks for any data,
/// and fixed-Huffman back-references for long runs of zeros (the decompression-bomb fixture).
enum Gzip {
    /// `bytes` as a gzip member made of stored (uncompressed) deflate blocks.
    static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var deflate: [UInt8] = []
        var blocks = stride(from: 0, to: bytes.count, by: 0xFFFF).map { bytes[$0..<min($0 + 0xFFFF, bytes.count)] }
        if blocks.isEmpty {
            blocks = [[]]
        }
        for (index, block) in blocks.enumerated() {
            deflate.append(index == blocks.count - 1 ? 1 : 0)  // BFINAL, BTYPE 00, padding
            let length = UInt16(block.count)
            deflate += littleEndian(UInt32(length), byteCount: 2) + littleEndian(UInt32(~length), byteCount: 2)
            deflate += block
        }
        return member(deflate: deflate, crc: CRC32.checksum(bytes), size: bytes.count)
    }

    /// `count` zero bytes as a gzip member about 1/150 of that size: one literal, then 258-byte copies.
    /// Cheap for a gigabyte: each copy is 13 bits, so after the first one every 8 copies are the same 13 bytes.
    static func zeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        var remaining = count
        if remaining > 0 {
            bits.writeCode(0x30, length: 8)  // literal 0
            remaining -= 1
        }
        if remaining >= 258 {
            bits.writeCopyOf258()  // 3 + 8 + 13 bits: byte-aligned from here
            remaining -= 258
        }
        var group = BitWriter()
        for _ in 0..<8 {
            group.writeCopyOf258()
        }
        bits.appendAligned(group.bytes, times: remaining / (8 * 258))
        remaining %= 8 * 258
        while remaining >= 258 {
            bits.writeCopyOf258()
            remaining -= 258
        }
        for _ in 0..<remaining {
            bits.writeCode(0x30, length: 8)
        }
        bits.writeCode(0, length: 7)  // end of block
        return member(deflate: bits.bytes, crc: CRC32.checksum(zeros: count), size: count)
    }

    /// Wraps deflate data in the gzip header and the CRC-32/size trailer.
    private static func member(deflate: [UInt8], crc: UInt32, size: Int) -> [UInt8] {
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        return header + deflate + littleEndian(crc, byteCount: 4) + littleEndian(UInt32(truncatingIfNeeded: size), byteCount: 4)
    }

    /// The low `byteCount` bytes of `value`, least significant first.
    private static func littleEndian(_ value: UInt32, byteCount: Int) -> [UInt8] {
        (0..<byteCount).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Packs bits least-significant first into bytes, as deflate requires.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    /// Appends the low `count` bits of `value`, least significant bit first (header fields, extra bits).
    mutating func write(_ value: UInt32, count: Int) {
        for bit in 0..<count {
            if bitCount % 8 == 0 {
                bytes.append(0)
            }
            if value >> bit & 1 == 1 {
                bytes[bytes.count - 1] |= 1 << UInt8(bitCount % 8)
            }
            bitCount += 1
        }
    }

    /// Appends a Huffman code of `length` bits, most significant bit first.
    mutating func writeCode(_ code: UInt32, length: Int) {
        for bit in stride(from: length - 1, through: 0, by: -1) {
            write(code >> bit & 1, count: 1)
        }
    }

    /// Appends a copy of the 258 bytes just written (length symbol 285, distance symbol 0 = 1 byte back).
    mutating func writeCopyOf258() {
        writeCode(0xC5, length: 8)
        writeCode(0, length: 5)
    }

    /// Appends `bytes` `times` times; the writer must be at a byte boundary unless `times` is 0.
    mutating func appendAligned(_ bytes: [UInt8], times: Int) {
        guard times > 0 else { return }
        precondition(bitCount % 8 == 0, "appendAligned needs a byte boundary")
        self.bytes.reserveCapacity(self.bytes.count + bytes.count * times)
        for _ in 0..<times {
            self.bytes += bytes
        }
        bitCount += 8 * bytes.count * times
    }
}

/// The CRC-32 (IEEE 802.3, reflected 0xEDB88320) checksum gzip trailers carry.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in step(crc, byte) }
    }

    /// The checksum of `count` zero bytes in about log2(count) steps: feeding a zero byte is a linear map of
    /// the 32-bit register over GF(2), so `count` zeros are that map's `count`-th power.
    static func checksum(zeros count: Int) -> UInt32 {
        var power = GF2Matrix(columns: (0..<32).map { step(1 << UInt32($0), 0) })
        var result = GF2Matrix.identity
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 {
                result = result.times(power)
            }
            power = power.times(power)
            remaining >>= 1
        }
        return ~result.apply(~0)
    }

    /// Feeds one byte into a running (inverted) CRC.
    private static func step(_ crc: UInt32, _ byte: UInt8) -> UInt32 {
        table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
}

/// A 32×32 matrix over GF(2), stored as its columns: the image of each bit of a 32-bit vector.
private struct GF2Matrix {
    var columns: [UInt32]

    /// The matrix that maps every vector to itself.
    static let identity = GF2Matrix(columns: (0..<32).map { 1 << UInt32($0) })

    /// The image of `vector`: the sum (XOR) of the columns of its set bits.
    func apply(_ vector: UInt32) -> UInt32 {
        (0..<32).reduce(0) { sum, bit in vector >> UInt32(bit) & 1 == 1 ? sum ^ columns[bit] : sum }
    }

    /// The product `self × other`: applies `other` first, then `self`.
    func times(_ other: GF2Matrix) -> GF2Matrix {
        GF2Matrix(columns: other.columns.map(apply))
    }
}
