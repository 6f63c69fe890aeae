import Foundation
import TestSupport
import Testing

/// `runner run` against an HTTPS test server whose certificate is self-signed.
@Suite struct TLSScenarioTests {
    /// The warning `options: { insecure: true }` gives where it is written.
    private static let insecureWarning = "warning: 'insecure: true' skips TLS certificate verification"

    /// How many times `part` occurs in `text`.
    private static func occurrences(of part: String, in text: String) -> Int {
        text.components(separatedBy: part).count - 1
    }

    @Test func anUntrustedCertificateIsAnErrorAndNothingIsReceived() async throws {
        let output = try await ScenarioRun.run("tls", ["run", "verified", "--env", "local"], scheme: .https)
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 3, "\(stdout)\n\(output.result.stderr)")
        #expect(stdout.contains("ERROR  get  GET https://127.0.0.1:"), "\(stdout)")
        #expect(stdout.contains("verified/get.yaml:1:17: error: the certificate of 127.0.0.1:"), "\(stdout)")
        #expect(stdout.contains("is not trusted: it is self-signed or signed by an authority not trusted here;"), "\(stdout)")
        #expect(stdout.contains("insecure: true"), "the message names the way out: \(stdout)")
        #expect(!output.result.stderr.contains("warning"), "no insecure warning when nothing is insecure")
        #expect(output.received.isEmpty, "the handshake failed, so no request reached the server")
    }

    @Test(arguments: [
        (["run", "insecure-request", "--env", "local"], "insecure-request/get.yaml:2:22: "),
        (["run", "verified", "--env", "insecure"], "environments/insecure.yaml:2:22: "),
    ])
    func insecureReachesTheServerAndWarnsOnceWhereItIsWritten(arguments: [String], place: String) async throws {
        let output = try await ScenarioRun.run("tls", arguments, scheme: .https)
        let (stdout, stderr) = (output.result.stdout, output.result.stderr)
        #expect(output.result.exitCode == 0, "\(stdout)\n\(stderr)")
        #expect(stdout.contains("PASS   get  GET https://127.0.0.1:"), "\(stdout)")
        #expect(stdout.contains("1 request: 1 passed"), "\(stdout)")
        #expect(Self.occurrences(of: Self.insecureWarning, in: stderr) == 1, "\(stderr)")
        #expect(stderr.contains(place + Self.insecureWarning), "\(stderr)")
        #expect(!stdout.contains("warning"), "warnings go to standard error: \(stdout)")
        #expect(output.received.map(\.uri) == ["/echo"])
    }

    /// A POST on a kept connection the server drops without TLS's close_notify fails as a connection failure, which
    /// `retry: { on: [connection] }` sends again.
    @Test func aKeptConnectionDroppedUncleanlyIsAConnectionFailureThatRetryOnConnectionResends() async throws {
        let output = try await ScenarioRun.run("tls", ["run", "kept-post", "--env", "insecure"], scheme: .https)
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 0, "\(stdout)\n\(output.result.stderr)")
        #expect(stdout.contains("2 requests: 2 passed"), "\(stdout)")
        #expect(output.received.map(\.path) == ["/echo", "/drop/post/1", "/drop/post/1"])
        let posted = try ScenarioRun.jsonRequests(output.json).last
        #expect(posted?["attempts"] as? Int == 2, "\(String(describing: posted))")
    }
}
