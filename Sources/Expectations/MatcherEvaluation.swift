public import HTTPCore

/// Whether a matcher holds for a value and, when it does not, why.
public struct MatchResult: Sendable, Hashable {
    /// Whether the matcher holds.
    public let holds: Bool
    /// Why it does not hold, e.g. `expected a value greater than 5, got 3`; nil when it holds.
    public let message: String?
    /// What the message says of the value besides what was expected of it (the types differ, values that cannot be
    /// ordered, `length 45`, `element [2]: …`), if anything.
    public var note: String?

    /// Whether the message speaks of the matcher alone (a pattern that does not compile), showing nothing of the value.
    public private(set) var isAboutTheMatcher = false

    /// Whether the message says why beyond the expected and the actual value.
    public var explains: Bool { note != nil }

    /// A matcher that holds.
    public static let success = MatchResult(holds: true, message: nil)

    /// A matcher that does not hold, for the reason given.
    public static func failure(_ message: String, note: String? = nil) -> MatchResult {
        MatchResult(holds: false, message: message, note: note)
    }

    /// A matcher that cannot be checked, for a reason in the matcher itself.
    static func unusable(_ message: String) -> MatchResult {
        MatchResult(holds: false, message: message, isAboutTheMatcher: true)
    }
}

/// A `matches` pattern that is not a valid regular expression.
public struct InvalidPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// What the regular expression engine objected to.
    public let reason: String

    public var description: String { "invalid regular expression '\(pattern)': \(reason)" }
}

extension Matcher {
    /// Checks that `pattern` compiles as a `matches` regular expression (NSRegularExpression syntax).
    public static func validatePattern(_ pattern: String) throws(InvalidPatternError) {
        // As `contains: ""`: a check that holds for any text checks nothing.
        guard !pattern.isEmpty else {
            throw InvalidPatternError(pattern: pattern, reason: "it is empty, and would match any text: write the text it must find")
        }
        _ = try compiledPattern(pattern)
    }

    static func compiledPattern(_ pattern: String) throws(InvalidPatternError) -> RegularExpression {
        do {
            return try RegularExpression.cached(icuPattern: pattern)
        } catch {
            throw InvalidPatternError(pattern: pattern, reason: error.reason)
        }
    }
}

extension Matcher where Value == JSONValue {
    /// Checks the matcher against `actual`, which is nil when absent (e.g. a JSONPath that selected nothing).
    ///
    /// Comparisons hold for two numbers (by value) or two strings (lexicographically by Unicode scalars);
    /// `length` counts characters of a string, elements of a list, members of an object; `type: integer`
    /// accepts any number without a fraction. Only `exists: false`, `notEquals`, `notContains` and `not` can hold
    /// for an absent value: nothing is equal to it and it contains nothing, so `notEquals: x` and `not: { equals: x }`
    /// agree.
    public func evaluate(_ actual: JSONValue?) -> MatchResult {
        evaluate(actual, givenBy: [:])
    }

    /// `evaluate(actual)`, where `templates` maps each expected value a lone template gave (`in: ["{{ n }}"]`) to the
    /// template's source: the note of a type mismatch names the template rather than a way to quote a literal.
    public func evaluate(_ actual: JSONValue?, givenBy templates: [JSONValue: String]) -> MatchResult {
        switch self {
        case .all(let matchers):
            return Self.all(matchers.map { $0.shown(against: actual) }, matchers.map { $0.evaluate(actual, givenBy: templates) },
                            actual: actual)
        case .not(let inner):
            // An ordering that cannot compare the value does not hold, and neither does `not` of it; nor an operator that
            // reads text given a value of another kind (`startsWith` on a number).
            if let reason = inner.unorderable({ _ in actual }) ?? inner.unreadable(actual) { return fail(actual, note: reason) }
            // Nor does a matcher that cannot be checked (a pattern that is no text): negated, it would pass.
            let result = inner.evaluate(actual)
            return result.isAboutTheMatcher ? result : result.holds ? fail(actual) : .success
        case .each(let inner):
            guard case .array(let elements)? = actual else { return fail(actual, note: "not a list") }
            for (index, element) in elements.enumerated() {
                if let message = inner.evaluate(element, givenBy: templates).message.map({ "element [\(index)]: \($0)" }) {
                    return .failure(message, note: message)
                }
            }
            return .success
        case .length(let inner):
            guard let actual, let length = actual.matchLength else { return fail(actual, note: "it has no length") }
            let counted = inner.readingNumbersInText
            if let reason = Self.noLength(in: counted, named: "length") ?? counted.unorderable({ _ in .int(length) }) {
                return fail(actual, note: "length \(length): \(reason)")
            }
            return counted.evaluate(.int(length)).holds ? .success : fail(actual, note: "length \(length)")
        case .matches(let pattern):
            guard let patternText = Self.operandText(pattern) else {
                return .unusable("the pattern of 'matches' must be a string, got \(pattern.compactDescription())")
            }
            let expression: RegularExpression
            do {
                expression = try Self.compiledPattern(patternText)
            } catch {
                return .unusable(error.description)
            }
            guard case .string(let text)? = actual else { return fail(actual, note: typesDiffer(from: actual)) }
            return expression.hasMatch(in: text) ? .success : fail(actual)
        default:
            return holds(for: actual) ? .success : fail(actual, note: typesDiffer(from: actual, givenBy: templates))
        }
    }

    /// Checks the matcher against a count (the number of nodes a query selects) as `length` checks a length: an operand
    /// that is text all of a number (`"{{ n }}"` with `--var n=3`) is that number, and one that is no number fails, under
    /// `not` too.
    public func evaluate(count: Int) -> MatchResult {
        let counted = readingNumbersInText
        if let reason = Self.noLength(in: counted, named: "count") ?? counted.unorderable({ _ in .int(count) }) {
            return counted.fail(.int(count), note: reason)
        }
        return counted.evaluate(.int(count))
    }

    /// Checks the matcher against text that may be a number (a header value, a text body): an operator that compares
    /// with a number (`equals`, `notEquals`, the orderings, `in`: `X-Count: 5`, `text: "{{ count }}"`) reads text
    /// that is all a number as that number; every other operator reads it as text (`startsWith: "{{ id }}"`).
    public func evaluate(text: String) -> MatchResult {
        switch self {
        case .all(let matchers):
            return Self.all(matchers.map(\.boundsReadAsNumbers), matchers.map { $0.evaluate(text: text) }, actual: .string(text))
        case .not(let inner):
            if let reason = inner.boundsReadAsNumbers.unorderable({ $0.value(ofText: text) }) { return fail(.string(text), note: reason) }
            let result = inner.evaluate(text: text)
            return result.isAboutTheMatcher ? result : result.holds ? fail(.string(text)) : .success
        case .in(let operands) where operands.contains(.string(text)):
            // `in: ["10", 3]`: the text is one of the strings, whatever number it also reads as.
            return .success
        default:
            let matcher = boundsReadAsNumbers
            return matcher.evaluate(matcher.value(ofText: text))
        }
    }

    /// The matcher with each ordering's bound that is text all of a number (`greaterThan: "{{ limit }}"` with
    /// `--var limit=9`) read as that number: text compares with it as a number, or cannot be ordered (`abc`), never by
    /// its characters; a failure on text (a header, a text body) shows the matcher so.
    public var boundsReadAsNumbers: Matcher {
        let read = { (bound: JSONValue) -> JSONValue in
            if case .string(let text) = bound, let number = Self.number(text, orderingOnly: true) { number } else { bound }
        }
        return switch self {
        case .lessThan(let bound): .lessThan(read(bound))
        case .lessThanOrEqual(let bound): .lessThanOrEqual(read(bound))
        case .greaterThan(let bound): .greaterThan(read(bound))
        case .greaterThanOrEqual(let bound): .greaterThanOrEqual(read(bound))
        case .all(let matchers): .all(matchers.map(\.boundsReadAsNumbers))
        case .not(let inner): .not(inner.boundsReadAsNumbers)
        default: self
        }
    }

    /// `typesDiffer(from:)` for text as `evaluate(text:)` reads it: none for a number, which compares as one.
    public func typesDiffer(fromText text: String) -> String? {
        let matcher = boundsReadAsNumbers
        return Self.number(text) == nil ? matcher.typesDiffer(from: matcher.value(ofText: text)) : nil
    }

    /// Text as this leaf operator reads it: a number for one comparing with a number (`equals`, `notEquals`, the
    /// orderings, `in`) when the text is all a JSON number, a string otherwise.
    private func value(ofText text: String) -> JSONValue {
        switch self {
        case .equals(let operand), .notEquals(let operand):
            Self.value(ofText: text, comparedWith: [operand])
        case .lessThan(let operand), .lessThanOrEqual(let operand), .greaterThan(let operand), .greaterThanOrEqual(let operand):
            Self.value(ofText: text, comparedWith: [operand], ordering: true)
        case .in(let operands):
            Self.value(ofText: text, comparedWith: operands)
        default:
            .string(text)
        }
    }

    /// Text compared with `operands`: a number when one is a number and the text is all one, `true` or `false` when one
    /// is a boolean and the text is that word, else the string.
    private static func value(ofText text: String, comparedWith operands: [JSONValue], ordering: Bool = false) -> JSONValue {
        if operands.contains(where: { $0.numberValue != nil }), let number = number(text, orderingOnly: ordering) { return number }
        if text == "true" || text == "false", operands.contains(where: { if case .bool = $0 { true } else { false } }) {
            return .bool(text == "true")
        }
        return .string(text)
    }

    /// Text read as a number when it is all one as JSON writes numbers (`42`, `-1.5`, `1e3`; not `0x10`, `+4`); with
    /// `orderingOnly`, for an ordering, leading zeros too (`0100` orders as 100), which an equality keeps as text (an
    /// identifier such as `01234` is not 1234).
    private static func number(_ text: String, orderingOnly: Bool = false) -> JSONValue? {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || digits.contains(first),
              let last = text.utf8.last, digits.contains(last) else { return nil }
        var bytes = Array(text.utf8)
        let start = first == UInt8(ascii: "-") ? 1 : 0
        while orderingOnly, bytes.count > start + 1, bytes[start] == UInt8(ascii: "0"), digits.contains(bytes[start + 1]) {
            bytes.remove(at: start)
        }
        guard let value = try? JSONValue.parse(bytes), value.numberValue != nil else { return nil }
        return value
    }

    /// The failures of several matchers (a mapping of operators) as one: what `actual` fails, with the value said once
    /// and each failure's note after its part (`"abc" is not of type number and does not have length 2 (length 3)`).
    private static func all(_ matchers: [Matcher], _ results: [MatchResult], actual: JSONValue?) -> MatchResult {
        let failed = zip(matchers, results).filter { !$0.1.holds }
        guard !failed.isEmpty else { return .success }
        // A message that is not a mismatch (a pattern that does not compile) is the part's note.
        let notes = failed.map { _, result in result.note ?? result.message.flatMap { $0.hasPrefix("expected ") ? nil : $0 } }
        let parts = zip(failed, notes).map { part, note in part.0.negatedClause + (note.map { " (\($0))" } ?? "") }
        let value = actual.map { $0.compactDescription(maxLength: 40) } ?? "got nothing, which"
        let said = notes.compactMap { $0 }
        return .failure("\(value) " + parts.joined(separator: " and "), note: said.isEmpty ? nil : said.joined(separator: "; "))
    }

    /// Why an ordering in the matcher cannot compare the value `actual` gives it (a number and a word), nil when every
    /// one can or the value is absent.
    private func unorderable(_ actual: (Matcher) -> JSONValue?) -> String? {
        switch self {
        case .lessThan(let bound), .lessThanOrEqual(let bound), .greaterThan(let bound), .greaterThanOrEqual(let bound):
            guard let value = actual(self), Self.order(value, bound) == nil else { return nil }
            return "\(value.kindName) and \(bound.kindName) \(bound.serialized()) cannot be ordered"
        case .all(let matchers):
            for matcher in matchers { if let reason = matcher.unorderable(actual) { return reason } }
            return nil
        case .not(let inner): return inner.unorderable(actual)
        case .length(let inner):
            let counted = inner.readingNumbersInText
            if let reason = Self.noLength(in: counted, named: "length") { return reason }
            guard let length = actual(self)?.matchLength else { return nil }
            return counted.unorderable { _ in .int(length) }
        default: return nil
        }
    }

    /// Why an operand of a length's (or count's, as `named`) matcher is no number (`length: "{{ n }}"` with
    /// `--var n=abc`): a type mistake that fails, under `not` too; nil when every operand is a number.
    private static func noLength(in matcher: Matcher, named name: String) -> String? {
        var found: JSONValue?
        matcher.forEachOperand { operand in if found == nil, operand.numberValue == nil { found = operand } }
        return found.map { "\($0.compactDescription()) is not a \(name)" }
    }

    /// The matcher with each operand that is text all of a number (`"{{ n }}"` with `--var n=3`, `"03"`) read as that
    /// number: a length is one, so text of digits compares as it, and other text cannot be ordered with it.
    private var readingNumbersInText: Matcher {
        map { operand in
            if case .string(let text) = operand, let number = Self.number(text, orderingOnly: true) { number } else { operand }
        }
    }

    /// For `equals` or `in` between a number and a string of the same text (`42` and `"42"`): that the types differ,
    /// and how to write the expected value to compare the other way; for an ordering of values that have none (a number
    /// and a word), that they cannot be compared. Of several operators, the first whose types differ says so.
    ///
    /// `templates` maps an expected value a lone template gave to its source (`{{ n }}`): the note then says the
    /// template gives that type instead, as quoting it, as a literal would be, changes nothing.
    public func typesDiffer(from actual: JSONValue?, givenBy templates: [JSONValue: String] = [:]) -> String? {
        if let reason = unorderable({ _ in actual }) { return reason }
        guard let actual else { return nil }
        switch self {
        case .equals(let expected):
            return Self.typesDiffer(expected, actual, template: templates[expected])
        case .in(let candidates):
            return candidates.lazy.compactMap { Self.typesDiffer($0, actual, template: templates[$0]) }.first
        case .all(let matchers):
            return matchers.lazy.filter { !$0.evaluate(actual).holds }.compactMap { $0.typesDiffer(from: actual, givenBy: templates) }.first
        case .contains(.string("")):
            if case .string = actual { return "an empty string is never contained" }
            return unreadable(actual)
        case .startsWith(.string(let part)), .endsWith(.string(let part)), .contains(.string(let part)), .notContains(.string(let part)):
            // Letters that hold as Swift reads text (canonically equivalent) but not by code points: said, as for equals.
            if case .string(let text) = actual, Self.holdsAsLetters(self, text, part) {
                return "by code points; as letters it would hold (another Unicode form, composed or decomposed: "
                    + "\(JSONValue.codePoints(part)) in \(JSONValue.codePoints(text))): JSON compares code points"
            }
            return unreadable(actual)
        case .startsWith, .endsWith, .matches, .contains, .notContains:
            return unreadable(actual)
        default:
            return nil
        }
    }

    /// Whether a text operator that fails by code points would hold as Swift compares letters (canonical equivalence).
    private static func holdsAsLetters(_ matcher: Matcher<JSONValue>, _ text: String, _ part: String) -> Bool {
        switch matcher {
        case .startsWith: text.hasPrefix(part)
        case .endsWith: text.hasSuffix(part)
        case .contains: !part.isEmpty && text.contains(part)
        case .notContains: !(!part.isEmpty && text.contains(part))
        default: false
        }
    }

    /// Why an operator of the matcher that reads text cannot read the present value `actual` (`startsWith` on a number,
    /// `contains` on a status): a type mistake that fails, under `not` too; nil otherwise.
    private func unreadable(_ actual: JSONValue?) -> String? {
        guard let actual else { return nil }
        switch self {
        case .startsWith, .endsWith, .matches:
            if case .string = actual { return nil }
            return "\(actual.kindName): \(operatorName) reads a string"
        case .contains, .notContains:
            switch actual {
            case .string, .array: return nil
            default: return "\(actual.kindName): \(operatorName) reads a string or a list"
            }
        case .all(let matchers): return matchers.lazy.compactMap { $0.unreadable(actual) }.first
        case .not(let inner): return inner.unreadable(actual)
        default: return nil
        }
    }

    /// The name of a leaf operator that reads text, as written in a file.
    private var operatorName: String {
        switch self {
        case .startsWith: "startsWith"
        case .endsWith: "endsWith"
        case .matches: "matches"
        case .contains: "contains"
        default: "notContains"
        }
    }

    /// Why `actual` is not `expected` when one is a number or a boolean and the other a string of its text, nil otherwise; `template`
    /// is the lone template that gave `expected`, if one did.
    private static func typesDiffer(_ expected: JSONValue, _ actual: JSONValue, template: String?) -> String? {
        switch (expected, actual) {
        case let (.string(written), .string(text)) where written == text && !written.utf8.elementsEqual(text.utf8):
            // Canonically equivalent (`é` written composed, received as `e` and a combining accent): the same letters.
            return "the same letters in another Unicode form (composed or decomposed: \(JSONValue.codePoints(written)) and "
                + "\(JSONValue.codePoints(text))): JSON compares code points"
        case (.string(let text), .int), (.string(let text), .double):
            guard actual.serialized() == text else { return nil }
            if let template {
                return "a number, not the string \(expected.serialized()) that '\(template)' gives: the types differ; "
                    + "a --var, a data row and $env are text, which only an ordering reads as a number"
            }
            return "a number, not the string \(expected.serialized()): the types differ; write \(text) without quotes to compare numbers"
        case (.int, .string(let text)), (.double, .string(let text)):
            guard expected.serialized() == text else {
                // `0042`, `+42`: a number only as an ordering reads text (an identifier keeps its zeros).
                guard Double(text) == expected.numberValue else { return nil }
                return "a string, not the number \(expected.serialized()): the types differ; equals and in do not read text with "
                    + "leading zeros or a sign as a number"
            }
            if let template { return "a string, not the number \(text) that '\(template)' gives: the types differ" }
            return "a string, not the number \(text): the types differ; write '\(text)' in quotes to compare as text"
        case (.string(let text), .bool):
            guard actual.serialized() == text else { return nil }
            if let template {
                return "a boolean, not the string \(expected.serialized()) that '\(template)' gives: the types differ; "
                    + "a --var, a data row and $env are text"
            }
            return "a boolean, not the string \(expected.serialized()): the types differ; write \(text) without quotes to compare booleans"
        case (.bool, .string(let text)):
            guard expected.serialized() == text else { return nil }
            if let template { return "a string, not the boolean \(text) that '\(template)' gives: the types differ" }
            return "a string, not the boolean \(text): the types differ; write '\(text)' in quotes to compare as text"
        default:
            return nil
        }
    }

    /// Every `matches` pattern in the matcher that is not a valid regular expression.
    public func invalidPatterns() -> [InvalidPatternError] {
        switch self {
        case .matches(.string(let pattern)):
            do throws(InvalidPatternError) {
                try Self.validatePattern(pattern)
                return []
            } catch {
                return [error]
            }
        case .length(let inner), .each(let inner), .not(let inner): return inner.invalidPatterns()
        case .all(let matchers): return matchers.flatMap { $0.invalidPatterns() }
        default: return []
        }
    }

    /// Whether a leaf matcher (no nesting, no pattern) holds for `actual`.
    private func holds(for actual: JSONValue?) -> Bool {
        switch self {
        case .exists(let expected): return (actual != nil) == expected
        case .type(let type): return actual.map { $0.hasType(type) } ?? false
        case .isEmpty(let expected): return actual?.matchLength.map { ($0 == 0) == expected } ?? false
        case .in(let candidates): return actual.map(candidates.contains) ?? false
        case .notEquals where actual == nil, .notContains where actual == nil: return true
        default: break
        }
        guard let actual else { return false }
        switch self {
        case .equals(let expected): return actual == expected
        case .notEquals(let expected): return actual != expected
        case .lessThan(let bound): return Self.order(actual, bound).map { $0 < 0 } ?? false
        case .lessThanOrEqual(let bound): return Self.order(actual, bound).map { $0 <= 0 } ?? false
        case .greaterThan(let bound): return Self.order(actual, bound).map { $0 > 0 } ?? false
        case .greaterThanOrEqual(let bound): return Self.order(actual, bound).map { $0 >= 0 } ?? false
        case .contains(let part): return Self.contains(actual, part) ?? false
        case .notContains(let part): return Self.contains(actual, part).map { !$0 } ?? false
        case .startsWith(let prefix):
            guard case .string(let text) = actual, let prefix = Self.operandText(prefix) else { return false }
            // By code points (UTF-8 bytes), as JSON compares strings: `é` composed does not start `e` and an accent.
            return text.utf8.starts(with: prefix.utf8)
        case .endsWith(let suffix):
            guard case .string(let text) = actual, let suffix = Self.operandText(suffix) else { return false }
            return text.utf8.reversed().starts(with: suffix.utf8.reversed())
        default: return false
        }
    }

    /// The text an operator that reads text (`startsWith`, `endsWith`, `matches`, `contains` in a string) takes from
    /// its operand: a string as it is, a number or boolean (a template's value: `{{ item }}` of a list of ids) as a
    /// template inserts it into text; nil for other values.
    private static func operandText(_ operand: JSONValue) -> String? {
        switch operand {
        case .string(let text): text
        case .int, .double, .bool: operand.interpolatedText
        default: nil
        }
    }

    /// -1, 0 or 1 for an actual value against a bound: two numbers, two strings, or a number against a bound that is
    /// a string all of digits (a `--var` value or a data row, which are text, as a threshold:
    /// `greaterThan: "{{ limit }}"`); nil when they cannot be compared. An actual string is never read as a number:
    /// its type is what the server sent.
    private static func order(_ actual: JSONValue, _ bound: JSONValue) -> Int? {
        switch (actual, bound) {
        case let (.int(a), .int(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case let (.string(a), .string(b)):
            if a == b { return 0 }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
        default:
            let bound = if case .string(let text) = bound, actual.numberValue != nil { number(text, orderingOnly: true) } else { bound }
            return bound.flatMap { JSONValue.numericOrder(actual, $0) }
        }
    }

    /// Whether a string contains a substring or a list an element; nil for other kinds.
    private static func contains(_ container: JSONValue, _ part: JSONValue) -> Bool? {
        switch (container, part) {
        case let (.string(text), part): operandText(part).map { contains(text, $0) }
        case let (.array(elements), element): elements.contains(element)
        default: nil
        }
    }

    /// Whether `text` holds `part`, by code points (UTF-8 bytes: a match of them is one of code points), as JSON compares
    /// strings; an empty part is never contained.
    private static func contains(_ text: String, _ part: String) -> Bool {
        var text = text
        var part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle -> Bool in
                guard !needle.isEmpty, needle.count <= haystack.count else { return false }
                let first = needle[0]
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    if bytesMatch(haystack, from: start, needle) { return true }
                }
                return false
            }
        }
    }

    /// Whether `haystack` holds `needle` at `start` (which leaves room for all of it).
    private static func bytesMatch(_ haystack: UnsafeBufferPointer<UInt8>, from start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 1..<needle.count where haystack[start + offset] != needle[offset] { return false }
        return true
    }

    private func fail(_ actual: JSONValue?, note: String? = nil) -> MatchResult {
        var got = actual.map { $0.compactDescription() } ?? "nothing"
        if let note { got += " (\(note))" }
        return .failure("expected \(shown(against: actual).expectation), got \(got)", note: note)
    }

    /// The matcher as it compared `actual`: an ordering's bound written as text of digits (`greaterThan: "{{ n }}"`)
    /// is the number it was compared as when `actual` is a number, so that a failure shows `greater than 2`, not `"2"`.
    public func shown(against actual: JSONValue?) -> Matcher {
        actual?.numberValue != nil ? boundsReadAsNumbers : self
    }

    /// What the matcher expects, as a noun phrase: `a value greater than 5`, `"abc"`, `no value`.
    public var expectation: String {
        switch self {
        case .equals(let value): value.compactDescription()
        case .exists(true): "a value"
        case .exists(false): "no value"
        case .in(let values): "one of \(JSONValue.array(values).compactDescription())"
        default: "a value \(predicate)"
        }
    }

    /// What the matcher expects, as a phrase following "a value": `greater than 5`, `of type integer`.
    public var predicate: String {
        switch self {
        case .equals(let value): "equal to \(value.compactDescription())"
        case .notEquals(let value): "other than \(value.compactDescription())"
        case .lessThan(let value): "less than \(value.compactDescription())"
        case .lessThanOrEqual(let value): "less than or equal to \(value.compactDescription())"
        case .greaterThan(let value): "greater than \(value.compactDescription())"
        case .greaterThanOrEqual(let value): "greater than or equal to \(value.compactDescription())"
        case .contains(let value): "containing \(value.compactDescription())"
        case .notContains(let value): "not containing \(value.compactDescription())"
        case .startsWith(let value): "starting with \(value.compactDescription())"
        case .endsWith(let value): "ending with \(value.compactDescription())"
        case .matches(let value): "matching \(value.compactDescription())"
        case .exists(let present): present ? "that is present" : "that is absent"
        case .type(let type): "of type \(type.rawValue)"
        case .length(.equals(let value)): "with length \(value.compactDescription())"
        case .length(let inner): "with length \(inner.predicate)"
        case .in(let values): "in \(JSONValue.array(values).compactDescription())"
        case .inList(let list): "in \(list.compactDescription())"
        case .isEmpty(let empty): empty ? "that is empty" : "that is not empty"
        case .each(let inner): "whose every element \(inner.clause)"
        case .not(let inner): inner.negatedPredicate
        case .all(let matchers): matchers.map(\.predicate).joined(separator: " and ")
        }
    }

    /// What the matcher asks of a value, as the rest of a sentence about it: `is greater than 5`, `starts with "x"`,
    /// `does not contain "y"`, `has length 3`, `is empty`.
    public var clause: String {
        switch self {
        case .contains(let value): "contains \(value.compactDescription())"
        case .notContains(let value): "does not contain \(value.compactDescription())"
        case .startsWith(let value): "starts with \(value.compactDescription())"
        case .endsWith(let value): "ends with \(value.compactDescription())"
        case .matches(let value): "matches \(value.compactDescription())"
        case .exists(let present): present ? "is present" : "is absent"
        case .isEmpty(let empty): empty ? "is empty" : "is not empty"
        case .length(.equals(let value)): "has length \(value.compactDescription())"
        case .length(let inner): "has length \(inner.predicate)"
        case .each(let inner): "has every element \(inner.predicate)"
        case .not(let inner): inner.negatedClause
        case .all(let matchers): matchers.map(\.clause).joined(separator: " and ")
        default: "is \(predicate)"
        }
    }

    /// The clause of `not` around this matcher: `does not start with "x"`, `is not empty`, `is not greater than 5`.
    private var negatedClause: String {
        switch self {
        case .contains(let value): Matcher.notContains(value).clause
        case .notContains(let value): Matcher.contains(value).clause
        case .startsWith(let value): "does not start with \(value.compactDescription())"
        case .endsWith(let value): "does not end with \(value.compactDescription())"
        case .matches(let value): "does not match \(value.compactDescription())"
        case .length, .each: "does not have \(clause.dropFirst("has ".count))"
        case .not(let inner): inner.clause
        case .exists(let present): Matcher.exists(!present).clause
        case .isEmpty(let empty): Matcher.isEmpty(!empty).clause
        case .equals(let value): Matcher.notEquals(value).clause
        case .notEquals(let value): Matcher.equals(value).clause
        case .all: "does not hold: \(clause)"
        default: "is not \(predicate)"
        }
    }

    /// The predicate of `not` around this matcher: `that is not empty`, `other than 5`, `not matching "x"`.
    private var negatedPredicate: String {
        switch self {
        case .isEmpty(let empty): Matcher.isEmpty(!empty).predicate
        case .exists(let present): Matcher.exists(!present).predicate
        case .equals(let value): Matcher.notEquals(value).predicate
        case .notEquals(let value): Matcher.equals(value).predicate
        case .contains(let value): Matcher.notContains(value).predicate
        case .notContains(let value): Matcher.contains(value).predicate
        case .not(let inner): inner.predicate
        case .length(.equals(let value)): "whose length is not \(value.compactDescription())"
        case .length(let inner): "whose length is not \(inner.predicate)"
        case .each(let inner): "with an element not \(inner.predicate)"
        case .all(let matchers): "not \(matchers.count == 2 ? "both" : "all of") \(predicate)"
        default: "not \(predicate)"
        }
    }
}

extension JSONValue {
    /// The value as compact JSON for messages, cut to `maxLength` characters with a trailing `…`.
    public func compactDescription(maxLength: Int = 120) -> String {
        let text = serialized()
        guard text.count > maxLength else { return text }
        return String(text.prefix(max(maxLength - 1, 0))) + "…"
    }

    /// A string's code points, as `U+0065 U+0301`, up to 12.
    static func codePoints(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(12).map { "U+" + String(format: "%04X", $0.value) }.joined(separator: " ")
        return text.unicodeScalars.count > 12 ? shown + " …" : shown
    }

    /// Unicode scalars of a string, elements of a list, members of an object; nil for other values.
    var matchLength: Int? {
        switch self {
        // In Unicode scalars, as JSONPath's length() and JSON Schema's minLength count: one length for one string.
        case .string(let string): string.unicodeScalars.count
        case .array(let elements): elements.count
        case .object(let object): object.count
        default: nil
        }
    }

    /// Whether the value is of `type`; `integer` is any number without a fraction.
    func hasType(_ type: JSONType) -> Bool {
        switch (type, self) {
        case (.string, .string), (.boolean, .bool), (.array, .array), (.object, .object), (.null, .null): true
        case (.number, .int), (.number, .double), (.integer, .int): true
        case (.integer, .double(let double)): double.isFinite && double.rounded(.towardZero) == double
        default: false
        }
    }
}
