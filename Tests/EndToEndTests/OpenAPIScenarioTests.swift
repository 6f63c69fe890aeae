import DemoAPICore
import Foundation
import Testing
import TestSupport

/// `expect.openapi` against loopback servers, and `runner import openapi` end to end.
@Suite struct OpenAPIScenarioTests {
    /// A folder of files (path to text) in the temporary directory, removed by the caller.
    private static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runner-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// An OpenAPI 3.0 document of two test server routes: `/json/user` as it is, `/json/users` with `count` wrongly a string.
    private static let testServerSpec = """
        openapi: 3.0.3
        info: { title: test server, version: "1" }
        paths:
          /json/user:
            get:
              operationId: getUser
              responses:
                "200":
                  description: A user.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, name, manager]
                        properties:
                          id: { type: integer }
                          name: { type: string }
                          manager: { type: string, nullable: true }
          /json/users:
            get:
              operationId: listUsers
              responses:
                "200":
                  description: The users.
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          count: { type: string }
          /echo/{id}:
            get:
              operationId: echoOne
              parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
              responses:
                "200": { description: The request. }
        """

    @Test(arguments: TestServerScheme.allCases)
    func aConformingResponsePassesAndOthersFailAtTheOpenAPIKey(scheme: TestServerScheme) async throws {
        let root = try Self.folder([
            "openapi.yaml": Self.testServerSpec,
            "environments/test.yaml": """
                baseURL: "\(scheme.rawValue)://127.0.0.1:{{ $env.TEST_SERVER_PORT }}"
                options: { insecure: true }
                expect:
                  openapi: ../openapi.yaml
                """,
            "requests/01-user.yaml": "request: { url: /json/user }\n",
            "requests/02-users.yaml": "request: { url: /json/users }\n",
            "requests/03-unknown.yaml": "request: { url: /status/201 }\n",
            // An encoded slash is part of its segment: one id, not two segments.
            "requests/04-encoded-slash.yaml": "request: { url: /echo/a%2Fb }\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await TestServer.start(scheme)
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(["run", "requests", "--env", "test"], in: root,
                                                 environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)])
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        let output = result.stdout + result.stderr
        #expect(result.exitCode == 4, "\(output)")
        #expect(output.contains("PASS   01-user"), "\(output)")
        #expect(output.contains("environments/test.yaml:4:12: error: GET /json/users (listUsers): body does not match the response schema for 200: $.count"),
                "\(output)")
        #expect(output.contains("GET /status/201 matches no operation"), "\(output)")
        #expect(output.contains("PASS   04-encoded-slash"), "\(output)")
        #expect(output.contains("4 requests: 2 passed, 2 failed"), "\(output)")
    }

    @Test func validateLocatesADocumentThatIsNotOpenAPIAtTheOpenAPIKey() async throws {
        let root = try Self.folder([
            "bad.yaml": "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200': { $ref: '#/components/responses/Missing' }\n",
            "broken.yaml": "openapi: 3.1.0\ninfo: [unclosed\n",
            "requests/a.yaml": "request: { url: http://127.0.0.1:9/a }\nexpect: { openapi: ../bad.yaml }\n",
            "requests/b.yaml": "request: { url: http://127.0.0.1:9/a }\nexpect: { openapi: ../broken.yaml }\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await RunnerProcess.run(["validate", "requests"], in: root, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("requests/a.yaml:2:20: error: openapi '../bad.yaml' breaks the OpenAPI rules")
                || output.contains("requests/a.yaml:2:20: error: openapi '../bad.yaml' $ref '#/components/responses/Missing' does not resolve"), "\(output)")
        #expect(output.contains("at requests/../bad.yaml:7:") || output.contains("at bad.yaml:7:"), "\(output)")
        #expect(output.contains("requests/b.yaml:2:20: error: openapi '../broken.yaml' is not valid YAML"), "\(output)")
    }

    @Test func theExampleCollectionMatchesTheDemoDocumentAndAWrongRouteFails() async throws {
        let api = try await DemoServer.start()
        defer { Task { try? await api.stop() } }
        let passing = try await RunnerProcess.run(["run", "requests/", "--env", "local", "--var", "port=\(api.port)", "--exclude-tag", "slow"],
                                                  in: Repository.root, environment: ["NO_COLOR": "1"])
        #expect(passing.exitCode == 0, "\(passing.stdout)\(passing.stderr)")
        // The same document with the health route's body changed and the flaky route left out.
        let spec = try String(contentsOf: Repository.root.appendingPathComponent("docs/demo-api.openapi.yaml"), encoding: .utf8)
        let variant = spec.replacingOccurrences(of: "status: { const: ok }\ncomponents:", with: "status: { const: up }\ncomponents:")
            .replacingOccurrences(of: "  /flaky:\n", with: "  /flaky-gone:\n")
        #expect(variant != spec)
        let root = try Self.folder([
            "demo.yaml": variant,
            "environments/demo.yaml": "baseURL: http://127.0.0.1:\(api.port)/api\nexpect: { openapi: ../demo.yaml }\n",
            "requests/health.yaml": "request: { url: /health }\n",
            "requests/flaky.yaml": "request: { url: /flaky }\noptions: { retry: { attempts: 3, delay: 10ms, on: [503] } }\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let failing = try await RunnerProcess.run(["run", "requests", "--env", "demo"], in: root, environment: ["NO_COLOR": "1"])
        let output = failing.stdout + failing.stderr
        #expect(failing.exitCode == 4, "\(output)")
        #expect(output.contains("GET /health (health): body does not match the response schema for 200: $.status"), "\(output)")
        #expect(output.contains("GET /api/flaky matches no operation"), "\(output)")
    }

    @Test func theImportOfThePetstoreIsACollectionThatValidates() async throws {
        let petstore = "/work/shared/interop/petstore.yaml"
        guard FileManager.default.fileExists(atPath: petstore) else {
            print("skipped: \(petstore) is absent")
            return
        }
        let root = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let imported = try await RunnerProcess.run(["import", "openapi", petstore, "--out", "pet"], in: root, environment: ["NO_COLOR": "1"])
        #expect(imported.exitCode == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stdout.contains("wrote pet/requests/pets/01-list-pets.yaml"), "\(imported.stdout)")
        let validated = try await RunnerProcess.run(["validate", "pet/requests", "--env", "petstore"], in: root,
                                                    environment: ["NO_COLOR": "1", "API_TOKEN": "t", "API_KEY": "k"])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
        let again = try await RunnerProcess.run(["import", "openapi", petstore, "--out", "pet"], in: root, environment: ["NO_COLOR": "1"])
        #expect(again.exitCode == 1 && again.stderr.contains("overwrites nothing without --force"), "\(again.stderr)")
        let forced = try await RunnerProcess.run(["import", "openapi", petstore, "--out", "pet", "--force"], in: root, environment: ["NO_COLOR": "1"])
        #expect(forced.exitCode == 0, "\(forced.stderr)")
    }

    @Test func theDemoDocumentImportsIntoFilesThatValidate() async throws {
        let root = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = Repository.root.appendingPathComponent("docs/demo-api.openapi.yaml").path
        let imported = try await RunnerProcess.run(["import", "openapi", spec, "--out", "demo"], in: root, environment: ["NO_COLOR": "1"])
        #expect(imported.exitCode == 0, "\(imported.stdout)\(imported.stderr)")
        // The oauth2 scheme and the multipart upload are listed, at their place in the document.
        #expect(imported.stderr.contains("the security scheme 'clientCredentials' (oauth2) is not translated"), "\(imported.stderr)")
        let create = try String(contentsOf: root.appendingPathComponent("demo/requests/users/02-create-user.yaml"), encoding: .utf8)
        #expect(create.contains("json:\n    name: arthur\n    age: 42"), "\(create)")
        #expect(create.contains("bearer: \"{{ token }}\""), "\(create)")
        #expect(create.contains("status: 201"), "\(create)")
        let validated = try await RunnerProcess.run(["validate", "demo/requests", "--env", "demo-api-openapi"], in: root,
                                                    environment: ["NO_COLOR": "1", "API_TOKEN": "t", "API_USERNAME": "u", "API_PASSWORD": "p"])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
    }

    @Test func aDocumentThatBreaksTheRulesIsLocatedAndNothingIsWritten() async throws {
        let root = try Self.folder([
            "dup.json": """
                {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                 "paths": {"/a": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}}}},
                           "/b": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}}}}}}
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await RunnerProcess.run(["import", "openapi", "dup.json", "--out", "out"], in: root, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("dup.json:3:42: error: operationId 'same' is used twice"), "\(result.stderr)")
        #expect(result.stderr.contains("at #/paths/~1b/get/operationId"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out").path))
    }
}
