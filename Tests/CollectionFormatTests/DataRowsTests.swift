import Foundation
import Testing
@testable import CollectionFormat

/// `each:` data files: held to the limit of every file, and read into rows whose names are variables.
@Suite struct DataRowsTests {
    /// A request file whose rows come from `data` (a path under `requests/`).
    private func project(data: String, _ text: String) -> ScratchDirectory {
        let scratch = ScratchDirectory()
        scratch.write("requests/_data/" + data, text)
        scratch.write("requests/rows.yaml", "each: _data/\(data)\nrequest: { url: 'http://127.0.0.1:1/{{ a }}' }\n")
        return scratch
    }

    /// One byte over 1 MiB, for every kind of data file: an error at `each:` naming the file and the limit, and
    /// nothing of the file read into rows.
    @Test(arguments: ["big.csv", "big.json", "big.yaml"])
    func aDataFileOverTheLimitOfEveryFileIsAnErrorAtEach(_ name: String) async {
        let row = name.hasSuffix(".csv") ? "1\n" : "- { a: 1 }\n"
        let header = name.hasSuffix(".csv") ? "a\n" : ""
        let body = header + String(repeating: row, count: (1 << 20) / row.utf8.count + 1)
        let scratch = project(data: name, body)
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"])
        #expect(problems(of: collection) == [
            "requests/rows.yaml:1:7: error: each: file '_data/\(name)' has \(body.utf8.count) bytes, more than the limit of 1 MiB "
                + "for every file [help: split the rows over several data files, each named by its own request file]",
        ])
        #expect(collection.files.first?.rows == nil)
    }

    @Test func aDataFileWithinTheLimitIsRead() async {
        let scratch = project(data: "rows.csv", "a,b\n1,2\n3,4\n")
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"])
        #expect(problems(of: collection).isEmpty)
        #expect(collection.files.first?.rows?.columns == ["a", "b"])
        #expect(collection.requestCount() == 2)
    }

    /// A CSV file in another encoding (Latin-1 `ü`) is an error at the first byte that is not UTF-8, as a YAML file is,
    /// not values with replacement characters.
    @Test func aCSVFileThatIsNotUTF8IsAnErrorAtItsFirstBadByte() async throws {
        let scratch = project(data: "rows.csv", "")
        defer { scratch.remove() }
        try Data([UInt8]("a\nok\nM".utf8) + [0xFC] + [UInt8]("nchen\n".utf8)).write(to: URL(fileURLWithPath: scratch.root + "/requests/_data/rows.csv"))
        let collection = await scratch.readCollection(["requests"])
        #expect(problems(of: collection) == [
            "requests/_data/rows.csv:3:2: error: invalid UTF-8 (byte 0xFC) [help: save the file as UTF-8]",
        ])
    }

    /// A header of one column holding `;` (a spreadsheet's export in some locales) is most likely another separator.
    @Test func aSemicolonSeparatedCSVSaysFieldsAreSeparatedByCommas() async {
        let scratch = project(data: "rows.csv", "a;b\n1;2\n")
        defer { scratch.remove() }
        #expect(problems(of: await scratch.readCollection(["requests"])).first
                == "requests/_data/rows.csv:1:1: error: invalid column name 'a;b': column names are variable names "
                + "[help: fields are separated by commas, not ';']")
    }

    /// Quoted fields separated by `;` or a tab: the text after the first closing quote is the separator.
    @Test func quotedFieldsSeparatedBySemicolonsSayFieldsAreSeparatedByCommas() async {
        let scratch = project(data: "rows.csv", "\"id\";\"name\"\n1;x\n")
        defer { scratch.remove() }
        #expect(problems(of: await scratch.readCollection(["requests"]))
                == ["requests/_data/rows.csv:1:5: error: invalid CSV: text after the closing quote of a field "
                    + "[help: fields are separated by commas, not ';']"])
    }

    /// A `.json` data file is read as JSON: a missing comma, which YAML would read as part of a value, is an error there.
    @Test func aJSONDataFileWithAMissingCommaIsAnErrorInIt() async {
        let scratch = project(data: "rows.json", "[{\"a\":1 \"b\":2}]\n")
        defer { scratch.remove() }
        let found = problems(of: await scratch.readCollection(["requests"]))
        #expect(found.count == 1 && found.first?.hasPrefix("requests/_data/rows.json:1:9: error: invalid JSON: ") == true, "\(found)")
    }

    /// Raw U+0085, U+2028 and U+2029 are valid in JSON strings: a `.json` data file holding them is read with them (a
    /// YAML file is refused for them, as YAML's reader takes them for line breaks).
    @Test func aJSONDataFileHoldingLineSeparatorsIsReadWithThem() async throws {
        let scratch = project(data: "rows.json", "[{\"a\": \"p\u{85}q\u{2028}r\u{2029}s\"}, {\"a\": \"{{ nothere }}\"}]\n")
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"])
        let first = try #require(collection.files.first?.rows?.rows.first?.first)
        guard case .string(let template) = first.content else { Issue.record("\(first)"); return }
        #expect(template.literalText == "p\u{85}q\u{2028}r\u{2029}s")
        // Marks after them count the escapes YAML read in their place; the problem is still found in the file.
        #expect(problems(of: collection).count == 1 && problems(of: collection)[0].contains("requests/_data/rows.json:1:"), "\(problems(of: collection))")
    }

    @Test func aDuplicateCSVColumnIsAnErrorAtTheColumnNamingIt() async {
        let scratch = project(data: "rows.csv", "a,b,\"a\"\n1,2,3\n")
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"])
        #expect(problems(of: collection) == [
            "requests/_data/rows.csv:1:5: error: duplicate column name 'a': a row would hold two values for one variable "
                + "[help: give each column its own name]",
        ])
    }

    /// A column name that is not a variable name, and an empty one, are errors at the column; a name that is not a
    /// variable name is never suggested for an undefined variable (it could not be written in a template).
    @Test func invalidAndEmptyCSVColumnNamesAreErrorsAtTheColumnAndNeverSuggested() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/_data/rows.csv", "a,na me,,1x\n1,2,3,4\n")
        scratch.write("requests/rows.yaml", "each: _data/rows.csv\nrequest: { url: 'http://127.0.0.1:1/{{ a }}/{{ name }}' }\n")
        let collection = await scratch.readCollection(["requests"])
        #expect(problems(of: collection) == [
            "requests/_data/rows.csv:1:3: error: invalid column name 'na me': column names are variable names "
                + "[help: use letters, digits, '_' and '-', not starting with a digit]",
            "requests/_data/rows.csv:1:9: error: column 3 has no name: column names are variable names "
                + "[help: name the column, with letters, digits, '_' and '-', not starting with a digit]",
            "requests/_data/rows.csv:1:10: error: invalid column name '1x': column names are variable names "
                + "[help: use letters, digits, '_' and '-', not starting with a digit]",
            "requests/rows.yaml:2:45: error: undefined variable 'name' "
                + "[help: define it in the environment's 'variables', capture it in an earlier request, or pass --var name=VALUE]",
        ])
    }

    /// A row value is written in the data file: an undefined variable in it is located there, with its line quoted.
    @Test(arguments: [
        ("rows.yaml", "- a: ok\n- a: \"x {{ nothere }}\"\n", "requests/_data/rows.yaml:2:9", " 2 | - a: \"x {{ nothere }}\""),
        ("rows.json", "[{\"a\": \"ok\"},\n {\"a\": \"{{ nothere }}\"}]\n", "requests/_data/rows.json:2:9",
         " 2 |  {\"a\": \"{{ nothere }}\"}]"),
    ])
    func anUndefinedVariableInADataFileIsLocatedInTheDataFile(_ name: String, _ text: String, _ location: String,
                                                               _ line: String) async {
        let scratch = project(data: name, text)
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"])
        #expect(collection.diagnostics.map { $0.description.components(separatedBy: ": ")[0] } == [location])
        let rendered = DiagnosticRenderer.render(collection.diagnostics, sources: collection.sources, color: false)
        #expect(rendered.contains(line), "\(rendered)")
    }

    /// A request file or JSON data file saved in UTF-16 or UTF-32 is named so, its first line quoted as an editor shows
    /// it (not as its bytes read as UTF-8).
    @Test(arguments: [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian, .utf32, .utf32LittleEndian, .utf32BigEndian])
    func aWideFileIsQuotedAsItsEditorShowsIt(_ encoding: String.Encoding) async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/wide.yaml", "request:\n  url: http://127.0.0.1:1/x\n", encoding: encoding)
        scratch.write("requests/_data/rows.json", "[{\"a\": 1}]\n", encoding: encoding)
        scratch.write("requests/rows.yaml", "each: _data/rows.json\nrequest: { url: 'http://127.0.0.1:1/{{ a }}' }\n")
        let collection = await scratch.readCollection(["requests"])
        let rendered = DiagnosticRenderer.render(collection.diagnostics, sources: collection.sources, color: false)
        #expect(collection.diagnostics.count == 2, "\(rendered)")
        #expect(rendered.contains(" 1 | request:\n"), "\(rendered)")
        #expect(rendered.contains(" 1 | [{\"a\": 1}]\n"), "\(rendered)")
        #expect(!rendered.contains("\u{FFFD}") && !rendered.contains("\\u{0}"), "\(rendered)")
    }

    /// UTF-16 without a byte order mark whose first character is beyond Latin-1 is told by the NUL bytes the ASCII after
    /// it has (trial helper-152), and quoted as text.
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func aWideFileStartingBeyondLatin1IsNamed(_ encoding: String.Encoding) async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/wide.yaml", "名前: x\nrequest:\n  url: http://127.0.0.1:1/x\n", encoding: encoding)
        let collection = await scratch.readCollection(["requests"])
        let rendered = DiagnosticRenderer.render(collection.diagnostics, sources: collection.sources, color: false)
        #expect(collection.diagnostics.map(\.message) == ["the file is not UTF-8 but UTF-16: NUL bytes stand beside its characters, as in UTF-16"],
                "\(rendered)")
        #expect(rendered.contains(" 1 | 名前: x\n"), "\(rendered)")
    }

    /// A data file that cannot be read hides nothing else: the rest of its request file is checked (a variable it reads is
    /// not said to be undefined, as its columns are unknown), and its captures count for the files after it.
    @Test func aBrokenDataFileHidesNoOtherProblem() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write([
            "requests/_data/rows.json": "[{\"a\": 1},]\n",
            "requests/1.yaml": "each: _data/rows.json\nrequest:\n  url: 'http://127.0.0.1:1/{{ a }}'\n"
                + "capture:\n  token: $.t\nexpect:\n  headers: { X-A: '{{ nothere }}' }\n  schema: nothere.json\n",
            "requests/2.yaml": "request: { url: 'http://127.0.0.1:1/{{ token }}' }\n",
        ])
        let collection = await scratch.readCollection(["requests"])
        #expect(collection.diagnostics.map { $0.description.components(separatedBy: ": ")[0] }
                == ["requests/1.yaml:8:11", "requests/_data/rows.json:1:10"], "\(collection.diagnostics)")
    }

    /// Rows written inline are in the request file: an undefined variable in one is located there.
    @Test func anUndefinedVariableInInlineRowsIsLocatedInTheRequestFile() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/rows.yaml", "each:\n  - a: '{{ nothere }}'\nrequest: { url: 'http://127.0.0.1:1/{{ a }}' }\n")
        let collection = await scratch.readCollection(["requests"])
        #expect(collection.diagnostics.map { $0.description.components(separatedBy: ": ")[0] } == ["requests/rows.yaml:2:9"])
    }
}
