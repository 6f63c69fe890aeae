import Foundation

/// `runner init [DIR]`: writes a starter collection, its schemas and a CI workflow; never overwrites a file.
public struct Init: Sendable {
    /// The directory to write into (created when missing).
    public var directory: String

    public init(directory: String = ".") {
        self.directory = directory
    }

    /// Writes every starter file, or nothing when any of them exists already.
    public func execute() -> ExitStatus {
        let files = StarterCollection.files
        let existing = files.map { place($0.path) }.filter { FileManager.default.fileExists(atPath: $0) }
        guard existing.isEmpty else {
            Console.error("error: runner init overwrites nothing, and these files exist:\n"
                + existing.map { "  \($0)" }.joined(separator: "\n")
                + "\nrun it in an empty directory, or move them away")
            return .badCommandLine
        }
        for file in files {
            let path = place(file.path)
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                Console.error("error: cannot write '\(path)': \(error.localizedDescription)")
                return .badCommandLine
            }
            Console.out("wrote \(path)")
        }
        let prefix = directory == "." ? "" : "cd \(directory) && "
        Console.out("""

            Next: \(prefix)runner validate requests/ --env local
            Editors with yaml-language-server (such as VS Code's YAML extension) complete and check these files
            with the schemas in \(StarterCollection.schemaDirectory)/ (after an upgrade of runner,
            `runner schema request` and `runner schema environment` print them again).
            """)
        return .success
    }

    /// A starter file's path inside the directory.
    private func place(_ path: String) -> String {
        directory == "." ? path : (directory as NSString).appendingPathComponent(path)
    }
}
