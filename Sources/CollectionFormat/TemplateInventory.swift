public import Expectations
import Foundation
import HTTPCore

extension RequestDefinition {
    /// Every template the request uses, in source order: request, auth, expectations.
    public var templates: [Template] { collect(forEachTemplate) }

    /// Calls `body` with every template the request uses, in source order, building no list.
    public func forEachTemplate(_ body: (Template) -> Void) {
        request.forEachTemplate(body)
        auth?.value.forEachTemplate(body)
        expect.forEachTemplate(body)
        options.retry?.stopWhen?.value.forEachTemplate(body)
        if let password = options.clientCert?.password { body(password) }
    }

    /// Calls `body` with the templates of the credentials the request sends: its `auth:`, its headers named as
    /// credentials (`Authorization`, `Cookie`, `X-Api-Key`, `X-Session`: `HTTPHeaders.namesCredential`), its query items,
    /// form fields, multipart values and JSON members so named (`access_token`, `refresh_token`, `password`; GraphQL
    /// variables and a `text:` body that is JSON too), and its client certificate's password.
    public func forEachCredentialTemplate(_ body: (Template) -> Void) {
        auth?.value.forEachTemplate(body)
        for header in request.headers where HTTPHeaders.namesCredential(header.name) { body(header.value) }
        for parameter in request.query where HTTPHeaders.namesCredential(parameter.name) { parameter.forEachTemplate(body) }
        request.url.forEachCredentialURLExpression(body)
        switch request.body?.value {
        case .form(let fields)?: for field in fields where HTTPHeaders.namesCredential(field.name) { field.forEachTemplate(body) }
        case .multipart(let parts)?:
            for part in parts where HTTPHeaders.namesCredential(part.name.source) { if case .value(let value) = part.content { body(value) } }
        case .json(let value)?: value.forEachCredentialTemplate(body)
        case .graphql(let graphql)?: graphql.variables?.forEachCredentialTemplate(body)
        case .text(let text)?: text.forEachCredentialExpressionInJSON(body)
        default: break
        }
        if let password = options.clientCert?.password { body(password) }
    }

    /// Calls `body` with the templates that decide whether and how often the request runs: its `each:` list, then the
    /// keys and operands of `when:`.
    public func forEachControlTemplate(_ body: (Template) -> Void) {
        if let loop { body(loop) }
        conditions.forEachTemplate(body)
    }

    /// Every file the request names: body file, multipart files, schema.
    public var fileReferences: [FileReference] {
        var references: [FileReference] = []
        switch request.body?.value {
        case .file(let reference)?: references.append(reference)
        case .multipart(let parts)?:
            for part in parts { if case .file(let reference, _) = part.content { references.append(reference) } }
        default: break
        }
        if let schema = expect.schema { references.append(schema) }
        if let openapi = expect.openapi { references.append(openapi) }
        return references
    }
}

extension ResolvedEnvironment {
    /// Calls `body` with each template of the environment that requests use, and the file it is written in: headers,
    /// query, auth and the client certificate's password; with `step`, only those the step does not replace with its own
    /// (a header of the same name, a query parameter of its `query:` or written URL, its auth, its client certificate).
    public func forEachRequestTemplate(usedBy step: RequestDefinition? = nil, _ body: (Template, _ path: String) -> Void) {
        // The request's own `auth` (or credentials in its written URL) replaces the environment's `Authorization` header too.
        let ownAuth = step.map { $0.auth != nil || $0.urlCredentials } ?? false
        let ownHeaders = Set((step?.request.headers.map { $0.name.lowercased() } ?? []) + (ownAuth ? ["authorization"] : []))
        for header in headers where !ownHeaders.contains(header.value.name.lowercased()) { body(header.value.value, header.path) }
        let ownQuery = step.map(\.ownQueryNames) ?? []
        for parameter in query where !ownQuery.contains(parameter.value.name) { parameter.value.forEachTemplate { body($0, parameter.path) } }
        // The environment's auth is not used by a request with its own, or with its own `Authorization` header.
        if !ownHeaders.contains("authorization"), let auth { auth.value.value.forEachTemplate { body($0, auth.path) } }
        if step?.options.clientCert == nil, let client = options.clientCert, let password = client.password {
            body(password, client.path)
        }
    }
}

extension ResolvedEnvironment {
    /// Calls `body` with the templates of the credentials requests send from the environment: its `auth:`, its headers
    /// and query items named as credentials, and its client certificate's password.
    public func forEachCredentialTemplate(_ body: (Template) -> Void) {
        for header in headers where HTTPHeaders.namesCredential(header.value.name) { body(header.value.value) }
        for parameter in query where HTTPHeaders.namesCredential(parameter.value.name) { parameter.value.forEachTemplate(body) }
        auth?.value.value.forEachTemplate(body)
        if let password = options.clientCert?.password { body(password) }
    }
}

extension RequestDefinition {
    /// The names of the query parameters the request sets itself: in `query:`, and in its URL when written without
    /// templates.
    public var ownQueryNames: Set<String> {
        Set(request.query.map(\.name) + (writtenURL?.queryItems ?? []).map(\.name))
    }

    /// Whether its URL, written without templates, holds credentials (`http://user:password@host/`): its own auth.
    var urlCredentials: Bool { writtenURL?.user != nil }

    /// Its URL when written without templates.
    private var writtenURL: URLComponents? {
        request.url.isLiteral ? PercentEncoding.components(ofURL: request.url.source) : nil
    }
}

extension EnvironmentDefinition {
    /// Calls `body` with every template of the file: its baseURL, variables, headers, query, auth and client
    /// certificate password.
    public func forEachTemplate(_ body: (Template) -> Void) {
        if let baseURL { body(baseURL) }
        for variable in variables { variable.value.forEachTemplate(body) }
        for header in headers { body(header.value) }
        for parameter in query { parameter.forEachTemplate(body) }
        auth?.value.forEachTemplate(body)
        if let password = options.clientCert?.password { body(password) }
    }
}

extension RequestFile {
    /// Calls `body` with the file's own templates that decide whether and how often its steps run: the `each:` list,
    /// the `when:` of a flow, and a `name:` over the row variables.
    public func forEachControlTemplate(_ body: (Template) -> Void) {
        if let rowsTemplate { body(rowsTemplate) }
        conditions.forEachTemplate(body)
        if let nameTemplate { body(nameTemplate) }
    }
}

extension [Condition] {
    /// Calls `body` with each condition's key, then its matcher's operands.
    public func forEachTemplate(_ body: (Template) -> Void) {
        for condition in self {
            body(condition.subject)
            condition.matcher.forEachOperandTemplate(body)
        }
    }
}

extension ExpectDefinition {
    /// Calls `body` with the templates of the expected values, in source order.
    public func forEachTemplate(_ body: (Template) -> Void) {
        forEachMatcher { $0.forEachOperandTemplate(body) }
    }

    /// Calls `body` with each matcher of an expected value, in source order.
    public func forEachMatcher(_ body: (Matcher<TemplateValue>) -> Void) {
        for header in headers { body(header.matcher) }
        for expectation in self.body {
            if let count = expectation.count { body(count.value) }
            body(expectation.matcher)
        }
        for expectation in xpath { body(expectation.matcher) }
        if case .matcher(let matcher)? = status?.value { body(matcher) }
        if let text { body(text.value) }
    }
}

extension RequestSpec {
    /// The templates of the URL, query, headers and body.
    public var templates: [Template] { collect(forEachTemplate) }

    /// Calls `body` with the templates of the URL, query, headers and body, in order.
    public func forEachTemplate(_ body: (Template) -> Void) {
        body(url)
        for parameter in query { parameter.forEachTemplate(body) }
        for header in headers { body(header.value) }
        self.body?.value.forEachTemplate(body)
    }
}

extension BodyDefinition {
    /// Calls `body` with the templates of the body's text (a `file:` body's path is not its text), in order.
    public func forEachTemplate(_ body: (Template) -> Void) {
        switch self {
        case .json(let value): value.forEachTemplate(body)
        case .form(let parameters): for parameter in parameters { parameter.forEachTemplate(body) }
        case .multipart(let parts):
            for part in parts {
                body(part.name)
                if case .value(let value) = part.content { body(value) }
            }
        case .text(let text): body(text)
        case .graphql(let graphql):
            body(graphql.query)
            graphql.variables?.forEachTemplate(body)
            if let operationName = graphql.operationName { body(operationName) }
        case .file: break
        }
    }
}

extension Parameter {
    /// Calls `body` with the template of each value.
    public func forEachTemplate(_ body: (Template) -> Void) {
        for value in values { value.forEachTemplate(body) }
    }
}

extension AuthDefinition {
    /// Calls `body` with the template of each credential.
    public func forEachTemplate(_ body: (Template) -> Void) {
        switch self {
        case .none: break
        case .basic(let username, let password): body(username); body(password)
        case .bearer(let token): body(token)
        case .oauth2(let oauth):
            for template in [oauth.tokenURL, oauth.clientID, oauth.clientSecret] { body(template) }
            if let scope = oauth.scope { body(scope) }
        }
    }
}

extension Matcher where Value == TemplateValue {
    /// Calls `body` with the templates of every operand, nested matchers included.
    public func forEachOperandTemplate(_ body: (Template) -> Void) {
        forEachOperand { $0.forEachTemplate(body) }
    }
}

extension Template {
    /// For a URL, calls `body` with each expression in its user information (`http://{{ u }}:{{ pw }}@host/`, sent as Basic
    /// auth) and in
    /// the value of a query item it writes named as a credential (`/x?api_key={{ key }}`), as a template of its own.
    func forEachCredentialURLExpression(_ body: (Template) -> Void) {
        guard !isLiteral else { return }
        let tokenized = tokenized
        guard let components = PercentEncoding.components(ofURL: tokenized.text) else { return }
        let credentials = (components.queryItems ?? []).filter { HTTPHeaders.namesCredential($0.name) }.compactMap(\.value)
        forEach(of: tokenized.expressions, shownIn: [components.user, components.password].compactMap { $0 } + credentials, body)
    }

    /// For a text that is JSON (`text: '{"password": "{{ p }}"}'`, up to 64 KiB as the run reads it), calls `body` with each
    /// expression in the value of a member named as a credential, at any depth, as a template of its own.
    func forEachCredentialExpressionInJSON(_ body: (Template) -> Void) {
        guard !isLiteral, source.utf8.count <= 1 << 16, let first = source.first(where: { !$0.isWhitespace }), first == "{" || first == "["
        else { return }
        let tokenized = tokenized
        guard let json = try? JSONValue.parse(tokenized.text) else { return }
        func leaves(of value: JSONValue) -> [String] {
            switch value {
            case .string(let text): [text]
            case .int(let number): [String(number)]
            case .array(let elements): elements.flatMap(leaves)
            case .object(let object): object.members.flatMap { leaves(of: $0.value) }
            default: []
            }
        }
        func credentials(in value: JSONValue) -> [String] {
            switch value {
            case .array(let elements): elements.flatMap(credentials)
            case .object(let object):
                object.members.flatMap { HTTPHeaders.namesCredential($0.key) ? leaves(of: $0.value) : credentials(in: $0.value) }
            default: []
            }
        }
        forEach(of: tokenized.expressions, shownIn: credentials(in: json), body)
    }

    /// The text with each expression as a number (`9`, ten digits, `9`), which JSON reads inside a string and outside one
    /// alike and a URL keeps as it is, with each expression's number.
    private var tokenized: (text: String, expressions: [(token: String, segment: Segment)]) {
        var text = ""
        var expressions: [(token: String, segment: Segment)] = []
        for segment in segments {
            switch segment {
            case .literal(let literal): text += literal
            case .expression:
                let token = "9\(1_000_000_000 + expressions.count)9"
                text += token
                expressions.append((token, segment))
            }
        }
        return (text, expressions)
    }

    /// Calls `body` with each of `expressions` (`tokenized`) whose number one of `texts` holds, as a template of its own.
    private func forEach(of expressions: [(token: String, segment: Segment)], shownIn texts: [String], _ body: (Template) -> Void) {
        for (token, segment) in expressions where texts.contains(where: { $0.contains(token) }) {
            body(Template(segments: [segment], source: source, mark: mark))
        }
    }
}

extension TemplateValue {
    /// Calls `body` with the templates of the members named as credentials (`password`, `refresh_token`), at any depth.
    func forEachCredentialTemplate(_ body: (Template) -> Void) {
        switch content {
        case .null, .bool, .int, .double, .string: break
        case .array(let items): for item in items { item.forEachCredentialTemplate(body) }
        case .object(let members):
            for member in members {
                if HTTPHeaders.namesCredential(member.key) { member.value.forEachTemplate(body) } else { member.value.forEachCredentialTemplate(body) }
            }
        }
    }

    /// Every template in the tree, depth first in source order.
    public var templates: [Template] { collect(forEachTemplate) }

    /// Calls `body` with every template in the tree, depth first in source order.
    public func forEachTemplate(_ body: (Template) -> Void) {
        switch content {
        case .null, .bool, .int, .double: break
        case .string(let template): body(template)
        case .array(let items): for item in items { item.forEachTemplate(body) }
        case .object(let members): for member in members { member.value.forEachTemplate(body) }
        }
    }
}

/// The templates a `forEachTemplate` function visits, as a list.
private func collect(_ forEach: ((Template) -> Void) -> Void) -> [Template] {
    var templates: [Template] = []
    forEach { templates.append($0) }
    return templates
}
