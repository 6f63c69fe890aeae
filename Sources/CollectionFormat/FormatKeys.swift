public import HTTPCore
import Expectations

/// The shape of a value in a request or environment file, as the decoder reads it and the JSON Schema describes it.
public indirect enum ValueShape: Sendable {
    /// A scalar read as text: a string, or a number or boolean as written (templates where the key says so).
    case text
    /// Text naming a file: a non-empty path, relative to the request file.
    case filePath
    /// A string (not a number or boolean); with a pattern, one its whole text matches. `example` shows one.
    case string(pattern: String?, example: String)
    /// Any scalar: a string, number, boolean or null.
    case scalar
    case boolean
    /// An integer within the range.
    case integer(ClosedRange<Int>)
    /// Any number.
    case number
    /// A number greater than zero.
    case positiveNumber
    /// A duration: a number and a unit, `250ms`, `1.5s`, `1m`, `2h`.
    case duration
    /// Exactly one of these values.
    case oneOf([JSONValue])
    /// Any YAML value.
    case anyValue
    /// Any value but a mapping: a scalar or a list.
    case notMapping
    /// A list of values of one shape.
    case list(of: ValueShape, nonEmpty: Bool)
    /// One value of a shape, or a list of them.
    case scalarOrList(ValueShape)
    /// A mapping of names chosen by the file (headers, variables, captures) to values of one shape, the names matching
    /// `names` (a regular expression) when given.
    case mapping(of: ValueShape, names: String? = nil)
    /// A mapping of JSONPath queries (starting with `$`) to values of one shape.
    case queries(of: ValueShape)
    /// A mapping of templates (keys with a `{{ }}` expression) to values of one shape, at least one.
    case templates(of: ValueShape)
    /// A mapping of the format's keys: one of `FormatKeys`' mappings.
    case keys(FormatMapping.Name)
    /// A value of any of these shapes.
    case anyOf([ValueShape])

    /// One of these words.
    static func words(_ words: [String]) -> ValueShape { .oneOf(words.map { .string($0) }) }
}

/// One key of a mapping: its name, what it means (one line), and its value's shape.
public struct FormatKey: Sendable {
    public let name: String
    public let description: String
    public let shape: ValueShape

    init(_ name: String, _ shape: ValueShape, _ description: String) {
        self.name = name
        self.description = description
        self.shape = shape
    }
}

/// A mapping of the format with a fixed set of keys: the decoder allows exactly these keys, and the schema lists them.
public struct FormatMapping: Sendable {
    /// The mappings of the format; each name is also the mapping's name in the schema's `$defs`.
    public enum Name: String, Sendable, CaseIterable {
        case singleRequestFile, requestDefinition, flowFile, useStep, request, graphql, multipartPart, auth, basicAuth, oauth2,
             requestOptions, environmentOptions, retry, environmentRetry, stopWhen, clientCert, throttle, expect, matcher, bodyMatcher, durationMatcher, captureSource,
             environment, secret, environmentExpect
    }

    /// Keys of which at most one may be present, or, when `required`, exactly one.
    public struct Choice: Sendable {
        public let keys: [String]
        public let required: Bool
    }

    public let name: Name
    /// What the mapping is, in one line.
    public let description: String
    /// The allowed keys.
    public let keys: [FormatKey]
    /// The keys that must be present.
    public let required: [String]
    /// A group of keys that exclude each other.
    public let choice: Choice?
    /// Whether the mapping needs at least one key.
    public let nonEmpty: Bool
    /// Keys that, when present, must be the only key (`expect.error`).
    public let alone: [String]
    /// Keys that apply only beside another key (a multipart part's `contentType` beside `file`).
    public let needs: [(key: String, other: String)]
    /// Keys refused when another key's mapping holds a given key (`capture` beside an `expect` holding `error`).
    public let refusedWhen: [(key: String, other: String, holding: String)]

    init(_ name: Name, _ description: String, keys: [FormatKey], required: [String] = [], choice: Choice? = nil,
         nonEmpty: Bool = false, alone: [String] = [], needs: [(key: String, other: String)] = [],
         refusedWhen: [(key: String, other: String, holding: String)] = []) {
        self.name = name
        self.description = description
        self.keys = keys
        names = keys.map(\.name)
        self.required = required
        self.choice = choice
        self.nonEmpty = nonEmpty
        self.alone = alone
        self.needs = needs
        self.refusedWhen = refusedWhen
    }

    /// The allowed keys' names, in order: what the decoder passes as `allowed:`.
    public let names: [String]
}

/// The keys of request and environment files: the one description the decoders take their allowed keys from and
/// the JSON Schema (`runner schema`) is generated from.
public enum FormatKeys {
    /// The top level of a request file: one request, or a flow of steps.
    public static let requestFile = ValueShape.anyOf([.keys(.singleRequestFile), .keys(.flowFile)])
    /// The top level of an environment file.
    public static let environmentFile = ValueShape.keys(.environment)

    /// Every mapping, in `Name` order.
    public static let all: [FormatMapping] = FormatMapping.Name.allCases.map(mapping)

    /// The mapping of a name.
    public static func mapping(_ name: FormatMapping.Name) -> FormatMapping {
        switch name {
        case .singleRequestFile: singleRequestFile
        case .requestDefinition: requestDefinition
        case .flowFile: flowFile
        case .useStep: useStep
        case .request: request
        case .graphql: graphql
        case .multipartPart: multipartPart
        case .auth: auth
        case .basicAuth: basicAuth
        case .oauth2: oauth2
        case .requestOptions: requestOptions
        case .environmentOptions: environmentOptions
        case .retry: retry
        case .environmentRetry: environmentRetry
        case .stopWhen: stopWhen
        case .clientCert: clientCert
        case .throttle: throttle
        case .expect: expect
        case .matcher: matcher
        case .bodyMatcher: bodyMatcher
        case .durationMatcher: durationMatcher
        case .captureSource: captureSource
        case .environment: environment
        case .secret: secret
        case .environmentExpect: environmentExpect
        }
    }

    // MARK: Request files

    private static let nameKey = FormatKey(
        "name", .text, "The name in reports (not a template); default: the file's path without extension, or `step N`.")
    private static let tagsKey = FormatKey(
        "tags", .scalarOrList(.text), "Tags for --tag and --exclude-tag: a list of strings, or one string.")
    private static let skipKey = FormatKey(
        "skip", .anyOf([.boolean, .string(pattern: nil, example: "waiting for ticket 42")]),
        "true, false, or the reason it is skipped; reported as SKIP.")
    private static let whenKey = FormatKey(
        "when", .templates(of: .matcher),
        "Runs only when every condition holds: templates (an undefined variable is absent) to a value or a matcher; else SKIP.")

    /// A lone template, as `each:` and `status` take one: `{{ NAME }}`.
    private static let loneTemplate = ValueShape.string(pattern: "^\\{\\{[^{}]*\\}\\}$", example: "{{ ids }}")

    /// The keys of one request, wherever it is written.
    private static let requestKeys = [
        nameKey, tagsKey, skipKey, whenKey,
        FormatKey("request", .keys(.request), "The request to send."),
        FormatKey("auth", .auth, "How it authenticates: none, basic, bearer or oauth2; replaces the environment's auth."),
        FormatKey("options", .keys(.requestOptions), "Timeout, delay, redirects and retries; each overrides the environment's."),
        FormatKey("expect", .keys(.expect), "What the response must satisfy."),
        FormatKey("capture", .mapping(of: .captureSource, names: ValueShape.variableName),
                  "Variables for later requests: names to a JSONPath on the body, or to a header, cookie, regex or status."),
    ]

    public static let requestDefinition = FormatMapping(
        .requestDefinition, "One step of a flow: a request, which each: may run once per element of a list.",
        keys: requestKeys + [
            FormatKey("each", loneTemplate,
                      "A lone template whose value is a list (a capture or a variable): the step runs once per element, "
                          + "as item (a mapping's fields too) with index from 1."),
        ],
        required: ["request"], refusedWhen: [captureBesideError])

    /// A request that expects no response (`expect.error`) has nothing to capture.
    private static let captureBesideError = (key: "capture", other: "expect", holding: "error")

    private static let eachKey = FormatKey(
        "each", .anyOf([.filePath, .list(of: .mapping(of: .anyValue, names: ValueShape.variableName), nonEmpty: true), loneTemplate]),
        "Data-driven: a .csv, .json or .yaml file of rows, a list of mappings, or a lone template whose value is a list; "
            + "the file runs once per row.")

    public static let singleRequestFile = FormatMapping(
        .singleRequestFile, "A request file with one request (and, with each, one run per row).",
        keys: requestKeys + [eachKey], required: ["request"], refusedWhen: [captureBesideError])

    public static let flowFile = FormatMapping(
        .flowFile, "A flow: requests run in order, where a failing step skips the rest.",
        keys: [
            nameKey, tagsKey, skipKey, eachKey, whenKey,
            FormatKey("steps", .list(of: .anyOf([.keys(.requestDefinition), .keys(.useStep)]), nonEmpty: true),
                      "The steps, each a request with the keys of a request file, or a use of another file's steps."),
            FormatKey("finally", .list(of: .anyOf([.keys(.requestDefinition), .keys(.useStep)]), nonEmpty: true),
                      "Cleanup steps run after the steps whatever happened (a failure, a first SIGINT, SIGTERM or SIGHUP); they see the captures made so far."),
        ],
        required: ["steps"])

    public static let useStep = FormatMapping(
        .useStep, "A step that inlines another file's request or steps.",
        keys: [
            FormatKey("use", .filePath, "The file whose steps go here, relative to this file; names starting with _ never run alone."),
            FormatKey("with", .mapping(of: .anyValue, names: ValueShape.variableName), "Variables for the used steps (templates resolved in the flow's scope)."),
            whenKey,
        ],
        required: ["use"])

    /// The body keys of a request: at most one of them.
    static let bodyKeys = [
        FormatKey("json", .anyValue, "A JSON body: any YAML value, whose strings are templates (a lone one keeps its type)."),
        FormatKey("form", .mapping(of: .parameter),
                  "A form body (application/x-www-form-urlencoded): names to a value or a list of values (templates)."),
        FormatKey("multipart", .list(of: .keys(.multipartPart), nonEmpty: false), "A multipart/form-data body: a list of parts."),
        FormatKey("text", .text, "A text body (a template), sent as is."),
        FormatKey("file", .filePath, "A body of this file's bytes; the path is relative to the request file."),
        FormatKey("graphql", .keys(.graphql), "A GraphQL request, POSTed as JSON: query, variables, operationName."),
    ]

    public static let graphql = FormatMapping(
        .graphql, "A GraphQL operation, sent as {\"query\", \"variables\", \"operationName\"}.",
        keys: [
            FormatKey("query", .string(pattern: "\\S", example: "{ users { name } }"), "The GraphQL document (a template)."),
            FormatKey("variables", .anyOf([.mapping(of: .anyValue), .string(pattern: nil, example: "{{ variables }}")]),
                      "The operation's variables: a mapping (strings are templates; a lone one keeps its type), or a template holding one."),
            FormatKey("operationName", .text, "The operation to run, when the document has several (a template)."),
        ],
        required: ["query"])

    public static let request = FormatMapping(
        .request, "The request to send: method, URL, query, headers and at most one body.",
        keys: [
            FormatKey("method", .text, "The HTTP method, sent as written; default GET."),
            FormatKey("url", .text, "A path joined to the environment's baseURL, or an absolute http(s) URL (a template)."),
            FormatKey("query", .mapping(of: .parameter),
                      "Query parameters: names to a value or a list of values (a list repeats the name); templates."),
            FormatKey("headers", .mapping(of: .text, names: ValueShape.headerName), "Header names to values (templates)."),
        ] + bodyKeys,
        required: ["url"], choice: .init(keys: bodyKeys.map(\.name), required: false))

    public static let multipartPart = FormatMapping(
        .multipartPart, "One part of a multipart body: a name and either a value or a file.",
        keys: [
            FormatKey("name", .text, "The part's name (a template)."),
            FormatKey("value", .text, "The part's value (a template)."),
            FormatKey("file", .filePath, "A file sent as the part, relative to the request file; its name is the filename."),
            FormatKey("contentType", .text, "The Content-Type of a file part; default application/octet-stream."),
        ],
        required: ["name"], choice: .init(keys: ["value", "file"], required: true), needs: [("contentType", "file")])

    public static let auth = FormatMapping(
        .auth, "One way to authenticate: basic, bearer or oauth2.",
        keys: [
            FormatKey("basic", .keys(.basicAuth), "Basic authentication with a username and a password."),
            FormatKey("bearer", .text, "A bearer token (a template)."),
            FormatKey("oauth2", .keys(.oauth2), "A token fetched with the OAuth2 client-credentials grant, once per run."),
        ],
        choice: .init(keys: ["basic", "bearer", "oauth2"], required: true))

    public static let basicAuth = FormatMapping(
        .basicAuth, "Basic authentication.",
        keys: [
            FormatKey("username", .text, "The username (a template)."),
            FormatKey("password", .text, "The password (a template)."),
        ],
        required: ["username", "password"])

    public static let oauth2 = FormatMapping(
        .oauth2, "OAuth2 client credentials (RFC 6749, section 4.4).",
        keys: [
            FormatKey("tokenURL", .text, "The token endpoint; a relative URL is joined to the environment's baseURL (a template)."),
            FormatKey("clientID", .text, "The client ID (a template)."),
            FormatKey("clientSecret", .text, "The client secret (a template)."),
            FormatKey("scope", .text, "The scope to ask for (a template); optional."),
        ],
        required: ["tokenURL", "clientID", "clientSecret"])

    // MARK: Options

    private static let optionKeys = [
        FormatKey("timeout", .duration, "The limit for one attempt, redirects and a token fetch included; default 30s."),
        FormatKey("delay", .duration, "A wait before sending (once per request, not per retry)."),
        FormatKey("followRedirects", .boolean, "Whether 3xx responses are followed; default true."),
        FormatKey("maxRedirects", .integer(0...Int.max), "The most redirects followed; default 10."),
        FormatKey("insecure", .boolean, "true skips TLS certificate verification (with a warning); default false."),
        FormatKey("maxResponseBytes", .integer(1...Int.max),
                  "The largest response body accepted, in bytes after decompression; default 10485760."),
        FormatKey("retry", .keys(.retry), "Retries of failed attempts."),
        FormatKey("cookies", .boolean, "Whether the file's cookie jar stores and sends cookies; default true."),
        FormatKey("caCert", .filePath, "A PEM bundle of certificate authorities trusted besides the system's (https)."),
        FormatKey("clientCert", .keys(.clientCert), "A TLS client certificate (mutual TLS): cert, key and an optional password."),
        FormatKey("proxy", .text, "The proxy for http(s) requests (http://[user:password@]host:port), or none; default from HTTPS_PROXY, HTTP_PROXY, NO_PROXY."),
    ]

    public static let requestOptions = FormatMapping(
        .requestOptions, "Options of a request; each overrides the environment's.", keys: optionKeys)

    public static let environmentOptions = FormatMapping(
        .environmentOptions, "Options of every request; a request's own options win key by key.",
        keys: optionKeys.map { $0.name == "retry" ? FormatKey("retry", .keys(.environmentRetry), $0.description) : $0 } + [
            FormatKey("throttle", .keys(.throttle), "A rate shared by all requests and parallel workers (environments only)."),
        ])

    public static let retry = FormatMapping(
        .retry, "How failed attempts are retried.",
        keys: [
            FormatKey("attempts", .integer(1...Int.max), "Total tries, the first included; default 3."),
            FormatKey("delay", .duration, "The wait between tries; default 200ms."),
            FormatKey("backoff", .words(RetryDefinition.Backoff.allCases.map(\.rawValue)),
                      "constant (default), or exponential: the wait doubles after each try, with jitter."),
            FormatKey("on", .scalarOrList(.anyOf([.integer(100...599), .words(["timeout", "connection", "expectations"])])),
                      "What is retried: status codes, timeout, connection, expectations (polling); default [429, 502, 503, 504, timeout, connection]."),
            FormatKey("stopWhen", .keys(.stopWhen),
                      "Expectations that end polling at once, as a failure, when they hold (requests only)."),
        ])

    /// `retry.stopWhen`: the keys of `expect` but `error` (a try that fails without a response ends polling anyway).
    public static let stopWhen = FormatMapping(
        .stopWhen, "Expectations of a response that end polling at once, as a failure, when they all hold.",
        keys: expect.keys.filter { $0.name != "error" }, nonEmpty: true)

    /// `retry` in an environment: `stopWhen` belongs beside a request's own expectations.
    public static let environmentRetry = FormatMapping(
        .environmentRetry, "How failed attempts of every request are retried (stopWhen is a request's only).",
        keys: retry.keys.filter { $0.name != "stopWhen" })

    public static let clientCert = FormatMapping(
        .clientCert, "A TLS client certificate and its key, in PEM files relative to the file.",
        keys: [
            FormatKey("cert", .filePath, "The PEM certificate (or chain) presented to servers that ask for one."),
            FormatKey("key", .filePath, "The PEM private key of the certificate, encrypted or not."),
            FormatKey("password", .text, "The password of an encrypted key (a template, usually a secret)."),
        ],
        required: ["cert", "key"])

    public static let throttle = FormatMapping(
        .throttle, "A shared rate of requests.",
        keys: [FormatKey("perSecond", .positiveNumber, "Requests per second, a number greater than 0.")],
        required: ["perSecond"])

    // MARK: Expectations and captures

    public static let expect = FormatMapping(
        .expect, "What the response must satisfy; every expectation is checked.",
        keys: [
            FormatKey("error", .words(ExpectedFailure.allCases.map(\.rawValue)),
                      "The way the request must fail: timeout, connection, tls or tooLarge; alone in expect."),
            FormatKey("status", .anyOf([.statusCode, loneTemplate, .list(of: .statusCode, nonEmpty: true), .keys(.matcher)]),
                      "A code, a class like \"2xx\", a list of them, a lone template of the code, or a matcher; without it a status of 400 or above fails."),
            FormatKey("headers", .mapping(of: .matcher, names: ValueShape.headerName), "Header names (any case) to a value or a matcher."),
            FormatKey("body", .queries(of: .bodyMatcher), "JSONPath queries (RFC 9535) on the JSON body to a value or a matcher."),
            FormatKey("text", .matcher, "A value or a matcher on the whole body as text."),
            FormatKey("schema", .filePath, "A JSON Schema file, relative to the request file, that the JSON body must satisfy."),
            FormatKey("duration", .durationMatcher, "A matcher on the whole request time, with durations: { lessThan: 500ms }."),
            openAPIKey,
            FormatKey("xpath", .mapping(of: .matcher), "XPath 1.0 expressions on the XML (or HTML) body to a value or a matcher."),
            FormatKey("namespaces", .mapping(of: .string(pattern: ".", example: "http://www.w3.org/2005/Atom")),
                      "Prefixes the xpath expressions and captures use, to namespace URIs."),
        ],
        alone: ["error"])

    /// `expect.openapi`, in a request's and an environment's `expect`.
    private static let openAPIKey = FormatKey(
        "openapi", .filePath,
        "An OpenAPI 3.0/3.1 document, relative to this file: the response must match its operation for the method and path.")

    /// An environment's `expect`: what every response of the run must satisfy.
    public static let environmentExpect = FormatMapping(
        .environmentExpect, "What every response of the run must satisfy (a request's own expect.openapi replaces it).",
        keys: [openAPIKey])

    /// A body query's operators: a matcher's and `count`, the number of nodes the query selects.
    public static let bodyMatcher = FormatMapping(
        .bodyMatcher, "Operators that must all hold, and count: the number of nodes the query selects.",
        keys: matcher.keys + [
            FormatKey("count", .size, "Holds when the number of nodes the query selects equals it or satisfies the matcher."),
        ],
        nonEmpty: true)

    /// The operators of a matcher, in docs/format.md's order; `Matcher.operatorNames` are the same.
    public static let matcher = FormatMapping(
        .matcher, "Operators that must all hold; to compare with an object, use { equals: { ... } }.",
        keys: [
            FormatKey("equals", .anyValue, "Holds when the value is deeply equal (numbers by value)."),
            FormatKey("notEquals", .anyValue, "Holds when the value is not deeply equal, or absent."),
            FormatKey("lessThan", .comparand, "Holds when the value is less (numbers by value, strings by code points)."),
            FormatKey("lessThanOrEqual", .comparand, "Holds when the value is less or equal."),
            FormatKey("greaterThan", .comparand, "Holds when the value is greater."),
            FormatKey("greaterThanOrEqual", .comparand, "Holds when the value is greater or equal."),
            FormatKey("contains", .anyValue, "Holds when a string contains the substring, or a list an equal element."),
            FormatKey("notContains", .anyValue, "Holds when a string or list does not contain it, or the value is absent."),
            FormatKey("startsWith", .anyValue, "Holds when a string starts with it."),
            FormatKey("endsWith", .anyValue, "Holds when a string ends with it."),
            FormatKey("matches", .string(pattern: nil, example: "^[a-z]+$"),
                      "Holds when the regular expression (ICU, not anchored) finds a match in a string."),
            FormatKey("exists", .boolean, "true: holds when the value is present; false: when it is absent."),
            FormatKey("type", .words(JSONType.allCases.map(\.rawValue)),
                      "Holds when the value is of this JSON type (integer: a number without a fraction)."),
            FormatKey("length", .size, "Holds when a string's, list's or object's length equals it or satisfies the matcher."),
            FormatKey("in", .anyOf([.list(of: .anyValue, nonEmpty: true), loneTemplate]),
                      "Holds when the value equals one of the listed values (or of the list one template gives)."),
            FormatKey("isEmpty", .boolean, "true: holds when a string, list or object is empty; false: when it is not."),
            FormatKey("each", .matcher, "Holds when the value is a list whose every element satisfies the matcher."),
            FormatKey("not", .matcher, "Holds when the value does not satisfy the matcher."),
        ],
        nonEmpty: true)

    /// The operators of `expect.duration`: comparisons whose operands are durations.
    public static let durationMatcher = FormatMapping(
        .durationMatcher, "Operators on the request time, with durations as operands.",
        keys: matcher.keys.compactMap { key in
            switch key.name {
            case "equals", "notEquals", "lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual":
                FormatKey(key.name, .duration, key.description)
            case "in": FormatKey(key.name, .list(of: .duration, nonEmpty: true), key.description)
            case "not": FormatKey(key.name, .durationMatcher, key.description)
            default: nil
            }
        },
        nonEmpty: true)

    public static let captureSource = FormatMapping(
        .captureSource, "Where a captured value comes from: one of header, cookie, regex, xpath, status.",
        keys: [
            FormatKey("header", .text, "The value of this response header (several values joined with ', ')."),
            FormatKey("cookie", .text, "The value of the last Set-Cookie of this name."),
            FormatKey("regex", .text, "The first capture group of this regular expression's first match in the body text."),
            FormatKey("xpath", .text, "The result of this XPath 1.0 expression on the XML (or HTML) body."),
            FormatKey("status", .oneOf([.bool(true)]), "true: the status code, as a number."),
        ],
        choice: .init(keys: ["header", "cookie", "regex", "xpath", "status"], required: true))

    // MARK: Environment files

    public static let environment = FormatMapping(
        .environment, "An environment: base URL, variables, secrets, headers, auth and options for every request.",
        keys: [
            FormatKey("extends", .text, "Another environment of the same directory, loaded first and overridden key by key."),
            FormatKey("baseURL", .text, "The absolute http(s) URL relative request URLs are joined to (a template)."),
            FormatKey("headers", .mapping(of: .text, names: ValueShape.headerName), "Headers added to every request that does not set them (templates)."),
            FormatKey("query", .mapping(of: .parameter),
                      "Query parameters added unless a request sets the name: names to a value or a list of values."),
            FormatKey("variables", .mapping(of: .anyValue, names: ValueShape.variableName), "Variables: names to any YAML value; strings are templates."),
            FormatKey("secrets", .mapping(of: .keys(.secret), names: ValueShape.variableName), "Variables read from the process environment, hidden in every output."),
            FormatKey("auth", .auth, "How every request authenticates unless it sets its own auth."),
            FormatKey("options", .keys(.environmentOptions), "Options of every request, plus throttle."),
            FormatKey("expect", .keys(.environmentExpect), "What every response of the run must satisfy: openapi."),
        ])

    public static let secret = FormatMapping(
        .secret, "A secret read from the process environment.",
        keys: [
            FormatKey("env", .string(pattern: "^[A-Za-z_][A-Za-z0-9_]*$", example: "QA_TOKEN"),
                      "The process environment variable that holds it; unset or empty is an error without a default."),
            FormatKey("default", .text, "The value used when the variable is unset or empty."),
        ],
        required: ["env"])
}

extension ValueShape {
    /// A value or a mapping of matcher operators.
    static let matcher = ValueShape.anyOf([.notMapping, .keys(.matcher)])
    /// A body query's value or mapping of matcher operators, which may hold `count`.
    static let bodyMatcher = ValueShape.anyOf([.notMapping, .keys(.bodyMatcher)])
    /// A length or a count: an integer, a template, or a matcher.
    static let size = ValueShape.anyOf([.integer(0...Int.max), .string(pattern: nil, example: "{{ count }}"), .keys(.matcher)])
    /// A duration or a mapping of duration operators.
    static let durationMatcher = ValueShape.anyOf([.duration, .keys(.durationMatcher)])
    /// A comparison's operand: a number, or a template that yields one.
    static let comparand = ValueShape.anyOf([.number, .string(pattern: nil, example: "{{ limit }}")])
    /// A status code or a class of them.
    static let statusCode = ValueShape.anyOf([.integer(100...599), .string(pattern: "^[1-5]([0-9][0-9]|[xX][xX])$", example: "2xx")])
    /// `auth`: `none`, or one way to authenticate.
    static let auth = ValueShape.anyOf([.words(["none"]), .keys(.auth)])
    /// A capture: a JSONPath on the body, or another source.
    static let captureSource = ValueShape.anyOf([
        .string(pattern: FormatSchema.jsonPathPattern, example: "$.id"), .keys(.captureSource),
    ])
    /// A query or form parameter: a value or a list of them (not null: a parameter without a value is an error).
    static let parameter = ValueShape.scalarOrList(.text)
    /// A variable's name: letters (any script), digits, `_` and `-`, not starting with a digit or `-`. Letters outside ASCII
    /// are the ranges XML names take them from (no symbols such as `²`, `×`, `€` below U+00C0, no punctuation, spaces or
    /// marks of U+2000–U+206F, no byte order mark); a few symbols those ranges hold are left to `runner validate`.
    static let variableName = "^[A-Za-z_\(nonASCIILetters)][A-Za-z0-9_\\-\(nonASCIILetters)]*$"
    private static let nonASCIILetters = "\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u2070-\\u209F\\u2100-\\u218F"
        + "\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFEFE\\uFF00-\\uFFFD"
    /// A header's name: an HTTP token (RFC 9110).
    static let headerName = "^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$"
}
