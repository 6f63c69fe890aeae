import CollectionFormat
import HTTPCore
import Foundation
import OpenAPIContract

/// An OpenAPI document translated into a collection: a request file per operation (in folders by tag or first path
/// segment, numbered in document order), and an environment with the server's URL, example values and secrets.
public enum OpenAPIImport {
    /// The files to write and what was not translated.
    public struct Result: Sendable {
        /// Request files by path relative to the output directory (`requests/pets/01-list-pets.yaml`), in document order.
        public var requests: [(path: String, text: String)] = []
        /// The environment file's path relative to the output directory, and its text.
        public var environment: (path: String, text: String) = ("", "")
        /// What was not translated, or needs the user, each with its place in the document.
        public var notes: [OpenAPIProblem] = []
        /// The variables without an example in the document: the environment holds a placeholder for each.
        public var placeholders: [String] = []
    }

    /// The placeholder value of a variable the document gives no example for.
    public static let placeholder = VariableDefinition.importPlaceholder

    /// Translates `document`; `specPath` is the document's path as the output directory sees it (relative, or absolute),
    /// `environmentName` the environment file's name.
    public static func translate(_ document: OpenAPIDocument, specPath: String, environmentName: String) -> Result {
        var translation = Translation(document: document)
        var result = Result()
        var numbers: [String: Int] = [:]
        var named: [(folder: String, name: String, text: String)] = []
        let openapiPath = specPath.hasPrefix("/") ? specPath : "../../" + specPath
        let entries = OpenAPIOperations.list(in: document.raw)
        // Path parameters keep their names in every operation: theirs are taken first.
        for entry in entries { translation.registerPathVariables(of: entry.path) }
        for entry in entries {
            let (folder, name, text) = translation.request(entry, openapiPath: openapiPath)
            named.append((folder, name, text))
            numbers[folder, default: 0] += 1
        }
        var counters: [String: Int] = [:]
        var used: Set<String> = []
        for file in named {
            counters[file.folder, default: 0] += 1
            let width = max(2, String(numbers[file.folder] ?? 0).count)
            let number = String(repeating: "0", count: width - String(counters[file.folder] ?? 0).count) + String(counters[file.folder] ?? 0)
            var path = "requests/\(file.folder)/\(number)-\(file.name).yaml"
            if !used.insert(path).inserted { path = "requests/\(file.folder)/\(number)-\(file.name)-\(counters[file.folder] ?? 0).yaml" }
            result.requests.append((path, file.text))
        }
        result.environment = ("environments/\(environmentName).yaml", translation.environment())
        result.notes = translation.notes
        result.placeholders = translation.placeholders
        return result
    }
}

/// The state of one translation: the environment's variables and secrets as they are found, and the notes.
private struct Translation {
    let document: OpenAPIDocument
    var raw: JSONValue { document.raw }
    var variables: [(name: String, value: JSONValue)] = []
    var secrets: [(name: String, env: String)] = []
    var notes: [OpenAPIProblem] = []
    var placeholders: [String] = []
    /// The parameter each variable written stands for, by its place and name (`path id`, `query id`): one variable never
    /// stands for two parameters across operations.
    private var owners: [String: String] = [:]

    init(document: OpenAPIDocument) {
        self.document = document
    }

    /// A note at `tokens` in the document.
    mutating func note(_ message: String, at tokens: [String]) {
        let pointer = OpenAPIPointer.pointer(tokens)
        notes.append(OpenAPIProblem(message, pointer: pointer, mark: document.mark(of: pointer)))
    }

    /// The request file of one operation: its folder, its name (without number) and its text.
    mutating func request(_ entry: OpenAPIOperations.Entry, openapiPath: String) -> (folder: String, name: String, text: String) {
        let operation = entry.operation
        let label = "\(entry.method.uppercased()) \(entry.path)"
        let summary: String? = if case .string(let text)? = operation["summary"], !text.isEmpty { text } else { nil }
        let pathOrder = registerPathVariables(of: entry.path)
        let pathVariables = Dictionary(uniqueKeysWithValues: pathOrder.map { ($0.name, $0.variable) })
        var url = ""
        for segment in entry.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            url += "/" + Self.templated(String(segment), variables: pathVariables)
        }
        var document = RequestDocument(name: summary ?? entry.operationID ?? label, method: entry.method.uppercased(),
                                       url: url.isEmpty ? "/" : url)
        let parameters = parameters(of: entry)
        // A name that two sent parameters share (`x` in the path, the query and a header) is one variable per place: the
        // path's keeps the name, a query's or header's gets `_query` or `_header`.
        let sentNames = parameters.compactMap { _, parameter -> String? in
            guard case .string(let location)? = parameter["in"],
                  location == "path" || ((location == "query" || location == "header") && parameter["required"] == .bool(true)) else { return nil }
            return parameter["name"]?.stringValue.map { location == "path" ? pathVariables[$0] ?? Self.variableName($0) : Self.variableName($0) }
        }
        var taken = Set(sentNames)
        for (tokens, parameter) in parameters {
            guard case .string(let name)? = parameter["name"], case .string(let location)? = parameter["in"] else { continue }
            // The OpenAPI rules say to ignore these: the security scheme, the body and the response types give them.
            if location == "header", Self.ignoredHeaders.contains(name.lowercased()) {
                note("\(label): the header parameter '\(name)' is left out: OpenAPI ignores a header parameter named Accept, "
                     + "Content-Type or Authorization (the security scheme and the body give them)", at: tokens)
                continue
            }
            let required = parameter["required"] == .bool(true)
            var variable = Self.variableName(name)
            let owner = "\(location) \(name)"
            if location == "path" {
                variable = pathVariables[name] ?? self.variable(variable, standingFor: owner)
            } else if sentNames.count(where: { $0 == variable }) > 1 || owners[variable].map({ $0 != owner }) == true {
                // Named like another parameter of the operation, or like a path parameter of any: `NAME_query`, `_2`, `_3`…
                // when a parameter of the operation is named so already (`id_query` beside `id`).
                variable = RequestDocument.unusedName(Self.variableName("\(name)_\(location)"), separator: "_", isTaken: taken.contains)
                taken.insert(variable)
                variable = self.variable(variable, standingFor: owner)
            } else {
                variable = self.variable(variable, standingFor: owner)
            }
            let defined = (name: name, label: label, tokens: tokens)
            switch location {
            case "path":
                define(variable, example: example(ofParameter: parameter), for: defined)
            case "query" where required:
                let example = example(ofParameter: parameter)
                define(variable, example: example, for: defined)
                document.query += Self.styledQuery(name, variable: variable, example: example, of: parameter)
            case "header" where required:
                let example = example(ofParameter: parameter)
                define(variable, example: example, for: defined)
                document.headers.append((name, Self.styledHeader(variable, example: example, of: parameter)))
            case "query", "header":
                continue
            default:
                note("\(label): the \(location) parameter '\(name)' is not translated", at: tokens)
            }
        }
        // A `{name}` of the path no parameter declares still needs a value.
        let declared = Set(parameters.compactMap { $0.parameter["in"]?.stringValue == "path" ? $0.parameter["name"]?.stringValue : nil })
        for (name, variable) in pathOrder where !declared.contains(name) {
            note("\(label): the path's '{\(name)}' is declared by no parameter (the OpenAPI rules ask for one): its variable is '\(variable)'",
                 at: ["paths", entry.path])
            define(variable, example: nil, for: (name, label, ["paths", entry.path]))
        }
        body(of: entry, label: label, into: &document)
        auth(of: entry, label: label, into: &document)
        var expect: [(key: String, value: YAMLNode)] = []
        if let status = Self.successStatus(of: operation) { expect.append(("status", status)) }
        expect.append(("openapi", .string(openapiPath)))
        let text = document.yaml + YAMLNode.mapping([("expect", .mapping(expect))]).document
        let folder = Self.slug(Self.firstTag(of: operation) ?? Self.firstSegment(of: entry.path) ?? "default")
        let name = Self.slug(entry.operationID.map(Self.words) ?? "\(entry.method) \(entry.path)")
        return (folder, name, text)
    }

    /// The header parameters the OpenAPI rules say to ignore, lowercased.
    private static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// The operation's parameters with the path item's that it does not override, each resolved, with its place.
    private func parameters(of entry: OpenAPIOperations.Entry) -> [(tokens: [String], parameter: JSONObject)] {
        var found: [(tokens: [String], parameter: JSONObject)] = []
        var seen: Set<String> = []
        let lists: [([String], JSONValue?)] = [(entry.tokens + ["parameters"], entry.operation["parameters"]),
                                               (entry.tokens.dropLast() + ["parameters"], entry.pathItem["parameters"])]
        for (tokens, value) in lists {
            guard case .array(let items)? = value else { continue }
            for (index, item) in items.enumerated() {
                guard let parameter = OpenAPIPointer.resolved(item, in: raw),
                      case .string(let name)? = parameter["name"], case .string(let location)? = parameter["in"],
                      seen.insert("\(location) \(name)").inserted else { continue }
                found.append((tokens + [String(index)], parameter))
            }
        }
        return found
    }

    /// The variable of each `{name}` of `path`, in its order (path parameters, registered for the whole document first,
    /// keep their names in every operation).
    @discardableResult
    mutating func registerPathVariables(of path: String) -> [(name: String, variable: String)] {
        Self.parameterNames(inPath: path).map { name in (name, variable(Self.variableName(name), standingFor: "path \(name)")) }
    }

    /// The variable for the parameter `owner` (`path name`, `query name`…) whose name in one operation is `local`:
    /// `local` itself unless it stands for another parameter, else the first of `local_2`, `local_3`… that stands for
    /// none or for this one (so the same one each time).
    private mutating func variable(_ local: String, standingFor owner: String) -> String {
        let variable = RequestDocument.unusedName(local, separator: "_") { owners[$0].map { $0 != owner } ?? false }
        owners[variable] = owner
        return variable
    }

    /// Defines the variable `name` of a parameter with its example (`FILL-ME` without one), once: a later operation whose
    /// parameter has another example for it is noted, as its request sends the first one.
    private mutating func define(_ name: String, example: JSONValue?,
                                 for parameter: (name: String, label: String, tokens: [String])) {
        if let example, let changed = Self.changedInteger(in: example) {
            note("\(parameter.label): the parameter '\(parameter.name)' has an integer example past 64 bits, which runner's numbers "
                 + "do not keep: it is written as \(changed.serialized()); quote it in the document to send it as written",
                 at: parameter.tokens)
        }
        if let index = variables.firstIndex(where: { $0.name == name }) {
            let defined = variables[index]
            if let example, placeholders.contains(name) {
                // A `{name}` no parameter declared, declared with an example in a later operation.
                variables[index].value = example
                placeholders.removeAll { $0 == name }
            } else if let example, example != defined.value {
                note("\(parameter.label): the parameter '\(parameter.name)' has the example \(example.serialized()), but the variable "
                     + "'\(name)' holds \(defined.value.serialized()), an earlier operation's: set it in this request, or with --var",
                     at: parameter.tokens)
            }
            return
        }
        if let example {
            variables.append((name, example))
        } else {
            variables.append((name, .string(OpenAPIImport.placeholder)))
            placeholders.append(name)
        }
    }

    /// The first integer of `value` past 64 bits, which reading the document made the nearest double (12345678901234567890
    /// as 1.2345678901234567e+19); nil when there is none.
    static func changedInteger(in value: JSONValue) -> JSONValue? {
        switch value {
        case .double(let number) where number == number.rounded() && abs(number) >= 0x1p63: value
        case .array(let items): items.lazy.compactMap(changedInteger).first
        case .object(let object): object.members.lazy.compactMap { changedInteger(in: $0.value) }.first
        default: nil
        }
    }

    /// A parameter's example: `example`, the first of `examples`, else its schema's; none when it is null, which a path,
    /// query or header value cannot be (its variable then waits for a value, as one without an example does).
    private func example(ofParameter parameter: JSONObject) -> JSONValue? {
        var example = parameter["example"]
        if example == nil, case .object(let examples)? = parameter["examples"], let first = examples.members.first {
            example = OpenAPIPointer.resolved(first.value, in: raw)?["value"]
        }
        if example == nil { example = OpenAPIPointer.resolved(parameter["schema"], in: raw).flatMap { Self.declaredExample(of: $0) } }
        return example == .null ? nil : example
    }

    /// The request body: `json:` or `form:` from the media type's example or its schema; anything else is noted.
    private mutating func body(of entry: OpenAPIOperations.Entry, label: String, into document: inout RequestDocument) {
        guard let requestBody = OpenAPIPointer.resolved(entry.operation["requestBody"], in: raw),
              case .object(let content)? = requestBody["content"], !content.isEmpty else { return }
        let tokens = entry.tokens + ["requestBody", "content"]
        let chosen = content.members.first { OpenAPIContractMedia.isJSON(OpenAPIContractMedia.essence($0.key)) }
            ?? content.members.first { OpenAPIContractMedia.essence($0.key) == "application/x-www-form-urlencoded" }
        guard let (mediaType, value) = chosen, case .object(let media) = value else {
            note("\(label): a body of \(content.keys.joined(separator: " or ")) is not translated: write it in the request file",
                 at: tokens)
            return
        }
        var example: JSONValue? = media["example"]
        if example == nil, case .object(let examples)? = media["examples"], let first = examples.members.first {
            example = OpenAPIPointer.resolved(first.value, in: raw)?["value"]
        }
        if example == nil, let schema = OpenAPIPointer.resolved(media["schema"], in: raw) {
            example = built(from: schema, depth: 0, within: Self.reference(media["schema"]).map { [$0] } ?? [])
        }
        guard var example else {
            note("\(label): the \(mediaType) body has no example: write one in the request file", at: tokens + [mediaType])
            return
        }
        let essence = OpenAPIContractMedia.essence(mediaType)
        if let changed = Self.changedInteger(in: example) {
            // A form field is written as text, a JSON member as the number.
            let (written, remedy) = OpenAPIContractMedia.isJSON(essence)
                ? (changed.serialized(), "write the body in the request file as text: to send it as written")
                : ("\"\(changed.interpolatedText)\"", "write the field in the request file as it should be sent")
            note("\(label): the \(mediaType) body's example has an integer past 64 bits, which runner's numbers do not keep: it is "
                 + "written as \(written); \(remedy)", at: tokens + [mediaType])
        }
        // A body of another JSON type than application/json (`application/vnd.api+json`) says so: a server may refuse
        // the one a json: body is sent with.
        if essence != "application/json", essence != "application/x-www-form-urlencoded" {
            document.headers.append(("Content-Type", mediaType))
        }
        if OpenAPIContractMedia.isJSON(essence) {
            document.body = .json(example)
        } else if case .object(let fields) = example {
            // A null field is none (a form cannot send it: it would go as the word null).
            let null = fields.members.filter { $0.value == .null }.map(\.key)
            if !null.isEmpty {
                note("\(label): the form field\(null.count == 1 ? "" : "s") \(null.map { "'\($0)'" }.joined(separator: ", ")) of the example "
                     + "\(null.count == 1 ? "is" : "are") null, which a form cannot send: left out", at: tokens + [mediaType])
                example = .object(JSONObject(fields.members.filter { $0.value != .null }))
            }
            guard case .object(let fields) = example else { return }
            // A list is a field per element, as the form style sends it (`tag=a&tag=b`).
            document.body = .form(fields.members.map { name, value in
                if case .array(let items) = value { (name, items.map(\.interpolatedText)) } else { (name, [value.interpolatedText]) }
            })
        } else {
            note("\(label): the form body's example is not an object: write the fields in the request file", at: tokens + [mediaType])
        }
    }

    /// An example value built from a schema: its declared example or default, else an object of its required and
    /// exemplified properties, a list of one example item, or the first enum value; nil when nothing says what to send.
    /// A property referring to a schema it is inside of (`within`, the `$ref`s on the way: a tree's `child`) is none.
    private func built(from schema: JSONObject, depth: Int, within: Set<String>) -> JSONValue? {
        if let declared = Self.declaredExample(of: schema) { return declared }
        guard depth < 8 else { return nil }
        /// The example of a part of `schema` written at `value`, or nil when it refers to a schema it is inside of.
        func part(_ value: JSONValue) -> JSONValue? {
            let reference = Self.reference(value)
            guard reference.map({ !within.contains($0) }) ?? true, let resolved = OpenAPIPointer.resolved(value, in: raw) else { return nil }
            return built(from: resolved, depth: depth + 1, within: within.union(reference.map { [$0] } ?? []))
        }
        if case .array(let parts)? = schema["allOf"] {
            var merged = JSONObject()
            for value in parts {
                guard case .object(let object)? = part(value) else { continue }
                for (key, value) in object.members { merged[key] = value }
            }
            return merged.isEmpty ? nil : .object(merged)
        }
        if case .object(let properties)? = schema["properties"] {
            let required: [String] = if case .array(let names)? = schema["required"] {
                names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            } else { [] }
            var object = JSONObject()
            for (name, value) in properties.members {
                guard let property = OpenAPIPointer.resolved(value, in: raw) else { continue }
                if let example = part(value) {
                    object[name] = example
                } else if required.contains(name) {
                    object[name] = Self.emptyValue(of: property)
                }
            }
            return object.isEmpty ? nil : .object(object)
        }
        if let items = schema["items"], let item = part(items) {
            return .array([item])
        }
        return nil
    }

    /// The `$ref` a schema written as `value` refers to, if it is one.
    private static func reference(_ value: JSONValue?) -> String? {
        if case .object(let object)? = value, case .string(let reference)? = object["$ref"] { reference } else { nil }
    }

    /// `example`, the first of `examples` (3.1), `default`, or the first `enum` value of a schema.
    private static func declaredExample(of schema: JSONObject) -> JSONValue? {
        if let example = schema["example"] { return example }
        if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
        if let value = schema["default"] { return value }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        return nil
    }

    /// A value of a schema type that says nothing: `""`, `0`, `false`, `[]`, `{}`.
    private static func emptyValue(of schema: JSONObject) -> JSONValue {
        switch schema["type"] {
        case .string("integer")?, .string("number")?: .int(0)
        case .string("boolean")?: .bool(false)
        case .string("array")?: .array([])
        case .string("object")?: .object(JSONObject())
        // Without a type, what it holds says which (OpenAPI 3.1 schemas often leave `type: object` out).
        case nil where schema["properties"] != nil || schema["allOf"] != nil || schema["additionalProperties"] != nil: .object(JSONObject())
        case nil where schema["items"] != nil: .array([])
        default: .string("")
        }
    }

    /// `auth:`, headers or query from the first security requirement of the operation (or of the document).
    private mutating func auth(of entry: OpenAPIOperations.Entry, label: String, into document: inout RequestDocument) {
        let ownTokens = entry.tokens + ["security"]
        let (tokens, security): ([String], JSONValue?) = entry.operation["security"] != nil
            ? (ownTokens, entry.operation["security"]) : (["security"], raw.objectMember("security"))
        guard case .array(let requirements)? = security, case .object(let requirement)? = requirements.first else { return }
        let schemes = raw.objectMember("components")?.objectMember("securitySchemes")
        // The scheme that gave the request's auth: a request sends one Authorization header.
        var authBy: String?
        for (name, _) in requirement.members {
            guard let scheme = OpenAPIPointer.resolved(schemes?.objectMember(name), in: raw) else { continue }
            let type = scheme["type"]?.stringValue ?? ""
            let httpScheme = scheme["scheme"]?.stringValue?.lowercased()
            if type == "http", ["bearer", "basic"].contains(httpScheme), let first = authBy {
                note("\(label): the security scheme '\(name)' (http \(httpScheme ?? "")) is not translated: the request sends one "
                     + "Authorization header, which '\(first)' gives", at: tokens)
                continue
            }
            if type == "http", ["bearer", "basic"].contains(httpScheme) { authBy = name }
            switch (type, httpScheme) {
            case ("http", "bearer"?):
                secret("token", env: "API_TOKEN")
                document.auth = .bearer("{{ token }}")
            case ("http", "basic"?):
                secret("username", env: "API_USERNAME")
                secret("password", env: "API_PASSWORD")
                document.auth = .basic(username: "{{ username }}", password: "{{ password }}")
            case ("apiKey", _) where scheme["in"]?.stringValue == "header" || scheme["in"]?.stringValue == "query":
                let variable = Self.variableName(name)
                secret(variable, env: Self.environmentVariable(name))
                guard let keyName = scheme["name"]?.stringValue else { continue }
                if scheme["in"]?.stringValue == "header" {
                    document.headers.append((keyName, "{{ \(variable) }}"))
                } else {
                    document.query.append((keyName, ["{{ \(variable) }}"]))
                }
            default:
                let kind = type == "http" ? "http \(httpScheme ?? "")" : type
                note("\(label): the security scheme '\(name)' (\(kind)) is not translated: add its auth to the request",
                     at: tokens)
            }
        }
    }

    /// Adds a secret (once).
    private mutating func secret(_ name: String, env: String) {
        if !secrets.contains(where: { $0.name == name }) { secrets.append((name, env)) }
    }

    /// The environment file: the first server's URL, the variables and the secrets.
    mutating func environment() -> String {
        var root: [(key: String, value: YAMLNode)] = []
        var baseURL = "http://localhost"
        if case .array(let servers)? = raw.objectMember("servers"), case .object(let server)? = servers.first,
           case .string(let url)? = server["url"] {
            let substituted = OpenAPIServer.substituted(url, variables: server["variables"])
            if substituted.hasPrefix("http://") || substituted.hasPrefix("https://") {
                baseURL = substituted
            } else {
                baseURL = "http://localhost" + (substituted.hasPrefix("/") ? substituted : "/" + substituted)
                note("the server URL '\(url)' is relative: baseURL is \(baseURL); change it to the API's address", at: ["servers", "0", "url"])
            }
        } else {
            note("the document names no server: baseURL is \(baseURL); change it to the API's address", at: [])
        }
        while baseURL.hasSuffix("/") { baseURL.removeLast() }
        root.append(("baseURL", .string(baseURL)))
        if !variables.isEmpty { root.append(("variables", .mapping(variables.map { ($0.name, YAMLNode.json($0.value)) }))) }
        if !secrets.isEmpty {
            root.append(("secrets", .mapping(secrets.map { ($0.name, .mapping([("env", .string($0.env))])) })))
        }
        return YAMLNode.mapping(root).document
    }

    /// `expect.status`: the lowest documented 2xx code, else `2xx` for a `2XX` range; nil with only `default` or errors.
    private static func successStatus(of operation: JSONObject) -> YAMLNode? {
        guard case .object(let responses)? = operation["responses"] else { return nil }
        let codes = responses.keys.compactMap(Int.init).filter { (200...299).contains($0) }.sorted()
        if let lowest = codes.first { return .scalar(String(lowest)) }
        if responses.keys.contains(where: { $0.uppercased() == "2XX" }) { return .string("2xx") }
        return nil
    }

    /// A path segment with each `{name}` as a template of its variable, `{{ name }}`.
    private static func templated(_ segment: String, variables: [String: String]) -> String {
        var result = ""
        var rest = Substring(segment)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            result += rest[..<open] + "{{ \(variables[name] ?? variableName(name)) }}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The name of each `{name}` of a path, once, in its order.
    private static func parameterNames(inPath path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// A valid variable name for a parameter or scheme name: letters, digits, `_` and `-`, not starting with a digit.
    /// The query items of a query parameter `name` whose value is the variable `variable`, as its `style` and `explode`
    /// send a list or an object (known by its `example`): `form` (the default) exploded as an item per element (`ids=1&ids=2`)
    /// or per member (`color=red`), else joined with `,` (`ids=1,2`, `filter=color,red`); `spaceDelimited` and
    /// `pipeDelimited` joined with a space or `|`; `deepObject` as `filter[color]=red`. Each element or member is a
    /// template of the variable (`{{ ids[0] }}`, `{{ filter.color }}`): the environment holds the example. A scalar, and a
    /// list or object without an example, is the variable itself.
    static func styledQuery(_ name: String, variable: String, example: JSONValue?, of parameter: JSONObject) -> [(name: String, values: [String])] {
        let style = parameter["style"]?.stringValue ?? "form"
        let explode = parameter["explode"].map { $0 == .bool(true) } ?? (style == "form")
        switch example {
        case .array(let elements)? where !elements.isEmpty:
            let templates = elements.indices.map { "{{ \(variable)[\($0)] }}" }
            switch style {
            case "form" where explode: return [(name, templates)]
            case "spaceDelimited": return [(name, [templates.joined(separator: " ")])]
            case "pipeDelimited": return [(name, [templates.joined(separator: "|")])]
            default: return [(name, [templates.joined(separator: ",")])]
            }
        case .object(let object)? where !object.members.isEmpty && object.members.allSatisfy({ Self.isPathName($0.key) }):
            let members = object.members.map { (key: $0.key, template: "{{ \(variable).\($0.key) }}") }
            switch style {
            case "deepObject": return members.map { ("\(name)[\($0.key)]", [$0.template]) }
            case "form" where explode: return members.map { ($0.key, [$0.template]) }
            default: return [(name, [members.map { "\($0.key),\($0.template)" }.joined(separator: ",")])]
            }
        default:
            return [(name, ["{{ \(variable) }}"])]
        }
    }

    /// The value of a header parameter whose value is the variable `variable`, as the `simple` style sends a list
    /// (`1,2`) or an object (`color,red`, exploded `color=red`) known by its `example`; else the variable itself.
    static func styledHeader(_ variable: String, example: JSONValue?, of parameter: JSONObject) -> String {
        let explode = parameter["explode"] == .bool(true)
        switch example {
        case .array(let elements)? where !elements.isEmpty:
            return elements.indices.map { "{{ \(variable)[\($0)] }}" }.joined(separator: ",")
        case .object(let object)? where !object.members.isEmpty && object.members.allSatisfy({ Self.isPathName($0.key) }):
            return object.members.map { "\($0.key)\(explode ? "=" : ",")" + "{{ \(variable).\($0.key) }}" }.joined(separator: ",")
        default:
            return "{{ \(variable) }}"
        }
    }

    /// Whether `key` can follow a `.` in a template's path (`{{ filter.color }}`).
    private static func isPathName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    static func variableName(_ name: String) -> String {
        var result = String(name.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" ? Character(scalar) : "_"
        })
        if result.isEmpty || result.first?.isNumber == true { result = "_" + result }
        return result
    }

    /// A process environment variable name: `api_key` gives `API_KEY`.
    private static func environmentVariable(_ name: String) -> String {
        let words = Self.words(name).uppercased()
        return String(words.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// `getUserById` as `get User By Id`.
    private static func words(_ identifier: String) -> String {
        var result = ""
        var previous: Character?
        for character in identifier {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result += " " }
            result.append(character)
            previous = character
        }
        return result
    }

    /// A file or folder name: lowercase letters and digits joined by `-`, at most 60 characters.
    static func slug(_ text: String) -> String {
        RequestDocument.slug(text, or: "operation", limit: 60)
    }

    private static func firstTag(of operation: JSONObject) -> String? {
        guard case .array(let tags)? = operation["tags"], case .string(let tag)? = tags.first else { return nil }
        return tag
    }

    private static func firstSegment(of path: String) -> String? {
        path.split(separator: "/").first.flatMap { $0.hasPrefix("{") ? nil : String($0) }
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for anything else.
    fileprivate func objectMember(_ key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    /// The string, when this is one.
    fileprivate var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
