import Testing
import HTTPCore

@Suite struct JSONTextPositionTests {
    static let text = Array("""
    {
      "a": {"x": "[{\\"}", "b/c": [10, {"d~e": true}]},
      "a": {"b/c": [1,
        2, "three"]},
      "\\u00e9": null
    }
    """.utf8)

    @Test(arguments: [
        ([], 1, 1),
        (["a"], 3, 8),
        (["a", "b/c"], 3, 16),
        (["a", "b/c", "2"], 4, 8),
        (["é"], 5, 13),
    ])
    func findsWhereThePointedValueStarts(tokens: [String], line: Int, column: Int) {
        #expect(JSONTextPosition.of(pointer: tokens, in: Self.text) == JSONTextPosition(line: line, column: column))
    }

    @Test func findsNothingWhereThePointerLeadsNowhere() {
        #expect(JSONTextPosition.of(pointer: ["missing"], in: Self.text) == nil)
        #expect(JSONTextPosition.of(pointer: ["a", "b/c", "3"], in: Self.text) == nil)
        #expect(JSONTextPosition.of(pointer: ["a", "b/c", "0", "x"], in: Self.text) == nil)
        #expect(JSONTextPosition.of(pointer: ["a"], in: Array("not json".utf8)) == nil)
    }

    /// One text's places, asked for many pointers in any order (each container scanned once), are those found alone.
    @Test func manyPointersIntoOneTextAreFoundAsEachAlone() {
        let places = JSONTextPlaces(Self.text)
        for tokens in [["a", "b/c", "2"], ["é"], [], ["a"], ["a", "b/c"], ["missing"], ["a", "b/c", "3"], ["a", "b/c", "0"]] {
            #expect(places.position(of: tokens) == JSONTextPosition.of(pointer: tokens, in: Self.text), "\(tokens)")
        }
        #expect(places.position(of: ["a", "b/c", "1"]) == JSONTextPosition(line: 4, column: 5))
    }
}
