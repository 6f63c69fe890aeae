import Expectations
import YAML

extension NodeDecoder {
    /// The operators that apply to `expect.duration`.
    static let durationOperators = FormatKeys.durationMatcher.names
    private static let comparisonOperators: Set = ["lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual"]

    /// A matcher: a literal means `equals`, a mapping of operators means all must hold.
    mutating func matcher(_ node: Node, for context: @autoclosure () -> String) -> Matcher<TemplateValue>? {
        matcher(node, for: context(), operators: FormatKeys.matcher.names, allowsDurations: false)
    }

    /// A body query's matcher and its `count` (the number of nodes the query selects), which only a body query's mapping
    /// of operators holds: `$[?@.age > 100]: { count: 2 }`.
    mutating func bodyMatcher(_ node: Node, for context: @autoclosure () -> String)
        -> (matcher: Matcher<TemplateValue>, count: Located<Matcher<TemplateValue>>?)? {
        guard case .mapping(let pairs) = node.content, let count = pairs.first(where: { Self.keyText($0.key) == "count" }) else {
            return matcher(node, for: context()).map { ($0, nil) }
        }
        let others = matcher(node, for: context(), operators: FormatKeys.matcher.names, allowsDurations: false, skipping: "count")
        guard let counted = sizeMatcher(count.value, for: "\(context()).count"), let others else { return nil }
        return (others, Located(counted, at: count.value.mark))
    }

    /// A matcher on durations (`expect.duration`): comparisons whose operands are durations.
    mutating func durationMatcher(_ node: Node, for context: @autoclosure () -> String) -> Matcher<Duration>? {
        guard let matcher = matcher(node, for: context(), operators: Self.durationOperators, allowsDurations: true) else {
            return nil
        }
        // Every operand that is no duration is reported, as `timeout:` reports its value.
        var valid = true
        let durations = matcher.map { operand -> Duration in
            let text = if case .string(let template) = operand.content, template.isLiteral { template.source } else { "" }
            switch DurationSyntax.read(text) {
            case .duration(let duration):
                return duration
            case .tooLong:
                error("'\(context())' may be at most \(DurationSyntax.longestText), found \(text)", at: operand.mark,
                      suggestion: "use a shorter duration")
            case .invalid:
                let (found, suggestion): (String, String) = switch operand.content {
                case .int(let number) where number >= 0: ("the integer \(number)", "add a unit, such as '\(number)s' or '\(number)ms'")
                case .string(let template) where !template.isLiteral:
                    ("the template '\(template.source)'", "write the duration itself: an expected duration takes no template")
                case .string(let template): ("the string '\(template.source)'", Self.durationHelp)
                case .int(let number): ("the integer \(number)", Self.durationHelp)
                case .double(let number): ("the number \(number)", Self.durationHelp)
                case .bool(let flag): ("\(flag)", Self.durationHelp)
                case .null: ("null", Self.durationHelp)
                case .array: ("a list", Self.durationHelp)
                case .object: ("a mapping", Self.durationHelp)
                }
                error("expected a duration like 250ms, 5s or 1m for '\(context())', found \(found)", at: operand.mark, suggestion: suggestion)
            }
            valid = false
            return .zero
        }
        return valid ? durations : nil
    }

    /// How a duration is written.
    static let durationHelp = "write a number and a unit: ms, s, m or h (such as 250ms, 5s, 1m)"

    /// A matcher of `operators`; the key `skipping` (read by the caller) is left out, and when it is the only key, the
    /// matcher checks nothing else (`.all([])`).
    private mutating func matcher(_ node: Node, for context: @autoclosure () -> String, operators: [String],
                                  allowsDurations: Bool, skipping: String? = nil) -> Matcher<TemplateValue>? {
        guard case .mapping(let pairs) = node.content else {
            return templateValue(node).map { .equals($0) }
        }
        reportCommaSplits(pairs)
        guard !pairs.isEmpty else {
            error("empty matcher for '\(context())': expected operators such as equals, contains, exists", at: node.mark)
            return nil
        }
        var matchers: [Matcher<TemplateValue>] = []
        var complete = true
        // Keys that are no operators, one of them near none: an object written as the expected value (`{ id: 1, name: x }`),
        // not typos (`{ lenght: 2, Count: 1 }`).
        let unknown = pairs.map { Self.keyText($0.key) }.filter { !operators.contains($0) && $0 != skipping }
        let objectLike = unknown.count > 1 && unknown.contains { Suggestions.closest(to: $0, among: operators + (skipping.map { [$0] } ?? [])) == nil }
        for pair in pairs {
            let name = Self.keyText(pair.key)
            if name == skipping { continue }
            guard operators.contains(name) else {
                complete = false
                // The key read apart (`count`) is among the names a typo may be of.
                reportUnknownOperator(name, value: pair.value, at: pair.key.mark, context: context(),
                                      operators: operators + (skipping.map { [$0] } ?? []), objectLike: objectLike)
                continue
            }
            if let decoded = matcherOperator(name, pair.value, context: context(), operators: operators,
                                             allowsDurations: allowsDurations) {
                matchers.append(decoded)
            } else {
                complete = false
            }
        }
        guard complete else { return nil }
        return matchers.count == 1 ? matchers[0] : .all(matchers)
    }

    /// Reports the unknown operator `name` (with its `value`); `objectLike` when other keys beside it are no operators
    /// either, an object written as the expected value.
    private mutating func reportUnknownOperator(_ name: String, value: Node, at mark: Mark, context: @autoclosure () -> String,
                                                operators: [String], objectLike: Bool) {
        if FormatKeys.matcher.names.contains(name) {
            error("operator '\(name)' does not apply to '\(context())'", at: mark,
                  suggestion: "'\(context())' allows \(operators.joined(separator: ", "))")
            return
        }
        if name == "count" {
            // The other ways to count that apply where it was written.
            let others = (operators.contains("length") ? ["for the length of this value, use 'length'"] : [])
                + (context().hasPrefix("expect.xpath") ? ["in XPath, count(): 'count(//item)': 2"] : [])
            error("'count' does not apply to '\(context())': it counts the nodes a body query selects", at: mark,
                  suggestion: (["write it beside the operators of an expect.body query ($.items[?@.active]: { count: 2 })"] + others)
                      .joined(separator: "; "))
            return
        }
        let objectHelp = "to compare with an object, write { equals: { ... } }"
        let known = Self.otherToolsNames[name.lowercased()].flatMap { operators.contains($0) ? $0 : nil }
        // A near operator is meant only where its value would do: `{ id: 1 }` is an object, not `in`, which takes a list.
        let near = known ?? Suggestions.closest(to: name, among: operators)
        let isList = if case .sequence = value.content { true } else { false }
        let fits = near.map { $0 != "in" || isList } ?? false
        error("unknown matcher operator '\(name)'", at: mark,
              suggestion: objectLike || !fits ? objectHelp : near.map { "did you mean '\($0)'?" } ?? objectHelp)
    }

    /// Operators as other tools and assertion libraries name them (lowercased), with this format's name for each.
    private static let otherToolsNames: [String: String] = [
        "oneof": "in", "anyof": "in", "isoneof": "in", "enum": "in", "eq": "equals", "equal": "equals", "is": "equals",
        "ne": "notEquals", "notequal": "notEquals", "gt": "greaterThan", "gte": "greaterThanOrEqual", "ge": "greaterThanOrEqual",
        "lt": "lessThan", "lte": "lessThanOrEqual", "le": "lessThanOrEqual", "regex": "matches", "pattern": "matches",
        "match": "matches", "includes": "contains", "prefix": "startsWith", "suffix": "endsWith", "size": "length",
        "len": "length", "empty": "isEmpty", "re": "matches", "rgx": "matches", "regexp": "matches",
        "like": "matches", "has": "contains", "isin": "in",
    ]

    /// Type names of programming languages (lowercased) and the JSON type each stands for.
    private static let otherLanguagesTypeNames = ["list": "array", "dict": "object", "map": "object", "float": "number",
                                                  "double": "number", "int": "integer", "none": "null", "nil": "null",
                                                  "bool": "boolean", "str": "string", "text": "string"]

    /// One operator and its operand.
    private mutating func matcherOperator(_ name: String, _ value: Node, context: @autoclosure () -> String, operators: [String],
                                          allowsDurations: Bool) -> Matcher<TemplateValue>? {
        func place() -> String { "\(context()).\(name)" }
        switch name {
        case "exists": return bool(value, for: place()).map { .exists($0) }
        case "isEmpty": return bool(value, for: place()).map { .isEmpty($0) }
        case "type":
            // YAML reads a bare `null` as no value: the type name is written in quotes.
            if value.isNull, value.scalarText?.isEmpty == false {
                error("expected a type name for '\(place())', found null", at: value.mark, suggestion: "quote it: type: 'null'")
                return nil
            }
            guard let typeName = string(value, for: place()) else { return nil }
            guard let type = JSONType(rawValue: typeName) else {
                error("unknown type '\(typeName)': expected one of \(JSONType.allCases.map(\.rawValue).joined(separator: ", "))",
                      at: value.mark, suggestion: Self.otherLanguagesTypeNames[typeName.lowercased()].map { "did you mean '\($0)'?" }
                          ?? Suggestions.didYouMean(typeName, among: JSONType.allCases.map(\.rawValue)))
                return nil
            }
            return .type(type)
        case "length": return sizeMatcher(value, for: place()).map { .length($0) }
        case "in":
            // One template that gives the whole list (`in: "{{ allowed }}"`, a captured list).
            if case .scalar(let scalar) = value.content, case .string = scalar.value, Self.containsTemplate(value) {
                guard let template = parseTemplate(scalar, at: value.mark) else { return nil }
                guard template.singleExpression != nil else {
                    error("'\(place())' is a template with text around it, which gives no list", at: value.mark,
                          suggestion: "write one template that gives the list (\"{{ allowed }}\"), or a list of values")
                    return nil
                }
                return .inList(TemplateValue(.string(template), mark: value.mark))
            }
            guard let items = sequence(value, for: place()) else { return nil }
            if items.isEmpty {
                error("'\(place())' is an empty list: no value is one of none", at: value.mark,
                      suggestion: "list at least one value it may be")
                return nil
            }
            let values = items.compactMap { templateValue($0) }
            return values.count == items.count ? .in(values) : nil
        case "each", "not":
            guard let nested = matcher(value, for: place(), operators: operators, allowsDurations: allowsDurations) else {
                return nil
            }
            return name == "each" ? .each(nested) : .not(nested)
        default:
            guard let operand = templateValue(value) else { return nil }
            if name == "matches" { checkPattern(operand, for: place()) }
            if Self.comparisonOperators.contains(name), !allowsDurations { checkNumber(operand, for: place()) }
            return Self.valueOperator(name, operand)
        }
    }

    /// The operators whose operand is a value.
    private static func valueOperator(_ name: String, _ operand: TemplateValue) -> Matcher<TemplateValue> {
        switch name {
        case "notEquals": .notEquals(operand)
        case "lessThan": .lessThan(operand)
        case "lessThanOrEqual": .lessThanOrEqual(operand)
        case "greaterThan": .greaterThan(operand)
        case "greaterThanOrEqual": .greaterThanOrEqual(operand)
        case "contains": .contains(operand)
        case "notContains": .notContains(operand)
        case "startsWith": .startsWith(operand)
        case "endsWith": .endsWith(operand)
        case "matches": .matches(operand)
        default: .equals(operand)
        }
    }

    /// What `length` or `count` compares a size with: an integer (or a single template, as `equals`) or a nested matcher.
    private mutating func sizeMatcher(_ node: Node, for context: @autoclosure () -> String) -> Matcher<TemplateValue>? {
        if case .mapping = node.content {
            guard let matcher = matcher(node, for: context()) else { return nil }
            // A size is a number: an operator that reads text, a list or an object would never hold on it (negated, always).
            if let name = Self.operatorReadingNoNumber(in: matcher) {
                error("'\(context())' is a number: '\(name)' never holds on one", at: node.mark,
                      suggestion: "compare the number: { greaterThan: 0 }, { in: [1, 2] }, { lessThanOrEqual: \"{{ most }}\" }")
                return nil
            }
            // So is a value other than a whole number of 0 or more it is compared with (`equals: "3"`, as a body value of 3
            // would not equal, or 3.5).
            var valid = true
            matcher.forEachCandidate { operand in
                switch operand.content {
                case .int(let size) where size >= 0: return
                case .double(let size) where size >= 0 && size == size.rounded(): return
                case .string(let template) where !template.isLiteral: return
                default:
                    guard valid else { return }
                    valid = false
                    let (shown, digits): (String, String?) = switch operand.content {
                    case .string(let template): ("the string '\(template.source)'", Double(template.source) != nil ? template.source : nil)
                    case .bool(let flag): ("\(flag)", nil)
                    case .int(let size): ("\(size)", nil)
                    case .double(let size): ("\(size)", nil)
                    case .array: ("a list", nil)
                    case .object: ("a mapping", nil)
                    default: ("null", nil)
                    }
                    error("'\(context())' is a whole number of 0 or more: \(shown) never equals one", at: operand.mark,
                          suggestion: digits.map { "write \($0) without quotes" } ?? "compare with a whole number of 0 or more, such as 3")
                }
            }
            return valid ? matcher : nil
        }
        if case .scalar(let scalar) = node.content {
            if case .int(let count) = scalar.value, count >= 0 {
                return .equals(TemplateValue(.int(count), mark: node.mark))
            }
            if case .string = scalar.value, Self.containsTemplate(node) {
                // A template with a syntax error has been reported.
                guard let template = parseTemplate(scalar, at: node.mark) else { return nil }
                if template.singleExpression != nil { return .equals(TemplateValue(.string(template), mark: node.mark)) }
            }
        }
        let digits = node.scalar.flatMap { if case .string(let text) = $0.value, Int(text).map({ $0 >= 0 }) == true { text } else { nil } }
        typeMismatch(node, expected: "a non-negative integer or a matcher", for: context(),
                     suggestion: digits.map { "write \($0) without quotes" } ?? "write a whole number, such as 2, or a matcher, such as { greaterThan: 0 }")
        return nil
    }

    /// The first operator of a size's matcher that reads no number (`each`, `contains`, `type: string`), under `not` and
    /// mappings of operators; nil when every one may hold on a number.
    private static func operatorReadingNoNumber(in matcher: Matcher<TemplateValue>) -> String? {
        switch matcher {
        case .each: "each"
        case .isEmpty: "isEmpty"
        case .contains: "contains"
        case .notContains: "notContains"
        case .startsWith: "startsWith"
        case .endsWith: "endsWith"
        case .matches: "matches"
        case .length: "length"
        case .type(let type) where type != .number && type != .integer: "type: \(type.rawValue)"
        case .not(let inner): operatorReadingNoNumber(in: inner)
        case .all(let matchers): matchers.lazy.compactMap(operatorReadingNoNumber).first
        default: nil
        }
    }

    /// A literal regular expression must compile.
    private mutating func checkPattern(_ operand: TemplateValue, for context: @autoclosure () -> String) {
        guard case .string(let template) = operand.content else {
            error("expected a regular expression (a string) for '\(context())'", at: operand.mark)
            return
        }
        if template.isLiteral, let problem = ExternalChecks.regexProblem(template.source) {
            error(problem, at: operand.mark, suggestion: template.source.isEmpty ? nil : ExternalChecks.regexHelp)
        }
    }

    /// A comparison operand must be a number (or a template that yields one).
    private mutating func checkNumber(_ operand: TemplateValue, for context: @autoclosure () -> String) {
        switch operand.content {
        case .int, .double: return
        case .string(let template) where !template.isLiteral: return
        default: error("expected a number for '\(context())'", at: operand.mark)
        }
    }
}
