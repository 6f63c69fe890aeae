import Foundation
import TestSupport
import Testing

/// `runner run` keeps a cookie jar per request file (per row of an `each:` file), over http and https.
@Suite struct CookieScenarioTests {
    /// The `Cookie` header the server received for each request, by request target, in run order.
    private static func cookies(_ output: ScenarioRun.Output) -> [(uri: String, cookie: String?)] {
        output.received.map { ($0.uri, $0.header("Cookie")) }
    }

    @Test(arguments: [TestServerScheme.http, .https])
    func eachFileSendsTheCookiesItsAnswersSetByTheRulesOfRFC6265(scheme: TestServerScheme) async throws {
        let output = try await ScenarioRun.run("cookies", ["run", "requests", "--env", scheme.scenarioEnvironment, "--verbose"],
                                               scheme: scheme)
        let stdout = output.result.stdout
        #expect(output.result.exitCode == 0, "\(stdout)\n\(output.result.stderr)")
        let session = "session=s3cret-session-value", secure = scheme == .https ? "secureonly=over-tls; " : ""
        let expected: [(String, String?)] = [
            ("/headers", nil),
            ("/echo", "written=by-hand; \(session); \(secure)later=kept"),
            ("/echo/scoped", "scoped=in-echo; \(session); \(secure)later=kept"),
            ("/set-cookie/redirect", "\(session); \(secure)later=kept"),
            ("/echo/after", "\(session); \(secure)later=kept; hop=from-redirect"),
            ("/headers", "\(session); \(secure)later=kept; hop=from-redirect"),
            ("/echo", "\(secure)later=kept; hop=from-redirect"),
            ("/echo/fresh", nil),
            ("/set-cookie", nil),
            ("/echo/off", nil),
            ("/echo/row-1", nil),
            ("/set-cookie", nil),
            ("/echo/row-2", nil),
            ("/set-cookie", nil),
        ]
        let received = Self.cookies(output)
        #expect(received.count == expected.count, "\(received)")
        for (got, want) in zip(received, expected) {
            #expect(got.uri.hasPrefix(want.0) && got.cookie == want.1, "\(got) instead of \(want)")
        }
    }

    @Test(arguments: [TestServerScheme.http, .https])
    func cookieValuesAreHiddenInEveryOutput(scheme: TestServerScheme) async throws {
        let output = try await ScenarioRun.run("cookies", ["run", "requests", "--env", scheme.scenarioEnvironment, "--verbose"],
                                               scheme: scheme)
        let outputs = [output.result.stdout, output.result.stderr, output.junit ?? "", output.json ?? ""]
        #expect(output.result.stdout.contains("GET "), "\(output.result.stdout)")
        for value in ["s3cret-session-value", "from-redirect", "written=by-hand", "by-hand"] {
            #expect(outputs.allSatisfy { !$0.contains(value) }, "\(value) is printed:\n\(output.result.stdout)")
        }
    }
}
