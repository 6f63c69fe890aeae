import Foundation
import TestSupport
import Testing

/// `runner export curl` writes names, paths and skip reasons as comments: a line break in one must not end its comment
/// and make the rest a command of the script.
@Suite struct ExportCommentTests {
    /// Runs `runner export curl requests` with `arguments` in a new temporary folder holding `files` (paths relative to
    /// it), then removes the folder.
    static func export(_ files: [String: String], _ arguments: [String] = [], environment: [String: String] = [:]) async throws
        -> RunnerProcess.Result {
        let folder = try Self.folder(holding: files)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await RunnerProcess.run(["export", "curl", "requests"] + arguments, in: folder,
                                           environment: ["NO_COLOR": "1"].merging(environment) { $1 })
    }

    /// A new temporary folder holding `files` (paths relative to it).
    static func folder(holding files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-export-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    /// `--strict` makes a warning stop the export, which then says nothing was printed (it sends nothing anyway; trial
    /// helper-175); without it the export prints the command.
    @Test func strictStopsTheExportAtAWarning() async throws {
        let files = ["requests/a.yaml": "request: { method: get, url: \"http://127.0.0.1:1/a\" }\n"]
        let strict = try await Self.export(files, ["--strict"])
        #expect(strict.exitCode == 2 && strict.stdout.isEmpty, "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stderr.contains("= an error under --strict") && strict.stderr.hasSuffix("error: 1 problem in 1 file; nothing was printed\n"),
                "\(strict.stderr)")
        let lenient = try await Self.export(files)
        #expect(lenient.exitCode == 0 && lenient.stdout.contains("curl"), "\(lenient.stdout)\(lenient.stderr)")
    }

    /// A short secret's value equal to a folder's name (`demo`) hides no path, nor a name made of one: the export writes
    /// the file's path in its comment, a run's problems, reports and annotations show where they are, and its parts merge
    /// (trial helper-132, helper-134).
    @Test func aSecretEqualToAFoldersNameHidesNoPath() async throws {
        let files = ["environments/e.yaml": "baseURL: http://127.0.0.1:1\nsecrets: { user: { env: QA_USER } }\n",
                     "requests/demo/a.yaml": "request: { url: /a, headers: { X-User: \"{{ user }}\" } }\n"]
        let exported = try await Self.export(files, ["--env", "e"], environment: ["QA_USER": "demo"])
        #expect(exported.exitCode == 0 && exported.stdout.contains("# demo/a (requests/demo/a.yaml)"), "\(exported.stdout)\(exported.stderr)")
        #expect(exported.stdout.contains(#"-H 'X-User: '"$QA_USER""#), "\(exported.stdout)")
        let folder = try Self.folder(holding: files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["NO_COLOR": "1", "QA_USER": "demo", "GITHUB_ACTIONS": "true"]
        let run = try await RunnerProcess.run(["run", "requests", "--env", "e", "--report-json", "r.json", "--report-junit", "r.xml",
                                               "--shard", "1/1"], in: folder, environment: environment)
        #expect(run.exitCode == 3 && run.stdout.contains("requests/demo/a.yaml:1:") && run.stdout.contains(" demo/a "),
                "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("::error file=requests/demo/a.yaml,") && run.stdout.contains("title=demo/a::"), "\(run.stdout)")
        let json = try String(contentsOf: folder.appendingPathComponent("r.json"), encoding: .utf8)
        for written in [#""file": "requests/demo/a.yaml""#, #""name": "demo/a""#, #""location": "requests/demo/a.yaml:1:"#,
                        #""path": "requests/demo/a.yaml""#] {
            #expect(json.contains(written), "\(written) in \(json)")
        }
        let junit = try String(contentsOf: folder.appendingPathComponent("r.xml"), encoding: .utf8)
        #expect(junit.contains(#"<testsuite name="requests/demo/a.yaml""#) && junit.contains(#"<testcase name="demo/a" classname="requests.demo.a""#),
                "\(junit)")
        let merged = try await RunnerProcess.run(["merge-reports", "r.json"], in: folder, environment: environment)
        #expect(merged.exitCode == 3, "\(merged.stdout)\(merged.stderr)")
    }

    @Test func aLineBreakInANameARowNameOrASkipReasonStaysInsideItsComment() async throws {
        let files = [
            "requests/a.yaml": #"name: "Create user\ntouch pwned-by-name #"\#nrequest: { url: "http://127.0.0.1:1/x" }\#n"#,
            "requests/b.yaml": #"skip: "later\rtouch pwned-by-skip\u2028touch pwned-too"\#nrequest: { url: "http://127.0.0.1:1/y" }\#n"#,
            "requests/d.yaml": #"auth: { oauth2: { tokenURL: "http://127.0.0.1:1/token", clientID: "app\ntouch pwned-by-client", "#
                + #"clientSecret: "s\ntouch pwned-by-secret", scope: "read\ntouch pwned-by-scope" } }\#n"#
                + #"request: { url: "http://127.0.0.1:1/w" }\#n"#,
            "requests/c.yaml": #"name: "Row {{ who }}"\#neach: [{ who: "Smith, J" }, { who: "x\ntouch pwned-by-row" }]\#n"#
                + #"request: { url: "http://127.0.0.1:1/z" }\#n"#,
        ]
        let result = try await Self.export(files)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(whereSeparator: \.isNewline)
        #expect(lines.contains("# Create user touch pwned-by-name # (requests/a.yaml)"), "\(result.stdout)")
        #expect(lines.contains("# skipped when the collection runs: later touch pwned-by-skip touch pwned-too"), "\(result.stdout)")
        // A row's run is named by the file's `name:` template, as `run` and `list` name it.
        #expect(lines.contains("# Row Smith, J (requests/c.yaml)") && lines.contains("# Row x touch pwned-by-row (requests/c.yaml)"),
                "\(result.stdout)")
        // Every line that holds the text of a name or reason is a comment.
        #expect(lines.filter { $0.contains("pwned") }.allSatisfy { $0.hasPrefix("#") }, "\(result.stdout)")
    }

    /// An `each:` over a list known before the run (an environment's) is exported element by element, named as `run`
    /// names them; one over a captured list is exported once, with `$item`, `$index` and the element's fields as
    /// references the comments explain.
    @Test func eachOverAKnownListIsExportedPerElementAndOverACapturedOneOnceWithReferences() async throws {
        let files = [
            "environments/e.yaml": "baseURL: http://127.0.0.1:1\nvariables:\n  xs: [a, b]\n  users: [{ id: 7, name: Ann }, { id: 8, name: Bob }]\n"
                + "secrets:\n  password: { env: QA_PW }\n",
            "requests/d.yaml": "name: \"Row {{ item }} by {{ password }}1\"\neach: \"{{ xs }}\"\n"
                + "auth: { oauth2: { tokenURL: \"http://127.0.0.1:1/token?s={{ password }}\", clientID: cid, clientSecret: cs } }\n"
                + "request: { url: /d }\n",
            "requests/a.yaml": "each: \"{{ xs }}\"\nrequest: { url: \"/x/{{ item }}?i={{ index }}\" }\n",
            "requests/c.yaml": "name: \"user {{ name }}\"\neach: \"{{ users }}\"\nrequest: { url: \"/users/{{ id }}/{{ item.name }}\" }\n",
            "requests/b.yaml": "steps:\n  - request: { url: /list }\n    capture: { ids: $.ids, people: $.people }\n"
                + "  - each: \"{{ ids }}\"\n    request: { url: \"/ids/{{ item }}?i={{ index }}\" }\n"
                + "  - each: \"{{ people }}\"\n    request: { url: \"/people/{{ item.id }}/{{ slug }}/{{ item.user.id }}/{{ item.emails[1] }}\", "
                + "form: { all: \"{{ item }}\" } }\n",
            "requests/e.yaml": "name: \"tag {{ tag }}\"\neach: \"{{ people }}\"\nrequest: { url: \"/tags/{{ tag }}\" }\n",
        ]
        let result = try await Self.export(files, ["--env", "e"], environment: ["QA_PW": "hunter2-secret"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let out = result.stdout
        #expect(!out.contains("hunter2-secret") && !out.contains("~rv"), "\(out)")
        // A `--var` that replaces the secret is the secret: its reference, never its value.
        let replaced = try await Self.export(files, ["--env", "e", "--var", "password=Grüße-given"], environment: ["QA_PW": "hunter2-secret"])
        #expect(replaced.exitCode == 0 && !replaced.stdout.contains("given") && replaced.stdout.contains("# Row a by ${QA_PW}1"),
                "\(replaced.stdout)\(replaced.stderr)")
        // A name and an OAuth2 token URL holding a secret show its reference, listed with what it stands for.
        #expect(out.contains("# Row a by ${QA_PW}1 (requests/d.yaml)\n# $QA_PW: the secret 'password'"), "\(out)")
        #expect(out.contains("/token?s='\"$(printf"), "\(out)")
        #expect(out.contains("# $item_user_id: 'item.user.id' of the element of the list each: '{{ people }}'"), "\(out)")
        #expect(out.contains("# $item_emails_1: 'item.emails[1]' of the element"), "\(out)")
        // The whole element, known by its fields, holds the bare ones too; a file's name over a captured list is resolved.
        #expect(out.contains("all=%7B%22id%22%3A%22\"$(") && out.contains("%22slug%22%3A%22"), "\(out)")
        #expect(out.contains("# tag $tag (requests/e.yaml)"), "\(out)")
        #expect(out.contains("# a [1] (requests/a.yaml)\ncurl 'http://127.0.0.1:1/x/a?i=1'"), "\(out)")
        #expect(out.contains("# a [2] (requests/a.yaml)\ncurl 'http://127.0.0.1:1/x/b?i=2'"), "\(out)")
        #expect(out.contains("# user Ann (requests/c.yaml)\ncurl http://127.0.0.1:1/users/7/Ann"), "\(out)")
        #expect(out.contains("# user Bob (requests/c.yaml)\ncurl http://127.0.0.1:1/users/8/Bob"), "\(out)")
        #expect(out.contains("# $item: the element of the list each: '{{ ids }}' runs over when the collection runs"), "\(out)")
        #expect(out.contains("# $index: the number, from 1, of the element of the list each: '{{ ids }}'"), "\(out)")
        #expect(out.contains("# $item_id: 'item.id' of the element of the list each: '{{ people }}'"), "\(out)")
        #expect(out.contains("# $slug: the field 'slug' of the element of the list each: '{{ people }}'"), "\(out)")
        #expect(out.components(separatedBy: "\ncurl ").count - 1 == 10, "\(out)")
    }

    /// A header using a secret that holds a line break is refused, as `run` refuses it, though its value is a reference.
    @Test func aHeaderUsingASecretWithALineBreakIsRefused() async throws {
        let result = try await Self.export([
            "environments/e.yaml": "baseURL: http://127.0.0.1:1\nsecrets:\n  token: { env: QA_TOKEN }\n",
            "requests/a.yaml": "request: { url: /a, headers: { X-Token: \"{{ token }}\" } }\n",
        ], ["--env", "e"], environment: ["QA_TOKEN": "first\nsecond-part"])
        #expect(result.exitCode == 2 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("requests/a.yaml:1:41: error: the value of header 'X-Token' contains a line break")
                && !result.stderr.contains("second-part"), "\(result.stderr)")
    }

    /// A secret inside a structured variable sent as a query value is JSON-escaped, then percent-encoded: the reference
    /// does both when the command runs, and the value never shows.
    @Test func aSecretInsideAStructuredQueryValueIsAReferenceEncodedTwice() async throws {
        let result = try await Self.export([
            "environments/e.yaml": "baseURL: http://127.0.0.1:1\nsecrets:\n  pw: { env: QA_PW }\nvariables:\n  o: { a: \"{{ pw }}\" }\n",
            "requests/a.yaml": "request: { url: /a, query: { o: \"{{ o }}\" } }\n",
        ], ["--env", "e"], environment: ["QA_PW": #"Sek"r&t p/w"#])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("Sek") && result.stdout.contains("$QA_PW"), "\(result.stdout)")
        // Run as the shell would, the reference gives what `run` sends.
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("curl ") })
        let printed = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                  ["-c", "printf '%s' " + line.dropFirst(5).replacingOccurrences(of: " \\", with: "")],
                                                  in: FileManager.default.temporaryDirectory,
                                                  environment: ["QA_PW": #"Sek"r&t p/w"#, "LC_ALL": "C"])
        #expect(printed.stdout == "http://127.0.0.1:1/a?o=%7B%22a%22%3A%22Sek%5C%22r%26t%20p%2Fw%22%7D", "\(printed.stdout)\(printed.stderr)")
    }

    /// A `when:` reading `$env.NAME` is known only where the command runs: written, set or not; a `baseURL` whose port
    /// comes from `$env` keeps the value (no reference can stand there), and one a secret gives all of is an error.
    @Test func conditionsOnEnvAreWrittenAndABaseURLNoReferenceCanStandInIsSaidSo() async throws {
        let request = "requests/a.yaml"
        let conditional = "when: { \"{{ $env.EXPORT_MODE }}\": fast }\nrequest: { url: /a }\n"
        for environment in [[:], ["EXPORT_MODE": "slow"]] {
            let result = try await Self.export([
                "environments/e.yaml": "baseURL: \"http://127.0.0.1:{{ $env.EXPORT_PORT }}\"\n", request: conditional,
            ], ["--env", "e"], environment: environment.merging(["EXPORT_PORT": "18001"]) { $1 })
            #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("curl http://127.0.0.1:18001/a \\\n") && !result.stdout.contains("not written"), "\(result.stdout)")
        }
        let secret = try await Self.export([
            "environments/e.yaml": "baseURL: \"{{ url }}\"\nsecrets: { url: { env: EXPORT_URL } }\n", request: "request: { url: /a }\n",
        ], ["--env", "e"], environment: ["EXPORT_URL": "http://127.0.0.1:18001/base"])
        #expect(secret.exitCode == 2 && secret.stdout.isEmpty, "\(secret.stdout)\(secret.stderr)")
        #expect(secret.stderr.contains("environments/e.yaml:1:10: error: the baseURL of environment 'e' takes its host or port, or all of it, from $EXPORT_URL (the secret 'url')")
                && !secret.stderr.contains("18001"), "\(secret.stderr)")
    }

    /// A secret is never printed: a `when:` whose reason would show it is written as a command, a secret where no
    /// reference form is known (a mapping inside a string inside a mapping inside a string) stops the export, and one
    /// giving a request URL's host is an error naming it.
    @Test func aSecretIsNeverPrintedWhereNoReferenceCanBeWritten() async throws {
        let environment = "baseURL: http://127.0.0.1:1\nvariables:\n  m: { k: \"{{ pw }}\" }\n  n: { a: \"x{{ m }}\" }\nsecrets:\n  pw: { env: QA_PW }\n"
        let secret = ["QA_PW": #"hun"ter2"#]
        let conditional = try await Self.export([
            "environments/e.yaml": environment, "requests/a.yaml": "when: { \"{{ m.k }}\": { startsWith: zzz } }\nrequest: { url: /a }\n",
        ], ["--env", "e"], environment: secret)
        #expect(conditional.exitCode == 0 && conditional.stdout.contains("curl http://127.0.0.1:1/a")
                && !conditional.stdout.contains("hun"), "\(conditional.stdout)\(conditional.stderr)")
        let nested = try await Self.export([
            "environments/e.yaml": environment, "requests/a.yaml": "request: { method: POST, url: /a, json: { t: \"y{{ n }}\" } }\n",
        ], ["--env", "e"], environment: secret)
        #expect(nested.exitCode == 2 && nested.stdout.isEmpty && !nested.stderr.contains("hun"), "\(nested.stdout)\(nested.stderr)")
        #expect(nested.stderr.contains("requests/a.yaml:1:1: error: the command for 'a' would show a secret's value"), "\(nested.stderr)")
        let host = try await Self.export([
            "environments/e.yaml": environment + "  h: { env: QA_HOST }\n", "requests/a.yaml": "request: { url: \"http://{{ h }}:1/a\" }\n",
        ], ["--env", "e"], environment: secret.merging(["QA_HOST": "127.0.0.1"]) { $1 })
        #expect(host.exitCode == 2 && host.stderr.contains("error: the URL takes a part from the secret 'h' where a command cannot write a reference"),
                "\(host.stderr)")
        // A secret too short to hide inside text equal to a literal of the file (`page: 2`) is no secret shown: its own use
        // is a reference.
        let short = try await Self.export([
            "environments/e.yaml": "baseURL: http://127.0.0.1:1\nsecrets:\n  s: { env: QA_S }\n",
            "requests/a.yaml": "request:\n  url: /get\n  query: { page: 2, q: \"{{ s }}\" }\n",
        ], ["--env", "e"], environment: ["QA_S": "2"])
        #expect(short.exitCode == 0 && short.stdout.contains("page=2") && short.stdout.contains("$QA_S"), "\(short.stdout)\(short.stderr)")
        // A variable that is the short secret, or holds it standing apart, holds its reference, as every output hides it.
        let through = try await Self.export([
            "environments/e.yaml": "baseURL: http://127.0.0.1:1\nsecrets:\n  s: { env: QA_S }\nvariables: { pw: \"{{ s }}\", greeting: \"hello {{ s }}\", word: \"token\" }\n",
            "requests/a.yaml": "request:\n  url: \"/x/{{ pw }}\"\n  query: { a: \"{{ greeting }}\", b: \"{{ word }}\" }\n  headers: { X-A: \"{{ pw }}\" }\n",
        ], ["--env", "e"], environment: ["QA_S": "ok"])
        #expect(through.exitCode == 0 && !through.stdout.contains("X-A: ok") && !through.stdout.contains("/x/ok")
                && !through.stdout.contains("hello%20ok") && through.stdout.contains("b=token") && through.stdout.contains("$QA_S"),
                "\(through.stdout)\(through.stderr)")
        // A --var that replaced the secret is named beside its variable, which the command reads.
        let replaced = try await Self.export([
            "environments/e.yaml": "baseURL: http://127.0.0.1:1\nsecrets:\n  s: { env: QA_S }\n",
            "requests/a.yaml": "request: { url: /get, headers: { X-S: \"{{ s }}\" } }\n",
        ], ["--env", "e", "--var", "s=other-value"], environment: ["QA_S": "first-value"])
        #expect(replaced.stdout.contains("# $QA_S: the secret 's' (--var s gave it another value: set QA_S to it)")
                && !replaced.stdout.contains("other-value") && !replaced.stdout.contains("first-value"), "\(replaced.stdout)\(replaced.stderr)")
    }
}
