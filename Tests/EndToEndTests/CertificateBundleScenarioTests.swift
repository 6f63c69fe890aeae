import Foundation
import SelfSignedCertificate
import TestSupport
import Testing

/// A CA bundle with a damaged certificate (valid base64 of a truncated certificate) is refused by `validate` and by
/// `run` before anything is sent, naming the file and which certificate.
@Suite struct CertificateBundleScenarioTests {
    /// The test CA's certificate followed by a copy cut short: the PEM block of its first `keeping` DER bytes.
    static func bundleWithATruncatedSecondCertificate(_ authority: TestCertificateAuthority, keeping: Int = 200) throws -> String {
        let body = authority.certificatePEM.components(separatedBy: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        let truncated = der.prefix(keeping).base64EncodedString(options: .lineLength64Characters)
        return authority.certificatePEM + "\n-----BEGIN CERTIFICATE-----\n\(truncated)\n-----END CERTIFICATE-----\n"
    }

    @Test(arguments: [
        ["validate", "requests", "--env", "local"],
        ["run", "requests", "--env", "local"],
        ["run", "plain", "--env", "with-ca"],
    ])
    func aTruncatedCertificateInCACertIsALocatedErrorBeforeSending(arguments: [String]) async throws {
        let folder = try CertificateAuthorityScenarioTests.Folder()
        defer { folder.remove() }
        try Data(Self.bundleWithATruncatedSecondCertificate(folder.authority).utf8).write(to: URL(fileURLWithPath: folder.caPath))
        let (result, received) = try await folder.run(arguments)
        let output = result.stdout + result.stderr
        #expect(result.exitCode == 2, "\(output)")
        #expect(output.contains("error: 'options.caCert': the file '../certs/ca.pem' cannot be used: the 2nd certificate (of 2) "
                                + "is not a complete X.509 certificate"), "\(output)")
        #expect(output.contains("= help: copy the certificate again"), "\(output)")
        #expect(!output.contains("failedToLoadCertificate"), "\(output)")
        #expect(received.isEmpty)
    }

    @Test func aTruncatedCertificateGivenWithCACertFlagStopsTheRun() async throws {
        let folder = try CertificateAuthorityScenarioTests.Folder()
        defer { folder.remove() }
        let bundle = folder.url.appendingPathComponent("certs/bundle.pem")
        try Data(Self.bundleWithATruncatedSecondCertificate(folder.authority, keeping: 40).utf8).write(to: bundle)
        for (arguments, environment) in [
            (["run", "plain", "--env", "local", "--cacert", "certs/bundle.pem"], [String: String]()),
            (["run", "plain", "--env", "local"], ["SSL_CERT_FILE": bundle.path]),
        ] {
            let (result, received) = try await folder.run(arguments, environment: environment)
            #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("cannot be used: the 2nd certificate (of 2) is not a complete X.509 certificate"),
                    "\(result.stderr)")
            #expect(received.isEmpty)
        }
    }
}
