import HTTPCore

/// What Postman test scripts say that a request file can: `expect` entries and captures, each once.
struct PostmanChecks {
    /// An `expect` entry: its section (`status`, `headers`, `body`, `text`, `duration`), the header name or JSONPath
    /// inside it, and the value.
    struct Expectation {
        var section: String
        var key: String?
        var value: YAMLNode
    }

    private(set) var expectations: [Expectation] = []
    private(set) var captures: [(name: String, source: YAMLNode)] = []

    /// Adds `expectation` unless its section and key already have one; false then.
    @discardableResult
    mutating func add(_ expectation: Expectation) -> Bool {
        guard !expectations.contains(where: { $0.section == expectation.section && $0.key == expectation.key }) else { return false }
        expectations.append(expectation)
        return true
    }

    /// Adds a capture unless `name` is already captured; false then.
    @discardableResult
    mutating func capture(_ name: String, _ source: YAMLNode) -> Bool {
        guard !captures.contains(where: { $0.name == name }) else { return false }
        captures.append((name, source))
        return true
    }

    /// These checks, then those of `outer` (a folder's or the collection's scripts) that these do not already make.
    func inheriting(_ outer: PostmanChecks) -> PostmanChecks {
        var merged = self
        for expectation in outer.expectations { merged.add(expectation) }
        for capture in outer.captures { merged.capture(capture.name, capture.source) }
        return merged
    }

    /// Writes the checks into `document`'s `expect` and `capture`.
    func apply(to document: inout RequestDocument) {
        for section in ["status", "headers", "body", "text", "duration"] {
            let entries = expectations.filter { $0.section == section }
            guard let first = entries.first else { continue }
            if first.key == nil {
                document.expect.append((section, first.value))
            } else {
                document.expect.append((section, .mapping(entries.map { ($0.key ?? "", $0.value) })))
            }
        }
        document.capture = captures
    }
}

/// Translates Postman scripts: the common test patterns become expectations and captures, every other line is listed.
///
/// Translated (in a `pm.test(...)` or outside one): `pm.response.to.have.status(N)`, `pm.response.to.have.header(H[, V])`,
/// `pm.expect(SUBJECT).to....ASSERTION(V)` where SUBJECT is `pm.response.code`, `pm.response.responseTime`,
/// `pm.response.text()`, `pm.response.headers.get(H)` or the JSON body (`pm.response.json().a.b`, or a variable holding
/// it), and `pm.environment.set(NAME, SUBJECT)` (also `collectionVariables`, `globals`, `variables`) as a capture.
struct PostmanScripts {
    /// What a subject of `pm.expect` is.
    enum Subject {
        case status
        case duration
        case text
        case header(String)
        /// A place in the JSON body: member names and indexes.
        case json([Step])
        /// A Postman variable read with `pm.environment.get(NAME)` and the like.
        case variable(String)
    }

    /// One step into the JSON body.
    enum Step: Equatable {
        case member(String)
        case index(Int)
    }

    let notes: PostmanNotes
    /// Whose scripts these are, for messages: `'Log in'`, `folder 'Users'`, `the collection`.
    let owner: String
    private var aliases: [String: Subject] = [:]
    private(set) var checks = PostmanChecks()
    /// The script line being translated, where a variable it reads is first used.
    private var line: PostmanValue?

    /// The chai words that only make an assertion read well.
    private static let fillers: Set<String> = ["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of",
                                               "same", "does", "still", "also", "deep"]

    /// The checks of the `test` scripts in `events`; every line not translated (and every line of a pre-request
    /// script) is listed.
    static func checks(of events: [PostmanValue]?, owner: String, notes: PostmanNotes) -> PostmanChecks {
        var scripts = PostmanScripts(notes: notes, owner: owner)
        for event in events ?? [] {
            let listen = event["listen"]?.text ?? "an unnamed"
            let lines = Self.lines(of: event["script"])
            guard !lines.isEmpty else { continue }
            if event.isDisabled {
                notes.warn("\(owner): the disabled \(listen) script is left out", at: event)
                continue
            }
            scripts.aliases = [:]
            for (number, line) in lines.enumerated() {
                let text = line.text.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty, !text.hasPrefix("//") else { continue }
                if listen == "test" {
                    scripts.translate(line: text, number: number + 1, at: line.place)
                } else {
                    notes.warn("\(owner): \(listen) script line \(number + 1) is not translated: \(text)", at: line.place,
                               suggestion: "runner has no scripts: a value it sets can be a variable of the environment, --var, or a capture")
                }
            }
        }
        return scripts.checks
    }

    /// The lines of a script's `exec` (a list of lines, or one text), each with its place.
    private static func lines(of script: PostmanValue?) -> [(text: String, place: PostmanValue)] {
        guard let exec = script?["exec"] else { return [] }
        if let text = exec.text { return text.split(separator: "\n", omittingEmptySubsequences: false).map { (String($0), exec) } }
        return exec.elements.flatMap { element in
            (element.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map { (String($0), element) }
        }
    }

    /// Translates one line of a test script, listing each statement that is not translated.
    private mutating func translate(line: String, number: Int, at place: PostmanValue) {
        self.line = place
        for statement in statements(of: line) where !PostmanScriptText.onlyCloses(statement) {
            guard !translate(statement) else { continue }
            notes.warn("\(owner): test script line \(number) is not translated: \(statement)", at: place,
                       suggestion: "write it as an expect: or capture: entry of the request file, if runner can check it")
        }
    }

    /// The statements of a line, with a `pm.test("name", function () {` around them taken away.
    private func statements(of line: String) -> [String] {
        guard line.hasPrefix("pm.test(") else { return PostmanScriptText.split(line, at: ";") }
        if let test = PostmanScriptText.call("pm.test", in: line) {
            let arguments = PostmanScriptText.split(test.arguments, at: ",")
            guard arguments.count == 2, let body = PostmanScriptText.functionBody(arguments[1]) else { return [line] }
            return PostmanScriptText.split(body, at: ";")
        }
        // The test goes on over the next lines: what follows its opening brace or arrow is its first statement.
        let opening = line.range(of: "{") ?? line.range(of: "=>")
        return opening.map { PostmanScriptText.split(String(line[$0.upperBound...]), at: ";") } ?? []
    }

    /// Translates one statement; false when it is not one of the patterns.
    private mutating func translate(_ statement: String) -> Bool {
        if let declaration = Self.declaration(statement) {
            guard let subject = subject(declaration.value) else { return false }
            aliases[declaration.name] = subject
            return true
        }
        if let status = PostmanScriptText.call("pm.response.to.have.status", in: statement), status.rest.isEmpty {
            guard let code = Int(status.arguments.trimmingCharacters(in: .whitespaces)) else { return false }
            return expect(.init(section: "status", key: nil, value: .scalar(String(code))))
        }
        if let header = PostmanScriptText.call("pm.response.to.have.header", in: statement), header.rest.isEmpty {
            let arguments = PostmanScriptText.split(header.arguments, at: ",").map(PostmanScriptText.stringLiteral)
            guard let name = arguments.first ?? nil else { return false }
            let matcher: YAMLNode = arguments.count == 2 ? (arguments[1].map(YAMLNode.string) ?? .scalar("")) : .mapping([("exists", .scalar("true"))])
            guard arguments.count <= 2, arguments.allSatisfy({ $0 != nil }) else { return false }
            return expect(.init(section: "headers", key: name, value: matcher))
        }
        if let assertion = PostmanScriptText.call("pm.expect", in: statement) {
            return expect(assertion.arguments, assertion.rest)
        }
        return setVariable(statement)
    }

    /// `var|let|const NAME = VALUE`.
    private static func declaration(_ statement: String) -> (name: String, value: String)? {
        for keyword in ["var ", "let ", "const "] where statement.hasPrefix(keyword) {
            let parts = statement.dropFirst(keyword.count).split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard isIdentifier(name) else { return nil }
            return (name, parts[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// `pm.environment.set(NAME, SUBJECT)` and its kin as a capture.
    private mutating func setVariable(_ statement: String) -> Bool {
        let setters = ["pm.environment.set", "pm.collectionVariables.set", "pm.globals.set", "pm.variables.set",
                       "postman.setEnvironmentVariable", "postman.setGlobalVariable"]
        guard let set = setters.lazy.compactMap({ PostmanScriptText.call($0, in: statement) }).first, set.rest.isEmpty else { return false }
        let arguments = PostmanScriptText.split(set.arguments, at: ",")
        guard arguments.count == 2, let name = PostmanScriptText.stringLiteral(arguments[0]), let subject = subject(arguments[1]) else {
            return false
        }
        let source: YAMLNode
        switch subject {
        case .json(let steps) where steps.last != .member("length"): source = .string(Self.jsonPath(steps))
        case .header(let header): source = .mapping([("header", .string(header))])
        case .status: source = .mapping([("status", .scalar("true"))])
        default: return false
        }
        let variable = PostmanTemplate.sanitized(name)
        guard checks.capture(variable, source) else { return false }
        return true
    }

    /// `pm.expect(SUBJECT)` followed by `rest` (`.to.eql(200)`) as an expectation.
    private mutating func expect(_ subjectText: String, _ rest: String) -> Bool {
        guard let subject = subject(subjectText), let assertion = Self.assertion(rest) else { return false }
        var operand: JSONValue?
        if let argument = assertion.argument {
            guard let value = expectedValue(argument) else { return false }
            operand = value
        }
        guard let matcher = Self.matcher(assertion.word, operand) else { return false }
        switch subject {
        case .status:
            if case .json(.int(let code)) = matcher { return expect(.init(section: "status", key: nil, value: .scalar(String(code)))) }
            if assertion.word == "oneOf", case .array(let codes)? = operand, codes.allSatisfy({ if case .int = $0 { true } else { false } }) {
                return expect(.init(section: "status", key: nil, value: .json(.array(codes))))
            }
            // An ordering of the code (`.to.be.below(500)`) is a matcher on it.
            if case .mapping(let members) = matcher, members.count == 1, case .int? = operand,
               ["lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual"].contains(members[0].key) {
                return expect(.init(section: "status", key: nil, value: .mapping(members)))
            }
            return false
        case .duration:
            guard case .mapping(let members) = matcher, members.count == 1, let milliseconds = operand?.numberValue else { return false }
            return expect(.init(section: "duration", key: nil, value: .mapping([(members[0].key, .scalar("\(Int(milliseconds))ms"))])))
        case .text:
            return expect(.init(section: "text", key: nil, value: matcher.node))
        case .header(let name):
            return expect(.init(section: "headers", key: name, value: matcher.node))
        case .json(var steps):
            var node = matcher.node
            if steps.last == .member("length") {
                steps.removeLast()
                node = .mapping([("length", node)])
            }
            return expect(.init(section: "body", key: Self.jsonPath(steps), value: node))
        case .variable:
            return false
        }
    }

    /// Adds `expectation`; a second, different one for the same place is not translated.
    private mutating func expect(_ expectation: PostmanChecks.Expectation) -> Bool {
        checks.add(expectation) || checks.expectations.contains { $0.section == expectation.section && $0.key == expectation.key
            && $0.value.document == expectation.value.document }
    }

    /// A matcher: the literal itself for equality, else one operator.
    enum Matcher {
        case json(JSONValue)
        case mapping([(key: String, value: YAMLNode)])

        /// The matcher as written in `expect`: an object compared for equality needs `equals`.
        var node: YAMLNode {
            switch self {
            case .json(let value):
                if case .object = value { return .mapping([("equals", .json(value))]) }
                return .json(value)
            case .mapping(let members): return .mapping(members)
            }
        }
    }

    /// The assertion word and its argument: `.to.be.eql(200)` gives `eql` and `200`; nil for a negated assertion or
    /// one with several words.
    private static func assertion(_ rest: String) -> (word: String, argument: String?)? {
        var chain = rest
        var argument: String?
        if chain.hasSuffix(")"), let open = chain.firstIndex(of: "(") {
            argument = String(chain[chain.index(after: open)..<chain.index(before: chain.endIndex)])
            chain = String(chain[..<open])
        }
        let words = chain.split(separator: ".").map(String.init).filter { !fillers.contains($0) }
        guard chain.hasPrefix(".to."), words.count == 1, !chain.contains(".not") else { return nil }
        return (words[0], argument)
    }

    /// The matcher for a chai assertion word and its operand; nil for the words not translated.
    private static func matcher(_ word: String, _ operand: JSONValue?) -> Matcher? {
        let operators = ["include": "contains", "includes": "contains", "contain": "contains", "contains": "contains",
                         "below": "lessThan", "lessThan": "lessThan", "above": "greaterThan", "greaterThan": "greaterThan",
                         "least": "greaterThanOrEqual", "most": "lessThanOrEqual", "oneOf": "in", "lengthOf": "length",
                         "length": "length"]
        switch (word, operand) {
        case ("eql", let value?), ("equal", let value?), ("equals", let value?), ("eq", let value?): return .json(value)
        case ("true", nil): return .json(.bool(true))
        case ("false", nil): return .json(.bool(false))
        case ("null", nil): return .json(.null)
        case ("exist", nil): return .mapping([("exists", .scalar("true"))])
        case ("a", .string(let type)?), ("an", .string(let type)?):
            guard ["string", "number", "boolean", "array", "object", "null"].contains(type) else { return nil }
            return .mapping([("type", .string(type))])
        case (let word, let value?):
            return operators[word].map { .mapping([($0, .json(value))]) }
        default:
            return nil
        }
    }

    /// What `text` reads from the response: its status, time, text, a header or a place in its JSON body.
    private func subject(_ text: String) -> Subject? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed {
        case "pm.response.code", "responseCode.code": return .status
        case "pm.response.responseTime", "responseTime": return .duration
        case "pm.response.text()", "responseBody": return .text
        default: break
        }
        for getter in ["pm.response.headers.get", "postman.getResponseHeader"] {
            if let call = PostmanScriptText.call(getter, in: trimmed), call.rest.isEmpty,
               let name = PostmanScriptText.stringLiteral(call.arguments) { return .header(name) }
        }
        for getter in ["pm.environment.get", "pm.collectionVariables.get", "pm.globals.get", "pm.variables.get"] {
            if let call = PostmanScriptText.call(getter, in: trimmed), call.rest.isEmpty,
               let name = PostmanScriptText.stringLiteral(call.arguments) { return .variable(name) }
        }
        for root in ["pm.response.json()", "JSON.parse(responseBody)", "JSON.parse(pm.response.text())"] where trimmed.hasPrefix(root) {
            return Self.steps(trimmed.dropFirst(root.count)).map { .json($0) }
        }
        let name = String(trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" })
        guard case .json(let base)? = aliases[name], let steps = Self.steps(trimmed.dropFirst(name.count)) else { return nil }
        return .json(base + steps)
    }

    /// The steps of `.a.b[0]['c d']`; nil for anything else (a call, an expression).
    private static func steps(_ text: Substring) -> [Step]? {
        var steps: [Step] = []
        var rest = text
        while let first = rest.first {
            if first == "." {
                let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                guard !name.isEmpty else { return nil }
                steps.append(.member(String(name)))
                rest = rest.dropFirst(name.count + 1)
            } else if first == "[", let close = rest.firstIndex(of: "]") {
                let inside = String(rest[rest.index(after: rest.startIndex)..<close])
                if let index = Int(inside), index >= 0 {
                    steps.append(.index(index))
                } else if let name = PostmanScriptText.stringLiteral(inside) {
                    steps.append(.member(name))
                } else {
                    return nil
                }
                rest = rest[rest.index(after: close)...]
            } else {
                return nil
            }
        }
        return steps
    }

    /// The RFC 9535 JSONPath of `steps`: `$.a.b[0]['c d']`.
    static func jsonPath(_ steps: [Step]) -> String {
        "$" + steps.map { step in
            switch step {
            case .index(let index): return "[\(index)]"
            case .member(let name):
                let isShorthand = name.first.map { $0.isLetter || $0 == "_" } == true && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                return isShorthand ? "." + name : "['" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "']"
            }
        }.joined()
    }

    /// An expected value written in a script: a JSON or JavaScript literal, or a variable read from Postman's scopes
    /// (written as its template).
    private func expectedValue(_ text: String) -> JSONValue? {
        if let json = try? JSONValue.parse(text.trimmingCharacters(in: .whitespaces)) { return json }
        if let string = PostmanScriptText.stringLiteral(text) { return .string(string) }
        if let json = PostmanScriptText.jsonText(ofLiteral: text), let value = try? JSONValue.parse(json) { return value }
        if case .variable(let name)? = subject(text) {
            // A variable the expectation reads is listed like one a request uses, when no environment defines it.
            let variable = PostmanTemplate.sanitized(name)
            if let line { notes.use(variable, at: line) }
            return .string("{{ \(variable) }}")
        }
        return nil
    }

    /// Whether `text` is a JavaScript identifier.
    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" || first == "$" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
    }
}
