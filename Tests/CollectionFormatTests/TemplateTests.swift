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
        #expect(try parseTemplate("{{ $randomInt( -5 , 10 ) }}").singleExpression?.expression == .builtin(.randomIntIn(-5...10)))
        #expect(try parseTemplate("{{ $randomString(16) }}").singleExpression?.expression == .builtin(.randomString(16)))
        #expect(try parseTemplate("{{ $isoTimestamp }}").singleExpression?.expression == .builtin(.isoTimestamp))
        #expect(try parseTemplate("{{ $randomEmail }}").singleExpression?.expression == .builtin(.randomEmail))
        #expect(try parseTemplate("{{ $randomName }}").singleExpression?.expression == .builtin(.randomName))
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
        ("{{ $randomInt(5, 1) }}", "'$randomInt(5, 1)': MIN (5) is greater than MAX (1)", 1),
        ("{{ $randomInt(5) }}", "'$randomInt(5)' needs two integers: write $randomInt(MIN, MAX)", 1),
        ("{{ $randomString(x) }}", "'$randomString(x)' needs one integer: write $randomString(N)", 1),
        ("{{ $randomString(0) }}", "'$randomString(0)': the length must be from 1 to 10000", 1),
        ("{{ $randomFoo(1) }}", "unknown built-in '$randomFoo' in '$randomFoo(1)'", 1),
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
    let fixedBuiltins = BuiltinValues(now: { Date(timeIntervalSince1970: 1_700_000_000.7) }, random: RandomValues(seed: 7))

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
        #expect(try scope.resolve(parseTemplate("{{ $isoDate }}")) == .string("2023-11-14T22:13:20Z"))
        #expect(try scope.resolve(parseTemplate("{{ $isoTimestamp }}")) == .string("2023-11-14T22:13:20.700Z"))
        #expect(try scope.resolve(parseTemplate("{{ $env.HOME_DIR }}")) == .string("/home/u"))
    }

    @Test func randomBuiltinsHaveTheirShapes() throws {
        let scope = scope()
        let uuid = try scope.resolveString(parseTemplate("{{ $uuid }}"))
        #expect(uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        for _ in 0..<200 {
            guard case .int(let value) = try scope.resolve(parseTemplate("{{ $randomInt(-3, 3) }}")) else { Issue.record("not an int"); return }
            #expect((-3...3).contains(value))
        }
        guard case .int(let any) = try scope.resolve(parseTemplate("{{ $randomInt }}")) else { Issue.record("not an int"); return }
        #expect((0...Int(Int32.max)).contains(any))
        #expect(try scope.resolveString(parseTemplate("{{ $randomString(12) }}")).wholeMatch(of: /[A-Za-z0-9]{12}/) != nil)
        #expect(try scope.resolveString(parseTemplate("{{ $randomEmail }}")).wholeMatch(of: /[a-z]+\.[a-z]+\.[a-z0-9]{6}@example\.com/) != nil)
        #expect(try scope.resolveString(parseTemplate("{{ $randomName }}")).wholeMatch(of: /[A-Z][a-z]+ [A-Z][a-z]+/) != nil)
        // Each use is a new value.
        #expect(try scope.resolveString(parseTemplate("{{ $uuid }} {{ $uuid }}")).split(separator: " ").count == 2)
        #expect(try scope.resolveString(parseTemplate("{{ $uuid }}")) != scope.resolveString(parseTemplate("{{ $uuid }}")))
    }

    @Test func aSeedReplaysTheSameValuesPerStream() throws {
        func values(seed: UInt64, stream: String) throws -> String {
            var scope = VariableScope(builtins: BuiltinValues(now: { Date() }, random: RandomValues(seed: seed).stream(stream)))
            scope.define("x", .int(1), in: .environment)
            return try scope.resolveString(parseTemplate("{{ $uuid }} {{ $randomInt(1, 1000000) }} {{ $randomString(8) }} {{ $randomEmail }}"))
        }
        #expect(try values(seed: 42, stream: "a.yaml") == values(seed: 42, stream: "a.yaml"))
        #expect(try values(seed: 42, stream: "a.yaml") != values(seed: 43, stream: "a.yaml"))
        #expect(try values(seed: 42, stream: "a.yaml") != values(seed: 42, stream: "b.yaml"))
        let random = RandomValues(seed: 5)
        #expect(!random.wereUsed)
        _ = random.stream("f").uuid()
        #expect(random.wereUsed)
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

    /// A built-in without arguments written as a call says so (trial helper-167: "unknown built-in '$uuid'").
    @Test func aBuiltinWithoutArgumentsWrittenAsACallSaysSo() {
        #expect(throws: TemplateError("'$uuid' takes no arguments, found '$uuid()'", at: Mark(line: 1, column: 1),
                                      suggestion: "write $uuid, without parentheses")) {
            try parseTemplate("{{ $uuid() }}")
        }
        // With a space before the parentheses too (trial helper-168).
        #expect(throws: TemplateError("'$timestamp' takes no arguments, found '$timestamp ()'", at: Mark(line: 1, column: 1),
                                      suggestion: "write $timestamp, without parentheses")) {
            try parseTemplate("{{ $timestamp () }}")
        }
    }

    @Test func undefinedVariableSuggestsADefinedName() throws {
        let template = try parseTemplate("x {{ usrName }}")
        var expected = TemplateError("undefined variable 'usrName'", at: Mark(line: 1, column: 3), suggestion: "did you mean 'userName'?")
        (expected.undefinedName, expected.closeName) = ("usrName", "userName")
        #expect(throws: expected) {
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
        // An index written after a dot says how to write it (trial helper-181).
        #expect(throws: TemplateError("'user.emails' is a list, not an object (in 'user.emails.0')", at: Mark(line: 1, column: 1),
                                      suggestion: "write an element's index in brackets: user.emails[0]")) {
            try scope().resolve(parseTemplate("{{ user.emails.0 }}"))
        }
        #expect(throws: TemplateError("environment variable 'NOPE' is not set (used as '$env.NOPE')", at: Mark(line: 1, column: 1))) {
            try scope().resolve(parseTemplate("{{ $env.NOPE }}"))
        }
    }
}
