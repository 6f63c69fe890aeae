import Foundation
import Testing

/// `--annotations`, `--color`, `--quiet` and `--progress` on real runs of the `console` scenario (a pass, a skip, a
/// request whose two expectations fail, one that cannot connect), its output read from pipes unless a terminal is
/// asked for.
@Suite struct ConsoleScenarioTests {
    /// Runs the `console` scenario with `arguments` after `run requests --env local`; its secret token is set, and
    /// NO_COLOR only when `environment` does not set it to "".
    private func run(
        _ arguments: [String] = [], environment: [String: String] = [:], terminal: Bool = false, errorsOnTerminal: Bool = false
    ) async throws -> RunnerProcess.Result {
        let output = try await ScenarioRun.run(
            "console", ["run", "requests", "--env", "local"] + arguments,
            environment: ["CONSOLE_TOKEN": "console-secret-42"].merging(environment) { $1 },
            terminal: terminal, errorsOnTerminal: errorsOnTerminal)
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(!(output.result.stdout + output.result.stderr).contains("console-secret-42"), "the secret is hidden everywhere")
        return output.result
    }

    /// The lines of `text` that start with `prefix`.
    private func lines(_ text: String, startingWith prefix: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    // MARK: Annotations

    @Test func onGitHubActionsEveryFailureAndErrorIsAlsoAnAnnotationAtItsPlace() async throws {
        let stdout = try await run(environment: ["GITHUB_ACTIONS": "true"]).stdout
        let annotations = lines(stdout, startingWith: "::")
        #expect(annotations.count == 3, "\(stdout)")
        #expect(annotations[0].hasPrefix("::error file=requests/03-fails-twice.yaml,line=4,col=11,title=Two checks fail::status"),
                "\(annotations)")
        #expect(annotations[1].hasPrefix("::error file=requests/03-fails-twice.yaml,line=6,col=") , "\(annotations)")
        #expect(annotations[1].contains("%0Aactual:   \"***\""), "the secret is redacted: \(annotations)")
        #expect(annotations[2].hasPrefix("::error file=requests/04-errors.yaml,line=1,col=17,title=04-errors::could not connect to 127.0.0.1:1: connection refused"),
                "\(annotations)")
        // Each comes after the lines of its request, so the console still reads as before.
        let failLine = try #require(stdout.range(of: "FAIL   Two checks fail"))
        let errorLine = try #require(stdout.range(of: "ERROR  04-errors"))
        #expect(failLine.upperBound < stdout.range(of: annotations[0])!.lowerBound)
        #expect(stdout.range(of: annotations[1])!.upperBound < errorLine.lowerBound)
    }

    @Test(arguments: [
        ([String](), [String: String](), false),
        (["--annotations", "none"], ["GITHUB_ACTIONS": "true"], false),
        ([], ["GITHUB_ACTIONS": "false"], false),
        (["--annotations", "github"], [:], true),
    ])
    func annotationsFollowTheFlagAndGitHubActions(arguments: [String], environment: [String: String], printed: Bool) async throws {
        let stdout = try await run(arguments, environment: environment).stdout
        #expect(lines(stdout, startingWith: "::error ").count == (printed ? 3 : 0), "\(stdout)")
    }

    @Test func anInvalidCollectionIsAnAnnotationPerProblem() async throws {
        let output = try await ScenarioRun.run("invalid", ["run", "requests"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(output.result.exitCode == 2)
        let annotations = lines(output.result.stdout, startingWith: "::error ")
        #expect(annotations.count == 2, "\(output.result.stdout)")
        #expect(annotations.allSatisfy { $0.hasPrefix("::error file=requests/a.yaml,line=") || $0.hasPrefix("::error file=requests/b.yaml,line=") },
                "\(annotations)")
    }

    // MARK: Colour

    @Test(arguments: [
        ([String](), ["NO_COLOR": ""], false, false),
        ([], ["NO_COLOR": ""], true, true),
        (["--color", "always"], [:], false, true),
        (["--color", "never"], ["NO_COLOR": ""], true, false),
        ([], ["NO_COLOR": "", "FORCE_COLOR": "1"], false, true),
        ([], ["NO_COLOR": "", "FORCE_COLOR": "0"], false, false),
        ([], ["NO_COLOR": "1", "FORCE_COLOR": "1"], true, false),
        ([], ["NO_COLOR": "", "TERM": "dumb"], true, false),
    ])
    func colourFollowsTheFlagTheTerminalAndTheEnvironment(
        arguments: [String], environment: [String: String], terminal: Bool, coloured: Bool
    ) async throws {
        let stdout = try await run(arguments, environment: environment, terminal: terminal).stdout
        #expect(stdout.contains("\u{1B}[32mPASS") == coloured, "\(stdout)")
        #expect(stdout.contains("\u{1B}[") == coloured, "no escape at all without colour: \(stdout)")
    }

    @Test(arguments: [(["--color", "always"], true), ([], false)])
    func validateColoursItsDiagnosticsTheSameWay(arguments: [String], coloured: Bool) async throws {
        let result = try await RunnerProcess.run(["validate", "requests"] + arguments, in: ScenarioRun.folder("invalid"),
                                                 environment: [:])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("\u{1B}[") == coloured, "\(result.stderr)")
    }

    /// An empty path (an unset shell variable) is refused, not read as the current directory.
    @Test(arguments: [["run", ""], ["validate", "requests", ""], ["list", ""]])
    func anEmptyPathIsRefused(arguments: [String]) async throws {
        let result = try await RunnerProcess.run(arguments, in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("a path is empty (a shell variable not set?)"), "\(result.stderr)")
    }

    /// An option naming a file, a directory, an environment or a tag given an empty value is refused, not read as the
    /// current directory or as no name (trial helper-196 M6: `--tag  selects no request`).
    @Test(arguments: ["--cacert", "--env", "--environments", "--env-file", "--proxy", "--tag", "--exclude-tag"])
    func anEmptyOptionValueIsRefused(option: String) async throws {
        let result = try await RunnerProcess.run(["run", "requests", option, ""], in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("\(option) is empty (a shell variable not set?)"), "\(result.stderr)")
    }

    /// An argument that is not UTF-8 (a path named in Latin-1) is refused naming it, not looked for as a name with
    /// U+FFFD and reported as missing.
    @Test func anArgumentThatIsNotUTF8IsRefused() async throws {
        let runner = try RunnerProcess.executable
        let result = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                 ["-c", #"exec "$0" validate "$(printf 'p\377')""#, runner.path],
                                                 in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("error: argument 2 is not UTF-8"), "\(result.stderr)")
        // Named by its place, not its text, which may be a password.
        let proxy = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", #"exec "$0" run requests --proxy "$(printf 'http://u:pa\377ssW0rd@127.0.0.1:1')""#, runner.path],
                                                in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(proxy.exitCode == 1 && proxy.stderr.contains("error: argument 4 (after --proxy) is not UTF-8"), "\(proxy.stderr)")
        #expect(!proxy.stderr.contains("ssW0rd"), "\(proxy.stderr)")
        // Given in the option's own argument, the option is named.
        let variable = try await RunnerProcess.run(program: URL(fileURLWithPath: "/bin/sh"),
                                                   ["-c", #"exec "$0" run requests "--var=pw=$(printf 'pa\377ssW0rd')""#, runner.path],
                                                   in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(variable.exitCode == 1 && variable.stderr.contains("error: argument 3 (the value of --var) is not UTF-8"),
                "\(variable.stderr)")
        #expect(!variable.stderr.contains("ssW0rd"), "\(variable.stderr)")
    }

    /// A `--var` that is not NAME=VALUE is named by its number and name, never by its value (`--var "$TOKEN"`).
    @Test func aMalformedVariableArgumentHidesItsValue() async throws {
        let bare = try await RunnerProcess.run(["validate", "requests", "--var", "a=1", "--var", "s3cr3tT0ken"],
                                               in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(bare.exitCode == 1 && bare.stderr.contains("--var number 2 has no '='"), "\(bare.stderr)")
        let badName = try await RunnerProcess.run(["validate", "requests", "--var", "1bad=s3cr3tT0ken"],
                                                  in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(badName.exitCode == 1 && badName.stderr.contains("--var number 1 names '1bad'"), "\(badName.stderr)")
        #expect(!(bare.stderr + badName.stderr).contains("s3cr3tT0ken"), "\(bare.stderr)\n\(badName.stderr)")
    }

    /// `list` with a `run` line's `--env` says it reads no environment (trial helper-181: "Unknown option '--env'").
    @Test func listWithAnEnvironmentSaysItReadsNone() async throws {
        let listed = try await RunnerProcess.run(["list", "requests", "--env", "local"], in: ScenarioRun.folder("invalid"), environment: [:])
        #expect(listed.exitCode == 1 && listed.stderr.contains("error: list reads no environment"), "\(listed.stderr)")
    }

    // MARK: Quiet and progress

    @Test func quietPrintsOnlyFailuresErrorsAndTheSummary() async throws {
        let stdout = try await run(["--quiet"]).stdout
        #expect(lines(stdout, startingWith: "PASS").isEmpty && lines(stdout, startingWith: "SKIP").isEmpty, "\(stdout)")
        #expect(lines(stdout, startingWith: "FAIL   Two checks fail").count == 1 && lines(stdout, startingWith: "ERROR  04-errors").count == 1)
        #expect(stdout.contains("expected: 201"), "a failure keeps its diagnostics: \(stdout)")
        #expect(stdout.contains("\n4 requests: 1 passed, 1 failed, 1 errored, 1 skipped in "), "\(stdout)")
    }

    @Test(arguments: [([String](), false), (["--progress", "never"], false), (["--progress", "always"], true)])
    func theProgressLineIsDrawnInAPipeOnlyWhenAlwaysIsAsked(arguments: [String], drawn: Bool) async throws {
        let result = try await run(arguments)
        #expect(result.stderr.contains("[1/4] running…") == drawn, "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("\u{1B}[K") == drawn)
        #expect(!result.stdout.contains("running…"))
    }

    @Test(arguments: [[String](), ["--quiet"]])
    func onATerminalTheProgressLineIsClearedBeforeEveryResultLineAndTheSummary(arguments: [String]) async throws {
        // Standard output and standard error on one terminal, as a person sees them (without colour: NO_COLOR is set).
        let screen = try await run(arguments, terminal: true, errorsOnTerminal: true).stdout
        #expect(screen.contains("[1/4] running…") && screen.contains("[3/4] running…"), "\(screen.debugDescription)")
        let clear = "\r\u{1B}[K"
        let printed = ["FAIL   Two checks fail", "ERROR  04-errors", "4 requests:"] + (arguments.isEmpty ? ["PASS ", "SKIP "] : [])
        for start in printed {
            let line = try #require(screen.range(of: start), "\(start) in \(screen.debugDescription)")
            #expect(screen[..<line.lowerBound].hasSuffix(clear), "\(start) follows a cleared line: \(screen.debugDescription)")
        }
        #expect(arguments.isEmpty == screen.contains("PASS "))
    }

    /// A terminal that cannot move the cursor (`TERM=dumb`) gets no progress line: its escapes would show as text.
    @Test func aDumbTerminalGetsNoProgressLine() async throws {
        let screen = try await run(environment: ["TERM": "dumb"], terminal: true, errorsOnTerminal: true).stdout
        #expect(!screen.contains("running…") && !screen.contains("\u{1B}[K"), "\(screen.debugDescription)")
        #expect(screen.contains("4 requests:"), "\(screen.debugDescription)")
    }

    @Test(arguments: ["--color", "--progress", "--annotations"])
    func anInvalidValueIsABadCommandLineNamingTheChoices(flag: String) async throws {
        let result = try await RunnerProcess.run(["run", "requests", flag, "sometimes"], in: ScenarioRun.folder("console"),
                                                 environment: [:])
        #expect(result.exitCode == 1)
        let choices = flag == "--annotations" ? ["auto", "github", "none"] : ["auto", "always", "never"]
        #expect(result.stderr.contains("'sometimes'") && result.stderr.contains(flag), "\(result.stderr)")
        #expect(choices.allSatisfy { result.stderr.contains("'\($0)'") }, "\(result.stderr)")
    }

    @Test(arguments: [(["--seed", "-1"], "The value '-1' is invalid for '--seed <seed>'"),
                      (["--jobs", "-2"], "--jobs must be at least 1, got -2")])
    func aNegativeNumberIsTheOptionsWrongValueNotAMissingOne(arguments: [String], message: String) async throws {
        let result = try await RunnerProcess.run(["run", "requests"] + arguments, in: ScenarioRun.folder("console"), environment: [:])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        // Written as every other message of runner's is ("error:"), not as ArgumentParser writes it ("Error:").
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
    }

    /// `list` prints one line per request: a line break in a row's name is a space.
    @Test func listPrintsARowNameWithALineBreakOnOneLine() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"name: "Row {{ who }}"\#neach: [{ who: "multi\nline" }]\#nrequest: { url: "http://127.0.0.1:1/r" }\#n"#.utf8)
            .write(to: folder.appendingPathComponent("requests/rows.yaml"))
        let result = try await RunnerProcess.run(["list", "requests"], in: folder, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "Row multi line  GET  http://127.0.0.1:1/r\n", "\(result.stdout.debugDescription)")
    }

    /// `list` shows a password written in a URL as `***`, as `run` does, spaces and all, and wherever else it shows.
    @Test func listHidesAURLPassword() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("requests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"request: { url: "http://bob:L1stS3cret@127.0.0.1:1/r/L1stS3cret" }\#n"#.utf8).write(to: folder.appendingPathComponent("requests/a.yaml"))
        try Data(#"request: { url: "http://amy:L1st spaced@127.0.0.1:1/s" }\#n"#.utf8).write(to: folder.appendingPathComponent("requests/b.yaml"))
        let result = try await RunnerProcess.run(["list", "requests"], in: folder, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 0 && result.stdout.contains("http://bob:***@127.0.0.1:1/r/***") && !result.stdout.contains("L1stS3cret"),
                "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("http://amy:***@127.0.0.1:1/s") && !result.stdout.contains("L1st"), "\(result.stdout)")
        // A password too short to hide on its own is hidden in the user information only, as `run` shows it.
        try Data(#"request: { url: "http://u:1@127.0.0.1:1/a1b?x=1" }\#n"#.utf8).write(to: folder.appendingPathComponent("requests/c.yaml"))
        let short = try await RunnerProcess.run(["list", "requests/c.yaml"], in: folder, environment: ["NO_COLOR": "1"])
        #expect(short.stdout.contains("http://u:***@127.0.0.1:1/a1b?x=1"), "\(short.stdout)\(short.stderr)")
    }
}
