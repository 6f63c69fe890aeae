import CollectionReading
import Foundation
import Testing

/// `CertificateFile.check` on the system's bundle of trusted certificates, as written and changed the ways files are
/// found in the wild: Windows line ends, a comment that is not UTF-8, a last certificate cut short.
struct CertificateFileTests {
    /// The system bundle's bytes, nil (the test is skipped) where the system has none at the usual place.
    static let systemBundle = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]
        .lazy.compactMap { FileManager.default.contents(atPath: $0) }.first

    /// Writes `bytes` to a new temporary file, runs `body` on its path and removes it.
    private func withFile<T>(_ bytes: Data, _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString).pem").path
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// A device that reads as empty holds no certificate; it is not a file that cannot be read.
    @Test func devNullHoldsNoCertificate() {
        #expect(CertificateFile.check(at: "/dev/null")?.message == "holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    }

    @Test(.enabled(if: systemBundle != nil, "no system certificate bundle at /etc/ssl/certs or /etc/pki/tls/certs"))
    func theSystemBundleAsWrittenWithWindowsLineEndsAndAfterALatin1CommentIsAccepted() throws {
        let bundle = try #require(Self.systemBundle)
        #expect(try withFile(bundle) { CertificateFile.check(at: $0) } == nil)
        let crlf = Data(String(decoding: bundle, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(try withFile(crlf) { CertificateFile.check(at: $0) } == nil)
        let latin1Comment = Data("# Zertifikate f".utf8) + Data([0xFC]) + Data("r den Proxy\n".utf8) + bundle
        #expect(try withFile(latin1Comment) { CertificateFile.check(at: $0) } == nil)
    }

    @Test(.enabled(if: systemBundle != nil, "no system certificate bundle at /etc/ssl/certs or /etc/pki/tls/certs"))
    func aBundleWhoseLastCertificateLostItsEndOrItsLastLinesIsRefusedNamingIt() throws {
        let text = String(decoding: try #require(Self.systemBundle), as: UTF8.self)
        let count = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        let lastEnd = try #require(text.range(of: "-----END CERTIFICATE-----", options: .backwards))
        let noEnd = try withFile(Data(text[..<lastEnd.lowerBound].utf8)) { CertificateFile.check(at: $0) }
        #expect(noEnd?.message.hasSuffix("certificate (of \(count)) is not a complete X.509 certificate (it is truncated or damaged)") == true,
                "\(String(describing: noEnd))")
        // Two lines of base64 gone before the end: still base64, no longer a whole certificate.
        var lines = text[..<lastEnd.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast(3)
        let truncated = lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
        #expect(try withFile(Data(truncated.utf8)) { CertificateFile.check(at: $0) }?.message == noEnd?.message)
    }
}
