public import HTTPCore

/// A request file as `import` writes it: the keys of docs/format.md that a translated command uses.
public struct RequestDocument: Sendable {
    /// The body key and its value.
    public enum Body: Sendable {
        case json(JSONValue)
        case form([(name: String, values: [String])])
        case multipart([MultipartPart])
        case text(String)
        /// A path, relative to the request file.
        case file(String)
    }

    /// One part of a `multipart:` body: a value or a file.
    public struct MultipartPart: Sendable {
        public var name: String
        public var value: String?
        /// A path relative to the request file.
        public var file: String?
        public var contentType: String?
    }

    /// `auth:`.
    public enum Auth: Sendable {
        case basic(username: String, password: String)
        case bearer(String)
    }

    public var name: String
    public var method: String
    /// The URL without its query.
    public var url: String
    public var query: [(name: String, values: [String])] = []
    public var headers: [(name: String, value: String)] = []
    public var body: Body?
    public var auth: Auth?
    /// `options:` keys in the order written.
    public var options: [(key: String, value: YAMLNode)] = []

    public init(name: String, method: String, url: String) {
        self.name = name
        self.method = method
        self.url = url
    }

    /// The file's YAML text.
    public var yaml: String {
        var request: [(key: String, value: YAMLNode)] = [("method", .string(method)), ("url", .string(url))]
        if !query.isEmpty { request.append(("query", Self.parameters(query))) }
        if !headers.isEmpty { request.append(("headers", .mapping(headers.map { ($0.name, .string($0.value)) }))) }
        if let body { request.append(bodyEntry(body)) }
        var root: [(key: String, value: YAMLNode)] = [("name", .string(name)), ("request", .mapping(request))]
        switch auth {
        case let .basic(username, password)?:
            root.append(("auth", .mapping([("basic", .mapping([("username", .string(username)), ("password", .string(password))]))])))
        case .bearer(let token)?:
            root.append(("auth", .mapping([("bearer", .string(token))])))
        case nil:
            break
        }
        if !options.isEmpty { root.append(("options", .mapping(options))) }
        return YAMLNode.mapping(root).document
    }

    /// The body's key and value.
    private func bodyEntry(_ body: Body) -> (key: String, value: YAMLNode) {
        switch body {
        case .json(let value): ("json", .json(value))
        case .form(let fields): ("form", Self.parameters(fields))
        case .text(let text): ("text", .string(text))
        case .file(let path): ("file", .string(path))
        case .multipart(let parts):
            ("multipart", .sequence(parts.map { part in
                var members: [(key: String, value: YAMLNode)] = [("name", .string(part.name))]
                if let value = part.value { members.append(("value", .string(value))) }
                if let file = part.file { members.append(("file", .string(file))) }
                if let contentType = part.contentType { members.append(("contentType", .string(contentType))) }
                return .mapping(members)
            }))
        }
    }

    /// A `query:` or `form:` mapping: one value as a scalar, several as a list.
    private static func parameters(_ parameters: [(name: String, values: [String])]) -> YAMLNode {
        .mapping(parameters.map { parameter in
            (parameter.name, parameter.values.count == 1 ? .string(parameter.values[0]) : .sequence(parameter.values.map(YAMLNode.string)))
        })
    }

    /// A file name from the method and the URL's path: `post-api-users.yaml` (`get-example-com.yaml` for `/`).
    public var suggestedFileName: String {
        let afterScheme = url.components(separatedBy: "://").last ?? url
        let host = afterScheme.prefix { $0 != "/" }
        let path = afterScheme.dropFirst(host.count)
        let words = method + " " + (path.isEmpty || path == "/" ? String(host) : String(path))
        var slug = ""
        for scalar in words.lowercased().unicodeScalars {
            let keeps = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if keeps { slug.unicodeScalars.append(scalar) } else if !slug.isEmpty, slug.last != "-" { slug += "-" }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return (slug.isEmpty ? "request" : String(slug.prefix(80))) + ".yaml"
    }
}
