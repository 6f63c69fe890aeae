import Foundation
import HTTPCore
import YAML

/// Where a request file sits, for resolving the files it names.
struct FileLocation: Sendable {
    /// The request file's path as displayed.
    let displayPath: String
    /// The request file's absolute path.
    let absolutePath: String

    /// A reference to `written`, relative to the request file's directory unless absolute (the directories
    /// are found here, for the few files that refer to others).
    func reference(_ written: String, at mark: Mark) -> FileReference {
        if written.hasPrefix("/") {
            return FileReference(written: written, path: written, absolutePath: written, mark: mark)
        }
        return FileReference(written: written, path: PathText.shown(PathText.directory(of: displayPath), written),
                             absolutePath: PathText.join(PathText.directory(of: absolutePath), written), mark: mark)
    }
}

extension NodeDecoder {
    static let definitionKeys = FormatKeys.requestDefinition.names
    static let requestKeys = FormatKeys.request.names

    /// Decodes a whole request file; `root` is nil for an empty file.
    mutating func requestFile(_ root: Node?, absolutePath: String, defaultName: String, location: FileLocation) -> RequestFile {
        var file = RequestFile(path: path, absolutePath: absolutePath, name: defaultName, tags: [], skip: nil,
                               steps: [], isFlow: false)
        guard let root else {
            error("empty file: expected a request (keys like 'request', 'expect') or 'steps'", at: Mark(line: 1, column: 1),
                  suggestion: "write a request, such as: request: { url: /health }")
            return file
        }
        guard case .mapping(let pairs) = root.content else {
            error("expected a mapping at the top level (keys like 'request', 'expect') or 'steps', found \(Self.describe(root))",
                  at: root.mark)
            return file
        }
        reportCommaSplits(pairs)
        let has = { (names: [String]) in pairs.contains { names.contains(Self.keyText($0.key)) } }
        if has(["openapi", "swagger"]), has(["paths", "info"]) {
            error(has(["openapi"]) ? "this is an OpenAPI document, not a request file"
                      : "this is a Swagger 2.0 document, not a request file (expect.openapi reads OpenAPI 3: convert it)", at: root.mark,
                  suggestion: "keep it where request files are not looked for: in a folder whose name starts with '_' (such as "
                      + "'_specs/'), or outside the folders run; 'expect: { openapi: PATH }' names it wherever it is")
            return file
        }
        let isFlow = has(["steps"])
        if let each = pairs.first(where: { Self.keyText($0.key) == "each" }) {
            self.each(each.value, for: &file, location: location)
            if let name = pairs.first(where: { Self.keyText($0.key) == "name" })?.value, Self.containsTemplate(name) {
                file.nameTemplate = template(name, for: "name")
            }
        } else if let name = pairs.first(where: { Self.keyText($0.key) == "name" })?.value, Self.containsTemplate(name) {
            warning("'name' is a template only in an each: file: here '{{' is shown as written", at: name.mark,
                    suggestion: "write the name without '{{ }}', or loop over rows with each:")
        }
        guard isFlow else {
            let definition = requestDefinition(pairs, at: root.mark, defaultName: defaultName, context: nil,
                                               location: location,
                                               explanations: ["finally": "cleanup steps belong to a flow: put the request under 'steps:' and the cleanup under 'finally:'",
                                                              "steps": "a flow: its requests go under 'steps:'",
                                                              "use": "'use' is a step of a flow: write it under 'steps:'",
                                                              "with": "'with' goes beside 'use' in a step of a flow: write both under 'steps:'"]
                                                  .merging(Self.keysOfOtherTools) { mine, _ in mine },
                                               allowed: FormatKeys.singleRequestFile.names, suggesting: ["steps", "finally", "use"])
            file.name = definition.name
            file.tags = definition.tags
            file.skip = definition.skip
            file.steps = [definition]
            return file
        }
        let notInFlow = "in a flow, put it inside a step"
        let fields = fields(pairs, allowed: FormatKeys.flowFile.names, in: nil,
                            explanations: Dictionary(uniqueKeysWithValues: Self.definitionKeys.filter { !FormatKeys.flowFile.names.contains($0) }.map { ($0, notInFlow) })
                                .merging(Self.keysOfOtherTools) { mine, _ in mine })
        file.isFlow = true
        file.name = fields["name"].flatMap { string($0, for: "name") } ?? defaultName
        file.tags = fields["tags"].map { tags($0) } ?? []
        file.skip = fields["skip"].flatMap { skip($0) }
        let (templatesBefore, syntaxErrorsBefore) = (templatesRead.count, templateSyntaxErrors)
        file.conditions = fields["when"].map { conditions($0) } ?? []
        if templateSyntaxErrors > syntaxErrorsBefore { file.conditionTemplatesBesideSyntaxErrors = Array(templatesRead[templatesBefore...]) }
        templatesRead.removeSubrange(templatesBefore...)
        if let stepsNode = fields["steps"] { flowSteps(stepsNode, key: "steps", into: &file, location: location) }
        if let finallyNode = fields["finally"] { flowSteps(finallyNode, key: "finally", into: &file, location: location) }
        return file
    }

    /// The steps under `steps:` or `finally:` (cleanup steps), appended to the file's steps in order.
    private mutating func flowSteps(_ node: Node, key: String, into file: inout RequestFile, location: FileLocation) {
        guard let items = sequence(node, for: key) else { return }
        if items.isEmpty {
            error("'\(key)' is empty: \(key == "steps" ? "a flow needs at least one step" : "give at least one cleanup step, or remove it")",
                  at: node.mark)
        }
        let cleanup = key == "finally"
        for (position, item) in items.enumerated() {
            if item.sequence != nil {
                error("step \(position + 1) of '\(key)' is a list, not a step", at: item.mark,
                      suggestion: "a step is one mapping (request:, use:, ...), each after a single '-' of 'steps:', not inside a list of its own")
                continue
            }
            if item.isNull {
                error("step \(position + 1) of '\(key)' is empty", at: item.mark,
                      suggestion: "write its keys (request:, use:, ...) after the '-', or on the lines below indented past it; "
                        + "or remove the '-'")
                continue
            }
            guard let stepPairs = mapping(item, for: key) else { continue }
            if stepPairs.contains(where: { Self.keyText($0.key) == "use" }) {
                if var use = stepUse(stepPairs, at: item.mark, position: file.steps.count, location: location) {
                    use.isCleanup = cleanup
                    file.uses.append(use)
                }
                continue
            }
            var step = requestDefinition(stepPairs, at: item.mark, defaultName: "\(cleanup ? "cleanup" : "step") \(position + 1)",
                                         context: nil, location: location,
                                         explanations: ["steps": "flows cannot nest: 'steps' is only allowed at the top level",
                                                        "finally": "'finally' belongs at the top level of the flow, beside 'steps'",
                                                        "use": "a step that takes the steps of another file",
                                                        "with": "'with' gives a 'use:' step's file its variables, beside 'use'"],
                                         allowed: FormatKeys.requestDefinition.names, suggesting: ["use"])
            if let each = stepPairs.first(where: { Self.keyText($0.key) == "each" })?.value {
                step = step.looping(over: loopTemplate(each, for: "each"))
            }
            if let name = stepPairs.first(where: { Self.keyText($0.key) == "name" })?.value, Self.containsTemplate(name) {
                warning("a step's 'name' is not a template: here '{{' is shown as written", at: name.mark,
                        suggestion: "write the name without '{{ }}'; a flow's name in an each: file is one")
            }
            file.steps.append(cleanup ? step.asCleanup() : step)
        }
    }

    /// A `when:` mapping: each key a template, each value a matcher (as in `expect.body`).
    mutating func conditions(_ node: Node) -> [Condition] {
        guard let pairs = mapping(node, for: "when") else { return [] }
        var conditions: [Condition] = []
        for pair in pairs {
            let key = Self.keyText(pair.key)
            // A key is not checked beside the request's templates: its undefined variable is absent, not an error.
            let keyTemplates = templatesRead.count
            var parsed: Template?
            if case .scalar(let scalar) = pair.key.content { parsed = parseTemplate(scalar, at: pair.key.mark) }
            templatesRead.removeSubrange(keyTemplates...)
            guard let subject = parsed else { continue }
            guard !subject.isLiteral else {
                error("the 'when' key '\(key)' is not a template: it would never change", at: pair.key.mark,
                      suggestion: "write the value to check as a template, such as \"{{ \(VariablePath.isValidName(key) ? key : "region") }}\"")
                continue
            }
            guard let matcher = matcher(pair.value, for: "when.\(key)") else { continue }
            conditions.append(Condition(subject: subject, matcher: matcher, mark: pair.value.mark))
        }
        if pairs.isEmpty { error("'when' is empty: give at least one condition", at: node.mark) }
        return conditions
    }

    /// `each: "{{ NAME }}"`: a lone template naming a variable whose value is a list (another template is an error).
    mutating func loopTemplate(_ node: Node, for context: String) -> Template? {
        guard case .scalar = node.content else {
            typeMismatch(node, expected: "a lone template such as \"{{ ids }}\" whose value is a list", for: context)
            return nil
        }
        guard let template = template(node, for: context) else { return nil }
        guard let (expression, _) = template.singleExpression, case .variable = expression else {
            // Only a step comes here with a data file: a file's `each:` reads one.
            let dataFile = template.isLiteral && DataRowsDecoding.isDataFile(template.source)
            error("'\(context)' must be one template naming a list, such as \"{{ ids }}\", found '\(template.source)'",
                  at: node.mark, suggestion: dataFile
                      ? "a step loops over a list only; a data file's rows go in the each: at the top of the file, for every step"
                      : "capture or define a list, and write its name alone between '{{' and '}}'")
            // Kept although refused (the file cannot run): its requests are checked with `item` and `index` defined,
            // not reported for using them.
            return template
        }
        return template
    }

    /// `each:` a data file (read by the collection reader) or an inline list of mappings.
    mutating func each(_ node: Node, for file: inout RequestFile, location: FileLocation) {
        switch node.content {
        case .scalar where Self.containsTemplate(node):
            file.rowsTemplate = loopTemplate(node, for: "each")
        case .scalar(let scalar) where Self.namesFile(scalar.value):
            file.rowsFile = fileReference(node, for: "each", location: location)
            // A path refused (reported here) leaves the rows' variables unknown, as a file that cannot be read does.
            file.rowsUnknown = file.rowsFile == nil
        case .sequence(let items):
            file.rows = rows(items, at: node.mark, in: "each")
            // Refused rows (reported here) leave the file's variables unknown: its templates are not reported for them.
            file.rowsUnknown = file.rows == nil
        case .scalar, .mapping:
            typeMismatch(node, expected: "a .csv, .json or .yaml file, a list of mappings or a template naming a list", for: "each")
            file.rowsUnknown = true
        }
    }

    /// Whether an `each:` scalar names a data file: text (`rows.csv`), not null, a boolean or a number (`each: 5`).
    private static func namesFile(_ value: Scalar.Value) -> Bool {
        if case .string = value { true } else { false }
    }

    /// Rows from a list of mappings: the first row's keys are the columns, and every row must have the same keys.
    mutating func rows(_ items: Node.Items, at mark: Mark, in context: String) -> DataRows? {
        guard !items.isEmpty else {
            error("'\(context)' has no rows", at: mark, suggestion: "give at least one row")
            return nil
        }
        var columns: [String]?
        var rows: [[TemplateValue]] = []
        for (index, item) in items.enumerated() {
            guard case .mapping(let pairs) = item.content else {
                error("row \(index + 1) of '\(context)' is not a mapping: found \(Self.describe(item))", at: item.mark,
                      suggestion: "write each row as a mapping of names to values, such as { user: bob, age: 42 }")
                continue
            }
            reportCommaSplits(pairs)
            let keys = pairs.map { Self.keyText($0.key) }
            for pair in pairs { _ = variableName(pair.key, in: "\(context) row \(index + 1)") }
            if columns == nil { columns = keys }
            guard let columns, Set(keys) == Set(columns) else {
                let expected = columns!.joined(separator: ", ")
                error("row \(index + 1) has the names \(keys.joined(separator: ", ")), but row 1 has \(expected)", at: item.mark,
                      suggestion: "give every row the same names")
                continue
            }
            let values = columns.compactMap { column in pairs.first { Self.keyText($0.key) == column }.flatMap { templateValue($0.value) } }
            if values.count == columns.count { rows.append(values) }
        }
        // With bad rows the columns are still known, so the file's variables are checked against them.
        return columns.map { DataRows(columns: $0, rows: rows, mark: mark) }
    }

    /// `- use: FILE` with optional `with:` variables: the steps of another file, inlined when the collection is read.
    mutating func stepUse(_ pairs: Node.Pairs, at mark: Mark, position: Int, location: FileLocation) -> StepUse? {
        let fields = fields(pairs, allowed: FormatKeys.useStep.names, in: "use",
                            explanations: Dictionary(uniqueKeysWithValues: Self.definitionKeys.filter { !FormatKeys.useStep.names.contains($0) }.map {
                                ($0, $0 == "each" ? "a 'use' step runs the used steps once; put 'each' at the top of this flow, whose rows the used steps see"
                                    : "a 'use' step takes the steps of another file; put '\($0)' in that file")
                            }))
        guard let node = fields["use"], let file = fileReference(node, for: "use", location: location) else { return nil }
        var inputs: [StepInput] = []
        if let withNode = fields["with"], let withPairs = mapping(withNode, for: "with") {
            for pair in withPairs {
                guard let name = variableName(pair.key, in: "with") else { continue }
                // A value with an error (reported) still names its variable: the used steps do not also miss it.
                let value = templateValue(pair.value) ?? TemplateValue(.null, mark: pair.value.mark)
                inputs.append(StepInput(name: name, value: value, mark: pair.key.mark))
            }
        }
        var use = StepUse(position: position, file: file, inputs: inputs, mark: node.mark)
        use.conditions = fields["when"].map { conditions($0) } ?? []
        return use
    }

    /// Decodes the keys of one request (a file's top level or a step).
    mutating func requestDefinition(_ pairs: Node.Pairs, at mark: Mark, defaultName: String, context: @autoclosure () -> String?,
                                    location: FileLocation, explanations: [String: String],
                                    allowed: [String] = Self.definitionKeys, suggesting: [String] = []) -> RequestDefinition {
        let (templatesBefore, syntaxErrorsBefore) = (templatesRead.count, templateSyntaxErrors)
        defer { templatesRead.removeSubrange(templatesBefore...) }
        let fields = fields(pairs, allowed: allowed, in: context(), explanations: Self.underTheirKey.merging(explanations) { _, given in given },
                            suggesting: suggesting)
        let request: RequestSpec
        if let node = fields["request"] {
            request = requestSpec(node, location: location)
        } else {
            // A key that stands for another shape (`use`, `steps`, or one misspelt) has said what to write instead.
            if !fields.namesAnotherPlace { missing("request", from: fields, in: context(), at: mark) }
            request = RequestSpec(method: Located("GET", at: mark), url: .literal("", at: mark), query: [], headers: [],
                                  body: nil, mark: mark)
        }
        let expectations = fields["expect"].map { expect($0, location: location) } ?? ExpectDefinition()
        if expectations.error != nil, let capture = fields["capture"] {
            error("'capture' takes its values from a response, and 'expect.error' expects none", at: capture.mark,
                  suggestion: "remove 'capture', or 'expect.error'")
        }
        let name = fields["name"].flatMap { string($0, for: "name") }
        let when = fields["when"].map { conditions($0) } ?? []
        return RequestDefinition(.init(
            path: path,
            name: name ?? defaultName,
            isNamed: name != nil,
            tags: fields["tags"].map { tags($0) } ?? [],
            skip: fields["skip"].flatMap { skip($0) },
            request: request,
            auth: fields["auth"].flatMap { auth($0) },
            options: fields["options"].map { options($0, allowsThrottle: false, location: location, namespaces: expectations.namespaces) }
                ?? OptionsDefinition(),
            expect: expectations,
            captures: fields["capture"].map { captures($0, namespaces: expectations.namespaces) } ?? [],
            mark: mark,
            conditions: when,
            templatesBesideSyntaxErrors: templateSyntaxErrors > syntaxErrorsBefore ? Array(templatesRead[templatesBefore...]) : []))
    }

    /// `tags:` a list of strings, or one string.
    mutating func tags(_ node: Node) -> [String] {
        if case .mapping = node.content {
            typeMismatch(node, expected: "a list of tags", for: "tags")
            return []
        }
        return scalarOrSequence(node).compactMap { string($0, for: "tags") }
    }

    /// `skip:` true, false or a reason.
    mutating func skip(_ node: Node) -> Skip? {
        if case .scalar(let scalar) = node.content {
            switch scalar.value {
            case .bool(let value): return value ? Skip(reason: nil, mark: node.mark) : nil
            case .string(let reason):
                // `skip: |` keeps the line break at its end.
                let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
                if reason.isEmpty {
                    warning("'skip' is an empty reason: the request is skipped", at: node.mark,
                            suggestion: "write skip: true, or say why it is skipped")
                }
                return Skip(reason: reason.isEmpty ? nil : reason, mark: node.mark)
            default: break
            }
        }
        typeMismatch(node, expected: "true, false or a reason", for: "skip")
        return nil
    }

    /// What an unknown key of `request:` that is a key of its own beside it (`auth`, `expect`), an expectation
    /// (`status`) or an option (`timeout`) says.
    private static let besideRequest = goesBeside("request", among: requestKeys).merging(bodyWords) { beside, _ in beside }
        .merging(expectationKeys) { earlier, _ in earlier }
        .merging(optionKeys(FormatKeys.requestOptions)) { earlier, _ in earlier }

    /// What other tools call a request's body, in `request:`: which key sends one.
    private static let bodyWords = Dictionary(uniqueKeysWithValues: ["body", "data", "payload"].map {
        ($0, "a request's body is written with json:, text:, form:, multipart:, file: or graphql:"
            + ($0 == "body" ? " ('body' under 'expect:' checks the response's)" : ""))
    })

    /// What a key of `expect:` (not also one of `request:`) written elsewhere says.
    private static let expectationKeys = Dictionary(uniqueKeysWithValues: FormatKeys.expect.names.filter { !requestKeys.contains($0) }
        .map { ($0, "'\($0)' is an expectation: write it under 'expect:'") })

    /// What a key of `request:`, `expect:` or `options:` written beside them says (`url:`, `status:`, `timeout:`).
    private static let underTheirKey = Dictionary(uniqueKeysWithValues: requestKeys.map { ($0, "'\($0)' belongs to the request: write it under 'request:'") })
        .merging(expectationKeys) { request, _ in request }
        .merging(optionKeys(FormatKeys.requestOptions)) { earlier, _ in earlier }
        .filter { !definitionKeys.contains($0.key) }

    /// What a key of `options:` written beside it says.
    static func optionKeys(_ options: FormatMapping) -> [String: String] {
        Dictionary(uniqueKeysWithValues: options.names.map { ($0, "'\($0)' is an option: write it under 'options:'") })
    }

    /// What an unknown key of `expect:` that is a key of its own beside it (`capture`, `options`) says.
    static let besideExpect = goesBeside("expect", among: FormatKeys.expect.names)
    /// What `error` under `options.retry.stopWhen` says.
    static let notInStopWhen = [
        "error": "a try that fails without a response (a timeout, no connection) ends polling with its error: 'stopWhen' checks responses",
    ]

    /// For each key of a request definition that `place` (whose keys are `keys`) does not have: that it goes beside it.
    private static func goesBeside(_ place: String, among keys: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: definitionKeys.filter { !keys.contains($0) && $0 != place }
            .map { ($0, "'\($0)' goes beside '\(place)', not inside it") })
    }

    /// The `request:` mapping.
    mutating func requestSpec(_ node: Node, location: FileLocation) -> RequestSpec {
        var spec = RequestSpec(method: Located("GET", at: node.mark), url: .literal("", at: node.mark), query: [],
                               headers: [], body: nil, mark: node.mark)
        guard let pairs = mapping(node, for: "request") else { return spec }
        let fields = fields(pairs, allowed: Self.requestKeys, in: "request", explanations: Self.besideRequest)
        if let methodNode = fields["method"], let method = string(methodNode, for: "request.method") {
            if methodNode.string == nil {
                // `method: 5`, `method: true`: YAML reads a number or a boolean, which no one means as a method.
                warning("'request.method' is \(Self.describe(methodNode)), sent as the method '\(method)'", at: methodNode.mark,
                        suggestion: "write a method such as GET or POST, or quote it (\"\(method)\") to send it as written")
            }
            checkMethod(method, at: methodNode.mark)
            spec.method = Located(method, at: methodNode.mark)
        }
        if let urlNode = fields["url"] {
            if let url = template(urlNode, for: "request.url") {
                checkURL(url, at: urlNode.mark, for: "request.url")
                spec.url = url
            }
        } else {
            missing("url", from: fields, in: "request", at: node.mark)
        }
        spec.query = fields["query"].map { parameters($0, for: "request.query") } ?? []
        spec.headers = fields["headers"].map { headers($0, for: "request.headers") } ?? []
        spec.body = body(fields, pairs: pairs, location: location)
        if let body = spec.body, case .graphql = body.value, !fields.has("method") {
            spec.method = Located("POST", at: body.mark)
        }
        return spec
    }

    /// Checks that a method is an RFC 9110 token; warns about lower-case standard methods.
    private mutating func checkMethod(_ method: String, at mark: Mark) {
        guard HTTPSyntax.isToken(method) else {
            error("invalid method '\(ControlCharacters.escaped(method, keepingLineBreaks: false))': a method is a token (letters, digits and !#$%&'*+-.^_`|~)", at: mark)
            return
        }
        let standard = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]
        if method != method.uppercased(), standard.contains(method.uppercased()) {
            warning("method '\(method)' is sent as written; methods are case-sensitive",
                    at: mark, suggestion: "did you mean '\(method.uppercased())'?")
        }
    }

    /// A mapping of names to a scalar or a list of scalars (query, form).
    mutating func parameters(_ node: Node, for context: @autoclosure () -> String) -> [Parameter] {
        guard let pairs = mapping(node, for: context()) else { return [] }
        var parameters: [Parameter] = []
        for (position, pair) in pairs.enumerated() where !isCommaSplit(pairs, at: position) && !reportGlued(pairs, at: position) {
            var values: [TemplateValue] = []
            for item in scalarOrSequence(pair.value) {
                guard case .scalar = item.content else {
                    typeMismatch(item, expected: "a scalar or a list of scalars", for: "\(context()).\(Self.keyText(pair.key))")
                    continue
                }
                // No value (`b:`, `b: ~`, or `b` alone in `{ }`) would be sent as the word null; one not written is
                // shown at its key.
                guard !item.isNull else {
                    let name = Self.keyText(pair.key)
                    let inList = pair.value.sequence != nil
                    error("expected a value for '\(context()).\(name)', found null", at: item.scalarText == "" && !inList ? pair.key.mark : item.mark,
                          suggestion: inList ? "write \"\" for an empty item, \"null\" for the word, or remove it"
                              : "write \(name): \"\" to send it empty, or \(name): \"null\" for the word")
                    continue
                }
                if let value = templateValue(item) { values.append(value) }
            }
            parameters.append(Parameter(name: Self.keyText(pair.key), nameMark: pair.key.mark, values: values))
        }
        return parameters
    }

    /// The header name a key (or a capture's `header:` value) gives; nil, after an error at it, when it is not a
    /// token (no header could have it).
    mutating func headerName(_ key: Node) -> String? {
        let name = Self.keyText(key)
        guard HTTPSyntax.isToken(name) else {
            // `Authorization:Bearer x` is one key: its value is not shown.
            let shown = Self.gluesCredential(name) ? name.prefix { $0 != ":" } + ":(not shown)" : name
            error("invalid header name '\(shown)'", at: key.mark, suggestion: "header names are tokens: letters, digits and !#$%&'*+-.^_`|~")
            return nil
        }
        return name
    }

    /// A mapping of header names to templated values.
    mutating func headers(_ node: Node, for context: @autoclosure () -> String) -> [HeaderField] {
        guard let pairs = mapping(node, for: context()) else { return [] }
        var headers: [HeaderField] = []
        var seen: [String: String] = [:]
        for (position, pair) in pairs.enumerated() where !isCommaSplit(pairs, at: position) && !reportGlued(pairs, at: position) {
            guard let name = headerName(pair.key),
                  !isRepeatedHeader(name, seen: &seen, at: pair.key.mark,
                                    suggestion: "give it once, several values joined with ', '") else { continue }
            if name.lowercased() == "proxy-authorization" {
                warning("a Proxy-Authorization header is not sent: no header written here reaches a proxy (its tunnel is made "
                        + "before the request), and the server must not get the proxy's credentials", at: pair.key.mark,
                        suggestion: "give the proxy's user and password in its URL (options.proxy or --proxy: "
                            + "http://user:password@host:port), which runner sends to the proxy alone")
            }
            if let value = template(pair.value, for: "\(context()).\(name)") {
                // A value written without templates is known now: one that cannot be sent is an error here.
                if value.isLiteral, let problem = HeaderField.valueProblem(value.literalText, of: value, named: name, in: path) {
                    error(problem.message, at: problem.mark, suggestion: problem.suggestion)
                }
                headers.append(HeaderField(name: name, nameMark: pair.key.mark, value: value))
            }
        }
        return headers
    }

    /// Reports a header name written before in another case (header names are case-insensitive: both would name one
    /// header); whether it was. `seen` holds the names written so far by their lower-case form (a name is a token: ASCII),
    /// so that a mapping of thousands is checked in one pass.
    mutating func isRepeatedHeader(_ name: String, seen: inout [String: String], at mark: Mark, suggestion: String) -> Bool {
        let key = name.lowercased()
        guard let first = seen[key] else {
            seen[key] = name
            return false
        }
        error("'\(name)' names the header '\(first)' again (header names are case-insensitive)", at: mark, suggestion: suggestion)
        return true
    }

    /// The one body key of a request, if any; reports a second one.
    private mutating func body(_ fields: Fields, pairs: Node.Pairs, location: FileLocation) -> Located<BodyDefinition>? {
        let bodyPairs = pairs.filter { BodyDefinition.keys.contains(Self.keyText($0.key)) }
        guard let first = bodyPairs.first else { return nil }
        for extra in bodyPairs.dropFirst() {
            error("more than one body: '\(Self.keyText(first.key))' and '\(Self.keyText(extra.key))'", at: extra.key.mark,
                  suggestion: "a request has at most one of " + BodyDefinition.keys.joined(separator: ", "))
        }
        let node = first.value
        let body: BodyDefinition?
        switch Self.keyText(first.key) {
        case "json":
            // `json:` with nothing after it would send `null`: the body was forgotten, or not indented under it.
            if node.isNull, node.scalarText?.isEmpty == true {
                error("'json:' has no value", at: first.key.mark,
                      suggestion: "write the body after it or indented under it; to send the JSON null, write json: null")
                return nil
            }
            if let glued = gluedText(node) {
                warning("the JSON body is the text '\(glued.shown)': a ':' ends a key only before a space", at: node.mark,
                        suggestion: "for an object, write a space after the ':' of '\(glued.word):'; for the text, quote it")
            }
            body = templateValue(node, partial: true).map { .json($0) }
            if case .json(let value)? = body { checkJSONExpressible(value) }
        case "form": body = .form(parameters(node, for: "request.form"))
        case "multipart": body = multipart(node, location: location).map { .multipart($0) }
        case "text": body = template(node, for: "request.text").map { .text($0) }
        case "graphql": body = graphql(node).map { .graphql($0) }
        default: body = fileReference(node, for: "request.file", location: location).map { .file($0) }
        }
        return body.map { Located($0, at: first.key.mark) }
    }

    /// Reports each number of a value sent as JSON that JSON cannot write (`.inf`, `.nan`): it could not be sent.
    private mutating func checkJSONExpressible(_ value: TemplateValue) {
        switch value.content {
        case .double(let number) where !number.isFinite:
            error("\(number.isNaN ? "NaN" : "an infinite number") cannot be sent as JSON, which has no such number", at: value.mark,
                  suggestion: "write a finite number, or write it in quotes to send it as a string")
        case .array(let elements): elements.forEach { checkJSONExpressible($0) }
        case .object(let members): members.forEach { checkJSONExpressible($0.value) }
        default: break
        }
    }

    /// `graphql:` with `query` (required), `variables` and `operationName`.
    private mutating func graphql(_ node: Node) -> GraphQLBody? {
        guard let pairs = mapping(node, for: "request.graphql") else { return nil }
        let fields = fields(pairs, allowed: GraphQLBody.keys, in: "request.graphql")
        let variables = fields["variables"].flatMap { graphQLVariables($0) }
        let operationName = fields["operationName"].flatMap { template($0, for: "request.graphql.operationName") }
        guard let queryNode = fields["query"] else {
            missing("query", from: fields, in: "request.graphql", at: node.mark)
            return nil
        }
        // A query with an error (reported) leaves the body for checking the rest: the file does not run.
        guard let query = template(queryNode, for: "request.graphql.query") else {
            return GraphQLBody(query: .literal("", at: queryNode.mark), variables: variables, operationName: operationName)
        }
        if query.source.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            error("'request.graphql.query' is empty", at: queryNode.mark, suggestion: "write the GraphQL document, such as '{ users { name } }'")
        }
        return GraphQLBody(query: query, variables: variables, operationName: operationName)
    }

    /// `graphql.variables`: a mapping, or a lone template whose value is sent as it is.
    private mutating func graphQLVariables(_ node: Node) -> TemplateValue? {
        if case .mapping = node.content {
            let variables = templateValue(node, partial: true)
            if let variables { checkJSONExpressible(variables) }
            return variables
        }
        if case .scalar(let scalar) = node.content, case .string = scalar.value, Self.containsTemplate(node) {
            guard let template = template(node, for: "request.graphql.variables") else { return nil }
            if template.singleExpression != nil { return TemplateValue(.string(template), mark: node.mark) }
        }
        typeMismatch(node, expected: "a mapping of variables", for: "request.graphql.variables",
                     suggestion: "write a mapping such as variables: { id: \"{{ userId }}\" }, or one template holding a mapping")
        return nil
    }

    /// The parts of `multipart:`.
    private mutating func multipart(_ node: Node, location: FileLocation) -> [MultipartPart]? {
        guard let items = sequence(node, for: "request.multipart") else { return nil }
        var parts: [MultipartPart] = []
        for item in items {
            guard let pairs = mapping(item, for: "request.multipart") else { continue }
            let fields = fields(pairs, allowed: FormatKeys.multipartPart.names, in: "request.multipart")
            // The name and the content are checked apart: a problem in one does not hide the other's.
            var name: Template?
            if let nameNode = fields["name"] {
                name = template(nameNode, for: "request.multipart.name")
            } else {
                missing("name", from: fields, in: "request.multipart", at: item.mark)
            }
            let content: MultipartPart.Content?
            switch (fields["value"], fields["file"]) {
            case (let value?, nil):
                if let contentType = fields.keyNode("contentType") {
                    error("'contentType' applies to file parts only", at: contentType.mark)
                }
                content = template(value, for: "request.multipart.value").map { .value($0) }
            case (nil, let file?):
                let contentType = fields["contentType"].flatMap { string($0, for: "request.multipart.contentType") }
                // It is the part's Content-Type header: a line break in it would add headers of its own.
                if let contentType, let node = fields["contentType"],
                   contentType.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) }) {
                    error("'contentType' contains a control character (a line break would add a header to the part); "
                          + "it is the part's Content-Type header value", at: node.mark, suggestion: "write a media type such as text/plain")
                }
                content = fileReference(file, for: "request.multipart.file", location: location).map { .file($0, contentType: contentType) }
            case (nil, nil):
                error("a multipart part needs 'value' or 'file'", at: item.mark)
                content = nil
            case (_?, _?):
                error("a multipart part has either 'value' or 'file', not both", at: fields.keyNode("file")!.mark,
                      suggestion: "keep 'value' to send text, or 'file' to send a file's bytes")
                content = nil
            }
            // A broken name or content is kept as empty text, so that the other's variables and file are still checked
            // (the file has an error: it never runs).
            parts.append(MultipartPart(name: name ?? .literal("", at: item.mark), content: content ?? .value(.literal("", at: item.mark)),
                                       mark: item.mark))
        }
        return parts
    }

    /// A file path relative to the request file.
    mutating func fileReference(_ node: Node, for context: @autoclosure () -> String, location: FileLocation) -> FileReference? {
        guard let written = string(node, for: context()) else { return nil }
        guard !written.isEmpty else {
            error("'\(context())' is empty: expected a file path", at: node.mark)
            return nil
        }
        // A file's path ending in `/` names a directory; the path would be read without it.
        guard !written.hasSuffix("/") else {
            let file = String(written.reversed().drop { $0 == "/" }.reversed())
            error("'\(context())' is '\(written)', which ends with '/': expected a file path, not a directory", at: node.mark,
                  suggestion: file.isEmpty ? nil : "name a file: '\(file)' if that is one, or a file inside that directory")
            return nil
        }
        return location.reference(written, at: node.mark)
    }
}

extension NodeDecoder {
    /// Top-level keys other tools' files have, with where such a thing is written here.
    static let keysOfOtherTools: [String: String] = {
        let variables = "variables come from an environment file's variables:, --var, a data file (each:) or a capture"
        let cleanup = "cleanup steps go under a flow's finally:"
        return ["vars": variables, "variables": variables, "cleanup": cleanup, "teardown": cleanup]
    }()
}

/// Lexical rules of HTTP (RFC 9110).
enum HTTPSyntax {
    /// Whether `text` is a non-empty token: letters, digits and `!#$%&'*+-.^_`|~`.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}

/// Joining displayed and absolute paths without Foundation's URL rules.
package enum PathText {
    /// `directory/name`, without a leading `./` or doubled slashes.
    package static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty || directory == "." { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `directory/name` as a message shows it: each `./` and `../` at the start of `name` taken away with a component of
    /// `directory` (`t2/x.yaml`, not `t2/environments/../x.yaml`); for showing only, as a directory may be a link.
    package static func shown(_ directory: String, _ name: String) -> String {
        var directory = directory, name = Substring(name)
        while true {
            if name.hasPrefix("./") {
                name = name.dropFirst(2)
            } else if name.hasPrefix("../"), !["", ".", "/", ".."].contains(directory), lastComponent(of: directory) != ".." {
                (directory, name) = (Self.directory(of: directory), name.dropFirst(3))
            } else {
                return join(directory, String(name))
            }
        }
    }

    /// The last component of a path (the whole path when it has no `/`).
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The directory part of a path ("" when there is none).
    package static func directory(of path: String) -> String {
        // On UTF-8 bytes: `/` is never part of a multi-byte character, and Character search is slow.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension NodeDecoder {
    /// Where the first `://` of a text starts, found on UTF-8 bytes.
    private static func schemeSeparator(in text: String) -> String.Index? {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":"), bytes[index...].starts(with: "://".utf8) { return index }
            bytes.formIndex(after: &index)
        }
        return nil
    }

    /// A URL written without templates must parse (as it will when sent) and, when absolute, have a host and a port
    /// from 1 to 65535.
    /// Checks a URL a request is sent to (`key` names it): not empty, http(s) or a path, and when written without
    /// templates, one that can be sent (`checkLiteralURL`), unless a comma cut it.
    mutating func checkURL(_ url: Template, at mark: Mark, for key: String) {
        if url.source.isEmpty { error("'\(key)' is empty", at: mark) }
        if let scheme = Self.literalScheme(of: url), scheme != "http", scheme != "https" {
            error("unsupported URL scheme '\(scheme)': a URL is http(s) or a path relative to the environment's baseURL",
                  at: mark, suggestion: "use an http:// or https:// URL, or a path such as /users")
        }
        if url.isLiteral, !commaCutValues.contains(mark) { checkLiteralURL(url, at: mark, for: key) }
    }

    private mutating func checkLiteralURL(_ url: Template, at mark: Mark, for key: String) {
        if let problem = URLCredentials.misplacedDelimiterProblem(inURL: url.source) {
            error("'\(key)': \(problem)", at: mark)
            return
        }
        guard let components = PercentEncoding.components(ofURL: url.source)
        else {
            if let problem = URLComponents.writtenPortProblem(inURL: url.source) {
                error("'\(key)': \(problem)", at: mark, suggestion: URLComponents.portSuggestion)
                return
            }
            error("'\(key)' is not a valid URL", at: mark, suggestion: "write http(s)://HOST[:PORT]/PATH, or a path such as /users")
            return
        }
        if let problem = components.requestURLProblem {
            error("'\(key)': \(problem)", at: mark, suggestion: components.requestURLSuggestion(for: problem))
        }
    }

    /// The scheme of a URL template whose literal start is `scheme://`, lowercased; nil for paths.
    static func literalScheme(of url: Template) -> String? {
        guard case .literal(let text)? = url.segments.first, let separator = schemeSeparator(in: text) else { return nil }
        let scheme = text[..<separator]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        return scheme.lowercased()
    }
}

extension Template {
    /// The scheme of a URL template whose literal start is `scheme://`, lowercased; nil for paths.
    package var literalScheme: String? { NodeDecoder.literalScheme(of: self) }
}
