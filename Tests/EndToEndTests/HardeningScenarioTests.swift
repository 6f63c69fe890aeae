import Foundation
import FoundationXML
import TestSupport
import Testing

/// `runner run` against servers that misbehave: stalls and broken bodies (over http and https), redirects
/// across host names, hostile response bodies and header injection.
@Suite struct HardeningScenarioTests {
    /// The lines of `text` that start with `prefix`.
    private static func lines(_ text: String, startingWith prefix: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    @Test(arguments: TestServerScheme.allCases)
    func stallsAndBrokenBodiesErrorWithinTheTimeoutAndTheRunGoesOn(_ scheme: TestServerScheme) async throws {
        let output = try await ScenarioRun.run("faults", ["run", "requests", "--env", scheme.scenarioEnvironment], scheme: scheme)
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 3, "\(stdout)\n\(output.result.stderr)")
        let verdicts = Self.lines(stdout, startingWith: "").compactMap { $0.split(separator: " ").first }.filter { ["PASS", "ERROR", "FAIL"].contains($0) }
        #expect(verdicts == ["ERROR", "ERROR", "ERROR", "ERROR", "PASS"], "\(stdout)")
        let port = try #require(output.received.first?.header("Host")?.split(separator: ":").last)
        let base = "\(scheme)://127.0.0.1:\(port)"
        // Each timeout says how far the exchange had come.
        #expect(stdout.contains("requests/01-stall.yaml:1:17: error: no complete response from \(base)/stall within 1s: the request was sent, no complete response head came\n"), "\(stdout)")
        #expect(stdout.contains("requests/02-drip.yaml:1:17: error: no complete response from \(base)/drip?bytes=10&interval_ms=1000 within 1s: "
                                + "the response began (status 200), its body did not complete ("), "\(stdout)")
        #expect(stdout.contains("requests/03-close-mid-body.yaml:1:17: error: the connection to 127.0.0.1:\(port) closed before the response from \(base)/close-mid-body was complete"
                                + ": the response began (status 200), its body did not complete (10 of its 1000 bytes came)\n"), "\(stdout)")
        #expect(stdout.contains("requests/04-wrong-length.yaml:1:17: error: no complete response from \(base)/wrong-length within 1s: "
                                + "the response began (status 200), its body did not complete (10 of its 100 bytes came)\n"), "\(stdout)")
        #expect(stdout.contains("5 requests: 1 passed, 4 errored"))
        // Each error ends within its timeout (1 s) plus a generous margin, not when the server gives up.
        let requests = try ScenarioRun.jsonRequests(output.json)
        #expect(requests.count == 5)
        // A response cut short shows its status and headers, and the body that came (trial helper-188 F3).
        #expect(requests.prefix(4).map { $0["status"] as? Int } == [nil, 200, 200, 200], "\(requests)")
        let cut = try #require((requests[2]["exchange"] as? [String: Any])?["response"] as? [String: Any])
        #expect(cut["status"] as? Int == 200 && cut["body"] as? String == String(repeating: "x", count: 10) + "…", "\(cut)")
        #expect((cut["headers"] as? [[String: Any]])?.contains { $0["name"] as? String == "Content-Length" && $0["value"] as? String == "1000" } == true)
        for request in requests.prefix(4) {
            let milliseconds = try #require(request["durationMs"] as? Double)
            #expect(milliseconds < 5000, "\(request["name"] ?? "") took \(milliseconds) ms")
        }
    }

    /// A body the server cut inside a credential it echoes (closing the connection 4 to 7 characters into the token)
    /// hides what came of the token in `--verbose` and every report, as a secret runner's own cut falls inside of is
    /// (trial helper-194 K3: `Bearer Zq7x` showed); fewer than 4 characters may show, as documented.
    @Test(arguments: TestServerScheme.allCases)
    func aBodyCutInsideASecretHidesWhatCameOfIt(_ scheme: TestServerScheme) async throws {
        let output = try await ScenarioRun.run("cut-secret", ["run", "requests", "--env", scheme.scenarioEnvironment, "--verbose"],
                                               scheme: scheme)
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        let outputs = [output.result.stdout, output.result.stderr, output.json ?? "", output.junit ?? ""]
        for length in 4...7 {
            let piece = String("Zq7xP4mW9kR2vL8sTq3n".prefix(length))
            #expect(!outputs.contains { $0.contains(piece) }, "\(piece) shows:\n\(output.result.stdout)")
        }
        #expect(output.result.stdout.contains(#"< {"message": "partial", "auth": "Bearer ***…"#), "\(output.result.stdout)")
    }

    /// A `POST` a retry sends again after an attempt written and never answered (a timeout) says, under its failure, that
    /// the server may have acted on more than one; a `GET` retried so does not (trial helper-180).
    @Test(arguments: TestServerScheme.allCases)
    func aPOSTRetriedAfterAWrittenAttemptSaysSo(_ scheme: TestServerScheme) async throws {
        let output = try await ScenarioRun.run("retry-written", ["run", "requests", "--env", scheme.scenarioEnvironment], scheme: scheme)
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 4, "\(stdout)\n\(output.result.stderr)")
        #expect(output.received.map { "\($0.method) \($0.path)" } == ["POST /fail-then-succeed/post/1", "POST /fail-then-succeed/post/1",
                                                                      "GET /fail-then-succeed/get/1", "GET /fail-then-succeed/get/1"])
        let note = "= sent again by retry after an attempt that was written before it failed (a timeout or a broken connection): "
        #expect(stdout.components(separatedBy: note).count == 2, "\(stdout)")
        #expect(stdout.contains(note + "a POST is not idempotent, and the server may have acted on more than one"), "\(stdout)")
    }

    /// A DELETE the server read on a kept connection and closed without answering goes again on a new one; its failure
    /// says it was sent twice, in the console and the JSON report (trial helper-161: the second send showed as the only).
    @Test(arguments: [TestServerScheme.http, .https])
    func aRequestSentTwiceAfterItsKeptConnectionClosedSaysSo(scheme: TestServerScheme) async throws {
        let output = try await ScenarioRun.run("resent", ["run", "requests", "--env", scheme == .https ? "local-https" : "local"],
                                               scheme: scheme)
        #expect(output.result.exitCode == 4, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(output.received.filter { $0.path == "/drop/delete/1" }.count == 2)
        let note = "sent twice: the kept connection it went on closed, or brought bytes that are not HTTP, after it was written and "
            + "before any answer, and it was sent again on a new one, as its method is idempotent; this is the second's answer, and the "
            + "server may have acted on the first"
        #expect(output.result.stdout.contains(note), "\(output.result.stdout)")
        #expect(output.json?.contains(note) == true)
    }

    @Test func credentialsAreDroppedAtTheOtherHostAndPresentAgainBackAtTheFirst() async throws {
        let output = try await ScenarioRun.run("redirect-auth", ["run", "requests", "--env", "local"])
        let stdout = output.result.stdout
        #expect(stdout.contains("PASS   01-bearer"), "\(stdout)\n\(output.result.stderr)")
        #expect(stdout.contains("PASS   02-basic"))
        #expect(stdout.contains("PASS   05-passes"))
        #expect(output.result.exitCode == 3)
        for scheme in ["Bearer", "Basic"] {
            let chain = output.received.filter { $0.uri.contains(scheme.lowercased()) }
            #expect(chain.map { $0.header("Host")?.split(separator: ":").first.map(String.init) } == ["localhost", "127.0.0.1", "localhost"],
                    "\(chain.map(\.uri))")
            #expect(chain.map { $0.header("Authorization")?.hasPrefix(scheme + " ") == true } == [true, false, true],
                    "\(scheme): sent to localhost, dropped at 127.0.0.1, sent again back at localhost")
        }
        let keyed = output.received.filter { $0.uri.contains("key") }
        #expect(keyed.map { $0.header("X-Api-Key") } == ["key-9f8e7d6c5b", nil, "key-9f8e7d6c5b"], "\(keyed.map(\.uri))")
        #expect(keyed.map { $0.header("X-Plain") } == ["visible", "visible", "visible"])
        #expect(stdout.contains("PASS   06-secret-header"), "\(stdout)")
        // A capture holding a piece of the secret: the same.
        let pieced = output.received.filter { $0.uri.contains("piece") }
        #expect(pieced.map { $0.header("X-Piece") } == ["9f8e7d6c5b", nil, "9f8e7d6c5b"], "\(pieced.map(\.uri))\n\(stdout)")
        #expect(stdout.contains("requests/03-cycle.yaml:1:17: error: redirect cycle: "), "\(stdout)")
        #expect(stdout.contains("/redirect/cycle/b leads back to http://localhost:"))
        #expect(stdout.contains("requests/04-limit.yaml:2:26: error: more than 3 redirects, starting at http://localhost:"))
        // A body holding a secret: the 307 to the other host is not followed (trial helper-160).
        #expect(!output.received.contains { $0.uri.contains("sent=body") }, "\(output.received.map(\.uri))")
        #expect(stdout.contains("requests/08-secret-body.yaml:4:8: error: refused to follow the 307 redirect from http://localhost:"), "\(stdout)")
        #expect(stdout.contains("another origin: the request's body holds a secret or a credential, which a 307 sends there again"))
        // So is a member named as a credential, whatever gives it (trial helper-202 F1: a literal password was sent on).
        #expect(!output.received.contains { $0.uri.contains("sent=credential") }, "\(output.received.map(\.uri))")
        #expect(stdout.contains("requests/10-credential-body.yaml:4:8: error: refused to follow the 307 redirect"), "\(stdout)")
        // A header named as a credential, its value a literal: not sent to the other origin.
        let named = output.received.filter { $0.uri.contains("named") }
        #expect(named.map { $0.header("X-Auth-Token") } == ["literal-token-55", nil], "\(named.map(\.uri))")
        #expect(named.map { $0.header("X-Plain") } == ["visible", "visible"])
        #expect(Self.lines(stdout, startingWith: "ERROR").count == 4)
        // A body written without templates holds none, even text equal to one: the 307 is followed.
        #expect(stdout.contains("PASS   09-literal-body"), "\(stdout)")
        #expect(output.received.filter { $0.uri.contains("sent=literal") }.map { $0.header("Host")?.hasPrefix("127.0.0.1:") } == [true])
    }

    /// Every hostile body in the console (with and without `--verbose`), the JUnit and the JSON report.
    @Test(arguments: [false, true]) func hostileBodiesLeaveReportsWellFormedAndTheConsoleFreeOfEscapes(verbose: Bool) async throws {
        let output = try await ScenarioRun.run(
            "output-safety", ["run", "requests", "--env", "local", "--var", "injected=a\r\nX-Injected: 1"] + (verbose ? ["--verbose"] : []))
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 3, "\(stdout)\n\(output.result.stderr)")
        #expect(!stdout.utf8.contains(0x1B) && !output.result.stderr.utf8.contains(0x1B), "no raw ESC with NO_COLOR set")
        #expect(!stdout.utf8.contains(0), "no raw NUL")
        #expect(!stdout.unicodeScalars.contains("\u{9B}"), "no raw C1 CSI")
        #expect(stdout.contains(#"\u001b[31mRED"#) || stdout.contains(#"\u{1B}[31mRED"#), "escapes are shown, visibly: \(stdout)")
        #expect(Self.lines(stdout, startingWith: "FAIL").count == 3)

        let junit = try #require(output.junit)
        let document = try XMLDocument(xmlString: junit)
        let failures = try document.nodes(forXPath: "//testcase/failure").compactMap { $0 as? XMLElement }
        #expect(failures.count == 3)
        #expect(failures.contains { $0.stringValue?.contains("<script>alert(1)</script> ]]>") == true }, "\(junit)")
        let json = try ScenarioRun.jsonRequests(output.json)
        #expect(json.map { $0["result"] as? String } == ["failed", "failed", "failed", "errored", "passed"])
        // The JSON report escapes C1 controls as the console and JUnit do: no raw CSI (U+009B), nor any other.
        let report = try #require(output.json)
        #expect(!report.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\u{1B}" }, "\(report)")
        #expect(report.contains(#"c1:\\u009b2J"#) && report.contains(#"red:\\u001b[31mRED"#), "\(report)")
    }

    @Test func colouredOutputHasOnlyItsOwnEscapes() async throws {
        let output = try await ScenarioRun.run(
            "output-safety", ["run", "requests/01-text.yaml", "--env", "local", "--verbose"], environment: ["NO_COLOR": ""], terminal: true)
        let stdout = output.result.stdout
        #expect(stdout.contains("FAIL"), "\(stdout)")
        let escapes = stdout.components(separatedBy: "\u{1B}").dropFirst()
        #expect(escapes.allSatisfy { $0.hasPrefix("[") && $0.prefix(while: { $0 != "m" }).allSatisfy { $0 == "[" || $0.isNumber || $0 == ";" } },
                "every ESC starts a colour (SGR) sequence of the runner's own: \(escapes.map { $0.prefix(12) })")
        #expect(!stdout.contains("\u{1B}]"), "no OSC sequence from the server")
    }

    @Test func aLineBreakInAHeaderFromAVariableIsRejectedAndNothingIsSent() async throws {
        let output = try await ScenarioRun.run(
            "output-safety", ["run", "requests/04-header-injection.yaml", "--env", "local", "--var", "injected=a\r\nX-Injected: 1"])
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 3, "\(stdout)")
        #expect(stdout.contains("requests/04-header-injection.yaml:4:13: error: the value of header 'X-Note' contains a carriage return (CR); header values cannot contain control characters other than a tab (CR, LF and NUL included)"),
                "\(stdout)")
        #expect(output.received.isEmpty, "nothing was sent: \(output.received.map(\.uri))")
    }

    @Test func variablesInTheQueryAndPathArePercentEncoded() async throws {
        let output = try await ScenarioRun.run(
            "output-safety", ["run", "requests/05-query-injection.yaml", "--env", "local", "--var", "injected=a\r\nX-Injected: 1"])
        #expect(output.result.exitCode == 0, "\(output.result.stdout)")
        let received = try #require(output.received.first)
        #expect(received.header("X-Injected") == nil)
        #expect(received.query("admin") == nil)
        #expect(received.query("q") == "a\r\nX-Injected: 1&admin=1#frag")
        #expect(received.uri.hasPrefix("/echo/a%0D%0AX-Injected:%201?"), "\(received.uri)")
    }
}
