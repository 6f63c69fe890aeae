import ArgumentParser
import CollectionFormat
import Commands

/// `runner schema`: the JSON Schema of request or environment files.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of request or environment files, for editors.",
        discussion: """
            yaml-language-server (the VS Code YAML extension and others) completes keys and flags mistakes with it: \
            save it in the repository and point a file at it with a first line \
            `# yaml-language-server: $schema=PATH`, or map it to files with `yaml.schemas`.
            """
    )

    @Argument(help: "Which files: request or environment.")
    var kind: FormatSchema.FileKind = .request

    func run() throws {
        try Schema(kind: kind).execute().end()
    }
}

extension FormatSchema.FileKind: ExpressibleByArgument {}

/// `runner init`: a starter collection in a directory.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter collection: requests/, environments/ local and qa, schemas for editors, a CI workflow.",
        discussion: "Existing files are never overwritten: when one exists, nothing is written and the exit status is 1."
    )

    @Argument(help: "The directory to write into (created when missing).")
    var directory: String = "."

    func run() throws {
        try Init(directory: directory).execute().end()
    }
}
