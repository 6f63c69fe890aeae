import Testing
import YAML

@Suite struct ScalarTests {
    @Test(arguments: [
        ("plain text", Scalar.Style.plain, "plain text"),
        ("'it''s'", .singleQuoted, "it's"),
        ("\"tab\\there \\u00e9\"", .doubleQuoted, "tab\there é"),
        ("|\n  line one\n  line two\n", .literal, "line one\nline two\n"),
        ("|-\n  kept\n", .literal, "kept"),
        (">\n  folded\n  lines\n\n  para\n", .folded, "folded lines\npara\n"),
    ])
    func everyStyleKeepsItsStyleAndText(source: String, style: Scalar.Style, text: String) throws {
        let scalar = try #require(try value("k", in: "k: " + source).scalar)
        #expect(scalar.style == style)
        #expect(scalar.text == text)
        #expect(scalar.tag == nil)
    }

    @Test(arguments: [
        ("null", Scalar.Value.null), ("Null", .null), ("NULL", .null), ("~", .null), ("", .null),
        ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)),
        ("false", .bool(false)), ("False", .bool(false)), ("FALSE", .bool(false)),
        ("yes", .string("yes")), ("no", .string("no")), ("on", .string("on")), ("off", .string("off")),
        ("nULL", .string("nULL")), ("tRUE", .string("tRUE")),
        ("0", .int(0)), ("42", .int(42)), ("-17", .int(-17)), ("+8", .int(8)), ("007", .int(7)),
        ("0o17", .int(15)), ("0x1F", .int(31)), ("0xff", .int(255)), ("0o8", .string("0o8")), ("-0x1", .string("-0x1")),
        ("9223372036854775807", .int(Int.max)), ("-9223372036854775808", .int(Int.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        // Past 64 bits, the nearest double, as reading the digits as a float gives it.
        ("123456789012345678901234567889", .double(1.2345678901234568e+29)), ("-123456789012345678901234567889", .double(-1.2345678901234568e+29)),
        ("1.5", .double(1.5)), ("-2.25", .double(-2.25)), ("1e3", .double(1000)), ("1.", .double(1)),
        (".5", .double(0.5)), ("+1.5E-2", .double(0.015)), (".inf", .double(.infinity)),
        ("-.Inf", .double(-.infinity)), ("+.INF", .double(.infinity)),
        ("1e", .string("1e")), ("1.2.3", .string("1.2.3")), ("1_000", .string("1_000")), ("12px", .string("12px")),
        ("2024-01-01", .string("2024-01-01")), (".", .string(".")), ("inf", .string("inf")),
    ])
    func plainScalarsAreTypedByTheCoreSchema(source: String, expected: Scalar.Value) throws {
        let scalar = try #require(try value("k", in: "k: \(source)\n").scalar)
        #expect(scalar.value == expected)
        #expect(scalar.text == source)
    }

    @Test func notANumberIsADouble() throws {
        for text in [".nan", ".NaN", ".NAN"] {
            let scalar = try #require(try value("k", in: "k: \(text)").scalar)
            guard case .double(let number) = scalar.value else {
                Issue.record("\(text) gave \(scalar.value)")
                continue
            }
            #expect(number.isNaN)
        }
    }

    @Test(arguments: ["'42'", "\"true\"", "'null'", "\"1.5\"", "|\n  42\n", "''"])
    func quotedAndBlockScalarsStayStrings(source: String) throws {
        let scalar = try #require(try value("k", in: "k: " + source).scalar)
        #expect(scalar.value == .string(scalar.text))
    }

    @Test(arguments: [
        ("!!str 42", Scalar.Value.string("42"), "tag:yaml.org,2002:str"),
        ("!!str true", .string("true"), "tag:yaml.org,2002:str"),
        ("!!int \"12\"", .int(12), "tag:yaml.org,2002:int"),
        ("!!int 0x10", .int(16), "tag:yaml.org,2002:int"),
        ("!!float 1", .double(1), "tag:yaml.org,2002:float"),
        ("!!float '2.5'", .double(2.5), "tag:yaml.org,2002:float"),
        ("!!bool 'false'", .bool(false), "tag:yaml.org,2002:bool"),
        ("!!null ''", .null, "tag:yaml.org,2002:null"),
        ("! 12", .string("12"), "!"),
        ("!custom 12", .string("12"), "!custom"),
    ])
    func explicitTagsAreRespected(source: String, expected: Scalar.Value, tag: String) throws {
        let scalar = try #require(try value("k", in: "k: " + source).scalar)
        #expect(scalar.value == expected)
        #expect(scalar.tag == tag)
    }

    @Test func keysAreTypedLikeValues() throws {
        let pairs = try #require(try document("1: a\ntrue: b\n'1': c\n").mapping)
        #expect(pairs.map { $0.key.scalar?.value } == [.int(1), .bool(true), .string("1")])
    }
}
