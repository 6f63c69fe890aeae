import ArgumentParser
import Foundation

/// The `runner` command: run, validate and list HTTP request collections.
@main
struct Runner: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Run declarative HTTP request collections and check their expectations.",
        version: "0.1.0",
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self]
    )

    /// Parses, runs, and exits with FORMAT.md's statuses: a bad command line is 1, never a crash.
    static func main() async {
        // A closed pipe (`runner list | head`) is a write error to ignore, not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            Console.error(fullMessage(for: error))
            Console.error("Run 'runner --help' for usage.")
            Foundation.exit(ExitStatus.badCommandLine.rawValue)
        }
    }
}

/// Exit statuses of FORMAT.md.
enum ExitStatus: Int32 {
    case success = 0
    case badCommandLine = 1
    case invalidCollection = 2
    case requestFailed = 3
    case expectationFailed = 4

    /// The status as an error that ends the command.
    var exit: ExitCode { ExitCode(rawValue) }
}
