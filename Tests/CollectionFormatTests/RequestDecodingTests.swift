import Expectations
import HTTPCore
import Testing
import YAML
@testable import CollectionFormat

@Suite struct RequestDecodingTests {
    @Test func decodesEveryRequestKey() throws {
        let definition = try #require(decodeRequest("""
            name: Create a user
            tags: [users, smoke]
            skip: "waiting for ticket 42"
            request:
              method: POST
              url: /users
              query:
                page: 2
                tag: [a, b]
              headers:
                Accept: application/json
              json: { name: "{{ userName }}", age: 42 }
            """))
        #expect(definition.name == "Create a user")
        #expect(definition.tags == ["users", "smoke"])
        #expect(definition.skip == Skip(reason: "waiting for ticket 42", mark: Mark(line: 3, column: 7)))
        #expect(definition.request.method == Located("POST", at: Mark(line: 5, column: 11)))
        #expect(definition.request.url.source == "/users")
        #expect(definition.request.query.map(\.name) == ["page", "tag"])
        #expect(definition.request.query[0].values.map(\.content) == [.int(2)])
        #expect(definition.request.query[1].values.count == 2)
        #expect(definition.request.headers.map(\.name) == ["Accept"])
        #expect(definition.request.headers[0].value.source == "application/json")
        guard case .json(let json)? = definition.request.body?.value, case .object(let members) = json.content else {
            Issue.record("expected a JSON object body")
            return
        }
        #expect(members.map(\.key) == ["name", "age"])
        #expect(members[1].value.content == .int(42))
        guard case .string(let template) = members[0].value.content else { Issue.record("expected a template"); return }
        #expect(template.singleExpression?.mark == Mark(line: 12, column: 18))
    }

    @Test func defaultsToGetAndTheFileName() throws {
        let (file, diagnostics) = decodeRequestFile("request:\n  url: /health\n")
        #expect(diagnostics.isEmpty)
        #expect(file.name == "r")
        #expect(file.steps[0].request.method.value == "GET")
        #expect(file.skip == nil && !file.isFlow)
    }

    @Test func skipTrueAndFalse() {
        #expect(decodeRequest("skip: true\nrequest: { url: /a }")?.skip?.reason == nil)
        #expect(decodeRequest("skip: true\nrequest: { url: /a }")?.skip != nil)
        #expect(decodeRequest("skip: false\nrequest: { url: /a }")?.skip == nil)
        // A block scalar's line break is not part of the reason.
        #expect(decodeRequest("skip: |\n  not today\nrequest: { url: /a }")?.skip?.reason == "not today")
        // An empty reason skips, with a warning: it may be a reason left out.
        let (file, diagnostics) = decodeRequestFile("skip: ''\nrequest: { url: /a }")
        #expect(file.skip != nil && file.skip?.reason == nil)
        #expect(diagnostics.map(\.description) == ["requests/r.yaml:1:7: warning: 'skip' is an empty reason: the request is skipped"])
    }

    @Test func decodesFormTextFileAndMultipartBodies() {
        guard case .form(let form)? = decodeRequest("request:\n  url: /a\n  form: { name: Arthur, age: 42 }")?.request.body?.value else {
            Issue.record("form"); return
        }
        #expect(form.map(\.name) == ["name", "age"])
        guard case .text(let text)? = decodeRequest("request:\n  url: /a\n  text: raw body")?.request.body?.value else {
            Issue.record("text"); return
        }
        #expect(text.source == "raw body")
        guard case .file(let file)? = decodeRequest("request:\n  url: /a\n  file: fixtures/p.bin")?.request.body?.value else {
            Issue.record("file"); return
        }
        #expect(file.path == "requests/fixtures/p.bin" && file.absolutePath == "/project/requests/fixtures/p.bin")
        let multipart = decodeRequest("""
            request:
              url: /a
              multipart:
                - { name: note, value: hello }
                - { name: avatar, file: fixtures/avatar.png, contentType: image/png }
            """)
        guard case .multipart(let parts)? = multipart?.request.body?.value else { Issue.record("multipart"); return }
        #expect(parts.count == 2)
        #expect(parts[0].content == .value(.literal("hello", at: Mark(line: 4, column: 28))))
        guard case .file(let avatar, let contentType) = parts[1].content else { Issue.record("file part"); return }
        #expect(avatar.written == "fixtures/avatar.png" && contentType == "image/png")
    }

    @Test func decodesGraphQLBodiesSentWithPostByDefault() throws {
        let request = try #require(decodeRequest("""
            request:
              url: /graphql
              graphql:
                query: "query User($id: ID!) { user(id: $id) { name } }"
                variables: { id: "{{ userId }}", page: 2 }
                operationName: User
            """)?.request)
        #expect(request.method.value == "POST")
        guard case .graphql(let graphql)? = request.body?.value else { Issue.record("graphql"); return }
        #expect(graphql.query.source == "query User($id: ID!) { user(id: $id) { name } }")
        #expect(graphql.operationName?.source == "User")
        guard case .object(let members)? = graphql.variables?.content else { Issue.record("variables"); return }
        #expect(members.map(\.key) == ["id", "page"])
        #expect(request.templates.compactMap { $0.singleExpression?.expression.description } == ["userId"])

        let written = try #require(decodeRequest("""
            request: { method: PUT, url: /graphql, graphql: { query: "{ a }", variables: "{{ vars }}" } }
            """)?.request)
        #expect(written.method.value == "PUT")
        guard case .graphql(let lone)? = written.body?.value else { Issue.record("lone"); return }
        #expect(lone.variables?.templates.map(\.source) == ["{{ vars }}"] && lone.operationName == nil)
    }

    @Test func decodesXPathExpectationsNamespacesAndCaptures() throws {
        let definition = try #require(decodeRequest("""
            request: { url: /feed.xml }
            expect:
              namespaces: { a: "http://www.w3.org/2005/Atom" }
              xpath:
                "count(//a:entry)": 2
                "string(//a:title)": "{{ title }}"
            capture:
              first: { xpath: "string(//a:entry[1]/a:id)" }
            """))
        #expect(definition.expect.namespaces == [XPathNamespace(prefix: "a", uri: "http://www.w3.org/2005/Atom")])
        #expect(definition.expect.xpath.map(\.expression) == ["count(//a:entry)", "string(//a:title)"])
        #expect(definition.expect.xpath.map(\.expressionMark.line) == [5, 6])
        #expect(definition.templates.map(\.source) == ["/feed.xml", "{{ title }}"])
        #expect(definition.captures.map(\.source) == [.xpath("string(//a:entry[1]/a:id)")])
    }

    @Test func decodesAuthKinds() {
        #expect(decodeRequest("request: { url: /a }\nauth: none")?.auth?.value == AuthDefinition.none)
        guard case .basic(let user, let password)? = decodeRequest("""
            request: { url: /a }
            auth:
              basic: { username: "{{ user }}", password: pw }
            """)?.auth?.value else { Issue.record("basic"); return }
        #expect(user.singleExpression != nil && password.source == "pw")
        guard case .bearer(let token)? = decodeRequest("request: { url: /a }\nauth: { bearer: abc }")?.auth?.value else {
            Issue.record("bearer"); return
        }
        #expect(token.source == "abc")
        guard case .oauth2(let oauth)? = decodeRequest("""
            request: { url: /a }
            auth:
              oauth2: { tokenURL: "https://id.example.com/token", clientID: c, clientSecret: s, scope: read }
            """)?.auth?.value else { Issue.record("oauth2"); return }
        #expect(oauth.tokenURL.source == "https://id.example.com/token" && oauth.scope?.source == "read")
    }

    @Test func decodesOptions() throws {
        let options = try #require(decodeRequest("""
            request: { url: /a }
            options:
              timeout: 5s
              delay: 100ms
              followRedirects: false
              maxRedirects: 3
              cookies: false
              retry:
                attempts: 3
                delay: 1.5s
                backoff: exponential
                on: [429, 503, timeout, connection]
            """)?.options)
        #expect(options.timeout?.value == .seconds(5))
        #expect(options.delay?.value == .milliseconds(100))
        #expect(options.followRedirects?.value == false)
        #expect(options.maxRedirects?.value == 3)
        #expect(options.cookies?.value == false)
        #expect(options.retry?.attempts?.value == 3)
        #expect(options.retry?.delay?.value == .milliseconds(1500))
        #expect(options.retry?.backoff?.value == .exponential)
        #expect(options.retry?.on?.value == [.status(429), .status(503), .timeout, .connection])
    }

    /// A `:` in a written Basic user name is a warning: RFC 7617 has no escape for it (trial helper-157).
    @Test func aColonInABasicUserNameIsAWarning() {
        #expect(problems("request: { url: /a }\nauth:\n  basic: { username: \"a:b\", password: \"{{ pw }}\" }\n") == [
            "requests/r.yaml:3:22: warning: the Basic user name holds a ':', which ends it: the server reads what follows as the password "
                + "(RFC 7617) [help: check the user name; a ':' belongs in the password]",
        ])
        #expect(problems("request: { url: /a }\nauth:\n  basic: { username: \"{{ user }}\", password: \"a:b\" }\n").isEmpty)
    }

    @Test func durationsAcceptUnitsAndFractions() {
        #expect(DurationSyntax.parse("250ms") == .milliseconds(250))
        #expect(DurationSyntax.parse("1m") == .seconds(60))
        #expect(DurationSyntax.parse("2h") == .seconds(7200))
        #expect(DurationSyntax.parse("0s") == .zero)
        #expect(DurationSyntax.parse("1.5s") == .milliseconds(1500))
        for bad in ["5", "5 s", "-1s", "s", ".5s", "1.s", "1..5s", "5sec", "1e3ms", ""] {
            #expect(DurationSyntax.read(bad) == .invalid, "\(bad)")
        }
        // At most a week: longer values are refused, not turned into a duration the clocks cannot hold.
        #expect(DurationSyntax.parse("168h") == .seconds(604_800))
        #expect(DurationSyntax.read("168.5h") == .tooLong)
        #expect(DurationSyntax.read("1001111111111111111111111111111111111111111111111111111111ms") == .tooLong)
    }

    @Test func aDurationLongerThanAWeekIsALocatedError() {
        #expect(problems("""
            request: { url: /a }
            options:
              delay: 1001111111111111111111111111111111111111111111111111111111ms
            expect:
              duration: { lessThan: 9999999h }
            """) == [
            "requests/r.yaml:3:10: error: 'options.delay' may be at most 168h (a week), found "
                + "1001111111111111111111111111111111111111111111111111111111ms [help: use a shorter duration]",
            "requests/r.yaml:5:25: error: 'expect.duration' may be at most 168h (a week), found 9999999h [help: use a shorter duration]",
        ])
    }

    @Test func decodesExpectations() throws {
        let expect = try #require(decodeRequest("""
            request: { url: /a }
            expect:
              status: 201
              headers:
                Content-Type: { contains: application/json }
                X-Count: "3"
              body:
                $.id: { exists: true }
                $.name: "{{ userName }}"
                $.items: { length: 3 }
                $.tags: { each: { type: string }, not: { isEmpty: true } }
                $.score: { greaterThan: 1, lessThanOrEqual: 9.5 }
                $.kind: { in: [a, b] }
                $.code: { matches: '^[A-Z]+$', length: { greaterThan: 2 } }
              text: { contains: Welcome }
              schema: schemas/user.json
              duration: { lessThan: 500ms }
            """)?.expect)
        guard case .oneOf(let codes)? = expect.status?.value else { Issue.record("status"); return }
        #expect(codes == [.code(201)])
        #expect(expect.headers.map(\.name) == ["Content-Type", "X-Count"])
        #expect(expect.body.map(\.path) == ["$.id", "$.name", "$.items", "$.tags", "$.score", "$.kind", "$.code"])
        guard case .exists(true) = expect.body[0].matcher else { Issue.record("exists"); return }
        guard case .equals(let name) = expect.body[1].matcher, case .string(let template) = name.content else {
            Issue.record("equals"); return
        }
        #expect(template.singleExpression != nil)
        guard case .length(.equals(let three)) = expect.body[2].matcher else { Issue.record("length"); return }
        #expect(three.content == .int(3))
        guard case .all(let tagMatchers) = expect.body[3].matcher, case .each(.type(.string)) = tagMatchers[0],
              case .not(.isEmpty(true)) = tagMatchers[1] else { Issue.record("each/not"); return }
        guard case .all(let score) = expect.body[4].matcher, case .greaterThan = score[0], case .lessThanOrEqual = score[1] else {
            Issue.record("comparisons"); return
        }
        guard case .in(let kinds) = expect.body[5].matcher else { Issue.record("in"); return }
        #expect(kinds.count == 2)
        guard case .contains = expect.text?.value else { Issue.record("text"); return }
        #expect(expect.schema?.path == "requests/schemas/user.json")
        guard case .lessThan(let limit)? = expect.duration?.value else { Issue.record("duration"); return }
        #expect(limit == .milliseconds(500))
    }

    @Test func statusForms() {
        func status(_ yaml: String) -> StatusExpectation? {
            decodeRequest("request: { url: /a }\nexpect:\n  status: \(yaml)")?.expect.status?.value
        }
        guard case .oneOf(let list)? = status("[200, 201]") else { Issue.record("list"); return }
        #expect(list == [.code(200), .code(201)])
        guard case .oneOf(let pattern)? = status("\"2xx\"") else { Issue.record("class"); return }
        #expect(pattern == [.statusClass(2)])
        #expect(pattern[0].matches(204) && !pattern[0].matches(301))
        guard case .matcher(.all)? = status("{ greaterThanOrEqual: 200, lessThan: 300 }") else { Issue.record("matcher"); return }
        // A code in quotes is the code it spells; a lone template is the code it gives.
        guard case .oneOf(let quoted)? = status("[\"200\", '3xx']") else { Issue.record("quoted"); return }
        #expect(quoted == [.code(200), .statusClass(3)])
        guard case .matcher(.equals)? = status("\"{{ code }}\"") else { Issue.record("template"); return }
    }

    @Test func decodesCaptures() throws {
        let captures = try #require(decodeRequest("""
            request: { url: /a }
            capture:
              userId: $.id
              etag: { header: ETag }
              session: { cookie: session }
              csrf: { regex: 'name="csrf" value="([^"]+)"' }
              code: { status: true }
            """)?.captures)
        #expect(captures.map(\.name) == ["userId", "etag", "session", "csrf", "code"])
        #expect(captures.map(\.source) == [.jsonPath("$.id"), .header("ETag"), .cookie("session"),
                                           .regex("name=\"csrf\" value=\"([^\"]+)\""), .status])
    }

    @Test func decodesAFlow() throws {
        let (file, diagnostics) = decodeRequestFile("""
            name: Sign up and fetch
            tags: smoke
            steps:
              - request: { method: POST, url: /users }
                capture: { id: $.id }
              - name: fetch
                request: { url: "/users/{{ id }}" }
            """)
        #expect(diagnostics.isEmpty)
        #expect(file.isFlow && file.name == "Sign up and fetch" && file.tags == ["smoke"])
        #expect(file.steps.map(\.name) == ["step 1", "fetch"])
        #expect(file.steps[1].request.url.expressions.first?.mark == Mark(line: 7, column: 29))
    }

    @Test func templateMarksInQuotedAndBlockScalars() throws {
        let definition = try #require(decodeRequest("""
            request:
              url: "/a/\\u0041/{{ id }}"
              headers:
                X-A: 'it''s {{ a }} and {{ b }}'
              text: |
                line {{ c }}
            """))
        #expect(definition.request.url.expressions.map(\.mark) == [Mark(line: 2, column: 19)])
        #expect(definition.request.headers[0].value.expressions.map(\.mark) == [Mark(line: 4, column: 17), Mark(line: 4, column: 29)])
        guard case .text(let text)? = definition.request.body?.value else { Issue.record("text"); return }
        #expect(text.expressions.map(\.mark) == [Mark(line: 6, column: 10)])
    }
}
