import HTTPCore

/// Parses RFC 9535 query text into a `PathQuery`, checking well-typedness of filter expressions.
struct JSONPathParser {
    /// The largest magnitude an index, slice bound or integer may have (I-JSON, 2^53 - 1).
    static let maximumInteger = 9_007_199_254_740_991

    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// The literal patterns of `match()` and `search()` that are no I-Regexp, in order.
    private var patternsMatchingNothing: [String] = []

    /// Parses a whole query, which must start with `$` and have no surrounding whitespace; with the literal patterns of
    /// `match()` and `search()` that are no I-Regexp (valid RFC 9535, but they match nothing).
    static func parse(_ text: String) throws(JSONPathError) -> (query: PathQuery, patternsMatchingNothing: [String]) {
        var parser = JSONPathParser(text: text)
        guard parser.current == "$" else { throw parser.error("a JSONPath query must start with '$'") }
        let query = try parser.parseQuery()
        guard parser.position == parser.scalars.count else {
            throw parser.error("unexpected \(parser.describeCurrent())")
        }
        return (query, parser.patternsMatchingNothing)
    }

    private init(text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    // MARK: Queries and segments

    /// A query at `$` or `@` with its segments.
    private mutating func parseQuery() throws(JSONPathError) -> PathQuery {
        let isAbsolute = current == "$"
        position += 1
        var segments: [PathSegment] = []
        while true {
            let save = position
            skipBlanks()
            guard let scalar = current, scalar == "." || scalar == "[" else {
                position = save
                break
            }
            segments.append(try parseSegment())
        }
        return PathQuery(isAbsolute: isAbsolute, segments: segments)
    }

    private mutating func parseSegment() throws(JSONPathError) -> PathSegment {
        if current == "[" {
            return PathSegment(isDescendant: false, selectors: try parseBracketedSelection())
        }
        position += 1  // "."
        if current == "." {
            position += 1
            if current == "[" {
                return PathSegment(isDescendant: true, selectors: try parseBracketedSelection())
            }
            return PathSegment(isDescendant: true, selectors: [try parseShorthand(after: "..")])
        }
        return PathSegment(isDescendant: false, selectors: [try parseShorthand(after: ".")])
    }

    /// `*` or a member name directly after `.` or `..`.
    private mutating func parseShorthand(after prefix: String) throws(JSONPathError) -> PathSelector {
        guard let scalar = current else { throw error("expected a name or '*' after '\(prefix)'") }
        if scalar == "*" {
            position += 1
            return .wildcard
        }
        guard Self.isNameFirst(scalar) else {
            throw error("expected a name or '*' after '\(prefix)', found \(describeCurrent())")
        }
        let start = position
        while let next = current, Self.isNameFirst(next) || ("0"..."9").contains(next) { position += 1 }
        return .name(String(String.UnicodeScalarView(scalars[start..<position])))
    }

    /// Whether `scalar` may start a member-name shorthand (ALPHA, `_`, or non-ASCII).
    static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    private mutating func parseBracketedSelection() throws(JSONPathError) -> [PathSelector] {
        position += 1  // "["
        var selectors: [PathSelector] = []
        while true {
            skipBlanks()
            selectors.append(try parseSelector())
            skipBlanks()
            switch current {
            case ",": position += 1
            case "]":
                position += 1
                return selectors
            default: throw error("expected ',' or ']' in bracketed selection, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseSelector() throws(JSONPathError) -> PathSelector {
        guard let scalar = current else { throw error("expected a selector") }
        switch scalar {
        case "'", "\"": return .name(try parseStringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            let start = position
            let expression = try parseOr()
            return .filter(try parseLogical(expression, at: start))
        case ":", "-", "0"..."9":
            return try parseIndexOrSlice()
        default:
            throw error("expected a selector (name, '*', index, slice or filter), found \(describeCurrent())")
        }
    }

    private mutating func parseIndexOrSlice() throws(JSONPathError) -> PathSelector {
        let start = current == ":" ? nil : try parseInteger()
        skipBlanksIfFollowedBy(":")
        guard current == ":" else {
            guard let start else { throw error("expected an index") }
            return .index(start)
        }
        position += 1
        skipBlanks()
        var end: Int?
        if let scalar = current, scalar == "-" || ("0"..."9").contains(scalar) {
            end = try parseInteger()
            skipBlanksIfFollowedBy(":")
        }
        var step: Int?
        if current == ":" {
            position += 1
            skipBlanks()
            if let scalar = current, scalar == "-" || ("0"..."9").contains(scalar) { step = try parseInteger() }
        }
        return .slice(start: start, end: end, step: step)
    }

    /// An RFC 9535 `int`: no leading zeros, no `-0`, within ±(2^53 - 1).
    private mutating func parseInteger() throws(JSONPathError) -> Int {
        let start = position
        if current == "-" { position += 1 }
        let digitsStart = position
        while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        let digits = scalars[digitsStart..<position]
        guard !digits.isEmpty else { throw error("expected digits") }
        if digits.first == "0" && (digits.count > 1 || digitsStart > start) {
            throw error(digits.count > 1 ? "leading zeros are not allowed" : "'-0' is not allowed", at: start)
        }
        let literal = String(String.UnicodeScalarView(scalars[start..<position]))
        guard let value = Int(literal), value.magnitude <= Self.maximumInteger.magnitude else {
            throw error("integer \(literal) is outside the range ±(2^53 - 1)", at: start)
        }
        return value
    }

    // MARK: String literals

    /// A single- or double-quoted string literal with RFC 9535 escapes.
    private mutating func parseStringLiteral() throws(JSONPathError) -> String {
        let quote = current!
        let start = position
        position += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = current else { throw error("unterminated string literal", at: start) }
            if scalar == quote {
                position += 1
                return String(result)
            }
            if scalar.value < 0x20 { throw error("control character in string literal must be escaped") }
            if scalar == "\\" {
                result.append(try parseEscape(quote: quote))
            } else {
                result.append(scalar)
                position += 1
            }
        }
    }

    private mutating func parseEscape(quote: Unicode.Scalar) throws(JSONPathError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard let scalar = current else { throw error("unterminated escape sequence", at: start) }
        position += 1
        switch scalar {
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "/": return "/"
        case "\\": return "\\"
        case "u":
            let high = try parseHex4()
            if (0xDC00...0xDFFF).contains(high) { throw error("unpaired low surrogate escape", at: start) }
            guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high)! }
            guard current == "\\", position + 1 < scalars.count, scalars[position + 1] == "u" else {
                throw error("high surrogate escape must be followed by a low surrogate escape", at: start)
            }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("high surrogate escape must be followed by a low surrogate escape", at: start)
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        default:
            if scalar == quote { return scalar }
            throw error("invalid escape sequence '\\\(scalar)'", at: start)
        }
    }

    private mutating func parseHex4() throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = current, scalar.isASCII, let digit = UInt32(String(scalar), radix: 16) else {
                throw error("expected four hex digits in '\\u' escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Filter expressions

    /// What an expression parsed as: a logical expression or a bare operand not yet given a role.
    private enum ParsedExpression {
        case logical(LogicalExpression)
        case literal(JSONValue)
        case query(PathQuery)
        case function(FunctionCall)
    }

    /// `a || b || …`
    private mutating func parseOr() throws(JSONPathError) -> ParsedExpression {
        try parseChain(separatedBy: "||", operand: { (parser) throws(JSONPathError) in try parser.parseAnd() },
                       combine: LogicalExpression.or)
    }

    /// `a && b && …`
    private mutating func parseAnd() throws(JSONPathError) -> ParsedExpression {
        try parseChain(separatedBy: "&&", operand: { (parser) throws(JSONPathError) in try parser.parseBasic() },
                       combine: LogicalExpression.and)
    }

    /// Operands joined by `token`; a single operand is returned as parsed, several are combined.
    private mutating func parseChain(
        separatedBy token: String,
        operand parseOperand: (inout JSONPathParser) throws(JSONPathError) -> ParsedExpression,
        combine: ([LogicalExpression]) -> LogicalExpression
    ) throws(JSONPathError) -> ParsedExpression {
        let firstStart = position
        let first = try parseOperand(&self)
        var operands: [LogicalExpression] = []
        while skipBlanksIfFollowedBy(token) {
            if operands.isEmpty { operands.append(try parseLogical(first, at: firstStart)) }
            position += token.unicodeScalars.count
            skipBlanks()
            let start = position
            let next = try parseOperand(&self)
            operands.append(try parseLogical(next, at: start))
        }
        return operands.isEmpty ? first : .logical(combine(operands))
    }

    /// A parenthesised expression, a negated test, or an operand with an optional comparison.
    private mutating func parseBasic() throws(JSONPathError) -> ParsedExpression {
        if current == "!" {
            position += 1
            skipBlanks()
            if current == "(" { return .logical(.not(try parseParenthesised())) }
            let start = position
            let operand = try parseOperand()
            return .logical(.not(try parseLogical(operand, at: start)))
        }
        if current == "(" { return .logical(try parseParenthesised()) }
        let start = position
        let left = try parseOperand()
        guard let comparison = parseComparisonOperator() else { return left }
        let right = try parseComparisonSide()
        return .logical(.comparison(try comparisonOperand(left, at: start), comparison, right))
    }

    private mutating func parseParenthesised() throws(JSONPathError) -> LogicalExpression {
        position += 1
        skipBlanks()
        let start = position
        let parsed = try parseOr()
        let inner = try parseLogical(parsed, at: start)
        skipBlanks()
        guard current == ")" else { throw error("expected ')', found \(describeCurrent())") }
        position += 1
        return inner
    }

    private mutating func parseComparisonOperator() -> ComparisonOperator? {
        let save = position
        skipBlanks()
        for comparison in [ComparisonOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where follows(comparison.rawValue) {
            position += comparison.rawValue.unicodeScalars.count
            skipBlanks()
            return comparison
        }
        position = save
        return nil
    }

    private mutating func parseComparisonSide() throws(JSONPathError) -> ComparisonOperand {
        let start = position
        return try comparisonOperand(try parseOperand(), at: start)
    }

    /// A literal, a query (`@…`, `$…`) or a function call.
    private mutating func parseOperand() throws(JSONPathError) -> ParsedExpression {
        guard let scalar = current else { throw error("expected an expression") }
        switch scalar {
        case "@", "$": return .query(try parseQuery())
        case "'", "\"": return .literal(.string(try parseStringLiteral()))
        case "-", "0"..."9": return .literal(try parseNumberLiteral())
        case "a"..."z":
            let start = position
            while let next = current, ("a"..."z").contains(next) || ("0"..."9").contains(next) || next == "_" {
                position += 1
            }
            let word = String(String.UnicodeScalarView(scalars[start..<position]))
            if current == "(" { return .function(try parseFunctionCall(named: word, at: start)) }
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: throw error("unknown word '\(word)' (functions need '(' right after the name)", at: start)
            }
        default:
            throw error("expected an expression, found \(describeCurrent())")
        }
    }

    /// An RFC 9535 number literal: `-0` allowed, no leading zeros, optional fraction and exponent.
    private mutating func parseNumberLiteral() throws(JSONPathError) -> JSONValue {
        let start = position
        if current == "-" { position += 1 }
        let digitsStart = position
        while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        guard position > digitsStart else { throw error("expected digits in number") }
        if scalars[digitsStart] == "0" && position - digitsStart > 1 {
            throw error("leading zeros are not allowed", at: start)
        }
        var isInteger = true
        if current == "." {
            isInteger = false
            position += 1
            guard let scalar = current, ("0"..."9").contains(scalar) else { throw error("expected digits after '.'") }
            while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        }
        if current == "e" || current == "E" {
            isInteger = false
            position += 1
            if current == "+" || current == "-" { position += 1 }
            guard let scalar = current, ("0"..."9").contains(scalar) else { throw error("expected digits in exponent") }
            while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        }
        let literal = String(String.UnicodeScalarView(scalars[start..<position]))
        if isInteger, let int = Int(literal) { return .int(int) }
        guard let double = Double(literal) else { throw error("invalid number \(literal)", at: start) }
        return .double(double)
    }

    private mutating func parseFunctionCall(named name: String, at start: Int) throws(JSONPathError) -> FunctionCall {
        guard let function = FunctionName(rawValue: name) else { throw error("unknown function '\(name)'", at: start) }
        position += 1  // "("
        skipBlanks()
        var arguments: [FunctionArgument] = []
        if current != ")" {
            while true {
                let argumentStart = position
                let parsed = try parseOr()
                let index = arguments.count
                guard index < function.parameterTypes.count else {
                    throw error("too many arguments for \(name)(), which takes \(function.parameterTypes.count)",
                                at: argumentStart)
                }
                arguments.append(try argument(parsed, as: function.parameterTypes[index], of: name, at: argumentStart))
                skipBlanks()
                guard current == "," else { break }
                position += 1
                skipBlanks()
            }
        }
        guard current == ")" else { throw error("expected ',' or ')' in call of \(name)(), found \(describeCurrent())") }
        position += 1
        guard arguments.count == function.parameterTypes.count else {
            throw error("\(name)() takes \(function.parameterTypes.count) argument(s), got \(arguments.count)", at: start)
        }
        let pattern = Self.literalPattern(function, arguments)
        if case .invalid? = pattern, case .literal(.string(let text)) = arguments[1] { patternsMatchingNothing.append(text) }
        return FunctionCall(name: function, arguments: arguments, literalPattern: pattern)
    }

    /// Compiles the pattern of `match`/`search` once when it is a literal.
    private static func literalPattern(_ function: FunctionName, _ arguments: [FunctionArgument]) -> CompiledPattern? {
        guard function == .match || function == .search, case .literal(let pattern) = arguments[1] else { return nil }
        guard case .string(let text) = pattern,
              let expression = IRegexpTranslator.compile(text, fullMatch: function == .match) else { return .invalid }
        return .valid(expression)
    }

    // MARK: Well-typedness

    /// Checks a function argument against its declared parameter type (RFC 9535 §2.4.3).
    private func argument(
        _ parsed: ParsedExpression, as type: FunctionType, of name: String, at start: Int
    ) throws(JSONPathError) -> FunctionArgument {
        switch (type, parsed) {
        case (.value, .literal(let value)): return .literal(value)
        case (.value, .query(let query)):
            guard query.isSingular else {
                throw error("argument of \(name)() must be a single value, but the query is not singular", at: start)
            }
            return .query(query)
        case (.value, .function(let call)) where call.name.resultType == .value: return .function(call)
        case (.value, _): throw error("argument of \(name)() must be a value (literal, singular query or value function)",
                                      at: start)
        case (.nodes, .query(let query)): return .query(query)
        case (.nodes, .function(let call)) where call.name.resultType == .nodes: return .function(call)
        case (.nodes, _): throw error("argument of \(name)() must be a query", at: start)
        case (.logical, .literal): throw error("argument of \(name)() must be a logical expression", at: start)
        case (.logical, _): return .logical(try parseLogical(parsed, at: start))
        }
    }

    /// The expression as a logical expression: a query becomes an existence test.
    private func parseLogical(_ parsed: ParsedExpression, at start: Int) throws(JSONPathError) -> LogicalExpression {
        switch parsed {
        case .logical(let logical): return logical
        case .query(let query): return .exists(query)
        case .function(let call):
            guard call.name.resultType != .value else {
                throw error("\(call.name.rawValue)() returns a value, which must be compared, not used as a test",
                            at: start)
            }
            return .function(call)
        case .literal:
            throw error("a literal must be compared, not used as a test", at: start)
        }
    }

    /// The expression as a side of a comparison: a literal, singular query or value function.
    private func comparisonOperand(_ parsed: ParsedExpression, at start: Int) throws(JSONPathError) -> ComparisonOperand {
        switch parsed {
        case .literal(let value): return .literal(value)
        case .query(let query):
            guard query.isSingular else { throw error("a compared query must be singular", at: start) }
            return .singularQuery(query)
        case .function(let call):
            guard call.name.resultType == .value else {
                throw error("\(call.name.rawValue)() returns a logical value, which cannot be compared", at: start)
            }
            return .function(call)
        case .logical:
            throw error("a logical expression cannot be compared", at: start)
        }
    }

    // MARK: Scanning

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func follows(_ token: String) -> Bool {
        var index = position
        for scalar in token.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    private mutating func skipBlanks() {
        while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { position += 1 }
    }

    /// Skips blanks only when `token` follows them; reports whether it does.
    @discardableResult
    private mutating func skipBlanksIfFollowedBy(_ token: String) -> Bool {
        let save = position
        skipBlanks()
        if follows(token) { return true }
        position = save
        return false
    }

    private func describeCurrent() -> String {
        guard let scalar = current else { return "end of query" }
        return "'\(scalar)'"
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONPathError {
        JSONPathError(message: message, query: text, offset: offset ?? position)
    }
}
