import CollectionFormat
import Foundation
import FoundationXML
import HTTPCore
import Loaders
@testable import Reporting
@testable import Running
import Testing
import TestSupport

/// Redaction and the console, JUnit and JSON outputs.
@Suite struct ReportingTests {
    private static let secret = "pa&ss w0rd\"x"

    /// A run whose requests and responses are full of the secret and of hostile characters.
    private func hostileRun() async throws -> (RunSummary, LoadedCollection) {
        let collection = try TestCollection([
            "environments/test.yaml": environment("secrets: { password: { env: PASSWORD } }\nauth: { basic: { username: u, password: '{{ password }}' } }"),
            "requests/1.yaml": """
                name: echo <&> "quoted"
                request:
                  method: POST
                  url: "/echo?p={{ password }}"
                  headers: { X-Secret: "{{ password }}", Cookie: "session=abc" }
                  json: { password: "{{ password }}" }
                expect:
                  body:
                    $.echo: nothing
                """,
            "requests/2.yaml": "request: { url: /down }\n",
            "requests/3.yaml": "skip: '<later>'\nrequest: { url: /x }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load(processEnvironment: ["PASSWORD": Self.secret])
        let echoed = #"{"echo":"\#(Self.secret.replacingOccurrences(of: "\"", with: "\\\""))\u0000\u001b[31m]]>"}"#
        let loader = ScriptedLoader(routes: [
            .path("/v1/echo", .json(echoed, headers: [("Set-Cookie", "token=zzz")])),
            .path("/v1/down", .failure(.cannotConnect)),
        ])
        let summary = await CollectionRun(collection: loaded, options: RunOptions(recordExchanges: true), transport: loader).run()
        return (summary, loaded)
    }

    private func reports() async throws -> (console: String, junit: String, json: String) {
        let (summary, loaded) = try await hostileRun()
        let redactor = Redactor(secrets: loaded.scope.secretValues)
        let console = ConsoleReport(sources: loaded.sources, redactor: redactor, color: false, verbose: true)
        let text = summary.outcomes.map(console.render).joined(separator: "\n") + "\n" + console.summary(summary)
        return (text, JUnitReport.render(summary, sources: loaded.sources, redactor: redactor),
                JSONReport.render(summary, sources: loaded.sources, redactor: redactor))
    }

    @Test func noOutputContainsTheSecretOrCredentialValues() async throws {
        let (console, junit, json) = try await reports()
        for output in [console, junit, json] {
            #expect(!output.contains("w0rd"))
            #expect(!output.contains("pa%26ss"))
            #expect(!output.contains("session=abc"))
            #expect(!output.contains("token=zzz"))
        }
        #expect(console.contains("> Authorization: ***"))
        #expect(console.contains("> X-Secret: ***"))
        #expect(console.contains("< Set-Cookie: ***"))
        #expect(!console.contains("\u{1B}["), "no raw escape sequences from the server")
    }

    /// A request's line stays one line: a line break or tab (a name from a data row may hold them) is a space; other
    /// control characters are shown as escapes.
    @Test func consoleLinesShowEveryColumnAndEscapeControlCharactersOnly() async {
        let console = ConsoleReport(sources: SourceCache(), redactor: Redactor(secrets: ["s3cret"]), color: false, verbose: false)
        func line(name: String, url: String = "http://h/a", attempts: Int = 1, skipReason: String? = nil) -> String {
            console.line(for: RequestOutcome(file: "a.yaml", flow: "Flow", name: name, method: "GET", url: url, verdict: .passed,
                                             statusCode: 200, duration: .milliseconds(84), attempts: attempts, skipReason: skipReason))
        }
        #expect(line(name: "Plain\ttab") == "PASS   Flow › Plain tab  GET http://h/a  200  84 ms")
        #expect(line(name: "Row multi\nline\r\nend") == "PASS   Flow › Row multi line end  GET http://h/a  200  84 ms")
        #expect(line(name: "x", url: "http://h/?k=s3cret", attempts: 2, skipReason: "why")
                == "PASS   Flow › x  GET http://h/?k=***  200  84 ms  (2 attempts)  (why)")
        #expect(line(name: "esc\u{1B}[31m") == "PASS   Flow › esc\\u{1B}[31m  GET http://h/a  200  84 ms")
        #expect(line(name: "c1\u{85}é\u{7F}") == "PASS   Flow › c1\\u{85}é\\u{7F}  GET http://h/a  200  84 ms")
        // A short secret is hidden where it stands whole in the collection's text, not in the status the runner measured.
        let short = ConsoleReport(sources: SourceCache(), redactor: Redactor(secrets: ["200", "GET"]), color: false, verbose: false)
        #expect(short.line(for: RequestOutcome(file: "a.yaml", name: "n", method: "GET", url: "http://h/?c=200", verdict: .passed,
                                               statusCode: 200, duration: .milliseconds(84), skipReason: "200"))
                == "PASS   n  GET http://h/?c=***  200  84 ms  (***)")
        #expect(short.line(for: RequestOutcome(file: "a.yaml", name: "GET", method: "GET", url: "http://h/GET", verdict: .passed))
                == "PASS   ***  GET http://h/***")
        // A URL of a megabyte (a captured value sent in the path) is cut, saying how long it is (trial helper-149).
        let long = "http://h/" + String(repeating: "a", count: 1_000_000)
        #expect(line(name: "x", url: long) == "PASS   Flow › x  GET " + long.prefix(2048) + "… (1000009 bytes)  200  84 ms")
    }

    @Test func junitIsWellFormedWithASuitePerFileAndLocatedFailures() async throws {
        let junit = try await reports().junit
        let document = try XMLDocument(xmlString: junit)
        let suites = try document.nodes(forXPath: "/testsuites/testsuite")
        #expect(suites.count == 3)
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let failure = try #require(try document.nodes(forXPath: "//testcase/failure").first as? XMLElement)
        #expect(failure.stringValue?.contains("requests/1.yaml:9:") == true)
        let testcase = try #require(failure.parent as? XMLElement)
        #expect(testcase.attribute(forName: "name")?.stringValue == #"echo <&> "quoted""#)
        // CI tools group cases by class name: the file's path in dotted form, without its extension.
        #expect(testcase.attribute(forName: "classname")?.stringValue == "requests.1")
        #expect(JUnitReport.className(of: "./requests/users/01-create.v2.yaml") == "requests.users.01-create.v2")
        #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
        #expect((try document.nodes(forXPath: "//testcase/skipped").first as? XMLElement)?
            .attribute(forName: "message")?.stringValue == "<later>")
    }

    /// A flaky pass that --fail-on-flaky fails is located at the retry options it was retried by: when the request has
    /// none, the environment's, in the environment file that sets them (the base of `extends` here); its JUnit test
    /// case keeps the flaky property beside the failure.
    @Test func aFlakyPassFailedByFailOnFlakyIsLocatedAtTheEnvironmentsRetryAndKeepsItsJUnitProperty() async throws {
        let collection = try TestCollection([
            "environments/base.yaml": environment("options:\n  retry: { attempts: 3, delay: 10ms, on: [503] }\n"),
            "environments/test.yaml": "extends: base\nvariables: { x: 1 }\n",
            "requests/a.yaml": "request: { url: /a }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load()
        #expect(loaded.diagnostics.isEmpty)
        var options = RunOptions()
        options.failOnFlaky = true
        let loader = ScriptedLoader([.response(status: 503), .response(status: 200)])
        let summary = await CollectionRun(collection: loaded, options: options, transport: loader).run()
        let outcome = try #require(summary.outcomes.first)
        #expect(outcome.verdict == .failed && outcome.flaky)
        // Its last hop, the 200, is its exchange, as a failure's is (every report shows it).
        #expect(outcome.exchange?.status == 200, "\(String(describing: outcome.exchange))")
        let diagnostic = try #require(outcome.failures.first?.diagnostic)
        #expect(diagnostic.description.hasPrefix("environments/base.yaml:3:10: error: passed only after a retry"), "\(diagnostic)")
        let junit = JUnitReport.render(summary, sources: loaded.sources, redactor: Redactor(secrets: []))
        let document = try XMLDocument(xmlString: junit)
        #expect(try document.nodes(forXPath: "//testcase[failure]/properties/property[@name='flaky'][@value='true']").count == 1,
                "\(junit)")
        #expect(try document.nodes(forXPath: "//testcase[failure]/system-out").count == 1, "\(junit)")
        // Without --fail-on-flaky, the flaky pass is a pass and keeps no exchange.
        let passed = await CollectionRun(collection: loaded, options: RunOptions(),
                                         transport: ScriptedLoader([.response(status: 503), .response(status: 200)])).run()
        #expect(passed.outcomes.first?.verdict == .passed && passed.outcomes.first?.flaky == true && passed.outcomes.first?.exchange == nil)
    }

    @Test func jsonReportHasEveryOutcome() async throws {
        let json = try await reports().json
        let document = try JSONValue.parse(json)
        guard case .object(let root) = document, case .array(let requests)? = root["requests"],
              case .object(let summary)? = root["summary"] else {
            Issue.record("unexpected shape: \(json)")
            return
        }
        #expect(root["version"] == .int(1))
        #expect(summary["total"] == .int(3))
        #expect(summary["exitStatus"] == .int(3))
        let results = requests.compactMap { request -> JSONValue? in
            if case .object(let object) = request { return object["result"] } else { return nil }
        }
        #expect(results == [.string("failed"), .string("errored"), .string("skipped")])
        guard case .object(let first) = requests[0], case .array(let failures)? = first["failures"],
              case .object(let failure) = failures[0] else {
            Issue.record("no failure in \(json)")
            return
        }
        #expect(failure["location"] == .string("requests/1.yaml:9:13"))
        #expect(failure["expected"] == .string(#""nothing""#))
    }

    @Test func recordedExchangesHideOAuth2Tokens() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": """
                request: { url: /reports }
                auth: { oauth2: { tokenURL: /oauth/token, clientID: c, clientSecret: s } }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [
            .path("/v1/oauth/token", .json(#"{"access_token":"tok-abc-123","token_type":"Bearer","expires_in":60}"#)),
        ], fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(recordExchanges: true), transport: loader).run()
        let exchanges = try #require(summary.outcomes.first?.exchanges)
        #expect(exchanges.count == 2)
        #expect(exchanges.allSatisfy { !($0.responseBody ?? "").contains("tok-abc-123") })
        #expect(exchanges[0].responseBody?.contains(#""access_token": "***""#) == true)
        #expect(exchanges[1].requestHeaders.contains { $0.name == "Authorization" && $0.value == "***" })
    }

    /// A JSON body is indented with its tokens as received: a secret whose emoji is split between a JSON escape and an
    /// HTML reference keeps both halves (parsed, the lone escaped half would become U+FFFD and leave the rest of the
    /// secret in view), and is hidden; a number beyond 2^53 is not rewritten as a Double.
    @Test func aJSONBodyIsIndentedWithItsTokensAsReceived() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /reports }\nexpect: { status: 201 }\n",
            "requests/2.yaml": "request: { url: /big }\nexpect: { status: 201 }\n",
        ])
        defer { collection.remove() }
        let body = #"{"v": "pw\ud83d&#56832;emoji-Zz", "w": "\ud83d\ude00"}"#
        let loader = ScriptedLoader(routes: [.path("/v1/reports", .json(body)), .path("/v1/big", .json(#"{"id":[12345678901234567890]}"#))],
                                    fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader).run()
        let exchange = try #require(summary.outcomes.first?.exchange)
        let indented = { (exchange: Exchange?) in exchange?.responseBody.map { Exchange.shown($0, isJSON: exchange?.responseBodyIsJSON == true) { $0 } } }
        #expect(indented(exchange) == "{\n  \"v\": \"pw\\ud83d&#56832;emoji-Zz\",\n  \"w\": \"\\ud83d\\ude00\"\n}")
        #expect(indented(summary.outcomes.last?.exchange) == "{\n  \"id\": [\n    12345678901234567890\n  ]\n}")
        let shown = ExchangeText.render(exchange, redactor: Redactor(secrets: ["pw😀emoji-Zz"]))
        #expect(shown.contains(#""v": "***""#) && !shown.contains("moji") && !shown.contains("\u{FFFD}"), "\(shown)")
    }

    /// A body over the 64 KiB the reports keep, cut again for the console, is said to be of the size received.
    @Test func aCutBodyIsShownWithTheSizeReceived() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /big }\nexpect: { status: 201 }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/big", .response(status: 200, body: Data(String(repeating: "x", count: 200_000).utf8)))],
                                    fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader).run()
        let exchange = try #require(summary.outcomes.first?.exchange)
        #expect(exchange.responseBodySize == 200_000)
        let shown = ExchangeText.render(exchange, redactor: Redactor(secrets: []), bodyLimit: 2048)
        #expect(shown.hasSuffix("… (200000 bytes)"), "\(shown.suffix(80))")
    }

    /// A body is redacted before it is indented: a secret that is itself JSON, echoed as JSON, is found as written.
    @Test func aSecretThatIsJSONEchoedAsJSONIsHiddenBeforeTheBodyIsIndented() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /echo }\nexpect: { status: 201 }\n",
        ])
        defer { collection.remove() }
        let secret = #"{"key":"abcdef123456","id":"x"}"#
        let loader = ScriptedLoader(routes: [.path("/v1/echo", .json(#"{"echo":"# + secret + #","n":[1,2]}"#))], fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader).run()
        let exchange = try #require(summary.outcomes.first?.exchange)
        let redactor = Redactor(secrets: [secret])
        for shown in [ExchangeText.render(exchange, redactor: redactor), ExchangeText.bodyStart(of: exchange, redactor: redactor) ?? "",
                      JSONReport.render(summary, sources: SourceCache(), redactor: redactor)] {
            #expect(!shown.contains("abcdef123456") && shown.contains("***"), "\(shown)")
        }
        #expect(ExchangeText.render(exchange, redactor: redactor).contains("<   \"echo\": ***,\n<   \"n\": [\n<     1,"))
        // Written again by a server that parsed it (other order, other spacing), its strings are hidden.
        let rewritten = redactor.redact(#"{"json": {"id": "x", "key": "abcdef123456"}, "k": "abcdef123456"}"#)
        #expect(!rewritten.contains("abcdef"), "\(rewritten)")
    }

    /// A token request that fails is placed at the `tokenURL` it went to: the request's own auth, or the environment's
    /// in the environment file; the request's URL places the errors of the request itself.
    @Test func aFailedTokenRequestIsPlacedAtItsTokenURL() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("auth:\n  oauth2: { tokenURL: /env/token, clientID: c, clientSecret: s }\n"),
            "requests/1.yaml": "request: { url: /reports }\nauth:\n  oauth2: { tokenURL: /own/token, clientID: c, clientSecret: s }\n",
            "requests/2.yaml": "request: { url: /reports }\n",
            "requests/3.yaml": "request: { url: /down }\nauth: none\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [
            .path("/v1/own/token", .json("{}")),
            .path("/v1/env/token", .response(status: 500)),
            .path("/v1/down", .failure(.cannotConnect)),
        ], fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader).run()
        let errors = summary.outcomes.map { $0.error.map { "\($0.path ?? ""):\($0.mark.map { "\($0.line):\($0.column)" } ?? "")" } }
        #expect(errors == ["requests/1.yaml:3:23", "environments/test.yaml:3:23", "requests/3.yaml:1:17"], "\(summary.outcomes.map(\.error))")
        // The requests whose token request failed were not sent: they have no status of their own.
        #expect(summary.outcomes.map(\.statusCode) == [nil, nil, nil])
    }

    /// A token request that times out is the timeout of the token request: its URL named, placed at its `tokenURL`; it
    /// carries the User-Agent every request gets.
    @Test func aTokenRequestThatTimesOutNamesTheTokenURL() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /reports }\nauth:\n  oauth2: { tokenURL: /slow/token, clientID: c, clientSecret: s }\n"
                + "options: { timeout: 200ms }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/slow/token", .delayed(.seconds(5), .json("{}")))],
                                    fallback: .response(status: 200))
        var options = RunOptions()
        options.userAgent = "runner/test"
        let summary = await CollectionRun(collection: await collection.load(), options: options, transport: loader).run()
        let error = try #require(summary.outcomes.first?.error)
        #expect(error.message == "no complete response from http://api.test/v1/slow/token within 200ms")
        #expect(error.mark.map { "\($0.line):\($0.column)" } == "3:23")
        #expect(await loader.received.map(\.path) == ["/v1/slow/token"])
        #expect(await loader.received.first?.headers["User-Agent"] == "runner/test")
    }

    /// A run cancelled while a token request waits for its answer ends at once: the request is SKIP (cancelled), the
    /// token request cancelled with it (it is shared by the requests waiting for it, and all of them were cancelled).
    @Test func aRunCancelledWhileATokenIsFetchedEndsAtOnce() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /reports }\nauth:\n  oauth2: { tokenURL: /slow/token, clientID: c, clientSecret: s }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/slow/token", .delayed(.seconds(20), .json("{}")))],
                                    fallback: .response(status: 200))
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader)
        let task = Task { await run.run() }
        try await Task.sleep(for: .milliseconds(300))
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let summary = await task.value
        #expect(cancelledAt.duration(to: .now) < .seconds(10), "the token request ran to its end")
        #expect(summary.outcomes.map(\.skipReason) == ["cancelled"])
    }

    /// An access token the OAuth2 loader fetched and sent, the refresh and ID tokens its response held (not sent), and
    /// Basic credentials sent decoded, are hidden where a server echoes them, like credentials written in the request
    /// (trial helper-95: a refresh token was hidden in the token response only).
    @Test func credentialsTheLoadersSentAreHiddenWhereAServerEchoesThem() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /reports }\nauth: { oauth2: { tokenURL: /oauth/token, clientID: c, clientSecret: s } }\n",
            "requests/2.yaml": "request: { url: /basic }\nauth: { basic: { username: bob, password: pl4inPass } }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [
            .path("/v1/oauth/token", .json(#"{"access_token":"tok-abc-123","token_type":"Bearer","expires_in":60,"#
                                           + #""refresh_token":"rfr-xyz-789","IdToken":{"jwt":"eyJ0.id-tok"},"#
                                           + #""data":[{"Refresh-Token":"nested-rt-55"}]}"#)),
        ], fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader).run()
        let redactor = Redactor(secrets: [])
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        #expect(redactor.redact(#""Authorization": "Bearer tok-abc-123""#) == #""Authorization": "Bearer ***""#)
        #expect(redactor.redact("user bob:pl4inPass, password pl4inPass") == "user bob:***, password ***")
        #expect(redactor.redact(#"{"echo": "rfr-xyz-789", "id": "eyJ0.id-tok", "n": "nested-rt-55"}"#)
                == #"{"echo": "***", "id": "***", "n": "***"}"#)
    }

    /// The credentials of a token response the auth refuses (an error status; no `access_token` it reads; fields
    /// separated by `;`) are hidden where a later response echoes them (trial helper-96).
    @Test(arguments: [
        ScriptedLoader.Reply.response(status: 400, body: Data(#"{"error":"invalid_grant","refresh_token":"rfr-refused-41","id_token":"acc-camel-42"}"#.utf8)),
        .json(#"{"accessToken":"acc-camel-42","data":{"refresh_token":"rfr-refused-41"}}"#),
        .response(status: 200, body: Data("token_type=bearer;access_token=acc-camel-42;refresh_token=rfr-refused-41".utf8)),
    ])
    func credentialsOfARefusedTokenResponseAreHiddenWhereAServerEchoesThem(reply: ScriptedLoader.Reply) async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /reports }\nauth: { oauth2: { tokenURL: /oauth/token, clientID: c, clientSecret: s } }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/oauth/token", reply)], fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(), transport: loader).run()
        #expect(summary.outcomes.first?.verdict == .errored)
        let redactor = Redactor(secrets: [])
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        #expect(!redactor.redact("echo rfr-refused-41 acc-camel-42").contains("-4"))
    }

    /// A method that is not a standard one is redacted (a credential given as the method through a YAML alias); a
    /// standard one is shown whatever short secret equals it.
    @Test func aMethodIsRedactedUnlessItIsAStandardOne() {
        let redactor = Redactor(secrets: ["Hunter2Secret-M", "GET"])
        #expect(redactor.redactMethod("Hunter2Secret-M") == "***" && redactor.redactMethod("GET") == "GET")
        #expect(redactor.redactMethod("PURGE") == "PURGE")
    }

    @Test func redactorHidesSecretsEscapedAsHTMLAndCredentialsWrittenInSourceLines() async {
        let redactor = Redactor(secrets: [#"Tom&Jerry"42"#])
        for echoed in ["<td>Tom&amp;Jerry&quot;42</td>", "<v>Tom&amp;Jerry\"42</v>", "<td>Tom&amp;Jerry&#34;42</td>"] {
            #expect(redactor.redact(echoed).contains("***"), "\(echoed)")
        }
        let lines = [
            ("    Authorization: Bearer abc123xyz", "    Authorization: Bearer ***"),
            (#"  headers: { Authorization: "Basic dXNlcjpwYXNz", X-Other: keep }"#, #"  headers: { Authorization: "Basic ***", X-Other: keep }"#),
            ("auth: { basic: { username: bob, password: hunter2 } }", "auth: { basic: { username: bob, password: *** } }"),
            // A comma in a plain credential (which YAML ends there in `{ }`) is hidden with the rest of it, up to the next key.
            ("auth: { basic: { username: u, password: Hunter2Secret,xyz99 } }", "auth: { basic: { username: u, password: *** } }"),
            ("auth: { basic: { password: ab,cd, username: u } }", "auth: { basic: { password: ***, username: u } }"),
            ("    password: Hunter2,xyz", "    password: ***"),
            // A quote not closed on its line (a YAML error) hides the rest of the line.
            (#"    password: "Hunter2Secret"#, #"    password: "***"#),
            (#"auth: { bearer: 'Tok12345 }"#, #"auth: { bearer: '***"#),
            // Glued to its key, or cut by a comma before a template.
            ("request: { headers: { Authorization:Bearer-Tok12345 } }", "request: { headers: { Authorization:*** } }"),
            ("auth: { basic: { username: u, password: Hunter2Secret,{{ x }} } }", "auth: { basic: { username: u, password: *** } }"),
            (#"auth: { bearer: "{{ token }}" }"#, #"auth: { bearer: "{{ token }}" }"#),
            // A header named as an API key, a token or a secret.
            ("    X-Api-Key: Hunter2Secret", "    X-Api-Key: ***"),
            ("  headers: { X-Auth-Token: Hunter2Secret, apikey: 'Hunter2Secret', X-Client-Secret: x, Accept: a }",
             "  headers: { X-Auth-Token: ***, apikey: '***', X-Client-Secret: ***, Accept: a }"),
            // Text after a template in a plain value, and a plain value that starts with a template.
            ("    Authorization: Basic {{ nope }} Hunter2Secret", "    Authorization: Basic {{ nope }} ***"),
            ("  Cookie: a=b; {{ nope }} sid=Hunter2Secret", "  Cookie: *** {{ nope }} ***"),
            ("  password: {{ nope }} Hunter2Secret", "  password: {{ nope }} ***"),
            ("  access_token: Hunter2Secret", "  access_token: ***"),
            // A `}` glued to more text in a plain value; names of credentials import knows too.
            ("auth: { basic: { username: u, password: x}Hunter2Secret } }", "auth: { basic: { username: u, password: *** } }"),
            ("  headers: { api_key: Hunter2Secret, X-Session: Hunter2Secret, Ocp-Apim-Subscription-Key: Hunter2Secret }",
             "  headers: { api_key: ***, X-Session: ***, Ocp-Apim-Subscription-Key: *** }"),
            ("    passwd: Hunter2Secret", "    passwd: ***"),
            // A URL's query item named as a credential, but a template there.
            (#"  url: "/a?api_key=Hunter2Secret&page=2&access_token={{ t }}""#, #"  url: "/a?api_key=***&page=2&access_token={{ t }}""#),
            // What a capture or a check reads is no credential.
            ("    token: $.access_token", "    token: $.access_token"),
            ("    X-Auth-Token: { exists: true }", "    X-Auth-Token: { exists: true }"),
            ("    accessToken: { header: X-Token }", "    accessToken: { header: X-Token }"),
            // A JSONPath key ending in a credential's name is a member a check reads (trial helper-133).
            ("    $.headers.X-Api-Key: wrong-value", "    $.headers.X-Api-Key: wrong-value"),
            ("    $.headers.X-Api-Key: { equalz: abc123 }", "    $.headers.X-Api-Key: { equalz: abc123 }"),
            ("    $.headers.X-Api-Key: [abc123]", "    $.headers.X-Api-Key: [abc123]"),
            (#"  body: { "$.auth.password": pw-Expected, password: Hunter2Secret }"#, #"  body: { "$.auth.password": pw-Expected, password: *** }"#),
            // Text after a quoted value (a YAML error) is hidden with it.
            (#"  bearer: "{{ nope }}" Hunter2Secret"#, #"  bearer: "{{ nope }}***"#),
            (#"  password: "abc" Hunter2Secret, user: u"#, #"  password: "***, user: u"#),
            ("  tokenURL: http://127.0.0.1:9/token", "  tokenURL: http://127.0.0.1:9/token"),
            // A doubled quote inside a single-quoted value not closed on its line; a comment after a hidden value.
            ("  tok: { env: T, default: 'it''s-Hunter2Secret }", "  tok: { env: T, default: '***"),
            ("  tok: { env: T, default: abc }  # Hunter2Secret", "  tok: { env: T, default: *** }  # ***"),
            // Text written beside a template is hidden, the templates and an Authorization value's scheme kept.
            (#"auth: { bearer: "Hunter2Secret{{ x }}" }"#, #"auth: { bearer: "***{{ x }}" }"#),
            (#"    Authorization: "Bearer {{ t }}-Hunter2Secret""#, #"    Authorization: "Bearer {{ t }}***""#),
            ("    password: '{{ a }}:{{ b }}'", "    password: '{{ a }}:{{ b }}'"),
            ("  pw: { env: PWX, default: Hunter2Secret,xyz99 }", "  pw: { env: PWX, default: *** }"),
            (#"  pw: { env: QA_PW, default: "xq9" }"#, #"  pw: { env: QA_PW, default: "***" }"#),
            ("  password: { env: QA_PASSWORD }", "  password: { env: QA_PASSWORD }"),
            (#"auth: { bearer: "{{ token }}" }"#, #"auth: { bearer: "{{ token }}" }"#),
            ("  Cookie: sid=abc; x=y  # session", "  Cookie: ***  # ***"),
            // A list or mapping written as a credential, but a secret's definition and an auth: mapping's keys.
            ("auth: { bearer: [Hunter2Secret] }", "auth: { bearer: [***] }"),
            ("  password: { v: Hunter2Secret, w: [x] }  # old", "  password: { *** }  # ***"),
            ("  headers: { Authorization: [Bearer Hunter2Secret, {a: b}], X: 1 }", "  headers: { Authorization: [***], X: 1 }"),
            ("  Cookie: { sid: Hunter2Secret", "  Cookie: { *** "),
            ("auth: { bearer: {x}Hunter2Secret }", "auth: { bearer: { *** }***"),
            ("    password: [a]Hunter2Secret, b", "    password: [***]***"),
            ("auth: [bearer, Hunter2Secret]", "auth: [***]"),
            ("  password: { env: QA_PASSWORD, default: Hunter2Secret }", "  password: { env: QA_PASSWORD, default: *** }"),
            ("auth: { basic: { username: u, password: [\"a]b\"] } }", "auth: { basic: { username: u, password: [***] } }"),
            // A quoted value whatever follows it (a key without a value), and a text written as auth: itself.
            (#"auth: { basic: { username: u, password: "Hunter2Secret",x } }"#, #"auth: { basic: { username: u, password: "***",x } }"#),
            (#"  headers: { Authorization: 'Bearer Hunter2Secret', X-A }"#, #"  headers: { Authorization: 'Bearer ***', X-A }"#),
            ("auth: bearer xyzTokenAbc123", "auth: ***"),
            ("auth: BEARER=xyzTokenAbc123  # old style", "auth: ***  # ***"),
            // Any case, and a key whose letters lowercase to the key's (the Kelvin sign to `k`), past text that is not ASCII.
            ("… PassWord: Hunter2Secret", "… PassWord: ***"),
            ("  coo\u{212A}ie: sid=abc", "  coo\u{212A}ie: ***"),
            // A capture's source names a cookie: its name is no credential.
            ("      ca: { cookie: session }", "      ca: { cookie: session }"),
            ("    cookie: session", "    cookie: session"),
            // A Cookie header with a bare value (trial helper-137: quoted as it was in a YAML error's line).
            ("  headers: { Cookie: sessionSECRET1, X-A: {{ }} }", "  headers: { Cookie: ***, X-A: {{ }} }"),
            ("    Cookie: sessionSECRET1: x", "    Cookie: ***"),
            // A URL's password, also where it shows again when it is long enough to hide on its own.
            (#"  url: "http://u:1@127.0.0.1:1/a1b?x=1""#, #"  url: "http://u:***@127.0.0.1:1/a1b?x=1""#),
            (#"  url: "http://u:L1neS3cret@127.0.0.1:1/L1neS3cret""#, #"  url: "http://u:***@127.0.0.1:1/***""#),
            // Its length is counted decoded, as it is sent: `p%20q1` is 4 characters.
            (#"  url: "http://u:p%20q1@127.0.0.1:1/p%20q1/p q1""#, #"  url: "http://u:***@127.0.0.1:1/p%20q1/p q1""#),
            (#"  url: "http://u:p%20q1xy@127.0.0.1:1/p%20q1xy/p q1xy""#, #"  url: "http://u:***@127.0.0.1:1/***/***""#),
        ]
        for (line, shown) in lines { #expect(redactor.redactSourceLine(line) == shown) }
    }

    @Test func redactorHidesEncodedFormsAndCredentialHeaders() async {
        let redactor = Redactor(secrets: ["a b&c", ""])
        #expect(redactor.redact("x=a%20b%26c y=a b&c") == "x=*** y=***")
        // Encoded keeping letters and digits only, as Foundation's .alphanumerics does.
        #expect(Redactor(secrets: ["pw-1.x_y"]).redact("p=pw%2D1%2Ex%5Fy") == "p=***")
        #expect(redactor.redactHeader(name: "proxy-authorization", value: "Basic x") == "***")
        #expect(redactor.redactHeader(name: "X-Other", value: "v a b&c") == "v ***")
        #expect(Redactor(secrets: []).redact("unchanged") == "unchanged")
    }

    @Test func aLearntValueIsHiddenEscapedTwice() async {
        let redactor = Redactor(secrets: [])
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        outcome.sensitiveValues = [#"Gr\u00c3\u00bc\u00c3\u009fe\u00e2\u0080\u0094\u00e7\u00a7\u0098\u00e5\u00af\u0086\u00f0\u009f\u0094\u0091x"#]
        redactor.learn(from: outcome)
        #expect(redactor.redact(#""{\"e\":\"Gr\\\\u00c3\\\\u00bc\\\\u00c3\\\\u009fe\\\\u00e2\\\\u0080\\\\u0094\\\\u00e7\\\\u00a7\\\\u0098\\\\u00e5\\\\u00af\\\\u0086\\\\u00f0\\\\u009f\\\\u0094\\\\u0091x\"}""#) == #""{\"e\":\"***\"}""#)
    }

    /// A learnt credential too short to hide inside other text is hidden where it stands as a whole value; not a number, a
    /// boolean or a method, which would hide every status, count or method (trial helper-187).
    @Test func aShortLearntValueIsHiddenWholeUnlessCommon() async {
        let redactor = Redactor(secrets: [])
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        outcome.sensitiveValues = ["xq7", "200", "POST", "true"]
        redactor.learn(from: outcome)
        #expect(redactor.redact(#"{"p": "xq7", "s": 200, "m": "POST", "b": true, "w": "xq7x"} ?k=xq7"#)
                    == #"{"p": "***", "s": 200, "m": "POST", "b": true, "w": "xq7x"} ?k=***"#)
    }

    /// The texts of a captured credential: a list's elements each, of a mapping (a looped element) the fields a request
    /// sends as credentials, not its names and ids (trial helper-187: every field was hidden).
    @Test func aCredentialMappingHidesTheFieldsSentAsCredentials() throws {
        let users = try JSONValue.parse(#"[{"name":"alice-w","id":7,"key":"KeyAlice123"},{"name":"bob-t","id":8,"key":"KeyBob456"}]"#)
        #expect(SensitiveText.credentialTexts(of: users, sent: ["users", "key"]) == ["KeyAlice123", "KeyBob456"])
        #expect(SensitiveText.credentialTexts(of: try JSONValue.parse(#"{"a":"x1","b":["y2",null,true]}"#), sent: ["c"])
                    == ["x1", "y2"])
    }

    /// A long learnt value (a captured body holding a secret) is hidden as written and as a message shows it, and is
    /// learnt at once (its every encoded form took seconds per hundred KiB).
    @Test func aLongLearntValueIsHiddenAsWrittenAndInAMessage() async {
        let redactor = Redactor(secrets: [])
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        let long = "Ab3+dEf \"" + String(repeating: "x y ", count: 250_000)
        outcome.sensitiveValues = [long]
        redactor.learn(from: outcome)
        #expect(redactor.redact("<" + long + ">") == "<***>")
        #expect(redactor.redact(JSONValue.string(long).serialized()) == #""***""#)
    }

    /// A secret a server wrapped across lines (a line break inside it, as written or JSON-escaped, and the indentation of
    /// the next line) is hidden whole (trial helper-94).
    @Test func aSecretWrappedAcrossLinesIsHidden() {
        let redactor = Redactor(secrets: ["sk_live_9f8e7d6c5b4a3210ZZqq", "Grüße-Geheim-Wort!42", "open sesame-42x", "Xy7+Qw9/Rt5+Pz3/Lm8k"])
        for (text, shown) in [
            ("token sk_live_9f8e7d\n6c5b4a3210ZZqq end", "token *** end"),
            ("token sk_live_9f8e7d\r\n    6c5b4a3210ZZqq end", "token *** end"),
            (#"{"t": "sk_live_9f8e7d\n6c5b4a3210ZZqq"}"#, #"{"t": "***"}"#),
            (#"{"t": "sk_l\r\nive_9f8e7d6c5b4a\n3210ZZqq"}"#, #"{"t": "***"}"#),
            ("Grüße-Geh\neim-Wort!42.", "***."),
            // Indented with tabs, and as a failure's `actual:` line shows a JSON body holding it (escaped once more).
            ("token sk_live_9f8e7d\n\t\t6c5b4a3210ZZqq end", "token *** end"),
            (#""{\"t\": \"sk_live_9f8e7d\\n\t6c5b4a3210ZZqq\"}""#, #""{\"t\": \"***\"}""#),
            (#""{\"t\": \"sk_live_9f8e7d\\r\\n  6c5b4a3210ZZqq\"}""#, #""{\"t\": \"***\"}""#),
            (#""sk_live_9f8e7d\r\n\t6c5b4a3210ZZqq""#, #""***""#),
            // Percent-encoded.
            ("q=sk_live_9f8e7d%0A%20%206c5b4a3210ZZqq&", "q=***&"),
            // Spaces or tabs ending the line before the break, and a value going on with a space after it (trial helper-96).
            ("token sk_live_9f8e7d \n6c5b4a3210ZZqq end", "token *** end"),
            ("sk_live_9f8e7d\t\r\n 6c5b4a3210ZZqq", "***"),
            (#""sk_live_9f8e7d \\n6c5b4a3210ZZqq""#, #""***""#),
            ("q=sk_live_9f8e7d+%0A6c5b4a3210ZZqq&", "q=***&"),
            ("say open\n sesame-42x.", "say ***."),
            // Its base64 (its padding is no part of it), wrapped with an escaped or indented break, or a percent-encoded one.
            (#""WHk3K1F3OS9SdD\\nUrUHozL0xtOGs=""#, #""***=""#),
            ("WHk3K1F3OS9SdD\n    UrUHozL0xtOGs=", "***="),
            ("b=WHk3K1F3OS9SdD%0AUrUHozL0xtOGs%3D", "b=***%3D"),
            // A line break before or after a secret stays.
            ("a\nsk_live_9f8e7d6c5b4a3210ZZqq\nb", "a\n***\nb"),
        ] {
            #expect(redactor.redact(text) == shown, "\(text)")
        }
        // As a server reads it from a multipart name, a quoted string whose `\x` stands for `x`, echoed in JSON (trial helper-136).
        let quotedPairs = Redactor(secrets: [#"Qw3"rty\Uiop#9"#, #"Tok\en-Value-77"#])
        #expect(quotedPairs.redact(#"{"n-Qw3\"rtyUiop#9": "x", "n-Token-Value-77": "y"}"#) == #"{"n-***": "x", "n-***": "y"}"#)
        // Its base64 on a line of its own, its last group of four ending on the next line (`\n` after it), or its first
        // group starting on the line before: the other line stays whole (trial helper-127).
        let short = Redactor(secrets: ["hunter2xyz"])
        #expect(short.redact("label5 x\naHVudGVyMnh5ego\nend\n") == "label5 x\n***\nend\n")
        #expect(short.redact("id C\nmh1bnRlcjJ4eXo= end") == "id C\n***= end")
    }

    /// A secret a server split in two (at a space, a `<br>`, a quoted-printable soft line break, a line break with a
    /// quote's prefix, or as two header lines joined by `, `) is hidden in both parts of 8 characters or more (trial
    /// helper-96); a part that reads as a word is not.
    @Test func aSecretSplitInTwoIsHiddenInBothParts() {
        let redactor = Redactor(secrets: ["Zq7xK9mWp4Lt2VbN8rYc", "password-Zq7x9"])
        for split in ["Zq7xK9mWp4 Lt2VbN8rYc", "Zq7xK9mWp4<br>Lt2VbN8rYc", "Zq7xK9mWp4=\r\nLt2VbN8rYc", "Zq7xK9mWp4\n> Lt2VbN8rYc",
                      "Zq7xK9mWp4, Lt2VbN8rYc", "Zq7xK9mWp4L\u{2028}t2VbN8rYc", "Zq7xK9mW p4Lt2VbN8rYc"] {
            let shown = redactor.redact(split)
            #expect(!shown.contains("Zq7xK9") && !shown.contains("N8rYc"), "\(split) -> \(shown)")
        }
        #expect(redactor.redact("reset your password for Zq7x9") == "reset your password for Zq7x9")
    }

    /// A copy sharing its results redacts a long text once for every report that shows it, and again once a value was
    /// learnt since (a later outcome revealing a token an earlier body holds).
    @Test func sharedResultsAreRedactedAgainOnceAValueIsLearnt() {
        let redactor = Redactor(secrets: ["kQ7-secret-Zp4"])
        let shared = redactor.sharingResults()
        let body = String(repeating: "a", count: 2000) + " kQ7-secret-Zp4 tok-Learnt-9x7Q " + String(repeating: "b", count: 2000)
        let first = shared.redact(body)
        #expect(first.contains(" *** tok-Learnt-9x7Q ") && shared.redact(body) == first)
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        outcome.sensitiveValues = ["tok-Learnt-9x7Q"]
        redactor.learn(from: outcome)
        #expect(shared.redact(body).contains(" *** *** "), "what a copy learns, the sharing copy hides at once")
    }

    @Test func redactorHidesDoublyEscapedSecretsAndWhatOutcomesReveal() async {
        let redactor = Redactor(secrets: [#"pw-"x"#])
        #expect(redactor.redact(#"{"body":"{\"p\":\"pw-\\\"x\"}"}"#) == #"{"body":"{\"p\":\"***\"}"}"#)
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        outcome.sensitiveValues = ["dXNlcjpwdw==", "tail-of-token"]
        let copy = redactor
        #expect(copy.redact("Basic dXNlcjpwdw== tail-of-token") == "Basic dXNlcjpwdw== tail-of-token")
        redactor.learn(from: outcome)
        #expect(copy.redact("Basic dXNlcjpwdw== tail-of-token") == "Basic *** ***", "copies share what is learnt")
    }

    @Test func secretsTooShortForFreeTextAreHiddenWhereTheyAreAWholeValue() async {
        let redactor = Redactor(secrets: ["ab", "long-secret"])
        #expect(redactor.redact("ab") == "***")
        #expect(redactor.redact("GET /x?k=ab&abc=1 \"ab\" tab about ab") == "GET /x?k=***&abc=1 \"***\" tab about ***")
        #expect(redactor.redact("abab xlong-secretx") == "abab x***x")
        #expect(redactor.redactHeader(name: "X-Key", value: "ab") == "***")
        // Words read as base64 decode to bytes holding a short secret among binary noise (`demo` is `u` and two bytes that
        // are not UTF-8): that is no whole value. Base64 of text holding it as a value still hides it.
        let one = Redactor(secrets: ["u"])
        #expect(one.redact("my-demo/environments/e.yaml:3:20 demox") == "my-demo/environments/e.yaml:3:20 demox")
        #expect(one.redact("X-User: eyJ1c2VyIjoidSJ9") == "X-User: eyJ1c2VyIjoi***")
        // Runs of letters that decode to bytes with control characters beside a short secret are no text: a header's
        // name stays whole (`ntent-Length` decodes to bytes ending in a vertical tab and `a`).
        #expect(Redactor(secrets: ["a"]).redact("< Content-Length: 14") == "< Content-Length: 14")
        #expect(Redactor(secrets: ["e"]).redact("half-stupidly") == "half-stupidly")
        // The letter of an escape before it is no letter of the text; a `.` or `:` with a letter, a digit or another `:`
        // beyond it joins it to a number, a host, a version or a time.
        #expect(Redactor(secrets: ["GET"]).redact(#""data": "first line\nGET","#) == #""data": "first line\n***","#)
        #expect(Redactor(secrets: ["ok"]).redact(#""line1\nok\nline3\tok\tx""#) == #""line1\n***\nline3\t***\tx""#)
        // Any escape before it: JSON's `\b`, `\f`, `\uXXXX` (a server's escaping of typographic quotes, controls), a URL's
        // `%XX`; and its encoded forms, as a long secret's: percent-encoded, JSON-escaped.
        let ok = Redactor(secrets: ["ok"])
        #expect(ok.redact(#""\u201cok\u201d" "a\bok\fb" "a\u0001ok\u001fb""#) == #""\u201c***\u201d" "a\b***\fb" "a\u0001***\u001fb""#)
        #expect(ok.redact("GET /x?a=x%20ok%20y&b=%C2%ABok%C2%BB") == "GET /x?a=x%20***%20y&b=%C2%AB***%C2%BB")
        #expect(Redactor(secrets: ["a b"]).redact("GET /anything/a%20b?q=a+b") == "GET /anything/***?q=***")
        #expect(Redactor(secrets: ["é"]).redact(#"GET /x/%C3%A9 {"q": "\u00e9"}"#) == #"GET /x/*** {"q": "***"}"#)
        // In base64 of text where it stands apart (`{"p":"ok"}`), not where a run of letters decodes to bytes around it.
        #expect(ok.redact("GET /base64/eyJwIjoib2sifQ==") == "GET /base64/eyJwIjoi***fQ==")
        // With its characters escaped as any encoder chooses (HTML references, mixed-case or repeated percent-encoding,
        // JSON escapes of ASCII), as a long secret is; at either end of base64 of text.
        let acute = Redactor(secrets: ["é"])
        #expect(acute.redact("[&#233;] [&#xe9;] [&eacute;] [%C3%a9] [%2525C3%2525A9] <d>&#233;</d>")
                == "[***] [***] [***] [***] [***] <d>***</d>")
        #expect(ok.redact(#"[&#111;&#107;] [%6f%6b] ["\u006f\u006b"]"#) == #"[***] [***] ["***"]"#)
        #expect(ok.redact("[dGhlIGNvZGUgaXMgb2s=] [cGFzc3dvcmQ6IG9r]") == "[dGhlIGNvZGUgaXMg***=] [cGFzc3dvcmQ6***]")
        // Not inside a word whose letter beside it is escaped, nor inside an escape itself.
        #expect(Redactor(secrets: ["caf"]).redact(#"?w=caf%C3%A9 "caf\u00e9" caf&eacute;"#) == #"?w=caf%C3%A9 "caf\u00e9" caf&eacute;"#)
        #expect(Redactor(secrets: ["ber"]).redact(#"%C3%BCber \u00fcber"#) == #"%C3%BCber \u00fcber"#)
        #expect(ok.redact(#""\u0041ok" "ok\u0041""#) == #""\u0041ok" "ok\u0041""#)
        #expect(Redactor(secrets: ["n"]).redact(#""two\nlines\n""#) == #""two\nlines\n""#)
        #expect(Redactor(secrets: ["20"]).redact("?a=x%20y") == "?a=x%20y")
        #expect(Redactor(secrets: ["amp"]).redact("Hello &amp; welcome") == "Hello &amp; welcome")
        #expect(Redactor(secrets: ["39"]).redact("&#39;y&#39; is 39") == "&#39;y&#39; is ***")
        // After a backslash that makes no escape (a Windows path), and a server's Latin-1 reading of the header «ok».
        #expect(ok.redact(#"x\ok\y C:\dir\ok \xa0ok"#) == #"x\***\y C:\dir\*** \xa0***"#)
        #expect(ok.redact(#""X-B": "\u00c2\u00abok\u00c2\u00bb", "X-C": "Â«okÂ»""#) == #""X-B": "\u00c2\u00ab***\u00c2\u00bb", "X-C": "Â«***Â»""#)
        #expect(ok.redact("okÃ© okü") == "okÃ© okü")
        // Base64 of text beside non-ASCII characters or escapes, not runs of a word's letters whose bytes are no text.
        #expect(ok.redact("[wqtva8K7] [eyJwIjoibGluZVxub2sifQ==] [cD0lMjBvayUyMCZ4PTE=]").components(separatedBy: "***").count == 4)
        #expect(Redactor(secrets: ["a"]).redact("if (theme.startsWith('x')) RFC 9535 JSONPath") == "if (theme.startsWith('x')) RFC 9535 JSONPath")
        #expect(Redactor(secrets: ["x"]).redact("2024-05-14T14:34:04Z a cheerful-looking church d162ae2eb154")
                == "2024-05-14T14:34:04Z a cheerful-looking church d162ae2eb154")
        #expect(Redactor(secrets: ["1"]).redact("mdbook-sidebar-scrollbox") == "mdbook-sidebar-scrollbox")
        // Base64 without padding at a line's end, the next line starting with a letter ({"p":"ok"} is eyJwIjoib2sifQ).
        #expect(ok.redact("A url eyJwIjoib2sifQ\nC next line").contains("***"))
        #expect(ok.redact("case b word\neyJwIjoib2sifQ\nnext").contains("***"))
        // A list of such tokens, one a line, however long; one token wrapped across lines beside a word.
        for count in [3, 14, 40] {
            let list = "tokens\n" + String(repeating: "eyJwIjoib2sifQ\n", count: count) + "done\n"
            #expect(ok.redact(list).components(separatedBy: "***").count == count + 1, "\(count) tokens")
        }
        #expect(ok.redact("start.\neyJwIjoi\nb2sifQ\ndone\n").contains("***"))
        #expect(ok.redact("start.\neyJwI\njoib2\nsifQ\ndone\n").contains("***"))
        // Base64 of text that starts after a path's slash («ok» is wqtva8K7).
        #expect(ok.redact("GET /files/wqtva8K7 and v1/x/wqtva8K7").components(separatedBy: "***").count == 3)
        // After a control's escape written once more: JSON in a JSON string, or percent-encoded.
        #expect(ok.redact(#""data": "{\"n\":\"a\\nok\\nb\",\"t\":\"a\\tok\\tb\"}""#) == #""data": "{\"n\":\"a\\n***\\nb\",\"t\":\"a\\t***\\tb\"}""#)
        #expect(ok.redact("?e=a%5Cnok&f=a%5ctok") == "?e=a%5Cn***&f=a%5ct***")
        let digit = Redactor(secrets: ["1"])
        #expect(digit.redact("GET http://[::1]:8080/x v1.2 127.0.0.1 10:1 {\"a\":1}") == "GET http://[::1]:8080/x v1.2 127.0.0.1 10:1 {\"a\":***}")
    }

    /// The numbers runner writes in a request's name stay, whatever short secret equals them: a step's default name and a
    /// row's number; the rest of the name is redacted.
    @Test func aNameKeepsTheNumbersRunnerWrites() {
        let redactor = Redactor(secrets: ["2", "s3cret-name"])
        #expect(redactor.redactName("flow › step 2") == "flow › step 2")
        #expect(redactor.redactName("users [2] › step 12") == "users [2] › step 12")
        #expect(redactor.redactName("row 2 [2]") == "row *** [2]")
        #expect(redactor.redactName("s3cret-name › 2") == "*** › ***")
    }

    @Test func redactorHidesEveryJSONEscapingOfASecret() async {
        let redactor = Redactor(secrets: ["P\u{E4}sswort123", "a/b<c>&d-\u{1F511}x"])
        for echoed in [
            #"{"p":"P\u00e4sswort123"}"#, #"{"p":"P\u00E4sswort123"}"#,
            #"{"outer":"{\"p\":\"P\\u00e4sswort123\"}"}"#,
            #"{"k":"a\/b\u003cc\u003e\u0026d-\ud83d\udd11x"}"#, #"{"k":"a/b<c>&d-\uD83D\uDD11x"}"#,
        ] {
            let redacted = redactor.redact(echoed)
            #expect(redacted.contains("***") && !redacted.contains("sswort") && !redacted.contains("b<c") && !redacted.contains("b\\u003c"),
                    "\(echoed) -> \(redacted)")
        }
    }

    /// A secret with a C1 control (U+0080–U+009F) is hidden as the runner's JSON writes it (`\u009b`) and as other
    /// encoders do (raw beside an escaped quote, or every non-ASCII character escaped).
    @Test func redactorHidesASecretWithAC1ControlInEveryJSONEscaping() async {
        let redactor = Redactor(secrets: ["q\"\u{9B}-secret"])
        for echoed in [#"{"k":"q\"\#u{9B}-secret"}"#, #"{"k":"q\"\u009b-secret"}"#, #"{"k":"q\"\u009B-secret"}"#,
                       JSONValue.object(JSONObject([("k", .string("q\"\u{9B}-secret"))])).serialized()] {
            #expect(redactor.redact(echoed) == #"{"k":"***"}"#, "\(echoed)")
        }
    }

    /// A secret a server echoes in base64 (a body as a data: URL), wherever it stands in the encoded bytes, standard or
    /// URL-safe: no run of its characters that decodes to a piece of the secret is left.
    /// A server that strips characters off a secret's ends (httpbin's `lstrip('Bearer ')` eats a token's first letters
    /// when they are among `Bearer `) shows the rest: hidden while 8 characters or more are left, also JSON-escaped.
    @Test func redactorHidesASecretEchoedWithAFewCharactersCutOffItsEnds() {
        let redactor = Redactor(secrets: ["abcdef-secret-token-123", "short-9ch"])
        for echoed in ["bcdef-secret-token-123", "def-secret-token-123", "abcdef-secret-token-1", "{\"token\": \"bcdef-secret-token-123\"}",
                       "bcdef-secret-token-12", "def-secret-token-1"] {
            #expect(!redactor.redact(echoed).contains("secret-token"), "\(echoed) -> \(redactor.redact(echoed))")
        }
        // Never fewer than 8 left (a longer first or last part is hidden as a secret split in two is): a secret's short
        // tail stays text; and a word left is no secret's piece (every "password" would be hidden).
        #expect(redactor.redact("ef-secret-token-123") == "***" && redactor.redact("token-123") == "***")
        #expect(redactor.redact("oken-123") == "***" && redactor.redact("ken-123") == "ken-123")
        #expect(redactor.redact("hort-9ch") == "***" && redactor.redact("ort-9ch") == "ort-9ch")
        let worded = Redactor(secrets: ["qa-password-1"])
        #expect(worded.redact("password-1") == "***" && worded.redact(#"{"password": "x"}"#) == #"{"password": "x"}"#)
    }

    /// What is left of a secret with its ends cut off is hidden in every form the secret is: percent-encoded, HTML- and
    /// JSON-escaped, its UTF-8 read as Latin-1, in base64 (a server that strips a prefix, then echoes the value in a URL
    /// or a page).
    @Test func aSecretWithItsEndsCutOffIsHiddenInEveryEncoding() {
        let secret = "Gr+ü/p4ss&w=rd#9"
        let redactor = Redactor(secrets: [secret])
        for cut in [String(secret.dropFirst()), String(secret.dropFirst(2).dropLast()), String(secret.dropFirst(3))] {
            let latin1 = String(decoding: cut.utf8.map { UInt16($0) }, as: UTF16.self)
            let escapedNonASCII = cut.unicodeScalars.map { $0.isASCII ? String($0) : "\\u00fc" }.joined()
            // Every character as an HTML reference, decimal or hex, or as a JSON escape (an encoder's choice, or a mix).
            let references = cut.unicodeScalars.map { "&#\($0.value);" }.joined()
            let hexReferences = cut.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
            let escapes = cut.unicodeScalars.map { "\\u00" + String($0.value, radix: 16) }.joined()
            let mixed = cut.unicodeScalars.enumerated().map { $0.offset.isMultiple(of: 2) ? String($0.element) : "&#\($0.element.value);" }.joined()
            // Its UTF-8 misread as Latin-1, then JSON-escaped (Flask) or percent-encoded.
            let misreadEscaped = latin1.unicodeScalars.map { $0.isASCII ? String($0) : "\\u00" + String($0.value, radix: 16) }.joined()
            let misreadEncoded = latin1.utf8.map { String(format: "%%%02X", $0) }.joined()
            for echoed in [references, hexReferences, escapes, mixed, misreadEscaped, misreadEncoded, PercentEncoding.encode(cut), PercentEncoding.encode(cut).replacingOccurrences(of: "%20", with: "+"),
                           cut.replacingOccurrences(of: "&", with: "&amp;"), escapedNonASCII, latin1, Data(cut.utf8).base64EncodedString()] {
                // Base64's last characters also depend on what follows the secret: those few may show.
                let shown = redactor.redact("v=" + echoed + ";")
                #expect(shown.hasPrefix("v=***") && shown.count <= "v=***;".count + 3, "\(cut): \(echoed) -> \(shown)")
            }
        }
    }

    /// What is left of a secret with its ends cut off is hidden JSON-escaped and then percent-encoded (`%5C%22`,
    /// `%5Cu00e4`), JSON-escaped again or HTML-escaped (`\&quot;`, `&#92;&quot;`), also as a failure shows such a value
    /// (escaped once more), with several secrets known at once (trials helper-89 and helper-90).
    @Test func aCutSecretEscapedTwiceIsHidden() {
        let secrets = [#"abcdefgh"ijklmnop"#, #"pässwörd&<"/+ x;=Q7z"#, #"a/b+c=d e;f&g"h<i>j"#, ##"Zürich<K3y>"#42ü"##, #"back\slash-99x"#]
        let redactor = Redactor(secrets: secrets)
        /// `text` in a JSON string, `"` and `\` escaped, and non-ASCII characters as `\u00XX` when `nonASCII`.
        func json(_ text: String, nonASCII: Bool = false) -> String {
            text.unicodeScalars.map { scalar in
                switch scalar {
                case "\"", "\\": "\\" + String(scalar)
                case _ where nonASCII && !scalar.isASCII: "\\u" + String(format: "%04x", scalar.value)
                default: String(scalar)
                }
            }.joined()
        }
        for secret in secrets {
            for cut in [String(secret.dropFirst()), String(secret.dropLast()), String(secret.dropFirst(2).dropLast())] {
                for escaped in [json(cut), json(cut, nonASCII: true)] {
                    /// `text` escaped as HTML, `"` as `quote` (and `\\` as `&#92;` when `backslash`).
                    func html(_ text: String, quote: String, backslash: Bool = false) -> String {
                        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: quote)
                            .replacingOccurrences(of: "\\", with: backslash ? "&#92;" : "\\")
                    }
                    let htmlForms = [html(escaped, quote: "&quot;"), html(escaped, quote: "&#34;"), html(escaped, quote: "&#x22;"),
                                     html(escaped, quote: "&quot;", backslash: true), html(json(escaped), quote: "&quot;")]
                    for echoed in [PercentEncoding.encode(escaped), json(escaped), json(json(escaped)), json(PercentEncoding.encode(escaped))]
                        + htmlForms + htmlForms.map({ json($0) }) {
                        let shown = redactor.redact("v=" + echoed + ",")
                        #expect(shown == "v=***,", "\(cut): \(echoed) -> \(shown)")
                    }
                }
            }
        }
    }

    /// A secret, or what is left of it with its ends cut off, encoded in any of the ways servers do and then in base64 (a
    /// query, an HTML page, a JSON string a server sends on in base64), or in base64 twice, is hidden: base64 text is
    /// decoded and searched (trial helper-91). And a space written `+` in a form, then percent-encoded, is one.
    @Test func aSecretEncodedThenInBase64IsHidden() {
        let secrets = [#"abcdefgh"ijklmnop"#, #"pässwörd&<"/+ x;=Q7z"#, #"C:\temp\K3y-77"#, "tok_9f8e7d6c5b4a3f2e1d0c9b8a"]
        let redactor = Redactor(secrets: secrets)
        func percent(_ text: String, keeping kept: String) -> String {
            text.utf8.map { byte in
                let character = Character(Unicode.Scalar(byte))
                return byte < 0x80 && (character.isLetter || character.isNumber || "_.-~".contains(character) || kept.contains(character))
                    ? String(character) : String(format: "%%%02X", byte)
            }.joined()
        }
        func json(_ text: String) -> String {
            text.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\" + String($0) : $0.isASCII ? String($0) : String(format: "\\u%04x", $0.value) }.joined()
        }
        let encoders: [(String) -> String] = [
            { $0 }, { percent($0, keeping: "") }, { percent($0, keeping: "/") },
            { percent($0.replacingOccurrences(of: " ", with: "\u{1}"), keeping: "").replacingOccurrences(of: "%01", with: "+") },
            json, { $0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;") },
            { String(decoding: $0.utf8.map { UInt16($0) }, as: UTF16.self) }, { Data($0.utf8).base64EncodedString() },
        ]
        for secret in secrets {
            for cut in [secret, String(secret.dropFirst()), String(secret.dropLast(2)), String(secret.dropFirst(2).dropLast())] {
                for encode in encoders {
                    for prefix in ["", "x", "xy"] {
                        let echoed = Data((prefix + encode(cut)).utf8).base64EncodedString()
                        let shown = redactor.redact("v=" + echoed + ",")
                        #expect(shown.contains("***") && shown.count <= "v=***,".count + 8, "\(cut): \(encode(cut)) -> \(shown)")
                    }
                }
                // Form-encoded, then percent-encoded: the space is `%2B`.
                let formThenPercent = percent(encoders[3](cut), keeping: "")
                #expect(redactor.redact("v=" + formThenPercent + ",") == "v=***,", "\(cut): \(formThenPercent)")
            }
        }
        // Base64 text cut short (`…`) inside the secret's part: its start is hidden.
        let encoded = Data(("{\"token\": \"" + secrets[3] + "\"}").utf8).base64EncodedString()
        for length in [28, 33, 40, 47] {
            let shown = redactor.redact("body: " + encoded.prefix(length) + "…")
            #expect(shown.hasSuffix("***…") && shown.count <= "body: ***…".count + 16, "\(encoded.prefix(length)) -> \(shown)")
        }
        // Three steps real systems take (trial helper-92): JSON in an HTML attribute of a page shown as HTML, a value in a
        // URL inside a URL inside a URL, JSON escaped three times, base64 three times, and the UTF-8 misread twice.
        let (quoted, path) = (secrets[0], secrets[2])
        func html(_ text: String) -> String { text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;") }
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        func misread(_ text: String) -> String { String(decoding: text.utf8.map { UInt16($0) }, as: UTF16.self) }
        for (cut, echoed) in [(quoted, html(html(json(quoted)))), (quoted, percent(percent(percent(quoted, keeping: ""), keeping: ""), keeping: "")),
                              (quoted, percent(json(html(quoted)), keeping: "")), (quoted, percent(percent(html(quoted), keeping: ""), keeping: "")),
                              (path, json(json(json(path)))), (path, base64(base64(base64(path)))),
                              (secrets[1], misread(misread(secrets[1]))), (String(secrets[1].dropFirst()), misread(misread(String(secrets[1].dropFirst())))),
                              (String(quoted.dropFirst()), html(html(json(String(quoted.dropFirst())))))] {
            let shown = redactor.redact("v=" + echoed + ",")
            #expect(shown.hasPrefix("v=***") && shown.count <= "v=***,".count + 8, "\(cut): \(echoed) -> \(shown)")
        }
        // Words and ordinary identifiers stay.
        for text in ["Password Server token", "my-long-identifier_name", "ResponseHeaders1234"] { #expect(redactor.redact(text) == text) }
    }

    @Test func redactorHidesASecretEchoedInBase64() {
        let secret = "hunter2-the-secret?>"
        let redactor = Redactor(secrets: [secret])
        for prefix in ["", "a", "ab", "data: {\"k\": \""] {
            let standard = Data((prefix + secret + "\"}").utf8).base64EncodedString()
            for echoed in [standard, standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")] {
                let pieces = redactor.redact(echoed).components(separatedBy: "***")
                // Hidden from the group the secret starts in to the group it ends in: the prefix's groups and the
                // closing `"}` (with the secret's last bytes, at most 2 groups) are all that is left.
                #expect(pieces.count == 2 && pieces[0].count <= (prefix.utf8.count / 3 + 1) * 4 && pieces[1].count <= 8,
                        "\(echoed) -> \(pieces)")
            }
        }
    }

    /// A query holding a secret with characters a URL escapes, echoed in base64 as it was sent (percent-encoded).
    @Test func redactorHidesAPercentEncodedSecretEchoedInBase64() {
        let redactor = Redactor(secrets: ["p@ss wörd&more-9"])
        let echoed = Data("GET /get?k=p%40ss%20w%C3%B6rd%26more-9 HTTP/1.1".utf8).base64EncodedString()
        let pieces = redactor.redact(echoed).components(separatedBy: "***")
        #expect(pieces.count == 2 && pieces[0].count <= 16 && pieces[1].count <= 16, "\(echoed) -> \(pieces)")
    }

    /// A secret percent-encoded as other encoders write it: spaces as `+` (forms, Python's urlencode), escapes in lower
    /// case (.NET), `'` kept (encodeURIComponent); and its base64 sent on in a URL.
    @Test func redactorHidesASecretPercentEncodedAsOtherEncodersWriteIt() {
        let secret = "p@ss wörd&+%\"x<y>'z"
        let redactor = Redactor(secrets: [secret])
        for echoed in ["?password=p%40ss+w%C3%B6rd%26%2B%25%22x%3Cy%3E%27z", "?p=p%40ss%20w%c3%b6rd%26%2b%25%22x%3cy%3e%27z",
                       "?p=p%40ss%20w%C3%B6rd%26%2B%25%22x%3Cy%3E'z",
                       "?b=" + Data(secret.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "%2B")
                           .replacingOccurrences(of: "/", with: "%2F")] {
            let redacted = redactor.redact(echoed)
            #expect(redacted.hasSuffix("=***") || redacted.split(separator: "***").allSatisfy { $0.count <= 8 }, "\(echoed) -> \(redacted)")
        }
    }

    /// A secret echoed with escapes mixed as a server or an encoder chose them (Werkzeug keeps `+` and encodes `=`,
    /// Python's `quote` keeps `/`, IRIs decode non-ASCII characters only), and encoded again (an annotation's `%25`).
    @Test(arguments: [
        ("Ab3+dEfGhI9=", "http://127.0.0.1:1/anything?token=Ab3+dEfGhI9%3D&x=1"),
        ("Ab3+dEfGhI9=", "::error::actual: token=Ab3+dEfGhI9%253D"),
        ("p@ss wörd&=/+Q9", "?t=p%40ss%20wörd%26%3D%2F+Q9&x"),
        ("ab/cd+ef@gh12", "?t=ab/cd%2Bef%40gh12&x"),
        ("ab/cd+ef@gh12", "?t=ab%2fcd ef%40gh12&x"),
        ("50%off!", "?t=50%25off%21&x"),
        // .NET's JSON (`+`, `'`, `"` as \u escapes), shown in a failure (escaped once more); Go's HTML references.
        ("Ab3+dEf/gh==", #"{"token":"Ab3\u002BdEf/gh=="}&x"#),
        ("Ab3+dEf/gh==", #"actual: "{\"token\":\"Ab3\\u002bdEf\/gh==\"}&x"#),
        ("it's-a-\"secret\"", #"{"pw":"it\u0027s-a-\u0022secret\u0022"}&x"#),
        ("Ab3+dEf/gh==", "<p>Ab3&#43;dEf&#x2F;gh&equals;=</p>&x"),
        ("Ab3+dEf/gh==", "<p>Ab3&plus;dEf&sol;gh==&x"),
        // Non-ASCII characters escaped whole, mixed with ASCII escapes: JSON (once and twice, surrogate pairs), HTML
        // references (numeric and PHP's named ones), and every character escaped.
        ("Grüße-x!+Zq", #"{"pw":"Gr\u00fc\u00dfe-x!\u002BZq"}&x"#),
        ("Grüße-x!+Zq", #"actual: "{\"pw\":\"Gr\\u00FC\\u00dfe-x!+Zq\"}&x"#),
        ("Grüße-x!+Zq", "<p>Gr&uuml;&szlig;e-x&excl;&#43;Zq</p>&x"),
        ("Grüße-x!+Zq", "<p>Gr&#252;&#xDF;e-x!+Zq</p>&x"),
        ("Grüße-x!+Zq", #"?pw=Gr%C3%BC\u00dfe-x%21+Zq&x"#),
        ("naïve-ÿes12", "<p>na&iuml;ve-&yuml;es12</p>&x"),
        ("£-¡nbsp¥12", "<p>&pound;-&iexcl;nbsp&yen;12</p>&x"),
        ("k😀y-secret", #"{"pw":"k\ud83d\ude00y-secret"}&x"#),
        ("k😀y-secret", "<p>k&#128512;y-secret</p>&x"),
        ("k😀y-secret", "<p>k&#x1F600;y&#45;secret</p>&x"),
        ("Ab3dEfGh", #"{"pw":"\u0041\u0062\u0033\u0064\u0045\u0066\u0047\u0068"}&x"#),
        // Escapes as other JSON writers put them, which a shown body keeps (it is re-indented, not rewritten).
        ("a/b-Secret9", #"{"x":"a\/b-Secret9"}&x"#),
        ("Grüße-Pass1", #"{"x":"Gr\u00fc\u00DFe-Pass1"}&x"#),
        // An encoded URL shown in a page or a JSON text: its escapes escaped once more, and JSON escapes percent-encoded.
        ("Sq9!sec ret+/=mkB", "<p>Sq9&#37;21sec&#37;20ret&#37;2B&#37;2F&#37;3DmkB</p>&x"),
        ("Sq9!sec ret+/=mkB", #"{"u":"Sq9\u002521sec%20ret\u00252B/%3DmkB"}&x"#),
        ("Sq9!sec ret+/=mkB", "?v=%5Cu0053%5Cu0071%5Cu0039%5Cu0021sec%20ret%2B%2F%3DmkB&x"),
        ("pw😀emoji-Zz", "<pw%5Cud83d%5Cude00%5Cu0065moji-Zz>&x"),
        ("pw😀emoji-Zz", "<p%5Cu0077%5CuD83D%5cude00emoji-Zz>&x"),
        ("pw😀emoji-Zz", #"<pw\ud83d%5Cude00emoji-Zz>&x"#),
        ("pw😀emoji-Zz", #"<pw%5Cud83d\ude00emoji-Zz>&x"#),
        ("pw😀emoji-Zz", "<p%255Cu0077%255Cud83d%255Cude00emoji-Zz>&x"),
        // A character beyond U+FFFF as HTML references to its two UTF-16 halves (JavaScript encoders), mixed with JSON.
        ("pw😀emoji-Zz", "<p>pw&#55357;&#56832;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&#xd83d;&#xde00;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&#xD83D;&#XDE00;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", #"<pw\ud83d&#56832;emoji-Zz>&x"#),
        ("pw😀emoji-Zz", #"<pw&#55357;\ude00emoji-Zz>&x"#),
        ("pw😀emoji-Zz", "<pw&#55357;%5Cude00emoji-Zz>&x"),
        // A reference whose `&` is escaped once more (Go's JSON writes `&` as `\u0026`; a page escapes it as `&amp;`), and
        // numeric references without their `;`, as browsers read them.
        ("Ab3+dEf/gh==", #"{"v":"Ab3\u0026#43;dEf/gh=="}&x"#),
        ("Ab3+dEf/gh==", #"actual: "{\"v\":\"Ab3\\u0026#43;dEf/gh==\"}&x"#),
        ("Ab3+dEf/gh==", "<p>Ab3&amp;#43;dEf&amp;#x2F;gh==</p>&x"),
        ("pw😀emoji-Zz", #"{"v":"pw\u0026#128512;emoji-Zz"}&x"#),
        ("pw😀emoji-Zz", "<p>pw&#55357&#56832emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&#128512emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&amp;#55357;&amp;#56832;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&amp;#xd83d;&amp;#xde00;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", #"{"v":"pw\u0026amp;#55357;\u0026amp;#56832;emoji-Zz"}&x"#),
        ("pw😀emoji-Zz", #"{"v":"pw\u0026#55357;\u0026#56832;emoji-Zz"}&x"#),
        ("pw😀emoji-Zz", "<p>pw&amp;amp;#55357;&amp;amp;#56832;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&#38;#55357;&#x26;#56832;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "<p>pw&AMP;#55357;&AMP;#56832;emoji-Zz</p>&x"),
        ("pw😀emoji-Zz", "?v=pw%26%2355357%3B%26%2356832%3Bemoji-Zz&x"),
        ("pw😀emoji-Zz", "?v=pw%26amp%3B%2355357%3B%26amp%3B%2356832%3Bemoji-Zz&x"),
        ("Ab3+dEf/gh==", "?v=Ab3%26%2343%3BdEf/gh==&x"),
    ])
    func aSecretWithEscapesMixedAsAnEncoderChoseIsHidden(secret: String, echoed: String) {
        let redacted = Redactor(secrets: [secret]).redact(echoed)
        #expect(redacted.contains("***") && !["ef%40", "dEfGhI9", "off", "dEf", "secret", "Zq", "u00", "&#", "mkB", "ret", "moji"].contains(where: redacted.contains),
                "\(echoed) -> \(redacted)")
        #expect(["***&x=1", "***&x", "***", "***\"}&x", "***</p>&x", "***\\\"}&x", "***>&x"].contains(where: redacted.hasSuffix), "\(redacted)")
    }

    /// A secret a server echoes in one case (it normalises what it got) or as hex digits (a debug page's dump) is hidden,
    /// as written and inside JSON.
    @Test func aSecretEchoedInOneCaseOrInHexIsHidden() {
        let secret = "Zr5_tY*8[q]!Bn"
        let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
        let redactor = Redactor(secrets: [secret])
        for echoed in ["/UPPER?S=" + secret.uppercased(), "/lower?s=" + secret.lowercased(), #"{"s": ""# + secret.lowercased() + #""}"#,
                       "dump " + hex + "0a", "DUMP " + hex.uppercased()] {
            let shown = redactor.redact(echoed)
            #expect(shown.contains("***") && !shown.lowercased().contains("ty*8") && !shown.lowercased().contains(String(hex.prefix(12))),
                    "\(echoed) -> \(shown)")
        }
        // A secret beyond ASCII in each case, and with its ASCII letters alone changed, as written and percent-encoded
        // (trial helper-152).
        let wide = Redactor(secrets: ["Grüße-Pass1"])
        for echoed in ["GRÜSSE-PASS1", "grüße-pass1", "GRüßE-PASS1", "GR%C3%BC%C3%9FE-PASS1", "gr%c3%bc%c3%9fe-pass1"] {
            #expect(wide.redact("s=" + echoed + "&") == "s=***&", "\(echoed)")
        }
        // Words of ordinary text in other cases stay.
        #expect(Redactor(secrets: ["Kx9mQ2vLp7Wz"]).redact("KX9 and kx9 and Wz") == "KX9 and kx9 and Wz")
    }

    /// A secret holding `&` that a server read as a query (a redirect's `Location` holding it decoded, followed as
    /// written) is echoed in pieces: each of 6 characters or more is hidden, as written and decoded.
    @Test func thePiecesOfASecretAQuerySplitAreHidden() {
        let redactor = Redactor(secrets: ["Tok'en+/=ü&amp;42", "Zq7#fragment-9x", "short&ab;longerpiece=valuepart"])
        let echoed = #"{"args": {"amp;42": "", "tok": "Tok'en /=ü"}, "url": "http://h/get?tok=Tok'en+/=\u00fc&amp;42", "f": "Zq7", "#
            + #""p": "longerpiece", "v": "valuepart", "w": "short"}"#
        let shown = redactor.redact(echoed)
        #expect(!["amp;42", "Tok'en", "en /=", "fragment", "valuepart"].contains(where: shown.contains), "\(shown)")
        // A name that reads as a word is a key, shown; one of letters in mixed case may be a password's, hidden.
        #expect(shown.contains(#""p": "longerpiece""#), "\(shown)")
        #expect(Redactor(secrets: ["kQpZwRtY=9x12"]).redact("name kQpZwRtY") == "name ***")
        // A piece shorter than 6 characters is not hidden: it would mask common text.
        #expect(shown.contains(#""f": "Zq7""#) && shown.contains(#""w": "short""#), "\(shown)")
        // A secret that is a query itself, or ends in base64 padding, split at its first piece's `=` too.
        let query = Redactor(secrets: ["user=alice123&pass=hunter22", "dGhpc2lzYXNlY3JldA=="])
            .redact(#"{"args": {"user": "alice123", "pass": "hunter22", "dGhpc2lzYXNlY3JldA": "="}}"#)
        #expect(!["alice123", "hunter22", "dGhpc2lz"].contains(where: query.contains), "\(query)")
        // Split at every `;` too, each piece at its first `=` (a connection string).
        let connection = Redactor(secrets: ["Server=db1;Database=orders;Password=hunter2xyz", "alpha1=Value1Secret;bravo2=Value2Secret"])
            .redact("/anything?a=Server&b=Database&e=hunter2xyz&f=Value1Secret&g=Value2Secret")
        #expect(!["hunter2xyz", "orders", "Value1Secret", "Value2Secret"].contains(where: connection.contains), "\(connection)")
        // A name of letters alone is a key, not a secret: every "Password" would be hidden.
        #expect(connection.hasPrefix("/anything?a=Server&b=Database&"), "\(connection)")
        #expect(Redactor(secrets: ["user=alice&password=s3cret-99"]).redact("reset password for alice") == "reset password for alice")
        // So is a name of words joined by `_` or `-` (a token sent that holds a form's field, trial helper-94).
        let learnt = Redactor(secrets: [])
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        outcome.sensitiveValues = ["T1;refresh_token=R1", "x;Access-Token=abcdefgh"]
        learnt.learn(from: outcome)
        #expect(learnt.redact("refresh_token=*** Access-Token=***") == "refresh_token=*** Access-Token=***")
        #expect(learnt.redact("a T1;refresh_token=R1 b") == "a *** b")
        // A piece holding a backslash or a tab, shown JSON-escaped.
        let escaped = Redactor(secrets: ["u=aaaaaaa1&p=bbbb\\bbb2", "u=aaaaaaa1&p=cccc\tccc3"])
            .redact(#"{"p":"bbbb\\bbb2","q":"cccc\tccc3","u":"aaaaaaa1"}"#)
        #expect(!["bbbb", "cccc", "aaaaaaa1"].contains(where: escaped.contains), "\(escaped)")
    }

    /// A body holding a secret of several lines (a PEM key) is hidden in every view of the exchange, where its lines are
    /// each shown after `<` or `>`.
    @Test func aSecretOfSeveralLinesIsHiddenInTheLinesOfABody() {
        let key = "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0B\n-----END PRIVATE KEY-----"
        let redactor = Redactor(secrets: [key])
        let exchange = Exchange(method: "POST", url: "http://127.0.0.1:1/a", requestHeaders: [], requestBody: "key=\(key)\n",
                                status: 400, responseHeaders: [], responseBody: "bad key:\r\n\(key.replacingOccurrences(of: "\n", with: "\r\n"))",
                                error: nil, duration: .milliseconds(1))
        for shown in [ExchangeText.render(exchange, redactor: redactor), ExchangeText.render(exchange, redactor: redactor, bodyLimit: 2048),
                      ExchangeText.bodyStart(of: exchange, redactor: Redactor(secrets: [key.replacingOccurrences(of: "\n", with: "\r\n")])) ?? ""] {
            #expect(!shown.contains("MIIB") && shown.contains("***"), "\(shown)")
        }
    }

    /// A body cut where a hidden secret stands shows the mask whole (`***…`), not a piece of it or of the secret.
    @Test func aCutInsideAHiddenSecretKeepsTheMaskWhole() {
        let secret = "Zx9vQ2mK7pLw4RtY"
        let redactor = Redactor(secrets: [secret])
        for padding in 2044...2048 {
            let body = String(repeating: "x", count: padding) + secret + String(repeating: "y", count: 100)
            let exchange = Exchange(method: "GET", url: "http://127.0.0.1:1/a", requestHeaders: [], requestBody: body, status: 200,
                                    responseHeaders: [], responseBody: body, error: nil, duration: .milliseconds(1))
            let start = ExchangeText.bodyStart(of: exchange, redactor: redactor) ?? ""
            let verbose = ExchangeText.render(exchange, redactor: redactor, bodyLimit: 2048)
            for shown in [start, verbose] {
                #expect(!shown.contains("Zx9") && !shown.contains("x*…") && !shown.contains("x**…"), "\(padding): \(shown.suffix(60))")
            }
            #expect(!(2045...2047).contains(padding) || start.hasSuffix("***…"), "\(padding): \(start.suffix(20))")
        }
    }

    /// A value cut short inside a secret whose every character is escaped (percent-encoded, as HTML references, as JSON
    /// escapes, escaped twice), perhaps inside an escape (`%4…`), shows no piece of the secret before the `…`.
    @Test func aCutInsideAnEscapedSecretHidesItsStart() {
        let secret = "Zq7xKp9rXw3tMv5yHn2bLc4d"
        // With another secret whose escaped forms start as these escapes do (`\\u00fc`).
        let redactor = Redactor(secrets: [secret, "Grüße+K7/p9.Xw3!Mv5yHn2b"])
        let forms = [secret.utf8.map { String(format: "%%%02X", $0) }.joined(), secret.unicodeScalars.map { "&#\($0.value);" }.joined(),
                     secret.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined(),
                     secret.utf8.map { String(format: "\\\\u%04x", $0) }.joined()]
        for form in forms {
            // From 5 characters' escapes on: a start of fewer than 4 bytes is shown before a cut, as it is in plain text.
            for length in 5 * (form.count / secret.count)..<form.count - 1 {
                let shown = redactor.redact("actual: x" + form.prefix(length) + "…")
                #expect(shown == "actual: x***…", "\(length): \(shown)")
            }
        }
        // As a failure shows a body that holds the secret escaped (`\u005a` escaped once more), cut at every place.
        let escaped = secret.utf8.map { String(format: "\\\\u%04x", $0) }.joined()
        for padding in 150...230 {
            let line = "= actual:   \"echo:" + String(repeating: "x", count: padding) + escaped + String(repeating: "y", count: 40)
            let cut = String(line.prefix(300)) + "…"
            let shown = redactor.redact(cut)
            let visible = shown.components(separatedBy: "***").first ?? shown
            #expect(!visible.contains("\\u005a\\u0071\\u0037"), "\(padding): \(shown.suffix(80))")
        }
        // A word before a cut that is no secret's start stays.
        #expect(redactor.redact("Loading...") == "Loading...")
    }

    /// A secret with characters JSON escapes (a line break, a tab, a quote), in a JSON body a server echoed inside a JSON
    /// string, as a failure shows that body (escaped a third time); with a line break at its end, as a server trims it.
    @Test func aSecretJSONEscapedThreeTimesOrTrimmedOfItsLineBreakIsHidden() {
        let key = "-----BEGIN KEY-----\nMIIBVQ\t\"x\"\n-----END KEY-----", token = "Zx9vQ2mK7pLw4RtY\n"
        let redactor = Redactor(secrets: [key, token])
        let body = JSONValue.object(JSONObject([("key", .string(key))])).serialized()
        let echoed = JSONValue.object(JSONObject([("v", .string(body))])).serialized()
        let shown = JSONValue.string(echoed).serialized()
        #expect(!redactor.redact(shown).contains("MIIB"), "\(shown) -> \(redactor.redact(shown))")
        #expect(redactor.redact("invalid token 'Zx9vQ2mK7pLw4RtY'") == "invalid token '***'")
        #expect(Redactor(secrets: ["    ", " \n\t"]).redact("a    b\n    c") == "a    b\n    c", "white space alone is not hidden")
    }

    /// Base64 sent on in a URL with its `+` and `/` escaped in lower case (`%2b`, `%2f`).
    @Test func base64EscapedInLowerCaseIsHidden() {
        let secret = "p@ss wörd&+%\"x<y>'😀z"
        let encoded = Data(secret.utf8).base64EncodedString()
        #expect(encoded.contains("+") && encoded.contains("/"))
        let echoed = encoded.replacingOccurrences(of: "+", with: "%2b").replacingOccurrences(of: "/", with: "%2f")
        #expect(Redactor(secrets: [secret]).redact("actual: \"\(echoed)\"") == "actual: \"***\"")
    }

    /// Values hidden where they overlap are hidden as one stretch: a learnt capture that runs from one copy of a secret
    /// into the next, longer than the secret, leaves no part of either copy.
    @Test func overlappingHiddenValuesLeaveNoPartOfEither() {
        let secret = "7Kp2Wm9xQz4Lr8Vt"
        let redactor = Redactor(secrets: [secret])
        var outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "/a", verdict: .passed)
        outcome.sensitiveValues = ["xQz4Lr8Vt-7Kp2Wm9"]
        redactor.learn(from: outcome)
        #expect(redactor.redact("a \(secret)-\(secret) b") == "a *** b")
        #expect(redactor.redact("\(secret)\(secret)") == "******", "copies side by side are each hidden")
    }

    /// Text cut short ends in `…`: the start of a secret or of a part of it (of 4 bytes or more) right before it is
    /// hidden; shorter ones and text that is not the start of one stay.
    @Test func theStartOfASecretBeforeACutIsHidden() {
        let redactor = Redactor(secrets: ["7Kp2Wm9xQz4Lr8Vt", "Grüße-secret"])
        #expect(redactor.redact(#"expected "a", got "xx7Kp2Wm9x…""#) == #"expected "a", got "xx***…""#)
        #expect(redactor.redact(#"got "Gr\u00fc…"#) == #"got "***…"#, "a JSON-escaped form cut inside an escape")
        #expect(redactor.redact("< 7Kp2Wm9xQ…\n(cut at 64 KiB of 9 bytes)") == "< ***…\n(cut at 64 KiB of 9 bytes)")
        #expect(redactor.redact("x 7Kp… and 7Kp2 y") == "x 7Kp… and 7Kp2 y")
        #expect(redactor.redact("Wm9xQz… 7Kp2Wm9xQz4Lr8Vt…") == "***… ***…",
                "a whole secret before a cut is hidden as any, and the start of its last part (a secret split in two)")
        #expect(redactor.redact("invalid key 7Kp2Wm9x... (see docs)") == "invalid key ***... (see docs)", "as servers cut a key")
    }

    /// Base64 of a secret, once, twice or three times, cut short where 4 bytes of the secret or more came: hidden, as a
    /// server's cut body shows it (trial helper-196 M1: 6 or 7 base64 characters showed 4 or 5 of the secret).
    @Test func theStartOfASecretInBase64BeforeACutIsHidden() {
        let secret = "Zq7xP4mW9kR2vL8s"
        let redactor = Redactor(secrets: [secret])
        func base64(_ text: String, times: Int) -> String {
            (0..<times).reduce(text) { text, _ in Data(text.utf8).base64EncodedString() }
        }
        for (times, lengths) in [(1, 6...12), (2, 10...18), (3, 14...24)] {
            for length in lengths {
                let cut = String(base64(secret, times: times).prefix(length))
                let shown = redactor.redact(#"{"echo": ""# + cut + "…")
                #expect(shown == #"{"echo": "***…"#, "\(times) times, \(length) characters: \(cut) -> \(shown)")
            }
        }
        // Three characters of it (4 base64 characters) are not hidden: too short to be known as its start.
        #expect(redactor.redact("x WnE3…") == "x WnE3…")
        // MIME's lines cut right after a line's end, raw or JSON-escaped (trial helper-197 N2), and base64 whose `/` and `+`
        // are percent-encoded cut inside an escape (N3).
        let mime = Data((String(repeating: "x", count: 50) + secret).utf8).base64EncodedString(options: .lineLength76Characters)
        let line = String(mime.prefix(76))
        for end in ["\\n…", "\\r\\n…", "\r\n…", "\n…", " …"] {
            let shown = redactor.redact(#"{"echo": ""# + line + end)
            #expect(!shown.contains(String(line.suffix(12))), "\(end): \(shown)")
        }
        let slashed = Redactor(secrets: ["k>?Qw~x9!Zp>?Lm3"])
        for cut in ["az4%2FUXd%…", "az4%2FUXd%2…", "az4%2fUXd%2b…"] {
            #expect(slashed.redact("echo: " + cut).hasPrefix("echo: ***"), "\(cut): \(slashed.redact("echo: " + cut))")
        }
    }

    /// Every form the runner gives a secret in a URL (query encoding, URLComponents', `encodeURL` keeping `#` and valid
    /// escapes), also as servers echo a URL with non-ASCII characters decoded (`pass%20wörd`); and a
    /// non-ASCII secret's UTF-8 read as ISO-8859-1 or Windows-1252, raw, JSON-escaped and as the console shows it.
    @Test func redactorHidesURLFormsAsEchoedAndMisdecodedNonASCIISecrets() async {
        let redactor = Redactor(secrets: ["pass wörd-99", "50%#off-ß", "Grüße—秘密🔑x"])
        for echoed in [
            "?s=pass%20wörd-99", "?s=pass%20w%C3%B6rd-99", "?s=50%25#off-%C3%9F", "?s=50%#off-ß",
            "?s=50%25%23off-ß", "GrÃ¼Ã\u{9F}eâ\u{80}\u{94}ç§\u{98}å¯\u{86}ð\u{9F}\u{94}\u{91}x",
            "GrÃ¼ÃŸeâ€”ç§˜å¯†ðŸ”‘x", #"Gr\u00c3\u00bc\u00c3\u009fe\u00e2\u0080\u0094"#
                + #"\u00e7\u00a7\u0098\u00e5\u00af\u0086\u00f0\u009f\u0094\u0091x"#,
            #"GrÃ¼Ã\u{9F}eâ\u{80}\u{94}ç§\u{98}å¯\u{86}ð\u{9F}\u{94}\u{91}x"#,
        ] {
            let redacted = redactor.redact(echoed)
            #expect(redacted.contains("***") && !redacted.contains("rd-99") && !redacted.contains("off-") && !redacted.contains("Gr"),
                    "\(echoed) -> \(redacted)")
        }
        // A server that writes the secret into a header in Latin-1 (httpbin's /response-headers): its bytes read as
        // UTF-8, each non-ASCII letter a replacement character.
        let latin1 = Redactor(secrets: [#"pä ss&wörd/"x<y>Z"#])
        #expect(latin1.redact("X-Echo: p\u{FFFD} ss&w\u{FFFD}rd/\"x<y>Z") == "X-Echo: ***")
    }

    /// A secret outside ASCII as a host's IDNA label (`xn--…`) and quoted-printable, whole and broken by a soft line
    /// break (trial helper-177: both showed it whole).
    @Test func redactorHidesANonASCIISecretAsAnIDNALabelAndQuotedPrintable() async {
        let redactor = Redactor(secrets: ["пароль7секрет"])
        #expect(redactor.redact("could not connect to xn--7-7sbqaydugkfiq7j.invalid:80") == "could not connect to ***.invalid:80")
        #expect(redactor.redact("X-Trace: =D0=BF=D0=B0=D1=80=D0=BE=D0=BB=D1=8C7=D1=81=D0=B5=D0=BA=D1=80=D0=B5=D1=82") == "X-Trace: ***")
        let broken = redactor.redact("X-Trace: =D0=BF=D0=B0=D1=80=D0=BE=D0=BB=D1=8C7=D1=81=D0=B5=D0=BA=D1=80=D0=\r\n=B5=D1=82")
        #expect(broken.hasPrefix("X-Trace: ***") && !broken.contains("=D0=BF"), "\(broken)")
    }

    /// Werkzeug (httpbin) echoes a URL as an IRI: every escape decoded but those of controls, space, `%` and the
    /// part's reserved characters (`my%20pass"word` in a path), then JSON-escaped in its answer.
    @Test func redactorHidesSecretsInAURLAsWerkzeugEchoesIt() async {
        let redactor = Redactor(secrets: [#"my pass"word"#, #"a b\c12345"#, "x/y?z&w=1 2"])
        for echoed in [
            #""url": "http://127.0.0.1/anything/my%20pass\"word?p=my%20pass\"word""#,
            #""url": "http://127.0.0.1/anything/a%20b\\c12345""#,
            #""url": "http://127.0.0.1/anything/x%2Fy%3Fz&w=1%202?q=x/y?z%26w%3D1%202""#,
        ] {
            let redacted = redactor.redact(echoed)
            #expect(!redacted.contains("pass") && !redacted.contains("c12345") && !redacted.contains("w=1") && !redacted.contains("w%3D1"),
                    "\(echoed) -> \(redacted)")
        }
        // A secret with `+` or an escape, written as it is, comes back decoded as a server reads a query.
        let decoding = Redactor(secrets: ["QUJD+ZGVm/Z2hp==", "pre%41fix-key", "hunter+2 %41"])
        for echoed in [#""args": {"k": "QUJD ZGVm/Z2hp=="}"#, #""args": {"k": "preAfix-key"}"#, #""args": {"q": "hunter 2 %41"}"#] {
            #expect(decoding.redact(echoed).contains("***"), "\(echoed) -> \(decoding.redact(echoed))")
        }
        // Decoded, then encoded again the server's way (httpbin's `url` of a path: its escapes read, a space and `#`
        // escaped, `+` and `/` not).
        let reencoded = Redactor(secrets: ["ab%41 cd#ef", "Gr€ü😀&p%21 s+#?/"])
        for echoed in ["http://127.0.0.1/anything/abA%20cd%23ef/y", "http://127.0.0.1/anything/Gr€ü😀&p!%20s+%23%3F/y",
                       "http://127.0.0.1/anything/abA%20cd%23ef", "q=abA+cd%23ef"] {
            let redacted = reencoded.redact(echoed)
            #expect(!redacted.contains("cd") && !redacted.contains("s+"), "\(echoed) -> \(redacted)")
        }
    }

    @Test func redactorHidesThePasswordOfEveryURLItShows() async {
        let redactor = Redactor(secrets: [])
        #expect(redactor.redact("'options.proxy' is not a proxy URL: 'http://pu:S3cret@127.0.0.1:abc'")
                == "'options.proxy' is not a proxy URL: 'http://pu:***@127.0.0.1:abc'")
        #expect(redactor.redact(" 2 | options: { proxy: \"http://pu:S3cret@127.0.0.1:abc\" }") == " 2 | options: { proxy: \"http://pu:***@127.0.0.1:abc\" }")
        #expect(redactor.redact("GET https://user:pw@host/a@b and http://only-user@host/") == "GET https://user:***@host/a@b and http://only-user@host/")
        #expect(redactor.redact("mail me@example.test, see http://x/y") == "mail me@example.test, see http://x/y")
        // A template in the password, glued to literal text, spaces and all.
        #expect(redactor.redact("GET http://u:{{ x }}Tmpl11@127.0.0.1/a and http://h:80 then") == "GET http://u:***@127.0.0.1/a and http://h:80 then")
    }

    @Test func aNotSentReportHidesAPasswordInTheSourceLineUnderItsError() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(""),
            "requests/1.yaml": "request: { url: /a }\noptions: { proxy: \"http://pu:S3cret@127.0.0.1:abc\" }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load(processEnvironment: [:])
        #expect(!loaded.diagnostics.isEmpty)
        let summary = RunSummary.notSent(loaded.diagnostics, status: 2)
        let redactor = Redactor(secrets: loaded.scope.secretValues)
        let junit = JUnitReport.render(summary, sources: loaded.sources, redactor: redactor)
        let json = JSONReport.render(summary, sources: loaded.sources, redactor: redactor)
        for report in [junit, json] {
            #expect(report.contains("pu:***@127.0.0.1:abc") && !report.contains("S3cret"), "\(report)")
        }
    }

    /// JSON that is not a report says which of its three parts it lacks, or has as something else.
    @Test(arguments: [
        (#"{"version": 1}"#, "it has no 'summary'; it has no 'requests'"),
        (#"{"version": "1", "summary": {}, "requests": []}"#, "its 'version' is a string, not an integer"),
        (#"{"summary": 3, "requests": []}"#, "it has no 'version'; its 'summary' is a number, not an object"),
        (#"{"version": 1, "summary": {"total": 0, "exitStatus": "x"}, "requests": []}"#, "its summary's exitStatus is a string, not an integer"),
        (#"{"version": 1, "summary": {}, "requests": []}"#, "its summary has no 'total'"),
        (#"{"version": 1, "summary": {"total": "3", "exitStatus": 0}, "requests": []}"#, "its summary's total is a string, not an integer"),
        (#"{"version": 1, "summary": {"total": 0}, "requests": []}"#, "its summary has no 'exitStatus'"),
        ("[]", "it has no 'version'; it has no 'summary'; it has no 'requests'"),
    ])
    func jsonThatIsNotAReportSaysWhatItLacks(text: String, lacks: String) {
        #expect(throws: JSONReportDocument.Problem.self) { try JSONReportDocument.read(text, name: "r.json") }
        do { _ = try JSONReportDocument.read(text, name: "r.json") } catch {
            #expect(error.description == "r.json is not a runner JSON report (--report-json): "
                    + lacks)
        }
    }

    /// A request record that is not one says what it lacks.
    @Test(arguments: [
        (#"{"file": "requests/a.yaml", "result": "failed"}"#, "it has no 'name'"),
        (#"{"file": "requests/a.yaml", "name": 3, "result": "failed"}"#, "its 'name' is a number, not a string"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "ok"}"#, "its result 'ok' is none of passed, failed, errored, skipped"),
        ("[]", "it is a list, not an object"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "failed", "status": "200"}"#, "its 'status' is a string, not an integer"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "failed", "durationMs": "fast"}"#, "its 'durationMs' is a string, not a number"),
        // Values no run writes: an edited record.
        (#"{"file": "requests/a.yaml", "name": "a", "result": "failed", "failures": []}"#, "it is failed but lists no failure"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "errored", "attempts": 0}"#, "its attempts 0 is not 1 or more"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "errored", "durationMs": -5}"#, "its durationMs is negative"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "errored", "status": 42}"#, "its status 42 is not an HTTP status (100 to 999)"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "errored"}"#, "it is errored but has no error"),
        (#"{"file": "requests/a.yaml", "name": "a", "result": "passed", "failures": [{"message": "x"}]}"#, "it is passed but lists failures"),
    ])
    func aRequestRecordThatIsNotOneSaysWhatItLacks(record: String, lack: String) {
        let text = #"{"version": 1, "summary": {"total": 1, "exitStatus": 4}, "requests": ["# + record + "]}"
        do { _ = try JSONReportDocument.read(text, name: "r.json"); Issue.record("read \(record)") } catch {
            #expect(error.description == "r.json: request 1 of the report is not a request record: \(lack)")
        }
    }

    /// A report whose records contradict its summary, or whose shard is no part of a run, has been cut short or edited.
    @Test(arguments: [
        (#""summary": {"total": 1, "exitStatus": 4}, "requests": []"#, "r.json: its summary counts 1 request, but it lists 0: is it cut short or edited?"),
        (#""summary": {"total": 0, "exitStatus": 0}, "requests": [], "shard": {"index": 0, "total": 2}"#,
         #"r.json: its shard is not a part of a run ('index' and 'total' integers, 1 <= index <= total): {"index":0,"total":2}"#),
        (#""summary": {"total": 0, "exitStatus": 0}, "requests": [], "failOnFlaky": "yes""#,
         "r.json: its failOnFlaky is a string, not true or false: is it edited?"),
        (#""summary": {"total": 0, "exitStatus": 0}, "requests": [], "shard": {"index": "2", "total": 2}"#,
         #"r.json: its shard is not a part of a run ('index' and 'total' integers, 1 <= index <= total): {"index":"2","total":2}"#),
        (#""summary": {"total": 1, "passed": 0, "failed": 1, "exitStatus": 0}, "requests": [{"file": "requests/a.yaml", "name": "a", "method": "GET", "url": "http://127.0.0.1:1/a", "result": "passed"}]"#,
         "r.json: its summary counts 0 passed, but its records hold 1: is it edited?"),
        (#""summary": {"total": 1, "exitStatus": 4}, "requests": [{"file": "requests/a.yaml", "name": "a", "method": "GET", "url": "http://127.0.0.1:1/a", "result": "passed"}]"#,
         "r.json: its exit status 4 is not the 0 its records give: is it edited?"),
        (#""summary": {"total": 1, "exitStatus": 2}, "requests": [{"file": "requests/a.yaml", "name": "a", "method": "GET", "url": "http://127.0.0.1:1/a", "result": "passed"}]"#,
         "r.json: its exit status 2 says it sent nothing, but it holds request records: is it edited?"),
    ])
    func aReportContradictingItselfIsRefused(members: String, message: String) {
        do { _ = try JSONReportDocument.read(#"{"version": 1, "# + members + "}", name: "r.json"); Issue.record("read \(members)") } catch {
            #expect(error.description == message)
        }
    }

    /// A report read back (by `merge-reports`) keeps each exchange's time, so the merged TAP and HTML show it.
    /// The start of a body kept cut says how large the body was, not how many lines its kept part has.
    @Test func theStartOfACutBodyTellsTheBodysSize() throws {
        let kept = (1...4000).map { "line \($0)" }.joined(separator: "\n")
        var exchange = Exchange(method: "GET", url: "http://127.0.0.1:1/a", requestHeaders: [], requestBody: nil, status: 200,
                                responseHeaders: [], responseBody: kept, error: nil, duration: .milliseconds(1))
        exchange.responseBodySize = 10_000_000
        let cut = try #require(ExchangeText.bodyStart(of: exchange, redactor: Redactor(secrets: [])))
        #expect(cut.hasPrefix("response body (first 20 lines of 10000000 bytes):\n< line 1\n"), "\(cut)")
        // Kept whole: its lines are counted when it is short; a long one (redacted from its start only) says its size.
        exchange.responseBodySize = kept.utf8.count
        let long = try #require(ExchangeText.bodyStart(of: exchange, redactor: Redactor(secrets: [])))
        #expect(long.hasPrefix("response body (first 20 lines of \(kept.utf8.count) bytes):\n"), "\(long)")
        exchange.responseBody = (1...200).map { "line \($0)" }.joined(separator: "\n")
        exchange.responseBodySize = exchange.responseBody?.utf8.count
        let whole = try #require(ExchangeText.bodyStart(of: exchange, redactor: Redactor(secrets: [])))
        #expect(whole.hasPrefix("response body (first 20 of 200 lines):\n"), "\(whole)")
        // A long line after short ones (a JSON string after `{`) is shown cut at the limit, not left out.
        exchange.responseBody = "{\"data\": \"" + String(repeating: "q", count: 5000) + "\"}"
        exchange.responseBodySize = exchange.responseBody?.utf8.count
        exchange.responseBodyIsJSON = true
        let longLine = try #require(ExchangeText.bodyStart(of: exchange, redactor: Redactor(secrets: [])))
        // Its heading says the body's size (trial helper-133: a 9 MB body on one line read as one of 2 KiB).
        #expect(longLine.hasPrefix("response body (first 2 KiB of 5012 bytes):\n< {\n<   \"data\": \"qqq") && longLine.hasSuffix("q…"),
                "\(longLine)")
        #expect(longLine.utf8.count < 2048 + 60, "\(longLine.utf8.count)")
    }

    /// A long body is shown (2 KiB of it) redacted from its start only, as redacting it whole shows it: a secret across
    /// the limit hidden; JSON written with wide white space, laid out tighter than written, is still shown to the limit.
    @Test func aLongBodyIsShownRedactedFromItsStart() throws {
        let secret = "sk_live_9f8e7d6c5b4a3210"
        let body = String(repeating: "a", count: 2040) + secret + String(repeating: "b", count: 100_000)
        var exchange = Exchange(method: "GET", url: "http://127.0.0.1:1/a", requestHeaders: [], requestBody: nil, status: 200,
                                responseHeaders: [], responseBody: body, error: nil, duration: .milliseconds(1))
        let redactor = Redactor(secrets: [secret])
        let shown = ExchangeText.render(exchange, redactor: redactor, bodyLimit: 2048)
        #expect(shown.hasSuffix("< " + String(repeating: "a", count: 2040) + "***bbbbb… (102064 bytes)"), "\(shown.suffix(80))")
        let start = try #require(ExchangeText.bodyStart(of: exchange, redactor: redactor))
        #expect(start.contains("aaa***bbb") && start.hasSuffix("b…") && !start.contains("sk_"), "\(start.suffix(80))")
        exchange.responseBody = "{" + String(repeating: "\"k\"          :          1          ,\n", count: 3000) + "\"z\": 1}"
        exchange.responseBodyIsJSON = true
        let laidOut = ExchangeText.render(exchange, redactor: redactor, bodyLimit: 2048)
        #expect(laidOut.split(separator: "\n").filter { $0.hasPrefix("<   \"k\": 1,") }.count > 2048 / 12, "\(laidOut.suffix(200))")
    }

    @Test func theJSONReportReadBackKeepsTheExchangesTime() throws {
        var outcome = RequestOutcome(file: "requests/a.yaml", name: "a", method: "GET", url: "http://127.0.0.1:1/a", verdict: .failed,
                                     statusCode: 500, duration: .milliseconds(20))
        outcome.failures = [ExpectationFailure(diagnostic: .error("status", path: "requests/a.yaml", at: nil), expected: "200", actual: "500")]
        outcome.exchange = Exchange(method: "GET", url: "http://127.0.0.1:1/a", requestHeaders: [], requestBody: nil, status: 500,
                                    responseHeaders: [], responseBody: nil, error: nil, duration: .microseconds(12_500))
        let json = JSONReport.render(RunSummary(outcomes: [outcome], duration: .milliseconds(25)), sources: SourceCache(),
                                     redactor: Redactor(secrets: []))
        #expect(json.contains("\"durationMs\": 12.5"), "\(json)")
        let read = try JSONReportDocument.read(json, name: "report.json")
        #expect(read.summary.outcomes.first?.exchange?.duration == .microseconds(12_500))
        // A hop that got no response (a timeout, a refused connection): its time is not known, so null.
        var refused = outcome
        refused.exchange = Exchange(method: "GET", url: "http://127.0.0.1:1/a", requestHeaders: [], requestBody: nil, status: nil,
                                    responseHeaders: [], responseBody: nil, error: "connection refused", duration: .milliseconds(3))
        let unanswered = JSONReport.render(RunSummary(outcomes: [refused], duration: .milliseconds(25)), sources: SourceCache(),
                                           redactor: Redactor(secrets: []))
        #expect(unanswered.contains("\"error\": \"connection refused\",\n        \"durationMs\": null"), "\(unanswered)")
    }
}
