import ArgumentParser
import CollectionFormat

/// `runner validate`: checks a collection and its environment completely, sending nothing.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check every file, variable and referenced file of a collection; send nothing."
    )

    @OptionGroup var collection: CollectionArguments

    func run() throws {
        let loaded = collection.load()
        try DiagnosticsOutput.reportProblems(of: loaded)
        let requests = loaded.files.reduce(0) { $0 + $1.steps.count }
        let environment = loaded.environment.map { " with environment '\($0.name)'" } ?? ""
        Console.out("\(requests) \(plural(requests, "request")) in \(loaded.files.count) \(plural(loaded.files.count, "file")) valid\(environment)")
    }
}

/// Prints a collection's diagnostics and ends the command with status 2 when any is an error.
enum DiagnosticsOutput {
    static func reportProblems(of loaded: LoadedCollection) throws {
        guard !loaded.diagnostics.isEmpty else { return }
        Console.error(DiagnosticRenderer.render(loaded.diagnostics, sources: loaded.sources, color: Console.colorOnStandardError))
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        let files = Set(errors.compactMap(\.path)).count
        let place = files == 0 ? "" : " in \(files) \(plural(files, "file"))"
        Console.error("error: \(errors.count) \(plural(errors.count, "problem"))\(place); nothing was sent")
        throw ExitStatus.invalidCollection.exit
    }
}

/// "1 file", "2 files".
func plural(_ count: Int, _ noun: String) -> String { count == 1 ? noun : noun + "s" }
