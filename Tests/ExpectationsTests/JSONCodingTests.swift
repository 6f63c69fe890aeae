import Foundation
import HTTPCore
import Testing

@Suite struct JSONCodingTests {
    @Test func parsesScalarsWithIntegerAndDoubleDistinction() throws {
        #expect(try JSONValue.parse("42") == .int(42))
        if case .int(-7) = try JSONValue.parse("-7") {} else { Issue.record("-7 should parse as .int") }
        if case .double(1.5) = try JSONValue.parse("1.5") {} else { Issue.record("1.5 should parse as .double") }
        if case .double(100) = try JSONValue.parse("1e2") {} else { Issue.record("1e2 should parse as .double") }
        if case .double = try JSONValue.parse("92233720368547758070") {} else {
            Issue.record("an integer beyond Int should parse as .double")
        }
        if case .int(Int.min) = try JSONValue.parse("-9223372036854775808") {} else {
            Issue.record("Int.min should parse as .int")
        }
        #expect(try JSONValue.parse(" true ") == .bool(true))
        #expect(try JSONValue.parse("false") == .bool(false))
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("-0.0e-0") == .double(0))
    }

    @Test func parsesStringsWithAllEscapes() throws {
        let parsed = try JSONValue.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\uDE00 é""#)
        #expect(parsed == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀 é"))
        #expect(try JSONValue.parse(#""\uD800x""#) == .string("\u{FFFD}x"))
    }

    @Test func keepsObjectMemberOrder() throws {
        guard case .object(let object) = try JSONValue.parse(#"{"z": 1, "a": [true, null], "m": {}}"#) else {
            Issue.record("expected an object")
            return
        }
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["a"] == .array([.bool(true), .null]))
    }

    @Test func parsesFromDataBytesAndCollections() throws {
        let text = #"{"a":[1,2.5,"x"]}"#
        let expected = JSONValue.object(JSONObject([("a", .array([.int(1), .double(2.5), .string("x")]))]))
        #expect(try JSONValue.parse(Data(text.utf8)) == expected)
        #expect(try JSONValue.parse(Array(text.utf8)) == expected)
        #expect(try JSONValue.parse(text.utf8.lazy.map { $0 }) == expected)
    }

    @Test(arguments: [
        ("", "unexpected end of input, expected a value", 1, 1),
        ("[1,]", "a comma before ']' starts no element: JSON allows no trailing comma, remove it", 1, 3),
        ("{\"a\": 1,\n}", "a comma before '}' starts no member: JSON allows no trailing comma, remove it", 1, 8),
        ("{\"a\" 1}", "expected ':' after object key, found '1'", 1, 6),
        ("[1 2]", "expected ',' or ']' in array, found '2'", 1, 4),
        ("{\n  \"a\": tru}", "invalid literal, expected 'true'", 2, 8),
        ("01", "leading zeros are not allowed in numbers", 1, 2),
        ("1.", "expected a digit after '.' in number", 1, 3),
        ("\"abc", "unterminated string", 1, 1),
        ("\"a\tb\"", "unescaped control character in string", 1, 3),
        ("\"\\x\"", "invalid escape sequence '\\x'", 1, 2),
        // A character a message cannot show as it is is named (trial helper-193: a line break broke the warning's line).
        ("\"\\\nb\"", "invalid escape sequence: '\\' before a line break", 1, 2),
        ("[1] x", "unexpected 'x' after the JSON value", 1, 5),
        ("{1:2}", "expected a string key in object, found '1'", 1, 2),
    ])
    func reportsErrorsWithPosition(input: String, message: String, line: Int, column: Int) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(input) }
        do {
            _ = try JSONValue.parse(input)
        } catch {
            #expect(error.message == message)
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func limitsNestingDepthWithAnError() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONValue.parse(deep)
            Issue.record("expected a depth error")
        } catch {
            #expect(error.message.contains("nesting deeper than 512"))
        }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue.parse(allowed)
    }

    @Test func serializesCompactly() {
        let value = JSONValue.object(JSONObject([
            ("b", .array([.int(1), .double(1.0), .double(0.1), .null, .bool(false)])),
            ("a", .string("q\"\\\n\u{01}é")),
        ]))
        #expect(value.serialized() == #"{"b":[1,1.0,0.1,null,false],"a":"q\"\\\n\u0001é"}"#)
    }

    @Test func serializesPrettyWithTwoSpaceIndent() {
        let value = JSONValue.object(JSONObject([("a", .array([.int(1), .object(JSONObject())])), ("b", .array([]))]))
        #expect(value.serialized(pretty: true) == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
    }

    /// NaN is no number (null); an infinity (a body's 1e400, past a double's range) is written as a number that reads
    /// back as it, not as null.
    @Test func writesNaNAsNullAndInfinitiesAsNumbersPastTheRange() throws {
        #expect(JSONValue.array([.double(.nan), .double(.infinity), .double(-.infinity)]).serialized() == "[null,1e999,-1e999]")
        #expect(try JSONValue.parse(Array("1e400".utf8)) == .double(.infinity))
        #expect(try JSONValue.parse(Array(JSONValue.double(-.infinity).serialized().utf8)) == .double(-.infinity))
    }

    @Test(arguments: [
        #"{"a":[1,-2.5,1e+300,"x\u0000y",{"k":null}],"b":true,"c":""}"#,
        #"[0.1,1.0,5e-324,-0.0,123456789012345678]"#,
        #""\ud83d\ude00 \\ \" \t""#,
    ])
    func roundTripsThroughText(text: String) throws {
        let parsed = try JSONValue.parse(text)
        let again = try JSONValue.parse(parsed.serialized())
        #expect(again == parsed)
        #expect(again.serialized() == parsed.serialized())
        #expect(try JSONValue.parse(parsed.serialized(pretty: true)) == parsed)
    }

    /// An error's column counts characters, not bytes: after non-ASCII text it is where the ASCII text's would be (trial
    /// helper-187: one column further right for each `ü`).
    @Test func columnsCountCharacters() throws {
        func column(_ text: String) -> Int? {
            do { _ = try JSONValue.parse(text); return nil } catch { return error.line == 1 ? error.column : nil }
        }
        #expect(column(#"[{"üü😀": 1,}]"#) == column(#"[{"uuu": 1,}]"#))
        #expect(column(#"[{"uuu": 1,}]"#) != nil)
    }

    /// JSON saved as UTF-16 or UTF-32 is said to be so, at its start (trial helper-146).
    @Test func utf16AndUTF32AreNamed() {
        for (bytes, encoding) in [([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00] as [UInt8], "UTF-16"), ([0x5B, 0x00, 0x5D, 0x00], "UTF-16"),
                                  ([0x5B, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00, 0x00], "UTF-32")] {
            #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
            do { _ = try JSONValue.parse(bytes) } catch {
                #expect(error.message.hasPrefix("the text is not UTF-8 but \(encoding): "), "\(error.message)")
                #expect(error.line == 1 && error.column == 1)
            }
        }
    }
}
