import Foundation
import TestSupport
import Testing

/// `runner run` through a forward proxy in the test process: `http://` and `https://` targets through a `CONNECT` tunnel,
/// chosen by `options.proxy`, `--proxy` or `HTTP_PROXY` / `HTTPS_PROXY` with `NO_PROXY`.
@Suite struct ProxyScenarioTests {
    /// A collection written to a temporary folder: `environments/local.yaml` for a server of `scheme` and the
    /// request files given (path to text).
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-proxy-\(UUID().uuidString)")

        init(scheme: TestServerScheme, files: [String: String]) throws {
            for (path, text) in files.merging(["environments/local.yaml": Self.environment(scheme)], uniquingKeysWith: { $1 }) {
                let file = url.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }

        /// An environment for the test server of `scheme` (its port from `TEST_SERVER_PORT`, a 5 s timeout, its
        /// self-signed certificate accepted), with a secret of each name read from the process variable given.
        static func environment(_ scheme: TestServerScheme, secrets: [(name: String, variable: String)] = []) -> String {
            let base = "baseURL: \"\(scheme.rawValue)://127.0.0.1:{{ $env.TEST_SERVER_PORT }}\"\n"
                + "options: { timeout: 5s\(scheme == .https ? ", insecure: true" : "") }\n"
            guard !secrets.isEmpty else { return base }
            return base + "secrets:\n" + secrets.map { "  \($0.name): { env: \($0.variable) }\n" }.joined()
        }

        /// Runs `runner` in the folder against a fresh server of `scheme`.
        func run(_ arguments: [String], scheme: TestServerScheme, environment extra: [String: String] = [:]) async throws
            -> (result: RunnerProcess.Result, received: [RecordedRequest], port: Int) {
            defer { try? FileManager.default.removeItem(at: url) }
            let server = try await TestServer.start(scheme)
            var environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
            environment.merge(extra) { $1 }
            let result = try await RunnerProcess.run(arguments, in: url, environment: environment)
            try await server.stop()
            return (result, server.receivedRequests(), server.port)
        }
    }

    static let echo = ["requests/echo.yaml": "request: { url: /echo }\n"]

    /// What the proxy should have handled for one request to the server on `port` over `scheme`.
    static func expectedTarget(_ scheme: TestServerScheme, port: Int) -> (method: String, target: String) {
        ("CONNECT", "127.0.0.1:\(port)")
    }

    /// The proxy variable `runner` reads for a target of `scheme`.
    static func variable(_ scheme: TestServerScheme) -> String { scheme == .http ? "HTTP_PROXY" : "https_proxy" }

    @Test(arguments: TestServerScheme.allCases, ["option", "flag", "variable"])
    func requestsGoThroughTheProxyChosenByTheFileTheCommandLineOrTheEnvironment(scheme: TestServerScheme, way: String) async throws {
        let proxy = try await ForwardProxy.start()
        var files = Self.echo
        var arguments = ["run", "requests", "--env", "local"]
        var environment: [String: String] = [:]
        switch way {
        case "option": files["requests/echo.yaml"] = "request: { url: /echo }\noptions: { proxy: \"\(proxy.url)\" }\n"
        case "flag": arguments += ["--proxy", proxy.url]
        default: environment[Self.variable(scheme)] = proxy.url
        }
        let (result, received, port) = try await Folder(scheme: scheme, files: files).run(arguments, scheme: scheme, environment: environment)
        try await proxy.stop()
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.map(\.uri) == ["/echo"])
        let expected = Self.expectedTarget(scheme, port: port)
        #expect(proxy.forwarded.map { "\($0.method) \($0.target)" } == ["\(expected.method) \(expected.target)"])
    }

    /// `proxy: none`, `NO_PROXY` and `--proxy none` (over a file's proxy and the process environment's) go directly.
    @Test(arguments: TestServerScheme.allCases, ["none", "NO_PROXY", "--proxy none"])
    func proxyNoneAndNoProxyGoDirectly(scheme: TestServerScheme, way: String) async throws {
        let proxy = try await ForwardProxy.start()
        var files = Self.echo
        var environment = [Self.variable(scheme): proxy.url]
        var arguments = ["run", "requests", "--env", "local"]
        switch way {
        case "none": files["requests/echo.yaml"] = "request: { url: /echo }\noptions: { proxy: none }\n"
        case "NO_PROXY": environment["NO_PROXY"] = "example.test, .0.0.1:1, 127.0.0.1"
        default:
            files["requests/echo.yaml"] = "request: { url: /echo }\noptions: { proxy: \"\(proxy.url)\" }\n"
            arguments += ["--proxy", "none"]
        }
        let (result, received, _) = try await Folder(scheme: scheme, files: files)
            .run(arguments, scheme: scheme, environment: environment)
        try await proxy.stop()
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.map(\.uri) == ["/echo"])
        #expect(proxy.forwarded.isEmpty)
    }

    @Test(arguments: TestServerScheme.allCases)
    func credentialsInTheProxyURLAreSentAndHidden(scheme: TestServerScheme) async throws {
        let proxy = try await ForwardProxy.start(username: "ci", password: "pr0xy-secret")
        let url = "http://ci:pr0xy-secret@127.0.0.1:\(proxy.port)"
        let (result, received, _) = try await Folder(scheme: scheme, files: Self.echo)
            .run(["run", "requests", "--env", "local", "--verbose"], scheme: scheme, environment: [Self.variable(scheme): url])
        try await proxy.stop()
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.count == 1)
        #expect(proxy.forwarded.map(\.proxyAuthorization) == ["Basic " + Data("ci:pr0xy-secret".utf8).base64EncodedString()])
        #expect(received.allSatisfy { $0.header("Proxy-Authorization") == nil }, "the proxy keeps them")
        for text in [result.stdout, result.stderr] {
            #expect(!text.contains("pr0xy-secret") && !text.contains(Data("ci:pr0xy-secret".utf8).base64EncodedString()), "\(text)")
        }
    }

    /// `--verbose` shows the `CONNECT` the proxy refused and its 407, not the request, which was not sent.
    @Test(arguments: TestServerScheme.allCases, [false, true])
    func aProxyAnswering407IsAnErrorSayingAuthenticationIsRequired(scheme: TestServerScheme, verbose: Bool) async throws {
        let proxy = try await ForwardProxy.start(username: "ci", password: "pr0xy-secret")
        let (result, received, port) = try await Folder(scheme: scheme, files: Self.echo)
            .run(["run", "requests", "--env", "local", "--proxy", proxy.url] + (verbose ? ["--verbose"] : []), scheme: scheme)
        try await proxy.stop()
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("the proxy 127.0.0.1:\(proxy.port) requires authentication (407 Proxy Authentication Required)"),
                "\(result.stdout)")
        #expect(result.stdout.contains("> CONNECT 127.0.0.1:\(port)\n> Host: 127.0.0.1:\(port)\n") == verbose, "\(result.stdout)")
        #expect(result.stdout.contains("< 407") == verbose, "\(result.stdout)")
        #expect(!result.stdout.contains("> GET") && !result.stdout.contains("> POST"), "\(result.stdout)")
        #expect(received.isEmpty)
        // Where the proxy comes from (trial helper-188: the error pointed at the URL alone).
        #expect(result.stdout.contains("note: the proxy is the one --proxy gives"), "\(result.stdout)")
    }

    /// A proxy's error is placed at the `options.proxy` of the request that writes it, or names the environment's.
    @Test(arguments: TestServerScheme.allCases)
    func aProxysErrorIsPlacedWhereTheProxyIsWritten(scheme: TestServerScheme) async throws {
        let proxy = try await ForwardProxy.start()
        try await proxy.stop()
        let files = ["requests/echo.yaml": "request: { url: /echo }\noptions:\n  proxy: \"\(proxy.url)\"\n"]
        let (result, _, _) = try await Folder(scheme: scheme, files: files).run(["run", "requests", "--env", "local"], scheme: scheme)
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("requests/echo.yaml:3:10: error: could not connect to the proxy"), "\(result.stdout)")
    }

    @Test(arguments: TestServerScheme.allCases)
    func anUnreachableProxyIsAnErrorNamingTheProxy(scheme: TestServerScheme) async throws {
        let proxy = try await ForwardProxy.start()
        try await proxy.stop()
        let (result, received, _) = try await Folder(scheme: scheme, files: Self.echo)
            .run(["run", "requests", "--env", "local", "--proxy", proxy.url], scheme: scheme)
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("could not connect to the proxy 127.0.0.1:\(proxy.port)"), "\(result.stdout)")
        #expect(received.isEmpty)
    }

    /// A proxy that accepts the connection and never answers `CONNECT`: the timeout names the proxy, not only the target.
    @Test(arguments: TestServerScheme.allCases)
    func aProxyThatNeverAnswersTimesOutNamingTheProxy(scheme: TestServerScheme) async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let (result, received, _) = try await Folder(scheme: scheme, files: ["requests/echo.yaml": "request: { url: /echo }\noptions: { timeout: 500ms }\n"])
            .run(["run", "requests", "--env", "local", "--proxy", "http://127.0.0.1:\(silent.port)"], scheme: scheme)
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("/echo through the proxy 127.0.0.1:\(silent.port) within 500ms"), "\(result.stdout)")
        #expect(result.stdout.contains("the request was not sent: the tunnel through the proxy (its connection, or its answer to the CONNECT)"),
                "\(result.stdout)")
        #expect(received.isEmpty)
    }

    @Test(arguments: ["run", "validate"])
    func aMalformedProxyURLIsALocatedError(command: String) async throws {
        let files = ["requests/echo.yaml": "request: { url: /echo }\noptions: { proxy: \"ftp://u:hidden@proxy:21\" }\n"]
        let (result, received, _) = try await Folder(scheme: .http, files: files).run([command, "requests", "--env", "local"], scheme: .http)
        let output = result.stdout + result.stderr
        #expect(result.exitCode == 2, "\(output)")
        let message = "requests/echo.yaml:2:19: error: 'options.proxy' is not a proxy URL: 'ftp://u:***@proxy:21'"
        #expect(output.contains(message), "\(output)")
        #expect(received.isEmpty)
    }

    @Test func aThousandSequentialRequestsGoThroughOnePooledTunnel() async throws {
        let proxy = try await ForwardProxy.start()
        let rows = (1...1000).map { "  - { n: \($0) }" }.joined(separator: "\n")
        let files = ["requests/many.yaml": "each:\n\(rows)\nrequest: { url: \"/echo?n={{ n }}\" }\n"]
        let (result, received, _) = try await Folder(scheme: .http, files: files)
            .run(["run", "requests", "--env", "local", "--proxy", proxy.url], scheme: .http)
        try await proxy.stop()
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1000 requests: 1000 passed"), "\(result.stdout.suffix(300))")
        #expect(received.count == 1000)
        #expect(proxy.forwarded.count <= 2 && proxy.forwarded.allSatisfy { $0.method == "CONNECT" },
                "\(proxy.forwarded.map { "\($0.method) \($0.target)" })")
        #expect(proxy.connectionsAccepted <= 2, "\(proxy.connectionsAccepted) connections to the proxy")
    }
}
