import CollectionFormat
import Foundation
import HTTPCore
import YAML

/// What the `collection` and `template` fuzz targets promise about any input, shared by the targets
/// (`scripts/fuzz` compiles this file into them) and by `FuzzRegressionTests`, which replays their findings.
/// Each function returns the first broken promise, or nil.
enum FuzzContracts {
    /// Decoded as a request file and as an environment (the collection reader's per-file path, in memory), the bytes
    /// give definitions or diagnostics located inside them, which render; a request file without errors has
    /// requests (or uses other files' steps), and an environment is returned exactly when it has no errors.
    static func collectionProblem(_ bytes: [UInt8]) -> String? {
        let request = FileDecoding.requestFile(bytes, path: "requests/fuzz.yaml", absolutePath: "/fuzz/requests/fuzz.yaml",
                                               defaultName: "fuzz")
        if let problem = diagnosticProblem(request, path: "requests/fuzz.yaml", size: bytes.count) { return problem }
        if !request.diagnostics.contains(where: { $0.severity == .error }),
           request.value.map({ $0.steps.isEmpty && !$0.usesOtherFiles }) != false {
            return "a request file without errors and without requests"
        }
        let environment = FileDecoding.environment(bytes, path: "environments/fuzz.yaml", name: "fuzz")
        if let problem = diagnosticProblem(environment, path: "environments/fuzz.yaml", size: bytes.count) { return problem }
        if (environment.value == nil) != environment.diagnostics.contains(where: { $0.severity == .error }) {
            return "an environment returned with errors, or missing without one"
        }
        return nil
    }

    /// The text, parsed as a template and wrapped in `{{ }}` as one expression, gives a template or an error at
    /// one of its `{{`; resolved against `scope`, a value (the resolved text when there is text around the
    /// expressions) or an error at the `{{` of one of its expressions.
    static func templateProblem(_ text: String) -> String? {
        templateProblem(parsing: text) ?? templateProblem(parsing: "{{" + text + "}}")
    }

    /// The promise of `templateProblem` for one text; marks are on line 1 with column = offset + 1.
    private static func templateProblem(parsing text: String) -> String? {
        let template: Template
        do {
            template = try Template.parse(text, at: Mark(line: 1, column: 1)) { Mark(line: 1, column: $0 + 1) }
        } catch {
            let scalars = Array(text.unicodeScalars), offset = error.mark.column - 1
            let atBraces = error.mark.line == 1 && offset >= 0 && offset + 1 < scalars.count
                && scalars[offset] == "{" && scalars[offset + 1] == "{"
            return atBraces && !error.message.isEmpty ? nil : "a syntax error not at a '{{': \(error)"
        }
        do {
            // Each resolution draws random built-ins from a stream of the same seed, so both see the same values.
            let value = try scope.withRandom(RandomValues(seed: 42)).resolve(template)
            let resolved = try scope.withRandom(RandomValues(seed: 42)).resolveString(template)
            if template.singleExpression == nil && value != .string(resolved) {
                return "a template with text around its expressions resolved to \(value), not to '\(resolved)'"
            }
        } catch {
            if !template.expressions.contains(where: { $0.mark == error.mark }) {
                return "a resolution error not at an expression: \(error)"
            }
        }
        return nil
    }

    /// Every diagnostic is in `path`, has a message, is located inside the input, and renders.
    private static func diagnosticProblem<Value>(_ decoded: DecodedFile<Value>, path: String, size: Int) -> String? {
        let bound = 1...(size + 1)
        for diagnostic in decoded.diagnostics {
            if diagnostic.path != path || diagnostic.message.isEmpty { return "a diagnostic without a message or in another file: \(diagnostic)" }
            if let mark = diagnostic.mark, !bound.contains(mark.line) || !bound.contains(mark.column) {
                return "a diagnostic outside the input: \(diagnostic)"
            }
        }
        let sources = SourceCache()
        sources.store(decoded.text, for: path)
        _ = DiagnosticRenderer.render(decoded.diagnostics, sources: sources, color: false)
        return nil
    }

    /// The scope templates resolve against: structured variables, a secret, captures (one shadowing an
    /// environment variable), a `--var`, a process environment and fixed built-ins.
    static let scope: VariableScope = {
        var scope = VariableScope(processEnvironment: ["HOME": "/home/fuzz", "EMPTY": ""],
                                  builtins: BuiltinValues(now: { Date(timeIntervalSince1970: 1_700_000_000) },
                                                          random: RandomValues(seed: 42)))
        let meta: JSONValue = .object(JSONObject([("key with space", .bool(true)), ("n", .null)]))
        let user: JSONValue = .object(JSONObject([
            ("id", .int(7)), ("name", .string("Ada")), ("emails", .array([.string("a@x"), .string("b@x")])),
            ("tags", .array([])), ("meta", meta), ("ratio", .double(0.25)),
        ]))
        scope.define("user", user, in: .environment)
        scope.define("base-url", .string("http://127.0.0.1:8080"), in: .environment)
        scope.define("token", .string("s3cr3t-t0ken"), in: .environment, secret: true)
        scope.define("items", .array([.int(1), .array([.object(JSONObject([("x", .string("y"))]))]), .null]), in: .capture)
        scope.define("account", .object(JSONObject([("id", .int(8)), ("owner", user)])), in: .capture)
        scope.define("page", .string("2"), in: .commandLine)
        return scope
    }()
}

extension VariableScope {
    /// The scope with its random built-ins drawn from `random`.
    func withRandom(_ random: RandomValues) -> VariableScope {
        var scope = self
        scope.builtins.random = random
        return scope
    }
}
