import Foundation

/// Checks of a PEM file named as a bundle of trusted certificates (`caCert`, `--cacert`, `SSL_CERT_FILE`).
public enum CertificateFile {
    /// Why a file cannot serve as a certificate bundle, and for a damaged certificate how to fix it.
    public struct Problem: Sendable, Hashable {
        /// What follows "the file 'PATH' ", such as "does not exist".
        public var message: String
        /// The fix for a problem with the file's content; nil when the file itself is missing or unreadable.
        public var fix: String?
    }

    /// Why the file at `absolutePath` cannot serve as a PEM certificate bundle (it is missing, unreadable, holds
    /// no `CERTIFICATE` block, or one of its certificates is not a complete X.509 certificate), nil when it can.
    /// Every certificate is parsed, so that a damaged one is found before anything is sent.
    public static func check(at absolutePath: String) -> Problem? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath, isDirectory: &isDirectory) else {
            return Problem(message: "does not exist")
        }
        guard !isDirectory.boolValue else { return Problem(message: "is a directory") }
        guard let data = FileManager.default.contents(atPath: absolutePath) else { return Problem(message: "cannot be read") }
        let blocks = String(data: data, encoding: .utf8).map(certificateBlocks) ?? []
        guard !blocks.isEmpty else {
            return Problem(message: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                           fix: "name a PEM file of CA certificates, each between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----")
        }
        guard let damaged = blocks.firstIndex(where: { $0.map { !isCertificate($0) } ?? true }) else { return nil }
        let which = blocks.count == 1 ? "its certificate" : "the \(ordinal(damaged + 1)) certificate (of \(blocks.count))"
        return Problem(message: "cannot be used: \(which) is not a complete X.509 certificate (it is truncated or damaged)",
                       fix: "copy the certificate again from its source, whole, or remove it from the file")
    }

    /// `check(at:)` as one line: the problem and its fix.
    public static func problem(at absolutePath: String) -> String? {
        check(at: absolutePath).map { problem in problem.message + (problem.fix.map { "; \($0)" } ?? "") }
    }

    /// The bytes of each `CERTIFICATE` block of `text` in order, nil for a block that is not base64 or has no end.
    private static func certificateBlocks(_ text: String) -> [[UInt8]?] {
        var blocks: [[UInt8]?] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----") {
            guard let end = rest[begin.upperBound...].range(of: "-----END CERTIFICATE-----") else {
                blocks.append(nil)
                break
            }
            let body = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            blocks.append(Data(base64Encoded: String(body)).flatMap { $0.isEmpty ? nil : [UInt8]($0) })
            rest = rest[end.upperBound...]
        }
        return blocks
    }

    /// Whether `der` is one complete X.509 certificate in DER: a SEQUENCE that fills the bytes exactly, of the signed
    /// part (a SEQUENCE), the algorithm (a SEQUENCE) and the signature (a BIT STRING), every nested element fitting
    /// inside its parent.
    static func isCertificate(_ der: [UInt8]) -> Bool {
        guard let certificate = DERElement(der, at: 0, limit: der.count), certificate.tag == 0x30,
              certificate.end == der.count, let parts = certificate.children(in: der)
        else { return false }
        return parts.map(\.tag) == [0x30, 0x30, 0x03] && parts[0].isWellFormed(in: der, depth: 0)
    }

    /// "1st", "2nd", "3rd", "4th", "11th", "22nd".
    static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][number % 10]
        return "\(number)\(suffix)"
    }
}

/// One DER element: its tag and where its content lies in the bytes.
private struct DERElement {
    var tag: UInt8
    var contentStart: Int
    var end: Int

    /// The element starting at `offset`, nil unless its header and content fit before `limit` (DER: definite
    /// lengths in their shortest form, one-byte tags).
    init?(_ bytes: [UInt8], at offset: Int, limit: Int) {
        guard offset + 2 <= limit, bytes[offset] & 0x1F != 0x1F else { return nil }
        tag = bytes[offset]
        let first = Int(bytes[offset + 1])
        var length = first
        var start = offset + 2
        if first >= 0x80 {
            let count = first & 0x7F
            guard (1...4).contains(count), start + count <= limit else { return nil }
            length = bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard limit - start >= length else { return nil }
        contentStart = start
        end = start + length
    }

    /// The elements its content is made of, nil unless they fill it exactly.
    func children(in bytes: [UInt8]) -> [DERElement]? {
        var children: [DERElement] = []
        var offset = contentStart
        while offset < end {
            guard let child = DERElement(bytes, at: offset, limit: end) else { return nil }
            children.append(child)
            offset = child.end
        }
        return children
    }

    /// Whether, when constructed, its content is elements that fill it exactly, and theirs in turn.
    func isWellFormed(in bytes: [UInt8], depth: Int) -> Bool {
        guard tag & 0x20 != 0 else { return true }
        guard depth < 64, let children = children(in: bytes) else { return false }
        return children.allSatisfy { $0.isWellFormed(in: bytes, depth: depth + 1) }
    }
}
