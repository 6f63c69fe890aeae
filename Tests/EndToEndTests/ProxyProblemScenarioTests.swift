import Foundation
import TestSupport
import Testing

/// Malformed proxies (a port outside 1–65535, a password in a malformed URL, a template, a bad environment variable)
/// are refused before anything is sent, with messages that hide the password, also in the lines they quote.
@Suite struct ProxyProblemScenarioTests {
    typealias Folder = ProxyScenarioTests.Folder

    static func files(proxy: String) -> [String: String] {
        ["requests/echo.yaml": "request: { url: /echo }\noptions: { proxy: \"\(proxy)\" }\n"]
    }

    @Test(arguments: ["http://127.0.0.1:99999", "http://127.0.0.1:0", "http://127.0.0.1:65536"])
    func aProxyFlagWithAPortOutsideTheRangeIsACommandLineError(proxy: String) async throws {
        let (result, received, _) = try await Folder(scheme: .http, files: ProxyScenarioTests.echo)
            .run(["run", "requests", "--env", "local", "--proxy", proxy], scheme: .http)
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: --proxy: not a proxy URL: the port '\(proxy.split(separator: ":").last!)' is not a number from 1 to 65535;"),
                "\(result.stderr)")
        #expect(received.isEmpty)
    }

    @Test(arguments: ["validate", "run"])
    func aProxyOptionWithAPortOutsideTheRangeIsALocatedError(command: String) async throws {
        let (result, received, _) = try await Folder(scheme: .http, files: Self.files(proxy: "http://127.0.0.1:65536"))
            .run([command, "requests", "--env", "local"], scheme: .http)
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("requests/echo.yaml:2:19: error: 'options.proxy' is not a proxy URL: 'http://127.0.0.1:65536': "
                                       + "the port '65536' is not a number from 1 to 65535"), "\(result.stderr)")
        #expect(received.isEmpty)
    }

    /// Malformed proxy URLs with a password: a bad port, a scheme a colon short (`http//`), a URL without a scheme.
    static let malformedWithPasswords = [
        (proxy: "http://pu:S3cret@127.0.0.1:abc", shown: "http://pu:***@127.0.0.1:abc",
         problem: "the port 'abc' is not a number from 1 to 65535"),
        (proxy: "http//pu:S3cret@127.0.0.1:8889", shown: "http//pu:***@127.0.0.1:8889",
         problem: "'http//' lacks the colon of 'http://'; a proxy URL starts with http://"),
        (proxy: "pu:S3cret@127.0.0.1:99999", shown: "pu:***@127.0.0.1:99999",
         problem: "the port '99999' is not a number from 1 to 65535"),
        // A proxy URL has no path: its user information runs to the last `@` (a password holding `@`, `/` and `:`).
        (proxy: "http://pu:S3cret@x/w0rd:y@127.0.0.1:8889", shown: "http://pu:***@127.0.0.1:8889",
         problem: "its user information holds a '/', which ends a URL's host part: write it as %2F (and an '@' in it as %40)"),
    ]

    @Test(arguments: malformedWithPasswords)
    func aMalformedProxyURLWithAPasswordHidesItInTheMessageTheSourceLineAndTheReport(proxy: String, shown: String, problem: String)
        async throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("runner-proxy-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: reports) }
        let junit = reports.appendingPathComponent("junit.xml").path, json = reports.appendingPathComponent("report.json").path
        for arguments in [["validate", "requests", "--env", "local"],
                          ["run", "requests", "--env", "local", "--report-junit", junit, "--report-json", json]] {
            let (result, received, _) = try await Folder(scheme: .http, files: Self.files(proxy: proxy)).run(arguments, scheme: .http)
            #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("'options.proxy' is not a proxy URL: '\(shown)': \(problem)"), "\(result.stderr)")
            #expect(result.stderr.contains(#" 2 | options: { proxy: "\#(shown)" }"#), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("S3cret"), "\(result.stderr)")
            #expect(received.isEmpty)
        }
        for path in [junit, json] {
            let report = try String(contentsOfFile: path, encoding: .utf8)
            #expect(report.contains(shown) && !report.contains("S3cret"), "\(report)")
        }
    }

    @Test(arguments: ["validate", "run"])
    func aTemplateInTheProxyOptionIsALocatedErrorNotSentLiterally(command: String) async throws {
        let proxy = try await ForwardProxy.start()
        let files = Self.files(proxy: "http://127.0.0.1:{{ proxyPort }}")
        let (result, received, _) = try await Folder(scheme: .http, files: files)
            .run([command, "requests", "--env", "local", "--var", "proxyPort=\(proxy.port)"], scheme: .http)
        try await proxy.stop()
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("requests/echo.yaml:2:19: error: 'options.proxy' cannot use templates ({{ }})"), "\(result.stderr)")
        #expect(result.stderr.contains("= help: write the proxy URL as it is, or pass it with --proxy"), "\(result.stderr)")
        #expect(received.isEmpty && proxy.forwarded.isEmpty)
    }

    @Test(arguments: TestServerScheme.allCases)
    func aMalformedProxyEnvironmentVariableStopsTheRunNamingIt(scheme: TestServerScheme) async throws {
        let variable = ProxyScenarioTests.variable(scheme)
        let (result, received, _) = try await Folder(scheme: scheme, files: ProxyScenarioTests.echo)
            .run(["run", "requests", "--env", "local"], scheme: scheme, environment: [variable: "http://ci:Pr0xyPass@proxy.internal:3128x"])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: the environment variable \(variable) is not a proxy URL: the port '3128x' is not a "
                                       + "number from 1 to 65535; write http://host:port"), "\(result.stderr)")
        #expect(result.stderr.contains("or unset it"), "\(result.stderr)")
        #expect(!result.stderr.contains("Pr0xyPass"))
        #expect(received.isEmpty)
        // With `--proxy none` the variable names no proxy that is used: the run goes directly.
        let (direct, sent, _) = try await Folder(scheme: scheme, files: ProxyScenarioTests.echo)
            .run(["run", "requests", "--env", "local", "--proxy", "none"], scheme: scheme,
                 environment: [variable: "http://ci:Pr0xyPass@proxy.internal:3128x"])
        #expect(direct.exitCode == 0, "\(direct.stdout)\n\(direct.stderr)")
        #expect(sent.count == 1)
    }
}
