import Testing
import YAML

@Suite struct StructureTests {
    @Test func mappingsKeepSourceOrder() throws {
        let keys = ["zeta", "alpha", "mid", "beta", "a1", "a10", "a2", "omega", "k9", "k8", "k7"]
        let text = keys.enumerated().map { "\($1): \($0)" }.joined(separator: "\n")
        let pairs = try #require(try document(text).mapping)
        #expect(pairs.map { $0.key.scalar?.text } == keys)
        #expect(pairs.map { $0.value.scalar?.value } == keys.indices.map { .int($0) })
    }

    @Test func sequencesHoldTheirItemsInOrder() throws {
        let items = try #require(try value("k", in: "k: [1, two, 3.5, null, [x], {y: z}]").sequence)
        #expect(items.map(\.kindName) == ["number", "string", "number", "null", "list", "mapping"])
    }

    @Test func anchorsAndAliasesYieldCopiesOfTheAnchoredNode() throws {
        let root = try document("""
        base: &base
          url: /users
          retries: 3
        copy: *base
        name: &n Arthur
        names: [*n, *n]
        """)
        #expect(root["copy"]?["url"]?.string == "/users")
        #expect(root["copy"]?["retries"]?.scalar?.value == .int(3))
        #expect(root["names"]?.sequence?.map(\.string) == ["Arthur", "Arthur"])
        #expect(root["names"]?.sequence?.map(\.mark) == [Mark(6, 9), Mark(6, 13)])
    }

    @Test func aLaterAnchorWithTheSameNameReplacesTheEarlierOne() throws {
        let root = try document("a: &x one\nb: *x\nc: &x two\nd: *x\n")
        #expect(root["b"]?.string == "one")
        #expect(root["d"]?.string == "two")
    }

    @Test func mergeKeyIsAnOrdinaryKey() throws {
        let root = try document("base: &b {x: 1}\nchild:\n  <<: *b\n  y: 2\n")
        let child = try #require(root["child"]?.mapping)
        #expect(child.map { $0.key.scalar?.text } == ["<<", "y"])
    }

    @Test(arguments: ["", "\n\n", "   \n", "# only a comment\n", "# one\n\n  # two\n"])
    func emptyOrCommentOnlyInputHasNoDocument(text: String) throws {
        #expect(try YAMLParser.parse(text) == nil)
        #expect(try YAMLParser.parse(Array(text.utf8)) == nil)
    }

    @Test func anExplicitEmptyDocumentIsNull() throws {
        #expect(try document("---\n").isNull)
    }

    @Test func aLeadingByteOrderMarkIsIgnored() throws {
        let root = try document("\u{FEFF}a: 1\n")
        #expect(root["a"]?.mark == Mark(1, 4))
    }

    @Test func oneDocumentWithMarkersParses() throws {
        let root = try document("%YAML 1.2\n---\na: 1\n...\n")
        #expect(root["a"]?.scalar?.value == .int(1))
    }

    @Test func accessorsAnswerOnlyForTheirKind() throws {
        let root = try document("m: {a: 1}\ns: [1]\nt: text\nb: true\n")
        #expect(root.mapping?.count == 4)
        #expect(root.sequence == nil && root.scalar == nil && root.string == nil)
        #expect(root["s"]?.sequence?.count == 1 && root["s"]?["a"] == nil)
        #expect(root["t"]?.string == "text")
        #expect(root["b"]?.string == nil && root["b"]?.kindName == "boolean")
        #expect(root["missing"] == nil)
    }

    @Test func scalarTextAndNullAnswerForScalarsOnly() throws {
        let root = try document("t: 'text'\nn: 012\nz: ~\ne:\nm: {a: 1}\nl: [x]\n")
        #expect(root["t"]?.scalarText == "text" && root["n"]?.scalarText == "012")
        #expect(root["z"]?.scalarText == "~" && root["e"]?.scalarText == "")
        #expect(root["m"]?.scalarText == nil && root["l"]?.scalarText == nil && root.scalarText == nil)
        #expect(root["z"]?.isNull == true && root["e"]?.isNull == true)
        #expect(root["t"]?.isNull == false && root["m"]?.isNull == false && root["l"]?.isNull == false)
    }
}

/// Documents far larger than libyaml's input buffer, with characters of several bytes across its chunk boundaries,
/// more tokens than its first queue and deeper nesting than its first stacks, parse whole with their marks.
@Suite struct LargeInputTests {
    @Test func aLargeDocumentWithMultibyteTextParsesWholeWithItsMarks() throws {
        let count = 3_000
        let lines = (0..<count).map { "ключ-\($0): \"値 \($0) ✓ é\"" }
        let pairs = try #require(try document(lines.joined(separator: "\n")).mapping)
        #expect(pairs.count == count)
        for index in [0, 1, 17, 999, 2_048, count - 1] {
            #expect(pairs[index].key.string == "ключ-\(index)")
            #expect(pairs[index].value.string == "値 \(index) ✓ é")
            let keyColumns = "ключ-\(index): ".count
            #expect(pairs[index].value.mark == Mark(index + 1, keyColumns + 1))
        }
    }

    @Test func nestingDeeperThanTheFirstStacksParses() throws {
        let depth = 100
        let text = String(repeating: "[", count: depth) + "deep" + String(repeating: "]", count: depth)
        var node = try document(text)
        for _ in 0..<depth { node = try #require(node.sequence?.first) }
        #expect(node.string == "deep")
        #expect(node.mark == Mark(1, depth + 1))
    }

    @Test func aLongScalarCrossingManyChunksKeepsEveryCharacter() throws {
        let text = String(repeating: "añ✓𝄞", count: 5_000)
        #expect(try value("k", in: "k: \(text)\nnext: 1").string == text)
    }
}
