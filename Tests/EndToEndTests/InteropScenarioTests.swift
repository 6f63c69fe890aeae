import Foundation
import TestSupport
import Testing

/// `runner import curl` and `runner export curl` as a user runs them: files that `validate` accepts and `run` sends, and
/// exported commands that the real curl sends as runner does, with no secret in them.
@Suite struct InteropScenarioTests {
    /// A new empty folder, removed by `body`'s end.
    private static func inFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    private static func write(_ text: String, to path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private static let environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]

    private static var curl: String? {
        ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the collection with `arguments`, exports it as curl commands and runs those with `/bin/sh`, checking each
    /// exits 0; the export's output.
    private static func runThenRunTheExport(_ arguments: [String], in folder: URL,
                                            environment: [String: String]) async throws -> RunnerProcess.Result {
        let run = try await RunnerProcess.run(["run"] + arguments, in: folder, environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        let export = try await RunnerProcess.run(["export", "curl"] + arguments, in: folder, environment: environment)
        #expect(export.exitCode == 0, "\(export.stderr)")
        let shell = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", "set -e\n" + export.stdout],
                                                in: folder, environment: environment)
        #expect(shell.exitCode == 0, "\(export.stdout)\n\(shell.stderr)")
        return export
    }

    @Test func everyCopyAsCurlFixtureImportsIntoFilesThatValidateAccepts() async throws {
        try await Self.inFolder { folder in
            try Self.write("not really a png", to: "photo.png", in: folder)
            let fixture = Repository.url("Tests/InteropTests/Fixtures/copy-as-curl.sh").path
            let imported = try await RunnerProcess.run(["import", "curl", fixture, "--out", "requests/imported"], in: folder,
                                                       environment: Self.environment)
            #expect(imported.exitCode == 0, "\(imported.stderr)")
            #expect(imported.stdout.components(separatedBy: "wrote ").count - 1 == 14)
            #expect(imported.stderr.contains("copy-as-curl.sh:64:65: warning: command 13: '-o out.json' has no equivalent"))
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("requests/imported").path)
            #expect(files.count == 14 && !files.contains { $0.hasPrefix(".") })
            let validated = try await RunnerProcess.run(["validate", "requests"], in: folder, environment: Self.environment)
            #expect(validated.exitCode == 0, "\(validated.stdout)\n\(validated.stderr)")
            #expect(validated.stdout.contains("14 requests in 14 files valid"))
        }
    }

    @Test func importedCommandsRunGreenAgainstALoopbackServer() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            let base = "http://127.0.0.1:\(server.port)"
            try Self.write("note text", to: "note.txt", in: folder)
            try Self.write("""
                curl '\(base)/echo/users?page=2&tag=a&tag=b' -H 'accept: application/json' -H 'content-type: application/json' \\
                  --data-raw '{"name":"Arthur","quota":10}' --compressed
                curl \(base)/echo/login -d 'user=arthur&password=p%40ss+word'
                curl -X PUT "\(base)/echo/items/1" -H "Content-Type: text/plain" --data-binary 'hello there'
                curl -u ci:pw \(base)/echo/upload -F note=hi -F 'doc=@note.txt;type=text/plain'
                """, to: "commands.txt", in: folder)
            let imported = try await RunnerProcess.run(["import", "curl", "commands.txt", "--out", "requests"], in: folder,
                                                       environment: Self.environment)
            #expect(imported.exitCode == 0, "\(imported.stderr)")
            let run = try await RunnerProcess.run(["run", "requests"], in: folder, environment: Self.environment)
            #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
            let received = server.receivedRequests().sorted { $0.path < $1.path }
            #expect(received.map { "\($0.method) \($0.path)" } == ["PUT /echo/items/1", "POST /echo/login", "POST /echo/upload", "POST /echo/users"])
            let users = try #require(received.last)
            #expect(users.queryItems.map { "\($0.name)=\($0.value)" } == ["page=2", "tag=a", "tag=b"])
            #expect(users.bodyText == #"{"name":"Arthur","quota":10}"#)
            #expect(received[1].formItems.map { "\($0.name)=\($0.value)" } == ["user=arthur", "password=p@ss word"])
            #expect(received[0].bodyText == "hello there" && received[0].header("Content-Type") == "text/plain")
            #expect(received[2].basicCredentials?.user == "ci" && received[2].bodyText?.contains("note text") == true)
        }
    }

    /// `import curl --secrets` writes every credential as a reference to a secret, lists the secrets the environment must
    /// give (one name per value, across commands), and the files, given those secrets, send what curl would have sent;
    /// no credential is in a file or a message.
    @Test func importedSecretsAreReferencesThatRunSends() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            let base = "http://127.0.0.1:\(server.port)"
            try Self.write("""
                curl '\(base)/echo/login?access_token=QtOkEn9911' -H 'X-Api-Key: kEy7788665' -u ci:pAsS4455 \\
                  -H 'Content-Type: application/json' --data-raw '{"user":"ci","password":"jPw66554433","deep":{"token":"tOk123456"}}'
                curl \(base)/echo/form -H 'Authorization: Bearer tOk123456' -d 'user=ci&password=fPw99887766'
                """, to: "commands.txt", in: folder)
            let imported = try await RunnerProcess.run(["import", "curl", "commands.txt", "--out", "requests", "--secrets"], in: folder,
                                                       environment: Self.environment)
            #expect(imported.exitCode == 0, "\(imported.stderr)")
            #expect(!imported.stderr.contains("written as it was"), "\(imported.stderr)")
            // In the order the file writes them: URL, headers, body, auth.
            let entries = ["access_token: { env: API_ACCESS_TOKEN }", "xApiKey: { env: X_API_KEY }", "password: { env: API_PASSWORD }",
                           "token: { env: API_TOKEN }", "password2: { env: API_PASSWORD_2 }", "password3: { env: API_PASSWORD_3 }"]
            let secrets = "secrets:\n" + entries.map { "    " + $0 + "\n" }.joined()
            #expect(imported.stderr.contains(secrets), "\(imported.stderr)")
            let credentials = ["QtOkEn9911", "kEy7788665", "pAsS4455", "jPw66554433", "tOk123456", "fPw99887766"]
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("requests").path).sorted()
            #expect(files == ["01-post-echo-login.yaml", "02-post-echo-form.yaml"])
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent("requests/" + file), encoding: .utf8)
                #expect(!credentials.contains { text.contains($0) }, "\(text)")
            }
            #expect(!credentials.contains { imported.stderr.contains($0) || imported.stdout.contains($0) })
            // The environment the note asks for, and the variables set: the requests send the credentials again.
            try Self.write("baseURL: \(base)\n" + secrets.replacingOccurrences(of: "    ", with: "  "), to: "environments/local.yaml", in: folder)
            let variables = ["API_ACCESS_TOKEN": "QtOkEn9911", "X_API_KEY": "kEy7788665", "API_PASSWORD": "jPw66554433",
                             "API_TOKEN": "tOk123456", "API_PASSWORD_2": "pAsS4455", "API_PASSWORD_3": "fPw99887766"]
            let run = try await RunnerProcess.run(["run", "requests", "--env", "local", "--verbose"], in: folder,
                                                  environment: Self.environment.merging(variables) { $1 })
            #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
            #expect(!credentials.contains { run.stdout.contains($0) || run.stderr.contains($0) }, "\(run.stdout)")
            let received = server.receivedRequests().sorted { $0.path < $1.path }
            #expect(received.map(\.path) == ["/echo/form", "/echo/login"])
            let login = received[1]
            #expect(login.queryItems.map { "\($0.name)=\($0.value)" } == ["access_token=QtOkEn9911"])
            #expect(login.header("X-Api-Key") == "kEy7788665" && login.basicCredentials?.password == "pAsS4455")
            #expect(login.bodyText == #"{"user":"ci","password":"jPw66554433","deep":{"token":"tOk123456"}}"#)
            #expect(received[0].header("Authorization") == "Bearer tOk123456")
            #expect(received[0].formItems.map { "\($0.name)=\($0.value)" } == ["user=ci", "password=fPw99887766"])
        }
    }

    /// Writes `files` in a new folder and runs them in the environment `test` against a new loopback server (its port as
    /// `--var port`), `variables` added to the process environment, then runs their export (`runThenRunTheExport`): the
    /// export, and what the server got.
    private static func exportScenario(_ files: KeyValuePairs<String, String>, variables: [String: String]) async throws
        -> (export: RunnerProcess.Result, received: [RecordedRequest]) {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        return try await inFolder { folder in
            for (path, text) in files { try write(text, to: path, in: folder) }
            let export = try await runThenRunTheExport(["requests", "--env", "test", "--var", "port=\(server.port)"], in: folder,
                                                       environment: environment.merging(variables) { $1 })
            return (export, server.receivedRequests())
        }
    }

    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func exportedCommandsSendWhatRunSendsWithoutTheSecret() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            try Self.write("""
                baseURL: http://127.0.0.1:{{ port }}
                headers: { X-Team: api }
                query: { lang: en }
                variables: { port: 1 }
                secrets:
                  token: { env: INTEROP_TOKEN }
                """, to: "environments/test.yaml", in: folder)
            try Self.write("""
                name: Create
                request:
                  method: POST
                  url: /echo/users
                  query: { page: 2, tag: [a, "b c"] }
                  headers: { X-Trace: "it's t-1", X-Empty: "" }
                  json: { name: Arthur, quota: 10, token: "{{ token }}" }
                auth: { bearer: "{{ token }}" }
                """, to: "requests/01-create.yaml", in: folder)
            try Self.write("""
                request:
                  method: POST
                  url: /echo/form
                  form: { user: arthur, password: "{{ token }}", note: "a&b=c" }
                auth: { basic: { username: ci, password: "{{ token }}" } }
                """, to: "requests/02-form.yaml", in: folder)
            let secret = "s3cret-token-value"
            var environment = Self.environment
            environment["INTEROP_TOKEN"] = secret
            let export = try await Self.runThenRunTheExport(["requests", "--env", "test", "--var", "port=\(server.port)"],
                                                            in: folder, environment: environment)
            #expect(!export.stdout.contains(secret) && !export.stderr.contains(secret))
            #expect(export.stdout.contains("# $INTEROP_TOKEN: the secret 'token'"))
            let received = server.receivedRequests()
            try #require(received.count == 4, "\(export.stdout)")
            for (byRunner, byCurl) in zip(received[0..<2], received[2..<4]) {
                #expect(byCurl.method == byRunner.method)
                // A variable holding the secret, in the query a url: writes, too: the secret one value (its `%`, `&`
                // and `+` encoded); the base URL's password as Basic auth.
                #expect(byCurl.uri == byRunner.uri)
                #expect(byRunner.path != "/echo/inline" || byRunner.uri.contains("%2541%26x=y%2B"), "\(byRunner.uri)")
                #expect(byCurl.header("Authorization") == byRunner.header("Authorization") && byRunner.header("Authorization") != nil)
                for name in ["Authorization", "Content-Type", "X-Trace", "X-Team", "X-Empty"] {
                    #expect(byCurl.header(name) == byRunner.header(name), "\(name)")
                }
                #expect(byCurl.formItems.map(\.value) == byRunner.formItems.map(\.value))
                let json = { (request: RecordedRequest) in try? JSONSerialization.jsonObject(with: Data(request.body)) as? NSDictionary }
                #expect(json(byCurl) == json(byRunner))
            }
            #expect(received[2].bearerToken == secret)
        }
    }

    /// A secret's default is used when its variable is unset, as `run` uses it (and given only for a secret some command
    /// reads); a path into a captured value (`{{ ids[1] }}`) is a reference of its own (`$ids_1`).
    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func exportedCommandsUseSecretDefaultsAndPathsIntoCaptures() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            try Self.write("""
                baseURL: http://127.0.0.1:{{ port }}
                variables: { port: 1 }
                secrets:
                  pw: { env: INTEROP_UNSET_PASSWORD, default: "def pass" }
                  pw2: { env: INTEROP_UNSET_PASSWORD, default: "it's other" }
                  unused: { env: INTEROP_UNUSED, default: "not read" }
                """, to: "environments/test.yaml", in: folder)
            try Self.write("request: { method: POST, url: /echo/json, json: { p: \"{{ pw }}\", q: \"{{ pw2 }}\" } }\ncapture: { ids: $.ids }\n",
                           to: "requests/01.yaml", in: folder)
            try Self.write("request: { url: \"/echo/items/{{ ids[1] }}\" }\n", to: "requests/02.yaml", in: folder)
            let export = try await RunnerProcess.run(["export", "curl", "requests", "--env", "test", "--var", "port=\(server.port)"],
                                                     in: folder, environment: Self.environment)
            #expect(export.exitCode == 0, "\(export.stderr)")
            // A second secret reading the variable with another default gets a variable of its own (trial helper-156), set
            // before the first's default is given.
            #expect(export.stdout.hasPrefix("INTEROP_UNSET_PASSWORD_2=${INTEROP_UNSET_PASSWORD:-'it'\\''s other'}\n"
                + "[ -n \"${INTEROP_UNSET_PASSWORD-}\" ] || INTEROP_UNSET_PASSWORD='def pass'\n"), "\(export.stdout)")
            #expect(export.stdout.contains("# $ids_1: 'ids[1]' of captured as 'ids'"), "\(export.stdout)")
            #expect(!export.stdout.contains("INTEROP_UNUSED"), "\(export.stdout)")
            // A `--var` that gives the secret another value is what `run` sends: no default line sends the other.
            let replaced = try await RunnerProcess.run(["export", "curl", "requests", "--env", "test", "--var", "port=\(server.port)",
                                                        "--var", "pw=given"], in: folder, environment: Self.environment)
            #expect(!replaced.stdout.contains("def pass") && replaced.stdout.contains("--var pw gave it another value"), "\(replaced.stdout)")
            // A secret of a variable of its own, replaced: the variable the comment says to set is kept (trial helper-166).
            let own = try await RunnerProcess.run(["export", "curl", "requests", "--env", "test", "--var", "port=\(server.port)",
                                                   "--var", "pw2=given"], in: folder, environment: Self.environment)
            #expect(own.stdout.hasPrefix("[ -n \"${INTEROP_UNSET_PASSWORD_2-}\" ] || INTEROP_UNSET_PASSWORD_2=${INTEROP_UNSET_PASSWORD-}\n")
                    && own.stdout.contains("set INTEROP_UNSET_PASSWORD_2 to it"), "\(own.stdout)")
            // The same with one default for both: the replaced one is not the other's reference (trial helper-168).
            try Self.write("""
                extends: test
                secrets:
                  pw2: { env: INTEROP_UNSET_PASSWORD, default: "def pass" }
                """, to: "environments/same.yaml", in: folder)
            let same = try await RunnerProcess.run(["export", "curl", "requests", "--env", "same", "--var", "port=\(server.port)",
                                                    "--var", "pw2=given"], in: folder, environment: Self.environment)
            #expect(same.stdout.contains("INTEROP_UNSET_PASSWORD_2=${INTEROP_UNSET_PASSWORD-}") && same.stdout.contains("$INTEROP_UNSET_PASSWORD_2"),
                    "\(same.stdout)\n\(same.stderr)")
            var environment = Self.environment
            environment["ids_1"] = "7"
            let shell = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", "set -e\n" + export.stdout],
                                                    in: folder, environment: environment)
            #expect(shell.exitCode == 0, "\(shell.stderr)")
            let received = server.receivedRequests()
            try #require(received.count == 2)
            #expect(received[0].bodyText == #"{"p":"def pass","q":"it's other"}"#)
            #expect(received[1].path == "/echo/items/7")
        }
    }

    /// An environment variable or base URL that reads `{{ $env.NAME }}` is written with the reference, as the request
    /// reads it directly; a step whose `when:` is known not to hold (a variable it requires is undefined, a fixed value
    /// differs) is a comment, as `run` skips it, and one comparing a captured value is written.
    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func exportedCommandsReferToEnvValuesAndLeaveOutStepsRunSkips() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            try Self.write("""
                baseURL: "http://127.0.0.1:{{ port }}/{{ $env.INTEROP_PREFIX }}"
                variables: { port: 1, region: eu, plain: "{{ $env.INTEROP_PLAIN }}", wrapped: "x-{{ plain }}-y", o: { k: "{{ $env.INTEROP_PLAIN }}" } }
                """, to: "environments/test.yaml", in: folder)
            try Self.write("""
                name: admin only
                when: { "{{ adminToken }}": { exists: true } }
                request: { url: "/items?t={{ adminToken }}" }
                """, to: "requests/01-admin.yaml", in: folder)
            try Self.write("""
                steps:
                  - name: login
                    request: { method: POST, url: /json, json: { t: abc, o: "x{{ o }}" } }
                    capture: { token: $.json.t }
                  - name: us only
                    when: { "{{ region }}": us }
                    request: { url: "/us?r={{ region }}" }
                  - name: plain
                    when: { "{{ token }}": { exists: true } }
                    request: { url: /items, query: { v: "{{ plain }}", w: "{{ wrapped }}", d: "{{ $env.INTEROP_PLAIN }}", o: "{{ o }}" } }
                  - name: url text
                    request: { url: "/text/{{ plain }}?t={{ $env.INTEROP_PLAIN }}&o={{ o }}" }
                """, to: "requests/02-flow.yaml", in: folder)
            let plain = #"plain "value"&more"#
            var environment = Self.environment
            environment["INTEROP_PLAIN"] = plain
            environment["INTEROP_PREFIX"] = "echo"
            environment["token"] = "abc"
            let export = try await Self.runThenRunTheExport(["requests", "--env", "test", "--var", "port=\(server.port)"],
                                                            in: folder, environment: environment)
            #expect(!export.stdout.contains("value") && !export.stdout.contains("/echo"), "\(export.stdout)")
            #expect(export.stdout.contains("# admin only (requests/01-admin.yaml)\n"
                + "# not written: skipped when the collection runs (when \"{{ adminToken }}\" is present: was absent)"), "\(export.stdout)")
            #expect(export.stdout.contains("# not written: skipped when the collection runs (when \"{{ region }}\" is equal to \"us\": was \"eu\")"))
            let received = server.receivedRequests()
            try #require(received.count == 6, "\(export.stdout)")
            #expect(received.map(\.path).prefix(2) == ["/echo/json", "/echo/items"] && received[3].path == "/echo/json")
            // A mapping holding the value, written into a JSON string: escaped twice, as run does.
            #expect(received[3].body == received[0].body, "\(received[3].bodyText ?? "") != \(received[0].bodyText ?? "")")
            // In a URL a process variable's value is text, as run writes it: its `&` separates query items.
            #expect(received[5].uri == received[2].uri && received[2].uri.hasPrefix("/echo/text/plain%20%22value%22&more?t=plain%20%22value%22&more&o="),
                    "\(received[5].uri) != \(received[2].uri)")
            #expect(received[4].uri == received[1].uri, "\(received[4].uri) != \(received[1].uri)")
            #expect(received[1].uri.contains("v=plain%20%22value%22%26more&w=x-plain%20%22value%22%26more-y&d=plain"),
                    "\(received[1].uri)")
            #expect(received[1].uri.hasSuffix("&o=%7B%22k%22%3A%22plain%20%5C%22value%5C%22%26more%22%7D"), "\(received[1].uri)")
        }
    }

    /// A secret inside a mapping written into a string of a JSON body is JSON-escaped twice, as `run` sends it; a
    /// captured value in a URL is text there, as `run` writes it.
    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func exportedCommandsEscapeASecretTwiceInsideAStringAndKeepCapturesAsURLText() async throws {
        let (export, received) = try await Self.exportScenario([
            "environments/test.yaml": """
                baseURL: http://127.0.0.1:{{ port }}
                variables: { port: 1, m: { p: "{{ pw }}" } }
                secrets: { pw: { env: INTEROP_PW } }
                """,
            "requests/01.yaml": """
                steps:
                  - request: { method: POST, url: /echo/json, json: { t: "x{{ m }}", s: "a%2Fb x" } }
                    capture: { s: $.json.s }
                  - request: { url: "/echo/items/{{ s }}?q={{ s }}" }
                """,
        ], variables: ["INTEROP_PW": #"hun"ter\2"#, "s": "a%2Fb x"])
        #expect(!export.stdout.contains("hun") && export.stdout.contains("# $INTEROP_PW: the secret 'pw'"), "\(export.stdout)")
        try #require(received.count == 4, "\(export.stdout)")
        #expect(received[2].body == received[0].body && received[0].bodyText?.contains(#""t":"x{\"p\":\"hun\\\"ter\\\\2\"}""#) == true,
                "\(received[0].bodyText ?? "") vs \(received[2].bodyText ?? "")")
        #expect(received[3].uri == received[1].uri && received[1].uri == "/echo/items/a%2Fb%20x?q=a%2Fb%20x", "\(received[1].uri) vs \(received[3].uri)")
    }

    /// curl sends every header it is given but `Authorization` and `Cookie` to whatever origin a redirect leads to: a
    /// command whose header holds a secret is written without `-L`, saying why, so the secret stays with its origin as
    /// `run` keeps it (trial helper-151); one whose secret is only in `Authorization` keeps `-L`.
    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func anExportedCommandSendsNoSecretHeaderToAnotherOrigin() async throws {
        let (export, received) = try await Self.exportScenario([
            "environments/test.yaml": "baseURL: http://127.0.0.1:{{ port }}\nvariables: { port: 1 }\nsecrets: { key: { env: INTEROP_KEY } }\n",
            "requests/01.yaml": #"request: { url: "/redirect/cross?to=localhost&path=/echo/a", headers: { X-Api-Key: "k-{{ key }}" } }"#,
            "requests/02.yaml": "request: { url: \"/redirect/cross?to=localhost&path=/echo/b\" }\nauth: { bearer: \"{{ key }}\" }\n",
        ], variables: ["INTEROP_KEY": "secret-key-value"])
        #expect(export.stdout.contains("# -L left out: curl would send X-Api-Key to another origin a redirect leads to, where runner run "
                                       + "drops credentials and headers holding a secret"), "\(export.stdout)")
        // run: 01 and its hop, 02 and its hop; curl: 01 alone, 02 and its hop.
        #expect(received.map(\.path) == ["/redirect/cross", "/echo/a", "/redirect/cross", "/echo/b",
                                          "/redirect/cross", "/redirect/cross", "/echo/b"], "\(export.stdout)")
        for request in received where request.header("Host")?.hasPrefix("localhost") == true {
            #expect(request.header("X-Api-Key") == nil && request.header("Authorization") == nil, "\(request.path)")
        }
    }

    /// The README's command on the example collection: every request exports, in each environment.
    @Test(arguments: ["local", "qa"])
    func theExampleCollectionExports(environment name: String) async throws {
        let secrets = ["QA_PASSWORD": "qa-password-1", "QA_CLIENT_SECRET": "qa-client-secret-1"]
        let export = try await RunnerProcess.run(["export", "curl", "requests/", "--env", name], in: Repository.url("."),
                                                 environment: Self.environment.merging(secrets) { $1 })
        #expect(export.exitCode == 0, "\(export.stderr)")
        #expect(export.stdout.components(separatedBy: "\ncurl ").count > 20, "\(export.stdout)")
    }

    @Test func badCommandsAreLocatedAndNothingIsWritten() async throws {
        try await Self.inFolder { folder in
            try Self.write("curl https://a.example.com/ok\ncurl 'https://a.example.com/x -H 'A: b'\n", to: "bad.txt", in: folder)
            let bad = try await RunnerProcess.run(["import", "curl", "bad.txt", "--out", "requests"], in: folder,
                                                  environment: Self.environment)
            #expect(bad.exitCode == 2)
            #expect(bad.stderr.contains("bad.txt:2:39: error: command 2: unbalanced quote"), "\(bad.stderr)")
            #expect(bad.stderr.contains(" 2 | curl 'https://a.example.com/x -H 'A: b'\n   |                                       ^"))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("requests").path))
            let option = try await RunnerProcess.run(["import", "curl", "curl https://a.example.com --frob"], in: folder,
                                                     environment: Self.environment)
            #expect(option.exitCode == 2 && option.stderr.contains("<command>:1:28: error: command 1: unknown curl option '--frob'"))
            // Controls in the input are shown escaped: an escape sequence never reaches the terminal.
            let escape = try await RunnerProcess.run(["import", "curl", "curl https://a.example.com --x\u{1B}]0;PWNED\u{7}"], in: folder,
                                                     environment: Self.environment)
            #expect(escape.exitCode == 2 && !escape.stderr.contains("\u{1B}") && escape.stderr.contains(#"--x\u{1B}]0"#), "\(escape.stderr)")
        }
    }

    /// The warnings about credentials written into the file quote the command with each credential as `***`; the file
    /// (here, the command's output) holds them, as documented. The command comes from a pipe (`<(…)` in a shell).
    @Test func credentialWarningsHideTheCredentialsTheyQuote() async throws {
        try await Self.inFolder { folder in
            let command = "curl http://127.0.0.1:1/x -H 'Authorization: Bearer s3cr3tT0kenXYZ' -H 'X-Api-Key: k3yk3y123' -u bob:hunter2secret"
            let imported = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                       ["-c", "printf '%s\\n' \"$1\" | \"$2\" import curl /dev/stdin", "sh", command,
                                                        try RunnerProcess.executable.path],
                                                       in: folder, environment: Self.environment)
            #expect(imported.exitCode == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains(" 1 | curl http://127.0.0.1:1/x -H 'Authorization: Bearer ***' -H 'X-Api-Key: ***' -u bob:***"),
                    "\(imported.stderr)")
            for secret in ["s3cr3tT0kenXYZ", "k3yk3y123", "hunter2secret"] {
                #expect(!imported.stderr.contains(secret), "\(imported.stderr)")
                #expect(imported.stdout.contains(secret), "\(imported.stdout)")
            }
        }
    }

    /// A file that starts with a UTF-8 byte order mark (Windows' Notepad) is read without it, by `import curl` and
    /// `import postman` (trial helper-182: "not a curl command: it starts with 'curl'", "not JSON").
    @Test func aByteOrderMarkIsNoPartOfTheInput() async throws {
        try await Self.inFolder { folder in
            try Data([0xEF, 0xBB, 0xBF] + Array("curl https://api.example.com/ping\r\n".utf8)).write(to: folder.appendingPathComponent("c.txt"))
            let curl = try await RunnerProcess.run(["import", "curl", "c.txt"], in: folder, environment: Self.environment)
            #expect(curl.exitCode == 0 && curl.stdout.contains("url: https://api.example.com/ping"), "\(curl.stdout)\(curl.stderr)")
            let collection = #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "#
                + #""item": [{"name": "ping", "request": {"method": "GET", "url": "https://api.example.com/ping"}}]}"#
            try Data([0xEF, 0xBB, 0xBF] + Array(collection.utf8)).write(to: folder.appendingPathComponent("c.json"))
            let postman = try await RunnerProcess.run(["import", "postman", "c.json", "--out", "out"], in: folder, environment: Self.environment)
            #expect(postman.exitCode == 0, "\(postman.stderr)")
        }
    }

    /// A credential of thousands of characters on a long line stays hidden where a diagnostic quotes the line (trial
    /// helper-183: past 4,096 characters the cut line showed it).
    @Test func aLongCredentialOnALongLineStaysHidden() async throws {
        try await Self.inFolder { folder in
            let token = String((0..<5000).map { index in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789"[String.Index(utf16Offset: index * 7 % 46, in: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789")] })
            try Self.write("curl 'http://127.0.0.1:1/x?token=\(token)' --usr bob:pw\n", to: "q.txt", in: folder)
            let imported = try await RunnerProcess.run(["import", "curl", "q.txt"], in: folder, environment: Self.environment)
            #expect(imported.exitCode == 2 && imported.stderr.contains("?token=***' --usr bob:***"), "\(imported.stderr.prefix(500))")
            #expect(!imported.stderr.contains(token.suffix(40)) && !imported.stderr.contains(token.prefix(40)))
        }
    }

    @Test func importOverwritesNothingWithoutForce() async throws {
        try await Self.inFolder { folder in
            // The file of commands itself, even with --force (trial helper-182).
            try Self.write("curl https://api.example.com/ping\n", to: "commands.yaml", in: folder)
            let itself = try await RunnerProcess.run(["import", "curl", "commands.yaml", "--out", "commands.yaml", "--force"], in: folder,
                                                     environment: Self.environment)
            #expect(itself.exitCode == 1 && itself.stderr.contains("which this import reads"), "\(itself.stderr)")
            #expect(try String(contentsOf: folder.appendingPathComponent("commands.yaml"), encoding: .utf8) == "curl https://api.example.com/ping\n")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("commands.yaml"))
            try Self.write("kept", to: "requests/ping.yaml", in: folder)
            let command = "curl -X POST https://api.example.com/ping"
            let refused = try await RunnerProcess.run(["import", "curl", command, "--out", "requests/ping.yaml"], in: folder,
                                                      environment: Self.environment)
            #expect(refused.exitCode == 1 && refused.stderr.contains("requests/ping.yaml"))
            #expect(try String(contentsOf: folder.appendingPathComponent("requests/ping.yaml"), encoding: .utf8) == "kept")
            let forced = try await RunnerProcess.run(["import", "curl", command, "--out", "requests/ping.yaml", "--force"],
                                                     in: folder, environment: Self.environment)
            #expect(forced.exitCode == 0, "\(forced.stderr)")
            let text = try String(contentsOf: folder.appendingPathComponent("requests/ping.yaml"), encoding: .utf8)
            #expect(text.hasPrefix("name: POST /ping\n"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("requests").path) == ["ping.yaml"])
            // A place taken by a folder fails the whole write, before anything is replaced.
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("many/02-get-b.yaml"), withIntermediateDirectories: true)
            try Self.write("old", to: "many/01-get-a.yaml", in: folder)
            try Self.write("curl https://api.example.com/a\ncurl https://api.example.com/b\n", to: "two.txt", in: folder)
            let folderInTheWay = try await RunnerProcess.run(["import", "curl", "two.txt", "--out", "many", "--force"], in: folder,
                                                             environment: Self.environment)
            #expect(folderInTheWay.exitCode == 1 && folderInTheWay.stderr.contains("02-get-b.yaml' is a folder"), "\(folderInTheWay.stderr)")
            #expect(try String(contentsOf: folder.appendingPathComponent("many/01-get-a.yaml"), encoding: .utf8) == "old")
        }
    }

    /// Input that is not UTF-8 (a file saved as Latin-1) is refused where its first such byte stands, from a file and
    /// from standard input: replacing the byte would change what is sent.
    @Test func inputThatIsNotUTF8IsLocated() async throws {
        try await Self.inFolder { folder in
            try Data("curl http://a.example.com/x\ncurl http://b.example.com/y -H 'X-Name: Gr".utf8 + [0xFC] + "n'\n".utf8)
                .write(to: folder.appendingPathComponent("latin1.txt"))
            let runner = try RunnerProcess.executable.path
            for (arguments, name) in [(["import", "curl", "latin1.txt"], "latin1.txt"), (["import", "curl", "-"], "<stdin>")] {
                let result = try await RunnerProcess.run(
                    program: URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" \"$@\" < latin1.txt", runner] + arguments,
                    in: folder, environment: Self.environment)
                #expect(result.exitCode == 1 && result.stdout.isEmpty, "\(result.stdout)\n\(result.stderr)")
                #expect(result.stderr.contains("\(name):2:43: error: invalid UTF-8 (byte 0xFC)"), "\(result.stderr)")
            }
        }
    }

    /// A file whose name starts with `curl` or holds a space is read as a file; `wrote` lines name the files as `--out`
    /// does; an empty `--out`, or one through a file, is refused, naming why.
    @Test func filesNamedLikeCommandsAreReadAndOutIsChecked() async throws {
        try await Self.inFolder { folder in
            try Self.write("curl http://a.example.com/x\n", to: "curl-commands.txt", in: folder)
            try Self.write("curl http://b.example.com/y\n", to: "my commands.txt", in: folder)
            try Self.write("notes", to: "notes.txt", in: folder)
            for (input, written) in [("curl-commands.txt", "out/get-x.yaml"), ("my commands.txt", "out/get-y.yaml")] {
                let result = try await RunnerProcess.run(["import", "curl", input, "--out", "out"], in: folder, environment: Self.environment)
                #expect(result.exitCode == 0 && result.stdout == "wrote \(written)\n", "\(result.stdout)\n\(result.stderr)")
            }
            for (out, problem) in [("", "--out is empty: give the folder (or file) to write"),
                                   ("notes.txt/requests", "notes.txt' is a file, and --out notes.txt/requests needs a folder there")] {
                let result = try await RunnerProcess.run(["import", "curl", "curl-commands.txt", "--out", out], in: folder,
                                                         environment: Self.environment)
                #expect(result.exitCode == 1 && result.stderr.contains(problem), "\(result.stderr)")
            }
            #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes")
            let missing = try await RunnerProcess.run(["import", "curl", "curl-missing.txt"], in: folder, environment: Self.environment)
            #expect(missing.exitCode == 1 && missing.stderr.contains("'curl-missing.txt' is neither a curl command nor a readable file"),
                    "\(missing.stderr)")
        }
    }

    @Test func severalCommandsAreNotWrittenIntoOneFile() async throws {
        try await Self.inFolder { folder in
            try Self.write("curl http://a.example.com/x\ncurl http://b.example.com/y\n", to: "two.txt", in: folder)
            let fromFile = try await RunnerProcess.run(["import", "curl", "two.txt", "--out", "two.yaml"], in: folder,
                                                       environment: Self.environment)
            #expect(fromFile.exitCode == 1, "\(fromFile.stdout)\n\(fromFile.stderr)")
            #expect(fromFile.stderr.contains("--out two.yaml names one file, and the input gives 2 requests"))
            #expect(!fromFile.stdout.contains("wrote"))
            let runner = try RunnerProcess.executable.path
            let fromStandardInput = try await RunnerProcess.run(
                program: URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" import curl - --out two.yaml < two.txt", runner],
                in: folder, environment: Self.environment)
            #expect(fromStandardInput.exitCode == 1, "\(fromStandardInput.stdout)\n\(fromStandardInput.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["two.txt"])
        }
    }

    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func exportedCommandsSendEveryBodyKindAndAnySecretValueAsRunDoes() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            try Self.write("""
                baseURL: "http://ci:{{ password }}@127.0.0.1:{{ port }}"
                variables: { port: 1, greeting: "hello {{ password }}!" }
                secrets:
                  password: { env: QA_PASSWORD }
                """, to: "environments/qa.yaml", in: folder)
            let requests = [
                "01-json": "method: POST\n  url: /echo/json\n  json: { greet: \"{{ greeting }}\", password: \"{{ password }}\", n: 1 }",
                "02-path": "url: /echo/basic-auth/alice/{{ password }}\n  query: { p: \"{{ password }}\", g: \"{{ greeting }}\" }",
                "03-inline": "url: \"/echo/inline?a=1&g={{ greeting }}\"",
                "04-form": "method: POST\n  url: /echo/form\n  form: { password: \"{{ password }}\", \"odd name\": \"{{ greeting }}\" }",
                "05-text": "method: PUT\n  url: /echo/text\n  text: \"say {{ greeting }}\"",
                "06-file": "method: PUT\n  url: /echo/file\n  file: ../body.bin",
                "07-parts": "method: POST\n  url: /echo/parts\n  multipart:\n    - { name: note, value: \"{{ greeting }}\" }\n    - { name: doc, file: ../body.bin }",
                "08-graphql": "method: POST\n  url: /echo/graphql\n  graphql: { query: \"{ me(p: \\\"{{ greeting }}\\\") }\" }",
                "09-empty": "method: POST\n  url: /echo/empty\n  text: \"\"",
            ]
            for (name, request) in requests { try Self.write("request:\n  \(request)\n", to: "requests/\(name).yaml", in: folder) }
            try Self.write("binary\u{1}body", to: "body.bin", in: folder)
            let secret = "Pa ss'w\"ord$1\\ \\n%41&x=y+/ü\u{7}"
            var environment = Self.environment
            environment["QA_PASSWORD"] = secret
            let export = try await Self.runThenRunTheExport(["requests", "--env", "qa", "--var", "port=\(server.port)"],
                                                            in: folder, environment: environment)
            let forms = [secret, "Pa ss'\\''w", #"w\"ord"#, "Pa%20ss", "Pa+ss", "ord%241", "ss%27w", "ord$1"]
            for form in forms { #expect(!export.stdout.contains(form) && !export.stderr.contains(form), "\(form)") }
            #expect(!export.stdout.contains("boundary="), "\(export.stdout)")
            let received = server.receivedRequests()
            try #require(received.count == 2 * requests.count, "\(export.stdout)")
            for (byRunner, byCurl) in zip(received[0..<requests.count], received[requests.count...]) {
                #expect(byCurl.method == byRunner.method)
                // A variable holding the secret, in the query a url: writes, too: the secret one value (its `%`, `&`
                // and `+` encoded); the base URL's password as Basic auth.
                #expect(byCurl.uri == byRunner.uri)
                #expect(byRunner.path != "/echo/inline" || byRunner.uri.contains("%2541%26x=y%2B"), "\(byRunner.uri)")
                #expect(byCurl.header("Authorization") == byRunner.header("Authorization") && byRunner.header("Authorization") != nil)
                #expect(byCurl.header("Content-Type")?.hasPrefix("multipart/") == byRunner.header("Content-Type")?.hasPrefix("multipart/"))
                if byRunner.header("Content-Type")?.hasPrefix("multipart/") == true {
                    #expect(byCurl.bodyText?.contains("hello \(secret)!") == true)
                } else {
                    #expect(byCurl.header("Content-Type") == byRunner.header("Content-Type"), "\(byRunner.path)")
                    #expect(byCurl.header("Content-Length") == byRunner.header("Content-Length"), "\(byRunner.path)")
                    #expect(byCurl.body == byRunner.body, "\(byRunner.path): \(byCurl.bodyText ?? "") != \(byRunner.bodyText ?? "")")
                }
            }
            #expect(received[0].bodyText?.contains("hello ") == true && received[1].path.hasPrefix("/echo/basic-auth/alice/Pa"))
        }
    }
    /// A file part's content type that curl's `-F ...;type=` would read otherwise (a `,` starts another file, a
    /// `filename=` or `headers=` parameter is curl's own attribute) goes as the part's Content-Type header, so the exported
    /// command sends the part headers runner does (trial helper-89).
    @Test(.enabled(if: curl != nil, "curl is not installed: the exported commands cannot be run"))
    func exportedFilePartsKeepEveryContentType() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.stop() } }
        try await Self.inFolder { folder in
            try Self.write("baseURL: \"http://127.0.0.1:{{ port }}\"\nvariables: { port: 1 }\n", to: "environments/qa.yaml", in: folder)
            let types = ["text/plain; charset=utf-8", "a/b,c", #"a/b; x="1,2""#, "image/png;filename=evil.sh", "text/x;headers=X-Evil: 1",
                         "TEXT/X; Encoder=base64", #"a/b; q="back\\slash""#]
            let parts = types.enumerated().map { index, type in
                "    - { name: f\(index), file: ../plain.txt, contentType: '\(type.replacingOccurrences(of: "'", with: "''"))' }"
            }
            try Self.write("request:\n  method: POST\n  url: /echo/parts\n  multipart:\n" + parts.joined(separator: "\n") + "\n",
                           to: "requests/parts.yaml", in: folder)
            try Self.write("plain text", to: "plain.txt", in: folder)
            _ = try await Self.runThenRunTheExport(["requests", "--env", "qa", "--var", "port=\(server.port)"], in: folder,
                                                   environment: Self.environment)
            /// The part headers of a multipart body, in order.
            func partHeaders(_ request: RecordedRequest) -> [String] {
                (request.bodyText ?? "").components(separatedBy: "\r\n").filter { $0.hasPrefix("Content-") }
            }
            let received = server.receivedRequests()
            try #require(received.count == 2)
            #expect(partHeaders(received[1]) == partHeaders(received[0]), "\(partHeaders(received[1]))")
            #expect(partHeaders(received[0]).filter { $0.hasPrefix("Content-Type") } == types.map { "Content-Type: " + $0 })
        }
    }
}
