import Foundation
import SelfSignedCertificate
import TestSupport
import Testing

/// `runner run` against an HTTPS server whose certificate a test CA issued: trusted through `caCert` (in a request
/// or an environment), `--cacert` or `SSL_CERT_FILE`, and refused without them.
@Suite struct CertificateAuthorityScenarioTests {
    /// The `ca` scenario copied to a temporary folder, with the test CA's certificate written as `certs/ca.pem`.
    struct Folder {
        let url: URL
        let authority: TestCertificateAuthority

        init(authority: TestCertificateAuthority? = nil) throws {
            self.authority = try authority ?? TestCertificateAuthority.generate()
            url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-ca-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: ScenarioRun.folder("ca"), to: url)
            try Data(self.authority.certificatePEM.utf8).write(to: url.appendingPathComponent("certs/ca.pem"))
        }

        var caPath: String { url.appendingPathComponent("certs/ca.pem").path }

        /// Runs `runner` in the folder against a server whose certificate the CA issued (and a plain one).
        func run(_ arguments: [String], environment extra: [String: String] = [:], identity: SelfSignedIdentity? = nil) async throws
            -> (result: RunnerProcess.Result, received: [RecordedRequest]) {
            try await ScenarioRun.run(arguments, in: url, tls: .identity(identity ?? authority.issueServerIdentity()), environment: extra)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test(arguments: [
        ["run", "requests", "--env", "local"],
        ["run", "plain", "--env", "with-ca"],
        ["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"],
    ])
    func theTestAuthorityIsTrustedWhereItIsNamed(arguments: [String]) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(arguments)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("PASS   get  GET https://localhost:"), "\(result.stdout)")
        #expect(received.map(\.uri) == ["/echo"])
        #expect(!result.stderr.contains("warning"), "verification stays on: \(result.stderr)")
    }

    /// `--cacert` is trusted in place of a request's `caCert`: a certificate only that one trusts is refused, with a note
    /// saying so (trial helper-188 F6: no word of it).
    @Test func aCACertReplacedByTheCommandLineIsNamedWhenTheCertificateIsRefused() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data(TestCertificateAuthority.generate(commonName: "another CA").certificatePEM.utf8)
            .write(to: folder.url.appendingPathComponent("certs/other.pem"))
        let (result, received) = try await folder.run(["run", "requests", "--env", "local", "--cacert", "certs/other.pem"])
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("= note: --cacert is trusted in place of this request's (requests/get.yaml:2:20) "
                                       + "caCert '../certs/ca.pem'"), "\(result.stdout)")
        #expect(received.isEmpty)
    }

    /// A certificate must name the URL's host: one of a trusted authority listing another name and the address the
    /// connection reached (the server's, or the proxy's through one) is refused, and nothing is sent.
    @Test(arguments: [false, true])
    func aCertificateNamingOnlyTheAddressReachedIsRefused(throughProxy: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let identity = try folder.authority.issueServerIdentity(dnsNames: ["other.test"], ipAddresses: [[127, 0, 0, 1]])
        let proxy = throughProxy ? try await ForwardProxy.start() : nil
        let (result, received) = try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"]
                                                      + (proxy.map { ["--proxy", $0.url] } ?? []), identity: identity)
        try await proxy?.stop()
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("the certificate of localhost:") && result.stdout.contains("was issued for another host name"),
                "\(result.stdout)")
        #expect(received.isEmpty)
        #expect(proxy.map { $0.forwarded.count == 1 } ?? true, "the tunnel was made: the check is the certificate's")
        // The same certificate naming the host passes.
        let named = try folder.authority.issueServerIdentity(dnsNames: ["other.test", "localhost"], ipAddresses: [[127, 0, 0, 1]])
        #expect(try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"], identity: named).result.exitCode == 0)
    }

    /// A certificate for the address a URL names passes through a proxy at another address (NIOSSL compared the
    /// certificate's addresses with the proxy's, and refused it), and one for the proxy's address does not.
    @Test func aCertificateForTheURLsAddressPassesThroughAProxyAtAnother() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data("baseURL: \"https://127.0.0.1:{{ $env.TEST_SERVER_PORT }}\"\noptions: { timeout: 5s }\n".utf8)
            .write(to: folder.url.appendingPathComponent("environments/address.yaml"))
        let proxy = try await ForwardProxy.start(host: "127.0.0.2")
        let arguments = ["run", "plain", "--env", "address", "--cacert", "certs/ca.pem", "--proxy", proxy.url]
        let right = try folder.authority.issueServerIdentity(dnsNames: [], ipAddresses: [[127, 0, 0, 1]])
        let (passed, received) = try await folder.run(arguments, identity: right)
        #expect(passed.exitCode == 0, "\(passed.stdout)\n\(passed.stderr)")
        #expect(received.count == 1)
        let proxys = try folder.authority.issueServerIdentity(dnsNames: [], ipAddresses: [[127, 0, 0, 2]])
        let (refused, none) = try await folder.run(arguments, identity: proxys)
        try await proxy.stop()
        #expect(refused.exitCode == 3 && refused.stdout.contains("does not list this address among its IP addresses"), "\(refused.stdout)")
        #expect(none.isEmpty)
    }

    /// A certificate the request's own `caCert` does not trust is an error at that `caCert`, naming the file tried (trial
    /// helper-202 F3: at the URL, telling to set the caCert it had).
    @Test func aCertificateItsCACertDoesNotTrustIsAnErrorAtTheCACert() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Data(TestCertificateAuthority.generate(commonName: "another CA").certificatePEM.utf8)
            .write(to: folder.url.appendingPathComponent("certs/ca.pem"))
        let (result, received) = try await folder.run(["run", "requests", "--env", "local"])
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        let file = folder.url.appendingPathComponent("certs/ca.pem").standardized.path
        #expect(result.stdout.contains("requests/get.yaml:2:20: error: the certificate of localhost:"), "\(result.stdout)")
        #expect(result.stdout.contains("is not trusted: no authority in '\(file)' nor the system's issued it"), "\(result.stdout)")
        #expect(received.isEmpty)
    }

    @Test func sslCertFileAddsTheBundleForEveryRequest() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "plain", "--env", "local"], environment: ["SSL_CERT_FILE": folder.caPath])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.count == 1)
    }

    @Test func withoutTheAuthorityTheCertificateIsNotTrustedAndTheMessageNamesTheWaysOut() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "plain", "--env", "local"])
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("is not trusted: it is self-signed or signed by an authority not trusted here;"), "\(result.stdout)")
        #expect(result.stdout.contains("`caCert`") && result.stdout.contains("`insecure: true`"), "\(result.stdout)")
        #expect(received.isEmpty)
    }

    /// A certificate from a trusted authority but outside its dates is named so, with the date (BoringSSL reports it as
    /// any certificate it cannot verify; a second handshake reads the dates, through the proxy's tunnel when there is one).
    @Test(arguments: [(-86_400.0 * 10, -86_400.0, "expired at "), (86_400.0, 86_400.0 * 10, "is valid only from ")], [false, true])
    func aCertificateOutsideItsDatesIsNamedSo(dates: (from: TimeInterval, until: TimeInterval, says: String), throughProxy: Bool) async throws {
        let (from, until, says) = dates
        let folder = try Folder()
        defer { folder.remove() }
        let identity = try folder.authority.issueServerIdentity(validFrom: Date().addingTimeInterval(from),
                                                                until: Date().addingTimeInterval(until))
        let proxy = throughProxy ? try await ForwardProxy.start() : nil
        let (result, received) = try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"]
                                                      + (proxy.map { ["--proxy", $0.url] } ?? []), identity: identity)
        try await proxy?.stop()
        #expect(proxy.map { $0.forwarded.count == 2 } ?? true, "the request's tunnel and the probe's")
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        let date = Date().addingTimeInterval(from < 0 ? until : from).formatted(.iso8601.year().month().day())
        #expect(result.stdout.contains("the certificate of localhost:") && result.stdout.contains(says + date), "\(result.stdout)")
        #expect(!result.stdout.contains("is not trusted: it is self-signed"), "\(result.stdout)")
        #expect(received.isEmpty)
    }

    /// The server's chain is within its dates but the authority trusted from `--cacert` that issued it is not: the
    /// message names the file and the date (the server does not send that certificate).
    @Test(arguments: [(-86_400.0 * 10, -86_400.0, "expired at "), (86_400.0, 86_400.0 * 10, "is valid only from ")])
    func aTrustedAuthorityOutsideItsDatesIsNamedWithItsFile(from: TimeInterval, until: TimeInterval, says: String) async throws {
        let folder = try Folder(authority: TestCertificateAuthority.generate(validFrom: Date().addingTimeInterval(from),
                                                                             until: Date().addingTimeInterval(until)))
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"])
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        let date = Date().addingTimeInterval(from < 0 ? until : from).formatted(.iso8601.year().month().day())
        #expect(result.stdout.contains("the authority that issued the certificate of localhost:"), "\(result.stdout)")
        #expect(result.stdout.contains("ca.pem', " + says + date), "\(result.stdout)")
        #expect(received.isEmpty)
    }

    /// A bundle holding an expired root before its renewed certificate (the same key and name) verifies the servers the
    /// renewed one does, as curl and OpenSSL do (BoringSSL alone tries the first of a name).
    @Test func anExpiredRootBeforeItsRenewalInABundleIsPassedOver() async throws {
        let expired = try TestCertificateAuthority.generate(validFrom: Date().addingTimeInterval(-86_400 * 10),
                                                            until: Date().addingTimeInterval(-86_400))
        let folder = try Folder(authority: expired)
        defer { folder.remove() }
        try Data((expired.certificatePEM + "\n" + expired.renewed().certificatePEM).utf8).write(to: URL(fileURLWithPath: folder.caPath))
        let (result, received) = try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.map(\.uri) == ["/echo"])
        // Across files too: the expired root in --cacert, the renewed one in SSL_CERT_FILE.
        let renewed = folder.url.appendingPathComponent("certs/renewed.pem")
        try Data(expired.renewed().certificatePEM.utf8).write(to: renewed)
        try Data(expired.certificatePEM.utf8).write(to: URL(fileURLWithPath: folder.caPath))
        let (across, _) = try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/ca.pem"],
                                              environment: ["SSL_CERT_FILE": renewed.path])
        #expect(across.exitCode == 0, "\(across.stdout)\n\(across.stderr)")
    }

    @Test func aCACertOverPlainHTTPChangesNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "plain", "--env", "http"])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("PASS   get  GET http://127.0.0.1:"), "\(result.stdout)")
        #expect(received.map(\.uri) == ["/echo"])
    }

    @Test(arguments: ["run", "validate"])
    func aMissingOrCertificateLessFileIsALocatedErrorAndNothingIsSent(command: String) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run([command, "invalid", "--env", "local"])
        let output = result.stdout + result.stderr
        #expect(result.exitCode == 2, "\(output)")
        #expect(output.contains("invalid/missing.yaml:2:20: error: 'options.caCert': the file '../certs/missing.pem' does not exist"),
                "\(output)")
        #expect(output.contains("invalid/not-a-certificate.yaml:2:20: error: 'options.caCert': the file "
                                + "'../certs/not-a-certificate.pem' holds no PEM certificate"), "\(output)")
        #expect(received.isEmpty)
    }

    @Test func aBadCACertOnTheCommandLineStopsTheRun() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "plain", "--env", "local", "--cacert", "certs/not-a-certificate.pem"])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: --cacert: the file 'certs/not-a-certificate.pem' holds no PEM certificate"),
                "\(result.stderr)")
        #expect(received.isEmpty)
    }

    /// A bad `--cacert` is told beside the collection's problems, not in a run of its own after they are mended.
    @Test func aBadCACertOnTheCommandLineIsToldWithTheCollectionsProblems() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (result, received) = try await folder.run(["run", "invalid", "--env", "local", "--cacert", "certs/missing.pem"])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: --cacert: the file 'certs/missing.pem' does not exist"), "\(result.stderr)")
        #expect(result.stderr.contains("invalid/missing.yaml:2:20: error: 'options.caCert'"), "\(result.stderr)")
        #expect(result.stderr.contains("error: 3 problems in 2 files; nothing was sent"), "\(result.stderr)")
        #expect(received.isEmpty)
    }
}
