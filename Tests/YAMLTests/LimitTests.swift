import Testing
import YAML

@Suite struct LimitTests {
    @Test(arguments: [10_000, 100_000])
    func deepFlowSequencesFailFastAtTheFirstLevelTooDeep(levels: Int) throws {
        let text = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        expectError(text, .tooDeep, at: Mark(1, 257), "nesting is deeper than the limit of 256 levels")
    }

    @Test(arguments: [10_000, 100_000])
    func deepFlowMappingsFailFast(levels: Int) throws {
        let text = String(repeating: "{a: ", count: levels) + "1" + String(repeating: "}", count: levels)
        expectError(text, .tooDeep, at: Mark(1, 1 + 256 * 4))
    }

    @Test func deepBlockSequencesFailFast() throws {
        expectError(String(repeating: "- ", count: 10_000) + "x\n", .tooDeep, at: Mark(1, 1 + 256 * 2))
    }

    @Test func deepBlockMappingsAreMarkedAtTheMappingThatGoesTooDeep() throws {
        let text = (0..<300).map { String(repeating: " ", count: $0) + "a:" }.joined(separator: "\n")
        expectError(text, .tooDeep, at: Mark(257, 257))
    }

    @Test func nestingUpToTheLimitParses() throws {
        let limits = Limits(maxDepth: 3)
        #expect(try YAMLParser.parse("[[[1]]]", limits: limits) != nil)
        #expect(parseError("[[[[1]]]]", limits: limits)?.mark == Mark(1, 4))
    }

    @Test func aliasesCannotNestDeeperThanTheLimit() throws {
        let limits = Limits(maxDepth: 4)
        #expect(try YAMLParser.parse("a: &a [[[1]]]\n", limits: limits) != nil)
        expectError("a: &a [[[1]]]\nb: [*a]\n", .tooDeep, at: Mark(2, 5), limits: limits)
    }

    @Test func aliasExpansionIsCountedInNodesAgainstTheBudget() throws {
        let limits = Limits(maxAliasExpansion: 3)
        #expect(try YAMLParser.parse("a: &a [1, 2]\nb: *a\n", limits: limits) != nil)
        expectError("a: &a [1, 2]\nb: *a\nc: *a\n", .aliasBudgetExceeded, at: Mark(3, 4),
                    "aliases expand to more than 3 nodes", limits: limits)
    }

    @Test func billionLaughsIsRejectedBeforeItExpands() throws {
        var lines = ["a: &a [" + Array(repeating: "\"lol\"", count: 10).joined(separator: ", ") + "]"]
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }
        let text = lines.joined(separator: "\n") + "\n"
        var error: YAMLError?
        let elapsed = ContinuousClock().measure {
            error = parseError(text)
        }
        #expect(error?.kind == .aliasBudgetExceeded)
        #expect(error?.mark.line == 4)
        // A billion nodes would take minutes and gigabytes: the budget stops it after a few hundred. The ceiling is
        // generous, for a debug build on a busy machine.
        #expect(elapsed < .seconds(2))
    }

    @Test func nodesAreCountedAliasCopiesIncluded() throws {
        let limits = Limits(maxNodes: 5)
        #expect(try YAMLParser.parse("a: [1, 2]\n", limits: limits) != nil)
        expectError("a: [1, 2]\nb: 3\n", .tooLarge, at: Mark(2, 1), "the document has more than 5 nodes", limits: limits)
        expectError("a: &a [1]\nb: *a\n", .tooLarge, at: Mark(2, 4), "the document has more than 5 nodes", limits: limits)
    }

    @Test func aScalarOverTheLimitIsMarkedAtItsStart() throws {
        let limits = Limits(maxScalarBytes: 4)
        #expect(try YAMLParser.parse("a: 1234\n", limits: limits) != nil)
        expectError("a: b\nc: \"éé é\"\n", .tooLarge, at: Mark(2, 4), "this value has 7 bytes, more than the limit of 4 bytes",
                    limits: limits)
    }
}
