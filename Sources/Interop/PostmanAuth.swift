import HTTPCore

/// Postman's auth (`{type, <type>: [{key, value}]}`) as `auth:`, or as a header or query parameter for an API key.
extension PostmanRequestTranslation {
    /// Applies `auth` (the nearest one: the request's, a folder's or the collection's) to `document`; what runner
    /// cannot send is listed at the auth's place, naming the request when the auth is its `own` (a folder's is listed
    /// once for all its requests).
    func apply(_ auth: PostmanValue, to document: inout RequestDocument,
               query: inout [(name: String, values: [String])], own: Bool) throws(PostmanProblem) {
        let whose = own ? "\(owner): " : ""
        let type = auth["type"]?.text ?? "noauth"
        var fields: [String: (value: String, place: PostmanValue)] = [:]
        for entry in try auth[type]?.checkedEntries(type, of: owner, structuredValues: true) ?? [] where fields[entry.key] == nil {
            fields[entry.key] = (entry.value, entry.place)
        }
        let field = { (name: String) -> String in
            fields[name].map { PostmanTemplate.convert($0.value, at: $0.place, notes: notes) } ?? ""
        }
        switch type {
        case "noauth":
            document.auth = RequestDocument.Auth.none
        case "basic":
            listLiteral(fields["password"], as: "password", whose: whose)
            document.auth = .basic(username: field("username"), password: field("password"))
        case "bearer":
            listLiteral(fields["token"], as: "token", whose: whose)
            document.auth = .bearer(field("token"))
        case "oauth2":
            let grant = fields["grant_type"]?.value ?? fields["grantType"]?.value ?? "authorization_code"
            guard grant == "client_credentials", !field("accessTokenUrl").isEmpty, !field("clientId").isEmpty else {
                notes.warn("\(whose)OAuth 2.0 with the grant '\(grant)' is not translated: runner fetches tokens by client credentials only",
                           at: auth, suggestion: "use a bearer token from a variable, or client credentials with accessTokenUrl, clientId and clientSecret")
                return
            }
            listLiteral(fields["clientSecret"], as: "clientSecret", whose: whose)
            let scope = field("scope")
            document.auth = .oauth2(tokenURL: field("accessTokenUrl"), clientID: field("clientId"), clientSecret: field("clientSecret"),
                                    scope: scope.isEmpty ? nil : scope)
        case "apikey":
            listLiteral(fields["value"], as: "apiKey", whose: whose)
            let name = field("key").isEmpty ? "X-API-Key" : field("key")
            if fields["in"]?.value == "query" {
                if !query.contains(where: { $0.name == name }) { query.append((name, [field("value")])) }
            } else if !document.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                document.headers.append((name, field("value")))
            }
        default:
            notes.warn("\(whose)\(type) auth is not translated: runner sends basic, bearer and OAuth 2.0 client credentials", at: auth,
                       suggestion: "set the header this auth would send in the request's headers, from a secret")
        }
    }

    /// Lists a credential written as a value, not as a `{{variable}}`: it is written as it was (`whose`: the request's name
    /// and a colon, or nothing).
    private func listLiteral(_ field: (value: String, place: PostmanValue)?, as name: String, whose: String) {
        guard let field, !field.value.isEmpty, !field.value.contains("{{") else { return }
        // A name no secret of the environments has: following the hint must not take the place of one (a login password).
        let secret = RequestDocument.unusedName(name, separator: "_") { notes.environmentSecrets.contains($0) || notes.collectionValues[$0] != nil }
        notes.warn("\(whose)the \(name) is written into the request files as it was", at: field.place,
                   suggestion: RequestDocument.secretSuggestion(secret),
                   hiding: [field.value, JSONValue.stringContents(field.value)])
    }
}
