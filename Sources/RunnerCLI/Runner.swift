import ArgumentParser
import CollectionFormat
import Commands
import Foundation
import Loaders
import RunnerVersion

/// The `runner` command: run, validate and list HTTP request collections; start one, and describe its format.
@main
struct Runner: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Run declarative HTTP request collections and check their expectations.",
        version: RunnerVersion.current,
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self, SchemaCommand.self, InitCommand.self,
                      ImportCommand.self, ExportCommand.self, MergeReportsCommand.self]
    )

    /// Parses the command line and runs the command, exiting with the documented statuses: a bad command line is 1,
    /// never a crash.
    static func main() async {
        // A closed standard stream (`>&-`) would be the first file the process opens (an event loop's), where the console
        // would then write: /dev/null takes its place.
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
        // A closed pipe (`runner list | head`) is a write error to ignore, not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        // Before any task runs on another thread: with too few files the runtime's first thread stops the process.
        let openFiles = OpenFileLimit.raise()
        if openFiles < OpenFileLimit.processMinimum {
            Console.error("error: runner needs at least \(OpenFileLimit.processMinimum) open files, and this process may open \(openFiles) "
                          + "(ulimit -n): raise the limit")
            Foundation.exit(ExitStatus.badCommandLine.rawValue)
        }
        if let warning = HTTPClientTransport.settleEventLoopCount() { Console.error(warning) }
        // `run` reports a SIGINT, SIGTERM or SIGHUP from its first millisecond on (held since the program was loaded, watched
        // once it starts); every other command ends by the signal as usual.
        if let argument = notUTF8Argument() {
            HeldSignals.release()
            Console.error("error: \(argument) is not UTF-8: runner reads paths and values as UTF-8; give the value in UTF-8, "
                          + "or rename the file or directory it names")
            Foundation.exit(ExitStatus.badCommandLine.rawValue)
        }
        var isRun = false
        do {
            var command = try parseAsRoot()
            isRun = command is RunCommand
            if !isRun { HeldSignals.release() }
            // A directory removed under the shell: every relative path would read "no such file", not saying why.
            if let directory = getcwd(nil, 0) {
                free(directory)
            } else if errno == ENOENT {
                Console.error("warning: the current directory no longer exists (it was removed): relative paths name nothing; "
                              + "cd to an existing directory, or give absolute paths")
            }
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            exit(ExitStatus.success.rawValue, isRun: isRun)
        } catch let status as ExitCode {
            // The command ran and chose its status: a signal held since (the second of a pair that stopped the run, held
            // once the run ended) must not end the process by its default action instead (exit 143 became "killed").
            exit(status.rawValue, isRun: isRun)
        } catch {
            HeldSignals.release()
            fail(error)
        }
    }

    /// The first argument whose bytes are not UTF-8, named by its place and its option (`--proxy=…`) or the option
    /// before it (not by its text, which may be a password or a secret's value); nil when all are. A path of such a name
    /// would be looked for under the name Swift shows (U+FFFD in place of the bytes), which no file has ("no such file").
    private static func notUTF8Argument() -> String? {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
            let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }
            if bytes.starts(with: Array("--".utf8)), let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
               let option = String(validating: bytes[..<equals], as: UTF8.self) {
                return "argument \(index) (the value of \(option))"
            }
            let before = CommandLine.unsafeArgv[index - 1].flatMap { String(validatingCString: $0) }
            guard index > 1, let before, before.hasPrefix("-"), before != "--" else { return "argument \(index)" }
            return "argument \(index) (after \(before))"
        }
        return nil
    }

    /// Exits with `status`, after saying on standard error that standard output could not all be written (a full disk,
    /// a descriptor not open for writing; a closed pipe is no failure): a command whose product is that output then exits
    /// 1, while `run` keeps its status, its reports being files.
    private static func exit(_ status: Int32, isRun: Bool) -> Never {
        if let problem = Console.writeProblem(of: STDOUT_FILENO) {
            Console.error("error: cannot write to standard output: \(problem)")
            if !isRun, status == ExitStatus.success.rawValue { Foundation.exit(ExitStatus.badCommandLine.rawValue) }
        }
        // A signal another command held while it wrote its files ends the process now, once it has said what it wrote.
        if !isRun { HeldSignals.release() }
        Foundation.exit(status)
    }

    /// Exits for an error: its exit code when it carries one, help and version as asked, else a bad command line.
    private static func fail(_ error: any Error) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        // `--help` and `--version`, written as other output is (a full disk is said).
        if exitCode(for: error) == .success {
            Console.out(fullMessage(for: error))
            exit(ExitStatus.success.rawValue, isRun: false)
        }
        let arguments = CommandLine.arguments.dropFirst()
        let message = misspelledCommand(in: arguments) ?? dashedPath(in: arguments)
            ?? misspelledOption(in: fullMessage(for: error), arguments: arguments)
        // ArgumentParser writes "Error:"; every other message of runner's starts "error:", as compilers' do.
        Console.error(message.hasPrefix("Error: ") ? "error: " + message.dropFirst("Error: ".count) : message)
        Console.error("Run 'runner --help' for usage.")
        Foundation.exit(ExitStatus.badCommandLine.rawValue)
    }

    /// For a path that starts with `-` (`-x.yaml`: a file that exists, or a name with a YAML extension), which reads as an
    /// option: how to write it.
    private static func dashedPath(in arguments: ArraySlice<String>) -> String? {
        let beforeSeparator = arguments.prefix { $0 != "--" }
        guard let path = beforeSeparator.first(where: { argument in
            argument.count > 1 && argument.hasPrefix("-") && (FileManager.default.fileExists(atPath: argument)
                || [".yaml", ".yml", ".yaml/", ".yml/"].contains { argument.hasSuffix($0) })
        }) else { return nil }
        return "error: '\(path)' reads as an option: write the path as ./\(path), or last, after the options and -- "
            + "(runner \(arguments.first.map { $0.hasPrefix("-") ? "run" : $0 } ?? "run") --env NAME -- \(path))"
    }

    /// ArgumentParser's `Unknown option '--x'. Did you mean '--y'?` with the option `--x` names in other case (`--Env`), or
    /// one typo away from it (`--evn`: `--env`), else the option `--x` abbreviates (each of its words
    /// the start of the option's, or its letters in order from the first: `--report-md` for `--report-markdown`), else
    /// the one it suggests only when it is close enough to be a likely typo (it names the nearest however far:
    /// `--bogus`, `--jobs`); `message` as it is otherwise.
    private static func misspelledOption(in message: String, arguments: ArraySlice<String>) -> String {
        if let missing = message.firstMatch(of: /Error: Missing expected argument '--([a-z][a-z0-9-]*)/),
           let typed = mistypedOption(String(missing.output.1), in: arguments) {
            let usage = message.firstRange(of: "Usage:").map { "\n" + message[$0.lowerBound...] } ?? ""
            return "Error: Unknown option '--\(typed)'. Did you mean '--\(missing.output.1)'?" + usage
        }
        let pattern = /Error: Unknown option '--([^']+)'\.?( Did you mean '--([^']+)'\?)?/
        guard let match = message.firstMatch(of: pattern) else { return message }
        let typed = String(match.output.1)
        let help = command(named: arguments).helpMessage(columns: 1_000)
        let options = Set(help.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) })
        let abbreviated = options.filter { abbreviates(typed, $0) }
        let described = describedOptions(in: help, naming: typed)
        let suggestion = options.first { $0 == typed.lowercased() } ?? Suggestions.oneTypoAway(from: typed, among: options)
            ?? otherToolsOption(typed, in: arguments).flatMap { options.contains($0) ? $0 : nil }
            ?? (abbreviated.count == 1 ? abbreviated.first
                : described.count == 1 ? described.first
                : match.output.3.flatMap { Suggestions.closest(to: typed, among: [String($0)]) })
        return message.replacingCharacters(in: match.range, with: "Error: Unknown option '--\(typed)'."
                                            + (suggestion.map { " Did you mean '--\($0)'?" } ?? ""))
    }

    /// runner's option for `typed`, an option other runners and test tools name so (`--fail-fast` is `--bail`, `--parallel`
    /// `--jobs`); `--report json` (the format as the next word or after `=`) is `--report-json`.
    private static func otherToolsOption(_ typed: String, in arguments: ArraySlice<String>) -> String? {
        let name = typed.lowercased()
        if name == "report" || name == "reporter" || name == "reporters" {
            let written = arguments.lazy.compactMap { argument -> String? in
                guard argument.lowercased().hasPrefix("--" + name) else { return nil }
                return argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : ""
            }.first
            let next = arguments.firstIndex { $0.lowercased() == "--" + name }.flatMap { index in
                arguments.index(after: index) < arguments.endIndex ? arguments[arguments.index(after: index)] : nil
            }
            let format = (written.flatMap { $0.isEmpty ? nil : $0 } ?? next)?.lowercased()
            return format.map { ["md": "markdown", "xml": "junit"][$0] ?? $0 }.map { "report-" + $0 }
        }
        return [
            "fail-fast": "bail", "failfast": "bail", "exitfirst": "bail", "stop-on-failure": "bail", "bail-on-failure": "bail",
            "parallel": "jobs", "workers": "jobs", "concurrency": "jobs", "threads": "jobs",
            "environment": "env", "variable": "var", "variables": "var", "env-var": "var", "global-var": "var",
            "ca-cert": "cacert", "cafile": "cacert", "ca-file": "cacert", "silent": "quiet",
        ][name]
    }

    /// The option of `arguments` (`--ouy`, `--ouy=d`) one typo away from the required option `missing`, in any case:
    /// the parser says the required one is missing before it says the typed one is unknown.
    private static func mistypedOption(_ missing: String, in arguments: ArraySlice<String>) -> String? {
        arguments.lazy.filter { $0.hasPrefix("--") && $0 != "--" }
            .map { String($0.dropFirst(2).prefix { $0 != "=" }) }
            .first { $0.lowercased() == missing || Suggestions.oneTypoAway(from: $0, among: [missing]) != nil }
    }

    /// The options of `help` whose words but the last are `typed`'s and whose description names `typed`'s last word
    /// (`--report-xml`: `--report-junit`, "Write a JUnit XML report").
    private static func describedOptions(in help: String, naming typed: String) -> [String] {
        let words = typed.lowercased().split(separator: "-")
        guard let last = words.last, words.count > 1 else { return [] }
        return help.matches(of: /\n\s*--([a-z][a-z0-9-]*)[^\n]*\n\s+([^\n-][^\n]*)/).compactMap { entry in
            let option = String(entry.output.1)
            let described = entry.output.2.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains(last)
            return option.split(separator: "-").dropLast().elementsEqual(words.dropLast()) && described ? option : nil
        }
    }

    /// Whether `typed` abbreviates `option`: as many dash-separated words, or as many as its last ones (`--junit` for
    /// `--report-junit`), each the start of the option's or its letters in order from the first (`md` in `markdown`).
    private static func abbreviates(_ typed: String, _ option: String) -> Bool {
        let short = typed.lowercased().split(separator: "-")
        let long = option.split(separator: "-").suffix(short.count)
        guard !short.isEmpty, short.count == long.count, typed.lowercased() != option else { return false }
        return zip(short, long).allSatisfy { short, long in
            guard short.first == long.first else { return false }
            var rest = long[...]
            return short.allSatisfy { letter in
                guard let found = rest.firstIndex(of: letter) else { return false }
                rest = rest[rest.index(after: found)...]
                return true
            }
        }
    }

    /// The command the words of a command line name (`runner run ...`: `run`), the root when they name none.
    private static func command(named arguments: ArraySlice<String>) -> any ParsableCommand.Type {
        var command: any ParsableCommand.Type = Runner.self
        for word in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == word }) else { break }
            command = next
        }
        return command
    }

    /// `Error: Unknown command 'runn'. Did you mean 'run'?` when a word where a command goes is close to a command's name
    /// (ArgumentParser suggests options, not commands); nil otherwise.
    private static func misspelledCommand(in arguments: ArraySlice<String>) -> String? {
        var command: any ParsableCommand.Type = Runner.self
        for word in arguments {
            let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
            guard !names.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            if let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == word }) {
                command = next
                continue
            }
            return Suggestions.closest(to: word, among: names).map { "Error: Unknown command '\(word)'. Did you mean '\($0)'?" }
        }
        return nil
    }
}
