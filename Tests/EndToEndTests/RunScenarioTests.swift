import Foundation
import FoundationXML
import TestSupport
import Testing

/// `runner run` scenarios checked by parsing what it writes: secrets, reports, parallel runs, verbose output.
@Suite struct RunScenarioTests {
    /// A scenario folder below `Scenarios/`.
    private static func scenario(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios/\(name)")
    }

    /// Runs `runner` in a scenario with a fresh test server; reports go to a temporary folder.
    private static func run(_ scenario: String, _ arguments: [String], environment extra: [String: String] = [:])
        async throws -> (result: RunnerProcess.Result, junit: String?, json: String?) {
        let server = try await TestServer.start()
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("runner-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        var environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
        environment.merge(extra) { $1 }
        let junit = reports.appendingPathComponent("junit.xml"), json = reports.appendingPathComponent("report.json")
        let all = arguments + ["--report-junit", junit.path, "--report-json", json.path]
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(all, in: Self.scenario(scenario), environment: environment)
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        return (result, try? String(contentsOf: junit, encoding: .utf8), try? String(contentsOf: json, encoding: .utf8))
    }

    private static let secrets = ["SECRET_TOKEN": "tok-Sup3rS3cret", "SECRET_PASSWORD": "pw-Hidden!42", "SECRET_API_KEY": "key-0xDEADBEEF"]

    @Test func secretsAppearInNoOutput() async throws {
        let (result, junit, json) = try await Self.run("secrets", ["run", "requests", "--env", "ci", "--verbose"], environment: Self.secrets)
        #expect(result.exitCode == 4, "\(result.stdout)\n\(result.stderr)")
        let junitText = try #require(junit), jsonText = try #require(json)
        let outputs = ["stdout": result.stdout, "stderr": result.stderr, "junit": junitText, "json": jsonText]
        for (name, output) in outputs {
            for secret in Self.secrets.values {
                let fragments = [secret, String(secret.prefix(8)), secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!]
                for fragment in fragments {
                    #expect(!output.contains(fragment), "\(name) shows '\(fragment)'")
                }
            }
        }
        #expect(result.stdout.contains("> Authorization: ***"))
        #expect(result.stdout.contains("> Cookie: ***"))
        #expect(result.stdout.contains("< Set-Cookie: ***"))
        #expect(result.stdout.contains("> X-Api-Key: ***"))
        #expect(result.stdout.contains(#""password":"***""#), "the request body is shown with the secret hidden")
    }

    @Test func junitReportIsWellFormedAndLocated() async throws {
        let (_, junit, _) = try await Self.run("secrets", ["run", "requests", "--env", "ci"], environment: Self.secrets)
        let junitText = try #require(junit)
        let document = try XMLDocument(xmlString: junitText)
        let suites = try document.nodes(forXPath: "/testsuites/testsuite").compactMap { $0 as? XMLElement }
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == [
            "requests/01-echo.yaml", "requests/02-basic.yaml", "requests/03-cookie.yaml", "requests/04-uses-capture.yaml",
        ])
        let failures = try document.nodes(forXPath: "//testcase/failure").compactMap { $0 as? XMLElement }
        #expect(failures.count == 4)
        #expect(failures.first?.stringValue?.contains("requests/01-echo.yaml:9:22") == true)
        #expect(failures.first?.attribute(forName: "message")?.stringValue == "body $.json.password did not match")
    }

    @Test func jsonReportListsEveryOutcome() async throws {
        let (result, _, json) = try await Self.run("secrets", ["run", "requests", "--env", "ci"], environment: Self.secrets)
        let jsonText = try #require(json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["total"] as? Int == 4)
        #expect(summary["failed"] as? Int == 4)
        #expect(summary["exitStatus"] as? Int == Int(result.exitCode))
        let requests = try #require(object["requests"] as? [[String: Any]])
        #expect(requests.map { $0["result"] as? String } == ["failed", "failed", "failed", "failed"])
        let failures = try #require(requests[0]["failures"] as? [[String: Any]])
        #expect(failures.map { $0["location"] as? String } == [
            "requests/01-echo.yaml:9:22", "requests/01-echo.yaml:10:30", "requests/01-echo.yaml:11:29",
        ])
        #expect(failures[0]["expected"] as? String == #""wrong""#)
        #expect(failures[0]["actual"] as? String == #""***""#)
    }

    @Test func parallelAndSequentialRunsGiveTheSameResults() async throws {
        let sequential = try await Self.run("parallel", ["run", "requests", "--env", "local"])
        let parallel = try await Self.run("parallel", ["run", "requests", "--env", "local", "--jobs", "4"])
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
        let (result, _, _) = try await Self.run("../Fixtures/run/redirects", ["run", "requests/01-follow.yaml", "--env", "local", "--verbose"])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let requests = result.stdout.split(separator: "\n").filter { $0.hasPrefix("> GET ") }
        #expect(requests.count == 3, "\(result.stdout)")
        #expect(result.stdout.contains("< 302"))
        #expect(result.stdout.contains("< Location: /redirect/chain/1"))
        #expect(result.stdout.contains("> User-Agent: runner/0.1"))
    }
}
