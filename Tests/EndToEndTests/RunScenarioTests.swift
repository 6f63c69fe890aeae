import Foundation
import FoundationXML
import TestSupport
import Testing

/// `runner run` scenarios checked by parsing what it writes: secrets, reports, parallel runs, verbose output.
@Suite struct RunScenarioTests {
    private static let secrets = ["SECRET_TOKEN": "tok-Sup3rS3cret", "SECRET_PASSWORD": "pw-\"Hidden!42", "SECRET_API_KEY": "key-0xDEADBEEF"]

    /// What must never be printed: each secret, its start and end, its percent-encoded and JSON-escaped
    /// forms, and the Basic credentials built from the password.
    private static var secretFragments: [String] {
        Self.secrets.values.flatMap { secret in
            [secret, String(secret.prefix(8)), String(secret.suffix(8)),
             secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
             secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!,
             String(String(data: try! JSONSerialization.data(withJSONObject: [secret]), encoding: .utf8)!.dropFirst(2).dropLast(2))]
        } + [Data("user:\(Self.secrets["SECRET_PASSWORD"]!)".utf8).base64EncodedString()]
    }

    @Test(arguments: [false, true]) func secretsAppearInNoOutput(verbose: Bool) async throws {
        let output = try await ScenarioRun.run(
            "secrets", ["run", "requests", "--env", "ci"] + (verbose ? ["--verbose"] : []), environment: Self.secrets)
        let (result, junit, json) = (output.result, output.junit, output.json)
        #expect(result.exitCode == 4, "\(result.stdout)\n\(result.stderr)")
        let junitText = try #require(junit), jsonText = try #require(json)
        let outputs = ["stdout": result.stdout, "stderr": result.stderr, "junit": junitText, "json": jsonText]
        for (name, output) in outputs {
            for fragment in Self.secretFragments {
                #expect(!output.contains(fragment), "\(name) shows '\(fragment)'")
            }
        }
        #expect(result.stdout.contains("FAIL   uses the derived captures"), "the derived values reached the server and came back")
        #expect(result.stdout.contains("FAIL   the server echoes Basic credentials"))
        guard verbose else { return }
        #expect(result.stdout.contains("> Authorization: ***"))
        #expect(result.stdout.contains("> Cookie: ***"))
        #expect(result.stdout.contains("< Set-Cookie: ***"))
        #expect(result.stdout.contains("> X-Api-Key: ***"))
        #expect(result.stdout.contains(#">   "password": "***","#), "the request body is shown indented, with the secret hidden")
    }

    /// The process environment the scenario `captured-credential` reads (`$env` in a header, a form field, a JSON member).
    static func capturedCredentialEnvironment(session: String = "session-7f3a9c2e1b", form: String = "env-form-password-4d2a9b",
                                              json: String = "env-json-api-key-8c1e7f") -> [String: String] {
        ["CAPTURED_CREDENTIAL_SESSION": session, "CAPTURED_CREDENTIAL_FORM": form, "CAPTURED_CREDENTIAL_JSON": json]
    }

    /// A token captured from a response that is no OAuth2 auth's, which a later request sends as a credential, is hidden
    /// from its capture on: `--verbose` shows the response it came in with the token hidden (trial helper-171).
    @Test func aCapturedTokenSentLaterAsACredentialIsHiddenInTheResponseItCameIn() async throws {
        let session = "env-session-7f3a9c2e1b"
        let (form, json) = ("env-form-password-4d2a9b", "env-json-api-key-8c1e7f")
        let output = try await ScenarioRun.run("captured-credential", ["run", "requests", "--env", "local", "--verbose"],
                                               environment: Self.capturedCredentialEnvironment(session: session, form: form, json: json))
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 4, "\(stdout)\n\(output.result.stderr)")
        let sent = try #require(output.received.first { $0.path == "/oauth/protected" }?.header("Authorization"))
        let token = String(sent.dropFirst("Bearer ".count))
        #expect(token.count >= 16 && !stdout.contains(token), "\(stdout)")
        // Sent as an API-key header, a query item named like a credential, a session header from `$env` (helper-177).
        let apiToken = try #require(output.received.first { $0.path == "/headers" }?.header("X-Api-Key"))
        let queryToken = try #require(output.received.first { $0.path == "/anything" }?.query("access_token"))
        for secret in [apiToken, queryToken, session] {
            #expect(secret.count >= 16 && !stdout.contains(secret) && output.json?.contains(secret) == false, "\(secret): \(stdout)")
        }
        #expect(stdout.contains(#"<   "access_token": "***","#), "\(stdout)")
        // Reaching the credential through a `with:` input or an `each:` row; sent as a multipart value or a GraphQL
        // variable named as one; from `$env` in a form field or JSON member so named (helper-179).
        let echoed = output.received.filter { $0.path == "/anything" }
        let withToken = try #require(echoed.compactMap { $0.header("X-Private-Key") }.first)
        let rowToken = try #require(echoed.compactMap { $0.header("X-Api-Key") }.first)
        let bodies: [String] = echoed.compactMap(\.bodyText)
        func first(_ pattern: Regex<(Substring, Substring)>) -> String? {
            bodies.lazy.compactMap { body -> String? in body.firstMatch(of: pattern).map { String($0.1) } }.first
        }
        let partToken = try #require(first(/name="password"\r\n\r\n([^\r]+)/))
        let gqlToken = try #require(first(/"password":"([^"]+)"/))
        let listToken = try #require(output.received.filter { $0.path == "/anything/list" }.compactMap { $0.header("X-Api-Key") }.first)
        for secret in [withToken, rowToken, partToken, gqlToken, form, json, "text-json-password-7788", listToken] {
            #expect(secret.count >= 16 && !stdout.contains(secret) && output.json?.contains(secret) == false, "\(secret): \(stdout)")
        }
        // Captured, then sent only in a text body that is JSON; credentials too short to hide inside other text, where they
        // stand whole (helper-184).
        for secret in ["textbody-token-5521-abcdef", "ab1cd", "zq9", "urlquery-token-7310-fedcba", "urlpassword-token-4412-abcdef"] {
            #expect(!stdout.contains(secret) && output.json?.contains(secret) == false, "\(secret): \(stdout)")
        }
        #expect(stdout.contains("keep-this-note") && stdout.contains("user_password=***"), "\(stdout)")
        // A capture no request sends as a credential shows.
        #expect(stdout.contains(#""token_type": "Bearer""#), "\(stdout)")
    }

    @Test func junitReportIsWellFormedAndLocated() async throws {
        let junit = try await ScenarioRun.run("secrets", ["run", "requests", "--env", "ci"], environment: Self.secrets).junit
        let junitText = try #require(junit)
        let document = try XMLDocument(xmlString: junitText)
        let suites = try document.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == [
            "requests/01-echo.yaml", "requests/02-basic.yaml", "requests/03-cookie.yaml", "requests/04-uses-capture.yaml",
            "requests/05-derived-capture.yaml", "requests/06-uses-derived.yaml", "requests/07-basic-echo.yaml",
        ])
        let failures = try document.nodes(forXPath: "//testcase/failure").compactMap { $0 as? XMLElement }
        #expect(failures.count == 6)
        #expect(failures.first?.stringValue?.contains("requests/01-echo.yaml:9:22") == true)
        #expect(failures.first?.attribute(forName: "message")?.stringValue == "body $.json.password did not match")
    }

    @Test func jsonReportListsEveryOutcome() async throws {
        let output = try await ScenarioRun.run("secrets", ["run", "requests", "--env", "ci"], environment: Self.secrets)
        let (result, json) = (output.result, output.json)
        let jsonText = try #require(json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["total"] as? Int == 7)
        #expect(summary["failed"] as? Int == 6)
        #expect(summary["exitStatus"] as? Int == Int(result.exitCode))
        let requests = try #require(object["requests"] as? [[String: Any]])
        #expect(requests.map { $0["result"] as? String } == ["failed", "failed", "failed", "failed", "passed", "failed", "failed"])
        let failures = try #require(requests[0]["failures"] as? [[String: Any]])
        #expect(failures.map { $0["location"] as? String } == [
            "requests/01-echo.yaml:9:22", "requests/01-echo.yaml:10:30", "requests/01-echo.yaml:11:29",
        ])
        #expect(failures[0]["expected"] as? String == #""wrong""#)
        #expect(failures[0]["actual"] as? String == #""***""#)
    }

    @Test func parallelAndSequentialRunsGiveTheSameResults() async throws {
        let sequential = try await ScenarioRun.run("parallel", ["run", "requests", "--env", "local"])
        let parallel = try await ScenarioRun.run("parallel", ["run", "requests", "--env", "local", "--jobs", "4"])
        #expect(sequential.result.exitCode == 4)
        #expect(parallel.result.exitCode == sequential.result.exitCode)
        let normalized = { (text: String) in
            OutputPatterns.normalizingTimes(text)
                .replacingOccurrences(of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
        }
        #expect(normalized(parallel.result.stdout) == normalized(sequential.result.stdout),
                "\(parallel.result.stdout)\n---\n\(sequential.result.stdout)")
        #expect(sequential.result.stdout.contains("PASS   05-uses-last"))
        #expect(sequential.result.stdout.contains("SKIP   06-flow › third"))
    }

    @Test func verboseShowsEveryHop() async throws {
        let result = try await ScenarioRun.run("../Fixtures/run/redirects", ["run", "requests/01-follow.yaml", "--env", "local", "--verbose"]).result
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let requests = result.stdout.split(separator: "\n").filter { $0.hasPrefix("> GET ") }
        #expect(requests.count == 3, "\(result.stdout)")
        #expect(result.stdout.contains("< 302"))
        #expect(result.stdout.contains("< Location: /redirect/chain/1"))
        #expect(result.stdout.contains("> User-Agent: runner/\(Repository.version)"))
    }
}
