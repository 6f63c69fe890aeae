public import Expectations
public import Foundation
public import HTTPCore
public import YAML

/// Where the built-ins get their values: the clock and the run's random values; injectable so tests are deterministic.
public struct BuiltinValues: Sendable {
    public var now: @Sendable () -> Date
    /// The random values: a run gives each file run its own stream of the run's seed.
    public var random: RandomValues

    public init(now: @escaping @Sendable () -> Date, random: RandomValues) {
        self.now = now
        self.random = random
    }

    /// The clock, and random values from a seed chosen at random.
    public static var live: BuiltinValues {
        BuiltinValues(now: { Date() }, random: RandomValues(seed: RandomValues.randomSeed()))
    }
}

/// The variables visible to a request, in layers, with the names that are secrets.
public struct VariableScope: Sendable {
    /// Where a variable comes from; later layers win.
    public enum Layer: Sendable, Hashable {
        /// The environment's `variables` and `secrets`.
        case environment
        /// The fields of the row an `each:` file runs for.
        case row
        /// Captures of earlier requests.
        case capture
        /// The `with:` variables of a used file's steps.
        case input
        /// `--var name=value` on the command line.
        case commandLine
    }

    /// One table per layer, in layer order: defining a variable copies (when shared) its layer's table only.
    private var environmentValues: [String: JSONValue] = [:]
    private var rowValues: [String: JSONValue] = [:]
    private var captureValues: [String: JSONValue] = [:]
    private var inputValues: [String: JSONValue] = [:]
    private var commandLineValues: [String: JSONValue] = [:]
    /// The names defined by the environment's `secrets`.
    public private(set) var secretNames: Set<String> = []
    /// For a run: the request files up to the current one that capture a variable, to name them when none of those
    /// captures happened (their requests failed or were skipped) and a request needs it.
    public var capturingFiles: (@Sendable (String) -> [String])?
    /// The process environment, for `$env.NAME`.
    public var processEnvironment: ProcessEnvironment
    public var builtins: BuiltinValues

    public init(processEnvironment: ProcessEnvironment = [:], builtins: BuiltinValues = .live) {
        self.processEnvironment = processEnvironment
        self.builtins = builtins
    }

    /// Defines (or replaces) a variable in a layer; `secret` marks its value for redaction.
    public mutating func define(_ name: String, _ value: JSONValue, in layer: Layer, secret: Bool = false) {
        switch layer {
        case .environment: environmentValues[name] = value
        case .row: rowValues[name] = value
        case .capture: captureValues[name] = value
        case .input: inputValues[name] = value
        case .commandLine: commandLineValues[name] = value
        }
        if secret { secretNames.insert(name) }
    }

    /// Removes a captured variable (an earlier request's capture of `name`); its other layers stay.
    public mutating func forgetCapture(_ name: String) {
        captureValues[name] = nil
    }

    /// Defines the variables of element `number` (from 1) of an `each:` list in a layer: `item` (the element),
    /// `index` (`number`) and, when the element is a mapping, its fields.
    public mutating func defineElement(_ element: JSONValue, number: Int, in layer: Layer) {
        if case .object(let object) = element {
            for (key, value) in object.members { define(key, value, in: layer) }
        }
        define("item", element, in: layer)
        define("index", .int(number), in: layer)
    }

    /// The value of a variable from the highest layer that defines it.
    public func value(of name: String) -> JSONValue? {
        commandLineValues[name] ?? inputValues[name] ?? captureValues[name] ?? rowValues[name] ?? environmentValues[name]
    }

    /// Every defined name, in all layers.
    public var definedNames: Set<String> {
        Set(environmentValues.keys).union(rowValues.keys).union(captureValues.keys).union(inputValues.keys).union(commandLineValues.keys)
    }

    /// The credentials the collection's files write as they are (`WrittenCredentials`), hidden as secrets are.
    public var writtenCredentials: Set<String> = []

    /// The text of every secret value (non-empty): the environment's, and a `--var` that replaces one (it is sent where
    /// the secret would be).
    public var secretValues: Set<String> {
        Set(secretNames.flatMap { [environmentValues[$0], commandLineValues[$0]].compactMap { $0 } }.map(\.interpolatedText)
            .filter { !$0.isEmpty })
    }

    /// What every output hides: the secrets' values and the credentials the files write as they are (which `export`
    /// writes, being in the files already).
    public var hiddenValues: Set<String> {
        secretValues.union(writtenCredentials)
    }

    /// `text` (what `template` resolved to) as a message may show it: the template as written when it inserts a secret
    /// (by the secret's name, whatever its length) or the text, or a value the template inserted in it (a URL holds it
    /// encoded: `P@ss` as `P%40ss`), holds a secret's value (`baseURL '{{ token }}' is not ...`).
    public func shown(_ text: String, resolving template: Template) -> String {
        insertsSecret(template, into: text) ? template.source : text
    }

    /// Why the URL `template` resolved to (`text`, read as `components`) cannot be sent (`URLComponents.requestURLProblem`),
    /// naming no port a secret gave; nil when it can be.
    public func requestURLProblem(of components: URLComponents, resolving template: Template, into text: String) -> String? {
        guard components.requestURLProblem != nil else { return nil }
        return components.requestURLProblem(quoting: !insertsSecret(template, into: text))
    }

    /// The components of `text`, what the request URL `template` resolved to; throws the error (in `path`) saying why it
    /// cannot be sent: it does not parse as a URL, or it has a `requestURLProblem`. A relative URL is not joined.
    public func requestURL(_ text: String, resolving template: Template, in path: String) throws(Diagnostic) -> URLComponents {
        if let problem = URLCredentials.misplacedDelimiterProblem(inURL: text) {
            throw .error("the URL '\(URLCredentials.hidingPasswords(in: shown(text, resolving: template), asOneURL: true))': \(problem)",
                         path: path, at: template.mark)
        }
        // Percent-encoding is a fallback for text that does not parse as it is, so most URLs never pay for it.
        guard let components = PercentEncoding.components(ofURL: text) else {
            if let problem = URLComponents.writtenPortProblem(inURL: text, quoting: !insertsSecret(template, into: text)) {
                throw .error("the URL '\(shown(text, resolving: template))': \(problem)", path: path, at: template.mark,
                             suggestion: URLComponents.portSuggestion)
            }
            throw .error("'\(shown(text, resolving: template))' is not a valid URL", path: path, at: template.mark)
        }
        if let problem = requestURLProblem(of: components, resolving: template, into: text) {
            throw .error("the URL '\(shown(text, resolving: template))': \(problem)", path: path, at: template.mark,
                         suggestion: components.requestURLSuggestion(for: problem))
        }
        return components
    }

    /// Whether `template`, which resolved to `text`, put a secret in it.
    public func insertsSecret(_ template: Template, into text: String) -> Bool {
        let namesSecret = template.expressions.contains { expression, _ in
            if case .variable(let variable) = expression { secretNames.contains(variable.name) } else { false }
        }
        if namesSecret { return true }
        let secrets = secretValues.filter { $0.count >= ResolvedSecret.shortestHiddenInText }
        let holdsSecret = { (value: String) in secrets.contains { value.contains($0) } }
        var inserted = holdsSecret(text)
        if !inserted {
            _ = try? resolveString(template) { _, value, _ in
                inserted = inserted || holdsSecret(value)
                return value
            }
        }
        return inserted
    }

    /// Resolves a template: a single `{{ ... }}` keeps its value's type, anything else is a string.
    public func resolve(_ template: Template) throws(TemplateError) -> JSONValue {
        if let (expression, mark) = template.singleExpression { return try evaluate(expression, at: mark) }
        return .string(try resolveString(template))
    }

    /// Resolves a template to text; non-string values are written as JSON.
    public func resolveString(_ template: Template) throws(TemplateError) -> String {
        try resolveString(template) { _, value, _ in value }
    }

    /// Resolves a template to text, each expression's text as `insert` writes it, given the text before it.
    public func resolveString(_ template: Template, inserting insert: (TemplateExpression, String, _ before: String) -> String)
        throws(TemplateError) -> String {
        var text = ""
        for segment in template.segments {
            switch segment {
            case .literal(let literal): text += literal
            case .expression(let expression, let mark): text += insert(expression, try evaluate(expression, at: mark).interpolatedText, text)
            }
        }
        return text
    }

    /// Resolves every template of a value tree.
    public func resolve(_ value: TemplateValue) throws(TemplateError) -> JSONValue {
        switch value.content {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .int(int)
        case .double(let double): return .double(double)
        case .string(let template): return try resolve(template)
        case .array(let items):
            var resolved: [JSONValue] = []
            for item in items { resolved.append(try resolve(item)) }
            return .array(resolved)
        case .object(let members):
            var object = JSONObject()
            for member in members { object[member.key] = try resolve(member.value) }
            return .object(object)
        }
    }

    /// Resolves a `url:` (or a `baseURL`) to text, a value holding a secret (a secret, a variable or capture holding one,
    /// a piece of one) as one value, never the URL's structure: in the authority its `@ / : ? # % [ ]`, in the path its
    /// `? # %`, in the query its `& + # % ?` percent-encoded, so that it is sent whole, to the host written, and hidden
    /// whole.
    public func resolveURL(_ template: Template) throws(TemplateError) -> String {
        let secrets = secretNames.compactMap { value(of: $0)?.interpolatedText }.filter { $0.count >= ResolvedSecret.shortestHiddenInText }
        // A mapping or list holding a secret is written as JSON, where the secret stands JSON-escaped (`ab\"c`).
        let forms = Set(secrets.flatMap { [$0, JSONValue.stringContents($0)] })
        return try resolveString(template) { expression, value, before in
            let isSecret = if case .variable(let variable) = expression, secretNames.contains(variable.name) { true } else { false }
            guard isSecret || forms.contains(where: { value.contains($0) }) || secrets.contains(where: { value.count >= 6 && $0.contains(value) }) else {
                return value
            }
            let authority = before.range(of: "://").map { !before[$0.upperBound...].contains("/") } ?? false
            return PercentEncoding.encoding(authority ? PercentEncoding.authorityStructure
                                            : before.contains("?") ? PercentEncoding.queryStructure : PercentEncoding.pathStructure, in: value)
        }
    }

    /// Resolves every operand of a matcher, with the source of each lone template among them (`"{{ n }}"`) by the
    /// value it gave, for a failure's note to name it.
    ///
    /// A `matches` pattern a template gives that is not a regular expression is an error at that template (a literal one
    /// was reported when the file was read): the matcher cannot be checked, negated or not.
    public func resolve(_ matcher: Matcher<TemplateValue>) throws(TemplateError) -> (matcher: Matcher<JSONValue>, templates: [JSONValue: String]) {
        var templates: [JSONValue: String] = [:]
        var marks: [JSONValue: Mark] = [:]
        let values = try matcher.map { (operand) throws(TemplateError) -> JSONValue in
            let value = try resolve(operand)
            if case .string(let template) = operand.content, !template.isLiteral {
                if template.singleExpression != nil { templates[value] = template.source }
                marks[value] = operand.mark
            }
            return value
        }
        // `in: "{{ allowed }}"`: the template gives the list (an `in:` operand is always a lone template, so it has a mark).
        let resolved = try values.spreadingLists { (value) throws(TemplateError) -> Never in
            throw Self.notAList(value, from: templates[value], at: marks[value] ?? Mark(line: 1, column: 1))
        }
        if !marks.isEmpty, let invalid = resolved.invalidPatterns().first, let mark = marks[.string(invalid.pattern)] {
            throw TemplateError(invalid.description, at: mark,
                                suggestion: "give the variable a regular expression, with its special characters escaped (\\( for a '(')")
        }
        return (resolved, templates)
    }

    /// The error for `value`, which the template `source` of an `in:` gave and which is not the list with values `in`
    /// reads.
    public static func notAList(_ value: JSONValue, from source: String?, at mark: Mark) -> TemplateError {
        let problem = value == .array([]) ? "an empty list: no value is one of none (and under 'not', every value passes)"
            : "\(value == .null ? "null" : "\(value.kindName) \(value.compactDescription())"), not the list 'in' reads"
        return TemplateError("\(source.map { "'\($0)'" } ?? "its template") gives \(problem)", at: mark,
                             suggestion: value == .array([]) ? "check that the list is empty with isEmpty: true, or give it values"
                                 : "give it a list, such as a capture of $.ids[*]")
    }

    /// The first variable of `template` whose value is null, as written (`{{ token }}`), and where: text that would be
    /// sent as the word null; nil when none is (built-ins never give null, and are not drawn again).
    public func firstNullVariable(in template: Template) -> (source: String, mark: Mark)? {
        for case .expression(let expression, let mark) in template.segments {
            guard case .variable = expression, (try? evaluate(expression, at: mark)) == .null else { continue }
            return ("{{ \(expression) }}", mark)
        }
        return nil
    }

    /// The value of one expression.
    public func evaluate(_ expression: TemplateExpression, at mark: Mark) throws(TemplateError) -> JSONValue {
        switch expression {
        case .builtin(.uuid): return .string(builtins.random.uuid())
        case .builtin(.timestamp): return .int(Int(builtins.now().timeIntervalSince1970.rounded(.down)))
        case .builtin(.isoDate): return .string(builtins.now().formatted(.iso8601))
        case .builtin(.isoTimestamp):
            return .string(builtins.now().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .builtin(.randomInt): return .int(builtins.random.int(in: 0...Int(Int32.max)))
        case .builtin(.randomIntIn(let range)): return .int(builtins.random.int(in: range))
        case .builtin(.randomString(let length)): return .string(builtins.random.string(length: length))
        case .builtin(.randomEmail): return .string(builtins.random.email())
        case .builtin(.randomName): return .string(builtins.random.name())
        case .builtin(.env(let name)):
            guard let value = processEnvironment[name] else { throw Self.unsetEnvironmentVariable(name, in: processEnvironment, at: mark) }
            return .string(value)
        case .variable(let path):
            guard let root = value(of: path.name) else {
                guard let files = capturingFiles?(path.name), let last = files.last else {
                    throw Self.undefinedVariable(path.name, at: mark, among: definedNames)
                }
                let suggestion = files.count == 1 ? "\(last) captures it, but did not: it failed, errored or was skipped (see its result)"
                    : files.dropLast().joined(separator: ", ")
                        + " and \(last) capture it, but none did: they failed, errored or were skipped (see their results)"
                var error = TemplateError("undefined variable '\(path.name)'", at: mark, suggestion: suggestion)
                error.undefinedName = path.name
                throw error
            }
            return try Self.follow(path, from: root, at: mark)
        }
    }

    /// The error for a variable that no layer defines, with a suggestion among the defined names.
    public static func undefinedVariable(_ name: String, at mark: Mark, among defined: Set<String>) -> TemplateError {
        let close = closestName(to: name, among: defined)
        let suggestion = close.map { "did you mean '\($0)'?" }
            ?? "define it in the environment's 'variables', capture it in an earlier request, or pass --var \(name)=VALUE"
        var error = TemplateError("undefined variable '\(name)'", at: mark, suggestion: suggestion)
        (error.undefinedName, error.closeName) = (name, close)
        return error
    }

    /// The defined name closest to `name`, for a "did you mean": only a valid variable name, since a name that is not
    /// one (a CSV column such as 'na me', itself an error) cannot be written in a template.
    package static func closestName(to name: String, among defined: Set<String>) -> String? {
        Suggestions.closest(to: name, among: defined.filter(VariablePath.isValidName).sorted())
    }

    /// The error for `$env.NAME` when the process environment lacks NAME.
    public static func unsetEnvironmentVariable(_ name: String, in environment: ProcessEnvironment, at mark: Mark) -> TemplateError {
        guard environment.notUTF8.contains(name) else {
            return TemplateError("environment variable '\(name)' is not set (used as '$env.\(name)')", at: mark,
                                 suggestion: Suggestions.closest(to: name, among: environment.variables.filter { !$0.value.isEmpty }.keys.sorted())
                                    .map { "did you mean '$env.\($0)', which is set?" })
        }
        var error = TemplateError("environment variable '\(name)' (used as '$env.\(name)') " + ProcessEnvironment.notUTF8Problem, at: mark,
                                  suggestion: "set \(name) to UTF-8 text")
        error.valueIsNotText = true
        return error
    }

    /// Walks the keys and indexes of a path into a value.
    private static func follow(_ path: VariablePath, from root: JSONValue, at mark: Mark) throws(TemplateError) -> JSONValue {
        var current = root
        for (position, component) in path.components.enumerated() {
            let parent = path.prefix(position)
            switch (component, current) {
            case (.key(let key), .object(let object)):
                guard let next = object[key] else {
                    throw TemplateError("'\(parent)' has no key '\(key)' (in '\(path)')", at: mark,
                                        suggestion: Suggestions.didYouMean(key, among: object.keys))
                }
                current = next
            case (.index(let index), .array(let items)):
                guard index < items.count else {
                    throw TemplateError("index \(index) is out of range: '\(parent)' has \(items.count) element\(items.count == 1 ? "" : "s") (in '\(path)')", at: mark)
                }
                current = items[index]
            case (.key(let key), .array):
                // `emails.0`: an index is written in brackets.
                let index = Int(key) != nil ? "\(parent)[\(key)]" : "\(parent)[0]"
                throw TemplateError("'\(parent)' is a list, not an object (in '\(path)')", at: mark,
                                    suggestion: "write an element's index in brackets: \(index)")
            case (.key, _):
                throw TemplateError("'\(parent)' is \(current.kindName), not an object (in '\(path)')", at: mark)
            case (.index, _):
                throw TemplateError("'\(parent)' is \(current.kindName), not a list (in '\(path)')", at: mark)
            }
        }
        return current
    }
}
