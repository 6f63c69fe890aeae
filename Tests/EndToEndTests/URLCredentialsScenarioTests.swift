import Foundation
import TestSupport
import Testing

/// Credentials in a request URL (`http://user:password@host/`) are sent as Basic auth unless the request's `auth:`
/// says otherwise, never in the URL sent, and shown as `user:***@` in every output.
@Suite struct URLCredentialsScenarioTests {
    static let password = "Url-Pa55word"

    static func files(_ scheme: TestServerScheme) -> [String: String] {
        let url = "\(scheme.rawValue)://tester:\(password)@127.0.0.1:{{ $env.TEST_SERVER_PORT }}/echo"
        return [
            "environments/with-auth.yaml": "extends: local\nauth: { bearer: env-token-1 }\n",
            "requests/1-url.yaml": "request: { url: \"\(url)\" }\n",
            "requests/2-own-auth.yaml": "request: { url: \"\(url)\" }\nauth: { bearer: own-token-2 }\n",
            "requests/3-none.yaml": "request: { url: \"\(url)\" }\nauth: none\n",
        ]
    }

    @Test(arguments: TestServerScheme.allCases)
    func urlCredentialsAreBasicAuthNotSentInTheURLAndHiddenInEveryOutput(scheme: TestServerScheme) async throws {
        let reports = try ReportFolder("url-credentials")
        defer { reports.remove() }
        let junit = reports.junit, json = reports.json
        let proxy = try await ForwardProxy.start()
        let (result, received, port) = try await ProxyScenarioTests.Folder(scheme: scheme, files: Self.files(scheme)).run(
            ["run", "requests", "--env", "with-auth", "--verbose", "--proxy", proxy.url, "--report-junit", junit, "--report-json", json],
            scheme: scheme)
        try await proxy.stop()
        let output = result.stdout + result.stderr
        #expect(result.exitCode == 0, "\(output)")
        #expect(received.map(\.uri) == ["/echo", "/echo", "/echo"])
        #expect(received.first?.basicCredentials.map { "\($0.user):\($0.password)" } == "tester:\(Self.password)",
                "the URL's credentials win over the environment's bearer")
        #expect(received.dropFirst().first?.bearerToken == "own-token-2", "the request's auth wins over the URL's")
        #expect(received.last?.header("Authorization") == nil, "auth: none sends none")
        // Through the proxy the target is absolute (http) or a tunnel to host:port (https): no credentials either.
        #expect(proxy.forwarded.allSatisfy { !$0.target.contains("tester") && !$0.target.contains("@") },
                "\(proxy.forwarded.map(\.target))")
        #expect(result.stdout.contains("GET  \(scheme.rawValue)://tester:***@127.0.0.1:\(port)/echo")
                    || result.stdout.contains("GET \(scheme.rawValue)://tester:***@127.0.0.1:\(port)/echo"), "\(result.stdout)")
        #expect(result.stdout.contains("> GET \(scheme.rawValue)://tester:***@127.0.0.1:\(port)/echo"), "verbose: \(result.stdout)")
        let basic = Data("tester:\(Self.password)".utf8).base64EncodedString()
        for (name, text) in [("output", output), ("junit", try String(contentsOfFile: junit, encoding: .utf8)),
                             ("json", try String(contentsOfFile: json, encoding: .utf8))] {
            #expect(!text.contains(Self.password) && !text.contains(basic), "\(name): \(text)")
        }
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains("tester:***@127.0.0.1"))
    }
}
