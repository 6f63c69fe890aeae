public import HTTPCore
public import YAML

/// One environment file as written, before `extends` is applied.
public struct EnvironmentDefinition: Sendable {
    /// The name used with `--env` (the file name without extension).
    public var name: String
    /// The file as displayed.
    public var path: String
    public var extends: Located<String>?
    public var baseURL: Template?
    public var headers: [HeaderField]
    public var query: [Parameter]
    public var variables: [VariableDefinition]
    public var secrets: [SecretDefinition]
    public var auth: Located<AuthDefinition>?
    public var options: OptionsDefinition
    /// `expect.openapi`: the OpenAPI document every response of the run must match.
    public var openapi: FileReference?

    public init(name: String, path: String, extends: Located<String>? = nil, baseURL: Template? = nil,
                headers: [HeaderField] = [], query: [Parameter] = [], variables: [VariableDefinition] = [],
                secrets: [SecretDefinition] = [], auth: Located<AuthDefinition>? = nil,
                options: OptionsDefinition = OptionsDefinition()) {
        self.name = name
        self.path = path
        self.extends = extends
        self.baseURL = baseURL
        self.headers = headers
        self.query = query
        self.variables = variables
        self.secrets = secrets
        self.auth = auth
        self.options = options
    }
}

/// `variables.<name>`: any YAML value; strings may use templates.
public struct VariableDefinition: Sendable, Hashable {
    /// The value `runner import` gives a variable the document gives no example for, for the user to replace: a variable
    /// still holding it is warned of.
    public static let importPlaceholder = "FILL-ME"

    public var name: String
    public var nameMark: Mark
    public var value: TemplateValue

    public init(name: String, nameMark: Mark, value: TemplateValue) {
        self.name = name
        self.nameMark = nameMark
        self.value = value
    }
}

/// `secrets.<name>: { env: NAME, default: ... }`.
public struct SecretDefinition: Sendable, Hashable {
    public var name: String
    public var nameMark: Mark
    /// The process environment variable to read.
    public var env: Located<String>
    /// Used when the process environment lacks `env`.
    public var defaultValue: Located<String>?

    public init(name: String, nameMark: Mark, env: Located<String>, defaultValue: Located<String>?) {
        self.name = name
        self.nameMark = nameMark
        self.env = env
        self.defaultValue = defaultValue
    }
}

/// A value with the file it was declared in (environments merge several files).
public struct Sourced<Value: Sendable>: Sendable {
    public var value: Value
    /// The displayed path of the declaring file.
    public var path: String

    public init(_ value: Value, path: String) {
        self.value = value
        self.path = path
    }
}

/// A secret with its value, for the variable scope and redaction.
public struct ResolvedSecret: Sendable, Hashable {
    /// Secrets shorter than this are hidden only where they are a whole value: inside other text they would hide
    /// every occurrence of a common letter or word.
    public static let shortestHiddenInText = 4

    /// Whether `value` is a short number (under six characters), a boolean, null or an HTTP method: what statuses, counts
    /// and methods show, which a credential found in what a request sends or a file writes (`password: 200`) must not hide.
    public static func isCommonWord(_ value: String) -> Bool {
        value.count < 6 && value.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
            || ["true", "false", "null", "get", "put", "post", "head", "patch", "delete", "options"].contains(value.lowercased())
    }

    /// How output hides a secret's value.
    public enum Hiding: Sendable {
        /// Not at all: white space alone would mask every indentation.
        case none
        /// Only where it stands as a whole value: fewer than `shortestHiddenInText` characters besides white space.
        case wholeValue
        /// Wherever it stands.
        case inText
    }

    /// How output hides `value`.
    public static func hiding(_ value: String) -> Hiding {
        let visible = value.trimmingCharacters(in: .whitespacesAndNewlines).count
        return visible == 0 ? .none : visible < shortestHiddenInText ? .wholeValue : .inText
    }

    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The selected environment with its `extends` chain merged, secrets read and variables resolved.
public struct ResolvedEnvironment: Sendable {
    /// The name given to `--env`.
    public var name: String
    /// The names from the selected environment to its farthest base.
    public var chain: [String]
    /// The resolved `baseURL` (scheme, host, port and path prefix), if any environment of the chain sets it.
    public var baseURL: String?
    /// Where that `baseURL` is written: its file (as displayed) and the mark of its value.
    public var baseURLSource: Sourced<Mark>? = nil
    /// Headers added to every request (the request's own win), each with its file.
    public var headers: [Sourced<HeaderField>]
    /// Query parameters added to every request unless it sets them.
    public var query: [Sourced<Parameter>]
    /// Every variable, resolved, in declaration order.
    public var variables: JSONObject
    public var secrets: [ResolvedSecret]
    /// The environment's auth, unless a request overrides it.
    public var auth: Sourced<Located<AuthDefinition>>?
    /// Options for every request (a request's own win field by field).
    public var options: OptionsDefinition
    /// `expect.openapi` of the nearest environment of the chain that sets it, with that file (as displayed).
    public var openapi: Sourced<FileReference>? = nil
    /// The environment file (as displayed) that `options.retry` and its mark come from: the nearest of the chain that
    /// sets `retry`, whose mark the merged retry keeps; nil when no environment of the chain sets it.
    public var retryPath: String? = nil
    /// The environment file (as displayed) that `options.timeout` and its mark come from: the nearest of the chain that
    /// sets it; nil when none does.
    public var timeoutPath: String? = nil
    /// The environment file (as displayed) that `options.proxy` comes from: the nearest of the chain that sets it; nil
    /// when none does.
    public var proxyPath: String? = nil
    /// The environment file (as displayed) that `options.retry.on` comes from: retry merges field by field, so a base's
    /// `on` stays beside a nearer file's other retry fields.
    public var retryOnPath: String? = nil
    /// For an environment with errors, read only to check the rest of the collection: the secrets and variables that
    /// could not be resolved (defined there, with no value), and whether `baseURL` could not be.
    public var unresolvedNames: Set<String> = []
    public var baseURLUnresolved = false

    /// A scope with these variables and secrets, the command-line variables and the process environment.
    public func scope(commandLine: [(name: String, value: String)] = [], processEnvironment: ProcessEnvironment = [:],
                      builtins: BuiltinValues = .live) -> VariableScope {
        var scope = VariableScope(processEnvironment: processEnvironment, builtins: builtins)
        for (name, value) in variables.members { scope.define(name, value, in: .environment) }
        for secret in secrets { scope.define(secret.name, .string(secret.value), in: .environment, secret: true) }
        for (name, value) in commandLine { scope.define(name, .string(value), in: .commandLine) }
        return scope
    }
}

extension ResolvedEnvironment {
    /// No environment: no base URL, headers, variables or options.
    package static let empty = ResolvedEnvironment(name: "", chain: [], baseURL: nil, headers: [], query: [], variables: JSONObject(),
                                                   secrets: [], auth: nil, options: OptionsDefinition())
}
