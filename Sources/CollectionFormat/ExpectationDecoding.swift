import Expectations
import YAML

extension NodeDecoder {
    /// The `expect:` mapping, or another of its keys (`keys`): `context` is its place in the file, which messages name
    /// (`options.retry.stopWhen`); `namespaces` are prefixes declared already, which its own `namespaces` add to.
    mutating func expect(_ node: Node, location: FileLocation, context: String = "expect", keys: FormatMapping = FormatKeys.expect,
                         namespaces inherited: [XPathNamespace] = []) -> ExpectDefinition {
        var expect = ExpectDefinition()
        expect.namespaces = inherited
        guard let pairs = mapping(node, for: context) else { return expect }
        let fields = fields(pairs, allowed: keys.names, in: context,
                            explanations: (context == "expect" ? Self.besideExpect : Self.notInStopWhen)
                                .merging(Self.queriesOutOfBody(pairs)) { $1 })
        if let value = fields["error"] {
            expect.error = expectedFailure(value, for: "\(context).error").map { Located($0, at: value.mark) }
            // An unknown key is reported as such (above), not also as conflicting with `error`.
            for other in pairs where Self.keyText(other.key) != "error" && FormatKeys.expect.names.contains(Self.keyText(other.key)) {
                error("'\(context).\(Self.keyText(other.key))' cannot be checked when '\(context).error' expects no response",
                      at: other.key.mark, suggestion: "remove it, or remove '\(context).error'")
            }
        }
        if let value = fields["status"] { expect.status = status(value, for: "\(context).status").map { Located($0, at: value.mark) } }
        if let value = fields["headers"], let headerPairs = mapping(value, for: "\(context).headers") {
            var seen: [String: String] = [:]
            for pair in headerPairs {
                guard let name = headerName(pair.key),
                      let matcher = matcher(pair.value, for: "\(context).headers.\(name)") else { continue }
                // Two entries would check one header, which one matcher must do.
                guard !isRepeatedHeader(name, seen: &seen, at: pair.key.mark,
                                        suggestion: "check it once: a mapping of operators holds several checks") else { continue }
                expect.headers.append(HeaderExpectation(name: name, nameMark: pair.key.mark, matcher: matcher, mark: pair.value.mark))
            }
        }
        if let value = fields["body"], let bodyPairs = mapping(value, for: "\(context).body") {
            for pair in bodyPairs {
                let query = Self.keyText(pair.key)
                checkJSONPath(query, in: pair.key)
                guard let (matcher, count) = bodyMatcher(pair.value, for: "\(context).body.\(query)") else { continue }
                expect.body.append(BodyExpectation(path: query, pathMark: pair.key.mark, matcher: matcher, mark: pair.value.mark,
                                                   count: count))
            }
        }
        if let value = fields["text"] { expect.text = matcher(value, for: "\(context).text").map { Located($0, at: value.mark) } }
        if let value = fields["schema"] { expect.schema = fileReference(value, for: "\(context).schema", location: location) }
        if let value = fields["openapi"] { expect.openapi = fileReference(value, for: "\(context).openapi", location: location) }
        if let value = fields["duration"] {
            expect.duration = durationMatcher(value, for: "\(context).duration").map { Located($0, at: value.mark) }
            if expect.duration != nil { warnIfExactDuration(value, for: "\(context).duration") }
        }
        if let value = fields["namespaces"] {
            let own = namespaces(value, for: "\(context).namespaces")
            expect.namespaces = inherited.filter { old in !own.contains { $0.prefix == old.prefix } } + own
        }
        if let value = fields["xpath"], let xpathPairs = mapping(value, for: "\(context).xpath") {
            for pair in xpathPairs {
                let expression = Self.keyText(pair.key)
                checkXPath(expression, in: pair.key, namespaces: expect.namespaces)
                guard let matcher = matcher(pair.value, for: "\(context).xpath.\(expression)") else { continue }
                expect.xpath.append(XPathExpectation(expression: expression, expressionMark: pair.key.mark, matcher: matcher,
                                                     mark: pair.value.mark))
            }
        }
        return expect
    }

    /// `expect.namespaces`: prefixes (XML names without a colon) to namespace URIs.
    private mutating func namespaces(_ node: Node, for context: String) -> [XPathNamespace] {
        guard let pairs = mapping(node, for: context) else { return [] }
        var namespaces: [XPathNamespace] = []
        for pair in pairs {
            let prefix = Self.keyText(pair.key)
            guard Self.isNamespacePrefix(prefix) else {
                error("invalid namespace prefix '\(prefix)'", at: pair.key.mark,
                      suggestion: "a prefix is a name of letters, digits, '_', '-' and '.', not starting with a digit, '-' or '.'")
                continue
            }
            guard case .scalar(let scalar) = pair.value.content, case .string(let uri) = scalar.value, !uri.isEmpty else {
                typeMismatch(pair.value, expected: "a namespace URI", for: "\(context).\(prefix)",
                             suggestion: "write the URI the document declares, such as \"http://www.w3.org/2005/Atom\"")
                prefixesInError.insert(prefix)
                continue
            }
            namespaces.append(XPathNamespace(prefix: prefix, uri: uri))
        }
        return namespaces
    }

    /// Whether `text` is an XML namespace prefix (an NCName).
    private static func isNamespacePrefix(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "-" || $0 == "." || $0.properties.isAlphabetic || $0.properties.numericType != nil
        }
    }

    /// Reports an XPath expression that does not compile or names an undeclared prefix, at the offending character
    /// of the key when libxml2 says where.
    mutating func checkXPath(_ expression: String, in node: Node, namespaces: [XPathNamespace]) {
        guard let problem = ExternalChecks.xpathProblem(expression, namespaces: namespaces) else { return }
        // A prefix declared with a value that is no URI was reported where it is declared.
        if let prefix = problem.undeclaredPrefix, prefixesInError.contains(prefix) { return }
        let suggestion = problem.undeclaredPrefix.map { prefix in
            namespaces.isEmpty
                ? "declare it beside the request's xpath in 'expect', such as namespaces: { \(prefix): \"http://example.com/ns\" }"
                : "declared prefixes: " + namespaces.map(\.prefix).joined(separator: ", ")
        }
        error("invalid XPath '\(Self.onOneLine(expression))': \(problem.message)", at: mark(ofOffset: problem.offset, in: node, text: expression),
              suggestion: suggestion ?? "an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)")
    }

    /// The mark of a character of a scalar's text (a key or a value, over one line or several, its escapes counted as
    /// written); the scalar's mark when there is no offset.
    private mutating func mark(ofOffset offset: Int?, in node: Node, text: String) -> Mark {
        guard let offset, case .scalar(let scalar) = node.content, scalar.text == text else { return node.mark }
        return source.mark(ofTextOffset: offset, in: scalar, at: node.mark, lineStarts: sourceLineStarts())
    }

    /// An expression written over several lines (or holding tabs), shown in a one-line message: its line breaks as `\n`,
    /// its tabs as `\t`.
    private static func onOneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\t", with: "\\t")
    }

    /// `expect.error`: one of the ways a request can fail.
    private mutating func expectedFailure(_ node: Node, for context: String) -> ExpectedFailure? {
        let names = ExpectedFailure.allCases.map(\.rawValue)
        guard case .scalar(let scalar) = node.content, case .string(let text) = scalar.value else {
            typeMismatch(node, expected: "one of " + names.joined(separator: ", "), for: context)
            return nil
        }
        guard let failure = ExpectedFailure(rawValue: text) else {
            error("unknown error kind '\(text)' for '\(context)'", at: node.mark,
                  suggestion: Suggestions.didYouMean(text, among: names) ?? "use one of " + names.joined(separator: ", "))
            return nil
        }
        return failure
    }

    /// `expect.status`: an integer, a class like "2xx", a list of them, or a matcher.
    private mutating func status(_ node: Node, for context: String) -> StatusExpectation? {
        switch node.content {
        case .mapping:
            guard let matcher = matcher(node, for: context) else { return nil }
            // A matcher compares the code as a number: a class there would never be equal to it.
            var classes: [TemplateValue] = []
            matcher.forEachOperand { operand in
                if case .string(let template) = operand.content, template.isLiteral, StatusPattern.classDigit(of: template.source) != nil {
                    classes.append(operand)
                }
            }
            for operand in classes {
                guard case .string(let template) = operand.content, let digit = StatusPattern.classDigit(of: template.source) else { continue }
                error("'\(template.source)' is a class of statuses, which a matcher does not read: it compares the code as a number",
                      at: operand.mark, suggestion: "write status: \"\(template.source)\", or a list [200, \"\(template.source)\"]; to exclude "
                          + "the class, { not: { greaterThanOrEqual: \(digit * 100), lessThan: \(digit * 100 + 100) } }")
            }
            // What the status is compared to for equality is a status (a template's value is checked when it is known).
            var others = false
            matcher.forEachCandidate { operand in
                guard let value = operand.literalValue, !StatusPattern.isStatus(value) else { return }
                others = true
                error("\(value.compactDescription()) is not a status", at: operand.mark, suggestion: StatusPattern.notAStatus)
            }
            return classes.isEmpty && !others ? .matcher(matcher) : nil
        case .sequence(let items):
            if items.isEmpty { error("'\(context)' is an empty list", at: node.mark) }
            let patterns = items.compactMap { statusPattern($0, for: context) }
            return patterns.count == items.count ? .oneOf(patterns) : nil
        case .scalar(let scalar):
            // `status: "{{ code }}"` compares with the code the template gives.
            if case .string = scalar.value, scalar.text.contains("{{") {
                guard let template = parseTemplate(scalar, at: node.mark) else { return nil }
                guard template.singleExpression != nil else {
                    error("invalid status pattern '\(scalar.text)'", at: node.mark,
                          suggestion: "a template here must be the whole value: \"{{ code }}\"")
                    return nil
                }
                return .matcher(.equals(TemplateValue(.string(template), mark: node.mark)))
            }
            return statusPattern(node, for: context).map { .oneOf([$0]) }
        }
    }

    /// One status code (100-599) or class (`1xx` to `5xx`).
    private mutating func statusPattern(_ node: Node, for context: String) -> StatusPattern? {
        let hint = "expected a status code (100-599), a class like \"2xx\", a list of codes, or a matcher"
        guard case .scalar(let scalar) = node.content else {
            typeMismatch(node, expected: "a status code or a class like \"2xx\"", for: context)
            return nil
        }
        switch scalar.value {
        case .int(let code):
            guard (100...599).contains(code) else {
                error("invalid status \(code): status codes are between 100 and 599", at: node.mark)
                return nil
            }
            return .code(code)
        case .string(let text):
            if let digit = StatusPattern.classDigit(of: text) { return .statusClass(digit) }
            // `"200"` is the code it spells, as text of digits is in every status matcher.
            if let code = StatusPattern.code(spelledBy: text) { return .code(code) }
            // A letter typed for the digit it looks like (`20O`, `4l4`).
            let digits = String(text.map { "oO".contains($0) ? "0" : "lI".contains($0) ? "1" : $0 })
            let typo = StatusPattern.code(spelledBy: digits).map { "did you mean \($0)? (\(hint))" }
            let templated = text.contains("{{") ? "a list of statuses holds codes and classes, not templates: write "
                + "{ in: [\"{{ code }}\", 204] } for codes from templates" : typo ?? hint
            error("invalid status pattern '\(text)'", at: node.mark, suggestion: templated)
        default:
            error("invalid status: found \(Self.describe(node))", at: node.mark, suggestion: hint)
        }
        return nil
    }

    /// Reports a JSONPath query that does not parse, at the offending character of the key.
    mutating func checkJSONPath(_ query: String, in node: Node) {
        guard let problem = ExternalChecks.jsonPathProblem(query) else {
            for pattern in ExternalChecks.jsonPathPatternsMatchingNothing(query) {
                warning("the pattern '\(Self.onOneLine(pattern))' of match() or search() in '\(Self.onOneLine(query))' is no I-Regexp "
                        + "(RFC 9485): it matches nothing", at: node.mark,
                        suggestion: "write it with the I-Regexp subset: no groups like (?i) or (?:…), no lookarounds, no \\d; "
                            + "[0-9] and \\p{L} instead")
            }
            return
        }
        let place = mark(ofOffset: problem.offset, in: node, text: query)
        // A query glued to its value (`{ $.a:1 }`) is a key that needs a space after its ':'.
        let colon = query.utf8.index(query.utf8.startIndex, offsetBy: problem.offset, limitedBy: query.utf8.endIndex)
            .flatMap { $0 < query.utf8.endIndex && query.utf8[$0] == UInt8(ascii: ":") ? $0 : nil }
        let glued = colon.flatMap { colon in
            ExternalChecks.jsonPathProblem(String(query[..<colon])) == nil
                ? "a key needs a space after its ':': \(Self.onOneLine(String(query[..<colon]))): \(Self.onOneLine(String(query[query.index(after: colon)...])))"
                : nil
        }
        let bracketed = ExternalChecks.bracketedName(in: query, at: problem.offset)
            .map { "a name with characters like '-' goes in brackets: \($0)" }
        error("invalid JSONPath '\(Self.onOneLine(query))': \(problem.message)", at: place,
              suggestion: glued ?? bracketed ?? "a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]")
    }

    /// The `capture:` mapping; `namespaces` are the request's, for xpath captures.
    mutating func captures(_ node: Node, namespaces: [XPathNamespace]) -> [CaptureDefinition] {
        guard let pairs = mapping(node, for: "capture") else { return [] }
        var captures: [CaptureDefinition] = []
        for pair in pairs {
            let name = Self.keyText(pair.key)
            guard VariablePath.isValidName(name) else {
                error("invalid capture name '\(name)': use letters, digits, '_' and '-', not starting with a digit",
                      at: pair.key.mark)
                continue
            }
            if let misplaced = Self.misplacedInCapture(name, pair.value) {
                error("'\(name)' is not a capture: it goes beside 'capture', not inside it", at: pair.key.mark,
                      suggestion: "indent '\(name):' as far as 'capture:' (\(misplaced))")
                continue
            }
            if let source = captureSource(pair.value, name: name, namespaces: namespaces) {
                captures.append(CaptureDefinition(name: name, nameMark: pair.key.mark, source: source, mark: pair.value.mark))
            }
        }
        return captures
    }

    /// For a capture named as a key of a request file (`expect`, `options`, `request`) whose value is a mapping of that
    /// key's keys (`expect: { status: 200 }` indented under `capture:`): what says so of its keys; nil otherwise (a capture may
    /// be named `request` and be one).
    private static func misplacedInCapture(_ name: String, _ value: Node) -> String? {
        // Most captures are a JSONPath: nothing more is looked at for them.
        guard case .mapping(let pairs) = value.content, !pairs.isEmpty else { return nil }
        let written = pairs.map { keyText($0.key) }
        // A `when:`'s keys are templates or operators: no capture kind among them.
        if name == "when" { return written.contains(where: CaptureDefinition.kinds.contains) ? nil : "its conditions are those of 'when'" }
        guard let keys = misplacedSections[name] else { return nil }
        // One capture kind with a value it takes is a capture, whatever its name (`expect: { status: true }`).
        let trueStatus = if case .scalar(let scalar) = pairs[0].value.content { scalar.value == .bool(true) } else { false }
        let capture = pairs.count == 1 && CaptureDefinition.kinds.contains(written[0]) && (written[0] != "status" || trueStatus)
        guard written.allSatisfy(keys.contains), !capture else { return nil }
        let listed = written.map { "'\($0)'" }.joined(separator: ", ")
        return written.count == 1 ? "its key \(listed) is one of '\(name)'" : "its keys \(listed) are those of '\(name)'"
    }

    /// The keys of a request file whose mappings `misplacedInCapture` recognizes, with their keys.
    private static let misplacedSections = ["expect": FormatKeys.expect.names, "options": FormatKeys.requestOptions.names,
                                            "request": FormatKeys.request.names, "auth": FormatKeys.auth.names]

    /// `$...`, or a mapping with one of the capture kinds.
    private mutating func captureSource(_ node: Node, name: String, namespaces: [XPathNamespace]) -> CaptureDefinition.Source? {
        func context() -> String { "capture.\(name)" }
        func expected() -> String { "a JSONPath starting with '$' or a mapping with one of " + CaptureDefinition.kinds.joined(separator: ", ") }
        if case .scalar(let scalar) = node.content, case .string(let text) = scalar.value, text.hasPrefix("$") {
            checkJSONPath(text, in: node)
            return .jsonPath(text)
        }
        guard case .mapping(let pairs) = node.content else {
            typeMismatch(node, expected: expected(), for: context())
            return nil
        }
        reportCommaSplits(pairs)
        _ = fields(pairs, allowed: CaptureDefinition.kinds, in: context())
        let kinds = pairs.filter { CaptureDefinition.kinds.contains(Self.keyText($0.key)) }
        guard let kind = kinds.first else {
            if pairs.isEmpty { typeMismatch(node, expected: expected(), for: context()) }
            return nil
        }
        for extra in kinds.dropFirst() {
            error("more than one capture source: '\(Self.keyText(kind.key))' and '\(Self.keyText(extra.key))'", at: extra.key.mark)
        }
        func place() -> String { "\(context()).\(Self.keyText(kind.key))" }
        switch Self.keyText(kind.key) {
        case "header":
            guard string(kind.value, for: place()) != nil else { return nil }
            return headerName(kind.value).map { .header($0) }
        case "cookie":
            guard let name = string(kind.value, for: place()) else { return nil }
            // A `Set-Cookie` name ends at the first `=` or `;`, and is trimmed: no cookie could have such a name.
            guard !name.isEmpty, !name.unicodeScalars.contains(where: { "=; \t".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F }) else {
                error("invalid cookie name '\(name)'", at: kind.value.mark,
                      suggestion: "write the name a Set-Cookie header gives before its '=', without spaces, '=' or ';'")
                return nil
            }
            return .cookie(name)
        case "xpath":
            guard let expression = string(kind.value, for: place()) else { return nil }
            checkXPath(expression, in: kind.value, namespaces: namespaces)
            return .xpath(expression)
        case "status":
            guard bool(kind.value, for: place()) == true else {
                if case .scalar(let scalar) = kind.value.content, scalar.value == .bool(false) {
                    error("'\(place())' must be true", at: kind.value.mark)
                }
                return nil
            }
            return .status
        default:
            guard let pattern = string(kind.value, for: place()) else { return nil }
            if let problem = ExternalChecks.regexProblem(pattern) {
                error(problem, at: kind.value.mark, suggestion: ExternalChecks.regexHelp)
                return nil
            }
            guard ExternalChecks.captureGroupCount(pattern) >= 1 else {
                error("the regular expression of '\(place())' has no capture group", at: kind.value.mark,
                      suggestion: "wrap the part to capture in parentheses, such as 'id=([0-9]+)'")
                return nil
            }
            return .regex(pattern)
        }
    }
}

extension NodeDecoder {
    /// What a key written among those of `expect` that belongs under one of its sections says: below an empty `body:`,
    /// `headers:` or `xpath:` at the same indentation, to indent it under that; a JSONPath query (`$.a`) or `json:`, that
    /// queries go under `body:`.
    static func queriesOutOfBody(_ pairs: Node.Pairs) -> [String: String] {
        var explanations = ["json": "JSONPath queries go under 'body:' (body: { $.name: … })"]
        var emptySection: String?
        for pair in pairs {
            let key = keyText(pair.key)
            if ["body", "headers", "xpath"].contains(key) {
                emptySection = pair.value.isNull ? key : nil
            } else if !FormatKeys.expect.names.contains(key) {
                if let emptySection {
                    explanations[key] = "'\(emptySection):' above has nothing under it: indent '\(key):' further than '\(emptySection):'"
                } else if key.hasPrefix("$") {
                    explanations[key] = "a JSONPath query goes under 'body:' (body: { \(key): … })"
                }
            }
        }
        return explanations
    }
}
