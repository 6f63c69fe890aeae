import ArgumentParser
import Commands

/// `runner import`: requests of other tools as request files.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Translate requests of other tools into request files.",
        subcommands: [ImportCurlCommand.self, ImportOpenAPICommand.self, ImportPostmanCommand.self]
    )
}

/// `runner import curl`: curl commands as request files.
struct ImportCurlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Translate curl commands (\"copy as cURL\" from a browser, or from docs) into request files.",
        discussion: """
            Options without an equivalent are listed on standard error with their place, never dropped silently. \
            Exit status: 0 written (or printed), 1 the input cannot be read or a file exists (see --force), \
            2 a command cannot be translated (nothing is written).
            """
    )

    @Argument(help: "A curl command in quotes, a file of curl commands (one per line, '\\' continues a line), or - for standard input.")
    var input: String

    @Option(help: "Write a request file here (one command), or a file per command into this directory; without it, print the YAML.")
    var out: String?

    @Flag(help: "Replace existing files.")
    var force = false

    @Flag(help: "Write each credential (a token, a password, a cookie, a key) as a reference to a secret, {{ token }}, not as it is; the secrets the environment must give are listed on standard error.")
    var secrets = false

    func run() throws {
        try ImportCurl(input: input, out: out, force: force, secrets: secrets).execute().end()
    }
}

/// `runner import openapi`: an OpenAPI document as a collection.
struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Translate an OpenAPI 3.0/3.1 document (YAML or JSON) into a request file per operation and an environment.",
        discussion: """
            Writes DIR/requests/FOLDER/NN-NAME.yaml per operation (in document order, each checked with expect.openapi) and \
            DIR/environments/NAME.yaml. What is not translated is listed on standard error with its place. Exit status: \
            0 written, 1 the document cannot be read or a file exists (see --force), 2 the document is not valid OpenAPI \
            (nothing is written).
            """
    )

    @Argument(help: "The OpenAPI document: a .yaml, .yml or .json file.")
    var spec: String

    @Option(help: "The directory to write the collection into.")
    var out: String

    @Flag(help: "Replace existing files.")
    var force = false

    func run() throws {
        try ImportOpenAPI(spec: spec, out: out, force: force).execute().end()
    }
}

/// `runner import postman`: a Postman collection and its environments as a folder of request and environment files.
struct ImportPostmanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Translate a Postman collection (v2.0, v2.1) and its environments into request files and environments.",
        discussion: """
            Folders become directories and requests files, numbered in the collection's order; the collection's variables \
            become environments/postman.yaml, each --environment environments/NAME.yaml (secrets read from the process \
            environment, never written). Test scripts' common checks become expect: and capture:; every script line, auth \
            or setting not translated is listed on standard error with its place. Exit status: 0 written, 1 a file cannot \
            be read or written or DIR exists (see --force), 2 the input cannot be translated (nothing is written).
            """
    )

    @Argument(help: "The collection, as Postman exports it (Collection v2.1 or v2.0, JSON).")
    var collection: String

    @Option(help: "The folder to write: a directory per folder, a file per request, and environments/.")
    var out: String

    @Option(name: .customLong("environment"), help: "A Postman environment export (JSON), written as environments/NAME.yaml; repeatable.")
    var environments: [String] = []

    @Flag(help: "Replace DIR when it exists (every file in it is removed).")
    var force = false

    func run() throws {
        try ImportPostman(collection: collection, out: out, environments: environments, force: force).execute().end()
    }
}

/// `runner export`: requests of a collection for other tools.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the requests of a collection for other tools.",
        subcommands: [ExportCurlCommand.self]
    )
}

/// `runner export curl`: every selected request as a curl command.
struct ExportCurlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Print each request as a curl command, in run order, with the environment applied.",
        discussion: """
            Secrets, captured values and {{ $env.NAME }} values are written as "$NAME" shell references, never their values; \
            a comment above each command says what each reference stands for.
            """
    )

    @OptionGroup var collection: CollectionArguments

    func run() async throws {
        try await ExportCurl(collection: collection.selection).execute().end()
    }
}
