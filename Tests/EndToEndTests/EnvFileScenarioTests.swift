import Foundation
import Testing

/// `--env-file`: a dotenv file feeds secrets and `$env.NAME`, under the process environment; its problems are located
/// errors. And the warnings `validate` gives for values that probably mean something else.
@Suite struct EnvFileScenarioTests {
    /// The token `ci.env` gives, as the server receives it (the file writes it double-quoted with `\"` escapes).
    static let fileToken = #"tok-"dotenv"-8731"#

    /// The `X-Token` headers the test server received.
    private func tokensReceived(_ output: ScenarioRun.Output) -> [String] {
        output.received.compactMap { $0.header("X-Token") }
    }

    @Test func aDotenvFileFeedsASecretThatIsSentAndRedactedEverywhere() async throws {
        let output = try await ScenarioRun.run("env-file", ["run", "requests", "--env", "ci", "--env-file", "ci.env"])
        let result = output.result
        #expect(result.exitCode == 4, "the one expectation meant to fail fails: \(result.stdout)\n\(result.stderr)")
        #expect(tokensReceived(output) == [Self.fileToken])
        #expect(result.stdout.contains("actual:   \"***\""), "the echoed token is hidden: \(result.stdout)")
        #expect(!result.stdout.contains("json.greeting"), "the single-quoted greeting, '#' included, matched: \(result.stdout)")
        let outputs = ["stdout": result.stdout, "stderr": result.stderr, "junit": try #require(output.junit),
                       "json": try #require(output.json)]
        for (name, text) in outputs {
            for fragment in ["dotenv", "8731"] {
                #expect(!text.contains(fragment), "\(name) shows '\(fragment)':\n\(text)")
            }
        }
    }

    @Test func theProcessEnvironmentWinsOverTheFiles() async throws {
        let output = try await ScenarioRun.run("env-file", ["run", "requests", "--env", "ci", "--env-file", "ci.env"],
                                               environment: ["API_TOKEN": "tok-process-4242"])
        #expect(tokensReceived(output) == ["tok-process-4242"], "\(output.result.stderr)")
        #expect(!output.result.stdout.contains("4242"), "\(output.result.stdout)")
    }

    /// A process variable whose value is not UTF-8 is not sent with its bytes replaced (U+FFFD), nor replaced by the file's:
    /// the secret reading it is an error naming it (exit 2), and so is a proxy variable (exit 1), unless `--proxy` replaces the
    /// proxy variables (they are not read then). Nothing is sent.
    @Test func aProcessVariableThatIsNotUTF8IsAnErrorNotAnAlteredValue() async throws {
        let runner = try RunnerProcess.executable
        /// The run with `assignment` (a shell variable assignment) before it.
        func run(setting assignment: String, envFile: String = "ci.env", then more: String = "") async throws -> RunnerProcess.Result {
            try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", assignment + #" exec "$0" run requests --env ci --env-file "# + envFile + more, runner.path],
                                        in: ScenarioRun.folder("env-file"), environment: ["TEST_SERVER_PORT": "1"])
        }
        let secret = try await run(setting: #"API_TOKEN="$(printf 'tok-\377-5150')""#)
        #expect(secret.exitCode == 2, "\(secret.stdout)\n\(secret.stderr)")
        #expect(secret.stderr.contains("secret 'token': environment variable API_TOKEN is not UTF-8 text"), "\(secret.stderr)")
        #expect(!(secret.stdout + secret.stderr).contains("5150"))
        let proxy = try await run(setting: #"HTTP_PROXY="$(printf 'http://u:pa\377ss@127.0.0.1:1')""#)
        #expect(proxy.exitCode == 1, "\(proxy.stdout)\n\(proxy.stderr)")
        #expect(proxy.stderr.contains("the environment variable HTTP_PROXY is not UTF-8 text"), "\(proxy.stderr)")
        for replaced in [" --proxy none", " --proxy http://127.0.0.1:1"] {
            let ignored = try await run(setting: #"HTTP_PROXY="$(printf 'http://h\377:1')" https_proxy="$(printf '\377')""#, then: replaced)
            #expect(ignored.exitCode == 3 && !ignored.stderr.contains("not UTF-8"), "\(replaced): \(ignored.stdout)\n\(ignored.stderr)")
        }
        // NO_PROXY still applies to a --proxy URL: one that cannot be read is an error there, not a list left out.
        let bypass = #"no_proxy="$(printf 'localhost,\377')""#
        #expect(try await run(setting: bypass, then: " --proxy none").exitCode == 3)
        let unread = try await run(setting: bypass, then: " --proxy http://127.0.0.1:1")
        #expect(unread.exitCode == 1 && unread.stderr.contains("the environment variable no_proxy is not UTF-8 text"), "\(unread.stderr)")
        let reference = try await run(setting: #"CI_TOKEN="$(printf 'tok-\377-5150')""#, envFile: "reference.env")
        #expect(reference.exitCode == 2, "\(reference.stdout)\n\(reference.stderr)")
        #expect(reference.stderr.contains("reference.env:2:11: error: the process environment's 'CI_TOKEN' is not UTF-8 text"),
                "\(reference.stderr)")
        #expect(!(reference.stdout + reference.stderr).contains("6161"))
    }

    @Test func aLaterFileWinsOverAnEarlierOne() async throws {
        let output = try await ScenarioRun.run(
            "env-file", ["run", "requests", "--env", "ci", "--env-file", "ci.env", "--env-file", "later.env"])
        #expect(tokensReceived(output) == ["tok-from-the-later-file-5521"], "\(output.result.stderr)")
    }

    /// Runs `runner validate` with `arguments` in the scenario folder `env-file/<folder>` (no server: nothing is sent).
    private func validate(_ arguments: [String], in folder: String = "") async throws -> RunnerProcess.Result {
        try await RunnerProcess.run(["validate"] + arguments, in: ScenarioRun.folder("env-file/" + folder),
                                    environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": "1"])
    }

    /// A secret an `--env-file` line leaves empty is an error naming that line, not only the process environment.
    @Test func aSecretAFileLeavesEmptyNamesTheLine() async throws {
        let result = try await validate(["requests", "--env", "ci", "--env-file", "empty.env"])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("environment variable API_TOKEN is empty (as empty.env:2 sets it)"), "\(result.stderr)")
        #expect(result.stderr.contains("help: set API_TOKEN in the --env-file or the environment"), "\(result.stderr)")
    }

    @Test func aMissingFileIsAnErrorNamingItAndNothingIsSent() async throws {
        let arguments = ["requests", "--env", "ci", "--env-file", "missing.env"]
        let output = try await ScenarioRun.run("env-file", ["run"] + arguments)
        let validated = try await validate(arguments)
        for result in [output.result, validated] {
            #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("missing.env: error: cannot read the --env-file: no such file\n"), "\(result.stderr)")
        }
        #expect(output.received.isEmpty)
    }

    @Test func raggedLinesAreLocatedErrorsWithTheLineHiddenAndNothingIsSent() async throws {
        let output = try await ScenarioRun.run("env-file", ["run", "requests", "--env", "ci", "--env-file", "ragged.env"])
        let stderr = output.result.stderr
        #expect(output.result.exitCode == 2, "\(output.result.stdout)\n\(stderr)")
        #expect(output.received.isEmpty)
        #expect(stderr.contains("""
            ragged.env:3:9: error: expected '=' after the variable name: a line is NAME=VALUE, a comment starts with '#'
             3 | ****************
               |         ^
               = help: write NAME=VALUE, or start the line with '#' to make it a comment
            """), "\(stderr)")
        #expect(stderr.contains("""
            ragged.env:4:1: error: invalid variable name '2FA_SECRET'
             4 | 2FA_SECRET****
               | ^
            """), "\(stderr)")
        #expect(stderr.contains("""
            ragged.env:5:8: error: unterminated double-quoted value: no closing " before the end of the file
             5 | QUOTED="****************
               |        ^
            """), "\(stderr)")
        #expect(stderr.contains("error: 3 problems in 1 file; nothing was sent"), "\(stderr)")
        for value in ["tok-good", "never-closed", "hello"] { #expect(!stderr.contains(value), "\(value): \(stderr)") }
        let report = try ScenarioRun.jsonRequests(output.json)
        #expect(report.count == 3, "a case per problem in the report: \(report)")
    }

    @Test func validateWarnsAtABareDurationAndAtShellReferencesAsCredentials() async throws {
        let result = try await validate(["requests", "--env", "ci"], in: "warnings")
        #expect(result.exitCode == 0, "warnings do not fail validate: \(result.stderr)")
        #expect(result.stdout.contains("1 request in 1 file valid with environment 'ci'"), "\(result.stdout)")
        for expected in [
            "environments/ci.yaml:3:13: warning: 'variables.apiToken' is '$API_TOKEN', which is sent as written",
            "environments/ci.yaml:4:42: warning: 'auth.basic.password' is '${QA_PASSWORD}', which is sent as written",
            "= help: read it from the process environment with a secret, hidden in every output: 'secrets: { QA_PASSWORD: { env: QA_PASSWORD } }'",
            "requests/slow.yaml:3:17: warning: 'auth.bearer' is '$API_TOKEN'",
            """
            requests/slow.yaml:6:13: warning: 'expect.duration: 2s' expects the request to take exactly 2s
             6 |   duration: 2s
               |             ^
               = help: for an upper bound write 'duration: { lessThan: 2s }'
            """,
        ] {
            #expect(result.stderr.contains(expected), "\(expected)\n---\n\(result.stderr)")
        }
    }
}
