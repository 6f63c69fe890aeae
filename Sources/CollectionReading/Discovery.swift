import CollectionFormat
import Foundation
import HTTPCore

/// A request file found under the paths of a run.
///
/// Compact, since a run keeps one for every file: the argument it was found under, shared by every file
/// found there, and its place under it; the paths are put together when asked for.
public struct DiscoveredFile: Sendable, Hashable {
    /// A path argument as displayed and as an absolute path.
    final class Root: Sendable {
        let display: String
        let absolute: String

        init(display: String, absolute: String) {
            self.display = display
            self.absolute = absolute
        }
    }

    private let root: Root
    /// The file's place under a directory argument; empty when the argument is the file itself.
    private let relative: String

    init(root: Root, relative: String) {
        self.root = root
        self.relative = relative
    }

    /// The path as displayed: the argument joined with the file's place under it.
    public var path: String { relative.isEmpty ? root.display : PathText.join(root.display, relative) }

    public var absolutePath: String { relative.isEmpty ? root.absolute : PathText.join(root.absolute, relative) }

    /// The file's path without extension, relative to the directory argument (or as given for a file).
    public var defaultName: String { Discovery.withoutExtension(relative.isEmpty ? root.display : relative) }

    public static func == (lhs: DiscoveredFile, rhs: DiscoveredFile) -> Bool {
        lhs.path == rhs.path && lhs.absolutePath == rhs.absolutePath
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(absolutePath) }
}

/// Finds request files and the environments directory.
enum Discovery {
    static let extensions = [".yaml", ".yml"]

    /// Hands `found` every .yaml/.yml file under the paths as it is found, each directory in lexical path
    /// order, skipping `skipping` (the environments directory) and hidden entries; returns the problems (a
    /// missing path, a directory that cannot be listed). A directory reached twice (through two arguments or
    /// links) is listed once; a file reached twice is handed on each time, and counts once when it is read (its
    /// identity comes with its contents, so the files of a directory are not stat'ed one by one here).
    static func requestFiles(_ paths: [String], currentDirectory: String, skipping: String?,
                             found: (DiscoveredFile) -> Void) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var visited: Set<FileSystem.FileIdentity> = []
        let skipped = skipping.flatMap(FileSystem.status)?.identity
        for argument in paths {
            let display = trimmedArgument(argument)
            let absolute = FileSystem.absolute(display, from: currentDirectory)
            guard let status = FileSystem.status(of: absolute) else {
                // A path one typo from a file or directory beside it (`requsts`) is told its name.
                let near = FileSystem.kind(of: absolute).exists ? nil : FileReference.didYouMean(absolute, written: display, directories: true)
                diagnostics.append(.error(FileSystem.unreadableReason(absolute), path: display, at: nil, suggestion: near))
                continue
            }
            // A file's path written with a `/` after it names a directory, as the system reads it.
            if !status.isDirectory, argument.hasSuffix("/") {
                diagnostics.append(.error("not a directory: '\(argument)' ends with '/', but names a file", path: display, at: nil,
                                          suggestion: "write '\(display)'"))
                continue
            }
            let root = DiscoveredFile.Root(display: display, absolute: absolute)
            if status.isDirectory {
                guard visited.insert(status.identity).inserted else { continue }
                var count = 0
                let problemsBefore = diagnostics.count
                collect(in: absolute, under: "", root: root, skipping: skipped, visited: &visited, problems: &diagnostics) { file in
                    count += 1
                    found(file)
                }
                if count == 0, diagnostics.count == problemsBefore, !hasAnyRequestFile(in: absolute, skipping: skipped) {
                    diagnostics.append(hasAnyRequestFile(in: absolute, skipping: skipped, includingUsedOnly: true)
                        ? .warning(onlyUsedFiles, path: display, at: nil,
                                   suggestion: "give the path of a flow that uses them, or take the '_' off a file that runs on its own")
                        : .warning("no .yaml or .yml files found in this directory", path: display, at: nil))
                }
            } else if isUsedOnly(PathText.lastComponent(of: display)) {
                diagnostics.append(.warning(usedFileGiven, path: display, at: nil))
            } else if hasYAMLExtension(display) || !status.isRegular || absolute.hasPrefix("/dev/") {
                // A pipe, a device or a stream named as an argument is read whatever its name: `runner run <(generate)`,
                // `/dev/stdin` (a regular file when the shell redirects one to it).
                found(DiscoveredFile(root: root, relative: ""))
            } else {
                diagnostics.append(.error("not a request file: expected a .yaml or .yml file", path: display, at: nil))
            }
        }
        return diagnostics
    }

    /// The warning for a directory whose YAML files are all used files (fragments).
    static let onlyUsedFiles = "its .yaml and .yml files are all used files (named with a leading '_', or in a '_' folder), "
        + "which run only where a flow uses them"
    /// The warning for a used file given as an argument.
    static let usedFileGiven = "not run on its own: a file whose name starts with '_' runs only where a flow uses it"

    /// Whether a problem of `requestFiles` says that used files (fragments) were skipped.
    static func skipsUsedFiles(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.path != nil && diagnostic.mark == nil && [onlyUsedFiles, usedFileGiven].contains(diagnostic.message)
    }

    /// The argument without `./` prefixes and trailing slashes (but `/` stays `/`).
    private static func trimmedArgument(_ argument: String) -> String {
        var text = argument
        while text.hasPrefix("./"), text.count > 2 { text.removeFirst(2) }
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Appends the YAML files under `directory` (whose place under the argument is `place`) in lexical
    /// order of their path components: entries sorted, each directory's files where its name sorts.
    /// With `includingUsedOnly`, files and folders whose names start with `_` are listed too.
    private static func collect(in directory: String, under place: String, root: DiscoveredFile.Root,
                                skipping: FileSystem.FileIdentity?, visited: inout Set<FileSystem.FileIdentity>,
                                includingUsedOnly: Bool = false, problems: inout [Diagnostic], found: (DiscoveredFile) -> Void) {
        guard let entries = FileSystem.visibleEntries(of: directory) else {
            // Its request files would silently not run.
            let code = errno
            let path = place.isEmpty ? root.display : PathText.join(root.display, place)
            problems.append(.error("cannot read the directory: \(SystemErrorText.words(code))", path: path, at: nil,
                                   suggestion: code == EACCES ? "check its permissions" : nil))
            return
        }
        for (entry, kind) in entries where includingUsedOnly || !isUsedOnly(entry) {
            let relative = place.isEmpty ? entry : place + "/" + entry
            switch kind {
            case .statted(let status?) where status.isDirectory:
                guard status.identity != skipping, visited.insert(status.identity).inserted else { continue }
                collect(in: PathText.join(directory, entry), under: relative, root: root, skipping: skipping,
                        visited: &visited, includingUsedOnly: includingUsedOnly, problems: &problems, found: found)
            case .statted(let status?) where !status.isRegular:
                // Reading a FIFO would wait for a writer; a socket or a device is no request file either.
                if hasYAMLExtension(entry) {
                    problems.append(.error("not a regular file (a FIFO, socket or device): request files found in a directory must be regular files",
                                           path: PathText.join(root.display, relative), at: nil,
                                           suggestion: "remove it, or name it as an argument to read it"))
                }
            case .nameNotUTF8(let isDirectory):
                // Its request files would silently not run.
                if isDirectory || hasYAMLExtension(entry) {
                    let what = isDirectory ? "directory's name is not UTF-8 (shown with U+FFFD where its bytes are not), so its files"
                        : "file's name is not UTF-8 (shown with U+FFFD where its bytes are not), so it"
                    problems.append(.error("the \(what) cannot be read", path: PathText.join(root.display, relative), at: nil,
                                           suggestion: "rename it with a UTF-8 name"))
                }
            case .file, .statted:
                // A request file that cannot be stat'ed (a broken link) is listed too, so reading it reports it.
                if hasYAMLExtension(entry) {
                    found(DiscoveredFile(root: root, relative: relative))
                } else if hasYAMLExtension(entry.lowercased()) {
                    // Saved as `.YAML` by an editor or another system: it would silently not run.
                    let suffix = extensions.first { entry.lowercased().hasSuffix($0) } ?? ""
                    problems.append(.warning("not read: request files end in .yaml or .yml, in lower case",
                                             path: PathText.join(root.display, relative), at: nil,
                                             suggestion: "rename it to '\(entry.dropLast(suffix.count) + suffix)' to run it"))
                }
            }
        }
    }

    /// Whether a directory holds any YAML file at all (also one found before through another argument), used files too
    /// with `includingUsedOnly`.
    private static func hasAnyRequestFile(in directory: String, skipping: FileSystem.FileIdentity?,
                                          includingUsedOnly: Bool = false) -> Bool {
        var visited: Set<FileSystem.FileIdentity> = [], problems: [Diagnostic] = []
        var any = false
        collect(in: directory, under: "", root: DiscoveredFile.Root(display: "", absolute: directory), skipping: skipping,
                visited: &visited, includingUsedOnly: includingUsedOnly, problems: &problems) { _ in any = true }
        return any
    }

    /// Whether a file or directory name starts with `_`: such files are fragments, run only where a flow uses them.
    static func isUsedOnly(_ name: String) -> Bool {
        name.hasPrefix("_")
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
