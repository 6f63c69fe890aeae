import Testing
@testable import CollectionFormat

/// `@Boxed` keeps an optional out of line with value semantics: copies share a box until one of them is set.
@Suite struct BoxedTests {
    private struct Holder {
        @Boxed var numbers: [Int]?
    }

    @Test func aValueReadsBackAndNilReadsBackToo() {
        var holder = Holder(numbers: nil)
        #expect(holder.numbers == nil)
        holder.numbers = [1, 2]
        #expect(holder.numbers == [1, 2])
        holder.numbers = nil
        #expect(holder.numbers == nil)
    }

    @Test func settingACopyLeavesTheOriginalAlone() {
        let original = Holder(numbers: [1])
        var copy = original
        copy.numbers?.append(2)
        #expect(original.numbers == [1])
        #expect(copy.numbers == [1, 2])
    }
}
