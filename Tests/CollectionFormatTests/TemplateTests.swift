import Foundation
import HTTPCore
import Testing
import YAML
@testable import CollectionFormat

/// Parses a template whose `{{` marks are on line 1 at the offset + 1.
func parseTemplate(_ text: String) throws(TemplateError) -> Template {
    try Template.parse(text, at: Mark(line: 1, column: 1)) { Mark(line: 1, column: $0 + 1) }
}

@Suite struct TemplateParsingTests {
    @Test func splitsLiteralsAndExpressions() throws {
        let template = try parseTemplate("Hello {{ user.emails[0] }}, id {{id}}!")
        #expect(template.segments == [
            .literal("Hello "),
            .expression(.variable(VariablePath(name: "user", components: [.key("emails"), .index(0)])), mark: Mark(line: 1, column: 7)),
            .literal(", id "),
            .expression(.variable(VariablePath(name: "id")), mark: Mark(line: 1, column: 32)),
            .literal("!"),
        ])
        #expect(template.singleExpression == nil)
    }

    @Test func singleExpressionIsRecognised() throws {
        let template = try parseTemplate("{{ count }}")
        #expect(template.singleExpression?.expression == .variable(VariablePath(name: "count")))
    }

    @Test func builtinsParse() throws {
        #expect(try parseTemplate("{{ $uuid }}").singleExpression?.expression == .builtin(.uuid))
        #expect(try parseTemplate("{{$timestamp}}").singleExpression?.expression == .builtin(.timestamp))
        #expect(try parseTemplate("{{ $isoDate }}").singleExpression?.expression == .builtin(.isoDate))
        #expect(try parseTemplate("{{ $randomInt }}").singleExpression?.expression == .builtin(.randomInt))
        #expect(try parseTemplate("{{ $env.HOME_DIR }}").singleExpression?.expression == .builtin(.env("HOME_DIR")))
        #expect(try parseTemplate("{{ a[\"odd key\"] }}").singleExpression?.expression
                == .variable(VariablePath(name: "a", components: [.key("odd key")])))
    }

    @Test(arguments: [
        ("id: {{ userId", "unterminated '{{' (missing '}}')", 5),
        ("x {{ }}", "empty expression '{{ }}'", 3),
        ("{{ a..b }}", "invalid expression 'a..b': expected a key after '.'", 1),
        ("ab{{ a[x] }}", "invalid expression 'a[x]': expected a non-negative integer index or a quoted key in '[...]'", 3),
        ("{{ 1abc }}", "invalid expression '1abc': '1abc' is not a valid variable name", 1),
        ("{{ a b }}", "invalid expression 'a b': unexpected ' '", 1),
        ("{{ $uid }}", "unknown built-in '$uid'", 1),
        ("{{ $env }}", "'$env' needs a variable name", 1),
    ])
    func syntaxErrorsPointAtTheBraces(text: String, message: String, column: Int) {
        #expect(throws: TemplateError.self) { try parseTemplate(text) }
        do {
            _ = try parseTemplate(text)
        } catch {
            #expect(error.message == message)
            #expect(error.mark == Mark(line: 1, column: column))
        }
    }

    @Test func unknownBuiltinSuggestsTheClosest() {
        do {
            _ = try parseTemplate("{{ $uid }}")
            Issue.record("expected an error")
        } catch {
            #expect(error.suggestion == "did you mean '$uuid'?")
        }
    }
}

@Suite struct TemplateResolutionTests {
    let fixedBuiltins = BuiltinValues(now: { Date(timeIntervalSince1970: 1_700_000_000.7) },
                                      uuid: { "00000000-0000-0000-0000-000000000001" }, randomInt: { 42 })

    func scope() -> VariableScope {
        var scope = VariableScope(processEnvironment: ["HOME_DIR": "/home/u"], builtins: fixedBuiltins)
        scope.define("userName", .string("qa-bot"), in: .environment)
        scope.define("count", .int(3), in: .environment)
        scope.define("password", .string("s3cret"), in: .environment, secret: true)
        scope.define("limits", .object(JSONObject([("max", .int(10))])), in: .environment)
        scope.define("user", .object(JSONObject([("emails", .array([.string("a@x"), .string("b@x")]))])), in: .capture)
        return scope
    }

    @Test func singleTemplateKeepsTheType() throws {
        #expect(try scope().resolve(parseTemplate("{{ count }}")) == .int(3))
        #expect(try scope().resolve(parseTemplate("{{ limits }}")) == .object(JSONObject([("max", .int(10))])))
        #expect(try scope().resolve(parseTemplate("n={{ count }}")) == .string("n=3"))
    }

    @Test func dottedAndIndexedPaths() throws {
        #expect(try scope().resolve(parseTemplate("{{ limits.max }}")) == .int(10))
        #expect(try scope().resolveString(parseTemplate("to {{ user.emails[1] }}")) == "to b@x")
        #expect(try scope().resolveString(parseTemplate("{{ limits }}")) == "{\"max\":10}")
    }

    @Test func builtinsUseTheInjectedSources() throws {
        let scope = scope()
        #expect(try scope.resolve(parseTemplate("{{ $timestamp }}")) == .int(1_700_000_000))
        #expect(try scope.resolve(parseTemplate("{{ $uuid }}")) == .string("00000000-0000-0000-0000-000000000001"))
        #expect(try scope.resolve(parseTemplate("{{ $randomInt }}")) == .int(42))
        #expect(try scope.resolve(parseTemplate("{{ $isoDate }}")) == .string("2023-11-14T22:13:20Z"))
        #expect(try scope.resolve(parseTemplate("{{ $env.HOME_DIR }}")) == .string("/home/u"))
        #expect(BuiltinValues.live.uuid() != BuiltinValues.live.uuid())
    }

    @Test func laterLayersWin() throws {
        var scope = scope()
        scope.define("userName", .string("captured"), in: .capture)
        #expect(try scope.resolve(parseTemplate("{{ userName }}")) == .string("captured"))
        scope.define("userName", .string("cli"), in: .commandLine)
        scope.define("userName", .string("captured again"), in: .capture)
        #expect(try scope.resolve(parseTemplate("{{ userName }}")) == .string("cli"))
    }

    @Test func secretsAreTracked() {
        #expect(scope().secretNames == ["password"])
        #expect(scope().secretValues == ["s3cret"])
    }

    @Test func undefinedVariableSuggestsADefinedName() throws {
        let template = try parseTemplate("x {{ usrName }}")
        #expect(throws: TemplateError("undefined variable 'usrName'", at: Mark(line: 1, column: 3),
                                      suggestion: "did you mean 'userName'?")) {
            try scope().resolve(template)
        }
    }

    @Test func badPathsAreExplained() throws {
        #expect(throws: TemplateError("'limits' has no key 'maxx' (in 'limits.maxx')", at: Mark(line: 1, column: 1),
                                      suggestion: "did you mean 'max'?")) {
            try scope().resolve(parseTemplate("{{ limits.maxx }}"))
        }
        #expect(throws: TemplateError("index 5 is out of range: 'user.emails' has 2 elements (in 'user.emails[5]')",
                                      at: Mark(line: 1, column: 1))) {
            try scope().resolve(parseTemplate("{{ user.emails[5] }}"))
        }
        #expect(throws: TemplateError("'count' is a number, not an object (in 'count.x')", at: Mark(line: 1, column: 1))) {
            try scope().resolve(parseTemplate("{{ count.x }}"))
        }
        #expect(throws: TemplateError("environment variable 'NOPE' is not set (used as '$env.NOPE')", at: Mark(line: 1, column: 1))) {
            try scope().resolve(parseTemplate("{{ $env.NOPE }}"))
        }
    }
}
