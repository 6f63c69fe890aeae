import HTTPCore
import Testing
import YAML
@testable import CollectionFormat

@Suite struct ResolutionTests {
    @Test func jsonBodyKeepsTypesOfSingleTemplates() async throws {
        let definition = try #require(decodeRequest("""
            request:
              url: /a
              json: { n: "{{ count }}", s: "x{{ count }}", list: ["{{ limits }}", 1.5, null, true] }
            """))
        guard case .json(let body)? = definition.request.body?.value else { Issue.record("json"); return }
        var scope = VariableScope()
        scope.define("count", .int(3), in: .environment)
        scope.define("limits", .object(JSONObject([("max", .int(10))])), in: .environment)
        #expect(try scope.resolve(body) == .object(JSONObject([
            ("n", .int(3)), ("s", .string("x3")),
            ("list", .array([.object(JSONObject([("max", .int(10))])), .double(1.5), .null, .bool(true)])),
        ])))
    }

    @Test func commandLineVariablesAreStringsAndWinOverTheEnvironment() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\nvariables: { page: 1, user: env }\nsecrets: { key: { env: KEY } }\n")
        scratch.write("requests/a.yaml", "request: { url: \"/{{ user }}?p={{ page }}\" }\n")
        let collection = await scratch.readCollection(["requests/a.yaml"], env: "qa", vars: [("page", "2")], processEnvironment: ["KEY": "key-1"])
        #expect(collection.diagnostics.isEmpty)
        #expect(collection.files.map(\.name) == ["requests/a"])
        #expect(collection.scope.value(of: "page") == .string("2"))
        #expect(collection.scope.value(of: "user") == .string("env"))
        #expect(collection.scope.secretValues == ["key-1"])
        #expect(try collection.scope.resolveString(collection.files[0].steps[0].request.url) == "/env?p=2")
    }

    /// A path into a value known before sending (an environment's mapping or list) that leads nowhere is reported by
    /// `validate`, every one of them; a path into a value a capture, a data row or a loop may give is left to the run.
    @Test func pathsIntoKnownValuesThatLeadNowhereAreReportedBeforeSending() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\nvariables: { limits: { max: 10, list: [1, 2] }, item: { a: 1 }, rows: [{ b: 2 }] }\n")
        scratch.write("requests/01.yaml", """
            request:
              url: /a
              query: { m: "{{ limits.nope }}", i: "{{ limits.list[5] }}", x: "{{ limits.max.deeper }}", ok: "{{ limits.list[1] }}" }
            capture: { limits: $.limits }
            """)
        scratch.write("requests/02.yaml", "request: { url: \"/b/{{ limits.other }}\" }\n")
        scratch.write("requests/03.yaml", "each: \"{{ rows }}\"\nrequest: { url: \"/c/{{ item.b }}/{{ index }}\" }\n")
        let collection = await scratch.readCollection(["requests"], env: "qa")
        #expect(problems(of: collection) == [
            "requests/01.yaml:3:16: error: 'limits' has no key 'nope' (in 'limits.nope')",
            "requests/01.yaml:3:40: error: index 5 is out of range: 'limits.list' has 2 elements (in 'limits.list[5]')",
            "requests/01.yaml:3:67: error: 'limits.max' is a number, not an object (in 'limits.max.deeper')",
        ])
    }

    /// A JSON body or GraphQL `variables` that a value known before sending makes hold a number JSON cannot write (an
    /// environment's `.inf`) is reported by `validate`; one a capture, a data row or a loop may give is left to the run.
    @Test func anInfiniteNumberAKnownValueGivesAJSONBodyIsReportedBeforeSending() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\nvariables: { big: .inf, vars: { n: .nan }, fine: 2 }\n")
        scratch.write("requests/01.yaml", "request:\n  url: /a\n  json: { v: \"{{ big }}\", f: \"{{ fine }}\", l: [1, \"{{ vars.n }}\"] }\n")
        scratch.write("requests/02.yaml", "request:\n  url: /b\n  graphql: { query: \"{ a }\", variables: \"{{ vars }}\" }\n")
        scratch.write("requests/03.yaml", "request: { url: /c, json: { v: \"{{ fine }}\" } }\ncapture: { big: $.big }\n")
        scratch.write("requests/04.yaml", "request: { url: /d, json: { v: \"{{ big }}\" } }\nexpect: { body: { $.n: { lessThan: \"{{ big }}\" } } }\n")
        let collection = await scratch.readCollection(["requests"], env: "qa")
        #expect(problems(of: collection) == [
            "requests/01.yaml:3:14: error: the JSON body would hold infinity (YAML's .inf, or a number past a double's range such as 1e400), which JSON cannot express, from '{{ big }}' [help: give the variable a finite number, or send it as a string]",
            "requests/01.yaml:3:51: error: the JSON body would hold NaN (YAML's .nan), which JSON cannot express, from '{{ vars.n }}' [help: give the variable a finite number, or send it as a string]",
            "requests/02.yaml:3:41: error: the JSON body would hold NaN (YAML's .nan), which JSON cannot express, from '{{ vars }}' [help: give the variable a finite number, or send it as a string]",
        ])
    }

    /// An environment's template is checked for every request: an undefined variable in it is one problem, with the
    /// "did you mean" a later request's capture gives.
    @Test func anUndefinedVariableOfTheEnvironmentIsReportedOnce() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\nheaders: { X-T: \"{{ tokn }}\" }\n")
        scratch.write("requests/01.yaml", "request: { url: /a }\ncapture: { token: $.t }\n")
        scratch.write("requests/02.yaml", "request: { url: /b }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "environments/qa.yaml:2:18: error: undefined variable 'tokn' [help: did you mean 'token'?]",
        ])
    }

    /// An environment's variable no request run captures (its capturer is in a file the run was not given) says to give
    /// that file too, beside a "did you mean" that names no capture (trial helper-159: `tokenURL` for `token` alone).
    @Test func anEnvironmentsVariableNoRequestRunCapturesSaysToGiveItsFile() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\nvariables: { tokenURL: /t }\nauth: { bearer: \"{{ token }}\" }\n")
        scratch.write("requests/auth/login.yaml", "request: { url: /login }\nauth: none\ncapture: { token: $.t }\n")
        scratch.write("requests/misc/flaky.yaml", "request: { url: /b }\n")
        #expect(problems(of: await scratch.readCollection(["requests/misc/flaky.yaml"], env: "qa")) == [
            "environments/qa.yaml:3:18: error: undefined variable 'token' [help: no request run before requests/misc/flaky.yaml "
                + "captures it: give the file that captures it too, if one does; else define it in the environment's 'variables', or pass --var token=VALUE (or did you mean 'tokenURL'?)]",
        ])
        #expect(problems(of: await scratch.readCollection(["requests/auth", "requests/misc/flaky.yaml"], env: "qa")).isEmpty)
    }

    /// A template with an error in a JSON body or GraphQL variables does not hide the problems of the others.
    @Test func aBrokenTemplateInABodyLeavesItsOtherTemplatesChecked() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\n")
        scratch.write("requests/a.yaml", """
            request:
              method: POST
              url: /a
              json: { a: "{{ one }}", b: "{{ x[-1] }}", c: ["{{ two }}"] }
            """)
        scratch.write("requests/b.yaml", """
            request:
              url: /b
              graphql: { query: "{ a {{ x[-2] }} }", variables: { a: "{{ three }}", b: "{{ x[-1] }}" }, operationName: "{{ four }}" }
            """)
        let found = problems(of: await scratch.readCollection(["requests"], env: "qa"))
        #expect(found.filter { $0.contains("undefined variable") }.map { $0.prefix(while: { $0 != " " }) }
                == ["requests/a.yaml:4:15:", "requests/a.yaml:4:50:", "requests/b.yaml:3:59:", "requests/b.yaml:3:109:"], "\(found)")
        #expect(found.filter { $0.contains("invalid expression") }.count == 3, "\(found)")
    }

    @Test func hostileYAMLBecomesALocatedDiagnostic() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("deep.yaml", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        var bomb = "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
        let names = Array("abcdefghij")
        for level in 1..<names.count {
            bomb += "\(names[level]): &\(names[level]) [" + Array(repeating: "*\(names[level - 1])", count: 9).joined(separator: ", ") + "]\n"
        }
        scratch.write("bomb.yaml", bomb)
        let collection = await scratch.readCollection(["deep.yaml", "bomb.yaml"])
        #expect(collection.diagnostics.count == 2)
        #expect(collection.diagnostics.allSatisfy { $0.mark != nil && $0.severity == .error })
        #expect(collection.files.isEmpty)
    }
}
