internal import Foundation
internal import Synchronization

/// A compiled ICU regular expression (NSRegularExpression), shareable across tasks.
struct RegularExpression: @unchecked Sendable {
    // NSRegularExpression is immutable and documented as thread-safe.
    private let expression: NSRegularExpression

    /// Compiles an ICU pattern, throwing what is wrong with it in words.
    init(icuPattern: String) throws(RegularExpressionError) {
        do {
            // ICU refuses an empty pattern, which matches everywhere (a JSON Schema `pattern` may be one).
            expression = try NSRegularExpression(pattern: icuPattern.isEmpty ? "(?:)" : icuPattern)
        } catch {
            throw RegularExpressionError(pattern: icuPattern, reason: Self.reason(icuPattern))
        }
    }

    /// Why ICU refused a pattern. Foundation's error says only "The value is invalid"; Swift's regex parser reads the
    /// same syntax and says what it expected where (`expected ']'`), so its message is the reason when it refuses the
    /// pattern too.
    private static func reason(_ pattern: String) -> String {
        // Swift's parser recurses once per open bracket or group: a deep nest would overflow the stack.
        guard nestingDepth(of: pattern) <= maximumNesting else {
            return "it nests brackets or groups more than \(maximumNesting) deep"
        }
        do {
            _ = try Regex(pattern)
            return "this syntax is not supported by ICU regular expressions"
        } catch {
            return "\(error)"
        }
    }

    /// How deep Swift's regex parser is asked to nest `[` and `(`.
    private static let maximumNesting = 64

    /// The deepest nesting of unescaped `[` and `(` in `pattern`.
    private static func nestingDepth(of pattern: String) -> Int {
        var (depth, deepest, escaped) = (0, 0, false)
        for byte in pattern.utf8 {
            if escaped { escaped = false; continue }
            switch byte {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "["), UInt8(ascii: "("): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: ")"): depth = max(depth - 1, 0)
            default: break
            }
        }
        return deepest
    }

    /// Whether the pattern matches somewhere in `text`.
    func hasMatch(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The compiled expressions by pattern, so repeated checks do not recompile.
    private static let cache = RegularExpressionCache()

    /// The compiled expression for an ICU pattern, from the cache when compiled before.
    static func cached(icuPattern: String) throws(RegularExpressionError) -> RegularExpression {
        try cache.expression(for: icuPattern)
    }
}

/// An ICU pattern that did not compile.
struct RegularExpressionError: Error, Sendable {
    let pattern: String
    let reason: String
}

/// A bounded memo of compiled patterns, behind a mutex.
private final class RegularExpressionCache: Sendable {
    private let compiled = Mutex<[String: Result<RegularExpression, RegularExpressionError>]>([:])
    private let capacity = 512

    func expression(for pattern: String) throws(RegularExpressionError) -> RegularExpression {
        if let hit = compiled.withLock({ $0[pattern] }) { return try hit.get() }
        let result: Result<RegularExpression, RegularExpressionError>
        do throws(RegularExpressionError) {
            result = .success(try RegularExpression(icuPattern: pattern))
        } catch {
            result = .failure(error)
        }
        compiled.withLock { compiled in
            if compiled.count >= capacity { compiled.removeAll(keepingCapacity: true) }
            compiled[pattern] = result
        }
        return try result.get()
    }
}

/// Translates RFC 9485 I-Regexp patterns to equivalent ICU patterns, rejecting anything else.
///
/// `.` matches any character but `\n` and `\r`; `^` and `$` outside classes anchor at the start and
/// end of the string (as the JSONPath compliance suite expects), and every other character is literal.
struct IRegexpTranslator {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var output = ""

    /// The ICU pattern for `pattern`, anchored for a full match or not for a search; nil when not I-Regexp.
    static func icuPattern(for pattern: String, fullMatch: Bool) -> String? {
        var translator = IRegexpTranslator(scalars: Array(pattern.unicodeScalars))
        guard translator.translateAlternatives(), translator.position == translator.scalars.count else { return nil }
        return fullMatch ? "\\A(?:\(translator.output))\\z" : translator.output
    }

    /// The compiled expression for an I-Regexp pattern (cached), or nil when it is not valid I-Regexp.
    static func compile(_ pattern: String, fullMatch: Bool) -> RegularExpression? {
        guard let icu = icuPattern(for: pattern, fullMatch: fullMatch) else { return nil }
        return try? RegularExpression.cached(icuPattern: icu)
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func translateAlternatives() -> Bool {
        guard translateBranch() else { return false }
        while current == "|" {
            position += 1
            output += "|"
            guard translateBranch() else { return false }
        }
        return true
    }

    private mutating func translateBranch() -> Bool {
        while let scalar = current, scalar != "|", scalar != ")" {
            guard translateAtom(), translateQuantifier() else { return false }
        }
        return true
    }

    private mutating func translateAtom() -> Bool {
        guard let scalar = current else { return false }
        switch scalar {
        case "(":
            position += 1
            output += "(?:"
            guard translateAlternatives(), current == ")" else { return false }
            position += 1
            output += ")"
            return true
        case ".":
            position += 1
            output += "[^\\n\\r]"
            return true
        case "[":
            return translateClassExpression()
        case "\\":
            guard let escaped = translateEscape(allowCategories: true) else { return false }
            output += escaped
            return true
        case ")", "*", "+", "?", "{", "}", "]", "|":
            return false
        case "^", "$":
            // Literal in XSD, but anchors as ECMAScript and the compliance suite read them.
            position += 1
            output += scalar == "^" ? "\\A" : "\\z"
            return true
        default:
            position += 1
            output += Self.literal(scalar)
            return true
        }
    }

    private mutating func translateQuantifier() -> Bool {
        guard let scalar = current else { return true }
        switch scalar {
        case "*", "+", "?":
            position += 1
            output.unicodeScalars.append(scalar)
        case "{":
            position += 1
            guard let minimum = digits() else { return false }
            var text = "{\(minimum)"
            if current == "," {
                position += 1
                text += ","
                if let maximum = digits() {
                    guard maximum >= minimum else { return false }
                    text += "\(maximum)"
                }
            }
            guard current == "}" else { return false }
            position += 1
            output += text + "}"
        default:
            break
        }
        return true
    }

    private mutating func digits() -> Int? {
        let start = position
        while let scalar = current, ("0"..."9").contains(scalar) { position += 1 }
        guard position > start else { return nil }
        return Int(String(String.UnicodeScalarView(scalars[start..<position])))
    }

    /// An escape at `position` (a backslash): a single-character escape or `\p{…}`/`\P{…}`.
    private mutating func translateEscape(allowCategories: Bool) -> String? {
        position += 1
        guard let scalar = current else { return nil }
        position += 1
        switch scalar {
        case "n": return "\\n"
        case "r": return "\\r"
        case "t": return "\\t"
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return Self.literal(scalar)
        case "p", "P":
            guard allowCategories, current == "{" else { return nil }
            position += 1
            let start = position
            while let next = current, next != "}" { position += 1 }
            guard current == "}" else { return nil }
            let name = String(String.UnicodeScalarView(scalars[start..<position]))
            position += 1
            guard Self.categories.contains(name) else { return nil }
            return "\\\(scalar){\(name)}"
        default: return nil
        }
    }

    private static let categories: Set<String> = [
        "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
        "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
    ]

    /// A bracketed class `[…]` at `position`.
    private mutating func translateClassExpression() -> Bool {
        position += 1
        var translated = "["
        if current == "^" {
            position += 1
            translated += "^"
        }
        var first = true
        while let scalar = current, scalar != "]" {
            if scalar == "-" {
                // A literal '-' only first or last.
                let isLast = position + 1 < scalars.count && scalars[position + 1] == "]"
                guard first || isLast else { return false }
                position += 1
                translated += Self.literal("-")
                first = false
                continue
            }
            if scalar == "\\", position + 1 < scalars.count, scalars[position + 1] == "p" || scalars[position + 1] == "P" {
                guard let category = translateEscape(allowCategories: true) else { return false }
                translated += category
                first = false
                continue
            }
            guard let low = classCharacter() else { return false }
            translated += low.text
            if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                guard let high = classCharacter(), high.scalar.value >= low.scalar.value else { return false }
                translated += "-" + high.text
            }
            first = false
        }
        guard current == "]", !first else { return false }
        position += 1
        output += translated + "]"
        return true
    }

    /// One class character (literal or single-character escape) as a scalar and its ICU spelling.
    private mutating func classCharacter() -> (scalar: Unicode.Scalar, text: String)? {
        guard let scalar = current else { return nil }
        switch scalar {
        case "\\":
            guard position + 1 < scalars.count else { return nil }
            let escaped = scalars[position + 1]
            guard let text = translateEscape(allowCategories: false) else { return nil }
            let value: Unicode.Scalar = switch escaped {
            case "n": "\n"
            case "r": "\r"
            case "t": "\t"
            default: escaped
            }
            return (value, text)
        case "[", "]", "-":
            return nil
        default:
            position += 1
            return (scalar, Self.literal(scalar))
        }
    }

    /// A scalar spelled so ICU reads it literally everywhere.
    private static func literal(_ scalar: Unicode.Scalar) -> String {
        if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { return String(scalar) }
        return "\\x{\(String(scalar.value, radix: 16))}"
    }
}
