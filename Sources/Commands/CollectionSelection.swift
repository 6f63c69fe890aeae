import CollectionFormat
import Foundation

/// The collection a command works on: its paths, environment and `--var`s.
public struct CollectionSelection: Sendable {
    /// Request files or directories, as typed.
    public var paths: [String]
    /// `--env NAME`.
    public var environmentName: String?
    /// `--environments DIR`.
    public var environmentsDirectory: String?
    /// `--var NAME=VALUE`, in order (later wins).
    public var variables: [(name: String, value: String)]

    public init(paths: [String], environmentName: String? = nil, environmentsDirectory: String? = nil,
                variables: [(name: String, value: String)] = []) {
        self.paths = paths
        self.environmentName = environmentName
        self.environmentsDirectory = environmentsDirectory
        self.variables = variables
    }

    /// A `--var` argument as a name and a value; nil unless it is `NAME=VALUE` with a valid variable name.
    public static func variable(_ argument: String) -> (name: String, value: String)? {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let name = String(argument[..<equals])
        guard VariablePath.isValidName(name) else { return nil }
        return (name, String(argument[argument.index(after: equals)...]))
    }

    /// Reads and checks the collection in the current directory with the process environment.
    func load(forSending: Bool, checksReferences: Bool = true) -> LoadedCollection {
        var request = LoadRequest(
            paths: paths, environmentName: environmentName, environmentsDirectory: environmentsDirectory,
            variables: variables, processEnvironment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath, checksReferences: checksReferences)
        request.forSending = forSending
        return CollectionLoader.load(request)
    }
}
