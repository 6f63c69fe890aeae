import ArgumentParser
import CollectionFormat
import Foundation

/// The arguments that name a collection and its environment, shared by `validate` and `run`.
struct CollectionArguments: ParsableArguments {
    @Argument(help: "Request files or directories of them.")
    var paths: [String]

    @Option(name: .customLong("env"), help: "The environment to use: environments/NAME.yaml.")
    var environment: String?

    @Option(name: .customLong("environments"), help: "The directory of environment files (default: found by walking up from the first path).")
    var environmentsDirectory: String?

    @Option(name: .customLong("var"), help: "A variable, NAME=VALUE; overrides the environment and captures.")
    var variables: [String] = []

    mutating func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one request file or directory") }
        for variable in variables {
            guard let name = variable.split(separator: "=", maxSplits: 1).first, variable.contains("="),
                  VariablePath.isValidName(String(name))
            else {
                throw ValidationError("--var expects NAME=VALUE with a variable name, got '\(variable)'")
            }
        }
    }

    /// The `--var` arguments as name and value pairs.
    var variablePairs: [(name: String, value: String)] {
        variables.map { argument in
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// Loads and checks the collection these arguments name, keeping every file (`validate`, `list`).
    func load() -> LoadedCollection {
        CollectionLoader.load(loadRequest(forSending: false))
    }

    /// Checks the collection these arguments name before sending it, handing each file to `visit` with where it
    /// was spilled and keeping none (`run` decodes each file again when it runs).
    func check(spillingTo spill: SpillFile?, visiting visit: (DiscoveredFile, RequestFile, SpilledFile?) -> Void) -> LoadedCollection {
        CollectionLoader.check(loadRequest(forSending: true), spillingTo: spill, visiting: visit)
    }

    private func loadRequest(forSending: Bool) -> LoadRequest {
        var request = LoadRequest(
            paths: paths,
            environmentName: environment,
            environmentsDirectory: environmentsDirectory,
            variables: variablePairs,
            processEnvironment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath
        )
        request.forSending = forSending
        return request
    }
}
