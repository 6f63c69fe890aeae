import ArgumentParser
import Commands
import Foundation
import NIOCore
import NIOPosix

/// The `runner` command: run, validate and list HTTP request collections.
@main
struct Runner: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Run declarative HTTP request collections and check their expectations.",
        version: "0.1.0",
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self]
    )

    /// Parses the command line, then runs the command on a task and parks the main thread.
    ///
    /// A run that sends one file at a time (`--jobs 1`, the default) runs its tasks on SwiftNIO's event
    /// loops, where the responses arrive: a request resumes on the thread its response came in on instead of
    /// waking a thread of the default pool. Parallel runs
    /// keep the default pool for everything but their workers, which `CollectionRun` spreads over the loops
    /// itself (`HTTPClientTransport.workerExecutors`): as the global executor, the loops would keep every task
    /// on the loop that started it.
    static func main() {
        // A closed pipe (`runner list | head`) is a write error to ignore, not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            fail(error)
        }
        if let run = command as? RunCommand, run.jobs == 1 {
            _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
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
