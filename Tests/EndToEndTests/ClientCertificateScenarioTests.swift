import Foundation
import SelfSignedCertificate
import TestSupport
import Testing

/// The openssl command, which encrypts a test key.
let opensslPath = "/usr/bin/openssl"

/// `runner run` against an HTTPS server that requires a client certificate its test CA issued (mutual TLS).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: opensslPath), "the encrypted key is made with the openssl command"))
struct ClientCertificateScenarioTests {
    static let keyPassword = "correct horse"

    /// The `client-cert` scenario copied to a temporary folder, with `certs/` written: the CA's certificate, a client
    /// certificate and its key (plain and encrypted with `keyPassword`), and an unrelated key.
    struct Folder {
        let url: URL
        let authority: TestCertificateAuthority

        init() throws {
            authority = try TestCertificateAuthority.generate()
            url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-client-cert-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: ScenarioRun.folder("client-cert"), to: url)
            let certs = url.appendingPathComponent("certs")
            try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
            let client = try authority.issueClientIdentity()
            try Data(authority.certificatePEM.utf8).write(to: certs.appendingPathComponent("ca.pem"))
            try Data(client.certificatePEM.utf8).write(to: certs.appendingPathComponent("client.pem"))
            try Data(client.privateKeyPEM.utf8).write(to: certs.appendingPathComponent("client-key.pem"))
            try Data(authority.issueClientIdentity().privateKeyPEM.utf8).write(to: certs.appendingPathComponent("other-key.pem"))
            // Issued by an authority the server does not know, and by one of the same name with another key.
            let untrusted = try TestCertificateAuthority.generate(commonName: "another CA").issueClientIdentity()
            try Data(untrusted.certificatePEM.utf8).write(to: certs.appendingPathComponent("untrusted.pem"))
            try Data(untrusted.privateKeyPEM.utf8).write(to: certs.appendingPathComponent("untrusted-key.pem"))
            let namesake = try TestCertificateAuthority.generate().issueClientIdentity()
            try Data(namesake.certificatePEM.utf8).write(to: certs.appendingPathComponent("namesake.pem"))
            try Data(namesake.privateKeyPEM.utf8).write(to: certs.appendingPathComponent("namesake-key.pem"))
            let encrypt = Process()
            encrypt.executableURL = URL(fileURLWithPath: opensslPath)
            encrypt.arguments = ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", certs.appendingPathComponent("client-key.pem").path,
                                 "-out", certs.appendingPathComponent("client-key-encrypted.pem").path,
                                 "-passout", "pass:\(ClientCertificateScenarioTests.keyPassword)"]
            try encrypt.run()
            encrypt.waitUntilExit()
        }

        /// Runs `runner` in the folder against a server requiring a client certificate of the CA (and a plain one).
        func run(_ arguments: [String], upToTLS12: Bool = false) async throws -> (result: RunnerProcess.Result, received: [RecordedRequest]) {
            try await ScenarioRun.run(arguments, in: url, tls: .requiringClientCertificate(
                authority.issueServerIdentity(), authorityPEM: authority.certificatePEM, upToTLS12: upToTLS12))
        }

        /// Runs the requests of `folder` (the scenario's folder of that name) against the server, which refuses the
        /// handshake: the request errors saying `message`, and the server receives nothing. What was printed.
        @discardableResult
        func runRefused(_ folder: String, upToTLS12: Bool = false, saying message: String,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let (result, received) = try await run(["run", folder, "--env", "local"], upToTLS12: upToTLS12)
            #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stdout.contains(message), "\(result.stdout)", sourceLocation: sourceLocation)
            #expect(received.isEmpty, sourceLocation: sourceLocation)
            return result.stdout
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test(arguments: [
        ["run", "requests", "--env", "local"],
        ["run", "plain", "--env", "with-client"],
        ["run", "encrypted", "--env", "local", "--var", "keyPassword=\(keyPassword)"],
    ])
    func theClientCertificateOpensTheServer(arguments: [String]) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(arguments)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("PASS   get  GET https://localhost:"), "\(result.stdout)")
        #expect(received.map(\.uri) == ["/echo"])
        #expect(!result.stdout.contains(Self.keyPassword) && !result.stderr.contains(Self.keyPassword))
    }

    @Test func withoutOneTheHandshakeFailsAndNothingIsReceived() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        // The TLS alert "certificate required" is told in words, with the option that gives one.
        let stdout = try await folder.runRefused("plain", saying: "requires a client certificate (TLS alert: certificate required); "
                                                     + "give one with `options.clientCert`")
        #expect(stdout.contains("ERROR  get  GET https://localhost:") && !stdout.contains("ALERT_CERTIFICATE_REQUIRED"), "\(stdout)")
    }

    /// TLS 1.2 has no "certificate required" alert: a server without a certificate it requires says "handshake failure",
    /// which the message explains, the client certificate first.
    @Test func withoutOneOverTLS12TheHandshakeFailureNamesTheClientCertificate() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try await folder.runRefused("plain", upToTLS12: true, saying: "refused the TLS handshake (TLS alert: handshake failure): a "
                                        + "server says so when it requires a client certificate and was given none")
    }

    /// A client certificate the server does not trust: its alert ("unknown CA", over TLS 1.2 and 1.3) is said to be
    /// about the client certificate, not the server's (trial helper-91).
    @Test(arguments: [false, true])
    func anUntrustedClientCertificateIsSaidToBeRefused(upToTLS12: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try await folder.runRefused("untrusted", upToTLS12: upToTLS12, saying: "did not accept the client certificate (TLS alert: "
                                        + "unknown CA): it does not trust the authority that issued it")
        // An authority of the name the server trusts, with another key: its signature does not verify.
        try await folder.runRefused("namesake", upToTLS12: upToTLS12, saying: "did not accept the client certificate (TLS alert: decrypt error)")
    }

    @Test func aClientCertificateOverPlainHTTPChangesNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "plain", "--env", "http"])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.map(\.uri) == ["/echo"])
    }

    @Test(arguments: ["run", "validate"])
    func unusableFilesAreLocatedErrorsAndNothingIsSent(command: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run([command, "invalid", "--env", "local"])
        let output = result.stdout + result.stderr
        #expect(result.exitCode == 2, "\(output)")
        for expected in [
            "invalid/missing-key.yaml:5:10: error: 'options.clientCert.key': the file '../certs/missing-key.pem' does not exist",
            "invalid/other-key.yaml:5:10: error: 'options.clientCert.key': the file '../certs/other-key.pem' does not belong to the certificate",
            "invalid/no-password.yaml:5:10: error: 'options.clientCert.key': the file '../certs/client-key-encrypted.pem' is encrypted and no password is given",
        ] {
            #expect(output.contains(expected), "\(expected)\n\(output)")
        }
        #expect(received.isEmpty)
    }

    @Test func aWrongPasswordIsALocatedError() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "encrypted", "--env", "local", "--var", "keyPassword=wrong"])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(
            "encrypted/get.yaml:5:10: error: 'options.clientCert.key': the file '../certs/client-key-encrypted.pem' cannot be decrypted with the password given"),
            "\(result.stdout)\n\(result.stderr)")
        #expect(received.isEmpty)
    }

    /// A password a capture gives, which does not decrypt the key, is an error of the request placed at the password
    /// (trial helper-188 F8: at the URL).
    @Test func aCapturedPasswordThatDoesNotDecryptTheKeyIsAnErrorAtThePassword() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "captured-password", "--env", "local"])
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("captured-password/2-get.yaml:6:15: error: 'options.clientCert.key': the file "
                                       + "'../certs/client-key-encrypted.pem' cannot be decrypted with the password given in "
                                       + "'options.clientCert.password'\n"), "\(result.stdout)")
        #expect(result.stdout.contains("help: check 'options.clientCert.password' (or the variable it uses)"), "\(result.stdout)")
        #expect(received.map(\.uri) == ["/anything"])
        // The exchange says so without the file's absolute path, and that nothing was sent (trial helper-194 K8).
        let verbose = try await folder.run(["run", "captured-password", "--env", "local", "--verbose"]).result.stdout
        #expect(verbose.contains("! cannot use the client certificate for https://localhost:") && verbose.contains(
            "/echo: its key file cannot be decrypted with the password given; the request was not sent\n"), "\(verbose)")
    }
}
