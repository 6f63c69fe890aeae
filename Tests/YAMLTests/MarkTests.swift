import Testing
import YAML

@Suite struct MarkTests {
    @Test func keysAndScalarsCarryOneBasedLineAndColumn() throws {
        let root = try document("name: Arthur\nage: 42\n")
        let pairs = try #require(root.mapping)
        #expect(root.mark == Mark(1, 1))
        #expect(pairs.map(\.key.mark) == [Mark(1, 1), Mark(2, 1)])
        #expect(pairs.map(\.value.mark) == [Mark(1, 7), Mark(2, 6)])
    }

    @Test func nestedItemsCarryTheirOwnMarks() throws {
        let text = """
        request:
          headers:
            Accept: json
          tags:
            - a
            - { x: 1, y: [2, 3] }
        """
        let request = try value("request", in: text)
        #expect(request.mark == Mark(2, 3))
        let headers = try #require(request["headers"])
        #expect(headers.mark == Mark(3, 5))
        #expect(headers["Accept"]?.mark == Mark(3, 13))
        let tags = try #require(request["tags"]?.sequence)
        #expect(tags.map(\.mark) == [Mark(5, 7), Mark(6, 7)])
        #expect(tags[1]["x"]?.mark == Mark(6, 12))
        #expect(tags[1]["y"]?.sequence?.map(\.mark) == [Mark(6, 19), Mark(6, 22)])
    }

    @Test func multiLineScalarsAreMarkedAtTheirStart() throws {
        let text = "a: |\n  one\n  two\nb: plain\n  continued\nc: \"x\n  y\"\nd: end\n"
        let root = try document(text)
        #expect(root["a"]?.mark == Mark(1, 4))
        #expect(root["b"]?.mark == Mark(4, 4))
        #expect(root["b"]?.scalar?.text == "plain continued")
        #expect(root["c"]?.mark == Mark(6, 4))
        #expect(root["d"]?.mark == Mark(8, 4))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try document("é: [é, x]\nz: [😀, 1]\n")
        let pairs = try #require(root.mapping)
        #expect(pairs[0].value.sequence?.map(\.mark) == [Mark(1, 5), Mark(1, 8)])
        #expect(pairs[1].value.sequence?.map(\.mark) == [Mark(2, 5), Mark(2, 8)])
    }

    @Test func sequencesAreMarkedAtTheirFirstDash() throws {
        let root = try document("list:\n- a\n- b\nother:\n  - c\n")
        #expect(root["list"]?.mark == Mark(2, 1))
        #expect(root["list"]?.sequence?.map(\.mark) == [Mark(2, 3), Mark(3, 3)])
        #expect(root["other"]?.mark == Mark(5, 3))
    }

    @Test func aliasCopyIsMarkedAtTheAliasAndItsInsideAtTheAnchor() throws {
        let root = try document("a: &x [1]\nb: *x\n")
        let alias = try #require(root["b"])
        #expect(alias.mark == Mark(2, 4))
        #expect(alias.sequence?.first?.mark == Mark(1, 8))
    }

    @Test func windowsLineEndingsCountAsOneBreak() throws {
        let root = try document("a: 1\r\nb: 2\r\n")
        #expect(root["b"]?.mark == Mark(2, 4))
    }
}
