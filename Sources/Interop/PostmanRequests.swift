import CollectionFormat
import Foundation
import HTTPCore

/// Translates one Postman request (an item's `request`) into a request document: method, URL with its path variables
/// and query, headers, body and auth.
struct PostmanRequestTranslation {
    let notes: PostmanNotes
    /// Whose request this is, for messages: `'Get user'`.
    let owner: String
    /// A file a request names (`src`), as the request file must name it, and whether it exists.
    let fileReference: (String) -> (path: String, exists: Bool)

    /// The request document of `request` (an object, or a URL as text), with `auth` (the nearest one written at the
    /// request, its folders or the collection) applied.
    func document(_ request: PostmanValue, name: String, auth: PostmanValue?) throws(PostmanProblem) -> RequestDocument {
        let url: PostmanValue
        let method: String
        switch request.json {
        case .string:
            (url, method) = (request, "GET")
        case .object:
            method = (try request.string("method", of: owner) ?? "GET").uppercased()
            guard let member = request["url"] else {
                throw request.problem("\(owner) has no url", suggestion: "give the request a URL in Postman and export it again")
            }
            url = member
        default:
            throw request.wrongType("request", of: owner, expected: "an object or a URL")
        }
        var target = try self.target(url)
        if let password = URLCredentials.password(of: target.url), !password.isEmpty, !password.contains("{{") {
            notes.warn("\(owner): the URL holds a password, written into the request file as it was", at: url,
                       suggestion: RequestDocument.secretSuggestion("password"), hiding: [password])
        }
        var document = RequestDocument(name: name, method: method, url: target.url)
        document.query = target.query
        var headers = try headers(request["header"])
        if let body = request["body"] { document.body = try self.body(body, headers: &headers) }
        document.headers = headers
        if let auth { try apply(auth, to: &document, query: &target.query, own: auth.pointer.starts(with: request.pointer)) }
        document.query = target.query
        return document
    }

    // MARK: URL

    /// The URL (without its query, `:name` path variables as templates) and the query of a request's `url`: text, or
    /// an object with `raw` or `protocol`, `host`, `port` and `path`, and `query` and `variable` lists.
    private func target(_ url: PostmanValue) throws(PostmanProblem) -> (url: String, query: [(name: String, values: [String])]) {
        var raw = ""
        switch url.json {
        case .string(let text): raw = text
        case .object:
            raw = try url.string("raw", of: owner) ?? ""
            // Checked even when `raw` is read instead: a member of the wrong type is an error wherever it is.
            _ = try url.string("protocol", of: owner)
        default: throw url.wrongType("url", of: owner, expected: "a string or an object")
        }
        if raw.isEmpty, url.isObject { raw = try builtURL(url) }
        var base = raw.prefix { $0 != "#" }
        var queryText: Substring = ""
        if let mark = base.firstIndex(of: "?") {
            queryText = base[base.index(after: mark)...]
            base = base[..<mark]
        }
        let variables = url.isObject ? (url["variable"]?.entries() ?? []) : []
        var written = withPathVariables(String(base), variables: variables, at: url)
        if !written.contains("://"), !written.hasPrefix("{{") || startsWithHostOnlyVariable(written) { written = "http://" + written }
        let entries: [(key: String, value: String, disabled: Bool, place: PostmanValue)]
        // Items without a value (`?flag`, `"value": null`), which Postman sends as the name alone.
        let valueless: [Bool]
        if url.isObject, let query = url["query"] {
            entries = query.entries()
            listKeyless(query, kind: "query parameter")
            valueless = entries.map { entry in
                if case .array = query.json { entry.place["value"] == nil } else { entry.place.json == .null }
            }
        } else {
            let pairs = queryText.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) }
            entries = pairs.map { parts in (String(parts[0]), parts.count > 1 ? String(parts[1]) : "", false, url) }
            valueless = pairs.map { $0.count == 1 }
        }
        listWrittenCredentials(entries, kind: "query parameter", isCredential: CredentialNames.isSecretField)
        let enabled = zip(entries, valueless).filter { !$0.0.disabled }
        let reasons = enabled.map { urlOnlyReason($0.0, valueless: $0.1) }
        guard let last = reasons.lastIndex(where: { $0 != nil }), let reason = reasons[last] else {
            return (PostmanTemplate.convert(written, at: url, notes: notes), parameters(entries, kind: "query parameter"))
        }
        // The query up to the last item only the URL sends as Postman does stays in the URL, as Postman sends it; the
        // items after it are `query:` items, whose values (a template's too: `&` or `#` in it) are sent whole.
        let kept = enabled[last].0
        let differences = insertionDifferences(of: enabled[...last].map(\.0), followedBy: enabled.count - last - 1)
        notes.warn("\(owner): the query parameter '\(kept.key)' \(reason)" + differences, at: kept.place)
        listDisabled(entries, kind: "query parameter")
        let query = enabled[...last].map { entry, valueless in
            Self.urlText(entry.key, encoding: Self.nameEncoding)
                + (valueless ? "" : "=" + Self.urlText(entry.value, encoding: Self.valueEncoding))
        }.joined(separator: "&")
        return (PostmanTemplate.convert(written + "?" + query, at: url, notes: notes),
                parameters(enabled[(last + 1)...].map(\.0), kind: "query parameter"))
    }

    /// What Postman percent-encodes in a query parameter's name and value besides what a URL cannot hold: what would end
    /// it (`#`, `&`; `=` in a name) and `'`.
    private static let nameEncoding = "#&='", valueEncoding = "#&'"

    /// What a `query:` item percent-encodes that Postman does not.
    private static let queryItemChanges = "(it percent-encodes '+', '=' and the punctuation Postman keeps, and writes '%XX' escapes its own way)"

    /// Why only the URL sends a query item as Postman sends it; nil when a `query:` item does. An item without a value
    /// (a `query:` item sends `flag=`), one whose name or value a `query:` item would send otherwise (`+` as `%2B`, `,`
    /// as `%2C`, `%2b` as `%2B`, `%41` as `A`), and one whose value inserts a variable with a value (in the environments
    /// written) that a `query:` item would send otherwise: Postman inserts it into the URL as written, and so does
    /// runner in a URL. A template of a variable no environment gives keeps no item in the URL (a `query:` item
    /// sends its value whole); a name is no template, so one holding `{{` is kept there, where Postman resolves it.
    private func urlOnlyReason(_ entry: (key: String, value: String, disabled: Bool, place: PostmanValue), valueless: Bool) -> String? {
        if valueless {
            return "has no value: the query up to it is kept in the URL, as Postman sends it (a query: item would send '\(entry.key)=')"
        }
        if !Self.queryItemSendsAsPostman(entry.key, encoding: Self.nameEncoding)
            || !Self.queryItemSendsAsPostman(TemplateTokens(entry.value).text, encoding: Self.valueEncoding) {
            return "is sent by Postman as written, which a query: item would not do \(Self.queryItemChanges): the query up to it is "
                + "kept in the URL, as Postman sends it"
        }
        let changed = insertions(in: entry.value).first { !$0.texts.allSatisfy(Self.queryItemSendsAsInserted) }
        return changed.map { insertion in
            "inserts {{\(insertion.variable)}}, whose value (as an environment written gives it) Postman sends as written in the "
                + "URL, which a query: item would not do \(Self.queryItemChanges): the query up to it is kept in the URL, where runner "
                + "inserts the value as Postman does"
        }
    }

    /// How runner's URL sends the variables the kept items (`entries`) insert otherwise than Postman, for the warning:
    /// a `'`, which Postman percent-encodes, and a `#` (with `following` `query:` items after the kept query), after
    /// which Postman sends nothing; empty when none does.
    private func insertionDifferences(of entries: [(key: String, value: String, disabled: Bool, place: PostmanValue)],
                                      followedBy following: Int) -> String {
        let inserted = entries.flatMap { insertions(in: $0.key) + insertions(in: $0.value) }
        let holding = { (character: Character) in
            inserted.filter { $0.texts.contains { $0.contains(character) } }.map { "{{\($0.variable)}}" }
        }
        var differences: [String] = []
        if let variable = holding("'").first {
            differences.append("runner sends a ' in \(variable)'s value as written, where Postman sends %27")
        }
        if following > 0, let variable = holding("#").first {
            differences.append("runner sends the query: items after it although \(variable)'s value holds a '#', "
                               + "after which Postman sends nothing")
        }
        return differences.isEmpty ? "" : " (but " + differences.joined(separator: "; ") + ")"
    }

    /// Whether a `query:` item sends `text`, a variable's value, as Postman sends it inserted into the URL as written:
    /// only what Postman percent-encodes there (`'`; a space, `"` and what else a URL cannot hold) is sent alike. A
    /// template a value holds (of a variable the import does not know) is sent alike.
    private static func queryItemSendsAsInserted(_ text: String) -> Bool {
        let plain = TemplateTokens(text).text
        return PercentEncoding.encode(plain) == PercentEncoding.encodeURL(PercentEncoding.encoding("'", in: plain))
    }

    /// Whether `url` starts with a variable whose every value the environments written give is a host without a scheme
    /// (`{{host}}/x` with `host` = `127.0.0.1:8080`), which Postman sends over `http://` as it sends a URL written so.
    private func startsWithHostOnlyVariable(_ url: String) -> Bool {
        guard let leading = insertions(in: url).first, leading.range.lowerBound == url.startIndex else { return false }
        return !leading.texts.isEmpty && leading.texts.allSatisfy { !$0.contains("://") && !$0.contains("{{") }
    }

    /// The most texts a value's templates are resolved to, over the environments written.
    private static let resolutionLimit = 64

    /// The `{{name}}` templates of `text` whose variable has values in the environments written, each with the texts
    /// Postman inserts for it: its values, with their own templates resolved in turn (up to `depth` levels).
    private func insertions(in text: String, depth: Int = 4) -> [(variable: String, range: Range<String.Index>, texts: [String])] {
        var insertions: [(variable: String, range: Range<String.Index>, texts: [String])] = []
        var start = text.startIndex
        while depth > 0, let open = text[start...].range(of: "{{"), let close = text[open.upperBound...].range(of: "}}") {
            let variable = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let values = variable.hasPrefix("$") ? [] : notes.knownValues(of: PostmanTemplate.sanitized(variable))
            if !values.isEmpty {
                let texts = values.flatMap { resolutions(of: $0, depth: depth - 1) }
                insertions.append((variable, open.lowerBound..<close.upperBound, Array(texts.prefix(Self.resolutionLimit))))
            }
            start = close.upperBound
        }
        return insertions
    }

    /// The texts `text` resolves to: each template of a variable the environments written give replaced by each of its
    /// values (resolved in turn, up to `depth` levels), other templates as written.
    private func resolutions(of text: String, depth: Int) -> [String] {
        var texts = [""]
        var end = text.startIndex
        for insertion in insertions(in: text, depth: depth) {
            let between = text[end..<insertion.range.lowerBound]
            texts = Array(texts.flatMap { head in insertion.texts.map { head + between + $0 } }.prefix(Self.resolutionLimit))
            end = insertion.range.upperBound
        }
        return texts.map { $0 + text[end...] }
    }

    /// Whether a `query:` item sends `text` (a name or value as Postman holds it) as Postman does: runner percent-encodes
    /// what the import percent-decoded, all but letters, digits and `-._~`.
    private static func queryItemSendsAsPostman(_ text: String, encoding characters: String) -> Bool {
        PercentEncoding.encode(decoded(text)) == urlText(text, encoding: characters)
    }

    /// A query parameter's name or value percent-decoded, as a `query:` item holds it (as written when it does not decode).
    private static func decoded(_ text: String) -> String {
        text.removingPercentEncoding ?? text
    }

    /// A query parameter's name or value as Postman writes it into the URL: `characters` (which would end it) and what
    /// a URL cannot hold percent-encoded (`#` as `%23`, a space as `%20`, a `%` that starts no escape as `%25`), valid
    /// escapes and `{{…}}` templates as written.
    private static func urlText(_ text: String, encoding characters: String) -> String {
        let templates = TemplateTokens(text)
        return templates.restored(PercentEncoding.encodeURL(PercentEncoding.encoding(characters, in: templates.text)))
    }

    /// Lists each entry of `list` without a key (`"key": null`), which `entries()` leaves out.
    private func listKeyless(_ list: PostmanValue, kind: String) {
        for element in list.elements where element["key"]?.text == nil {
            notes.warn("\(owner): a \(kind) has no key: left out (a request file sends parameters by name)", at: element)
        }
    }

    /// The URL of an object without `raw`, from its parts.
    private func builtURL(_ url: PostmanValue) throws(PostmanProblem) -> String {
        let host = url["host"].map { $0.text ?? $0.elements.compactMap(\.text).joined(separator: ".") } ?? ""
        guard !host.isEmpty else { throw url.problem("\(owner): the url has neither 'raw' nor 'host'") }
        let path = url["path"].map { $0.text ?? $0.elements.compactMap { $0.text ?? $0["value"]?.text }.joined(separator: "/") } ?? ""
        let scheme = try url.string("protocol", of: owner).map { $0 + "://" } ?? ""
        let port = try url.scalarText("port", of: owner).map { ":" + $0 } ?? ""
        return scheme + host + port + (path.isEmpty ? "" : "/" + path.drop { $0 == "/" })
    }

    /// `url` with each path segment `:name` as `{{name}}`; a value the request gives for it becomes an environment
    /// variable, or is written in place when it is a template or another request gives the same name another value.
    private func withPathVariables(_ url: String, variables: [(key: String, value: String, disabled: Bool, place: PostmanValue)],
                                   at place: PostmanValue) -> String {
        let afterHost: String.Index
        if let scheme = url.range(of: "://") {
            afterHost = url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex
        } else if url.hasPrefix("{{"), let close = url.range(of: "}}") {
            afterHost = url[close.upperBound...].firstIndex(of: "/") ?? url.endIndex
        } else {
            afterHost = url.firstIndex(of: "/") ?? url.endIndex
        }
        let segments = url[afterHost...].split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix(":"), segment.count > 1 else { return String(segment) }
            let name = String(segment.dropFirst())
            guard let given = variables.first(where: { $0.key == name }), !given.value.isEmpty else {
                // Listed: an environment variable another request's value wrote, or a capture, would fill it silently.
                let sent = variables.contains { $0.key == name } ? "an empty segment" : "':\(name)' as written"
                notes.warn("\(owner): the path variable :\(name) has no value here, and Postman sends \(sent): written as {{ \(name) }}",
                           at: place, suggestion: "give '\(name)' a value in the environment, or by a capture of an earlier request")
                return "{{\(name)}}"
            }
            // A variable's value may be a capture, which an environment's variables cannot use: written in place.
            if given.value.contains("{{") { return given.value }
            let runnerName = PostmanTemplate.variableName(name, at: given.place, notes: notes)
            if notes.pathValue(runnerName, PostmanTemplate.convert(given.value, at: given.place, notes: notes)) { return "{{\(name)}}" }
            notes.warn("\(owner): the path variable :\(name) is '\(given.value)' here and has another value elsewhere: written in the URL",
                       at: given.place)
            return given.value
        }
        return url[..<afterHost] + segments.joined(separator: "/")
    }

    /// Query parameters or form fields from Postman's entries: disabled ones are left out and listed, values are
    /// percent-decoded (runner encodes them) and become templates, repeated names lists.
    private func parameters(_ entries: [(key: String, value: String, disabled: Bool, place: PostmanValue)],
                            kind: String, decoding: Bool = true) -> [(name: String, values: [String])] {
        var parameters: [(name: String, values: [String])] = []
        listDisabled(entries, kind: kind)
        for entry in entries where !entry.disabled {
            let decode = { (text: String) in decoding ? Self.decoded(text) : text }
            let value = PostmanTemplate.convert(decode(entry.value), at: entry.place, notes: notes)
            let name = decode(entry.key)
            if let index = parameters.firstIndex(where: { $0.name == name }) {
                parameters[index].values.append(value)
            } else {
                parameters.append((name, [value]))
            }
        }
        return parameters
    }

    /// Lists each enabled entry named as a credential (`isCredential`) whose value is written, not a `{{variable}}`: it is
    /// written into the request file as it was.
    private func listWrittenCredentials(_ entries: [(key: String, value: String, disabled: Bool, place: PostmanValue)], kind: String,
                                        isCredential: (String) -> Bool) {
        for entry in entries where !entry.disabled && isCredential(entry.key) && !entry.value.isEmpty && !entry.value.contains("{{") {
            let hidden = [entry.value] + CredentialNames.headerCredentials(name: entry.key, value: entry.value)
            notes.warn("\(owner): the \(kind) '\(entry.key)' is written into the request file as it was", at: entry.place,
                       suggestion: RequestDocument.secretSuggestion(named: entry.key),
                       hiding: hidden + hidden.map(JSONValue.stringContents))
        }
    }

    /// Lists the members of a body's JSON (or of text that is not JSON: a `{{variable}}` in it) named like credentials
    /// (`"password": "…"`) whose values are written, not `{{variables}}`: written into the request file as they were.
    private func listWrittenCredentials(inBody text: String, at place: PostmanValue) {
        let written = CredentialNames.jsonCredentials(text).filter { !$0.isEmpty && !$0.contains("{{") }
        guard !written.isEmpty else { return }
        notes.warn("\(owner): the body holds credentials (members named like password, token, secret or api_key), written into the "
                   + "request file as they were", at: place,
                   suggestion: "keep them out of the file: add each to the environment's secrets (such as `password: { env: API_PASSWORD }`) "
                       + "and write \"{{ password }}\" in its place", hiding: written)
    }

    /// Lists each disabled entry as left out.
    private func listDisabled(_ entries: [(key: String, value: String, disabled: Bool, place: PostmanValue)], kind: String) {
        for entry in entries where entry.disabled {
            notes.warn("\(owner): the \(kind) '\(entry.key)' is disabled in Postman: left out", at: entry.place)
        }
    }

    // MARK: Headers

    /// The enabled headers (`[{key, value, disabled}]`, or `Name: value` lines), values as templates.
    private func headers(_ header: PostmanValue?) throws(PostmanProblem) -> [(name: String, value: String)] {
        guard let header else { return [] }
        let entries: [(key: String, value: String, disabled: Bool, place: PostmanValue)]
        if case .string(let text) = header.json {
            // Postman 2.0's `Name: value` lines, a disabled one written `//Name: value`.
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            entries = lines.enumerated().compactMap { number, line in
                guard !line.isEmpty else { return nil }
                let disabled = line.hasPrefix("//"), entry = line.dropFirst(line.hasPrefix("//") ? 2 : 0)
                guard let colon = entry.firstIndex(of: ":") else {
                    // Not quoted: the line may hold a credential whose colon was left out.
                    notes.warn("\(owner): line \(number + 1) of its header text has no ':' (not 'Name: value'): left out", at: header)
                    return nil
                }
                return (entry[..<colon].trimmingCharacters(in: .whitespaces),
                        entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces), disabled, header)
            }
        } else {
            guard case .array = header.json else { throw header.wrongType("header", of: owner, expected: "a list") }
            entries = try header.checkedEntries("header", of: owner)
        }
        listWrittenCredentials(entries, kind: "header", isCredential: CredentialNames.isSecretHeader)
        var headers: [(name: String, value: String)] = []
        for entry in entries {
            if entry.disabled {
                notes.warn("\(owner): the header '\(entry.key)' is disabled in Postman: left out", at: entry.place)
            } else if !Self.isToken(entry.key) {
                notes.warn("\(owner): '\(entry.key)' is not a header name (letters, digits and !#$%&'*+-.^_`|~): left out", at: entry.place)
            } else {
                headers.append((entry.key, PostmanTemplate.convert(entry.value, at: entry.place, notes: notes)))
            }
        }
        return headers
    }

    /// Whether `name` is an RFC 9110 token.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0)) }
    }

    /// Removes the `Content-Type` header when it is one of `types` (the body key sends it); returns the header's value
    /// when one is there.
    @discardableResult
    private static func dropContentType(_ headers: inout [(name: String, value: String)], when types: [String]) -> String? {
        guard let index = headers.firstIndex(where: { $0.name.lowercased() == "content-type" }) else { return nil }
        let value = headers[index].value
        let type = value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if types.contains(type) { headers.remove(at: index) }
        return value
    }

    // MARK: Body

    /// The body of a `body` object by its `mode`; nil when it is empty, disabled (listed) or of a mode not translated.
    private func body(_ body: PostmanValue, headers: inout [(name: String, value: String)]) throws(PostmanProblem) -> RequestDocument.Body? {
        guard body.isObject else { throw body.wrongType("body", of: owner, expected: "an object") }
        let mode = try body.string("mode", of: owner) ?? "raw"
        if body.isDisabled {
            notes.warn("\(owner): the \(mode) body is disabled in Postman: left out", at: body)
            return nil
        }
        switch mode {
        case "raw":
            return rawBody(body, headers: &headers)
        case "urlencoded":
            guard let fields = try body["urlencoded"]?.checkedEntries("urlencoded", of: owner), !fields.isEmpty else { return nil }
            Self.dropContentType(&headers, when: ["application/x-www-form-urlencoded"])
            listWrittenCredentials(fields, kind: "form field", isCredential: CredentialNames.isSecretField)
            return .form(parameters(fields, kind: "form field", decoding: false))
        case "formdata":
            guard let parts = body["formdata"]?.elements, !parts.isEmpty else { return nil }
            Self.dropContentType(&headers, when: ["multipart/form-data"])
            return .multipart(parts.flatMap(multipartParts))
        case "file":
            guard let source = body["file"]?["src"] else { return nil }
            return (source.text).flatMap { fileBody($0, at: source) }
        case "graphql":
            guard let graphql = body["graphql"], let query = graphql["query"]?.text else { return nil }
            if let variables = graphql["variables"] { listWrittenCredentials(inBody: variables.text ?? "", at: variables) }
            let variables = graphQLVariables(graphql["variables"], listing: false)
            if variables == nil, let text = graphql["variables"]?.text, text.contains("{{") {
                // `{"n": {{n}}}`, `{"{{k}}": 1}`, `{{vars}}`: Postman puts each variable's text where it is written, so
                // the body is sent as that text, with the request's own Content-Type when it has one.
                if !headers.contains(where: { $0.name.lowercased() == "content-type" }) { headers.append(("Content-Type", "application/json")) }
                if query.contains("{{") {
                    notes.warn("\(owner): the GraphQL query's variables are inserted into the body's JSON text as they are (Postman "
                               + "escapes them): a value holding '\"' or '\\' would break it", at: graphql)
                }
                let body = "{\"query\":\(JSONValue.string(query).serialized()),\"variables\":\(text)}"
                return .text(PostmanTemplate.convert(body, at: graphql, notes: notes))
            }
            Self.dropContentType(&headers, when: ["application/json"])
            // Read again only to list why variables that are no mapping are left out.
            return .graphql(query: PostmanTemplate.convert(query, at: graphql, notes: notes),
                            variables: variables ?? graphQLVariables(graphql["variables"]))
        default:
            notes.warn("\(owner): a '\(mode)' body is not translated", at: body)
            return nil
        }
    }

    /// A raw body: `json:` when Postman's language or the Content-Type says JSON and it parses (its strings as
    /// templates) with numbers a `JSONValue` keeps, else `text:` with the Content-Type Postman sends for its language. In
    /// JSON mode its comments are left out, as Postman sends it.
    private func rawBody(_ body: PostmanValue, headers: inout [(name: String, value: String)]) -> RequestDocument.Body? {
        guard let raw = body["raw"], var text = raw.text, !text.isEmpty else { return nil }
        let language = body["options"]?["raw"]?["language"]?.text ?? "text"
        if language == "json", let stripped = JSONComments.stripped(text) {
            notes.warn("\(owner): the JSON body's comments are left out, as Postman leaves them out when it sends it", at: raw)
            text = stripped
        }
        listWrittenCredentials(inBody: text, at: raw)
        let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased()
        if language == "json" || contentType?.contains("json") == true {
            if let json = try? JSONValue.parse(text), let converted = convert(json, at: raw) {
                guard let changed = JSONNumbers.firstChanged(in: text) else {
                    Self.dropContentType(&headers, when: ["application/json"])
                    return .json(converted)
                }
                notes.warn("\(owner): " + JSONNumbers.keptAsText(because: changed), at: raw)
            }
        }
        let types = ["json": "application/json", "xml": "application/xml", "html": "text/html", "javascript": "application/javascript"]
        if contentType == nil, let type = types[language] { headers.append(("Content-Type", type)) }
        return .text(PostmanTemplate.convert(text, at: raw, notes: notes))
    }

    /// A JSON value with every string as a template; nil when a key holds `{{` (keys are not templates: the body
    /// stays text).
    private func convert(_ json: JSONValue, at place: PostmanValue) -> JSONValue? {
        switch json {
        case .string(let text): return .string(PostmanTemplate.convert(text, at: place, notes: notes))
        case .array(let items):
            var converted: [JSONValue] = []
            for item in items {
                guard let value = convert(item, at: place) else { return nil }
                converted.append(value)
            }
            return .array(converted)
        case .object(let object):
            var converted = JSONObject()
            for member in object.members {
                guard !member.key.contains("{{"), let value = convert(member.value, at: place) else { return nil }
                converted[member.key] = value
            }
            return .object(converted)
        default: return json
        }
    }

    /// The parts of one `formdata` entry: a value, or a part per file of its `src`.
    private func multipartParts(_ entry: PostmanValue) -> [RequestDocument.MultipartPart] {
        let key = entry["key"]?.text ?? ""
        if entry.isDisabled {
            notes.warn("\(owner): the form part '\(key)' is disabled in Postman: left out", at: entry)
            return []
        }
        let name = PostmanTemplate.convert(key, at: entry, notes: notes)
        let contentType = entry["contentType"]?.text
        guard entry["type"]?.text == "file" else {
            if contentType != nil { notes.warn("\(owner): the Content-Type of the text part '\(key)' is not translated", at: entry) }
            return [.init(name: name, value: PostmanTemplate.convert(entry["value"]?.text ?? "", at: entry, notes: notes))]
        }
        let sources = entry["src"].map { $0.text.map { [$0] } ?? $0.elements.compactMap(\.text) } ?? []
        if sources.isEmpty { notes.warn("\(owner): the file part '\(key)' names no file: left out", at: entry) }
        return sources.map { source in
            .init(name: name, file: reference(source, at: entry),
                  contentType: contentType ?? RequestDocument.MultipartPart.postmanContentType(ofFile: source))
        }
    }

    /// A `file:` body.
    private func fileBody(_ source: String, at place: PostmanValue) -> RequestDocument.Body? {
        guard !source.isEmpty else { return nil }
        return .file(reference(source, at: place))
    }

    /// A file a request names, as the request file names it; listed when it does not exist.
    private func reference(_ source: String, at place: PostmanValue) -> String {
        let reference = fileReference(source)
        if !reference.exists {
            notes.warn("\(owner): the file '\(source)' does not exist: runner validate will say so until it does", at: place,
                       suggestion: "put the file at \(reference.path)\(reference.path.hasPrefix("/") ? "" : ", relative to the request file"), or change the path there")
        }
        return reference.path
    }

    /// GraphQL variables, a JSON text in Postman, as a mapping whose strings are templates; nil when empty or not an
    /// object (listed).
    private func graphQLVariables(_ variables: PostmanValue?, listing: Bool = true) -> JSONValue? {
        guard let variables, let text = variables.text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard let json = try? JSONValue.parse(text), case .object = json, let converted = convert(json, at: variables) else {
            if listing { notes.warn("\(owner): the GraphQL variables are not a JSON object: left out", at: variables) }
            return nil
        }
        return converted
    }
}
