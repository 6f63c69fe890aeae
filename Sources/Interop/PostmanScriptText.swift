import HTTPCore

/// Just enough of JavaScript's syntax to read the statements of a Postman test script: quotes, brackets, calls.
enum PostmanScriptText {
    /// `text` split at each `separator` outside quotes and brackets, each part trimmed; empty parts are dropped.
    static func split(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        scan(text) { character, depth, quoted in
            if character == separator, depth == 0, !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
            return true
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// When `text` starts with `callee(`: the text between its parentheses and what follows the closing one; nil when
    /// it starts otherwise or the parenthesis is not closed in `text`.
    static func call(_ callee: String, in text: String) -> (arguments: String, rest: String)? {
        guard text.hasPrefix(callee + "(") else { return nil }
        let afterOpen = text.dropFirst(callee.count + 1)
        var arguments = ""
        var closed: String.Index?
        var index = afterOpen.startIndex
        scan(String(afterOpen)) { character, depth, quoted in
            defer { index = afterOpen.index(after: index) }
            if character == ")", depth == 0, !quoted {
                closed = index
                return false
            }
            arguments.append(character)
            return true
        }
        guard let closed else { return nil }
        return (arguments, String(afterOpen[afterOpen.index(after: closed)...]))
    }

    /// Whether `text` only closes what earlier lines opened: `});`, `})`, `}`.
    static func onlyCloses(_ text: String) -> Bool {
        text.allSatisfy { "});, \t".contains($0) }
    }

    /// The body of a function written as `function (...) { BODY }`, `(...) => { BODY }` or `() => EXPRESSION`.
    static func functionBody(_ function: String) -> String? {
        let trimmed = function.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("function"), let open = trimmed.firstIndex(of: "{"), trimmed.hasSuffix("}") {
            return String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        }
        guard let arrow = trimmed.range(of: "=>") else { return nil }
        let body = trimmed[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("{"), body.hasSuffix("}") { return String(body.dropFirst().dropLast()) }
        return body
    }

    /// The value of a JavaScript string literal (`"…"`, `'…'`, or a template literal without `${`); nil for anything else.
    static func stringLiteral(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let quote = trimmed.first, "\"'`".contains(quote), trimmed.count >= 2, trimmed.last == quote else { return nil }
        var value = ""
        var escaped = false
        for character in trimmed.dropFirst().dropLast() {
            if escaped {
                value.append(["n": "\n", "t": "\t", "r": "\r"][character] ?? character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == quote || (quote == "`" && character == "$") {
                return nil
            } else {
                value.append(character)
            }
        }
        return escaped ? nil : value
    }

    /// A JavaScript object or array literal of plain values (`{a: 1, 'b': [true, "x"],}`: names unquoted or in quotes,
    /// strings in either quotes, a trailing comma) as JSON text; nil when it holds anything else (a variable, a call).
    static func jsonText(ofLiteral text: String) -> String? {
        var json = ""
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.first == "{" || rest.first == "[" else { return nil }
        while let character = rest.first {
            if "\"'`".contains(character) {
                // The literal runs to the next unescaped quote of its kind.
                var end = rest.index(after: rest.startIndex)
                var escaped = false
                while end < rest.endIndex, escaped || rest[end] != character {
                    escaped = !escaped && rest[end] == "\\"
                    end = rest.index(after: end)
                }
                guard end < rest.endIndex, let value = stringLiteral(String(rest[...end])) else { return nil }
                json += "\"" + JSONValue.stringContents(value) + "\""
                rest = rest[rest.index(after: end)...]
            } else if character.isLetter || character == "_" || character == "$" {
                let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                rest = rest.dropFirst(word.count)
                if rest.drop(while: \.isWhitespace).first == ":" {
                    json += "\"" + word + "\""
                } else if ["true", "false", "null"].contains(word) {
                    json += word
                } else {
                    return nil
                }
            } else {
                // A comma before a closing bracket is JavaScript's, not JSON's.
                if character == "}" || character == "]", let last = json.lastIndex(where: { !$0.isWhitespace }), json[last] == "," {
                    json.remove(at: last)
                }
                json.append(character)
                rest = rest.dropFirst()
            }
        }
        return json
    }

    /// Calls `visit` with each character of `text`, the depth of brackets around it (a bracket counts as inside the
    /// pair it opens or closes, so an unmatched closing one is at depth 0) and whether it is inside quotes, until it
    /// returns false.
    private static func scan(_ text: String, _ visit: (Character, Int, Bool) -> Bool) {
        var depth = 0
        var quote: Character?
        var escaped = false
        for character in text {
            let quoted = quote != nil
            if let open = quote {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == open { quote = nil }
            } else if "\"'`".contains(character) {
                quote = character
            } else if character == "(" || character == "[" || character == "{" {
                depth += 1
            } else if (character == ")" || character == "]" || character == "}") && depth > 0 {
                guard visit(character, depth, false) else { return }
                depth -= 1
                continue
            }
            guard visit(character, depth, quoted || quote != nil) else { return }
        }
    }
}
