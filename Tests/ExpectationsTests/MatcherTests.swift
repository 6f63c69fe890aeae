import HTTPCore
import Testing
@testable import Expectations

@Suite struct MatcherTests {
    typealias M = Matcher<JSONValue>

    /// A case: matcher, actual value (nil = absent), and the failure message (nil = holds).
    struct Case: Sendable, CustomTestStringConvertible {
        let matcher: M
        let actual: JSONValue?
        let failure: String?
        var testDescription: String { "\(matcher.expectation) vs \(actual?.serialized() ?? "absent")" }
    }

    static let list = JSONValue.array([.int(1), .string("a"), .array([.int(2)])])
    static let object = JSONValue.object(JSONObject([("k", .int(1)), ("l", .int(2))]))

    static let cases: [Case] = [
        Case(matcher: .equals(.int(1)), actual: .double(1.0), failure: nil),
        Case(matcher: .equals(object), actual: .object(JSONObject([("l", .int(2)), ("k", .double(1))])), failure: nil),
        Case(matcher: .equals(.string("x")), actual: .string("y"), failure: #"expected "x", got "y""#),
        // Strings compare by code points, as JSON's do: `é` composed is not `e` and a combining accent (trial helper-203 F13),
        // and the failure says why two strings that look alike differ.
        Case(matcher: .equals(.string("\u{E9}")), actual: .string("e\u{301}"),
             failure: "expected \"\u{E9}\", got \"e\u{301}\" (the same letters in another Unicode form (composed or decomposed: U+00E9 and "
                + "U+0065 U+0301): JSON compares code points)"),
        Case(matcher: .in([.string("\u{E9}")]), actual: .string("e\u{301}"),
             failure: "expected one of [\"\u{E9}\"], got \"e\u{301}\" (the same letters in another Unicode form (composed or decomposed: "
                + "U+00E9 and U+0065 U+0301): JSON compares code points)"),
        // So do the string operators (trial helper-204 A3): a decomposed é starts with e, not with é; the Kelvin sign is no K.
        Case(matcher: .startsWith(.string("e")), actual: .string("e\u{301}"), failure: nil),
        Case(matcher: .endsWith(.string("\u{301}")), actual: .string("e\u{301}"), failure: nil),
        Case(matcher: .notContains(.string("\u{E9}")), actual: .string("e\u{301}"), failure: nil),
        Case(matcher: .startsWith(.string("K")), actual: .string("\u{212A}"),
             failure: "expected a value starting with \"K\", got \"\u{212A}\" (by code points; as letters it would hold (another Unicode "
                + "form, composed or decomposed: U+004B in U+212A): JSON compares code points)"),
        Case(matcher: .contains(.string("\u{E9}")), actual: .string("caf\u{E9}s"), failure: nil),
        // Members whose names are canonically equivalent are two members, as JSON reads them (trial helper-204 A4).
        Case(matcher: .length(.equals(.int(4))), actual: try! JSONValue.parse(#"{"e\u0301": 1, "\u00e9": 2, "K": 3, "\u212a": 4}"#),
             failure: nil),
        // Lengths count Unicode scalars, as JSONPath's length() and JSON Schema do (F5).
        Case(matcher: .length(.equals(.int(2))), actual: .string("e\u{301}"), failure: nil),
        Case(matcher: .equals(.int(1)), actual: nil, failure: "expected 1, got nothing"),
        Case(matcher: .notEquals(.int(1)), actual: .int(2), failure: nil),
        Case(matcher: .notEquals(.int(1)), actual: .double(1), failure: "expected a value other than 1, got 1.0"),
        Case(matcher: .lessThan(.int(5)), actual: .double(4.5), failure: nil),
        // An integer against a double is compared exactly: 2^63 (a body's 9223372036854775808) is above every integer,
        // and a number past a double's range (1e400) is shown as a number, not as null.
        Case(matcher: .equals(.int(.max)), actual: .double(9_223_372_036_854_775_808.0),
             failure: "expected 9223372036854775807, got 9.223372036854776e+18"),
        Case(matcher: .lessThanOrEqual(.int(.max)), actual: .double(9_223_372_036_854_775_808.0),
             failure: "expected a value less than or equal to 9223372036854775807, got 9.223372036854776e+18"),
        Case(matcher: .greaterThan(.int(.max)), actual: .double(9_223_372_036_854_775_808.0), failure: nil),
        Case(matcher: .notEquals(.int(.max)), actual: .double(9_223_372_036_854_775_808.0), failure: nil),
        Case(matcher: .in([.int(.max)]), actual: .double(9_223_372_036_854_775_808.0),
             failure: "expected one of [9223372036854775807], got 9.223372036854776e+18"),
        Case(matcher: .greaterThan(.int(9_007_199_254_740_992)), actual: .double(9_007_199_254_740_993.5), failure: nil),
        Case(matcher: .lessThan(.int(-9_007_199_254_740_993)), actual: .double(-9_007_199_254_740_992.0), failure:
             "expected a value less than -9007199254740993, got -9007199254740992.0"),
        Case(matcher: .equals(.null), actual: .double(.infinity), failure: "expected null, got 1e999"),
        Case(matcher: .lessThan(.int(5)), actual: .int(5), failure: "expected a value less than 5, got 5"),
        Case(matcher: .lessThan(.int(5)), actual: .string("4"),
             failure: #"expected a value less than 5, got "4" (a string and a number 5 cannot be ordered)"#),
        // A bound of digits from text (a --var) orders a number by value; a word does not, and says so.
        Case(matcher: .greaterThan(.string("3")), actual: .int(5), failure: nil),
        Case(matcher: .lessThan(.string("10")), actual: .double(9.5), failure: nil),
        // Leading zeros (a zero-padded --var) order by value; an equality keeps such text as text.
        Case(matcher: .greaterThan(.string("0100")), actual: .int(200), failure: nil),
        Case(matcher: .lessThan(.string("-007")), actual: .int(-8), failure: nil),
        // ... and a failure shows the bound as the number it was compared as.
        Case(matcher: .greaterThan(.string("300")), actual: .int(200), failure: "expected a value greater than 300, got 200"),
        Case(matcher: .not(.lessThanOrEqual(.string("3"))), actual: .int(2), failure: "expected a value not less than or equal to 3, got 2"),
        Case(matcher: .greaterThan(.string("many")), actual: .int(5),
             failure: #"expected a value greater than "many", got 5 (a number and a string "many" cannot be ordered)"#),
        Case(matcher: .lessThanOrEqual(.int(5)), actual: .int(5), failure: nil),
        Case(matcher: .lessThanOrEqual(.int(5)), actual: .int(6), failure: "expected a value less than or equal to 5, got 6"),
        Case(matcher: .greaterThan(.int(5)), actual: .int(6), failure: nil),
        Case(matcher: .greaterThan(.int(5)), actual: .int(3), failure: "expected a value greater than 5, got 3"),
        Case(matcher: .greaterThan(.string("abc")), actual: .string("abd"), failure: nil),
        Case(matcher: .greaterThanOrEqual(.double(2.5)), actual: .double(2.5), failure: nil),
        Case(matcher: .greaterThanOrEqual(.int(3)), actual: nil,
             failure: "expected a value greater than or equal to 3, got nothing"),
        Case(matcher: .contains(.string("ell")), actual: .string("hello"), failure: nil),
        Case(matcher: .contains(.array([.int(2)])), actual: list, failure: nil),
        Case(matcher: .contains(.int(3)), actual: list,
             failure: #"expected a value containing 3, got [1,"a",[2]]"#),
        Case(matcher: .contains(.string("z")), actual: .int(1), failure: #"expected a value containing "z", got 1 (a number: contains reads a string or a list)"#),
        Case(matcher: .notContains(.string("z")), actual: .string("abc"), failure: nil),
        Case(matcher: .notContains(.string("a")), actual: list, failure: #"expected a value not containing "a", got [1,"a",[2]]"#),
        Case(matcher: .startsWith(.string("he")), actual: .string("hello"), failure: nil),
        Case(matcher: .startsWith(.string("lo")), actual: .string("hello"),
             failure: #"expected a value starting with "lo", got "hello""#),
        Case(matcher: .endsWith(.string("lo")), actual: .string("hello"), failure: nil),
        Case(matcher: .endsWith(.string("he")), actual: .string("hello"),
             failure: #"expected a value ending with "he", got "hello""#),
        // Operators that read text take a number or boolean operand (a template's value) as its text.
        Case(matcher: .startsWith(.int(1)), actual: .string("1-x"), failure: nil),
        Case(matcher: .endsWith(.double(2.0)), actual: .string("id-2"), failure: nil),
        Case(matcher: .contains(.bool(true)), actual: .string("is true"), failure: nil),
        Case(matcher: .matches(.int(42)), actual: .string("id-42"), failure: nil),
        Case(matcher: .startsWith(.int(1)), actual: .int(12), failure: "expected a value starting with 1, got 12 (a number: startsWith reads a string)"),
        Case(matcher: .matches(.string("^h.l+o$")), actual: .string("hello"), failure: nil),
        Case(matcher: .matches(.string("[0-9]+")), actual: .string("id-42"), failure: nil),
        Case(matcher: .matches(.string("^[0-9]+$")), actual: .string("id-42"),
             failure: #"expected a value matching "^[0-9]+$", got "id-42""#),
        Case(matcher: .exists(true), actual: .null, failure: nil),
        Case(matcher: .exists(true), actual: nil, failure: "expected a value, got nothing"),
        Case(matcher: .exists(false), actual: nil, failure: nil),
        Case(matcher: .exists(false), actual: .int(1), failure: "expected no value, got 1"),
        Case(matcher: .type(.integer), actual: .double(3.0), failure: nil),
        Case(matcher: .type(.integer), actual: .double(3.5), failure: "expected a value of type integer, got 3.5"),
        Case(matcher: .type(.number), actual: .int(3), failure: nil),
        Case(matcher: .type(.string), actual: .string(""), failure: nil),
        Case(matcher: .type(.boolean), actual: .null, failure: "expected a value of type boolean, got null"),
        Case(matcher: .type(.array), actual: list, failure: nil),
        Case(matcher: .type(.object), actual: object, failure: nil),
        Case(matcher: .type(.null), actual: .null, failure: nil),
        Case(matcher: .length(.equals(.int(5))), actual: .string("héllo"), failure: nil),
        Case(matcher: .length(.equals(.int(3))), actual: list, failure: nil),
        Case(matcher: .length(.equals(.int(2))), actual: object, failure: nil),
        Case(matcher: .length(.equals(.int(3))), actual: .string("ab"),
             failure: #"expected a value with length 3, got "ab" (length 2)"#),
        Case(matcher: .length(.greaterThan(.int(2))), actual: .array([]),
             failure: "expected a value with length greater than 2, got [] (length 0)"),
        Case(matcher: .length(.equals(.int(1))), actual: .int(7), failure: "expected a value with length 1, got 7 (it has no length)"),
        // A length given as text of digits (a `--var`, a data row, a quoted template) compares as the number.
        Case(matcher: .length(.equals(.string("3"))), actual: .string("abc"), failure: nil),
        Case(matcher: .length(.in([.string("2"), .string("3")])), actual: list, failure: nil),
        Case(matcher: .length(.greaterThan(.string("10"))), actual: .string("abc"),
             failure: #"expected a value with length greater than "10", got "abc" (length 3)"#),
        Case(matcher: .length(.equals(.string("4"))), actual: .string("abc"), failure: #"expected a value with length "4", got "abc" (length 3)"#),
        Case(matcher: .length(.equals(.string("03"))), actual: .string("abc"), failure: nil),
        Case(matcher: .length(.equals(.string("3.0"))), actual: .string("abc"), failure: nil),
        // Text that is no number cannot be ordered with a length, under `not` too.
        Case(matcher: .length(.lessThan(.string("abc"))), actual: list,
             failure: #"expected a value with length less than "abc", got [1,"a",[2]] (length 3: "abc" is not a length)"#),
        Case(matcher: .length(.equals(.string("abc"))), actual: list,
             failure: #"expected a value with length "abc", got [1,"a",[2]] (length 3: "abc" is not a length)"#),
        Case(matcher: .not(.length(.equals(.string("abc")))), actual: list,
             failure: #"expected a value whose length is not "abc", got [1,"a",[2]] ("abc" is not a length)"#),
        Case(matcher: .not(.length(.greaterThan(.string("abc")))), actual: list,
             failure: #"expected a value whose length is not greater than "abc", got [1,"a",[2]] ("abc" is not a length)"#),
        Case(matcher: .in([.int(1), .string("a")]), actual: .string("a"), failure: nil),
        Case(matcher: .in([.int(1), .string("a")]), actual: .int(2), failure: #"expected one of [1,"a"], got 2"#),
        Case(matcher: .isEmpty(true), actual: .string(""), failure: nil),
        Case(matcher: .isEmpty(true), actual: list, failure: #"expected a value that is empty, got [1,"a",[2]]"#),
        Case(matcher: .isEmpty(false), actual: object, failure: nil),
        Case(matcher: .isEmpty(false), actual: .array([]), failure: "expected a value that is not empty, got []"),
        Case(matcher: .each(.type(.integer)), actual: .array([.int(1), .int(2)]), failure: nil),
        Case(matcher: .each(.greaterThan(.int(1))), actual: .array([.int(2), .int(1)]),
             failure: "element [1]: expected a value greater than 1, got 1"),
        Case(matcher: .each(.exists(true)), actual: .string("x"),
             failure: #"expected a value whose every element is present, got "x" (not a list)"#),
        Case(matcher: .not(.equals(.int(3))), actual: .int(4), failure: nil),
        Case(matcher: .not(.equals(.int(3))), actual: .int(3), failure: "expected a value other than 3, got 3"),
        Case(matcher: .not(.contains(.string("x"))), actual: nil, failure: nil),
        // An absent value equals nothing and contains nothing: the negations agree.
        Case(matcher: .notEquals(.int(3)), actual: nil, failure: nil),
        Case(matcher: .not(.equals(.int(3))), actual: nil, failure: nil),
        Case(matcher: .notContains(.string("x")), actual: nil, failure: nil),
        Case(matcher: .not(.isEmpty(true)), actual: .string(""), failure: #"expected a value that is not empty, got """#),
        Case(matcher: .not(.isEmpty(false)), actual: .string("a"), failure: #"expected a value that is empty, got "a""#),
        Case(matcher: .not(.matches(.string("^a"))), actual: .string("ab"), failure: #"expected a value not matching "^a", got "ab""#),
        // An operator that reads text given a number is a type mistake, which does not pass by being negated (trial helper-141).
        Case(matcher: .not(.startsWith(.string("1"))), actual: .int(1), failure: "expected a value not starting with \"1\", got 1 (a number: startsWith reads a string)"),
        Case(matcher: .not(.matches(.string("^0\\."))), actual: .double(0.9), failure: #"expected a value not matching "^0\\.", got 0.9 (a number: matches reads a string)"#),
        Case(matcher: .not(.contains(.string("x"))), actual: .int(5), failure: "expected a value not containing \"x\", got 5 (a number: contains reads a string or a list)"),
        // A number and a string of the same digits: the types differ, and the message says how to write it.
        Case(matcher: .equals(.string("42")), actual: .int(42),
             failure: #"expected "42", got 42 (a number, not the string "42": the types differ; write 42 without quotes to compare numbers)"#),
        Case(matcher: .equals(.int(42)), actual: .string("42"),
             failure: #"expected 42, got "42" (a string, not the number 42: the types differ; write '42' in quotes to compare as text)"#),
        // So for a boolean and the string of its word.
        Case(matcher: .equals(.bool(true)), actual: .string("true"),
             failure: #"expected true, got "true" (a string, not the boolean true: the types differ; write 'true' in quotes to compare as text)"#),
        Case(matcher: .equals(.string("false")), actual: .bool(false),
             failure: #"expected "false", got false (a boolean, not the string "false": the types differ; write false without quotes to compare booleans)"#),
        // So for `in`, also among other operators (the ordering holds: its bound of digits reads as a number).
        Case(matcher: .in([.int(1), .string("42")]), actual: .int(42),
             failure: #"expected one of [1,"42"], got 42 (a number, not the string "42": the types differ; write 42 without quotes to compare numbers)"#),
        Case(matcher: .all([.lessThanOrEqual(.string("250")), .in([.string("250")])]), actual: .int(250),
             failure: #"250 is not in ["250"] (a number, not the string "250": the types differ; write 250 without quotes to compare numbers)"#),
        Case(matcher: .contains(.string("")), actual: .string("ab"), failure: #"expected a value containing "", got "ab" (an empty string is never contained)"#),
        // A list holds "" or not, like any element: no note about types.
        Case(matcher: .contains(.string("")), actual: .array([.int(1), .string("2")]), failure: #"expected a value containing "", got [1,"2"]"#),
        Case(matcher: .contains(.string("")), actual: .array([.string("")]), failure: nil),
        Case(matcher: .not(.length(.equals(.int(2)))), actual: .string("ab"), failure: #"expected a value whose length is not 2, got "ab""#),
        Case(matcher: .not(.each(.type(.string))), actual: .array([.string("a")]),
             failure: #"expected a value with an element not of type string, got ["a"]"#),
        // Text of a number written otherwise than JSON writes it is text for an equality.
        Case(matcher: .equals(.int(42)), actual: .string("0042"),
             failure: #"expected 42, got "0042" (a string, not the number 42: the types differ; equals and in do not read text with leading zeros or a sign as a number)"#),
        Case(matcher: .not(.all([.type(.string), .length(.equals(.int(2)))])), actual: .string("ab"),
             failure: #"expected a value not both of type string and with length 2, got "ab""#),
        Case(matcher: .all([.type(.string), .length(.equals(.int(2)))]), actual: nil,
             failure: "got nothing, which is not of type string and does not have length 2 (it has no length)"),
        // A bound of digits a number was compared with is shown as that number.
        Case(matcher: .all([.lessThanOrEqual(.string("100")), .type(.string)]), actual: .int(250),
             failure: "250 is not less than or equal to 100 and is not of type string"),
        // A part's note follows it, the value said once.
        Case(matcher: .all([.type(.number), .length(.equals(.int(3)))]), actual: .string("hello"),
             failure: #""hello" is not of type number and does not have length 3 (length 5)"#),
        Case(matcher: .all([.type(.integer), .greaterThan(.int(0))]), actual: .int(3), failure: nil),
        Case(matcher: .all([.type(.string), .greaterThan(.int(5))]), actual: .int(3),
             failure: "3 is not of type string and is not greater than 5"),
        // One of several failing says which: the expected value lists them all.
        Case(matcher: .all([.type(.integer), .greaterThan(.int(5))]), actual: .int(3), failure: "3 is not greater than 5"),
    ]

    @Test(arguments: cases)
    func evaluates(_ testCase: Case) {
        let result = testCase.matcher.evaluate(testCase.actual)
        #expect(result.holds == (testCase.failure == nil))
        #expect(result.message == testCase.failure)
    }

    /// Text (a header value, a text body) is a number for the operators comparing with one, text for the others.
    @Test func textIsANumberOnlyForOperatorsComparingWithOne() {
        #expect(M.equals(.int(5)).evaluate(text: "5").holds)
        #expect(M.in([.string("a"), .int(5)]).evaluate(text: "5").holds)
        #expect(M.all([.startsWith(.int(1)), .lessThan(.int(100))]).evaluate(text: "12").holds)
        #expect(M.length(.equals(.int(3))).evaluate(text: "123").holds)
        #expect(M.length(.equals(.string("16"))).evaluate(text: "application/json").holds)
        #expect(M.not(.equals(.int(5))).evaluate(text: "6").holds)
        #expect(!M.equals(.string("5.0")).evaluate(text: "5").holds)
        #expect(M.greaterThan(.int(5)).evaluate(text: "10").holds)
        // A bound that is text of a number (`"{{ limit }}"` with `--var limit=9`) orders text of a number by value.
        #expect(M.greaterThan(.string("9")).evaluate(text: "10").holds)
        #expect(M.greaterThan(.string("apple")).evaluate(text: "banana").holds)
        // Text that is not a number against such a bound cannot be ordered (not compared by its characters).
        let word = M.greaterThan(.string("9")).evaluate(text: "abc")
        #expect(!word.holds && word.message?.hasSuffix("(a string and a number 9 cannot be ordered)") == true, "\(word)")
        #expect(!M.not(.lessThan(.string("9"))).evaluate(text: "abc").holds)
        // A `when:` note tells so too, for a bound from a template as for a literal one (`1.2.3` is not a number).
        #expect(M.lessThan(.string("10")).typesDiffer(fromText: "1.2.3") == "a string and a number 10 cannot be ordered")
        #expect(M.lessThan(.int(10)).typesDiffer(fromText: "1.2.3") == "a string and a number 10 cannot be ordered")
        // Zero-padded text (`09`, a header's `0250`) orders by value; an equality keeps it as text.
        #expect(M.lessThan(.int(10)).evaluate(text: "09").holds)
        #expect(M.greaterThan(.string("100")).evaluate(text: "0250").holds)
        #expect(!M.equals(.int(1234)).evaluate(text: "01234").holds)
        // `in` with strings and numbers: the text is one of the strings, or its number one of the numbers.
        #expect(M.in([.string("10"), .int(3)]).evaluate(text: "10").holds)
        #expect(M.in([.string("10"), .int(3)]).evaluate(text: "3").holds)
        #expect(!M.in([.string("10"), .int(3)]).evaluate(text: "4").holds)
        #expect(!M.not(.in([.string("10"), .int(3)])).evaluate(text: "10").holds)
        // A number as JSON writes one: not hexadecimal, a sign, or leading zeros.
        #expect(M.equals(.int(1000)).evaluate(text: "1e3").holds)
        for text in ["0x10", "+16", "016", "16 ", "0x1p4", "1_6"] { #expect(!M.equals(.int(16)).evaluate(text: text).holds, "\(text)") }
        // `not` of an ordering that cannot compare the value does not hold either, and says why.
        let many = M.not(.greaterThan(.int(3))).evaluate(text: "many")
        #expect(!many.holds && many.explains && many.message?.hasSuffix("(a string and a number 3 cannot be ordered)") == true, "\(many)")
    }

    /// `not` of an ordering that cannot compare the value (a string from the server, a bound that is a word) fails too:
    /// a type or bound mistake does not pass by being negated.
    @Test func notOfAnOrderingThatCannotCompareFails() {
        let string = M.not(.greaterThan(.int(3))).evaluate(.string("50"))
        #expect(!string.holds && string.explains, "\(string)")
        #expect(string.message?.hasSuffix(#"got "50" (a string and a number 3 cannot be ordered)"#) == true, "\(string)")
        #expect(!M.not(.all([.greaterThan(.string("abc")), .exists(true)])).evaluate(.int(2)).holds)
        #expect(M.not(.greaterThan(.int(3))).evaluate(.int(2)).holds)
        #expect(M.not(.greaterThan(.int(3))).evaluate(nil).holds, "an absent value satisfies not")
    }

    /// By code points, as JSON compares strings (a decomposed `é` holds an `e`; Foundation's search, by characters, said no).
    @Test func containsSearchesTextByCodePoints() {
        let holding: [(String, String)] = [
            ("application/json; charset=utf-8", "application/json"), ("abc", "abc"), ("abc", "c"), ("aab", "ab"),
            ("a\r\nb", "\n"), ("a\r\nb", "\r"), ("grüße", "üß"), ("x-café", "x-"), ("e\u{301}", "e"),
        ]
        let missing: [(String, String)] = [
            ("abc", ""), ("", ""), ("", "a"), ("ab", "abc"), ("ABC", "abc"), ("abx", "abc"), ("café", "cafe"), ("e\u{301}", "\u{E9}"),
        ]
        for (text, part) in holding {
            #expect(M.contains(.string(part)).evaluate(.string(text)).holds, "\(text) contains \(part)")
        }
        for (text, part) in missing {
            #expect(!M.contains(.string(part)).evaluate(.string(text)).holds, "\(text) does not contain \(part)")
            #expect(M.notContains(.string(part)).evaluate(.string(text)).holds)
        }
    }

    /// A matcher that cannot be checked (a pattern that is no text, from a template) does not hold negated either.
    @Test func aMatcherThatCannotBeCheckedDoesNotPassNegated() {
        for negated in [M.not(.matches(.array([]))), M.not(.matches(.string("a(")))] {
            let result = negated.evaluate(.string("a"))
            #expect(!result.holds && result.isAboutTheMatcher, "\(String(describing: result.message))")
            #expect(!negated.evaluate(text: "a").holds)
        }
    }

    @Test func invalidPatternIsAnEvaluationFailureAndALoadTimeError() {
        let result = M.matches(.string("a(")).evaluate(.string("a"))
        #expect(!result.holds)
        #expect(result.message?.hasPrefix("invalid regular expression 'a(':") == true)
        #expect(throws: InvalidPatternError.self) { try Matcher<String>.validatePattern("[z-a]") }
        #expect(throws: Never.self) { try Matcher<String>.validatePattern("^\\d{3}-[a-z]+$") }
        let nested = M.all([.not(.matches(.string("ok"))), .each(.matches(.string("(")))])
        #expect(nested.invalidPatterns().map(\.pattern) == ["("])
    }

    @Test func sharedCompiledPatternsWorkAcrossConcurrentTasks() async {
        let matcher = M.matches(.string("^item-[0-9]+$"))
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<200).allSatisfy { index in
                        matcher.evaluate(.string("item-\(task * 1000 + index)")).holds
                            && !matcher.evaluate(.string("item-x\(index)")).holds
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func compactDescriptionTruncates() {
        let long = JSONValue.string(String(repeating: "x", count: 50))
        #expect(long.compactDescription(maxLength: 10) == "\"xxxxxxxx…")
        #expect(long.compactDescription(maxLength: 10).count == 10)
        #expect(JSONValue.array([.int(1), .null]).compactDescription() == "[1,null]")
    }
}
