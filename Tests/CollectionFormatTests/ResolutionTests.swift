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
