import ArgumentParser
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
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self, SchemaCommand.self, InitCommand.self]
    )

    /// Parses the command line, then runs the command on a task and parks the main thread.
    static func main() {
        // A closed pipe (`runner list | head`) is a write error to ignore, not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            fail(error)
        }
        let handedOver = HandedOver(command)
        Task.detached {
            await execute(handedOver.value)
        }
        dispatchMain()
    }

    /// Runs a parsed command and exits with the documented statuses: a bad command line is 1, never a crash.
    private static func execute(_ command: any ParsableCommand) async -> Never {
        do {
            var command = command
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            Foundation.exit(ExitStatus.success.rawValue)
        } catch {
            fail(error)
        }
    }

    /// Exits for an error: its exit code when it carries one, help and version as asked, else a bad command line.
    private static func fail(_ error: any Error) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        if exitCode(for: error) == .success { exit(withError: error) }
        Console.error(fullMessage(for: error))
        Console.error("Run 'runner --help' for usage.")
        Foundation.exit(ExitStatus.badCommandLine.rawValue)
    }
}

/// A value moved from the main thread to the task that runs the command; nothing else touches it.
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
