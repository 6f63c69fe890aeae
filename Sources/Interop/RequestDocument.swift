import CollectionFormat
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
        /// A GraphQL document and its variables.
        case graphql(query: String, variables: JSONValue?)
    }

    /// One part of a `multipart:` body: a value or a file.
    public struct MultipartPart: Sendable {
        public var name: String
        public var value: String?
        /// A path relative to the request file.
        public var file: String?
        public var contentType: String?

        /// The Content-Type curl gives a file part without `;type=`, by the file's extension (curl's own short list);
        /// nil for the others, which curl and runner both send as `application/octet-stream`.
        static func curlContentType(ofFile path: String) -> String? {
            fileExtension(path).flatMap { curlTypes[$0] }
        }

        /// The Content-Type Postman gives a file part without one, by the file's extension (the common types of the
        /// media type database it looks up); nil for the others.
        static func postmanContentType(ofFile path: String) -> String? {
            fileExtension(path).flatMap { curlTypes[$0] ?? otherTypes[$0] }
        }

        private static let curlTypes = [
            "gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "svg": "image/svg+xml",
            "txt": "text/plain", "htm": "text/html", "html": "text/html", "pdf": "application/pdf", "xml": "application/xml",
        ]
        private static let otherTypes = [
            "json": "application/json", "csv": "text/csv", "css": "text/css", "zip": "application/zip", "gz": "application/gzip",
            "webp": "image/webp", "mp3": "audio/mpeg", "mp4": "video/mp4",
        ]

        /// The lowercased extension of the file `path` names, if it has one.
        private static func fileExtension(_ path: String) -> String? {
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            return path[path.index(after: dot)...].lowercased()
        }
    }

    /// `auth:`.
    public enum Auth: Sendable {
        /// `auth: none`: no authentication, even when the environment has some.
        case none
        case basic(username: String, password: String)
        case bearer(String)
        /// Client credentials; `scope` is optional.
        case oauth2(tokenURL: String, clientID: String, clientSecret: String, scope: String?)
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
    /// `expect:` keys in the order written.
    public var expect: [(key: String, value: YAMLNode)] = []
    /// `capture:` entries: a variable name and its source.
    public var capture: [(name: String, source: YAMLNode)] = []

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
        // A blank name (a Postman item named "") is left out: the request is then named after its file.
        var root: [(key: String, value: YAMLNode)] = name.allSatisfy(\.isWhitespace) ? [] : [("name", .string(name))]
        root.append(("request", .mapping(request)))
        if let auth { root.append(("auth", Self.authNode(auth))) }
        if !options.isEmpty { root.append(("options", .mapping(options))) }
        if !expect.isEmpty { root.append(("expect", .mapping(expect))) }
        if !capture.isEmpty { root.append(("capture", .mapping(capture.map { ($0.name, $0.source) }))) }
        return YAMLNode.mapping(root).document
    }

    /// The value of `auth:`.
    private static func authNode(_ auth: Auth) -> YAMLNode {
        switch auth {
        case .none:
            return .scalar("none")
        case let .basic(username, password):
            return .mapping([("basic", .mapping([("username", .string(username)), ("password", .string(password))]))])
        case .bearer(let token):
            return .mapping([("bearer", .string(token))])
        case let .oauth2(tokenURL, clientID, clientSecret, scope):
            var fields: [(key: String, value: YAMLNode)] = [("tokenURL", .string(tokenURL)), ("clientID", .string(clientID)),
                                                             ("clientSecret", .string(clientSecret))]
            if let scope { fields.append(("scope", .string(scope))) }
            return .mapping([("oauth2", .mapping(fields))])
        }
    }

    /// `base`, or `base` with `separator` and 2, 3, … after it: the first name `isTaken` does not refuse (two
    /// environments, variables or secrets never get one name).
    static func unusedName(_ base: String, separator: String, isTaken: (String) -> Bool) -> String {
        var (name, number) = (base, 1)
        while isTaken(name) {
            number += 1
            name = base + separator + String(number)
        }
        return name
    }

    /// How to keep a credential out of the file: a hint for a value written as it was, read from `env` (by default
    /// `API_` and the name in capitals).
    public static func secretSuggestion(_ name: String, env: String? = nil) -> String {
        let secret = secretName(name, env: env)
        return "keep it out of the file: add `\(secret.name): { env: \(secret.variable) }` to the environment's secrets and write \"{{ \(secret.name) }}\" here"
    }

    /// The secret hint for the value of a header, query item or field named `written`: `X-Api-Key` gives `xApiKey` read
    /// from `X_API_KEY`.
    static func secretSuggestion(named written: String) -> String {
        let secret = secretName(named: written)
        return secretSuggestion(secret.name, env: secret.variable)
    }

    /// The secret for a credential called `name` and the environment variable it is read from (by default `API_` and
    /// the name in capitals: `apiKey_2` gives `API_KEY_2`, `password` `API_PASSWORD`); a name no variable can have
    /// (`user[password]`) is written by its words (`userPassword`).
    static func secretName(_ name: String, env: String? = nil) -> (name: String, variable: String) {
        guard VariablePath.isValidName(name) else { return secretName(named: name) }
        let snake = PostmanEnvironmentDocument.environmentVariableName(name)
        return (name, env ?? (snake.hasPrefix("API_") ? snake : "API_" + snake))
    }

    /// The secret for the value of a header, query item or field named `written`, by its words as an environment
    /// variable's name splits them: `X-Api-Key` gives `xApiKey` read from `X_API_KEY`.
    static func secretName(named written: String) -> (name: String, variable: String) {
        let environment = PostmanEnvironmentDocument.environmentVariableName(written)
        let words = environment.split(separator: "_").map { $0.lowercased() }
        let name = (words.first ?? "value") + words.dropFirst().map(\.capitalized).joined()
        // A variable's name starts with no digit (`2fa-token` gives `_2faToken`).
        return (name.first?.isNumber == true ? "_" + name : name, environment.isEmpty ? "API_VALUE" : environment)
    }

    /// The body's key and value.
    private func bodyEntry(_ body: Body) -> (key: String, value: YAMLNode) {
        switch body {
        case .json(let value): ("json", .json(value))
        case .form(let fields): ("form", Self.parameters(fields))
        case .text(let text): ("text", .string(text))
        case .file(let path): ("file", .string(path))
        case let .graphql(query, variables):
            ("graphql", .mapping([("query", .string(query))] + (variables.map { [("variables", .json($0))] } ?? [])))
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

    /// A file name from the method and the URL's path (not its query): `post-api-users.yaml` (`get-example-com.yaml`
    /// for `/`).
    public var suggestedFileName: String {
        let afterScheme = (url.components(separatedBy: "://").last ?? url).prefix { $0 != "?" && $0 != "#" }
        let host = afterScheme.prefix { $0 != "/" }
        let path = afterScheme.dropFirst(host.count)
        let words = method + " " + (path.isEmpty || path == "/" ? String(host) : String(path))
        return Self.slug(words, or: "request", limit: 80) + ".yaml"
    }

    /// `words` as a file name: lower-case letters (without their accents: `Données` gives `donnees`; those of other
    /// scripts as they are: `日本語`) and digits, other runs of characters as one `-`, at most `limit` characters;
    /// `fallback` when nothing is left.
    public static func slug(_ words: String, or fallback: String, limit: Int) -> String {
        var slug = ""
        for scalar in words.folding(options: .diacriticInsensitive, locale: nil).lowercased().unicodeScalars {
            let keeps = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                || !scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal)
            if keeps { slug.unicodeScalars.append(scalar) } else if !slug.isEmpty, slug.last != "-" { slug += "-" }
        }
        slug = String(slug.prefix(limit))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? fallback : slug
    }
}
