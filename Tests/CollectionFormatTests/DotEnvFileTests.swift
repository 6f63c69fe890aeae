import Foundation
import Testing
@testable import CollectionFormat
@testable import CollectionReading

/// `--env-file`: dotenv files read as docker compose and python-dotenv read them.
@Suite struct DotEnvFileTests {
    /// The name-value pairs of a dotenv text, in order.
    private func values(_ text: String, environment: ProcessEnvironment = [:], sourceLocation: SourceLocation = #_sourceLocation)
        -> [String: String] {
        let file = DotEnvFile(text: text, path: ".env", environment: environment)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)", sourceLocation: sourceLocation)
        return Dictionary(file.entries.map { ($0.name, $0.value) }) { $1 }
    }

    /// The one-line forms (`.env:line:col: error: message`) of a dotenv text's problems.
    private func problems(_ text: String) -> [String] {
        DotEnvFile(text: text, path: ".env").diagnostics.map(\.description)
    }

    @Test func readsNamesValuesCommentsBlankLinesAndExport() {
        let text = """
            # a comment
              # an indented comment

            PLAIN=value
            export EXPORTED=yes
            SPACED = around the equals sign   \t
            EMPTY=
            INLINE=value # a comment
            HASH=value#not-a-comment
            BLANK_THEN_HASH= # only a comment
            export=a name that is export
            """
        #expect(values(text) == ["PLAIN": "value", "EXPORTED": "yes", "SPACED": "around the equals sign", "EMPTY": "",
                                 "INLINE": "value", "HASH": "value#not-a-comment", "BLANK_THEN_HASH": "", "export": "a name that is export"])
    }

    @Test func singleQuotesAreLiteralAndDoubleQuotesReadEscapes() {
        let text = #"""
            SINGLE='a \n b # "c" ${HOME}'
            DOUBLE="tab\there \"quoted\" back\\slash \$HOME \x"  # a comment after the quotes
            EMPTY_QUOTES=""
            """#
        #expect(values(text, environment: ["HOME": "/root"]) == [
            "SINGLE": #"a \n b # "c" ${HOME}"#, "DOUBLE": "tab\there \"quoted\" back\\slash $HOME \\x", "EMPTY_QUOTES": "",
        ])
    }

    @Test func quotedValuesSpanLines() {
        let text = "KEY=\"-----BEGIN KEY-----\r\nline two\n-----END KEY-----\"\nAFTER='one\ntwo'\nLAST=1\n"
        #expect(values(text) == ["KEY": "-----BEGIN KEY-----\nline two\n-----END KEY-----", "AFTER": "one\ntwo", "LAST": "1"])
    }

    @Test func aLaterLineWinsAndReferencesExpandOutsideSingleQuotes() {
        let text = """
            HOST=example.com
            HOST=api.example.com
            URL=https://${HOST}/v1
            QUOTED="${HOST}:${PORT:-443}"
            LITERAL='${HOST}'
            DOLLAR=pa$$word$HOST
            FROM_PROCESS=${USER}
            """
        #expect(values(text, environment: ["USER": "qa"]) == [
            "HOST": "api.example.com", "URL": "https://api.example.com/v1", "QUOTED": "api.example.com:443",
            "LITERAL": "${HOST}", "DOLLAR": "pa$$word$HOST", "FROM_PROCESS": "qa",
        ])
    }

    @Test func anUnsetReferenceIsEmptyWithALocatedWarning() {
        let file = DotEnvFile(text: "A=x\nB=before ${NOT_SET} after\n", path: ".env")
        #expect(file.entries.map(\.value) == ["x", "before  after"])
        #expect(file.diagnostics.map(\.description) == [".env:2:10: warning: 'NOT_SET' is not set: '${NOT_SET}' is empty in this value"])
    }

    @Test func aReferenceToAProcessVariableThatIsNotUTF8IsALocatedErrorNotItsDefault() {
        let environment = ProcessEnvironment(["OTHER": "x"], notUTF8: ["TOKEN"])
        let file = DotEnvFile(text: "TOKEN=from-file\nB=\"${TOKEN:-fallback}\"\n", path: ".env", environment: environment)
        #expect(file.entries.map(\.value) == ["from-file", ""])
        #expect(file.diagnostics.map(\.description) == [
            ".env:2:4: error: the process environment's 'TOKEN' is not UTF-8 text (runner reads values as UTF-8: one with its "
                + "bytes replaced would send another value)",
        ])
    }

    @Test func eachRaggedLineIsALocatedErrorAndTheOthersAreRead() {
        let text = """
            GOOD=1
            NO_EQUALS_SIGN
            1ST=x
            TWO WORDS=x
            =no-name
            QUOTE="a" b
            UNCLOSED='abc
            ALSO_GOOD=2
            """
        #expect(problems(text) == [
            ".env:2:15: error: expected '=' after the variable name: a line is NAME=VALUE, a comment starts with '#'",
            ".env:3:1: error: invalid variable name '1ST'",
            ".env:4:5: error: expected '=' after the variable name 'TWO'",
            ".env:5:1: error: expected a variable name before '='",
            ".env:6:11: error: unexpected text after the closing \" of a double-quoted value",
            ".env:7:10: error: unterminated single-quoted value: no closing ' before the end of the file",
        ])
        #expect(DotEnvFile(text: text, path: ".env").entries.map(\.name) == ["GOOD", "ALSO_GOOD"])
    }

    @Test func columnsCountCharactersAfterTabsAndNonASCIIText() {
        #expect(problems("# ünïcödé\n\tKEY=\"grüße") == [
            ".env:2:6: error: unterminated double-quoted value: no closing \" before the end of the file",
        ])
    }

    @Test func theQuotedTextHidesValuesAndLinesThatDoNotParse() {
        let text = "export TOKEN=\"s3cr3t\" # the token\nPASTED-s3cr3t\nBAD NAME=s3cr3t\nOPEN='s3cr3t\n"
        let masked = DotEnvFile(text: text, path: ".env").maskedText
        #expect(!masked.contains("s3cr3t"), "\(masked)")
        #expect(masked == "export TOKEN=\"******\" # the token\n*************\nBAD ***********\nOPEN='******\n")
    }

    @Test func theProcessEnvironmentWinsOverFilesAndALaterFileWinsAmongThem() {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("first.env", "A=first\nB=first\nC=first\nEMPTY_IN_PROCESS=first\n")
        scratch.write("second.env", "B=second\nD=${C}-${A}\n")
        let (environment, diagnostics) = DotEnvFiles.environment(
            ["A": "process", "EMPTY_IN_PROCESS": ""], adding: ["first.env", "second.env"], currentDirectory: scratch.root,
            sources: SourceCache())
        #expect(diagnostics.isEmpty)
        #expect(environment.variables == ["A": "process", "B": "second", "C": "first", "D": "first-process", "EMPTY_IN_PROCESS": "first"])
        // Where each value a file gave was set: the later file's line, and none for what the process set.
        #expect(environment.origins == ["B": "second.env:1", "C": "first.env:3", "D": "second.env:2", "EMPTY_IN_PROCESS": "first.env:4"])
    }

    @Test func aMissingDirectoryOrNonUTF8FileIsAnErrorNamingIt() {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("folder.env/x", "")
        _ = FileManager.default.createFile(atPath: scratch.root + "/latin1.env", contents: Data([0x41, 0x3D, 0xE9]))
        _ = FileManager.default.createFile(atPath: scratch.root + "/utf16.env", contents: Data([0xFF, 0xFE, 0x41, 0x00, 0x3D, 0x00]))
        let sources = SourceCache()
        let (_, diagnostics) = DotEnvFiles.environment([:], adding: ["missing.env", "folder.env", "latin1.env", "utf16.env"],
                                                       currentDirectory: scratch.root, sources: sources)
        #expect(diagnostics.map(\.description) == [
            "missing.env: error: cannot read the --env-file: no such file",
            "folder.env: error: cannot read the --env-file: it is a directory",
            "latin1.env: error: cannot read the --env-file: it is not UTF-8 text",
            "utf16.env: error: cannot read the --env-file: it is not UTF-8 text but UTF-16: its byte order mark is UTF-16's",
        ])
        #expect(sources.paths.isEmpty)
    }
}
