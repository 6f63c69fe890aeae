public import HTTPCore
public import Expectations
public import YAML

/// One request file: a single request, or a flow of steps that share variables.
public struct RequestFile: Sendable {
    /// The file as displayed (the path argument joined with the file's place under it).
    public var path: String
    /// The absolute path of the file.
    public var absolutePath: String
    /// `name:` or the file's path without extension, relative to the directory argument.
    public var name: String
    public var tags: [String]
    public var skip: Skip?
    /// The requests in order: one for a single request, the steps of a flow.
    public var steps: [RequestDefinition]
    /// Whether the file used `steps:`.
    public var isFlow: Bool
    /// Whether some step cleans up after the others (`finally:`).
    public var cleansUp: Bool { steps.contains(where: \.isCleanup) }
    /// `each:`: the rows the file runs once for each, in order; nil for a file that runs once.
    @Boxed public var rows: DataRows?
    /// A `name:` with templates over the row variables, naming each row's run.
    @Boxed public var nameTemplate: Template?

    /// The name of the run of row `row` (from 0) of `each:`: its `name:` template resolved in the row's `scope`, else
    /// `NAME [ROW]` (the row counted from 1).
    public func rowLabel(_ row: Int, in scope: VariableScope) throws(TemplateError) -> String {
        guard let nameTemplate else { return defaultRowLabel(row) }
        return try scope.resolveString(nameTemplate)
    }

    /// `NAME [ROW]`: the name of the run of row `row` (from 0) without a `name:` template, or where it does not resolve.
    public func defaultRowLabel(_ row: Int) -> String { "\(name) [\(row + 1)]" }
    /// The `use:` steps not inlined yet, in order: the reader replaces each by the steps of the file it names.
    package var uses: [StepUse] = []
    /// Whether some steps are still `use:` steps, to be replaced by the steps of other files when the collection is read.
    public var usesOtherFiles: Bool { !uses.isEmpty }
    /// `each:` naming a file, not read yet: the reader reads its rows.
    @Boxed package var rowsFile: FileReference?
    /// Whether `each:` names rows that could not be read at all: the file's variables cannot be checked.
    package var rowsUnknown = false
    /// `each: "{{ NAME }}"`: rows from a list known only when the run gets there (a capture or a variable).
    @Boxed public var rowsTemplate: Template?
    /// Where `each:` gives the rows (inline, a file or a template), if it does.
    package var eachMark: Mark? { rows?.mark ?? rowsFile?.mark ?? rowsTemplate?.mark }
    /// A flow's `when:`: its steps (cleanup included) run only when every condition holds.
    public var conditions: [Condition] = []
    /// When the operands of its `when:` have syntax errors (reported when the file was read), every operand template,
    /// and the well-formed part of those with errors: a matcher with one bad operand drops the others, so the validator
    /// checks these too, and every problem shows.
    package var conditionTemplatesBesideSyntaxErrors: [Template] = []

    public init(path: String, absolutePath: String, name: String, tags: [String], skip: Skip?,
                steps: [RequestDefinition], isFlow: Bool) {
        self.path = path
        self.absolutePath = absolutePath
        self.name = name
        self.tags = tags
        self.skip = skip
        self.steps = steps
        self.isFlow = isFlow
    }
}

/// The rows of an `each:` file: the column names once, and each row's values in column order.
public struct DataRows: Sendable {
    public var columns: [String]
    public var rows: [[TemplateValue]]
    /// Where `each:` is written.
    public var mark: Mark
    /// The data file the rows were read from, as displayed; nil when they are written inline in the request file.
    public var file: String? = nil

    /// The file the row values are written in: the data file, or `requestFile` for inline rows. Problems in a value
    /// (an undefined variable in a template) are located there.
    public func valuesPath(in requestFile: String) -> String { file ?? requestFile }
}

/// A `- use: FILE` step of a flow, with its `with:` variables, and where in the steps it goes.
package struct StepUse: Sendable {
    /// How many steps come before it.
    package var position: Int
    package var file: FileReference
    package var inputs: [StepInput]
    package var mark: Mark
    /// Whether it is written under `finally:`: the steps it brings in are cleanup steps.
    package var isCleanup = false
    /// Its `when:`: conditions of every step it brings in, before their own.
    package var conditions: [Condition] = []
}

/// Where a `use:` is written: the using file, as displayed, and the `use:` key.
public struct UseSite: Sendable, Hashable {
    public var path: String
    public var mark: Mark

    /// The `use:` key at `mark` in the file `path`.
    package init(path: String, mark: Mark) {
        self.path = path
        self.mark = mark
    }
}

/// One `with:` variable of a used file's steps: a template resolved in the using flow's scope.
public struct StepInput: Sendable {
    public var name: String
    public var value: TemplateValue
    public var mark: Mark
    /// The file that wrote it (the flow whose `use:` gives it); nil for the step's own file.
    public var path: String?
}

/// `skip: true` or `skip: "a reason"`.
public struct Skip: Sendable, Hashable {
    public var reason: String?
    public var mark: Mark

    public init(reason: String?, mark: Mark) {
        self.reason = reason
        self.mark = mark
    }
}

/// One request with its auth, options, expectations and captures (a single-request file or a step).
public struct RequestDefinition: Sendable {
    /// The fields, shared by every copy: a definition is copied often (plans, steps, checks) and never
    /// changed, so a copy costs one reference instead of every string and list inside it.
    private let storage: Storage

    struct Fields: Sendable {
        /// The file the definition is written in, as displayed (a used fragment's, for its steps).
        var path: String
        var name: String
        /// Whether `name:` is written; else `name` is the default (`step 2`, or the file's name for a single request).
        var isNamed = true
        var tags: [String]
        var skip: Skip?
        var request: RequestSpec
        @Boxed var auth: Located<AuthDefinition>?
        var options: OptionsDefinition
        var expect: ExpectDefinition
        var captures: [CaptureDefinition]
        var mark: Mark
        /// The `with:` variables of the `use:` that brought this step in, outermost first.
        var inputs: [StepInput] = []
        /// The `use:` steps that brought this step in, outermost first; empty for a step written in its flow.
        var useSites: [UseSite] = []
        /// `when:`: the request runs only when every condition holds.
        var conditions: [Condition] = []
        /// `each: "{{ NAME }}"` on a step: the step runs once per element of the list.
        @Boxed var loop: Template? = nil
        /// Whether the step is one of a flow's `finally:` steps (or was brought in by a `use:` there).
        var isCleanup = false
        /// For a cleanup step of a used file (its `finally:`, brought in by a `use:` among the steps): how many of
        /// `useSites`, from the innermost, lead to that `use:`; nil for other steps.
        var cleanupUseDepth: Int? = nil
        /// When some of its templates have syntax errors, every template it has with expressions (its `when:` keys
        /// aside), and the well-formed part of those with errors.
        var templatesBesideSyntaxErrors: [Template] = []
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    init(_ fields: Fields) {
        storage = Storage(fields)
    }

    /// The definition brought in by `use` at `site`: its `with:` variables and `when:` conditions before its own, a cleanup
    /// step when `use` is one.
    package func used(at site: UseSite, by use: StepUse) -> RequestDefinition {
        var fields = storage.fields
        fields.inputs = use.inputs.map { input in
            var input = input
            input.path = input.path ?? site.path
            return input
        } + fields.inputs
        fields.useSites.insert(site, at: 0)
        if fields.cleanupUseDepth == nil, fields.isCleanup, !use.isCleanup { fields.cleanupUseDepth = fields.useSites.count }
        fields.isCleanup = fields.isCleanup || use.isCleanup
        fields.conditions = use.conditions.map { $0.written(in: site.path) } + fields.conditions.map { condition in
            var condition = condition
            condition.inputsVisible += use.inputs.count
            return condition
        }
        return RequestDefinition(fields)
    }

    /// The step as one of the used flow `file` (nested uses' steps too): the flow's `when:` before its own, the flow's
    /// tags before its own, the flow's `skip:` when it has none, as a flow's own steps have them.
    package func inFlow(_ file: RequestFile) -> RequestDefinition {
        guard file.isFlow, !file.conditions.isEmpty || !file.tags.isEmpty || file.skip != nil else { return self }
        var fields = storage.fields
        fields.conditions = file.conditions.map { $0.written(in: file.path) } + fields.conditions
        fields.tags = file.tags + fields.tags.filter { !file.tags.contains($0) }
        fields.skip = fields.skip ?? file.skip
        return RequestDefinition(fields)
    }

    /// The step named `name` when its own name is not written (a step numbered by its place once `use:` steps are in).
    package func named(byDefault name: String) -> RequestDefinition {
        guard !storage.fields.isNamed else { return self }
        var fields = storage.fields
        fields.name = name
        return RequestDefinition(fields)
    }

    /// The step run once per element of the list `loop` gives (unchanged when nil).
    package func looping(over loop: Template?) -> RequestDefinition {
        var fields = storage.fields
        fields.loop = loop
        return RequestDefinition(fields)
    }

    /// The step as one of a flow's cleanup (`finally:`) steps.
    package func asCleanup() -> RequestDefinition {
        var fields = storage.fields
        fields.isCleanup = true
        return RequestDefinition(fields)
    }

    /// The definition with other expectations: what `retry.stopWhen` checks, in the same request.
    public func with(expect: ExpectDefinition) -> RequestDefinition {
        var fields = storage.fields
        fields.expect = expect
        fields.captures = []
        fields.options.retry?.stopWhen = nil
        return RequestDefinition(fields)
    }

    /// The file the definition is written in, as displayed: diagnostics about it point there.
    public var path: String { storage.fields.path }
    /// The `with:` variables this step gets, outermost first (a later one wins).
    public var inputs: [StepInput] { storage.fields.inputs }
    /// The `use:` steps that brought this step in, outermost first.
    public var useSites: [UseSite] { storage.fields.useSites }
    /// For a cleanup step of a used file, the `use:` among the steps that brought that file in (with the uses around it,
    /// outermost first): it cleans up after that use's steps. nil for other steps.
    public var cleansUpAfterUse: [UseSite]? {
        storage.fields.cleanupUseDepth.map { Array(useSites.prefix(useSites.count - $0 + 1)) }
    }

    public var name: String { storage.fields.name }
    public var tags: [String] { storage.fields.tags }
    public var skip: Skip? { storage.fields.skip }
    public var request: RequestSpec { storage.fields.request }
    /// Overrides the environment's auth; `.none` turns it off.
    public var auth: Located<AuthDefinition>? { storage.fields.auth }
    public var options: OptionsDefinition { storage.fields.options }
    public var expect: ExpectDefinition { storage.fields.expect }
    public var captures: [CaptureDefinition] { storage.fields.captures }
    /// Where the definition starts.
    public var mark: Mark { storage.fields.mark }
    /// `when:`: the request runs only when every condition holds.
    public var conditions: [Condition] { storage.fields.conditions }
    /// `each: "{{ NAME }}"` on a step: the step runs once per element of the list this template gives.
    public var loop: Template? { storage.fields.loop }
    /// Whether the step is a cleanup step: one of a flow's `finally:` steps, which run whatever happened.
    public var isCleanup: Bool { storage.fields.isCleanup }
    /// When some of its templates have syntax errors (reported when the file was read), every template with expressions
    /// it has (its `when:` keys aside: there an undefined variable is absent), and the well-formed part of those with
    /// errors: what has an error may be left out of the definition (a matcher with one bad operand drops the others),
    /// so the validator checks these too, in the step's scope, and every problem shows.
    package var templatesBesideSyntaxErrors: [Template] { storage.fields.templatesBesideSyntaxErrors }
}

/// One condition of `when:`: a template whose value (absent when a variable is undefined) a matcher checks.
public struct Condition: Sendable {
    /// The key: a template such as `{{ region }}`.
    public var subject: Template
    public var matcher: Matcher<TemplateValue>
    /// Where the matcher is written.
    public var mark: Mark
    /// The file it is written in when a `use:` step gave it to a step of another file; nil in the step's own file.
    public var path: String?
    /// How many of the step's `with:` variables (`RequestDefinition.inputs`, outermost first) it sees: all of them for
    /// the step's own `when:`; for one beside a `use:`, those of the uses around that one, not that use's own.
    public var inputsVisible = 0

    public init(subject: Template, matcher: Matcher<TemplateValue>, mark: Mark) {
        self.subject = subject
        self.matcher = matcher
        self.mark = mark
    }

    /// The names of the variables `conditions` require to exist (`"{{ name }}": { exists: true }`, alone or among others):
    /// where the conditions hold, those are defined.
    public static func requiredNames(_ conditions: [Condition]) -> [String] {
        conditions.compactMap { condition in
            guard case .variable(let variable)? = condition.subject.singleExpression?.expression else { return nil }
            if case .exists(true) = condition.matcher { return variable.name }
            if case .all(let matchers) = condition.matcher,
               matchers.contains(where: { if case .exists(true) = $0 { true } else { false } }) { return variable.name }
            return nil
        }
    }

    /// The condition, written in the file at `path` when it names none (its step's own file).
    func written(in path: String) -> Condition {
        var condition = self
        condition.path = condition.path ?? path
        return condition
    }
}

/// The `request:` mapping.
public struct RequestSpec: Sendable {
    /// Any RFC 9110 token; `GET` by default.
    public var method: Located<String>
    public var url: Template
    public var query: [Parameter]
    public var headers: [HeaderField]
    @Boxed public var body: Located<BodyDefinition>?
    public var mark: Mark
}

/// A query or form parameter; a list value means the key repeats.
public struct Parameter: Sendable, Hashable {
    public var name: String
    public var nameMark: Mark
    public var values: [TemplateValue]

    public init(name: String, nameMark: Mark, values: [TemplateValue]) {
        self.name = name
        self.nameMark = nameMark
        self.values = values
    }

    /// The error for a value whose template `template` gives null: a query or form value cannot be null, which would be
    /// sent as the word null.
    public static func nullValue(from template: Template, at mark: Mark, in path: String) -> Diagnostic {
        .error("'\(template.source)' gives null, which a query or form value cannot be: it would be sent as the word null",
               path: path, at: mark, suggestion: "give what it reads a value, or write \"\" to send it empty")
    }
}

extension Diagnostic {
    /// The error for a variable (`source`, at `mark`) whose null a text would send as the word null: in `what`, a header
    /// value, a credential or a multipart value.
    public static func nullSentAsText(_ source: String, in what: String, at mark: Mark, path: String) -> Diagnostic {
        .error("'\(source)' gives null, which \(what) cannot hold: it would be sent as the word null", path: path, at: mark,
               suggestion: "give what it reads a value (a capture of a JSON null gives null)")
    }
}

/// A header and its templated value.
public struct HeaderField: Sendable, Hashable {
    public var name: String
    public var nameMark: Mark
    public var value: Template

    public init(name: String, nameMark: Mark, value: Template) {
        self.name = name
        self.nameMark = nameMark
        self.value = value
    }
}

extension HeaderField {
    /// The error for a credentials header (`Authorization`, `Proxy-Authorization`) whose variables gave nothing
    /// (`Bearer {{ token }}` with an empty token would be sent as the scheme alone: what is written is one word at most),
    /// `value` being what `template` resolved to; nil otherwise.
    public static func emptyCredentialsProblem(_ value: String, of template: Template, named name: String, in path: String) -> Diagnostic? {
        guard !template.isLiteral, credentialHeaders.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else { return nil }
        let (sent, written) = (value.trimmingCharacters(in: .whitespaces), template.literalText.trimmingCharacters(in: .whitespaces))
        guard sent == written, !written.contains(" ") else { return nil }
        return .error("the value of header '\(name)' holds no credentials: " + (written.isEmpty ? "it is empty" : "only '\(written)'")
                          + " once its variables are resolved", path: path, at: template.mark, suggestion: "give the variables it reads a value")
    }

    /// The headers whose value is credentials, which a template must give (`Bearer {{ token }}`, not `Bearer ` alone).
    private static let credentialHeaders = ["Authorization", "Proxy-Authorization"]

    /// The error for `value`, what the value `template` of header `name` gave, when it holds a control character (RFC 9110
    /// allows none but a tab in a field value; CR and LF would split the header; C1 controls too), said for a variable's
    /// value or for text written in the file; nil when it holds none.
    public static func valueProblem(_ value: String, of template: Template, named name: String, in path: String) -> Diagnostic? {
        guard let bad = value.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        let character = switch bad {
        case "\r": "a carriage return (CR)"
        case "\n": "a line feed (LF)"
        case "\u{0}": "a NUL character"
        default: "the control character U+\(String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4))"
        }
        let what = bad == "\r" || bad == "\n" ? "line breaks" : "control characters"
        // Written in the file (no variable gave it), it is removed from the header value there.
        let written = template.segments.contains { if case .literal(let text) = $0 { text.unicodeScalars.contains(bad) } else { false } }
        let suggestion = !written ? "remove \(what) from the variable's value"
            : bad == "\u{0}" ? "remove the NUL character from the header value"
            : "remove the \(what == "line breaks" ? "line break" : "control character") from the header value"
        return .error("the value of header '\(name)' contains \(character); header values cannot contain control characters "
                          + "other than a tab (CR, LF and NUL included)",
                      path: path, at: template.mark, suggestion: suggestion)
    }
}

/// The body of a request: exactly one of the body keys.
public enum BodyDefinition: Sendable, Hashable {
    /// Any YAML value, sent as JSON.
    case json(TemplateValue)
    /// `application/x-www-form-urlencoded`.
    case form([Parameter])
    /// `multipart/form-data`.
    case multipart([MultipartPart])
    /// Sent as is; `text/plain` unless a Content-Type header is given.
    case text(Template)
    /// The raw bytes of a file.
    case file(FileReference)
    /// A GraphQL request, sent as JSON.
    case graphql(GraphQLBody)

    /// The body keys, in the order docs/format.md lists them.
    public static let keys = FormatKeys.bodyKeys.map(\.name)
}

/// `request.graphql`: a GraphQL operation, sent as `{"query": …, "variables": …, "operationName": …}`.
public struct GraphQLBody: Sendable, Hashable {
    public var query: Template
    /// Any YAML value (a mapping, or a lone template holding one); strings inside are templates.
    public var variables: TemplateValue?
    public var operationName: Template?

    /// The keys of `graphql:`.
    public static let keys = FormatKeys.graphql.names

    public init(query: Template, variables: TemplateValue?, operationName: Template?) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
    }

    /// Why `value`, what `variables` gave, cannot be sent as GraphQL variables (a mapping, or null); nil when it can.
    public static func variablesProblem(_ value: JSONValue, of variables: TemplateValue, in path: String) -> Diagnostic? {
        switch value {
        case .object, .null: return nil
        default:
            let written = if case .string(let template) = variables.content { "'\(template.source)'" } else { "the value" }
            return .error("'request.graphql.variables' must be a mapping, but \(written) is \(value.kindName)",
                          path: path, at: variables.mark,
                          suggestion: "write variables as a mapping, such as variables: { id: \"{{ userId }}\" }, or one template holding a mapping")
        }
    }
}

/// One part of a multipart body: a value or a file.
public struct MultipartPart: Sendable, Hashable {
    /// What the part carries.
    public enum Content: Sendable, Hashable {
        case value(Template)
        case file(FileReference, contentType: String?)
    }

    public var name: Template
    public var content: Content
    public var mark: Mark

    public init(name: Template, content: Content, mark: Mark) {
        self.name = name
        self.content = content
        self.mark = mark
    }
}

/// A file named in a request file, relative to that file.
public struct FileReference: Sendable, Hashable {
    /// The path as written.
    public var written: String
    /// The path as displayed (joined to the request file's displayed directory).
    public var path: String
    /// The absolute path, for reading.
    public var absolutePath: String
    public var mark: Mark

    public init(written: String, path: String, absolutePath: String, mark: Mark) {
        self.written = written
        self.path = path
        self.absolutePath = absolutePath
        self.mark = mark
    }
}

/// How a request authenticates.
public enum AuthDefinition: Sendable, Hashable {
    /// `auth: none`: no authentication, even if the environment has some.
    case none
    case basic(username: Template, password: Template)
    case bearer(Template)
    case oauth2(OAuth2Definition)

    /// The mapping keys of the auth kinds.
    public static let kinds = FormatKeys.auth.names

    /// The error for `token`, what the bearer token `template` gave (`resolved`), or its text around its templates, when it
    /// is no token to send after `Bearer `: one with a control character (`HeaderField.valueProblem`), a space or a tab
    /// (a token is one word, RFC 6750; often the scheme written twice, `Bearer abc`), or none at all; nil otherwise. The
    /// token is never quoted.
    public static func bearerTokenProblem(_ token: String, of template: Template, in path: String, resolved: Bool) -> Diagnostic? {
        if let problem = HeaderField.valueProblem(token, of: template, named: "Authorization", in: path) { return problem }
        // An empty token would be sent as `Bearer ` alone: written so, or given so by its templates once resolved.
        if token.isEmpty, resolved || template.isLiteral {
            return .error("the bearer token is empty", path: path, at: template.mark,
                          suggestion: template.isLiteral ? "write the token, or a variable or secret that gives it"
                              : "give the variable a value: an empty token would be sent as 'Bearer ' alone")
        }
        guard let blank = token.first(where: \.isWhitespace) else { return nil }
        let name = blank == " " ? "space" : blank == "\t" ? "tab" : "space (U+\(String(blank.unicodeScalars.first!.value, radix: 16, uppercase: true)))"
        let written = template.literalText.contains(blank)
        let suggestion = template.literalText.lowercased().hasPrefix("bearer ") || token.lowercased().hasPrefix("bearer ")
            ? "write the token alone: 'Bearer ' is put before it"
            : written ? "remove the \(name) from the token" : "remove spaces and tabs from the variable's value"
        return .error("the bearer token holds a \(name), and a bearer token is one word (RFC 6750)",
                      path: path, at: template.mark, suggestion: suggestion)
    }
}

/// OAuth 2 client credentials.
public struct OAuth2Definition: Sendable, Hashable {
    public var tokenURL: Template
    public var clientID: Template
    public var clientSecret: Template
    public var scope: Template?

    public init(tokenURL: Template, clientID: Template, clientSecret: Template, scope: Template?) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
    }
}

/// Per-request options; each is also settable for all requests in an environment.
public struct OptionsDefinition: Sendable {
    public var timeout: Located<Duration>?
    public var delay: Located<Duration>?
    public var followRedirects: Located<Bool>?
    public var maxRedirects: Located<Int>?
    public var insecure: Located<Bool>?
    /// The largest response body read, in bytes (an addition to the base format; default 10 MiB).
    public var maxResponseBytes: Located<Int>?
    @Boxed public var retry: RetryDefinition?
    /// Only in environments: a rate shared by all parallel workers.
    public var throttle: ThrottleDefinition?
    /// Whether the file's cookie jar applies to the request (default true).
    public var cookies: Located<Bool>?
    /// A PEM bundle of certificates trusted besides the system's, relative to the file that names it.
    @Boxed public var caCert: FileReference?
    /// A TLS client certificate and its key.
    @Boxed public var clientCert: ClientCertificateDefinition?
    /// The proxy of every request (`none`: no proxy, not even the process environment's).
    @Boxed public var proxy: Located<ProxySettings>?

    public init(timeout: Located<Duration>? = nil, delay: Located<Duration>? = nil, followRedirects: Located<Bool>? = nil,
                maxRedirects: Located<Int>? = nil, insecure: Located<Bool>? = nil,
                maxResponseBytes: Located<Int>? = nil, retry: RetryDefinition? = nil,
                throttle: ThrottleDefinition? = nil, cookies: Located<Bool>? = nil,
                caCert: FileReference? = nil, clientCert: ClientCertificateDefinition? = nil,
                proxy: Located<ProxySettings>? = nil) {
        self.timeout = timeout
        self.delay = delay
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.insecure = insecure
        self.maxResponseBytes = maxResponseBytes
        self.retry = retry
        self.throttle = throttle
        self.cookies = cookies
        self.caCert = caCert
        self.clientCert = clientCert
        self.proxy = proxy
    }

    /// These options over `base`, field by field (retry too); the receiver wins.
    public func merged(over base: OptionsDefinition) -> OptionsDefinition {
        OptionsDefinition(
            timeout: timeout ?? base.timeout, delay: delay ?? base.delay,
            followRedirects: followRedirects ?? base.followRedirects, maxRedirects: maxRedirects ?? base.maxRedirects,
            insecure: insecure ?? base.insecure, maxResponseBytes: maxResponseBytes ?? base.maxResponseBytes,
            retry: retry.map { $0.merged(over: base.retry) } ?? base.retry,
            throttle: throttle ?? base.throttle, cookies: cookies ?? base.cookies,
            caCert: caCert ?? base.caCert, clientCert: clientCert ?? base.clientCert,
            proxy: proxy ?? base.proxy)
    }
}

/// `options.clientCert`: a TLS client certificate and its key, as PEM files relative to the file that names them.
public struct ClientCertificateDefinition: Sendable {
    public var certificate: FileReference
    public var key: FileReference
    /// The key's password, when it is encrypted.
    public var password: Template?
    /// The file that names it (a request or environment file), as displayed.
    public var path: String
    public var mark: Mark

    public init(certificate: FileReference, key: FileReference, password: Template?, path: String, mark: Mark) {
        self.certificate = certificate
        self.key = key
        self.password = password
        self.path = path
        self.mark = mark
    }
}

/// `options.retry`.
public struct RetryDefinition: Sendable {
    /// How the delay grows between tries.
    public enum Backoff: String, Sendable, Hashable, CaseIterable {
        case constant, exponential
    }

    /// What makes a try worth repeating.
    public enum Condition: Sendable, Hashable {
        case status(Int)
        case timeout
        case connection
        /// An expectation or capture that does not hold: polling until they all do.
        case expectations
    }

    /// Total tries, including the first.
    public var attempts: Located<Int>?
    /// Whether `attempts` is written but not valid (`0`): an error of its own, so not also missing.
    public var attemptsInvalid = false
    public var delay: Located<Duration>?
    public var backoff: Located<Backoff>?
    public var on: Located<[Condition]>?
    /// `stopWhen:` expectations that end polling at once, as a failure, when they all hold (a terminal state).
    public var stopWhen: Located<ExpectDefinition>?
    public var mark: Mark

    public init(attempts: Located<Int>? = nil, delay: Located<Duration>? = nil, backoff: Located<Backoff>? = nil,
                on: Located<[Condition]>? = nil, stopWhen: Located<ExpectDefinition>? = nil, mark: Mark) {
        self.attempts = attempts
        self.delay = delay
        self.backoff = backoff
        self.on = on
        self.stopWhen = stopWhen
        self.mark = mark
    }

    /// The attempts when `retry` does not say.
    public static let defaultAttempts = 3
    /// The delay between attempts when `retry` does not say.
    public static let defaultDelay = Duration.milliseconds(200)
    /// Waits between tries past which a retry is a warning: a request whose answer never comes right holds the run.
    public static let longestWaits = Duration.seconds(3600)
    /// Attempts past which a retry is a warning, whatever its waits.
    public static let mostAttempts = 10_000

    /// Whether the waits between its tries, each at its longest (exponential ones without jitter), add up to more than
    /// `limit`: a request retried for a state that never comes waits at least that long.
    public func waitsLonger(than limit: Duration) -> Bool {
        let strategy = RetryStrategy(attempts: attempts?.value ?? Self.defaultAttempts, delay: delay?.value ?? Self.defaultDelay,
                                     backoff: backoff?.value == .exponential ? .exponential : .constant)
        let seconds = { (duration: Duration) in Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18 }
        // Exponential waits stop growing by the 32nd; from there every wait is that one: counted at once, not one by one
        // (a huge `attempts` with no delay would take forever).
        let waits = strategy.attempts - 1, growing = min(waits, 32)
        var waited = (0..<growing).reduce(0.0) { $0 + seconds(strategy.delay(afterAttempt: $1 + 1, jitter: 1)) }
        if waits > growing { waited += Double(waits - growing) * seconds(strategy.delay(afterAttempt: growing + 1, jitter: 1)) }
        return waited > seconds(limit)
    }

    /// Whether the request is polled: retried while an expectation or capture does not hold.
    public var polls: Bool { on?.value.contains(.expectations) ?? false }

    /// This retry over `base`, field by field; the receiver wins.
    public func merged(over base: RetryDefinition?) -> RetryDefinition {
        guard let base else { return self }
        var merged = RetryDefinition(attempts: attempts ?? base.attempts, delay: delay ?? base.delay,
                                     backoff: backoff ?? base.backoff, on: on ?? base.on, stopWhen: stopWhen ?? base.stopWhen,
                                     mark: mark)
        merged.attemptsInvalid = attempts == nil && (attemptsInvalid || base.attemptsInvalid)
        return merged
    }
}

/// `options.throttle` (environments only).
public struct ThrottleDefinition: Sendable, Hashable {
    public var perSecond: Double
    public var mark: Mark

    public init(perSecond: Double, mark: Mark) {
        self.perSecond = perSecond
        self.mark = mark
    }
}

/// The `expect:` mapping.
public struct ExpectDefinition: Sendable {
    /// `expect.error`: the request passes exactly when it fails this way (a negative test).
    public var error: Located<ExpectedFailure>?
    public var status: Located<StatusExpectation>?
    public var headers: [HeaderExpectation]
    public var body: [BodyExpectation]
    public var text: Located<Matcher<TemplateValue>>?
    public var schema: FileReference?
    /// `expect.openapi`: the OpenAPI document whose operation the response must match.
    public var openapi: FileReference?
    public var duration: Located<Matcher<Duration>>?
    /// `expect.xpath`: XPath 1.0 queries on the XML or HTML body.
    public var xpath: [XPathExpectation]
    /// `expect.namespaces`: the prefixes the request's XPath queries use, in `xpath` and in captures.
    public var namespaces: [XPathNamespace]

    public init(status: Located<StatusExpectation>? = nil, headers: [HeaderExpectation] = [], body: [BodyExpectation] = [],
                text: Located<Matcher<TemplateValue>>? = nil, schema: FileReference? = nil,
                duration: Located<Matcher<Duration>>? = nil, xpath: [XPathExpectation] = [],
                namespaces: [XPathNamespace] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.text = text
        self.schema = schema
        self.duration = duration
        self.xpath = xpath
        self.namespaces = namespaces
    }

    /// Whether it checks anything (`namespaces` alone checks nothing).
    public var checksSomething: Bool {
        error != nil || status != nil || !headers.isEmpty || !body.isEmpty || text != nil || schema != nil || openapi != nil
            || duration != nil || !xpath.isEmpty
    }
}

/// How a request is expected to fail (`expect.error`), named as in `retry.on`.
public enum ExpectedFailure: String, Sendable, CaseIterable {
    /// It does not complete within its timeout.
    case timeout
    /// No connection can be made, or it closes before the response.
    case connection
    /// The TLS handshake fails (an untrusted certificate, a server without TLS).
    case tls
    /// The response body passes its size or decompression limit.
    case tooLarge
}

/// `expect.status`: codes and classes, or a matcher on the number.
public enum StatusExpectation: Sendable {
    /// An integer, a class like `"2xx"`, or a list of them: the status must be one of them.
    case oneOf([StatusPattern])
    case matcher(Matcher<TemplateValue>)
}

/// One accepted status: an exact code or a class.
public enum StatusPattern: Sendable, Hashable, CustomStringConvertible {
    case code(Int)
    /// `"2xx"` is `.statusClass(2)`.
    case statusClass(Int)

    /// The first digit of a class of statuses (`2xx`, `5XX`), nil for other text.
    public static func classDigit(of text: String) -> Int? {
        let characters = Array(text.lowercased())
        guard characters.count == 3, characters[0].isASCII, let digit = characters[0].wholeNumberValue, (1...5).contains(digit),
              characters[1] == "x", characters[2] == "x" else { return nil }
        return digit
    }

    /// The code three ASCII digits spell (`"200"`), 100 to 599; nil for other text (`"0200"`, `"+200"`, `"２００"`).
    public static func code(spelledBy text: String) -> Int? {
        guard text.utf8.count == 3, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let code = Int(text),
              (100...599).contains(code) else { return nil }
        return code
    }

    /// Whether a value an equality of `expect.status` compares with is a status: a code from 100 to 599 (a number, or
    /// text of its three digits), or a class's text (`"2xx"`).
    public static func isStatus(_ value: JSONValue) -> Bool {
        switch value {
        case .int(let code): (100...599).contains(code)
        case .string(let text): code(spelledBy: text) != nil || classDigit(of: text) != nil
        default: false
        }
    }

    /// What a value that is not a status is told.
    public static let notAStatus = "a status is a code from 100 to 599, or (given by a template) a class from \"1xx\" to \"5xx\""

    /// Whether a status code fits the pattern.
    public func matches(_ status: Int) -> Bool {
        switch self {
        case .code(let code): status == code
        case .statusClass(let digit): status / 100 == digit
        }
    }

    public var description: String {
        switch self {
        case .code(let code): String(code)
        case .statusClass(let digit): "\(digit)xx"
        }
    }
}

/// `expect.headers.<name>`: names are case-insensitive.
public struct HeaderExpectation: Sendable {
    public var name: String
    public var nameMark: Mark
    public var matcher: Matcher<TemplateValue>
    /// Where the expected value is written.
    public var mark: Mark
}

/// `expect.body.<JSONPath>`.
public struct BodyExpectation: Sendable {
    /// The RFC 9535 query, checked when the file is read.
    public var path: String
    public var pathMark: Mark
    public var matcher: Matcher<TemplateValue>
    /// Where the expected value is written.
    public var mark: Mark
    /// `count`: what the number of nodes the query selects must be (`$[?@.age > 100]: { count: 2 }`).
    public var count: Located<Matcher<TemplateValue>>?

    public init(path: String, pathMark: Mark, matcher: Matcher<TemplateValue>, mark: Mark, count: Located<Matcher<TemplateValue>>? = nil) {
        self.path = path
        self.pathMark = pathMark
        self.matcher = matcher
        self.mark = mark
        self.count = count
    }
}

/// `expect.xpath.<expression>`.
public struct XPathExpectation: Sendable {
    /// The XPath 1.0 expression, checked when the file is read.
    public var expression: String
    public var expressionMark: Mark
    public var matcher: Matcher<TemplateValue>
    /// Where the expected value is written.
    public var mark: Mark
}

/// `capture.<name>`: a variable for every later request of the run.
public struct CaptureDefinition: Sendable, Hashable {
    /// Where the captured value comes from.
    public enum Source: Sendable, Hashable {
        /// A JSONPath on the JSON body (`$.id`).
        case jsonPath(String)
        case header(String)
        case cookie(String)
        /// The first capture group of a regular expression on the body text.
        case regex(String)
        /// An XPath 1.0 expression on the XML or HTML body, with the request's `expect.namespaces`.
        case xpath(String)
        /// `{ status: true }`: the response status code (an addition to the base format).
        case status
    }

    public var name: String
    public var nameMark: Mark
    public var source: Source
    public var mark: Mark

    /// The mapping keys of the capture kinds.
    public static let kinds = FormatKeys.captureSource.names
}

