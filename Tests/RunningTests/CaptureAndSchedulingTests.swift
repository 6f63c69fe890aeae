import CollectionFormat
import Foundation
import HTTPCore
import Loaders
import Running
import Synchronization
import Testing
import TestSupport

/// Captures across requests, flows, skipping, tags, `--bail` and `--jobs`.
@Suite struct CaptureAndSchedulingTests {
    @Test func capturesOfEveryKindReachLaterRequests() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": """
                request: { url: /login }
                capture:
                  id: $.user.id
                  etag: { header: etag }
                  session: { cookie: session }
                  quoted: { cookie: q }
                  csrf: { regex: 'csrf=([a-z0-9]+)' }
                  code: { status: true }
                """,
            "requests/2.yaml": """
                request:
                  url: "/users/{{ id }}"
                  headers: { X-Tag: "{{ etag }}", X-Session: "{{ session }}", X-Csrf: "{{ csrf }}", X-Code: "{{ code }}", X-Q: "{{ quoted }}" }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [
            .path("/v1/login", .json(#"{"user":{"id":7},"note":"csrf=abc123"}"#, status: 201,
                                     headers: [("ETag", "\"v1\""), ("Set-Cookie", "session=s-9; Path=/; HttpOnly"),
                                               ("Set-Cookie", "q=\"abc def\"; Path=/")])),
        ], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed])
        let second = try #require(await loader.received.last)
        #expect(second.path == "/v1/users/7")
        #expect(second.headers["X-Tag"] == "\"v1\"")
        #expect(second.headers["X-Session"] == "s-9")
        #expect(second.headers["X-Csrf"] == "abc123")
        #expect(second.headers["X-Code"] == "201")
        // A quoted cookie value keeps its quotes, as the jar sends it (RFC 6265; trial helper-203 F12: they were dropped).
        #expect(second.headers["X-Q"] == "\"abc def\"")
    }

    /// A request missing what an earlier file failed to capture is skipped, as the steps after a failed one of a flow are
    /// (the run fails, exit 4, for the earlier file), not an error of its own (trial helper-203 F9: exit 3, "could not
    /// complete"); the steps after it in its flow are skipped so too, its cleanup still runs. With --jobs too.
    @Test(arguments: [1, 4]) func aRequestMissingAFailedCaptureIsSkipped(jobs: Int) async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /login }\ncapture: { uid: $.id }\n",
            "requests/2.yaml": "request: { url: \"/users/{{ uid }}\" }\ncapture: { v: $.v }\n",
            "requests/3.yaml": """
                steps:
                  - request: { url: "/orders?u={{ uid }}" }
                    capture: { order: $.id }
                  - request: { url: "/orders/{{ order }}" }
                finally:
                  - request: { url: /after }
                """,
            // Along a chain of captures (trial helper-204 A5), and through a use's with: value.
            "requests/4.yaml": "request: { url: \"/v/{{ v }}\" }\n",
            // Used only in an expectation, or as the list of an each: (trial helper-205 B1).
            "requests/6.yaml": "request: { url: /expect }\nexpect: { headers: { X-Id: \"{{ uid }}\" } }\n",
            "requests/7.yaml": "each: \"{{ uid }}\"\nrequest: { url: \"/each/{{ item }}\" }\n",
            "requests/_w.yaml": "request: { url: \"/w/{{ w }}\" }\n",
            "requests/5.yaml": "steps:\n  - use: _w.yaml\n    with: { w: \"{{ uid }}\" }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/login", .json(#"{"name": "no id"}"#))], fallback: .response(status: 200))
        let summary = try await collection.run(loader, options: RunOptions(jobs: jobs))
        #expect(summary.outcomes.map(\.verdict) == [.failed, .skipped, .skipped, .skipped, .passed, .skipped, .skipped, .skipped, .skipped],
                "\(summary.outcomes)")
        let reason = "an earlier request failed: requests/1.yaml, which captures 'uid'"
        #expect(summary.outcomes.suffix(2).map(\.skipReason) == [reason, reason])
        #expect(summary.outcomes.dropFirst().prefix(3).map(\.skipReason) == [reason, reason, reason])
        #expect(summary.outcomes[5].skipReason == "an earlier request failed: requests/2.yaml, which captures 'v'")
        #expect(summary.outcomes[6].skipReason == reason)
        #expect(summary.exitStatus == 4)
        #expect(await loader.received.map(\.path).sorted() == ["/v1/after", "/v1/expect", "/v1/login"])
    }

    /// A value some request sends as a credential (a captured token sent as `X-Api-Key`) is one in any header or body: a
    /// redirect to another origin drops a header holding it and refuses to send a body holding it again, as for a secret
    /// (trial helper-204 A2: every output hid it, and it went there); so is a header named `Bearer` (A1).
    @Test func aCredentialVariablesValueDoesNotFollowARedirectToAnotherOrigin() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /token }\ncapture: { tok: $.access_token }\n",
            "requests/2.yaml": "request: { url: /use, headers: { X-Api-Key: \"{{ tok }}\" } }\n",
            "requests/3.yaml": """
                request:
                  url: /redirect
                  headers: { X-Trace: "{{ tok }}", X-Wrapped: "Token {{ tok }}", Bearer: literal-bearer-1, X-Plain: visible }
                """,
            "requests/4.yaml": "request: { method: POST, url: /redirect-307, json: { data: \"{{ tok }}\" } }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [
            .path("/v1/token", .json(#"{"access_token": "AT-tokenvalue-9f8e7d6c5b"}"#)),
            .path("/v1/redirect", .response(status: 302, headers: ["Location": "http://other.test/landed"])),
            .path("/v1/redirect-307", .response(status: 307, headers: ["Location": "http://other.test/landed"])),
        ], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .passed, .errored], "\(summary.outcomes)")
        let landed = try #require(await loader.received.first { $0.host == "other.test" })
        #expect(landed.headers["X-Trace"] == nil && landed.headers["X-Wrapped"] == nil && landed.headers["Bearer"] == nil)
        #expect(landed.headers["X-Plain"] == "visible")
        #expect(await loader.received.filter { $0.host == "other.test" }.count == 1, "the 307 with the token in its body is not made")
    }

    /// A regex capture whose first group takes no part in the match says so, not that the body has no match (trial
    /// helper-203 F6).
    @Test func aRegexCaptureWhoseGroupTookNoPartSaysSo() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /t }\ncapture:\n  alt: { regex: '(zzz)|other=(b)' }\n  none: { regex: 'qqq(x)' }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader([], fallback: .response(status: 200, headers: ["Content-Type": "text/plain"],
                                                              body: Data("token=abc123; other=b".utf8)))
        let outcome = try #require(try await collection.run(loader).outcomes.first)
        #expect(outcome.failures.map(\.actual) == [#"its first match, "other=b", leaves the first group out"#, "the body has no match"],
                "\(outcome.failures)")
    }

    @Test func xpathCapturesUseTheRequestsNamespaces() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": """
                request: { url: /feed }
                expect:
                  namespaces: { a: "http://www.w3.org/2005/Atom" }
                capture:
                  title: { xpath: "string(/a:feed/a:title)" }
                  count: { xpath: "count(//a:entry)" }
                  names: { xpath: "//a:entry/a:title" }
                  nothing: { xpath: "//a:missing" }
                """,
            "requests/2.yaml": """
                request:
                  method: POST
                  url: /echo
                  json: { title: "{{ title }}", count: "{{ count }}", names: "{{ names }}" }
                """,
        ])
        defer { collection.remove() }
        let feed = #"<feed xmlns="http://www.w3.org/2005/Atom"><title>Users</title><entry><title>ada</title></entry>"#
            + #"<entry><title>alan</title></entry></feed>"#
        let loader = ScriptedLoader(routes: [
            .path("/v1/feed", .response(status: 200, headers: ["Content-Type": "application/xml"], body: Data(feed.utf8))),
        ], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes[0].failures.map(\.diagnostic.message) == ["capture 'nothing' found no value"])
        #expect(summary.outcomes[0].failures.first?.actual == "the query selected nothing")
        let body = try #require(await loader.received.last?.body as? JSONBody)
        #expect(body.value == .object(JSONObject([
            ("title", .string("Users")), ("count", .int(2)), ("names", .array([.string("ada"), .string("alan")])),
        ])))
    }

    @Test func aCaptureThatFindsNothingFailsTheRequest() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /a }\ncapture:\n  id: $.id\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader([.json("{}")]))
        #expect(summary.outcomes[0].verdict == .failed)
        #expect(summary.outcomes[0].failures[0].diagnostic.message == "capture 'id' found no value")
        #expect(summary.outcomes[0].failures[0].diagnostic.mark?.line == 3)
    }

    /// A cookie capture that finds nothing says which cookies the final response set, and that it reads that one.
    @Test func aCookieCaptureThatFindsNothingSaysWhatTheFinalResponseSet() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /a }\ncapture:\n  a: { cookie: a }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader([.response(status: 200, headers: ["Set-Cookie": "b=1"])]))
        #expect(summary.outcomes[0].failures.first?.actual == "cookies set: b by the final response (a capture reads the last response after redirects)")
    }

    /// A later request using what a failed capture did not give is an error naming the file that should have.
    /// Captures sit above row values: a column an earlier file captures never gives its rows' values, which `validate`
    /// warns of at `each:` when the file reads the column; a column named like a capture of a later file, or of none, or
    /// one the file does not read, gets no warning.
    @Test func aRowColumnAnEarlierFileCapturesIsAWarning() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /a }\ncapture: { id: $.id }\n",
            "requests/2.yaml": "each: [{id: 7}, {id: 8}]\nrequest: { url: \"/b/{{ id }}\" }\n",
            "requests/3.yaml": "each: [{n: 1}]\nrequest: { url: \"/c/{{ n }}\" }\n",
            "requests/4.yaml": "request: { url: /d }\ncapture: { n: $.n }\n",
            "requests/5.yaml": "each: [{id: 7}]\nrequest: { url: /e }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load()
        #expect(loaded.diagnostics.map { "\($0.path ?? ""):\($0.mark?.line ?? 0):\($0.mark?.column ?? 0) \($0.message)" } == [
            "requests/2.yaml:1:7 'id' is captured by requests/1.yaml before this file: the capture wins over every row's 'id'",
        ])
        // With the capturer left out by tags, the rows give 'id': no warning, and no error for a selected use of it.
        try Data("tags: [setup]\nrequest: { url: /a }\ncapture: { id: $.id }\n".utf8)
            .write(to: collection.root.appendingPathComponent("requests/1.yaml"))
        #expect(await collection.load(selection: TagFilter(excludedTags: ["setup"])).diagnostics.isEmpty)
    }

    /// A row whose `name:` template does not resolve (a capture a failed request did not give) is named by its row number,
    /// so that the rows' outcomes tell them apart (trial helper-185: each showed the template as written); it is skipped,
    /// as every request missing what a failed request was to capture is.
    @Test func aRowWhoseNameDoesNotResolveIsNumbered() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /a }\ncapture: { cap: $.nope }\n",
            "requests/2.yaml": "name: \"row {{ a }} {{ cap }}\"\neach: [{ a: 1 }, { a: 2 }]\nrequest: { url: /b }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .json("{}")))
        #expect(summary.outcomes.suffix(2).map(\.name) == ["row {{ a }} {{ cap }} [1]", "row {{ a }} {{ cap }} [2]"], "\(summary.outcomes)")
        #expect(summary.outcomes.suffix(2).allSatisfy { $0.verdict == .skipped })
    }

    /// The same for a file's loop over a list the environment holds (its elements' fields, `item` and `index` sit below
    /// captures), for each of them the file reads; a step's loop, whose variables win over captures, gets none.
    @Test func aLoopVariableAnEarlierFileCapturesIsAWarning() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("variables:\n  regions: [{ code: eu }]\n"),
            "requests/1.yaml": "request: { url: /a }\ncapture: { code: $.code, item: $.item }\n",
            "requests/2.yaml": "each: \"{{ regions }}\"\nrequest: { url: \"/b/{{ code }}\" }\n",
            "requests/3.yaml": "steps:\n  - each: \"{{ regions }}\"\n    request: { url: \"/c/{{ code }}\" }\n",
            "requests/4.yaml": "each: \"{{ regions }}\"\nrequest: { url: \"/d/{{ item.code }}\" }\n",
        ])
        defer { collection.remove() }
        #expect(await collection.load().diagnostics.map { "\($0.path ?? ""):\($0.mark?.line ?? 0) \($0.message)" } == [
            "requests/2.yaml:1 'code' is captured by requests/1.yaml before this file: the capture wins over every element's 'code'",
            "requests/4.yaml:1 'item' is captured by requests/1.yaml before this file: the capture wins over every element's 'item'",
        ])
    }

    /// A capture that did not happen for its request was skipped: the request needing it is an error naming the capturers
    /// (one whose capturer failed is skipped: `aRequestMissingAFailedCaptureIsSkipped`).
    @Test func aVariableASkippedCaptureDidNotGiveNamesItsCapturer() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /a }\nskip: off\ncapture:\n  id: $.id\n",
            "requests/2.yaml": "request: { url: \"/b/{{ id }}\" }\n",
            "requests/3.yaml": "request: { url: /c }\nskip: off\ncapture:\n  id: $.id\n",
            "requests/4.yaml": "request: { url: \"/d/{{ id }}\" }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader([], fallback: .json("{}")))
        #expect(summary.outcomes.map(\.verdict) == [.skipped, .errored, .skipped, .errored])
        let error = try #require(summary.outcomes[1].error)
        #expect(error.message == "undefined variable 'id'")
        #expect(error.suggestion == "requests/1.yaml captures it, but did not: it failed, errored or was skipped (see its result)")
        #expect(summary.outcomes[3].error?.suggestion
                == "requests/1.yaml and requests/3.yaml capture it, but none did: they failed, errored or were skipped (see their results)")
    }

    @Test func aFailedStepSkipsTheRestOfItsFlowOnly() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": """
                name: Checkout
                steps:
                  - { name: one, request: { url: /ok } }
                  - { name: two, request: { url: /bad }, expect: { status: 200 } }
                  - { name: three, request: { url: /ok } }
                """,
            "requests/2.yaml": "request: { url: /ok }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/bad", .response(status: 500))], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .failed, .skipped, .passed])
        #expect(summary.outcomes[2].skipReason == "an earlier step failed: two")
        #expect(summary.outcomes[0].displayName == "Checkout › one")
        #expect(await loader.count == 3)
        #expect(summary.exitStatus == 4)
    }

    /// A run that keeps no outcomes (no report asked for them) still counts every verdict, sequentially and
    /// in parallel, and the exit status puts 3 (a request could not complete) before 4 (a failed expectation).
    @Test(arguments: [1, 4])
    func aRunKeepingOnlyCountsCountsEveryVerdictAndAnErrorOutranksAFailure(jobs: Int) async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /ok }\n",
            "requests/2.yaml": "request: { url: /bad }\nexpect: { status: 200 }\n",
            "requests/3.yaml": "request: { url: /down }\n",
            "requests/4.yaml": "skip: true\nrequest: { url: /ok }\n",
            "requests/5.yaml": "request: { url: /ok }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [
            .path("/v1/bad", .response(status: 500)), .path("/v1/down", .failure(.cannotConnect)),
        ], fallback: .response(status: 200))
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(jobs: jobs), transport: loader).run(keepingOutcomes: false)
        #expect(summary.outcomes.isEmpty)
        #expect(summary.count(.passed) == 2)
        #expect(summary.count(.failed) == 1)
        #expect(summary.count(.errored) == 1)
        #expect(summary.count(.skipped) == 1)
        #expect(summary.total == 5)
        #expect(summary.exitStatus == 3)
    }

    @Test func skipTagsAndBail() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "tags: [smoke]\nrequest: { url: /a }\n",
            "requests/2.yaml": "tags: [smoke]\nskip: later\nrequest: { url: /b }\n",
            "requests/3.yaml": "tags: [smoke, slow]\nrequest: { url: /c }\n",
            "requests/4.yaml": "request: { url: /d }\n",
            "requests/5.yaml": "tags: [smoke]\nrequest: { url: /bad }\nexpect: { status: 200 }\n",
            "requests/6.yaml": "tags: [smoke]\nrequest: { url: /e }\n",
        ])
        defer { collection.remove() }
        let routes: [ScriptedLoader.Route] = [.path("/v1/bad", .response(status: 500))]
        let filtered = try await collection.run(ScriptedLoader(routes: routes, fallback: .response(status: 200)),
                                                options: RunOptions(selection: TagFilter(tags: ["smoke"], excludedTags: ["slow"])))
        #expect(filtered.outcomes.map(\.file) == ["requests/1.yaml", "requests/2.yaml", "requests/5.yaml", "requests/6.yaml"])
        #expect(filtered.outcomes.map(\.verdict) == [.passed, .skipped, .failed, .passed])
        #expect(filtered.outcomes[1].skipReason == "later")

        let loader = ScriptedLoader(routes: routes, fallback: .response(status: 200))
        let bailed = try await collection.run(loader, options: RunOptions(bail: true))
        #expect(bailed.outcomes.map(\.verdict) == [.passed, .skipped, .passed, .passed, .failed, .skipped])
        #expect(bailed.outcomes[5].skipReason?.contains("--bail") == true)
        #expect(await loader.count == 4)
    }

    @Test func parallelRunsGiveTheSameResultsAsSequentialOnes() async throws {
        let collection = try TestCollection(capturingCollectionFiles())
        defer { collection.remove() }
        let loader = capturingLoader
        let sequentialLoader = loader(), parallelLoader = loader()
        let sequential = try await collection.run(sequentialLoader, options: RunOptions(jobs: 1))
        let parallel = try await collection.run(parallelLoader, options: RunOptions(jobs: 6))
        #expect(sequential.outcomes.map(\.url) == parallel.outcomes.map(\.url))
        #expect(parallel.outcomes.map(\.verdict).allSatisfy { $0 == .passed })
        #expect(parallel.outcomes.last?.url == "http://api.test/v1/final/12")
        // More jobs than files, up to the largest integer, run as many as there are files.
        let most = try await collection.run(loader(), options: RunOptions(jobs: .max))
        #expect(most.outcomes.map(\.url) == sequential.outcomes.map(\.url))
        let tokens = await parallelLoader.received.filter { $0.path.hasPrefix("/v1/items") }.map { $0.headers["X-Token"] }
        #expect(tokens == Array(repeating: "t-1", count: 12))
    }

    @Test func aParallelRunHandsOutcomesOnInFileOrderWhenLaterFilesFinishFirst() async throws {
        var files = ["environments/test.yaml": environment(),
                     "requests/2.yaml": "steps:\n  - name: first\n    request: { url: /2 }\n  - name: second\n    request: { url: /2 }\n"]
        for file in [1, 3, 4] { files["requests/\(file).yaml"] = "request: { url: /\(file) }\n" }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        // The first file answers last, the last file first.
        let loader = ScriptedLoader(routes: (1...4).map { file in
            .path("/v1/\(file)", .delayed(.milliseconds(40 * (4 - file)), .response(status: 200)))
        })
        let handedOn = Mutex<[String]>([])
        let summary = await CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 4), transport: loader).run { outcome in
            handedOn.withLock { $0.append("\(outcome.file) \(outcome.name)") }
        }
        let order = handedOn.withLock { $0 }
        #expect(order == summary.outcomes.map { "\($0.file) \($0.name)" })
        #expect(order.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["requests/1.yaml", "requests/2.yaml", "requests/2.yaml", "requests/3.yaml", "requests/4.yaml"])
        #expect(summary.outcomes.allSatisfy { $0.verdict == .passed })
    }

    @Test(arguments: [1, 4])
    func aFileStartingWhileAnEarlierOneRunsSeesTheLastCaptureOfWhatItReads(jobs: Int) async throws {
        // File 1 captures nothing the others read and, with 4 jobs, answers only once file 4 has been sent;
        // files 2 and 3 capture `id` (and 2 `other`); file 4 reads both.
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "request: { url: /slow }\ncapture:\n  slow: $.n\n",
            "requests/2.yaml": "request: { url: /two }\ncapture:\n  id: $.n\n  other: $.m\n",
            "requests/3.yaml": "request: { url: /three }\ncapture:\n  id: $.n\n",
            "requests/4.yaml": "request: { url: '/use/{{ id }}/{{ other }}' }\n",
        ])
        defer { collection.remove() }
        let loader = HeldUntilLoader(holding: jobs > 1 ? "/v1/slow" : "", until: "/v1/use", inner: ScriptedLoader(routes: [
            .path("/v1/slow", .json(#"{"n":1}"#)),
            .path("/v1/two", .json(#"{"n":2,"m":"b"}"#)),
            .path("/v1/three", .json(#"{"n":3}"#)),
        ], fallback: .response(status: 200)))
        let handedOn = Mutex<[String]>([])
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: jobs), transport: loader)
        let summary = await run.run { outcome in handedOn.withLock { $0.append(outcome.file) } }
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .passed, .passed])
        #expect(summary.outcomes.last?.url == "http://api.test/v1/use/3/b")
        // Files 2 to 4 end before file 1 with 4 jobs; their outcomes are handed on after its one, all before the run returns.
        #expect(handedOn.withLock { $0 } == (1...4).map { "requests/\($0).yaml" })
        #expect(await loader.heldRequestWaited == (jobs > 1))
    }

    @Test func filesWaitOnlyForEarlierFilesThatCaptureWhatTheyUse() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("auth: { bearer: '{{ token }}' }\nvariables: { token: none }"),
            "requests/1.yaml": "request: { url: /a }\ncapture:\n  id: $.id\n",
            "requests/2.yaml": "request: { url: /b }\ncapture:\n  token: $.t\n",
            "requests/3.yaml": "request: { url: '/c/{{ id }}' }\n",
        ])
        defer { collection.remove() }
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 3), transport: ScriptedLoader())
        #expect(run.fileDependencies == [[], [], [0, 1]])
    }

    @Test func filesWaitForCapturesTheirClientCertificatePasswordsUse() async throws {
        let certificate = "options:\n  clientCert: { cert: c.pem, key: k.pem, password: '{{ pw }}' }\n"
        let collection = try TestCollection([
            "environments/test.yaml": environment("options:\n  clientCert: { cert: c.pem, key: k.pem, password: '{{ envPw }}' }\nvariables: { envPw: none }"),
            "requests/1.yaml": "request: { url: /a }\ncapture:\n  pw: $.p\n" + certificate,
            "requests/2.yaml": "request: { url: /b }\ncapture:\n  envPw: $.p\n" + certificate,
            "requests/3.yaml": "request: { url: /c }\n" + certificate,
            "requests/4.yaml": "request: { url: /d }\n",
        ])
        defer { collection.remove() }
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 3), transport: ScriptedLoader())
        // A file with a certificate of its own does not use the environment's, nor its password.
        #expect(run.fileDependencies == [[], [0], [0], [1]])
    }

    @Test func filesWaitForCapturesTheirWithValuesAndRowNamesUse() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/_fragments/_get.yaml": "request: { url: '/items/{{ item }}' }\n",
            "requests/1.yaml": "request: { url: /a }\ncapture:\n  id: $.id\n",
            "requests/2.yaml": "request: { url: /b }\ncapture:\n  label: $.label\n",
            "requests/3.yaml": "steps:\n  - use: _fragments/_get.yaml\n    with: { item: '{{ id }}' }\n",
            "requests/4.yaml": "each: [{ n: 1 }]\nname: '{{ label }} {{ n }}'\nrequest: { url: /d }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load()
        #expect(loaded.diagnostics.isEmpty)
        let run = CollectionRun(collection: loaded, options: RunOptions(jobs: 3), transport: ScriptedLoader())
        #expect(run.fileDependencies == [[], [], [0], [1]])
    }

    /// A row value that cannot be resolved when the file runs (a path into a captured value that leads nowhere) is an
    /// ERROR located in the data file it is written in.
    @Test func aRowValueThatDoesNotResolveIsAnErrorInTheDataFile() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/0.yaml": "request: { url: /config }\ncapture: { config: $.config }\n",
            "requests/_data/rows.yaml": "- n: '{{ config.a }}'\n- n: 'x {{ config.b }}'\n",
            "requests/a.yaml": "each: _data/rows.yaml\nrequest: { url: '/items/{{ n }}' }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/config", .json(#"{"config":{"a":1}}"#))], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .errored])
        let error = try #require(summary.outcomes.last?.error)
        #expect(error.description.hasPrefix("requests/_data/rows.yaml:2:9: error: "), "\(error.description)")
    }
}

/// Holds the answer to one path until a request for another path has arrived (at most 2 seconds), and
/// says whether it did arrive first.
private actor HeldUntilLoader: HTTPLoader {
    private let held: String, until: String
    private let inner: ScriptedLoader
    private var arrived = false
    /// Whether the held request's answer waited for the other request.
    private(set) var heldRequestWaited = false

    init(holding held: String, until: String, inner: ScriptedLoader) {
        (self.held, self.until, self.inner) = (held, until, inner)
    }

    func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if request.path.hasPrefix(until) { arrived = true }
        if request.path == held {
            for _ in 0..<200 where !arrived { try? await Task.sleep(for: .milliseconds(10)) }
            heldRequestWaited = arrived
        }
        return try await inner.load(request)
    }
}

/// Waiting for a throttle slot is queueing in the client, not request time; waits before sending end with `--bail`.
@Suite struct ThrottleWaitTests {
    @Test(arguments: [1, 3])
    func aRequestsDurationLeavesOutItsWaitForAThrottleSlot(jobs: Int) async throws {
        var files = ["environments/test.yaml": environment("options: { throttle: { perSecond: 2 } }\n")]
        for index in 1...3 {
            files["requests/\(index).yaml"] = "request: { url: /fast }\nexpect: { duration: { lessThan: 400ms } }\n"
        }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .response(status: 200)),
                                               options: RunOptions(jobs: jobs))
        // The three starts are 500 ms apart: the run waited, its requests did not.
        #expect(summary.duration >= .milliseconds(900))
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .passed])
        #expect(summary.outcomes.allSatisfy { ($0.duration ?? .seconds(1)) < .milliseconds(400) })
    }

    /// With `--bail`, a failure ends the waits of the requests queued for throttle slots in other jobs: they are not sent.
    @Test func bailEndsTheWaitsOfRequestsQueuedForThrottleSlots() async throws {
        var files = ["environments/test.yaml": environment("options: { throttle: { perSecond: 0.5 } }\n")]
        // The failing request takes the first slot and fails after a second; the others take theirs (from 2 s) after
        // half a second, and wait.
        files["requests/1.yaml"] = "request: { url: /failing }\n"
        files["requests/2.yaml"] = "request: { url: /fast }\noptions: { delay: 500ms }\n"
        // A flow whose first step waits: it has not begun, so its cleanup step is skipped too.
        files["requests/3.yaml"] = """
            steps:
              - name: create
                request: { url: /fast }
                options: { delay: 500ms }
            finally:
              - name: delete
                request: { url: /cleanup }
            """
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/failing", .delayed(.seconds(1), .response(status: 500)))],
                                    fallback: .response(status: 200))
        let start = ContinuousClock.now
        let summary = try await collection.run(loader, options: RunOptions(jobs: 3, bail: true))
        // The waiting requests would have ended the run after 4 s, the cleanup step after 6 s.
        #expect(start.duration(to: .now) < .seconds(3))
        #expect(summary.outcomes.map(\.verdict) == [.failed, .skipped, .skipped, .skipped])
        #expect(summary.outcomes.dropFirst().allSatisfy { $0.skipReason?.contains("--bail") == true && $0.duration == nil })
        // Not sent, they show the URL as written, as a request --bail skips before it is built does.
        #expect(summary.outcomes.map(\.url) == ["http://api.test/v1/failing", "/fast", "/fast", "/cleanup"])
        #expect(await loader.received.map(\.path) == ["/v1/failing"])
    }

    /// A request waiting out its `delay` is not sent once `--bail` stops the run, and one cancelled during it has no time.
    @Test func aRequestInItsDelayIsNotSentAfterBailOrCancellation() async throws {
        var files = ["environments/test.yaml": environment("")]
        files["requests/1.yaml"] = "request: { url: /failing }\n"
        files["requests/2.yaml"] = "request: { url: /fast }\noptions: { delay: 10s }\n"
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/failing", .delayed(.milliseconds(300), .response(status: 500)))],
                                    fallback: .response(status: 200))
        let start = ContinuousClock.now
        let bailed = try await collection.run(loader, options: RunOptions(jobs: 2, bail: true))
        // Far below the delay, which a busy two-core machine does not come near (it took 2.1 s under load).
        #expect(start.duration(to: .now) < .seconds(6))
        #expect(bailed.outcomes.map(\.verdict) == [.failed, .skipped])
        #expect(bailed.outcomes.last?.skipReason?.contains("--bail") == true && bailed.outcomes.last?.duration == nil)
        #expect(await loader.received.map(\.path) == ["/v1/failing"])

        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 2),
                                transport: ScriptedLoader(routes: [], fallback: .response(status: 200)))
        let task = Task { await run.run() }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let cancelled = await task.value
        #expect(cancelled.outcomes.last?.skipReason == "cancelled" && cancelled.outcomes.last?.duration == nil,
                "\(cancelled.outcomes.map { ($0.skipReason, $0.duration) })")
    }

    /// A step's `each:` loop sends no element after a failing one under `--bail`, nor after the run was cancelled: those
    /// are SKIP and never reach the server; a cleanup loop of a begun flow still sends every element.
    @Test func aStepLoopSendsNoElementAfterBailOrCancellation() async throws {
        var files = ["environments/test.yaml": environment("variables:\n  ids: [1, 2, 3, 4]\n")]
        files["requests/flow.yaml"] = """
            steps:
              - each: "{{ ids }}"
                request: { url: "/create/{{ item }}" }
            finally:
              - each: "{{ ids }}"
                request: { url: "/delete/{{ item }}" }
            """
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/create/1", .response(status: 500))], fallback: .response(status: 200))
        let bailed = try await collection.run(loader, options: RunOptions(bail: true))
        #expect(bailed.outcomes.map(\.verdict) == [.failed, .skipped, .skipped, .skipped, .passed, .passed, .passed, .passed])
        #expect(bailed.outcomes[1...3].allSatisfy { $0.skipReason?.contains("--bail") == true && $0.duration == nil })
        #expect(await loader.received.map(\.path) == ["/v1/create/1"] + (1...4).map { "/v1/delete/\($0)" })

        // Cancelled while the second element is under way: the third and fourth are not sent.
        let slow = ScriptedLoader(routes: [], fallback: .delayed(.milliseconds(400), .response(status: 200)))
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(), transport: slow)
        let task = Task { await run.run() }
        try await Task.sleep(for: .milliseconds(600))
        task.cancel()
        let cancelled = await task.value
        let creates = cancelled.outcomes.filter { $0.name.hasPrefix("step 1") }
        #expect(creates.map(\.skipReason) == [nil, "cancelled", "cancelled", "cancelled"], "\(creates.map(\.skipReason))")
        #expect(await slow.received.filter { $0.path.hasPrefix("/v1/create/") }.count == 2)
    }

    /// A step already sending when `--bail` stops the run finishes: its retries wait for their slots and are sent.
    @Test func bailLetsAStepUnderWayRetryThroughItsThrottleSlots() async throws {
        var files = ["environments/test.yaml": environment("options: { throttle: { perSecond: 5 } }\n")]
        files["requests/1.yaml"] = "request: { url: /failing }\n"
        files["requests/2.yaml"] = "request: { url: /unavailable }\noptions: { retry: { attempts: 6, delay: 0ms, on: [503] } }\n"
        let collection = try TestCollection(files)
        defer { collection.remove() }
        // The failure comes after a second; the retries' slots are 200 ms apart, the last ones after it.
        let loader = ScriptedLoader(routes: [.path("/v1/failing", .delayed(.seconds(1), .response(status: 500))),
                                             .path("/v1/unavailable", .response(status: 503))])
        let summary = try await collection.run(loader, options: RunOptions(jobs: 2, bail: true))
        #expect(summary.outcomes.map(\.verdict) == [.failed, .failed])
        #expect(summary.outcomes.last?.attempts == 6)
        #expect(await loader.received.filter { $0.path == "/v1/unavailable" }.count == 6)
    }

    /// A run of `requests` (file names to texts) throttled to one request per 5 s, on one job, cancelled 300 ms in: the
    /// first request has its slot, the second waits for the next; with what the loader received.
    private func cancelledWhileTheSecondWaits(_ requests: [String: String]) async throws -> (RunSummary, ScriptedLoader) {
        var files = ["environments/test.yaml": environment("options: { throttle: { perSecond: 0.2 } }\n")]
        for (name, text) in requests { files["requests/" + name] = text }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [], fallback: .response(status: 200))
        // One job: the first takes the first slot, the second waits for the next (with two, either may be first).
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 1), transport: loader)
        let task = Task { await run.run() }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        return (await task.value, loader)
    }

    /// A flow whose first step was cancelled while it waited for its throttle slot never began: its cleanup is skipped
    /// too, as after `--bail`.
    @Test func aFlowCancelledWhileItsFirstStepWaitsSkipsItsCleanup() async throws {
        let (summary, loader) = try await cancelledWhileTheSecondWaits([
            "1.yaml": "request: { url: /first }\n",
            "2.yaml": "steps:\n  - name: create\n    request: { url: /create }\nfinally:\n  - name: delete\n    request: { url: /delete }\n",
        ])
        #expect(summary.outcomes.map(\.skipReason) == [nil, "cancelled", "cancelled"])
        #expect(await loader.received.map(\.path) == ["/v1/first"])
    }

    /// A request that `skip:` skips keeps its own reason in a cancelled run, as in a run with jobs; the others not sent
    /// are `cancelled`.
    @Test func aCancelledRunKeepsTheReasonOfASkippedRequest() async throws {
        let (summary, _) = try await cancelledWhileTheSecondWaits([
            "1.yaml": "request: { url: /first }\n", "2.yaml": "request: { url: /second }\n",
            "3.yaml": "skip: waiting for ticket 42\nrequest: { url: /third }\n",
        ])
        #expect(summary.outcomes.map(\.skipReason) == [nil, "cancelled", "waiting for ticket 42"])
    }

    /// A run cancelled while requests wait for their throttle slots counts only the time they waited: no negative times.
    @Test func aRunCancelledWhileRequestsWaitForTheirSlotsHasNoNegativeTimes() async throws {
        var files = ["environments/test.yaml": environment("options: { throttle: { perSecond: 0.2 } }\n")]
        for index in 1...3 { files["requests/\(index).yaml"] = "request: { url: /fast }\n" }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let loaded = await collection.load()
        let run = CollectionRun(collection: loaded, options: RunOptions(jobs: 3),
                                transport: ScriptedLoader(routes: [], fallback: .response(status: 200)))
        let task = Task { await run.run() }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let summary = await task.value
        #expect(summary.outcomes.count == 3)
        #expect(summary.outcomes.allSatisfy { ($0.duration ?? .zero) >= .zero }, "\(summary.outcomes.map(\.duration))")
        // The two still waiting were never sent: cancelled, with no time.
        let unsent = summary.outcomes.filter { $0.verdict == .skipped }
        #expect(unsent.count == 2 && unsent.allSatisfy { $0.skipReason == "cancelled" && $0.duration == nil },
                "\(summary.outcomes.map { ($0.verdict, $0.duration) })")
    }
}
