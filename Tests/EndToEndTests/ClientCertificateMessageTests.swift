import Foundation
import SelfSignedCertificate
import TestSupport
import Testing

/// Both unusable files of a `clientCert` are reported, not only the first.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: opensslPath), "the encrypted key is made with the openssl command"))
struct ClientCertificateMessageTests {
    typealias Folder = ClientCertificateScenarioTests.Folder

    @Test(arguments: ["run", "validate"])
    func bothUnusableFilesOfAClientCertAreReported(command: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data("request: { url: /echo }\noptions:\n  clientCert:\n    cert: ../certs/missing.pem\n    key: ../certs/ca.pem\n".utf8)
            .write(to: folder.url.appendingPathComponent("invalid/both.yaml"))
        let (result, received) = try await folder.run([command, "invalid/both.yaml", "--env", "local"])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("invalid/both.yaml:4:11: error: 'options.clientCert.cert': the file '../certs/missing.pem' does not exist"),
                "\(result.stderr)")
        #expect(result.stderr.contains("invalid/both.yaml:5:10: error: 'options.clientCert.key': the file '../certs/ca.pem' holds no PEM private key"),
                "\(result.stderr)")
        #expect(result.stderr.contains("error: 2 problems in 1 file"), "\(result.stderr)")
        #expect(received.isEmpty)
    }

    /// One file named for both (a combined PEM) that holds no key: the error is at `key`, once, not at `cert`.
    @Test func aCombinedFileWithoutAKeyIsReportedAtKey() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data("request: { url: /echo }\noptions:\n  clientCert:\n    cert: ../certs/ca.pem\n    key: ../certs/ca.pem\n".utf8)
            .write(to: folder.url.appendingPathComponent("invalid/combined.yaml"))
        let (result, received) = try await folder.run(["validate", "invalid/combined.yaml", "--env", "local"])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("invalid/combined.yaml:5:10: error: 'options.clientCert.key': the file '../certs/ca.pem' holds no PEM private key"),
                "\(result.stderr)")
        #expect(result.stderr.contains("error: 1 problem in 1 file"), "\(result.stderr)")
        #expect(received.isEmpty)
    }
}
