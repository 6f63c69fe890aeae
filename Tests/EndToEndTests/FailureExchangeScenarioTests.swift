import Foundation
import TestSupport
import Testing

/// The exchange of a failed or errored request in every report, over http and https: the JSON report's `exchange`,
/// JUnit's `system-out` and, under a failing body expectation, the start of the body on the console; secrets and
/// credential headers hidden, binary bodies as their size and type, long bodies cut at 64 KiB.
@Suite struct FailureExchangeScenarioTests {
    typealias Folder = ProxyScenarioTests.Folder

    static let secret = "s3cret-Exchange-77"

    /// The requests, and an environment `secret` for a server of `scheme` with the secret `apiKey`.
    static func files(_ scheme: TestServerScheme) -> [String: String] { [
        "environments/secret.yaml": Folder.environment(scheme, secrets: [("apiKey", "EXCHANGE_SECRET")]),
        "requests/01-body.yaml": """
            name: a body expectation fails
            request:
              method: POST
              url: /echo?n=1
              headers: { X-Api-Key: "{{ apiKey }}", Authorization: "Bearer {{ apiKey }}" }
              json: { name: Ada, key: "{{ apiKey }}" }
            expect:
              body:
                $.method: GET

            """,
        "requests/02-status.yaml": "name: a status expectation fails\nrequest: { url: /status/404 }\nexpect: { status: 200 }\n",
        "requests/03-binary.yaml": "name: a binary body\nrequest: { url: /binary }\nexpect: { status: 201 }\n",
        "requests/04-long.yaml": "name: a long body\nrequest: { url: /large/200000 }\nexpect: { text: short }\n",
        "requests/05-passes.yaml": "name: passes\nrequest: { url: /status/200 }\n",
        "requests/06-errored.yaml": "name: times out\nrequest: { url: /stall }\noptions: { timeout: 300ms }\n",
    ] }

    @Test(arguments: TestServerScheme.allCases)
    func everyReportHoldsTheExchangeOfAFailureRedacted(scheme: TestServerScheme) async throws {
        let reports = try ReportFolder("exchange")
        defer { reports.remove() }
        let junit = reports.junit, json = reports.json
        let (result, _, port) = try await Folder(scheme: scheme, files: Self.files(scheme)).run(
            ["run", "requests", "--env", "secret", "--report-junit", junit, "--report-json", json],
            scheme: scheme, environment: ["EXCHANGE_SECRET": Self.secret])
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        let junitText = try String(contentsOfFile: junit, encoding: .utf8), jsonText = try String(contentsOfFile: json, encoding: .utf8)
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr), ("junit", junitText), ("json", jsonText)] {
            #expect(!text.contains(Self.secret), "\(name) shows the secret:\n\(text)")
        }

        let document = try #require(try JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any])
        let requests = try #require(document["requests"] as? [[String: Any]])
        func exchange(_ index: Int) throws -> [String: Any] { try #require(requests[index]["exchange"] as? [String: Any], "request \(index): \(requests[index])") }
        // The failed POST: its request as sent (Host and framing included, credentials hidden), the echo indented.
        let body = try exchange(0)
        let sent = try #require(body["request"] as? [String: Any])
        #expect(sent["method"] as? String == "POST")
        #expect(sent["url"] as? String == "\(scheme.rawValue)://127.0.0.1:\(port)/echo?n=1")
        let sentHeaders = try #require(sent["headers"] as? [[String: String]])
        #expect(sentHeaders.contains { $0["name"] == "Host" && $0["value"] == "127.0.0.1:\(port)" })
        #expect(sentHeaders.contains { $0["name"] == "Authorization" && $0["value"] == "***" })
        #expect(sentHeaders.contains { $0["name"] == "X-Api-Key" && $0["value"] == "***" })
        #expect((sent["body"] as? String)?.contains("\"name\": \"Ada\"") == true, "\(sent)")
        let answered = try #require(body["response"] as? [String: Any])
        #expect(answered["status"] as? Int == 200)
        let echoed = try #require(answered["body"] as? String)
        #expect(echoed.hasPrefix("{\n  \""), "indented JSON: \(echoed)")
        #expect(echoed.contains("\"method\": \"POST\""))
        #expect(try exchange(1)["response"].flatMap { $0 as? [String: Any] }?["status"] as? Int == 404)
        let binary = try #require(try exchange(2)["response"] as? [String: Any])
        #expect(binary["body"] as? String == "(256 bytes of 'application/octet-stream', not shown)")
        let long = try #require(try exchange(3)["response"] as? [String: Any])
        let cut = try #require(long["body"] as? String)
        #expect(cut.hasSuffix("…\n(cut at 64 KiB of 200000 bytes)") && cut.utf8.count < 66_000, "\(cut.suffix(80))")
        #expect(requests[4]["exchange"] is NSNull, "a passing request has none")
        let errored = try exchange(5)
        #expect(errored["response"] is NSNull)
        #expect((errored["error"] as? String)?.contains("no complete response") == true, "\(errored)")

        // JUnit: the failed and errored cases hold their exchange, the passing one none.
        #expect(junitText.components(separatedBy: "<system-out>").count - 1 == 5, "\(junitText)")
        #expect(junitText.contains("&gt; POST \(scheme.rawValue)://127.0.0.1:\(port)/echo?n=1"))
        // The console: the start of the body under the failing body expectation, and under `text`, not under `status`.
        #expect(result.stdout.contains("< {\n<   \""), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "response body").count - 1 == 2, "\(result.stdout)")
        // At most 20 lines, and at most 2 KiB: the echo is cut by lines, the 200,000-byte line by bytes.
        #expect(result.stdout.contains("response body (first 20 of "), "\(result.stdout)")
        #expect(result.stdout.contains("response body (first 2 KiB of 200000 bytes):\n< xxxx"), "\(result.stdout)")
        #expect(!result.stdout.contains(String(repeating: "x", count: 2049)), "the long line is cut at 2 KiB")
    }
}
