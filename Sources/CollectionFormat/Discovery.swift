/// A request file found under the paths of a run.
public struct DiscoveredFile: Sendable, Hashable {
    /// The path as displayed: the argument joined with the file's place under it.
    public let path: String
    public let absolutePath: String
    /// The file's path without extension, relative to the directory argument (or as given for a file).
    public let defaultName: String
}

/// Finds request files and the environments directory.
enum Discovery {
    static let extensions = [".yaml", ".yml"]

    /// Every .yaml/.yml file under the paths, each directory in lexical path order, skipping `skipping`
    /// (the environments directory) and hidden entries; a missing path is a diagnostic.
    static func requestFiles(_ paths: [String], currentDirectory: String, skipping: String?) -> ([DiscoveredFile], [Diagnostic]) {
        var files: [DiscoveredFile] = []
        var diagnostics: [Diagnostic] = []
        var seen: Set<String> = []
        let skipped = skipping.map(FileSystem.canonical)
        for argument in paths {
            let display = trimmedArgument(argument)
            let absolute = FileSystem.absolute(display, from: currentDirectory)
            let kind = FileSystem.kind(of: absolute)
            guard kind.exists else {
                diagnostics.append(.error("no such file or directory", path: display, at: nil))
                continue
            }
            var found: [DiscoveredFile] = []
            if kind.isDirectory {
                var visited: Set<String> = []
                let relatives = collect(in: absolute, prefix: [], skipping: skipped, visited: &visited)
                found = relatives.sorted { $0.lexicographicallyPrecedes($1) }.map { components in
                    let relative = components.joined(separator: "/")
                    return DiscoveredFile(path: PathText.join(display, relative),
                                          absolutePath: PathText.join(absolute, relative),
                                          defaultName: withoutExtension(relative))
                }
                if found.isEmpty {
                    diagnostics.append(.warning("no .yaml or .yml files found in this directory", path: display, at: nil))
                }
            } else if hasYAMLExtension(display) {
                found = [DiscoveredFile(path: display, absolutePath: absolute, defaultName: withoutExtension(display))]
            } else {
                diagnostics.append(.error("not a request file: expected a .yaml or .yml file", path: display, at: nil))
            }
            for file in found where seen.insert(FileSystem.canonical(file.absolutePath)).inserted {
                files.append(file)
            }
        }
        return (files, diagnostics)
    }

    /// The argument without `./` prefixes and trailing slashes (but `/` stays `/`).
    private static func trimmedArgument(_ argument: String) -> String {
        var text = argument
        while text.hasPrefix("./"), text.count > 2 { text.removeFirst(2) }
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Relative component paths of YAML files under `directory`.
    private static func collect(in directory: String, prefix: [String], skipping: String?,
                                visited: inout Set<String>) -> [[String]] {
        guard visited.insert(FileSystem.canonical(directory)).inserted, let entries = FileSystem.entries(of: directory) else {
            return []
        }
        var result: [[String]] = []
        for entry in entries where !entry.hasPrefix(".") {
            let path = PathText.join(directory, entry)
            let kind = FileSystem.kind(of: path)
            if kind.isDirectory {
                if let skipping, FileSystem.canonical(path) == skipping { continue }
                result += collect(in: path, prefix: prefix + [entry], skipping: skipping, visited: &visited)
            } else if hasYAMLExtension(entry) {
                result.append(prefix + [entry])
            }
        }
        return result
    }

    static func hasYAMLExtension(_ name: String) -> Bool {
        extensions.contains { name.hasSuffix($0) }
    }

    static func withoutExtension(_ name: String) -> String {
        for suffix in extensions where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// The `environments` directory at or above the first path (the path itself, then its parents), as
    /// (displayed, absolute).
    static func environmentsDirectory(near firstPath: String, currentDirectory: String) -> (path: String, absolute: String)? {
        var directory = FileSystem.absolute(firstPath, from: currentDirectory)
        let kind = FileSystem.kind(of: directory)
        if !kind.isDirectory { directory = PathText.directory(of: directory) }
        while true {
            let candidate = PathText.join(directory, "environments")
            if FileSystem.kind(of: candidate).isDirectory {
                let display = firstPath.hasPrefix("/")
                    ? candidate : FileSystem.relative(candidate, to: FileSystem.absolute(".", from: currentDirectory))
                return (display, candidate)
            }
            if directory == "/" || directory.isEmpty { return nil }
            directory = PathText.directory(of: directory)
        }
    }
}
