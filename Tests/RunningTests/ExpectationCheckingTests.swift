import CollectionFormat
import Foundation
import HTTPCore
@testable import Loaders
import Running
import Testing
import TestSupport

/// Checking responses: each failure located at its expectation, with expected and actual values.
@Suite struct ExpectationCheckingTests {
    /// The outcome of one request answered with `reply`.
    private func outcome(_ request: String, reply: ScriptedLoader.Reply, extraFiles: [String: String] = [:],
                         variables: [(name: String, value: String)] = []) async throws -> RequestOutcome {
        var files = ["environments/test.yaml": environment(), "requests/a.yaml": request]
        files.merge(extraFiles) { $1 }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader([], fallback: reply), variables: variables)
        return try #require(summary.outcomes.first)
    }

    /// A timeout's error is placed at the request's `options.timeout`, with help saying to raise it or expect it; without
    /// one, the help names runner's default (trial helper-167: at the URL, without help).
    @Test func aTimeoutPointsAtTheTimeoutItHit() async throws {
        let slow = ScriptedLoader.Reply.delayed(.seconds(5), .response(status: 200))
        let written = try await outcome("request: { url: /a }\noptions: { timeout: 50ms }\n", reply: slow)
        #expect(written.verdict == .errored)
        #expect(written.error?.mark?.line == 2 && written.error?.mark?.column == 21, "\(String(describing: written.error))")
        #expect(written.error?.suggestion?.hasPrefix("raise options.timeout here, or, when a timeout is what it should do, expect it") == true)
        let inherited = try await outcome("request: { url: /a }\n", reply: slow,
                                          extraFiles: ["environments/test.yaml": environment("options: { timeout: 50ms }\n")])
        #expect(inherited.error?.mark?.line == 1, "\(String(describing: inherited.error))")
        #expect(inherited.error?.suggestion?.hasPrefix("the limit is the environment's options.timeout (environments/test.yaml:2:21): raise it there")
                == true, "\(String(describing: inherited.error?.suggestion))")
        // From a base environment: named by its file (trial helper-169).
        let based = try await outcome("request: { url: /a }\n", reply: slow, extraFiles: [
            "environments/test.yaml": "extends: base\n", "environments/base.yaml": environment("options:\n  timeout: 50ms\n"),
        ])
        #expect(based.error?.suggestion?.hasPrefix("the limit is the environment's options.timeout (environments/base.yaml:3:12)") == true,
                "\(String(describing: based.error?.suggestion))")
    }

    /// A redirect limit's error is placed at the request's `options.maxRedirects`, with help (trial helper-190: at the URL).
    @Test func aRedirectLimitPointsAtTheLimitItHit() async throws {
        let redirect = ScriptedLoader.Reply.response(status: 302, headers: ["Location": "/b"])
        let written = try await outcome("request: { url: /a }\noptions: { maxRedirects: 0 }\n", reply: redirect)
        #expect(written.verdict == .errored)
        #expect(written.error?.mark?.line == 2 && written.error?.mark?.column == 26, "\(String(describing: written.error))")
        #expect(written.error?.suggestion?.hasPrefix("raise options.maxRedirects here") == true)
    }

    @Test func statusFailurePointsAtTheExpectation() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect:
              status: [200, "3xx"]
            """, reply: .response(status: 404))
        #expect(result.verdict == .failed)
        let failure = try #require(result.failures.first)
        #expect(failure.diagnostic.path == "requests/a.yaml")
        #expect(failure.diagnostic.mark?.line == 3)
        #expect(failure.diagnostic.mark?.column == 11)
        #expect(failure.expected == "one of 200, 3xx")
        #expect(failure.actual == "404")
    }

    /// A bound of digits from an environment variable orders the status by value, and the failure shows it as that
    /// number, not as text (`greater than 300`, not `"300"`); so for a header and a text body that are all a number.
    @Test func aBoundOfDigitsFromAVariableIsShownAsTheNumberItWasComparedAs() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect:
              status: { greaterThan: "{{ least }}" }
              headers: { X-Count: { greaterThan: "{{ least }}" }, X-Word: { greaterThan: "{{ least }}" } }
              text: { greaterThan: "{{ least }}" }
            """, reply: .response(status: 200, headers: ["X-Count": "250", "X-Word": "abc"], body: Data("7".utf8)),
            extraFiles: ["environments/test.yaml": environment("variables: { least: \"300\" }\n")])
        #expect(result.failures.map(\.expected) == Array(repeating: "a value greater than 300", count: 4))
        #expect(result.failures.map(\.actual) == ["200", #""250""#, #""abc""#, #""7""#])
    }

    /// `status: "{{ code }}"` is the code the template gives, and text of digits (as a `--var` is) reads as that code in
    /// any status matcher.
    @Test func aStatusFromATemplateOfTextIsTheCodeItSpells() async throws {
        let codes = ["environments/test.yaml": environment("variables: { code: \"201\", class: 2xx }\n")]
        for (status, reply) in [("\"{{ code }}\"", 201), ("{ in: [\"{{ code }}\", 204] }", 204), ("{ not: \"{{ code }}\" }", 200),
                                ("\"{{ class }}\"", 204), ("{ not: \"{{ class }}\" }", 404), ("{ in: [404, \"{{ class }}\"] }", 201),
                                ("{ not: { in: [500, \"{{ class }}\"] } }", 404)] {
            let result = try await outcome("request: { url: /a }\nexpect:\n  status: \(status)\n", reply: .response(status: reply),
                                           extraFiles: codes)
            #expect(result.verdict == .passed, "\(status): \(result.failures.map(\.diagnostic.message))")
        }
        // A class a template gives is the range of its codes, shown as given.
        for (status, expected) in [("\"{{ class }}\"", #""2xx""#), ("{ in: [404, \"{{ class }}\"] }", #"one of [404,"2xx"]"#)] {
            let classFailed = try await outcome("request: { url: /a }\nexpect:\n  status: \(status)\n", reply: .response(status: 500),
                                                extraFiles: codes)
            #expect(classFailed.failures.first?.expected == expected)
        }
        // So in a polled step's stopWhen, which would never hold.
        let polled = try await outcome("""
            request: { url: /a }
            expect: { status: 201 }
            options: { retry: { attempts: 3, delay: 1ms, on: [expectations], stopWhen: { status: { not: { in: ["{{ code }}"] } } } } }
            """, reply: .response(status: 200), extraFiles: codes, variables: [("code", "6xx")])
        #expect(polled.verdict == .errored && polled.attempts == 1 && polled.error?.message == "\"6xx\" (from '{{ code }}') is not a status",
                "\(polled.verdict) \(polled.attempts) \(polled.error?.message ?? "")")
        // A value that is no status (`--var code=6xx`) is an error at its template: under `not` it would always hold.
        for bad in ["6xx", "20x", "0200", "+200", "５xx", "600", "2xx "] {
            let result = try await outcome("request: { url: /a }\nexpect:\n  status: { not: { in: [500, \"{{ code }}\"] } }\n",
                                           reply: .response(status: 200), extraFiles: codes, variables: [("code", bad)])
            #expect(result.verdict == .errored && result.error?.message == "\"\(bad)\" (from '{{ code }}') is not a status",
                    "\(bad): \(result.verdict) \(result.error?.message ?? "")")
        }
        let failed = try await outcome("request: { url: /a }\nexpect:\n  status: \"{{ code }}\"\n", reply: .response(status: 200),
                                       extraFiles: codes)
        let failure = try #require(failed.failures.first)
        #expect(failure.diagnostic.message == "status did not match")
        #expect(failure.expected == "201")
        #expect(failure.actual == "200")
    }

    /// A polled request honours the server's `Retry-After`: a wait longer than a retry gives ends polling with the answer
    /// kept and a note, whether or not its status is one the request retries on; a shorter one is waited (trial helper-203
    /// F4: polling sent again after its `delay`, and passed).
    @Test func pollingHonoursRetryAfter() async throws {
        let busy = ScriptedLoader.Reply.response(status: 503, headers: ["Retry-After": "400", "Content-Type": "application/json"],
                                                 body: Data("{}".utf8))
        let done = ScriptedLoader.Reply.json(#"{"state":"done"}"#)
        for (on, note) in [("[expectations, 503]", "not retried"), ("[expectations]", "not polled again")] {
            let collection = try TestCollection([
                "environments/test.yaml": environment(),
                "requests/a.yaml": "request: { url: /job }\noptions: { retry: { attempts: 4, delay: 10ms, on: \(on) } }\n"
                    + "expect: { body: { $.state: done } }\n",
            ])
            defer { collection.remove() }
            let loader = ScriptedLoader([busy, done])
            let outcome = try #require(try await collection.run(loader).outcomes.first)
            #expect(outcome.verdict == .failed && outcome.attempts == 1, "\(on): \(outcome.verdict) \(outcome.attempts)")
            #expect(outcome.failures.first?.diagnostic.notes == ["\(note): the server asked to wait 6 min 40 s (Retry-After), "
                                                                 + "longer than the 5 min a retry waits at most"], "\(outcome.failures)")
            #expect(await loader.received.count == 1)
        }
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { url: /job }\noptions: { retry: { attempts: 3, delay: 10ms, on: [expectations] } }\n"
                + "expect: { body: { $.state: done } }\n",
        ])
        defer { collection.remove() }
        let started = ContinuousClock.now
        let briefly = ScriptedLoader.Reply.response(status: 200, headers: ["Retry-After": "1"], body: Data(#"{"state":"running"}"#.utf8))
        let outcome = try #require(try await collection.run(ScriptedLoader([briefly, done])).outcomes.first)
        #expect(outcome.verdict == .passed && outcome.attempts == 2)
        #expect(started.duration(to: .now) >= .milliseconds(950), "the second try waited the second the server asked for")
    }

    /// A query that may select several nodes but selected one compares that node: a failure says so (trial helper-203 F8:
    /// `each` on a wildcard over one element failed with "not a list" and no word why).
    @Test func aWildcardThatSelectedOneNodeSaysItIsComparedAsItself() async throws {
        let result = try await outcome("request: { url: /a }\nexpect:\n  body:\n    $.items[*].name: { each: { type: string } }\n",
                                       reply: .json(#"{"items": [{"name": "zaphod"}]}"#))
        let failure = try #require(result.failures.first)
        #expect(failure.diagnostic.notes == ["$.items[*].name can select several nodes but selected one, which is compared as itself, "
                                             + "not as a list of one (with two or more it is the list of them); count: checks how many"],
                "\(failure)")
    }

    /// A value holding a secret or a sent credential is shown as every output hides it: no note gives away its length.
    @Test func aFailureOnAValueHoldingASecretSaysNothingAboutIt() async throws {
        let env = environment("secrets: { apiKey: { env: RUNNER_TEST_UNSET_KEY, default: k3y-Secret-Value } }\n")
        let result = try await outcome("""
            request: { url: /a, headers: { Authorization: "Bearer tok-12345678" } }
            expect:
              body:
                $.key: { length: 3 }
                $.auth: { length: 3 }
                $.piece: { length: 3 }
                $.other: { length: 3 }
            """, reply: .json(#"{"key": "k3y-Secret-Value", "auth": "Bearer tok-12345678", "piece": "Secret-Val", "other": "abcdef"}"#,
                             headers: []),
            extraFiles: ["environments/test.yaml": env])
        let messages = result.failures.map(\.diagnostic.message)
        #expect(messages == ["body $.key did not match", "body $.auth did not match", "body $.piece did not match",
                             #"body $.other did not match: expected a value with length 3, got "abcdef" (length 6)"#])
    }

    /// A pattern from a variable that does not compile makes the request ERROR at the template, also negated (it cannot be
    /// checked, so it neither holds nor fails) and against a value holding a secret (the message shows nothing of it).
    @Test(arguments: ["text: { matches: \"{{ re }}\" }", "text: { not: { matches: \"{{ re }}\" } }",
                      "body: { $.key: { not: { matches: \"{{ re }}\" } } }", "headers: { X-A: { not: { matches: \"{{ re }}\" } } }"])
    func anInvalidPatternFromATemplateIsAnError(expectation: String) async throws {
        let env = environment("secrets: { apiKey: { env: RUNNER_TEST_UNSET_KEY, default: k3y-Secret-Value } }\nvariables: { re: 'abc(' }\n")
        let result = try await outcome("request: { url: /a }\nexpect: { \(expectation) }\n",
                                       reply: .json(#"{"key": "k3y-Secret-Value"}"#, headers: [("X-A", "b")]),
                                       extraFiles: ["environments/test.yaml": env])
        #expect(result.verdict == .errored, "\(result.failures.map(\.diagnostic.message))")
        #expect(result.error?.message == "invalid regular expression 'abc(': expected ')'", "\(String(describing: result.error))")
    }

    /// A body that is not JSON and holds a secret: the failure tells neither its size nor the parser's words about its
    /// first characters; another body that is not JSON says both.
    @Test func aBodyNotJSONHoldingASecretSaysNothingAboutIt() async throws {
        let env = environment("secrets: { apiKey: { env: RUNNER_TEST_UNSET_KEY, default: tok-Secret-Value } }\n")
        let file = "request: { url: /a }\nexpect: { body: { $.key: 1 }, schema: s.json }\n"
        for (body, actual) in [("tok-Secret-Value", "the response body is not JSON (it holds a hidden value)"),
                               ("tok-other", "the response body is not JSON (9 bytes")] {
            let result = try await outcome(file, reply: .response(status: 200, body: Data(body.utf8)),
                                           extraFiles: ["environments/test.yaml": env, "requests/s.json": "{}"])
            #expect(result.failures.count == 2 && result.failures.allSatisfy { $0.actual.hasPrefix(actual) },
                    "\(result.failures.map(\.actual))")
        }
    }

    /// `expect.openapi` reads a body that is not JSON as `body` and `schema` do: one holding a secret tells neither its size
    /// nor the parser's words.
    @Test func anOpenAPIMismatchOnABodyHoldingASecretSaysNothingAboutIt() async throws {
        let env = environment("secrets: { apiKey: { env: RUNNER_TEST_UNSET_KEY, default: tok-Secret-Value } }\n")
        let document = """
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /v1/a:
                get:
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { type: object } } }
            """
        for (body, actual) in [("tok-Secret-Value", "the response body is not JSON (it holds a hidden value)"),
                               ("tok-other", "the response body is not JSON (9 bytes")] {
            let result = try await outcome("request: { url: /a }\nexpect: { openapi: ../api/api.yaml }\n",
                                           reply: .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8)),
                                           extraFiles: ["environments/test.yaml": env, "api/api.yaml": document])
            #expect(result.failures.count == 1 && result.failures.allSatisfy { $0.actual.hasPrefix(actual) },
                    "\(result.failures.map(\.diagnostic.message)) \(result.failures.map(\.actual))")
        }
    }

    /// A status below 400 that `on` lists is not retried without an `expect.status`, which accepts it as the request
    /// does (trial helper-180: retried, flaky, the last answer judged); beside an `expect.status` refusing it, it is.
    @Test func aStatusTheRequestAcceptsIsNotRetried() async throws {
        let accepted = try await outcome("request: { url: /a }\noptions: { retry: { attempts: 3, delay: 1ms, on: [200] } }\n",
                                         reply: .response(status: 200))
        #expect(accepted.attempts == 1 && accepted.verdict == .passed && !accepted.flaky)
        let refused = try await outcome("request: { url: /a }\noptions: { retry: { attempts: 3, delay: 1ms, on: [202] } }\nexpect: { status: 200 }\n",
                                        reply: .response(status: 202))
        #expect(refused.attempts == 3 && refused.verdict == .failed)
    }

    /// A status the request retries on, kept because the server asked for a longer wait than a retry gives, says so.
    @Test func aResponseNotRetriedForItsLongRetryAfterSaysWhy() async throws {
        let result = try await outcome("""
            request: { url: /a }
            options: { retry: { attempts: 3, on: [503] } }
            """, reply: .response(status: 503, headers: ["Retry-After": "400"]))
        #expect(result.attempts == 1)
        #expect(result.failures.map(\.diagnostic.notes) == [["not retried: the server asked to wait 6 min 40 s (Retry-After), "
                                                              + "longer than the 5 min a retry waits at most"]])
        // Just over the limit, exact (it read "about 5 min, longer than the 5 min": trial helper-184); longer, rounded.
        #expect(RetryLoader.spoken(.seconds(301)) == "5 min 1 s" && RetryLoader.spoken(.seconds(5400)) == "90 min"
                    && RetryLoader.spoken(.seconds(3599)) == "about 60 min" && RetryLoader.spoken(.seconds(7200)) == "2 h")
    }

    @Test func passingExpectationsOfEveryKind() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect:
              status: { in: [200, 201] }
              headers:
                content-type: { contains: json }
                X-Total: { greaterThan: 10 }
                X-Literal: "12"
              body:
                $.items[*].id: [1, 2]
                $.items[0].id: 1
                $.missing: { exists: false }
              text: { contains: '"items"' }
              duration: { lessThan: 10s }
              schema: user.schema.json
            """, reply: .json(#"{"items":[{"id":1},{"id":2}]}"#, headers: [("X-Total", "12"), ("X-Literal", "12")]),
            extraFiles: ["requests/user.schema.json": #"{"type":"object","required":["items"]}"#])
        #expect(result.verdict == .passed, "\(result.failures.map(\.diagnostic.message))")
    }

    /// A number from a template (`{{ item }}` of a list of ids) is text for the operators that read text, and a text
    /// body or a header that is all a number compares with it as a number.
    @Test func numbersFromTemplatesCompareWithTextBodiesAndHeaders() async throws {
        let ids = ["environments/test.yaml": environment("variables: { ids: [7] }\n")]
        let result = try await outcome("""
            each: "{{ ids }}"
            request: { url: /a }
            expect:
              headers:
                X-Id: { startsWith: "{{ item }}", lessThan: 100 }
                X-Count: "{{ item }}"
              text: { startsWith: "{{ item }}", endsWith: "{{ index }}", contains: "{{ item }}" }
            """, reply: .response(status: 200, headers: ["X-Id": "71", "X-Count": "7"], body: Data("7 of 1".utf8)), extraFiles: ids)
        #expect(result.verdict == .passed, "\(result.failures.map(\.diagnostic.message))")
        let whole = try await outcome("each: \"{{ ids }}\"\nrequest: { url: /a }\nexpect: { text: \"{{ item }}\" }\n",
                                      reply: .response(status: 200, body: Data("7".utf8)), extraFiles: ids)
        #expect(whole.verdict == .passed, "\(whole.failures.map(\.diagnostic.message))")
    }

    /// A lone template's value against the same digits of the other type: the types differ, and the note names the
    /// template (the hint to quote a literal would not help): a number against a string, and text (as a `--var` is) in
    /// `in` beside an ordering that reads it as a number, where the note says why it is text.
    @Test(arguments: [
        ("n: 7", #"$.i: "{{ n }}""#, #"{"i": "7"}"#,
         #"body $.i did not match: expected 7, got "7" (a string, not the number 7 that '{{ n }}' gives: the types differ)"#),
        (#"n: "250""#, #"$.i: { lessThanOrEqual: "{{ n }}", in: ["{{ n }}"] }"#, #"{"i": 250}"#,
         #"body $.i did not match: 250 is not in ["250"] (a number, not the string "250" that '{{ n }}' gives: "#
            + "the types differ; a --var, a data row and $env are text, which only an ordering reads as a number)"),
    ])
    func aLoneTemplateOfTheOtherTypeIsNamed(variables: String, query: String, body: String, message: String) async throws {
        let result = try await outcome("request: { url: /a }\nexpect:\n  body:\n    \(query)\n", reply: .json(body),
                                       extraFiles: ["environments/test.yaml": environment("variables: { \(variables) }\n")])
        #expect(result.failures.first?.diagnostic.message == message, "\(result.failures)")
    }

    /// A failure whose matcher says why (values that cannot be ordered) carries the reason in its message, also
    /// for a single operator.
    @Test func aFailureSaysWhyValuesCannotBeOrdered() async throws {
        let result = try await outcome("request: { url: /a }\nexpect:\n  body:\n    $.n: { lessThan: \"{{ word }}\" }\n",
                                       reply: .json(#"{"n": 2}"#),
                                       extraFiles: ["environments/test.yaml": environment("variables: { word: abc }\n")])
        #expect(result.failures.first?.diagnostic.message
                == #"body $.n did not match: expected a value less than "abc", got 2 (a number and a string "abc" cannot be ordered)"#,
                "\(result.failures)")
    }

    /// A request's failures are in the order of their places in the file, as the console shows them, whatever order
    /// they are checked in: every report and annotation lists them so.
    @Test func failuresAreInTheOrderOfTheirPlaces() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect: { text: "x", status: 201 }
            capture: { id: $.id }
            """, reply: .response(status: 200, body: Data("y".utf8)))
        #expect(result.failures.map { $0.diagnostic.mark.map { "\($0.line):\($0.column)" } } == ["2:17", "2:30", "3:16"],
                "\(result.failures)")
    }

    @Test func aQueryIsComparedByHowManyNodesItSelects() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.items[*].id: 7
                $.items[?@.id > 100]: { exists: false }
                $..id: [7, 8]
                $.items[0].id: 7
                $.items[2].id: { exists: false }
            """, reply: .json(#"{"items":[{"id":7},{"x":{"id":8}}]}"#))
        #expect(result.verdict == .passed, "\(result.failures.map(\.actual))")
        // One node is that node, not a list of one: comparing it to a list fails.
        let single = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.items[*].id: [7]
            """, reply: .json(#"{"items":[{"id":7}]}"#))
        #expect(single.verdict == .failed)
        #expect(single.failures.first?.actual == "7")
    }

    /// `count` is the number of nodes a query selects, checked apart from the other operators, which see one node as that
    /// node: a filter selecting one user has count 1, where `length` counts the user's members (trial helper-141).
    @Test func countIsTheNumberOfNodesAQuerySelects() async throws {
        let reply = ScriptedLoader.Reply.json(#"{"users":[{"name":"a","age":120},{"name":"b","age":30}]}"#)
        let passing = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.users[?@.age > 100]: { count: 1, equals: { name: a, age: 120 }, length: 2 }
                $.users[*]: { count: { greaterThanOrEqual: 2 }, each: { type: object } }
                $.users[?@.age > 500]: { count: 0, exists: false }
                $.users[*].name: { count: "{{ two }}" }
            """, reply: reply, variables: [("two", "2")])
        #expect(passing.verdict == .passed, "\(passing.failures.map(\.diagnostic.message))")
        let failing = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.users[?@.age > 100]: { count: 2 }
                $.users[*].name: { count: { not: { equals: "{{ word }}" } } }
                $.nothing: { count: { greaterThan: 0 } }
            """, reply: reply, variables: [("word", "abc")])
        #expect(failing.failures.map(\.diagnostic.message) == [
            "body $.users[?@.age > 100] count did not match",
            #"body $.users[*].name count did not match: expected a value other than "abc", got 2 ("abc" is not a count)"#,
            "body $.nothing count did not match",
        ])
        #expect(failing.failures.map(\.actual) == ["1", "2", "0"])
        #expect(failing.failures.map { $0.diagnostic.mark?.column } == [37, 31, 25])
    }

    /// `in` with one template that gives the list (an environment's list, as a capture gives one), and an ERROR at it
    /// when it gives no list at run (a row's value here: one known before sending is an error at validate).
    @Test func inReadsTheListOneTemplateGives() async throws {
        let reply = ScriptedLoader.Reply.json(#"{"id": 7, "name": "x"}"#)
        let listed = ["environments/test.yaml": environment("variables: { ids: [5, 7], word: abc, none: [] }\n")]
        let passing = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.id: { in: "{{ ids }}" }
                $.name: { not: { in: "{{ ids }}" } }
            """, reply: reply, extraFiles: listed)
        #expect(passing.verdict == .passed, "\(passing.failures.map(\.diagnostic.message))")
        let failing = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.name: { in: "{{ ids }}" }
            """, reply: reply, extraFiles: listed)
        #expect(failing.failures.map(\.expected) == ["one of [5,7]"], "\(failing.failures.map(\.diagnostic.message))")
        let notAList = try await outcome("""
            each: [{ word: abc }]
            request: { url: /a }
            expect:
              body:
                $.id: { in: "{{ word }}" }
            """, reply: reply, extraFiles: listed)
        #expect(notAList.verdict == .errored)
        #expect(notAList.error?.message == #"'{{ word }}' gives a string "abc", not the list 'in' reads"#)
        #expect(notAList.error?.mark?.line == 5)
        // An empty list: nothing is one of none, and negated every value would pass (trial helper-148).
        let empty = try await outcome("""
            each: [{ none: [] }]
            request: { url: /a }
            expect:
              body:
                $.id: { not: { in: "{{ none }}" } }
            """, reply: reply, extraFiles: listed)
        #expect(empty.verdict == .errored)
        #expect(empty.error?.message.hasPrefix("'{{ none }}' gives an empty list: no value is one of none") == true, "\(empty.error?.message ?? "")")
    }

    @Test func aBodyThatIsNotJSONFailsWithAClearMessage() async throws {
        let html = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.id: 1
                $.name: x
            """, reply: .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8)))
        #expect(html.failures.count == 1)
        #expect(html.failures[0].actual.contains("not JSON"))
        #expect(html.failures[0].actual.contains("text/html"))

        let binary = try await outcome("""
            request: { url: /a }
            expect:
              text: { contains: x }
            """, reply: .response(status: 200, body: Data([0xFF, 0x00, 0xFE])))
        #expect(binary.failures.first?.actual.contains("binary") == true)
        // A Content-Encoding the transport does not decode (it asks for gzip and deflate) is named.
        let brotli = try await outcome("request: { url: /a }\nexpect:\n  body: { $.a: 1 }\n",
                                       reply: .response(status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "br"],
                                                        body: Data([0x8B, 0x00, 0x80])))
        #expect(brotli.failures.first?.actual == "the response body is binary (3 bytes, Content-Type application/json, Content-Encoding br, "
                + "which runner does not decode), not JSON", "\(brotli.failures.map(\.actual))")

        // Text in the charset its Content-Type names is text (as XPath reads it), and so is JSON in it, or in UTF-8 after
        // a byte order mark; bytes that are not valid in the charset are said to be so.
        let latin1 = try await outcome("request: { url: /a }\nexpect:\n  text: { contains: café }\n",
                                       reply: .response(status: 200, headers: ["Content-Type": "text/plain; charset=ISO-8859-1"],
                                                        body: Data([0x63, 0x61, 0x66, 0xE9])))
        #expect(latin1.verdict == .passed, "\(latin1.failures.map(\.actual))")
        for (type, body) in [("application/json; charset=utf-16", Data([0xFF, 0xFE]) + "{\"a\": \"é\"}".data(using: .utf16LittleEndian)!),
                             ("application/json", Data([0xEF, 0xBB, 0xBF]) + Data("{\"a\": \"é\"}".utf8))] {
            let json = try await outcome("request: { url: /a }\nexpect:\n  body: { $.a: é }\n",
                                         reply: .response(status: 200, headers: ["Content-Type": type], body: body))
            #expect(json.verdict == .passed, "\(type): \(json.failures.map(\.actual))")
        }
        let odd = try await outcome("request: { url: /a }\nexpect:\n  text: { contains: x }\n",
                                    reply: .response(status: 200, headers: ["Content-Type": "text/plain; charset=UTF-16LE"], body: Data([0x78, 0x00, 0x00, 0xD8])))
        #expect(odd.failures.first?.actual.hasPrefix("the response body is not valid UTF-16LE (4 bytes") == true, "\(odd.failures.map(\.actual))")

        let empty = try await outcome("""
            request: { url: /a }
            expect:
              body: { $.id: 1 }
            """, reply: .response(status: 204))
        #expect(empty.failures.first?.actual.contains("empty") == true)
    }

    @Test func xpathQueriesCompareLikeJSONPathResults() async throws {
        let feed = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Users</title>
            <entry><title>ada</title></entry><entry><title>alan</title></entry></feed>
            """
        let passing = try await outcome("""
            request: { url: /feed }
            expect:
              namespaces: { a: "http://www.w3.org/2005/Atom" }
              xpath:
                "string(/a:feed/a:title)": Users
                "count(//a:entry)": 2
                "//a:entry/a:title": [ada, alan]
                "//a:entry[1]/a:title": ada
                "//a:missing": { exists: false }
                "count(//a:entry) = 2": true
            """, reply: .response(status: 200, headers: ["Content-Type": "application/atom+xml"], body: Data(feed.utf8)))
        #expect(passing.verdict == .passed, "\(passing.failures.map(\.diagnostic.message))")

        let failing = try await outcome("""
            request: { url: /feed }
            expect:
              namespaces: { a: "http://www.w3.org/2005/Atom" }
              xpath:
                "count(//a:entry)": 3
                "//a:entry/a:title": ada
            """, reply: .response(status: 200, body: Data(feed.utf8)))
        #expect(failing.failures.map(\.diagnostic.message) == ["xpath count(//a:entry) did not match", "xpath //a:entry/a:title did not match"])
        #expect(failing.failures.map(\.actual) == ["2", #"["ada","alan"]"#])
        #expect(failing.failures.map { $0.diagnostic.mark?.line } == [5, 6])
    }

    @Test func xpathReadsHTMLByItsContentTypeAndFailsOnceOnABodyThatIsNotXML() async throws {
        let html = try await outcome("""
            request: { url: /page }
            expect:
              xpath:
                "string(//h1)": Welcome
                "//input/@name": [csrf, user]
            """, reply: .response(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                  body: Data("<h1>Welcome<form><input name=csrf><input name=user></form>".utf8)))
        #expect(html.verdict == .passed, "\(html.failures.map(\.actual))")

        let json = try await outcome("""
            request: { url: /a }
            expect:
              xpath:
                "//id": 1
                "//name": x
            """, reply: .json(#"{"id":1}"#))
        #expect(json.failures.count == 1)
        #expect(json.failures[0].diagnostic.message == "xpath //id cannot be checked")
        #expect(json.failures[0].expected == "an XML body")
        #expect(json.failures[0].actual == "the response body is not XML (8 bytes, Content-Type application/json): "
                + "line 1, column 1: Start tag expected, '<' not found")

        let empty = try await outcome("request: { url: /a }\nexpect:\n  xpath: { \"//a\": 1 }\n",
                                      reply: .response(status: 200, headers: ["Content-Type": "text/html"]))
        #expect(empty.failures.first?.expected == "an HTML body")
        #expect(empty.failures.first?.actual == "the response body is empty, not HTML")
    }

    @Test func textBodiesDecodeAsUTF8WithoutAByteOrderMarkAndRefuseNULAndInvalidBytes() async throws {
        let expectText = """
            request: { url: /a }
            expect:
              text: { equals: "grüße" }
            """
        let plain = try await outcome(expectText, reply: .response(status: 200, body: Data("grüße".utf8)))
        #expect(plain.verdict == .passed, "\(plain.failures.map(\.actual))")
        let marked = try await outcome(expectText, reply: .response(status: 200, body: Data([0xEF, 0xBB, 0xBF] + Array("grüße".utf8))))
        #expect(marked.verdict == .passed, "a leading byte order mark is not part of the text")
        for bytes in [Array("gr\u{0}ße".utf8), [0x67, 0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80]] {
            let refused = try await outcome(expectText, reply: .response(status: 200, body: Data(bytes)))
            #expect(refused.failures.first?.actual.contains("binary") == true, "\(bytes)")
        }
    }

    @Test func bodyFailuresCarryExpectedAndActual() async throws {
        let located = try await outcome("""
            request: { url: /a }
            expect:
              body:
                $.count: { greaterThan: 5 }
            """, reply: .json(#"{"count":3}"#))
        let failure = try #require(located.failures.first)
        #expect(failure.expected == "a value greater than 5")
        #expect(failure.actual == "3")
        #expect(failure.diagnostic.mark?.line == 4)
    }

    /// What was checked is what runs: a schema file changed after the collection was checked does not change the
    /// verdict (the run uses the schema the check compiled).
    @Test func theRunUsesTheSchemaAsItWasChecked() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": "baseURL: http://api.test\n",
            "requests/a.yaml": "request: { url: /a }\nexpect: { schema: s.json }\n",
            "requests/s.json": #"{"type":"object","required":["id"]}"#,
        ])
        defer { collection.remove() }
        let loaded = await collection.load()
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        try Data(#"{"type":"object","required":["missing"]}"#.utf8).write(to: collection.root.appendingPathComponent("requests/s.json"))
        let loader = ScriptedLoader(fallback: .json(#"{"id":1}"#))
        let summary = await CollectionRun(collection: loaded, options: RunOptions(), transport: loader).run()
        #expect(summary.count(.passed) == 1, "\(summary.outcomes.flatMap(\.failures).map(\.actual))")
    }

    @Test func schemaViolationsNameTheInstancePath() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect:
              schema: s.json
            """, reply: .json(#"{"id":"x"}"#),
            extraFiles: ["requests/s.json": #"{"properties":{"id":{"type":"integer"}}}"#])
        let failure = try #require(result.failures.first)
        #expect(failure.actual.contains("$.id"))
    }

    @Test func durationComparesMilliseconds() async throws {
        let result = try await outcome("""
            request: { url: /a }
            expect:
              duration: { lessThan: 1ms }
            """, reply: .delayed(.milliseconds(30), .response(status: 200)))
        #expect(result.verdict == .failed)
        #expect(result.failures.first?.actual.hasSuffix(" ms") == true)
        // Whole milliseconds as written: `1 ms`, not `1.0 ms`.
        #expect(result.failures.first?.expected == "a value less than 1 ms")
    }

    @Test func transportErrorsAreErrorsWithTheMessageAndAttempts() async throws {
        let result = try await outcome("""
            request: { url: /a }
            options: { retry: { attempts: 2, delay: 1ms } }
            """, reply: .failure(.cannotConnect))
        #expect(result.verdict == .errored)
        #expect(result.error?.message.contains("scripted cannotConnect") == true)
        #expect(result.attempts == 2)
    }
}
