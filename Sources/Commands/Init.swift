import Foundation
import Interop

/// `runner init [DIR]`: writes a starter collection, its schemas and a CI workflow; never overwrites a file.
public struct Init: Sendable {
    /// The directory to write into (created when missing).
    public var directory: String

    public init(directory: String = ".") {
        self.directory = directory
    }

    /// Writes every starter file, or nothing when any of them exists already.
    public func execute() -> ExitStatus {
        guard !directory.isEmpty, !directory.contains(where: \.isNewline) else {
            Console.error("error: runner init needs a directory name" + (directory.isEmpty ? "" : " without line breaks")
                + ", or none for the current directory, such as: runner init api-tests")
            return .badCommandLine
        }
        if let file = fileInTheWay() {
            let which = file == directory ? "'\(directory)' is a file" : "'\(file)', above '\(directory)', is a file"
            Console.error("error: runner init writes into a directory, but \(which), not a directory\n"
                + "give a directory that does not exist yet or holds no starter file, such as: runner init api-tests")
            return .badCommandLine
        }
        let files = StarterCollection.files
        // A link to nothing counts: writing there would create the file it names, elsewhere.
        let existing = files.map { place($0.path) }.filter { StagedFolder.kind(of: $0) != .none }
        guard existing.isEmpty else {
            Console.error("error: runner init overwrites nothing, and these files exist:\n"
                + existing.map { "  \($0)" }.joined(separator: "\n")
                + "\nrun it in an empty directory, or move them away")
            return .badCommandLine
        }
        // Staged and moved into place, so that a folder in the way or a permission refused leaves nothing half written.
        do {
            try StagedFolder.write(files.map { ($0.path, $0.text) }, into: URL(fileURLWithPath: directory),
                                   by: "runner init", hint: "move it away, or give another directory")
        } catch {
            Console.error("error: cannot write into '\(directory)': \(StagedFolder.reason(error))\nnothing was written")
            return .badCommandLine
        }
        for file in files { Console.out("wrote \(place(file.path))") }
        // `cd -- -x`: a folder whose name starts with `-` is not an option of `cd`.
        let prefix = directory == "." ? "" : "cd \(directory.hasPrefix("-") ? "-- " : "")\(ShellText.quote(directory)) && "
        Console.out("""

            Next: \(prefix)runner validate requests/ --env local
            Editors with yaml-language-server (such as VS Code's YAML extension) complete and check these files
            with the schemas in \(StarterCollection.schemaDirectory)/ (after an upgrade of runner,
            `runner schema request` and `runner schema environment` print them again).
            """)
        return .success
    }

    /// The directory, or the nearest folder above it that exists, when that is not a directory (a file): nothing can be
    /// written under it. nil when the directory exists or can be created.
    private func fileInTheWay() -> String? {
        var path = directory
        while !path.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return isDirectory.boolValue ? nil : path }
            let parent = (path as NSString).deletingLastPathComponent
            if parent == path { return nil }
            path = parent
        }
        return nil
    }

    /// A starter file's path inside the directory.
    private func place(_ path: String) -> String {
        directory == "." ? path : (directory as NSString).appendingPathComponent(path)
    }
}
