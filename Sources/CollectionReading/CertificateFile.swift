import CollectionFormat
import Foundation
import SwiftASN1

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
            return Problem(message: FileSystem.missingReason(absolutePath))
        }
        guard !isDirectory.boolValue else { return Problem(message: "is a directory") }
        // Read as any file is (Foundation reads no device such as /dev/null), up to a size no bundle reaches.
        guard case .bytes(let data)? = FileSystem.contents(of: absolutePath, limit: 64 << 20)?.contents else {
            return Problem(message: "cannot be read")
        }
        let blocks = certificateBlocks(data)
        guard !blocks.isEmpty else {
            return Problem(message: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                           fix: "name a PEM file of CA certificates, each between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----")
        }
        guard let damaged = blocks.firstIndex(where: { $0.map { !isCertificate($0) } ?? true }) else { return nil }
        let which = blocks.count == 1 ? "its certificate" : "the \(ordinal(damaged + 1)) certificate (of \(blocks.count))"
        return Problem(message: "cannot be used: \(which) is not a complete X.509 certificate (it is truncated or damaged)",
                       fix: "copy the certificate again from its source, whole, or remove it from the file")
    }

    /// The error at an `options.caCert` (written in the file `path`) whose file cannot serve as a certificate bundle; nil when it can.
    static func diagnostic(for reference: FileReference, in path: String) -> Diagnostic? {
        check(at: reference.absolutePath).map { problem in
            .error("'options.caCert': the file '\(reference.written)' \(problem.message) (looked for '\(reference.path)')", path: path,
                   at: reference.mark, suggestion: problem.fix ?? "paths are relative to the file that names them")
        }
    }

    /// `check(at:)` as one line: the problem and its fix.
    public static func problem(at absolutePath: String) -> String? {
        check(at: absolutePath).map { problem in problem.message + (problem.fix.map { "; \($0)" } ?? "") }
    }

    /// The bytes of each `CERTIFICATE` block of `pem` in order, nil for a block that is not base64 or has no end.
    /// Works on the bytes: a system bundle of 150 certificates is read in about a millisecond (as a `String`, 30 ms).
    private static func certificateBlocks(_ pem: [UInt8]) -> [[UInt8]?] {
        let begin = Array("-----BEGIN CERTIFICATE-----".utf8), end = Array("-----END CERTIFICATE-----".utf8)
        var blocks: [[UInt8]?] = []
        var rest = pem[...]
        while let opening = range(of: begin, in: rest) {
            guard let closing = range(of: end, in: rest[opening.upperBound...]) else {
                blocks.append(nil)
                break
            }
            let base64 = rest[opening.upperBound..<closing.lowerBound].filter { ![9, 10, 11, 12, 13, 32].contains($0) }
            blocks.append(Data(base64Encoded: Data(base64)).flatMap { $0.isEmpty ? nil : [UInt8]($0) })
            rest = rest[closing.upperBound...]
        }
        return blocks
    }

    /// Where `needle` first occurs in `bytes`, nil when it does not.
    private static func range(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        return (bytes.startIndex...(bytes.endIndex - needle.count)).lazy
            .first { bytes[$0] == first && bytes[$0..<$0 + needle.count].elementsEqual(needle) }
            .map { $0..<$0 + needle.count }
    }

    /// Whether `der` is one complete X.509 certificate in DER: a SEQUENCE of the signed part (a SEQUENCE), the
    /// algorithm (a SEQUENCE) and the signature (a BIT STRING), every element well formed (swift-asn1's DER parser).
    static func isCertificate(_ der: [UInt8]) -> Bool {
        guard let certificate = try? DER.parse(der), certificate.identifier == .sequence,
              case .constructed(let parts) = certificate.content else { return false }
        return parts.map(\.identifier) == [.sequence, .sequence, .bitString]
    }

    /// "1st", "2nd", "3rd", "4th", "11th", "22nd".
    static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][number % 10]
        return "\(number)\(suffix)"
    }
}
