import CollectionFormat
import Foundation
import HTTPCore
import Loaders
import Running
import Testing
import TestSupport

/// Building `HTTPRequest`s from definitions: URL, query, headers, bodies, auth and options.
@Suite struct RequestBuildingTests {
    /// The first request a collection sends, as the transport received it.
    private func firstRequest(_ files: [String: String], variables: [(name: String, value: String)] = []) async throws -> HTTPRequest {
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loader = ScriptedLoader()
        let summary = try await collection.run(loader, variables: variables)
        #expect(summary.outcomes.first?.verdict == .passed, "\(summary.outcomes.first?.error?.message ?? "")")
        return try #require(await loader.received.first)
    }

    @Test func jsonBodyKeepsTheTypeOfSingleTemplates() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("variables: { count: 2, user: { name: Ada } }"),
            "requests/a.yaml": """
                request:
                  method: POST
                  url: /users
                  json: { n: "{{ count }}", s: "n={{ count }}", name: "{{ user.name }}", list: [1, null] }
                """,
        ])
        #expect(request.method == .post)
        #expect(request.url?.absoluteString == "http://api.test/v1/users")
        let body = try #require(request.body as? JSONBody)
        #expect(body.value == .object(JSONObject([
            ("n", .int(2)), ("s", .string("n=2")), ("name", .string("Ada")), ("list", .array([.int(1), .null])),
        ])))
    }

    /// A secret in a URL is one value: its `?` and `#` (and in the query its `&` and `+`) are percent-encoded, so the
    /// server gets it whole and every output hides it whole; other variables are inserted as they are.
    @Test func aSecretInAURLIsSentAsOneValue() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("variables: { route: \"a?b=1\" }\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: \"p@ss w&rd+#?x\" } }\n"),
            "requests/a.yaml": #"request: { url: "/json/{{ pw }}/{{ route }}&t={{ pw }}", query: { page: 1 } }"#,
        ])
        #expect(request.url?.absoluteString
                == "http://api.test/v1/json/p@ss%20w&rd+%23%3Fx/a?b=1&t=p@ss%20w%26rd%2B%23%3Fx&page=1")
        // So through another variable, in a URL's password (it went to the host after its `@`), and with its `%`.
        let through = try await firstRequest([
            "environments/test.yaml": environment("variables: { alias: \"{{ pw }}\" }\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: \"s3cr@127.0.0.1:9/x%41?\" } }\n"),
            "requests/a.yaml": #"request: { url: "http://ci:{{ pw }}@api.test/a?v={{ alias }}" }"#,
        ])
        #expect(through.url?.host == "api.test")
        #expect(through.url?.query == "v=s3cr@127.0.0.1:9/x%2541%3F")
        // Brackets in a password, which a URL's authority keeps for an IPv6 address (trial helper-151).
        let bracketed = try await firstRequest([
            "environments/test.yaml": environment("secrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: \"Zr5_tY*8[q]!Bn\" } }\n"),
            "requests/a.yaml": #"request: { url: "http://ci:{{ pw }}@api.test/a" }"#,
        ])
        #expect(bracketed.url?.host == "api.test" && bracketed.components.password == "Zr5_tY*8[q]!Bn", "\(bracketed.components)")
        // In a baseURL's path, a secret holding what a URL cannot (a space, `é`) beside its structure is encoded once;
        // the baseURL's user and password go to every relative request.
        for (secret, path) in [("a b?c", "/t/a%20b%3Fc/x"), ("aé%c", "/t/a%C3%A9%25c/x")] {
            let based = try await firstRequest([
                "environments/test.yaml": "baseURL: \"http://ci:{{ pw }}@api.test/t/{{ pw }}\"\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: \"\(secret)\" } }\n",
                "requests/a.yaml": "request: { url: /x }\n",
            ])
            #expect(based.components.percentEncodedPath == path)
            #expect(based.components.user == "ci" && based.components.password == secret)
        }
        // Inside a mapping, where the secret stands JSON-escaped, it is one value too: its `#` does not end the URL.
        let mapped = try await firstRequest([
            "environments/test.yaml": environment("variables: { m: { p: \"{{ pw }}\" } }\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: 'ab\"c#d' } }\n"),
            "requests/a.yaml": #"request: { url: "/q/{{ m }}?x={{ m }}&y=1" }"#,
        ])
        #expect(mapped.components.percentEncodedPath == "/v1/q/%7B%22p%22:%22ab%5C%22c%23d%22%7D", "\(mapped.components)")
        #expect(mapped.components.percentEncodedQuery == "x=%7B%22p%22:%22ab%5C%22c%23d%22%7D&y=1", "\(mapped.components)")
    }

    @Test func aValueBecomesTheSameTextInTheURLTheQueryAHeaderAndAString() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("variables: { n: 3.0, big: 2.5, flag: true, list: [1, 2.0], e: 1e20 }"),
            "requests/a.yaml": """
                request:
                  url: "/x/{{ n }}?u={{ n }}&b={{ big }}&e={{ e }}"
                  query: { q: "{{ n }}", f: "{{ flag }}", l: "{{ list }}" }
                  headers: { X-N: "{{ n }}" }
                  json: { s: "n={{ n }}" }
                """,
        ])
        #expect(request.url?.absoluteString == "http://api.test/v1/x/3?u=3&b=2.5&e=100000000000000000000&q=3&f=true&l=%5B1%2C2.0%5D")
        #expect(request.headers["X-N"] == "3")
        #expect((request.body as? JSONBody)?.value == .object(JSONObject([("s", .string("n=3"))])))
    }

    @Test func graphqlBodyIsAJSONPostWithTypedVariables() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("variables: { userId: 7, filter: { tag: admin } }"),
            "requests/a.yaml": """
                request:
                  url: /graphql
                  graphql:
                    query: "query User($id: ID!) { user(id: $id) { name } }"
                    variables: { id: "{{ userId }}", label: "user {{ userId }}", filter: "{{ filter }}" }
                    operationName: User
                """,
        ])
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == nil, "the body supplies it")
        let body = try #require(request.body as? JSONBody)
        #expect(body.additionalHeaders["Content-Type"] == "application/json")
        #expect(body.value == .object(JSONObject([
            ("query", .string("query User($id: ID!) { user(id: $id) { name } }")),
            ("variables", .object(JSONObject([
                ("id", .int(7)), ("label", .string("user 7")), ("filter", .object(JSONObject([("tag", .string("admin"))]))),
            ]))),
            ("operationName", .string("User")),
        ])))

        let minimal = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { method: PUT, url: /graphql, graphql: { query: \"{ users { name } }\" } }\n",
        ])
        #expect(minimal.method == .put)
        #expect((minimal.body as? JSONBody)?.value == .object(JSONObject([("query", .string("{ users { name } }"))])))
    }

    @Test func queryRepeatsListsAndEnvironmentDefaultsYieldToTheRequest() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("""
                headers: { X-Team: "{{ team }}", Accept: text/plain }
                query: { lang: en, page: 9 }
                variables: { team: core }
                """),
            "requests/a.yaml": """
                request:
                  url: /search
                  query: { page: 2, tag: [a, b], q: "a&b" }
                  headers: { Accept: application/json }
                """,
        ])
        let items = request.queryItems.map { "\($0.name)=\($0.value ?? "")" }
        #expect(items == ["page=2", "tag=a", "tag=b", "q=a&b", "lang=en"])
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["X-Team"] == "core")
        #expect(request.headers["User-Agent"] == RunOptions().userAgent)
    }

    @Test func textBodyIsPlainTextUnlessAContentTypeIsGiven() async throws {
        let plain = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { method: PUT, url: /t, text: hello }\n",
        ])
        #expect(plain.body.additionalHeaders["Content-Type"] == "text/plain; charset=utf-8")
        #expect(try plain.body.encode() == Data("hello".utf8))
        let typed = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { method: PUT, url: /t, text: '<a/>', headers: { Content-Type: application/xml } }\n",
        ])
        #expect(typed.body.additionalHeaders["Content-Type"] == nil)
        #expect(typed.headers["Content-Type"] == "application/xml")
    }

    @Test func formAndFileBodies() async throws {
        let form = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { method: POST, url: /f, form: { name: Arthur Dent, tag: [a, b] } }\n",
        ])
        #expect(String(decoding: try form.body.encode(), as: UTF8.self) == "name=Arthur%20Dent&tag=a&tag=b")
        let file = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { method: POST, url: /f, file: data/payload.bin }\n",
            "requests/data/payload.bin": "bytes",
        ])
        #expect(try file.body.encode() == Data("bytes".utf8))
        #expect(file.body.additionalHeaders["Content-Type"] == "application/octet-stream")
    }

    @Test func requestAuthOverridesTheEnvironmentAndNoneTurnsItOff() async throws {
        let files = [
            "environments/test.yaml": environment("auth: { bearer: env-token }"),
            "requests/1.yaml": "request: { url: /a }\n",
            "requests/2.yaml": "request: { url: /b }\nauth: { basic: { username: u, password: p } }\n",
            "requests/3.yaml": "request: { url: /c }\nauth: none\n",
        ]
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loader = ScriptedLoader()
        _ = try await collection.run(loader)
        let received = await loader.received
        #expect(received.map { $0.headers["Authorization"] } == ["Bearer env-token", "Basic dTpw", nil])
    }

    /// A retry for a status sends the same request again; each try of a polled step builds it again from its templates,
    /// so its built-ins are drawn anew (docs/format.md, retry and polling).
    @Test func aRetryResendsTheSameRequestWhileEachPollBuildsItAgain() async throws {
        for (on, firstStatus, drawnAgain) in [("[503]", 503, false), ("[expectations]", 500, true)] {
            let collection = try TestCollection([
                "environments/test.yaml": environment(),
                "requests/a.yaml": "request: { url: \"/a?k={{ $uuid }}\" }\nexpect: { status: 200 }\n"
                    + "options: { retry: { attempts: 2, delay: 1ms, on: \(on) } }\n",
            ])
            defer { collection.remove() }
            let loader = ScriptedLoader([.response(status: firstStatus)])
            let summary = try await collection.run(loader)
            #expect(summary.outcomes.first?.verdict == .passed && summary.outcomes.first?.attempts == 2, "\(on)")
            let keys = await loader.received.map { $0.components.query ?? "" }
            #expect(keys.count == 2 && (keys[0] != keys[1]) == drawnAgain, "\(on): \(keys)")
        }
    }

    /// A captured number past a double's range (1e400, infinite) sent in a JSON body is an error at the template that
    /// sends it.
    /// A query or form value whose template gives null (a capture of a JSON null) is an ERROR at it, nothing sent:
    /// the word null would be sent.
    @Test func aQueryOrFormValueThatIsNullIsAnErrorAtItsTemplate() async throws {
        for (key, column) in [("query", 15), ("form", 14)] {
            let collection = try TestCollection([
                "environments/test.yaml": environment(),
                "requests/1.yaml": "request: { url: /a }\ncapture: { gone: $.gone }\n",
                "requests/2.yaml": "request:\n  url: /b\n  \(key): { v: \"{{ gone }}\" }\n",
            ])
            defer { collection.remove() }
            let loader = ScriptedLoader([.response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"gone": null}"#.utf8))])
            let summary = try await collection.run(loader)
            let error = try #require(summary.outcomes.last?.error)
            #expect(summary.outcomes.last?.verdict == .errored && error.mark?.line == 3 && error.mark?.column == column, "\(error)")
            #expect(error.message == "'{{ gone }}' gives null, which a query or form value cannot be: it would be sent as the word null")
            #expect(await loader.received.count == 1)
        }
    }

    /// A header value, a bearer token, a Basic password or a multipart value holding a variable that gives null (a
    /// capture of a JSON null) is an ERROR at the variable, nothing sent: `Bearer null` would be sent (trial helper-181).
    @Test func aNullInAHeaderCredentialOrMultipartValueIsAnErrorAtItsVariable() async throws {
        for (written, line, column, what) in [("request:\n  url: /b\n  headers: { X-Id: \"id-{{ gone }}\" }\n", 3, 24, "a header value"),
                                              ("request: { url: /b }\nauth: { bearer: \"{{ gone }}\" }\n", 2, 18, "a bearer token"),
                                              ("request: { url: /b }\nauth: { basic: { username: u, password: \"{{ gone }}\" } }\n", 2, 42, "a password"),
                                              ("request:\n  url: /b\n  multipart: [ { name: n, value: \"{{ gone }}\" } ]\n", 3, 35, "a multipart value"),
                                              ("request: { url: \"/b/{{ gone }}\" }\n", 1, 21, "a URL")] {
            let collection = try TestCollection([
                "environments/test.yaml": environment(),
                "requests/1.yaml": "request: { url: /a }\ncapture: { gone: $.gone }\n",
                "requests/2.yaml": written,
            ])
            defer { collection.remove() }
            let loader = ScriptedLoader([.response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"gone": null}"#.utf8))])
            let summary = try await collection.run(loader)
            let error = try #require(summary.outcomes.last?.error)
            #expect(summary.outcomes.last?.verdict == .errored && error.mark?.line == line && error.mark?.column == column, "\(error)")
            #expect(error.message == "'{{ gone }}' gives null, which \(what) cannot hold: it would be sent as the word null")
            #expect(await loader.received.count == 1)
        }
    }

    @Test func aNumberJSONCannotExpressIsAnErrorAtItsTemplate() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /a }\ncapture: { big: $.big }\n",
            "requests/2.yaml": "request:\n  url: /b\n  json: { v: \"{{ big }}\" }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader([.response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"big": 1e400}"#.utf8))])
        let summary = try await collection.run(loader)
        let error = try #require(summary.outcomes.last?.error)
        #expect(summary.outcomes.last?.verdict == .errored && error.mark?.line == 3 && error.mark?.column == 14, "\(error)")
        #expect(error.message == "the JSON body holds infinity (YAML's .inf, or a number past a double's range such as 1e400), which JSON "
                    + "cannot express, from '{{ big }}'")
        #expect(error.suggestion == "capture or give a finite number, or send it as a string")
        #expect(await loader.received.count == 1)
    }

    @Test func environmentOptionsAreDefaultsThatRequestsOverrideKeyByKey() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("options: { timeout: 10s, followRedirects: false, retry: { attempts: 2, delay: 1ms } }"),
            "requests/a.yaml": "request: { url: /a }\noptions: { timeout: 5s, retry: { attempts: 4 } }\n",
        ])
        #expect(request.options.timeout == .seconds(5))
        #expect(request.options.followRedirects == false)
        #expect(request.options.retry?.attempts == 4)
        #expect(request.options.retry?.delay == .milliseconds(1))
    }

    @Test(arguments: [
        (environmentOptions: "", requestOptions: "", timeout: RequestBuilder.defaultTimeout),
        (environmentOptions: "options: { timeout: 10s }", requestOptions: "", timeout: .seconds(10)),
        (environmentOptions: "", requestOptions: "options: { timeout: 2m }", timeout: .seconds(120)),
        (environmentOptions: "options: { timeout: 10s }", requestOptions: "options: { timeout: 250ms }", timeout: .milliseconds(250)),
    ])
    func aRequestWithoutATimeoutGetsTheDefaultAndAnExplicitOneWins(
        environmentOptions: String, requestOptions: String, timeout: Duration
    ) async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment(environmentOptions),
            "requests/a.yaml": "request: { url: /a }\n\(requestOptions)\n",
        ])
        #expect(request.options.timeout == timeout)
        #expect(RequestBuilder.defaultTimeout == .seconds(30))
    }

    @Test(arguments: [
        (environmentOptions: "", requestOptions: "", bytes: 10 * 1024 * 1024),
        (environmentOptions: "options: { maxResponseBytes: 2048 }", requestOptions: "", bytes: 2048),
        (environmentOptions: "options: { maxResponseBytes: 2048 }", requestOptions: "options: { maxResponseBytes: 100 }", bytes: 100),
    ])
    func theResponseBodyCapIsTenMiBUnlessAFileSetsIt(environmentOptions: String, requestOptions: String, bytes: Int) async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment(environmentOptions),
            "requests/a.yaml": "request: { url: /a }\n\(requestOptions)\n",
        ])
        #expect(request.options.maxResponseBytes == bytes)
    }

    @Test func commandLineVariablesWinOverTheEnvironment() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment("variables: { id: env }"),
            "requests/a.yaml": "request: { url: '/items/{{ id }}' }\n",
        ], variables: [("id", "cli")])
        #expect(request.path == "/v1/items/cli")
    }

    @Test func anAbsoluteURLIsSentAsIs() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: 'http://other.test:8080/x?y=1' }\n",
        ])
        #expect(request.url?.absoluteString == "http://other.test:8080/x?y=1")
    }

    @Test func aURLWithCharactersThatNeedEncodingIsEncodedAndOneWithoutIsKeptAsWritten() async throws {
        let encoded = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: '/items/{{ name }}?q={{ q }}' }\n",
        ], variables: [("name", "a b|ü"), ("q", "x y")])
        #expect(encoded.components.percentEncodedPath == "/v1/items/a%20b%7C%C3%BC")
        #expect(encoded.components.percentEncodedQuery == "q=x%20y")
        let kept = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: '/items/a%2Fb?q=1&r=%20#frag' }\n",
        ])
        #expect(kept.url?.absoluteString == "http://api.test/v1/items/a%2Fb?q=1&r=%20#frag")
        // Escapes written beside characters that need encoding are kept, not encoded again (`%20` as `%2520`).
        let mixed = try await firstRequest([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: '/files/my%20doc/v 2/a%2Fb/50%?x=%41&f=a%26b&y=é' }\n",
        ])
        #expect(mixed.components.percentEncodedPath == "/v1/files/my%20doc/v%202/a%2Fb/50%25")
        #expect(mixed.components.percentEncodedQuery == "x=%41&f=a%26b&y=%C3%A9")
    }

    @Test func aNonASCIIHostIsSentAsBefore() async throws {
        let request = try await firstRequest([
            "environments/test.yaml": "baseURL: http://bücher.example:8080/v1\n",
            "requests/a.yaml": "request: { url: /a }\n",
        ])
        #expect(request.host == "bücher.example")
        #expect(request.url?.absoluteString == "http://xn--bcher-kva.example:8080/v1/a")
    }

    /// The request's own `auth` (`none` included) replaces an `Authorization` header the environment's `headers` give, as
    /// it replaces the environment's `auth`; without one, the environment's header is sent.
    @Test func aRequestsOwnAuthReplacesTheEnvironmentsAuthorizationHeader() async throws {
        for (auth, sent) in [("auth: { bearer: mine }\n", "Bearer mine"), ("auth: none\n", nil), ("", "Bearer env")] {
            let request = try await firstRequest([
                "environments/test.yaml": environment("headers: { Authorization: \"Bearer {{ envToken }}\" }\nvariables: { envToken: env }\n"),
                "requests/a.yaml": "request: { url: /a }\n" + auth,
            ])
            #expect(request.headers["Authorization"] == sent, "\(auth): \(request.headers)")
        }
        // Credentials in the URL are the request's own auth too.
        let request = try await firstRequest([
            "environments/test.yaml": environment("headers: { Authorization: \"Bearer {{ envToken }}\" }\nvariables: { envToken: env }\n"),
            "requests/a.yaml": "request: { url: \"http://u:p@127.0.0.1:1/a\" }\n",
        ])
        #expect(request.headers["Authorization"] == "Basic dTpw", "\(request.headers)")
        // The environment's auth is not resolved for a request that does not use it (an undefined variable there is no
        // error for it); credentials in the baseURL are the relative request's own.
        for file in ["request: { url: \"http://u:p@127.0.0.1:1/a\" }\n", "request: { url: /a, headers: { Authorization: Basic dTpw } }\n"] {
            let own = try await firstRequest([
                "environments/test.yaml": environment("auth: { bearer: \"{{ undefinedToken }}\" }\n"),
                "requests/a.yaml": file,
            ])
            #expect(own.headers["Authorization"] == "Basic dTpw", "\(file): \(own.headers)")
        }
        let based = try await firstRequest([
            "environments/test.yaml": "baseURL: http://u:p@127.0.0.1:1/v1\nheaders: { AUTHORIZATION: Bearer env }\n",
            "requests/a.yaml": "request: { url: /a }\n",
        ])
        #expect(based.headers["Authorization"] == "Basic dTpw", "\(based.headers)")
    }

    /// A line break or NUL written in the header value itself (no variable gave it) is to be removed there, not from a
    /// variable's value; in a value without templates it is found when the file is read.
    @Test func aLineBreakWrittenInAHeaderValueIsToBeRemovedFromTheValue() async throws {
        for (written, help) in [("a\\r\\nX-Injected: 1", "remove the line break from the header value"),
                                ("a\\nb {{ v }}", "remove the line break from the header value"),
                                ("a\\0b", "remove the NUL character from the header value"),
                                ("a {{ v }}", "remove line breaks from the variable's value"),
                                ("a\\eb", "remove the control character from the header value")] {
            let collection = try TestCollection([
                "environments/test.yaml": environment(),
                "requests/a.yaml": "request:\n  url: /a\n  headers: { X-Note: \"\(written)\" }\n",
            ])
            defer { collection.remove() }
            if !written.contains("{{") {
                let problem = try #require(await collection.load().diagnostics.first)
                #expect(problem.description.hasPrefix("requests/a.yaml:3:22: error: the value of header 'X-Note' contains "), "\(problem)")
                #expect(problem.suggestion == help, "\(written)")
                continue
            }
            let loader = ScriptedLoader()
            let summary = try await collection.run(loader, variables: [("v", "x\ny")])
            let error = try #require(summary.outcomes.first?.error)
            #expect(error.description.hasPrefix("requests/a.yaml:3:22: error: the value of header 'X-Note' contains a"), "\(error)")
            #expect(error.suggestion == help, "\(written)")
            #expect(await loader.received.isEmpty, "nothing is sent")
        }
    }

    @Test func lineBreaksInHeaderValuesFromVariablesAreRejectedWhereTheHeaderIsWritten() async throws {
        let cases: [(files: [String: String], location: String, name: String)] = [
            (["requests/a.yaml": "request:\n  url: /a\n  headers: { X-Note: \"n {{ v }}\" }\n"], "requests/a.yaml:3:22", "X-Note"),
            (["environments/test.yaml": environment("headers: { X-Team: \"{{ v }}\" }"),
              "requests/a.yaml": "request: { url: /a }\n"], "environments/test.yaml:2:20", "X-Team"),
            (["requests/a.yaml": "request: { url: /a }\nauth: { bearer: \"{{ v }}\" }\n"], "requests/a.yaml:2:17", "Authorization"),
        ]
        for (value, character) in [("a\r\nX-Injected: 1", "carriage return"), ("a\nb", "line feed"), ("a\u{0}b", "NUL")] {
            for (files, location, name) in cases {
                let collection = try TestCollection(files.merging(["environments/test.yaml": environment()]) { first, _ in first })
                defer { collection.remove() }
                let loader = ScriptedLoader()
                let summary = try await collection.run(loader, variables: [("v", value)])
                let outcome = try #require(summary.outcomes.first)
                #expect(outcome.verdict == .errored)
                #expect(outcome.error?.description.hasPrefix("\(location): error: the value of header '\(name)' contains a") == true,
                        "\(outcome.error?.description ?? "no error")")
                #expect(outcome.error?.message.contains(character) == true)
                #expect(await loader.received.isEmpty, "nothing is sent")
            }
        }
    }

    /// A bearer token a variable gives holding a space (the scheme given twice) is refused before sending, as written
    /// one is at validate; the token is not shown.
    @Test func aBearerTokenWithASpaceFromAVariableIsAnErrorAndNothingIsSent() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: /a }\nauth: { bearer: \"{{ v }}\" }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader()
        let summary = try await collection.run(loader, variables: [("v", "Bearer tok-123456")])
        let outcome = try #require(summary.outcomes.first)
        #expect(outcome.verdict == .errored)
        #expect(outcome.error?.description == "requests/a.yaml:2:17: error: the bearer token holds a space, and a bearer token is one word (RFC 6750)",
                "\(outcome.error?.description ?? "no error")")
        #expect(outcome.error?.suggestion == "write the token alone: 'Bearer ' is put before it")
        #expect(await loader.received.isEmpty, "nothing is sent")
        // Nor through a header of its own.
        let header = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: /a, headers: { Authorization: \"Bearer {{ v }}\" } }\n",
        ])
        defer { header.remove() }
        let noCredentials = try await header.run(loader, variables: [("v", "")])
        #expect(noCredentials.outcomes.first?.error?.message
                    == "the value of header 'Authorization' holds no credentials: only 'Bearer' once its variables are resolved",
                "\(String(describing: noCredentials.outcomes.first?.error))")
        #expect(await loader.received.isEmpty, "nothing is sent")
        // An empty one is not sent as `Bearer ` alone.
        let empty = try await collection.run(loader, variables: [("v", "")])
        #expect(empty.outcomes.first?.error?.message == "the bearer token is empty", "\(String(describing: empty.outcomes.first?.error))")
        #expect(await loader.received.isEmpty, "nothing is sent")
    }
}
