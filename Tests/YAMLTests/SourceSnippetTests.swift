import Testing
import YAML

@Suite struct SourceSnippetTests {
    @Test func caretPointsAtTheColumn() throws {
        let snippet = try #require(SourceSnippet(source: "a: 1\nname: [x\nc: 3\n", mark: Mark(2, 8)))
        #expect(snippet.line == "name: [x")
        #expect(snippet.caret == "       ^")
        #expect(snippet.rendered == "name: [x\n       ^")
    }

    @Test func tabsInTheLineAreKeptSoTheCaretAligns() throws {
        let snippet = try #require(SourceSnippet(source: "a:\n\t b: 1\n", mark: Mark(2, 3)))
        #expect(snippet.line == "\t b: 1")
        #expect(snippet.caret == "\t ^")
    }

    /// A control character (ESC, BEL, NUL) is shown as its escape, which would otherwise drive the terminal; the caret
    /// stays under the character it points at.
    @Test func controlCharactersAreShownAsEscapes() throws {
        let snippet = try #require(SourceSnippet(source: "a: x # \u{1B}]0;t\u{7}\u{0} y\n", mark: Mark(1, 13)))
        #expect(snippet.line == "a: x # \\u{1B}]0;t\\u{7}\\u{0} y")
        #expect(snippet.caret == String(repeating: " ", count: 17) + "^")
        // A bidirectional override or a line separator would make the line read other than it is.
        #expect(SourceSnippet(source: "a: \u{202E}x\u{2028}\n", mark: Mark(1, 1))?.line == "a: \\u{202E}x\\u{2028}")
    }

    /// Columns count characters; the caret stands under the text as a terminal draws it: wide characters (CJK, emoji)
    /// take two cells, a combining mark none (trial helper-186: the caret stood left of the value after CJK text).
    @Test func columnsCountCharactersAndTheCaretCountsCells() throws {
        let snippet = try #require(SourceSnippet(source: "é😀: x", mark: Mark(1, 5)))
        #expect(snippet.caret == "     ^")
        let japanese = try #require(SourceSnippet(source: "a: \"名前\", e\u{301}: y", mark: Mark(1, 14)))
        #expect(japanese.caret == String(repeating: " ", count: 14) + "^")
    }

    @Test func lineBreaksOfEveryKindAreRecognised() throws {
        #expect(SourceSnippet(source: "a\r\nbb\r\nc", mark: Mark(2, 2))?.line == "bb")
        #expect(SourceSnippet(source: "a\rbb\rc", mark: Mark(3, 1))?.line == "c")
    }

    @Test func markAfterTheEndOfALineOrFile() throws {
        let pastEnd = try #require(SourceSnippet(source: "ab\n", mark: Mark(1, 5)))
        #expect(pastEnd.caret == "    ^")
        let lastLine = try #require(SourceSnippet(source: "ab\n", mark: Mark(2, 1)))
        #expect(lastLine.line == "" && lastLine.caret == "^")
        #expect(SourceSnippet(source: "ab\n", mark: Mark(3, 1)) == nil)
        #expect(SourceSnippet(source: "ab", mark: Mark(0, 1)) == nil)
    }

    @Test func snippetOfAParseError() throws {
        let source = "a:\n  b: 1\n\tc: 2\n"
        let error = try #require(parseError(source))
        let snippet = try #require(SourceSnippet(source: source, mark: error.mark))
        #expect(snippet.rendered == "\tc: 2\n^")
    }

    @Test func aLongLineIsCutToAWindowWithTheCaretUnderTheMarkedCharacter() throws {
        let line = (0..<3000).map { String($0 % 10) }.joined() + "é"
        let snippet = try #require(SourceSnippet(source: "a: 1\n" + line + "\nb: 2\n", mark: Mark(2, 200), maxWidth: 20))
        #expect(snippet.line == "…90123456789012345678…")
        #expect(snippet.caret == String(repeating: " ", count: 11) + "^")
        let atTheEnd = try #require(SourceSnippet(source: line, mark: Mark(1, 3001), maxWidth: 20))
        #expect(atTheEnd.line == "…1234567890123456789é")
        #expect(atTheEnd.caret == String(repeating: " ", count: 20) + "^")
    }
}
