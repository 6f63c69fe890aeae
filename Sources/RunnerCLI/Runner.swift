import ArgumentParser

/// The `runner` command: run, validate and list HTTP request collections.
@main
struct Runner: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Run declarative HTTP request collections and check their expectations.",
        version: "0.1.0"
    )
}
