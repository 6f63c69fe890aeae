public import YAML

/// A string with `{{ ... }}` expressions, parsed when the file is read.
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// A piece of a template: literal text or an expression with the mark of its `{{`.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case expression(TemplateExpression, mark: Mark)
    }

    public var segments: [Segment]
    /// The text as written (after YAML unescaping).
    public var source: String
    /// Where the scalar starts.
    public var mark: Mark

    public init(segments: [Segment], source: String, mark: Mark) {
        self.segments = segments
        self.source = source
        self.mark = mark
    }

    /// A template without expressions.
    public static func literal(_ text: String, at mark: Mark) -> Template {
        Template(segments: text.isEmpty ? [] : [.literal(text)], source: text, mark: mark)
    }

    /// The expression when the template is exactly one `{{ ... }}` (it then keeps the value's type).
    public var singleExpression: (expression: TemplateExpression, mark: Mark)? {
        if segments.count == 1, case .expression(let expression, let mark) = segments[0] { return (expression, mark) }
        return nil
    }

    /// Every expression with the mark of its `{{`.
    public var expressions: [(expression: TemplateExpression, mark: Mark)] {
        segments.compactMap { if case .expression(let e, let m) = $0 { (e, m) } else { nil } }
    }

    /// Whether the template has no expressions.
    public var isLiteral: Bool { expressions.isEmpty }

    /// The root names of the variables it reads (`user` of `{{ user.name }}`), in order.
    public var variableNames: [String] {
        expressions.compactMap { if case .variable(let path) = $0.expression { path.name } else { nil } }
    }

    /// The last keys of the paths into variables it reads (`key` of `{{ item.key }}` or `{{ users[0].key }}`): the fields of
    /// structured values it takes.
    public var fieldNames: [String] {
        expressions.compactMap { expression in
            guard case .variable(let path) = expression.expression, case .key(let key)? = path.components.last else { return nil }
            return key
        }
    }

    /// The text of its literal segments, joined: the whole value of a template without expressions.
    public var literalText: String {
        segments.map { if case .literal(let text) = $0 { text } else { "" } }.joined()
    }

    public var description: String { source }

    /// Parses `text`; `markOfOffset` maps the offset (in Unicode scalars) of a `{{` to its mark. Every expression is
    /// parsed: the error thrown is the first problem, with the others in its `following`.
    public static func parse(_ text: String, at mark: Mark, markOfOffset: (Int) -> Mark) throws(TemplateError) -> Template {
        if let plain = plain(text, at: mark) { return plain }
        let scalars = Array(text.unicodeScalars)
        var segments: [Segment] = []
        var problems: [TemplateError] = []
        var literal = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "{", index + 1 < scalars.count, scalars[index + 1] == "{" else {
                literal.append(scalars[index])
                index += 1
                continue
            }
            let openMark = markOfOffset(index)
            guard let close = closingBraces(in: scalars, from: index + 2) else {
                problems.append(TemplateError("unterminated '{{' (missing '}}')", at: openMark, suggestion: "close the expression with '}}'"))
                break
            }
            let inner = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
            index = close + 2
            let expression: TemplateExpression
            do { expression = try TemplateExpression.parse(inner, at: openMark) } catch {
                problems.append(error)
                continue
            }
            if !literal.isEmpty { segments.append(.literal(String(literal))) }
            literal = String.UnicodeScalarView()
            segments.append(.expression(expression, mark: openMark))
        }
        if !literal.isEmpty { segments.append(.literal(String(literal))) }
        let template = Template(segments: segments, source: text, mark: mark)
        if var first = problems.first {
            first.following = Array(problems.dropFirst())
            if !template.isLiteral { first.wellFormedPart = template }
            throw first
        }
        return template
    }

    /// The template of a text without `{{`, one literal, found by a scan of its UTF-8 bytes (most texts of
    /// a collection are plain); nil when the text has `{{` and needs parsing.
    static func plain(_ text: String, at mark: Mark) -> Template? {
        var afterBrace = false
        for byte in text.utf8 {
            let isBrace = byte == UInt8(ascii: "{")
            if isBrace && afterBrace { return nil }
            afterBrace = isBrace
        }
        return Template(segments: text.isEmpty ? [] : [.literal(text)], source: text, mark: mark)
    }

    /// The offset of the first `}}` at or after `start`, or nil.
    private static func closingBraces(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 1 < scalars.count {
            if scalars[index] == "}" && scalars[index + 1] == "}" { return index }
            index += 1
        }
        return nil
    }
}

/// What is inside `{{ ... }}`: a variable path or a built-in.
public enum TemplateExpression: Sendable, Hashable, CustomStringConvertible {
    /// A variable name with dotted keys and indexes: `user.emails[0]`.
    case variable(VariablePath)
    case builtin(Builtin)

    /// The built-in values.
    public enum Builtin: Sendable, Hashable {
        case uuid, timestamp, isoDate, isoTimestamp, randomInt, randomEmail, randomName
        /// `$randomInt(MIN, MAX)`: a random integer in the range, both ends included.
        case randomIntIn(ClosedRange<Int>)
        /// `$randomString(N)`: N random letters and digits.
        case randomString(Int)
        /// `$env.NAME`: a process environment variable.
        case env(String)

        /// The names after `$`.
        public static let names = ["uuid", "timestamp", "isoDate", "isoTimestamp", "randomInt", "randomString", "randomEmail",
                                   "randomName", "env"]
        /// The longest `$randomString(N)`.
        public static let longestRandomString = 10_000

        /// Whether the value is random (a run that uses one prints its seed).
        public var isRandom: Bool {
            switch self {
            case .uuid, .randomInt, .randomEmail, .randomName, .randomIntIn, .randomString: true
            case .timestamp, .isoDate, .isoTimestamp, .env: false
            }
        }
    }

    public var description: String {
        switch self {
        case .variable(let path): path.description
        case .builtin(.env(let name)): "$env.\(name)"
        case .builtin(.randomIntIn(let range)): "$randomInt(\(range.lowerBound), \(range.upperBound))"
        case .builtin(.randomString(let length)): "$randomString(\(length))"
        case .builtin(let builtin): "$\(builtin)"
        }
    }

    /// Parses the text between `{{` and `}}`; errors point at the `{{`.
    static func parse(_ text: String, at mark: Mark) throws(TemplateError) -> TemplateExpression {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw TemplateError("empty expression '{{\(text)}}'", at: mark,
                                suggestion: "write a variable name, such as '{{ userId }}'")
        }
        if trimmed.hasPrefix("$") { return .builtin(try parseBuiltin(String(trimmed.dropFirst()), at: mark)) }
        do {
            return .variable(try VariablePath.parse(trimmed))
        } catch {
            throw TemplateError("invalid expression '\(trimmed)': \(error.reason)", at: mark,
                                suggestion: "use a variable name with dotted keys and indexes, such as 'user.emails[0]'")
        }
    }

    private static func parseBuiltin(_ text: String, at mark: Mark) throws(TemplateError) -> Builtin {
        switch text {
        case "uuid": return .uuid
        case "timestamp": return .timestamp
        case "isoDate": return .isoDate
        case "isoTimestamp": return .isoTimestamp
        case "randomInt": return .randomInt
        case "randomEmail": return .randomEmail
        case "randomName": return .randomName
        case "randomString":
            throw TemplateError("'$randomString' needs a length", at: mark, suggestion: "write $randomString(N), such as $randomString(12)")
        default:
            if text.hasPrefix("env.") {
                let name = String(text.dropFirst(4))
                if isEnvironmentVariableName(name) { return .env(name) }
                throw TemplateError("invalid environment variable name '\(name)' in '$env.\(name)'", at: mark)
            }
            if text == "env" {
                throw TemplateError("'$env' needs a variable name", at: mark, suggestion: "write '$env.NAME'")
            }
            if let open = text.firstIndex(of: "(") { return try parseCall(String(text[..<open]).trimmingWhitespace(), text, at: mark) }
            let name = text.prefix { $0 != "." && $0 != "[" }
            throw TemplateError("unknown built-in '$\(text)'", at: mark,
                                suggestion: Suggestions.closest(to: String(name), among: Builtin.names)
                                    .map { "did you mean '$\($0)'?" } ?? "built-ins are \(Builtin.names.map { "$" + $0 }.joined(separator: ", "))")
        }
    }

    /// A built-in with arguments: `$randomInt(MIN, MAX)` or `$randomString(N)`; `text` is the whole call.
    private static func parseCall(_ name: String, _ text: String, at mark: Mark) throws(TemplateError) -> Builtin {
        let usage = ["randomInt": "$randomInt(MIN, MAX)", "randomString": "$randomString(N)"]
        guard let form = usage[name] else {
            // A built-in without arguments written as a call (`$uuid()`).
            if Builtin.names.contains(name) {
                throw TemplateError("'$\(name)' takes no arguments, found '$\(text)'", at: mark, suggestion: "write $\(name), without parentheses")
            }
            throw TemplateError("unknown built-in '$\(name)' in '$\(text)'", at: mark,
                                suggestion: "built-ins with arguments are $randomInt(MIN, MAX) and $randomString(N)")
        }
        let arguments = text.hasSuffix(")")
            ? text.dropFirst(name.count + 1).dropLast().split(separator: ",", omittingEmptySubsequences: false)
                .map { Int(String($0).trimmingWhitespace()) }
            : [nil]
        let numbers = arguments.compactMap { $0 }
        let wanted = name == "randomInt" ? 2 : 1
        guard numbers.count == arguments.count, numbers.count == wanted else {
            throw TemplateError("'$\(text)' needs \(wanted == 2 ? "two integers" : "one integer"): write \(form)", at: mark,
                                suggestion: name == "randomInt" ? "for example $randomInt(1, 100)" : "for example $randomString(12)")
        }
        if name == "randomInt" {
            guard numbers[0] <= numbers[1] else {
                throw TemplateError("'$\(text)': MIN (\(numbers[0])) is greater than MAX (\(numbers[1]))", at: mark,
                                    suggestion: "write $randomInt(\(numbers[1]), \(numbers[0]))")
            }
            return .randomIntIn(numbers[0]...numbers[1])
        }
        guard (1...Builtin.longestRandomString).contains(numbers[0]) else {
            throw TemplateError("'$\(text)': the length must be from 1 to \(Builtin.longestRandomString)", at: mark)
        }
        return .randomString(numbers[0])
    }
}

/// Whether `name` is a portable environment variable name: `[A-Za-z_][A-Za-z0-9_]*`.
func isEnvironmentVariableName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
}

/// A variable name followed by keys and indexes, as in `user.emails[0]`.
public struct VariablePath: Sendable, Hashable, CustomStringConvertible {
    /// One step into a structured value.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var name: String
    public var components: [Component]

    public init(name: String, components: [Component] = []) {
        self.name = name
        self.components = components
    }

    public var description: String {
        name + components.map { component in
            switch component {
            case .key(let key): key.unicodeScalars.allSatisfy(Self.isNameCharacter) ? ".\(key)" : "[\"\(key)\"]"
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }

    /// The description of the path up to (excluding) component `count`.
    func prefix(_ count: Int) -> String {
        VariablePath(name: name, components: Array(components.prefix(count))).description
    }

    /// Why a path did not parse.
    struct SyntaxError: Error {
        let reason: String
    }

    /// Whether a character may appear in a variable name (letters, digits, `_`, `-`).
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        // Unicode properties are a table lookup; ASCII (nearly every name) is answered above.
        default: !scalar.isASCII && scalar.properties.isAlphabetic
        }
    }

    /// Whether `text` is a valid variable name (not starting with a digit or `-`).
    public static func isValidName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first != "-", !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy(isNameCharacter)
    }

    /// Parses `name(.key|[index]|["key"])*`.
    static func parse(_ text: String) throws(SyntaxError) -> VariablePath {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func readName() -> String {
            let start = index
            while index < scalars.count, isNameCharacter(scalars[index]) { index += 1 }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }
        let name = readName()
        guard isValidName(name) else {
            throw SyntaxError(reason: name.isEmpty ? "expected a variable name" : "'\(name)' is not a valid variable name")
        }
        var components: [Component] = []
        while index < scalars.count {
            switch scalars[index] {
            case ".":
                index += 1
                let key = readName()
                guard !key.isEmpty else { throw SyntaxError(reason: "expected a key after '.'") }
                components.append(.key(key))
            case "[":
                index += 1
                components.append(try readBracket(scalars, &index))
            default:
                throw SyntaxError(reason: "unexpected '\(scalars[index])'")
            }
        }
        return VariablePath(name: name, components: components)
    }

    /// Reads `123]` or `"key"]` after a `[`.
    private static func readBracket(_ scalars: [Unicode.Scalar], _ index: inout Int) throws(SyntaxError) -> Component {
        guard index < scalars.count else { throw SyntaxError(reason: "unterminated '['") }
        let quote = scalars[index]
        if quote == "\"" || quote == "'" {
            let start = index + 1
            guard let end = scalars[start...].firstIndex(of: quote), end + 1 < scalars.count, scalars[end + 1] == "]" else {
                throw SyntaxError(reason: "unterminated quoted key")
            }
            index = end + 2
            return .key(String(String.UnicodeScalarView(scalars[start..<end])))
        }
        let start = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        guard index > start, index < scalars.count, scalars[index] == "]",
              let number = Int(String(String.UnicodeScalarView(scalars[start..<index]))) else {
            throw SyntaxError(reason: "expected a non-negative integer index or a quoted key in '[...]'")
        }
        index += 1
        return .index(number)
    }
}

/// A problem with a template: a syntax error when the file is read, or an undefined variable when resolved.
public struct TemplateError: Error, Sendable, Hashable {
    public var message: String
    public var mark: Mark
    public var suggestion: String?
    /// The problems after this one in the same template (each expression of a template is checked).
    public var following: [TemplateError] = []
    /// For a syntax error, the template's well-formed expressions (nil when it has none): still checked, so that every
    /// problem of the text shows.
    public var wellFormedPart: Template?
    /// The variable no layer defines, for an undefined variable.
    public var undefinedName: String?
    /// For an undefined variable, the defined name close to it that the suggestion offers, if any.
    public var closeName: String?
    /// Whether the value is set but cannot be read (a process variable whose value is not UTF-8): unlike an unset one,
    /// never taken as absent.
    public var valueIsNotText = false

    public init(_ message: String, at mark: Mark, suggestion: String? = nil) {
        self.message = message
        self.mark = mark
        self.suggestion = suggestion
    }

    /// The error as a diagnostic in `path`.
    public func diagnostic(in path: String?) -> Diagnostic {
        .error(message, path: path, at: mark, suggestion: suggestion)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
