internal import Foundation
public import CollectionFormat
public import HTTPCore
internal import Loaders
internal import YAML

/// Turns a request definition into an `HTTPRequest` by resolving its templates against a variable scope.
///
/// The environment is applied here, in one place: a relative URL is joined to its `baseURL`, and its headers,
/// query, options and auth fill what the request leaves unset. Its headers and query are resolved per request,
/// so they may use captures; the request's own headers and query parameters win.
public struct RequestBuilder: Sendable {
    public let environment: ResolvedEnvironment?
    /// The run's settings that override the files' options: `--cacert`, `SSL_CERT_FILE`, `--proxy` and the process
    /// environment's proxies.
    public let run: RunOptions
    /// Where relative URLs go: the environment's `baseURL`.
    private let server: ServerEnvironment?

    /// The limit for one attempt when neither the request nor the environment sets `timeout`, so that a
    /// server that never answers cannot hang a run.
    public static let defaultTimeout: Duration = .seconds(30)

    /// The variables some request sends as credentials (`LoadedCollection.credentialVariables`): their values, as
    /// secrets', are not carried to another origin by a redirect in any header or body.
    let credentialVariables: Set<String>

    public init(environment: ResolvedEnvironment?, run: RunOptions = RunOptions(), credentialVariables: Set<String> = []) {
        self.environment = environment
        self.run = run
        self.credentialVariables = credentialVariables
        server = environment?.baseURL.flatMap { ServerEnvironment(baseURL: $0) }
    }

    /// The secrets' values and the credentials the scope's variables hold (`credentialVariables`): what a header or a body
    /// must not carry to another origin.
    private func credentialsKeptFromOtherOrigins(in scope: VariableScope) -> Set<String> {
        scope.secretValues.union(credentialVariables.compactMap { scope.value(of: $0) }
            .flatMap { SensitiveText.credentialTexts(of: $0, sent: credentialVariables) }.filter { $0.count >= SensitiveText.minimumLength })
    }

    /// The request for `definition` (a request or step of the file at `path`), whose retries send at most
    /// `sendsAtMost` requests when given (what a polled step has left); throws a located diagnostic.
    public func build(_ definition: RequestDefinition, path: String, scope: VariableScope,
                      sendsAtMost: Int? = nil) throws(RunFailure) -> HTTPRequest {
        let spec = definition.request
        guard let method = HTTPMethod(spec.method.value) else {
            throw RunFailure(.error("'\(spec.method.value)' is not an HTTP method", path: path, at: spec.method.mark))
        }
        var request = HTTPRequest(method: method, components: try url(spec.url, path: path, scope: scope))
        for parameter in spec.query {
            for value in parameter.values {
                request.appendQueryItem(name: parameter.name, value: try text(of: value, path: path, scope: scope))
            }
        }
        for header in spec.headers {
            request.headers.add(name: header.name, value: try headerValue(header.value, named: header.name, path: path, scope: scope))
        }
        // Credentials in the URL (or in the baseURL a relative one is joined to) are the request's own auth too.
        let urlCredentials = request.components.user != nil || (request.components.scheme == nil && server?.user != nil)
        try addEnvironmentDefaults(to: &request, scope: scope, ownAuth: definition.auth != nil || urlCredentials)
        if let server { request = server.complete(request) }
        if let body = spec.body {
            request.body = try self.body(body, headers: request.headers, path: path, scope: scope)
        }
        request.options = try options(for: definition, path: path, scope: scope, sendsAtMost: sendsAtMost)
        // What a redirect must not carry to another origin, gathered once and only for a request with a templated header
        // or body (most requests have none).
        var kept: Set<String>?
        let credentials = { kept ?? { kept = credentialsKeptFromOtherOrigins(in: scope); return kept! }() }
        request.options.secretHeaders = namesHoldingSecrets(in: request.headers, written: spec.headers.map { ($0.name, $0.value) },
                                                            credentials: credentials)
        request.options.bodyHoldsCredential = spec.body.map {
            bodyHoldsSecret(request.body, written: $0.value, credentials: credentials) || !credentialValues(of: request.body).isEmpty
        } ?? false
        // Credentials in the URL (`http://user:password@host/`) are Basic auth, as curl and browsers use them, unless
        // the request's `auth:` says otherwise; they win over the environment's auth. They stay in the URL, which
        // outputs show as `user:***@`, and never reach the wire: the transports send the path and the host only.
        // The environment's auth is resolved only for a request that uses it: none of its own, no credentials in its
        // URL, no `Authorization` header (which the auth layer would leave as it is).
        if definition.auth == nil {
            if let user = request.components.user {
                request.options.auth = .basic(username: user, password: request.components.password ?? "")
            } else if !request.headers.contains("Authorization"), let auth = environment?.auth {
                request.options.auth = try authMethod(auth.value.value, path: auth.path, scope: scope)
            }
        }
        return request
    }

    /// The names of the headers whose value a template gave (the request's own, `written`, or its environment's) holds
    /// a secret or a piece of one, as a capture holding one is judged (`SensitiveText.derives`). Credential headers, which
    /// no redirect carries to another origin anyway, and values written as they are, are not looked at.
    private func namesHoldingSecrets(in headers: HTTPHeaders, written: [(name: String, value: Template)],
                                     credentials: () -> Set<String>) -> [String] {
        let templated = (written + (environment?.headers.map { ($0.value.name, $0.value.value) } ?? []))
            .filter { !$0.value.isLiteral && !HTTPHeaders.isCredential($0.name) }.map(\.name)
        guard !templated.isEmpty else { return [] }
        let secrets = credentials()
        guard !secrets.isEmpty else { return [] }
        return Set(templated).filter { name in headers.values(for: name).contains { SensitiveText.derives($0, from: secrets) } }.sorted()
    }

    /// Whether `body`, as `written`, holds a secret or a piece of one, as a capture holding one is judged: its text (a
    /// multipart body's names and values). A body written without templates, or from a `file:`, holds none.
    private func bodyHoldsSecret(_ body: any HTTPBody, written: BodyDefinition, credentials: () -> Set<String>) -> Bool {
        var templated = false
        written.forEachTemplate { templated = templated || !$0.isLiteral }
        guard templated else { return false }
        let secrets = credentials()
        guard !secrets.isEmpty else { return false }
        let texts: [String] = switch written {
        case .multipart: (body as? MultipartBody)?.parts.flatMap { part -> [String] in
            if case .field(let name, let value) = part { [name, value] } else { [] }
        } ?? []
        default: [(try? body.encode()).map { String(decoding: $0, as: UTF8.self) } ?? ""]
        }
        return texts.contains { SensitiveText.derives($0, from: secrets) }
    }

    /// The URL components of the resolved `url:`; relative unless it starts with a scheme.
    private func url(_ template: Template, path: String, scope: VariableScope) throws(RunFailure) -> URLComponents {
        let text: String
        do {
            text = try scope.resolveURL(template)
        } catch {
            throw RunFailure(error, in: path)
        }
        // `/users/{{ id }}` after a capture of a JSON null would ask for `/users/null`.
        if text.contains("null"), let null = scope.firstNullVariable(in: template) {
            throw RunFailure(.nullSentAsText(null.source, in: "a URL", at: null.mark, path: path))
        }
        let components: URLComponents
        do { components = try scope.requestURL(text, resolving: template, in: path) } catch { throw RunFailure(error) }
        if components.scheme == nil, environment?.baseURL == nil {
            throw RunFailure(.error("the relative URL '\(scope.shown(text, resolving: template))' needs an environment with a baseURL", path: path,
                                    at: template.mark, suggestion: "pass --env NAME, or write an absolute http(s) URL"))
        }
        return components
    }

    /// The environment's headers and query items that the request does not set itself.
    ///
    /// An environment's `Authorization` header yields to the request's own `auth` (`none` included), as the request's
    /// level wins over the environment's (`ownAuth`).
    private func addEnvironmentDefaults(to request: inout HTTPRequest, scope: VariableScope, ownAuth: Bool) throws(RunFailure) {
        guard let environment else { return }
        if !environment.headers.isEmpty {
            // By lower-case name (a name is a token: ASCII), so that thousands of headers take one pass, not one each.
            var present = Set(request.headers.map { $0.name.lowercased() })
            for header in environment.headers {
                let name = header.value.name.lowercased()
                guard !(ownAuth && name == "authorization"), present.insert(name).inserted else { continue }
                request.headers.add(name: header.value.name,
                                    value: try headerValue(header.value.value, named: header.value.name, path: header.path, scope: scope))
            }
        }
        for parameter in environment.query where !request.hasQueryItem(named: parameter.value.name) {
            for value in parameter.value.values {
                request.appendQueryItem(name: parameter.value.name, value: try text(of: value, path: parameter.path, scope: scope))
            }
        }
    }

    /// The body of the request; files are relative to the request file.
    private func body(_ body: Located<BodyDefinition>, headers: HTTPHeaders, path: String, scope: VariableScope) throws(RunFailure) -> any HTTPBody {
        /// A JSON body of `value`, resolved from `written`; a number JSON cannot write (a captured 1e400 is infinite) is an
        /// error at the template that gives it (at the body when none does alone).
        func json(_ value: JSONValue, from written: TemplateValue?) throws(RunFailure) -> JSONBody {
            guard let number = value.firstNonFiniteNumber else { return JSONBody(value) }
            let source = written?.templates.first { (try? scope.resolve($0))?.firstNonFiniteNumber != nil }
            throw RunFailure(.error("the JSON body holds \(JSONBody.describeNonFinite(number)), which JSON cannot express"
                                        + (source.map { ", from '\($0.source)'" } ?? ""), path: path, at: source?.mark ?? body.mark,
                                    suggestion: "capture or give a finite number, or send it as a string"))
        }
        switch body.value {
        case .json(let value):
            return try json(try resolve(value, path: path, scope: scope), from: value)
        case .form(let parameters):
            var fields: [(name: String, value: String)] = []
            for parameter in parameters {
                for value in parameter.values { fields.append((parameter.name, try text(of: value, path: path, scope: scope))) }
            }
            return FormBody(fields)
        case .multipart(let parts):
            var encoded: [MultipartBody.Part] = []
            for part in parts {
                let name = try resolve(part.name, path: path, scope: scope)
                switch part.content {
                case .value(let value):
                    encoded.append(.field(name: name, value: try resolve(value, refusingNullIn: "a multipart value", path: path, scope: scope)))
                case .file(let reference, let contentType):
                    let url = URL(fileURLWithPath: reference.absolutePath)
                    encoded.append(.file(name: name, filename: url.lastPathComponent,
                                         contentType: contentType ?? "application/octet-stream", content: .file(url)))
                }
            }
            return MultipartBody(parts: encoded)
        case .text(let template):
            let text = try resolve(template, path: path, scope: scope)
            return DataBody(text: text, contentType: headers.contains("Content-Type") ? nil : "text/plain; charset=utf-8")
        case .graphql(let graphql):
            var document = JSONObject([("query", .string(try resolve(graphql.query, path: path, scope: scope)))])
            if let variables = graphql.variables {
                let value = try resolve(variables, path: path, scope: scope)
                if let problem = GraphQLBody.variablesProblem(value, of: variables, in: path) { throw RunFailure(problem) }
                document["variables"] = value
            }
            if let operationName = graphql.operationName {
                document["operationName"] = .string(try resolve(operationName, path: path, scope: scope))
            }
            return try json(.object(document), from: graphql.variables)
        case .file(let reference):
            guard let data = FileManager.default.contents(atPath: reference.absolutePath) else {
                throw RunFailure(.error("cannot read '\(reference.written)' (looked for '\(reference.path)')", path: path,
                                        at: reference.mark))
            }
            return DataBody(data, contentType: headers.contains("Content-Type") ? nil : "application/octet-stream")
        }
    }

    /// The options as written: the environment's as defaults, the request's winning key by key.
    public func writtenOptions(of definition: RequestDefinition) -> OptionsDefinition {
        definition.options.merged(over: environment?.options ?? OptionsDefinition())
    }

    /// The typed options of a request, settled here and nowhere else: its written options (without a timeout in
    /// either, `defaultTimeout`), the run's overrides (`--cacert` and `SSL_CERT_FILE`, `--proxy`, the process
    /// environment's proxies and `NO_PROXY`), the auth, and retries that stop at an attempt ending as the request
    /// expects and send at most `sendsAtMost` requests.
    private func options(for definition: RequestDefinition, path: String, scope: VariableScope,
                         sendsAtMost: Int?) throws(RunFailure) -> HTTPRequestOptions {
        let merged = writtenOptions(of: definition)
        var options = HTTPRequestOptions(
            timeout: merged.timeout?.value ?? Self.defaultTimeout, delay: merged.delay?.value,
            followRedirects: merged.followRedirects?.value ?? true, maxRedirects: merged.maxRedirects?.value ?? 10,
            insecure: merged.insecure?.value ?? false,
            throttle: merged.throttle.map { ThrottleRate(perSecond: $0.perSecond) },
            maxResponseBytes: merged.maxResponseBytes?.value ?? HTTPRequestOptions.defaultMaxResponseBytes,
            cookies: merged.cookies?.value ?? true, trustedCertificateFiles: merged.caCert.map { [$0.absolutePath] } ?? [])
        options.proxy = merged.proxy?.value
        if let caCert = run.caCert { options.trustedCertificateFiles = [caCert] }
        if let certificateFile = run.certificateFile { options.trustedCertificateFiles.insert(certificateFile, at: 0) }
        if run.proxy != nil || run.environmentProxies != .direct {
            var proxy = run.proxy ?? options.proxy ?? run.environmentProxies
            proxy.bypass = run.environmentProxies.bypass
            options.proxy = proxy
        }
        if let client = merged.clientCert {
            options.clientCertificate = ClientCertificate(
                certificateFile: client.certificate.absolutePath, keyFile: client.key.absolutePath,
                password: try client.password.map { (template) throws(RunFailure) -> String in try resolve(template, path: client.path, scope: scope) })
        }
        if let retry = merged.retry {
            let attempts = retry.attempts?.value ?? RetryDefinition.defaultAttempts
            // An attempt ending the way the request expects (expect.error, an expected status) is final, not retried.
            let conditions = (retry.on.map { Set($0.value.compactMap(Self.condition)) } ?? RetryStrategy.defaultConditions)
                .filter { !Self.expects($0, definition.expect, scope) }
            options.retry = RetryStrategy(
                attempts: sendsAtMost.map { min(attempts, max(1, $0)) } ?? attempts,
                delay: retry.delay?.value ?? RetryDefinition.defaultDelay,
                backoff: retry.backoff?.value == .exponential ? .exponential : .constant, retryOn: conditions)
        }
        if let auth = definition.auth { options.auth = try authMethod(auth.value, path: path, scope: scope) }
        return options
    }

    /// Whether an attempt matching a retry condition meets `expect`: it fails with the error kind `expect.error`
    /// names, or answers with a status the request accepts (`expect.status`'s; without it, any below 400).
    private static func expects(_ condition: RetryStrategy.Condition, _ expect: ExpectDefinition, _ scope: VariableScope) -> Bool {
        switch condition {
        case .timeout: expect.error?.value == .timeout
        case .connection: expect.error?.value == .connection
        case .status(let code): expect.error == nil && (expect.status.map { ExpectationChecker.accepts($0, status: code, scope: scope) } ?? (code < 400))
        }
    }

    /// The chain's retry condition; nil for `expectations`, which the step's polling handles.
    private static func condition(_ condition: RetryDefinition.Condition) -> RetryStrategy.Condition? {
        switch condition {
        case .status(let code): .status(code)
        case .timeout: .timeout
        case .connection: .connection
        case .expectations: nil
        }
    }

    /// Where the OAuth2 `tokenURL` that `definition` authenticates with is written (its own `auth`, else the
    /// environment's), for an error of the token request; nil when it authenticates otherwise.
    func tokenURLLocation(of definition: RequestDefinition, path: String) -> (path: String, mark: Mark)? {
        let written = definition.auth.map { ($0.value, path) } ?? environment?.auth.map { ($0.value.value, $0.path) }
        guard let (auth, declaredIn) = written, case .oauth2(let oauth) = auth else { return nil }
        return (declaredIn, oauth.tokenURL.mark)
    }

    /// The credentials of an auth definition with its templates resolved.
    private func authMethod(_ auth: AuthDefinition, path: String, scope: VariableScope) throws(RunFailure) -> AuthMethod {
        switch auth {
        case .none:
            return .none
        case let .basic(username, password):
            return .basic(username: try resolve(username, refusingNullIn: "a user name", path: path, scope: scope),
                          password: try resolve(password, refusingNullIn: "a password", path: path, scope: scope))
        case .bearer(let token):
            let value = try resolve(token, refusingNullIn: "a bearer token", path: path, scope: scope)
            if let problem = AuthDefinition.bearerTokenProblem(value, of: token, in: path, resolved: true) { throw RunFailure(problem) }
            return .bearer(token: value)
        case .oauth2(let oauth):
            let tokenURL = try resolve(oauth.tokenURL, path: path, scope: scope)
            guard let url = absoluteURL(tokenURL) else {
                throw RunFailure(.error("the OAuth2 tokenURL '\(tokenURL)' is not an http(s) URL", path: path, at: oauth.tokenURL.mark))
            }
            return .oauth2ClientCredentials(OAuth2ClientCredentials(
                tokenURL: url, clientID: try resolve(oauth.clientID, path: path, scope: scope),
                clientSecret: try resolve(oauth.clientSecret, path: path, scope: scope),
                scope: try oauth.scope.map { (template) throws(RunFailure) -> String in try resolve(template, path: path, scope: scope) }))
        }
    }

    /// An absolute URL as is, or a relative one joined to the environment's baseURL.
    private func absoluteURL(_ text: String) -> URL? {
        guard let components = PercentEncoding.components(ofURL: text) else { return nil }
        if components.scheme != nil { return components.url }
        guard let server else { return nil }
        return server.complete(HTTPRequest(components: components)).url
    }

    /// A header value resolved from its template; CR, LF and NUL (which would split or end the header) are refused.
    private func headerValue(_ template: Template, named name: String, path: String, scope: VariableScope) throws(RunFailure) -> String {
        let value = try resolve(template, refusingNullIn: "a header value", path: path, scope: scope)
        if let problem = HeaderField.valueProblem(value, of: template, named: name, in: path) { throw RunFailure(problem) }
        if let problem = HeaderField.emptyCredentialsProblem(value, of: template, named: name, in: path) { throw RunFailure(problem) }
        return value
    }

    private func resolve(_ template: Template, path: String, scope: VariableScope) throws(RunFailure) -> String {
        do { return try scope.resolveString(template) } catch { throw RunFailure(error, in: path) }
    }

    /// A template resolved to text, which must not hold a variable's null (`Bearer {{ token }}` from a capture of a JSON
    /// null): it would be sent as the word null, in `what`.
    private func resolve(_ template: Template, refusingNullIn what: String, path: String, scope: VariableScope) throws(RunFailure) -> String {
        let text = try resolve(template, path: path, scope: scope)
        guard text.contains("null"), let null = scope.firstNullVariable(in: template) else { return text }
        throw RunFailure(.nullSentAsText(null.source, in: what, at: null.mark, path: path))
    }

    private func resolve(_ value: TemplateValue, path: String, scope: VariableScope) throws(RunFailure) -> JSONValue {
        do { return try scope.resolve(value) } catch { throw RunFailure(error, in: path) }
    }

    /// A query or form value as text: strings as they are, other values as JSON; a template that gives null (a variable
    /// or row without a value) is an error, as null written there is: it would be sent as the word null.
    private func text(of value: TemplateValue, path: String, scope: VariableScope) throws(RunFailure) -> String {
        let resolved = try resolve(value, path: path, scope: scope)
        if resolved == .null, case .string(let template) = value.content {
            throw RunFailure(Parameter.nullValue(from: template, at: value.mark, in: path))
        }
        return resolved.interpolatedText
    }
}
