import Testing
import YAML

@Suite struct ErrorTests {
    @Test(arguments: [
        ("a:\n\tb: 1\n", Mark(2, 1)),
        ("a:\n  b: 1\n\tc: 2\n", Mark(3, 1)),
        ("a:\n  \tb: 1\n", Mark(2, 3)),
    ])
    func tabIndentationIsNamed(text: String, mark: Mark) throws {
        let error = try #require(parseError(text))
        #expect(error.kind == .syntax)
        #expect(error.mark == mark)
        #expect(error.message == "tab character used for indentation")
        #expect(error.suggestion?.hasPrefix("indent with spaces") == true)
    }

    /// A key at the column of a list's dashes that starts no item (a step's `expect:` outdented): the column of the item's
    /// keys, or a new item.
    @Test func aLineAtAListsDashesThatStartsNoItemIsToldWhereItsKeyGoes() throws {
        let error = try #require(parseError("steps:\n  -   name: X\n      request: { url: /u }\n  expect: { status: 200 }\n"))
        #expect(error.mark == Mark(4, 3))
        #expect(error.message.hasPrefix("did not find expected '-' indicator"))
        #expect(error.suggestion == "this line is at the column of the dashes of the list at line 2 but starts no item: indent it to "
            + "column 7, as the keys of the item above, or start a new item with '- '")
        // A dash alone on its line: its item's keys are on the lines below it.
        let alone = try #require(parseError("steps:\n  -\n    # the first\n    name: X\n  expect: {}\n"))
        #expect(alone.suggestion?.contains("indent it to column 5,") == true, "\(alone.suggestion ?? "")")
    }

    /// A key indented more than the key with a value above it reads as more of that value: start it at that key's column.
    @Test func aKeyIndentedMoreThanTheKeyAboveIsToldItsColumn() throws {
        let error = try #require(parseError("request:\n  url: /users\n   method: GET\n"))
        #expect(error.mark == Mark(3, 10))
        #expect(error.suggestion == "this line is indented more than 'url' above, so it reads as more of its value: start it at "
            + "column 3 to make it a key beside it, or quote a value that holds ': '")
        // A comment line between: the column of the mapping's keys.
        let commented = try #require(parseError("expect:\n  status: 200\n  # c\n    body: x\n"))
        #expect(commented.suggestion == "the keys of the mapping that starts at line 2 start at column 3: start this line there, "
            + "or under a key with nothing after its ':' to nest it")
        // Without a key and value above, the general help.
        #expect(try #require(parseError("a: b: c\n")).suggestion == "quote the value if it contains ': ', or check the indentation of this line")
    }

    /// An item indented past, or at, the keys of the item above is told the column of the list's dashes; a key between
    /// a mapping's keys and those of the lines above is told both columns (trial helper-131).
    @Test func anItemOrKeyIndentedBetweenLevelsIsToldTheColumnsItMayStartAt() throws {
        for indent in ["     ", "    "] {
            let item = try #require(parseError("steps:\n  - name: One\n    request: { url: /a }\n  # next\n\(indent)- name: Two\n"))
            #expect(item.suggestion?.hasSuffix("the keys of the item at line 2 (column 5): start its '-' at column 3, as the dashes "
                + "of that list, or under a key with nothing after its ':' to nest it") == true, "\(item.suggestion ?? "")")
        }
        // Past a key with a value above it (no comment between): the dashes of the list above (trial helper-134).
        let pastValue = try #require(parseError("steps:\n  - name: One\n    expect:\n      status: 200\n        - name: Two\n"))
        #expect(pastValue.suggestion == "this item is indented more than 'status' above, so it reads as more of its value: start "
            + "its '-' at column 3, as the dashes of the list at line 2", "\(pastValue.suggestion ?? "")")
        let between = try #require(parseError("steps:\n- name: One\n  request: { url: /a }\n expect: { status: 200 }\n"))
        #expect(between.suggestion == "the keys of the mapping that starts at line 1 start at column 1, those of the lines above at "
            + "column 3: start this line at one of them, or under a key with nothing after its ':' to nest it")
    }

    /// A key after an item written in braces (`- { name: One }`) goes inside them; after a `-` alone on its line, a key at
    /// its column leaves the item empty (trial helper-131).
    @Test func aKeyAfterABracedOrEmptyItemIsToldWhy() throws {
        for indent in ["    ", "  "] {
            let braced = try #require(parseError("steps:\n  - { name: One, request: { url: /a } }\n\(indent)expect: { status: 200 }\n"))
            #expect(braced.suggestion == "the item at line 2 is written in '{…', which holds all of it: move this line inside, or "
                + "write the item one key a line, indented past its '-'")
        }
        for dash in ["-", "- # note"] {
            let empty = try #require(parseError("steps:\n  - name: One\n  \(dash)\n  name: Two\n"))
            #expect(empty.suggestion == "the item at line 3 is empty: its keys start past its '-' (at column 5), on its line or the "
                + "lines below", "\(dash)")
        }
    }

    @Test func libyamlProblemsKeepTheirTextContextAndMark() throws {
        let unclosed = try #require(parseError("a: [1, 2\n"))
        #expect(unclosed.kind == .syntax)
        // One the file ends inside is located where it starts.
        #expect(unclosed.mark == Mark(1, 4))
        #expect(unclosed.message == "the file ends inside a flow sequence that starts here (did not find expected ',' or ']')")
        #expect(unclosed.suggestion == "close it with ']' where the value ends")

        let colon = try #require(parseError("a: b: c\n"))
        #expect(colon.mark == Mark(1, 5))
        #expect(colon.message == "mapping values are not allowed in this context")
        #expect(colon.suggestion != nil)

        let quote = try #require(parseError("é: \"open\n"))
        #expect(quote.mark == Mark(1, 4))
        #expect(quote.message == "the file ends inside a quoted scalar that starts here")
        #expect(quote.suggestion == "close the quote where the value ends")

        let token = try #require(parseError("key: @foo\n"))
        #expect(token.mark == Mark(1, 6))
        #expect(token.message == "found character that cannot start any token")
    }

    /// A `[` or `{` the file ends inside, which libyaml reports at the end without where it opens, is found in the text:
    /// the innermost one, not a bracket or a quote inside a plain scalar, a quoted one or a comment.
    @Test(arguments: [("tags: [\n", Mark(1, 7), "]"), ("a:\n  json: {a: 1,\n", Mark(2, 9), "}"), ("a: [[[{\n", Mark(1, 7), "}"),
                      ("u: \"/a[1]\" # it's [\nb: x[1]\nj: [1,\n   2,\n", Mark(3, 4), "]")])
    func aBracketTheFileEndsInsideIsFoundWhereItOpens(text: String, mark: Mark, closing: String) throws {
        let error = try #require(parseError(text))
        #expect(error.mark == mark, "\(error)")
        #expect(error.message.hasPrefix("the file ends inside a flow "), "\(error.message)")
        #expect(error.suggestion == "close it with '\(closing)' where the value ends")
    }

    /// A key glued to its value in a block mapping (`page:2`), which libyaml reads as a text starting a key on the next
    /// line or as a text that goes on there, is told at its colon.
    @Test(arguments: [("q:\n  size: 10\n  page:2\nh: x\n", Mark(3, 7)), ("h:\n  Accept: x\n  X-Trace:abc", Mark(3, 10)),
                      ("h:\n  Authorization:Bearer-x\n\n  Accept: x\n", Mark(2, 16))])
    func aKeyGluedToItsValueIsToldAtItsColon(text: String, mark: Mark) throws {
        let error = try #require(parseError(text))
        #expect(error.mark == mark, "\(error)")
        #expect(error.message == "this line reads as one text, not a key and its value: a key needs a space after its ':'")
        #expect(error.suggestion == "add a space after the ':'")
    }

    @Test func controlCharactersAreLocated() throws {
        expectError("a: 1\nb: x\u{1}\n", .syntax, at: Mark(2, 5), "control characters are not allowed")
    }

    @Test func duplicateKeyPointsAtTheSecondAndNamesTheFirstLine() throws {
        expectError("name: a\nurl: /x\nname: b\n", .duplicateKey, at: Mark(3, 1), "duplicate key \"name\" (first defined on line 1)")
    }

    /// Every duplicate key of a file is reported, in order, and a syntax error after them too: fixing one does not
    /// uncover the next.
    @Test func everyDuplicateKeyIsReportedAndWhatStoppedTheParseAfterThem() throws {
        let error = try #require(parseError("a: 1\nb:\n  x: 1\n  x: 2\na: 3\nc: [1\n"))
        #expect(([error] + error.more).map(\.description) == [
            "4:3: duplicate key \"x\" (first defined on line 3)", "5:1: duplicate key \"a\" (first defined on line 1)",
            "6:4: the file ends inside a flow sequence that starts here (did not find expected ',' or ']')",
        ])
        let alone = try #require(parseError("a: 1\nb: 2\nb: 3\n"))
        #expect(alone.more.isEmpty && alone.kind == .duplicateKey)
    }

    @Test func duplicateKeysAreFoundInLargeMappingsAndComparedByValue() throws {
        let many = (0..<20).map { "k\($0): \($0)" }.joined(separator: "\n")
        expectError(many + "\nk3: again\n", .duplicateKey, at: Mark(21, 1), "duplicate key \"k3\" (first defined on line 4)")
        // A third one names the first too, whether the second came before the mapping was indexed or after.
        for head in ["a: 1\na: 2\n", "a: 1\n"] {
            let thrice = try #require(parseError(head + many + "\na: 3\n"))
            #expect(([thrice] + thrice.more).allSatisfy { $0.description.hasSuffix("\"a\" (first defined on line 1)") }, "\(thrice.more)")
        }
        expectError("a:\n  x: 1\n  y: 2\n  'x': 3\n", .duplicateKey, at: Mark(4, 3))
        #expect(try YAMLParser.parse("1: a\n'1': b\n") != nil)
        #expect(parseError("~: a\nnull: b\n")?.kind == .duplicateKey)
        // Typed keys compare by value in small mappings too: same number or boolean written two ways.
        #expect(parseError("0x10: a\n16: b\n")?.kind == .duplicateKey)
        #expect(parseError("true: a\nTrue: b\n")?.kind == .duplicateKey)
        #expect(parseError("1.5: a\n1.50: b\n")?.kind == .duplicateKey)
        #expect(try YAMLParser.parse("1: a\n1.0: b\ntrue: c\n'true': d\nfalse: e\n.nan: f\n.nan: g\n") != nil)
        // Strings compare by code points, as JSON's keys do: canonically equivalent names are two keys (trial helper-205
        // B4), in a small mapping and in an indexed one.
        #expect(try YAMLParser.parse("\"e\\u0301\": 1\n\"\\u00e9\": 2\nK: 3\n\"\\u212a\": 4\n") != nil)
        #expect(try YAMLParser.parse(many + "\n\"e\\u0301\": 1\n\"\\u00e9\": 2\n") != nil)
    }

    @Test(arguments: [
        ("a: 1\n---\nb: 2\n", Mark(2, 1)),
        ("---\na: 1\n---\n", Mark(3, 1)),
        ("a: 1\n...\nb: 2\n", Mark(3, 1)),
    ])
    func aSecondDocumentIsRejectedAtItsStart(text: String, mark: Mark) {
        expectError(text, .multipleDocuments, at: mark, "a file holds one document, but a second document starts here")
    }

    @Test func undefinedAndSelfReferencingAliases() throws {
        expectError("a: 1\nb: *nope\n", .undefinedAlias, at: Mark(2, 4), "undefined alias *nope")
        expectError("a: &r [1, *r]\n", .undefinedAlias, at: Mark(1, 11))
    }

    @Test(arguments: [
        ("[a]: 1\n", YAMLError.Kind.nonScalarKey, Mark(1, 1), "a list cannot be used as a mapping key"),
        ("x: 1\n? {a: 1}\n: 2\n", .nonScalarKey, Mark(2, 3), "a mapping cannot be used as a mapping key"),
        ("s: &s [1]\n*s : 2\n", .nonScalarKey, Mark(2, 1), "a list cannot be used as a mapping key"),
        ("k: !!int foo", .tagMismatch, Mark(1, 4), "\"foo\" is not a valid value for tag !!int"),
        ("k: !!int 1.5", .tagMismatch, Mark(1, 4), "\"1.5\" is not a valid value for tag !!int"),
        ("k: !!float x", .tagMismatch, Mark(1, 4), "\"x\" is not a valid value for tag !!float"),
        ("k: !!bool yes", .tagMismatch, Mark(1, 4), "\"yes\" is not a valid value for tag !!bool"),
        ("k: !!null 0", .tagMismatch, Mark(1, 4), "\"0\" is not a valid value for tag !!null"),
        ("k:\n  - !!str [a]", .tagMismatch, Mark(2, 5), "tag !!str cannot be used on a list"),
        ("k: !!seq {a: 1}", .tagMismatch, Mark(1, 4), "tag !!seq cannot be used on a mapping"),
    ])
    func keysAndTagsThatDoNotFitAreRejected(text: String, kind: YAMLError.Kind, mark: Mark, message: String) {
        expectError(text, kind, at: mark, message)
    }

    @Test(arguments: [
        ([0x61, 0x3A, 0x20, 0xFF], Mark(1, 4), "0xFF"),
        (Array("a: 1\nbé: ".utf8) + [0xC3, 0x28], Mark(2, 5), "0xC3"),
        (Array("x: 😀".utf8) + [0xF0, 0x9F, 0x98], Mark(1, 5), "0xF0"),
        (Array("x: ".utf8) + [0xC0, 0xAF], Mark(1, 4), "0xC0"),
        (Array("x:\r\ny: ".utf8) + [0xED, 0xA0, 0x80], Mark(2, 4), "0xED"),
    ])
    func invalidUTF8IsLocatedAtTheFirstBadByte(bytes: [UInt8], mark: Mark, byte: String) throws {
        let error = try #require(parseError(bytes))
        #expect(error.kind == .invalidUTF8)
        #expect(error.mark == mark)
        #expect(error.message == "invalid UTF-8 (byte \(byte))")
    }

    /// A file saved as UTF-16 (with or without a byte order mark) is said to be UTF-16, not shown as bad bytes or
    /// control characters (trial helper-143).
    @Test(arguments: [
        ([0xFF, 0xFE, 0x61, 0x00], "its byte order mark is UTF-16's"),
        ([0xFE, 0xFF, 0x00, 0x61], "its byte order mark is UTF-16's"),
        ([0x61, 0x00, 0x3A, 0x00], "a NUL byte stands beside its first character, as in UTF-16"),
        ([0x00, 0x61, 0x00, 0x3A], "a NUL byte stands beside its first character, as in UTF-16"),
        ([0xFF, 0xFE, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00], "UTF-32: its byte order mark is UTF-32's"),
        ([0x61, 0x00, 0x00, 0x00, 0x3A, 0x00, 0x00, 0x00], "UTF-32: NUL bytes stand beside its first character, as in UTF-32"),
    ])
    func utf16IsNamed(bytes: [UInt8], why: String) throws {
        let error = try #require(parseError(bytes))
        #expect(error.kind == .invalidUTF8)
        #expect(error.mark == Mark(1, 1))
        #expect(error.message == "the file is not UTF-8 but " + (why.hasPrefix("UTF-32") ? why : "UTF-16: \(why)"))
        #expect(error.suggestion == "save the file as UTF-8")
    }

    @Test func inputOverTheSizeLimitIsRejectedAtTheStart() throws {
        let limits = Limits(maxInputBytes: 10)
        let error = try #require(parseError("a: 1234567890\n", limits: limits))
        #expect(error.kind == .tooLarge)
        #expect(error.mark == Mark(1, 1))
        #expect(error.message == "the input has 14 bytes, more than the limit of 10 bytes")
        #expect(try YAMLParser.parse("a: 123456", limits: limits) != nil)
    }

    @Test func errorDescriptionLeadsWithTheMark() throws {
        let error = try #require(parseError("a: 1\na: 2\n"))
        #expect(error.description == "2:1: duplicate key \"a\" (first defined on line 1)")
    }

    @Test(arguments: [
        ("a: \"p\u{85}q\"\n", Mark(1, 6), "a raw U+0085 NEXT LINE here would be read as a line break", "\\N"),
        ("# note\u{2028}x: [\nb: 1\n", Mark(1, 7), "a raw U+2028 LINE SEPARATOR here would be read as a line break", "\\L"),
        ("a: 1\nb: ü\u{2029}\n", Mark(2, 5), "a raw U+2029 PARAGRAPH SEPARATOR here would be read as a line break", "\\P"),
    ])
    func yaml11LineBreaksAreRefusedWhereTheyStand(text: String, mark: Mark, message: String, escape: String) throws {
        let error = try #require(parseError(text))
        #expect(error.kind == .ambiguousLineBreak)
        #expect(error.mark == mark)
        #expect(error.message == message)
        #expect(error.suggestion == "write it as \(escape) inside double quotes, or remove it")
    }

    @Test func yaml11LineBreaksWrittenAsEscapesAreTheirCharacters() throws {
        let node = try #require(try YAMLParser.parse("a: \"p\\Nq\\Lr\\Ps\"\n"))
        #expect(node["a"]?.string == "p\u{85}q\u{2028}r\u{2029}s")
    }

    /// A `]` or `}` that closes nothing is named so, not as a problem of indentation.
    @Test(arguments: [("headers: { A: b }}\n", "}", "{"), ("tags: [a]]\n", "]", "["), ("a: 1\n]\n", "]", "[")])
    func aStrayClosingBracketIsNamed(text: String, closing: String, opening: String) throws {
        let error = try #require(parseError(text))
        #expect(error.suggestion == "this '\(closing)' closes no '\(opening)': remove it, or add the '\(opening)' it should close",
                "\(error)")
    }

    /// A bracket closed with the other kind names the one open and how it closes.
    @Test func aBracketClosedWithTheOtherKindNamesTheOpenOne() throws {
        #expect(try #require(parseError("tags: [a, b}\n")).suggestion == "the '[' at line 1, column 7 is closed with ']', not '}'")
        #expect(try #require(parseError("json: { a: [1, 2 }\n")).suggestion == "the '[' at line 1, column 12 is closed with ']', not '}'")
    }

    /// A JSONPath with brackets unquoted in a flow mapping: the '[' starts a list there; the hint quotes the whole key.
    @Test(arguments: [("expect: { body: { $.items[*].id: 1 } }\n", "$.items[*].id"), ("b: { $.a[0]: 1, c: 2 }\n", "$.a[0]"),
                      ("q: [ x[1] ]\n", "x[1]"), ("b: { $.items[?(@.id == 1)].name: a }\n", "$.items[?(@.id == 1)].name")])
    func aBracketInsideAWordOfAFlowCollectionSaysToQuoteTheWord(text: String, word: String) throws {
        #expect(try #require(parseError(text)).suggestion
                == "quote the text that holds the '[': \"\(word)\" (inside '{ }' or '[ ]', a '[' starts a list, even within a word)")
    }
}
