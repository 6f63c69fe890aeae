import HTTPCore
import Testing
@testable import Expectations

@Suite struct JSONPathTests {
    static let document = try! JSONValue.parse(#"""
    {"store": {"book": [
        {"title": "A", "price": 8.95, "tags": ["x"]},
        {"title": "B", "price": 12, "isbn": "0-1"},
        {"title": "C\nD", "price": 22.99}
      ], "it's": {"a\tb": 1}},
     "empty": []}
    """#)

    @Test func selectsValuesWithNormalizedAndReadablePaths() throws {
        let nodes = try JSONPath("$.store.book[?@.price < 20].title").select(in: Self.document)
        #expect(nodes.map(\.value) == [.string("A"), .string("B")])
        #expect(nodes.map(\.normalizedPath) == ["$['store']['book'][0]['title']", "$['store']['book'][1]['title']"])
        #expect(JSONPathElement.readablePath(nodes[0].location) == "$.store.book[0].title")
        let odd = try JSONPath("$.store[\"it's\"]['a\\tb']").select(in: Self.document)
        #expect(odd.map(\.normalizedPath) == [#"$['store']['it\'s']['a\tb']"#])
        #expect(JSONPathElement.readablePath(odd[0].location) == #"$.store['it\'s']['a\tb']"#)
    }

    @Test func comparableValueIsAbsentSingleOrList() throws {
        #expect(try JSONPath("$.missing").comparableValue(in: Self.document) == nil)
        #expect(try JSONPath("$.store.book[1].price").comparableValue(in: Self.document) == .int(12))
        #expect(try JSONPath("$..price").comparableValue(in: Self.document)
                == .array([.double(8.95), .int(12), .double(22.99)]))
        #expect(try JSONPath("$.empty[*]").values(in: Self.document).isEmpty)
    }

    @Test func reportsSingularQueries() throws {
        #expect(try JSONPath("$.a[0]['b']").isSingular)
        #expect(try !JSONPath("$.a[*]").isSingular)
        #expect(try !JSONPath("$..a").isSingular)
    }

    @Test func evaluatesFunctionsAndIRegexp() throws {
        let titles = { (query: String) throws -> [JSONValue] in
            try JSONPath(query).values(in: Self.document).compactMap { $0 }
        }
        #expect(try titles("$.store.book[?length(@.title) == 3].price") == [.double(22.99)])
        #expect(try titles("$.store.book[?count(@.*) == 3].title") == [.string("A"), .string("B")])
        #expect(try titles("$.store.book[?match(@.title, 'C.D')].title").isEmpty, "'.' must not match a newline")
        #expect(try titles("$.store.book[?match(@.title, 'C[^a]D')].title") == [.string("C\nD")])
        #expect(try titles("$.store.book[?search(@.isbn, '-')].title") == [.string("B")])
        #expect(try titles("$.store.book[?value(@.tags[0]) == 'x'].title") == [.string("A")])
        #expect(try titles("$.store.book[?match(@.title, 'a{2,1}')].title").isEmpty, "invalid I-Regexp is false")
    }

    @Test func translatesIRegexpToICU() {
        #expect(IRegexpTranslator.icuPattern(for: "a.b", fullMatch: true) == "\\A(?:a[^\\n\\r]b)\\z")
        #expect(IRegexpTranslator.icuPattern(for: "[a-c\\]]+\\p{Lu}", fullMatch: false) == "[a-c\\x{5d}]+\\p{Lu}")
        #expect(IRegexpTranslator.icuPattern(for: "(a|b){2,}", fullMatch: false) == "(?:a|b){2,}")
        #expect(IRegexpTranslator.icuPattern(for: "\\d", fullMatch: false) == nil)
        #expect(IRegexpTranslator.icuPattern(for: "(?:a)", fullMatch: false) == nil)
        #expect(IRegexpTranslator.icuPattern(for: "[]", fullMatch: false) == nil)
        #expect(IRegexpTranslator.icuPattern(for: "\\p{IsBasicLatin}", fullMatch: false) == nil)
    }

    @Test(arguments: [
        ("", "a JSONPath query must start with '$'", 0),
        ("$.a ", "unexpected ' '", 3),
        ("$[01]", "leading zeros are not allowed", 2),
        ("$[-0]", "'-0' is not allowed", 2),
        ("$[9007199254740992]", "integer 9007199254740992 is outside the range ±(2^53 - 1)", 2),
        ("$.a[-9223372036854775808]", "integer -9223372036854775808 is outside the range ±(2^53 - 1)", 4),
        ("$[::-9223372036854775808]", "integer -9223372036854775808 is outside the range ±(2^53 - 1)", 4),
        ("$[1:2:-9223372036854775808]", "integer -9223372036854775808 is outside the range ±(2^53 - 1)", 6),
        ("$['a'", "expected ',' or ']' in bracketed selection, found end of query", 5),
        ("$['\\x']", "invalid escape sequence '\\x'", 3),
        ("$[?@.a]]", "unexpected ']'", 7),
        ("$[?length(@.*) == 1]", "argument of length() must be a single value, but the query is not singular", 10),
        ("$[?@.* == 1]", "a compared query must be singular", 3),
        ("$[?match(@.a, 'x') == true]", "match() returns a logical value, which cannot be compared", 3),
        ("$[?length(@.a)]", "length() returns a value, which must be compared, not used as a test", 3),
        ("$[?count(1) == 1]", "argument of count() must be a query", 9),
        ("$[?foo(@) == 1]", "unknown function 'foo'", 3),
        ("$[?1]", "a literal must be compared, not used as a test", 3),
        ("$[?@.a && 'x']", "a literal must be compared, not used as a test", 10),
        ("$[?@.a || (@.b == 1 && 2)]", "a literal must be compared, not used as a test", 23),
        ("$[?match(@.a)]", "match() takes 2 argument(s), got 1", 3),
        ("$. a", "expected a name or '*' after '.', found ' '", 2),
    ])
    func rejectsInvalidQueriesWithMessageAndOffset(query: String, message: String, offset: Int) {
        do {
            _ = try JSONPath(query)
            Issue.record("expected \(query) to be rejected")
        } catch {
            #expect(error.message == message)
            #expect(error.offset == offset)
            #expect(error.description.contains("at offset \(offset)"))
        }
    }
}
