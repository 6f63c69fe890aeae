import Foundation
import HTTPCore
import Interop
import Testing
import YAML

/// The quoting both directions rely on: shell words that a shell reads back exactly, YAML scalars that keep their type.
@Suite struct ShellAndYAMLTextTests {
    /// What `shell` (`/bin/sh` unless given) prints for `printf %s WORD`, with `environment`.
    private static func shellPrints(_ word: String, environment: [String: String] = [:], shell: String = "/bin/sh") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", "printf %s " + word]
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: ["plain", "it's", "a b\tc", "$HOME `x` \\ \"q\"", "line\nbreak", "", "-x", "ü & *?[]"])
    func quotedWordsReadBackAsWritten(text: String) throws {
        #expect(try Self.shellPrints(ShellText.literal(text).quoted) == text)
    }

    /// A control character (ESC, CR, a bidirectional override) is not written as it is, which would drive the terminal
    /// the command is shown on, but as a `printf` of its bytes: the shell still passes it.
    @Test(arguments: ["esc \u{1B}[2J red", "\u{202E}bidi", "cr\rover", "bell\u{7}", "it's \u{1B}\u{9B}ü"])
    func controlCharactersAreWrittenAsEscapesAndReadBackAsWritten(text: String) throws {
        let quoted = ShellText.literal(text).quoted
        #expect(!quoted.unicodeScalars.contains(where: ControlCharacters.isControl), "\(quoted)")
        #expect(try Self.shellPrints(quoted) == text)
        #expect(!ShellText.comment(text).unicodeScalars.contains(where: ControlCharacters.isControl))
    }

    /// `$'…'` is read as bash reads it: an escape it does not know keeps its backslash, `\cX` is a control character,
    /// `\x` and `\u` without a digit stay as written, and a NUL character ends the quoted text.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")),
          arguments: [#"$'re\d+\z\8\9'"#, #"$'\cA\ca\c?\c[\c1\cz'"#, #"$'\c\\x'"#, #"$'\c\'x'"#, #"$'\c\n'"#, #"$'x\c'"#,
                      #"$'a\0b'cd"#, #"$'\x00'z"#, #"$'a\c@b'c"#, #"$'a\u0000b'"#, #"$'\x41\x'"#, #"$'\x{4142}'"#, #"$'\u\U'"#,
                      #"$'\u0041\u00e9\U0001F600'"#, #"$'\?\"\'\\\e'"#, #"$'\1010\8'"#])
    func ansiCQuotingReadsAsBashReadsIt(word: String) throws {
        let words = try #require(try ShellSplitter.commands(in: "curl " + word).first?.words)
        #expect(words.map(\.text) == ["curl", try Self.shellPrints(word, environment: ["LC_ALL": "C.UTF-8"], shell: "/bin/bash")])
    }

    @Test func placeholdersAndHiddenValuesBecomeVariableReferences() throws {
        var placeholders = ValuePlaceholders(nonce: "abc")
        placeholders.hiddenValues = [("s3cret-value", "API_SECRET")]
        let text = #"{"token":""# + placeholders.placeholder(for: "TOKEN") + #"","note":"has s3cret-value inside"}"#
        let word = placeholders.shellText(text)
        #expect(word.variables == ["TOKEN", "API_SECRET"])
        #expect(!word.quoted.contains("s3cret-value"))
        let printed = try Self.shellPrints(word.quoted, environment: ["TOKEN": "t'o k\"en", "API_SECRET": "X"])
        #expect(printed == #"{"token":"t'o k"en","note":"has X inside"}"#)
    }

    @Test(arguments: ["Pa ss'w\"ord$1", "back\\slash \\n", "line\nbreak\n\n", "tab\tü€\u{7}\u{1F}", "", "%41&=+/?#~-._"])
    func runTimeEncodingsGiveWhatRunnerWrites(value: String) throws {
        for encoding in ShellEncoding.allCases {
            let word = ShellText([.literal("<"), .variable("V", encoding), .literal(">")]).quoted
            #expect(try Self.shellPrints(word, environment: ["V": value]) == "<" + encoding.encode(value) + ">", "\(encoding)")
        }
    }

    @Test func hiddenValuesAreFoundInEveryFormAndEncodedAsFound() throws {
        var placeholders = ValuePlaceholders(nonce: "abc")
        let secret = "Pa ss'w\"ord"
        placeholders.hiddenValues = [(secret, "PW")]
        for encoding in ShellEncoding.allCases {
            let word = placeholders.shellText("[" + encoding.encode(secret) + "]")
            // Of encodings that write this value alike, the first.
            let found = ShellEncoding.allCases.first { $0.encode(secret) == encoding.encode(secret) } ?? encoding
            #expect(word.segments == [.literal("["), .variable("PW", found), .literal("]")], "\(encoding)")
            #expect(try Self.shellPrints(word.quoted, environment: ["PW": secret]) == "[" + encoding.encode(secret) + "]")
        }
    }

    /// A hidden value every encoding writes alike (letters only, at export time) is encoded as its place encodes
    /// values: the variable may hold anything when the command runs.
    @Test func aHiddenValueEveryEncodingWritesAlikeIsEncodedAsItsPlaceNeeds() throws {
        var placeholders = ValuePlaceholders(nonce: "abc")
        placeholders.hiddenValues = [("simple", "PW")]
        for place in ShellEncoding.allCases {
            #expect(placeholders.shellText("[simple]", encoding: place).segments == [.literal("["), .variable("PW", place), .literal("]")],
                    "\(place)")
        }
    }

    @Test func shellVariableNamesAreValid() {
        #expect(ShellText.variableName("user-id") == "user_id")
        #expect(ShellText.variableName("2fa") == "_2fa")
    }

    @Test(arguments: ["007", "true", "False", "null", "~", "a: b", "a #b", "-x", "", " lead", "trail ", "{{ x }}", "[1]",
                      "line\nbreak", "tab\there", "\u{85}", "ok", "https://x.example.com/a?b=c&d=e", "é"])
    func yamlScalarsReadBackAsTheSameString(text: String) throws {
        let document = YAMLNode.mapping([("key", .string(text))]).document
        let root = try #require(try YAMLParser.parse(Array(document.utf8)))
        guard case .mapping(let pairs) = root.content, let value = pairs.first?.value, case .scalar(let scalar) = value.content else {
            Issue.record("not a mapping of a scalar: \(document)")
            return
        }
        #expect(scalar.value == .string(text), "\(document)")
    }

    @Test func nestedValuesAreWrittenInBlockStyle() throws {
        let value = try JSONValue.parse(#"{"a":[1,{"b":[]},[2,3]],"c":{},"d":1.5}"#)
        #expect(YAMLNode.mapping([("json", .json(value))]).document == """
            json:
              a:
                - 1
                - b: []
                - - 2
                  - 3
              c: {}
              d: 1.5

            """)
    }
}
