public import Expectations

extension RequestDefinition {
    /// Every template the request uses, in source order: request, auth, expectations.
    public var templates: [Template] {
        var templates = request.templates
        if let auth { templates += auth.value.templates }
        for header in expect.headers { templates += header.matcher.operandTemplates }
        for body in expect.body { templates += body.matcher.operandTemplates }
        if case .matcher(let matcher)? = expect.status?.value { templates += matcher.operandTemplates }
        if let text = expect.text { templates += text.value.operandTemplates }
        return templates
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
        return references
    }
}

extension RequestSpec {
    /// The templates of the URL, query, headers and body.
    public var templates: [Template] {
        var templates = [url] + query.flatMap(\.templates) + headers.map(\.value)
        switch body?.value {
        case .json(let value)?: templates += value.templates
        case .form(let parameters)?: templates += parameters.flatMap(\.templates)
        case .multipart(let parts)?:
            for part in parts {
                templates.append(part.name)
                if case .value(let value) = part.content { templates.append(value) }
            }
        case .text(let text)?: templates.append(text)
        case .file?, nil: break
        }
        return templates
    }
}

extension Parameter {
    /// The templates of the values.
    public var templates: [Template] { values.flatMap(\.templates) }
}

extension AuthDefinition {
    /// The templates of the credentials.
    public var templates: [Template] {
        switch self {
        case .none: []
        case .basic(let username, let password): [username, password]
        case .bearer(let token): [token]
        case .oauth2(let oauth): [oauth.tokenURL, oauth.clientID, oauth.clientSecret] + (oauth.scope.map { [$0] } ?? [])
        }
    }
}

extension Matcher where Value == TemplateValue {
    /// The templates of every operand, nested matchers included.
    public var operandTemplates: [Template] {
        var templates: [Template] = []
        _ = map { value in
            templates += value.templates
            return value
        }
        return templates
    }
}
