import ArgumentParser
import CollectionFormat
import Commands
import Foundation
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
        // A closed pipe (`runner list | head`) is a write error to ignore, not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        // `run` reports a SIGINT or SIGTERM from its first millisecond on (held since the program was loaded, watched
        // once it starts); every other command ends by the signal as usual.
        do {
            var command = try parseAsRoot()
            if !(command is RunCommand) { HeldSignals.release() }
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            Foundation.exit(ExitStatus.success.rawValue)
        } catch let status as ExitCode {
            // The command ran and chose its status: a signal held since (the second of a pair that stopped the run, held
            // once the run ended) must not end the process by its default action instead (exit 143 became "killed").
            Foundation.exit(status.rawValue)
        } catch {
            HeldSignals.release()
            fail(error)
        }
    }

    /// Exits for an error: its exit code when it carries one, help and version as asked, else a bad command line.
    private static func fail(_ error: any Error) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        if exitCode(for: error) == .success { exit(withError: error) }
        Console.error(misspelledCommand(in: CommandLine.arguments.dropFirst()) ?? fullMessage(for: error))
        Console.error("Run 'runner --help' for usage.")
        Foundation.exit(ExitStatus.badCommandLine.rawValue)
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
