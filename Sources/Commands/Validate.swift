import CollectionFormat
import Foundation
import Reporting

/// `runner validate`: checks a collection and its environment completely, sending nothing.
public struct Validate: Sendable {
    public var collection: CollectionSelection
    /// `--color`: whether the diagnostics on standard error are coloured.
    public var color = ConsoleChoice.auto

    public init(collection: CollectionSelection) {
        self.collection = collection
    }

    /// Prints every problem, or a one-line summary when there is none.
    public func execute() async -> ExitStatus {
        let loaded = await collection.load(forSending: false)
        if let status = DiagnosticsOutput.report(loaded, color: color) { return status }
        guard let selected = collection.selectedRequests(in: loaded) else { return .badCommandLine }
        let requests = loaded.requestCount()
        let environment = loaded.environment.map { " with environment '\($0.name)'" } ?? ""
        let selection = collection.filter.selectsAll ? "" : " (\(selected) selected by \(collection.filter.commandLine))"
        Console.out("\(requests) \(plural(requests, "request")) in \(loaded.files.count) \(plural(loaded.files.count, "file")) valid\(environment)\(selection)")
        return .success
    }
}

/// Prints a collection's diagnostics to standard error.
enum DiagnosticsOutput {
    /// Prints the diagnostics, coloured as `color` decides for standard error; `.invalidCollection` when any is an
    /// error (nothing may be sent), nil otherwise. `outcome` says what was not done (`nothing was printed`).
    static func report(_ loaded: LoadedCollection, color: ConsoleChoice, outcome: String = "nothing was sent") -> ExitStatus? {
        guard !loaded.diagnostics.isEmpty else { return nil }
        // Through the redactor like every output: a source line may hold a secret or a URL's password.
        let redactor = Redactor(secrets: loaded.scope.hiddenValues)
        Console.error(DiagnosticRenderer.render(loaded.diagnostics, sources: loaded.sources, color: Console.colors(STDERR_FILENO, color),
                                                redacting: redactor.redactSourceLine, redactingText: redactor.redact))
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        guard !errors.isEmpty else { return nil }
        let files = Set(errors.compactMap(\.path)).count
        let place = files == 0 ? "" : " in \(files) \(plural(files, "file"))"
        Console.error("error: \(errors.count) \(plural(errors.count, "problem"))\(place); \(outcome)")
        return .invalidCollection
    }
}

/// "1 file", "2 files".
func plural(_ count: Int, _ noun: String) -> String { count == 1 ? noun : noun + "s" }
