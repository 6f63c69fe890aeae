import Foundation
import Testing

/// `runner import openapi` as a command: a document that cannot be used writes nothing, and files are replaced one by
/// one, only with `--force`.
@Suite struct OpenAPIImportCommandTests {
    /// A new empty folder in the temporary directory, removed by the caller.
    private static func scratch() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runner-openapi-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    /// Documents that cannot be used, each with the start of the located error `import` prints.
    static let badDocuments: [(name: String, text: String, error: String)] = [
        ("syntax.yaml", "openapi: 3.0.3\ninfo: { title: t, version: \"1\"\npaths: {}\n", "syntax.yaml:3:1: error: the OpenAPI document is not valid YAML"),
        ("type.yaml", """
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /a: { get: { responses: { "200": { description: ok, content: { application/json: { schema: { type: strin } } } } } } }
            """, "type.yaml:4:94: error: the OpenAPI document breaks the OpenAPI rules: Found neither a $ref nor a JSONSchema in "
               + ".content['application/json'].schema for the status code '200' response of the GET endpoint under `/a`. JSONSchema "
               + "could not be decoded because: Problem encountered when parsing `type`: Cannot initialize JSONType from invalid String "
               + "value strin.\n 4 |"),
        ("dangling.json", """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/Gone"}}}}}}
            """, "dangling.json:2:57: error: $ref '#/components/responses/Gone' does not resolve"),
        ("swagger.json", #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#,
         "swagger.json:1:1: error: the OpenAPI document is a Swagger 2.0 document, not OpenAPI 3"),
    ]

    @Test(arguments: badDocuments.indices)
    func aDocumentThatCannotBeUsedIsLocatedAndNothingIsWritten(_ index: Int) async throws {
        let bad = Self.badDocuments[index]
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(bad.text.utf8).write(to: root.appendingPathComponent(bad.name))
        let result = try await RunnerProcess.run(["import", "openapi", bad.name, "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains(bad.error), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [bad.name], "nothing else, no staging folder")
    }

    /// A document without operations (webhooks only) writes its environment and says it has no request.
    @Test func aDocumentWithoutOperationsSaysSo() async throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("openapi: 3.1.0\ninfo: { title: t, version: \"1\" }\nwebhooks: {}\n".utf8).write(to: root.appendingPathComponent("hooks.yaml"))
        let result = try await RunnerProcess.run(["import", "openapi", "hooks.yaml", "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote out/environments/hooks.yaml\n", "\(result.stdout)")
        #expect(result.stderr.contains("note: hooks.yaml has no operation"), "\(result.stderr)")
    }

    /// The environment is named after the document's file, as a name `--env` can take: `.hidden.yaml` gives `hidden`,
    /// `my.api-v1.yaml` gives `my-api-v1`.
    @Test(arguments: [(".hidden.yaml", "hidden"), ("my.api-v1.yaml", "my-api-v1")])
    func theEnvironmentIsNamedAfterTheDocument(file: String, name: String) async throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("openapi: 3.1.0\ninfo: { title: t, version: \"1\" }\nwebhooks: {}\n".utf8).write(to: root.appendingPathComponent(file))
        let result = try await RunnerProcess.run(["import", "openapi", file, "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(result.stdout == "wrote out/environments/\(name).yaml\n", "\(result.stdout)\(result.stderr)")
    }

    @Test func filesAreReplacedOneByOneOnlyWithForce() async throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = """
            openapi: 3.1.0
            info: { title: t, version: "1" }
            servers: [{ url: "http://127.0.0.1:8080" }]
            paths:
              /ping: { get: { operationId: ping, responses: { "204": { description: Pong. } } } }
            """
        try Data(spec.utf8).write(to: root.appendingPathComponent("api.yaml"))
        let mine = root.appendingPathComponent("out/requests/ping/02-mine.yaml")
        try FileManager.default.createDirectory(at: mine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("name: mine\nrequest: { url: /mine }\n".utf8).write(to: mine)
        let first = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout == "wrote out/requests/ping/01-ping.yaml\nwrote out/environments/api.yaml\n", "\(first.stdout)")
        let again = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(again.exitCode == 1, "\(again.stderr)")
        #expect(again.stderr.contains("overwrites nothing without --force, and these files exist:\n  out/requests/ping/01-ping.yaml\n"),
                "\(again.stderr)")
        let request = root.appendingPathComponent("out/requests/ping/01-ping.yaml")
        try Data("edited\n".utf8).write(to: request)
        let forced = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out", "--force"], in: root,
                                                 environment: ["NO_COLOR": "1"])
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: request, encoding: .utf8).hasPrefix("name: ping\n"))
        #expect(FileManager.default.fileExists(atPath: mine.path), "a file the import does not write stays")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["api.yaml", "out"], "no staging folder left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: request.deletingLastPathComponent().path).sorted()
                == ["01-ping.yaml", "02-mine.yaml"], "no staged or replaced file left beside them")
        // A link to nothing where a file goes counts as a file there (trial helper-201 L3: replaced without --force).
        let environment = root.appendingPathComponent("out/environments/api.yaml")
        try FileManager.default.removeItem(at: environment)
        try FileManager.default.createSymbolicLink(atPath: environment.path, withDestinationPath: "nowhere.yaml")
        let linked = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(linked.exitCode == 1 && linked.stderr.contains("  out/environments/api.yaml\n"), "\(linked.stderr)")
        #expect(StagedFolderLink.isLink(environment.path))
        try FileManager.default.removeItem(at: environment)
        _ = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out", "--force"], in: root, environment: ["NO_COLOR": "1"])
        // A folder where a file goes: named, with why (trial helper-182: a Swift error's name).
        try FileManager.default.removeItem(at: request)
        try FileManager.default.createDirectory(at: request, withIntermediateDirectories: false)
        let folder = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out", "--force"], in: root,
                                                 environment: ["NO_COLOR": "1"])
        #expect(folder.exitCode == 1 && folder.stderr.contains("01-ping.yaml' is a folder, and runner import replaces files only\nnothing was written"),
                "\(folder.stderr)")
        // A file where a folder goes: named, with why (trial helper-193 F8: NSCocoaErrorDomain error 512).
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/requests"))
        try Data("x\n".utf8).write(to: root.appendingPathComponent("out/requests"))
        let file = try await RunnerProcess.run(["import", "openapi", "api.yaml", "--out", "out", "--force"], in: root,
                                               environment: ["NO_COLOR": "1"])
        #expect(file.exitCode == 1 && file.stderr.contains("'out/requests' is a file, where runner import writes a folder of files: "
                                                          + "move it away, or give another --out\nnothing was written"), "\(file.stderr)")
        #expect(try String(contentsOf: root.appendingPathComponent("out/requests"), encoding: .utf8) == "x\n")
        // The document itself where the environment goes: never replaced, even with --force (trial helper-182: it was).
        try FileManager.default.createDirectory(at: root.appendingPathComponent("p/environments"), withIntermediateDirectories: true)
        try Data(spec.utf8).write(to: root.appendingPathComponent("p/environments/api.yaml"))
        let itself = try await RunnerProcess.run(["import", "openapi", "p/environments/api.yaml", "--out", "p", "--force"], in: root,
                                                 environment: ["NO_COLOR": "1"])
        #expect(itself.exitCode == 1 && itself.stderr.contains("'p/environments/api.yaml' is 'p/environments/api.yaml', which this import reads"),
                "\(itself.stderr)")
        #expect(try String(contentsOf: root.appendingPathComponent("p/environments/api.yaml"), encoding: .utf8) == spec)
    }
}

/// Whether a path is a symbolic link (to anything or nothing).
enum StagedFolderLink {
    static func isLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }
}
