import Foundation
public import HTTPCore
public import YAML
import OpenAPIContract

/// A curl command read as a request file.
public struct ImportedRequest: Sendable {
    public var command: Int
    public var document: RequestDocument
}

/// Translates a parsed curl command into a request document.
///
/// Choices (docs/interop.md describes them): a body is `json:` when `--json` gave it, when the Content-Type says JSON,
/// or when it parses as a JSON object or list and no Content-Type is given; `form:` when it is `name=value` pairs sent
/// as a form; `text:` otherwise (with the Content-Type curl would send). Query strings are split into `query:`, `+`
/// read as a space. Secrets are written as they were, with a warning suggesting a `secrets:` entry, or, given
/// `SecretReferences`, as references to secrets (`{{ token }}`).
public struct CurlTranslation {
    /// Where a file named by the command (`-F name=@photo.png`, `-d @body.json`) is, as the request file must name it.
    public var filePath: @Sendable (String) -> String
    private var warnings: [InteropProblem] = []
    private let command: CurlCommand
    /// The secrets credentials are written as; nil writes them as they were, each with a warning.
    private var references: SecretReferences?
    /// The user and the password's reference of a URL's credentials, taken out of it when written as a secret.
    private var urlCredentials: (user: String, password: String, forms: [String], mark: Mark)?

    private init(_ command: CurlCommand, filePath: @escaping @Sendable (String) -> String, references: SecretReferences?) {
        self.command = command
        self.filePath = filePath
        self.references = references
    }

    /// The request file for `command`, adding to `warnings` what was not translated and what looks like a secret;
    /// throws at the first part that cannot become one, the warnings found before it added. Given `references`, each
    /// credential is written as one of them instead.
    public static func translate(_ command: CurlCommand, filePath: @escaping @Sendable (String) -> String = { $0 },
                                 warnings: inout [InteropProblem], references: inout SecretReferences?) throws(InteropProblem) -> RequestDocument {
        var translation = CurlTranslation(command, filePath: filePath, references: references)
        defer {
            warnings += translation.warnings
            references = translation.references
        }
        return try translation.document()
    }

    /// `values`, credentials the file writes, called `secret` (its name and environment variable): references to
    /// secrets when the translation writes them, else the values, with the warning `message` at `mark` (whose quoted line
    /// hides `hidden`).
    private mutating func written(_ values: [String], as secret: (name: String, variable: String), warning message: String, at mark: Mark,
                                  hiding hidden: [String]) -> [String] {
        // An empty value, or one the command already writes as a template, is no credential to hide or refer to.
        guard values.contains(where: Self.isCredential) else { return values }
        let hidden = hidden.filter(Self.isCredential)
        guard references != nil else {
            warn(message, at: mark, suggestion: RequestDocument.secretSuggestion(secret.name, env: secret.variable), hiding: hidden)
            return values
        }
        return values.map { references!.reference(to: $0, suggested: secret, forms: hidden) }
    }

    /// `written` for one credential.
    private mutating func written(_ value: String, as secret: (name: String, variable: String), warning message: String, at mark: Mark,
                                  hiding hidden: [String]) -> String {
        written([value], as: secret, warning: message, at: mark, hiding: hidden)[0]
    }

    /// Whether `value` may be a credential: not empty, and no template (`{{ k }}`) the command already writes.
    private static func isCredential(_ value: String) -> Bool {
        !value.isEmpty && !value.contains("{{")
    }

    /// Adds a warning; `hiding` the credentials it is about, which its quoted line must not show.
    private mutating func warn(_ message: String, at mark: Mark, suggestion: String? = nil, hiding hidden: [String] = []) {
        var warning = InteropProblem(message, at: mark, suggestion: suggestion)
        warning.hidden = hidden
        warnings.append(warning)
    }

    private mutating func document() throws(InteropProblem) -> RequestDocument {
        try checkGetRequest()
        let (url, path, query) = try target()
        var headers = try headerFields()
        let method = command.method?.text ?? (command.head ? "HEAD" : command.uploadFile != nil ? "PUT" : command.dataInQuery ? "GET"
            : command.data.isEmpty && command.formParts.isEmpty ? "GET" : "POST")
        var document = RequestDocument(name: "\(method) \(path.isEmpty ? "/" : path)", method: method, url: url)
        document.query = query
        if let upload = command.uploadFile {
            // curl sends the file with -G too, and refuses it beside data, which -G would put into the query.
            document.body = .file(try uploadedFile(upload))
            noteUploadContentType(upload, headers: headers)
        } else if command.dataInQuery {
            noteBodyHeaders(headers)
            addJSONHeaders(to: &headers)
        } else {
            document.body = try body(headers: &headers)
        }
        // curl sends -u's credentials, or a bearer token, in place of the URL's.
        document.auth = auth(headers: &headers)
        // (Taken out of the URL only when credentials are written as secrets.)
        if let url = urlCredentials, references != nil {
            if document.auth == nil {
                let password = references!.reference(to: url.password, suggested: RequestDocument.secretName("password"), forms: url.forms)
                document.auth = .basic(username: url.user, password: password)
            } else {
                references!.hide(url.forms)
                warn("the URL's credentials are left out: curl sends those of -u or the bearer token instead", at: url.mark, hiding: url.forms)
            }
        }
        document.headers = headers.map { ($0.name, $0.value) }
        document.options = try options()
        noteTemplates(in: document)
        return document
    }

    /// Throws when `--no-head` (which curl reads as asking for GET) is given beside what asks for another method: `-I`,
    /// `-T`, `-F` or data sent as a body, which curl refuses.
    private func checkGetRequest() throws(InteropProblem) {
        guard let get = command.getRequest else { return }
        let other = command.head ? "-I asks for HEAD" : command.uploadFile != nil ? "-T asks for PUT"
            : !command.formParts.isEmpty || (!command.data.isEmpty && !command.dataInQuery) ? "the data asks for POST" : nil
        guard let other else { return }
        throw InteropProblem("'\(get.text)' asks for a GET request, and \(other): curl refuses the two together", at: get.mark,
                             suggestion: "remove '\(get.text)'")
    }

    // MARK: URL

    /// The URL (with `-G`'s data in its query) without its query, its path, and the query's parameters (repeated names
    /// as lists). `{{ name }}` stays a template; a `%` that does not start an escape is written `%25`, and then the query
    /// stays in the URL, as does a query that is not `name=value` pairs.
    private mutating func target() throws(InteropProblem) -> (url: String, path: String, query: [(name: String, values: [String])]) {
        guard let written = command.urls.first else {
            throw InteropProblem("no URL: curl needs the address to send the request to", at: command.mark,
                                 suggestion: "add the URL, such as curl 'https://api.example.com/users'")
        }
        if command.urls.count > 1 {
            throw InteropProblem("a second URL ('\(command.urls[1].text)'): a request file sends one request", at: command.urls[1].mark,
                                 suggestion: "give each URL its own curl command (one per line)")
        }
        let templates = TemplateTokens(command.dataInQuery ? Self.appendingQuery(try queryData(), to: written.text) : written.text)
        let escaped = Self.escapingLonePercents(templates.text)
        let text = escaped.text.contains("://") ? escaped.text : "http://" + escaped.text
        guard var components = PercentEncoding.components(ofURL: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else {
            throw InteropProblem("'\(written.text)' is not an http or https URL", at: written.mark,
                                 suggestion: "write it like https://api.example.com/users")
        }
        components.fragment = nil
        if let upload = command.uploadFile, components.percentEncodedPath.isEmpty || components.percentEncodedPath.hasSuffix("/") {
            // curl adds the uploaded file's name to a URL that names no file.
            let name = upload.text.split(separator: "/").last.map(String.init) ?? upload.text
            components.percentEncodedPath = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
                + PercentEncoding.encode(name)
        }
        var query: [(name: String, values: [String])] = []
        noteEncodedCharacters(in: templates.text, at: written.mark)
        if let lone = escaped.lone {
            warn("'\(lone)' is not a percent-escape: its '%' is written %25 (curl sends it as it is; runner sends a valid URL)",
                 at: written.mark, suggestion: "write %25 for a percent sign, or the escape you meant")
        }
        if let encoded = components.percentEncodedQuery, !encoded.isEmpty {
            if escaped.lone == nil, let fields = Self.formFields(encoded) {
                query = Self.grouped(fields).map { (templates.restored($0.name), $0.values.map(templates.restored)) }
                components.percentEncodedQuery = nil
                // A query item named like a credential (`?token=…`) is one written into the file.
                for (index, item) in query.enumerated() where CredentialNames.isSecretField(item.name) {
                    query[index].values = self.written(item.values, as: RequestDocument.secretName(item.name),
                                                       warning: "the query item '\(item.name)' is written as it was", at: written.mark, hiding: item.values)
                }
            } else {
                warn("the query string is kept in the URL: it is not name=value pairs that decode", at: written.mark)
            }
        }
        if let encoded = components.percentEncodedPassword {
            let password = templates.restored(components.password ?? encoded)
            let forms = [templates.restored(encoded), password].filter(Self.isCredential)
            if references != nil, Self.isCredential(password) {
                // Sent as Basic auth, as runner sends a URL's credentials (a reference is no part of a URL), unless `-u` or
                // a bearer token gives the auth: `document()` decides.
                urlCredentials = (templates.restored(components.user ?? ""), password, forms, written.mark)
                components.percentEncodedUser = nil
                components.percentEncodedPassword = nil
            } else if Self.isCredential(password) {
                warn("the URL holds a password, written as it was", at: written.mark, suggestion: RequestDocument.secretSuggestion("password"),
                     hiding: forms)
            }
        }
        return (templates.restored(components.string ?? text), templates.restored(components.percentEncodedPath), query)
    }

    /// Warns when the path or query of `url` holds characters curl sends as written (`-g '?f[name]=x'`, `|`, `é`) and
    /// runner percent-encodes, since it sends only valid URLs, whether they stay in the URL or become `query:` items.
    private mutating func noteEncodedCharacters(in url: String, at mark: Mark) {
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let target = afterScheme.drop { !"/?#".contains($0) }.prefix { $0 != "#" }
        var found: [Character] = []
        for character in target where (!character.isASCII || Self.encodedInURLs.contains(character)) && !found.contains(character) {
            found.append(character)
        }
        guard !found.isEmpty else { return }
        let shown = found.map { "'\($0)'" }.joined(separator: ", ")
        let encoded = found.map { PercentEncoding.encode(String($0)) }.joined(separator: ", ")
        warn("\(shown) in the URL: runner sends \(found.count == 1 ? "it" : "them") percent-encoded (\(encoded)), as it sends only "
             + "valid URLs; curl sends \(found.count == 1 ? "it" : "them") as written", at: mark,
             suggestion: "servers usually decode both alike; if this one does not, runner cannot send the URL as curl does")
    }

    /// The ASCII characters curl sends in a URL's path and query as written, and runner percent-encodes (as it does
    /// every character that is not ASCII).
    private static let encodedInURLs: Set<Character> = ["[", "]", "{", "}", "|", "^", "`", "\"", "<", ">", "\\"]

    /// `url` with `query` added to its query as curl's `-G` adds it (after `?`, or `&` when it has one), before its
    /// fragment.
    static func appendingQuery(_ query: String, to url: String) -> String {
        guard !query.isEmpty else { return url }
        let fragment = url.firstIndex(of: "#") ?? url.endIndex
        return url[..<fragment] + (url[..<fragment].contains("?") ? "&" : "?") + query + url[fragment...]
    }

    /// `text` with each `%` that is not followed by two hex digits written `%25`, and the first such `%` and what follows.
    static func escapingLonePercents(_ text: String) -> (text: String, lone: String?) {
        var result = ""
        var lone: String?
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let escape = rest[percent...].prefix(3)
            if escape.count == 3, escape.dropFirst().allSatisfy(\.isHexDigit) {
                result += escape
                rest = rest[escape.endIndex...]
            } else {
                lone = lone ?? String(escape)
                result += "%25"
                rest = rest[rest.index(after: percent)...]
            }
        }
        return (result + rest, lone)
    }

    /// `a=1&b=x%20y&b=z` as decoded pairs (`+` as a space); nil when a piece has no `=` (curl sends `?flag` as it is,
    /// a `query:` item `flag=`), is empty (curl sends the `&` of `a=1&`, which `form:` and `query:` leave out) or does
    /// not decode.
    static func formFields(_ encoded: String) -> [(name: String, value: String)]? {
        var fields: [(name: String, value: String)] = []
        guard !encoded.isEmpty else { return fields }
        for piece in encoded.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let name = decode(parts[0]), !name.isEmpty, let value = decode(parts[1]) else { return nil }
            fields.append((name, value))
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Pairs grouped by name in order of first appearance: a repeated name becomes a list.
    static func grouped(_ fields: [(name: String, value: String)]) -> [(name: String, values: [String])] {
        var grouped: [(name: String, values: [String])] = []
        for field in fields {
            if let index = grouped.firstIndex(where: { $0.name == field.name }) {
                grouped[index].values.append(field.value)
            } else {
                grouped.append((field.name, [field.value]))
            }
        }
        return grouped
    }

    // MARK: Headers and auth

    /// `-H`, `-A`, `-e` and `-b` as header fields, a repeated name joined into one (`; ` for cookies, `, ` otherwise).
    private mutating func headerFields() throws(InteropProblem) -> [(name: String, value: String, mark: Mark)] {
        var fields: [(name: String, value: String, mark: Mark)] = []
        func add(_ name: String, _ value: String, at mark: Mark) {
            if let index = fields.firstIndex(where: { HTTPHeaders.sameName($0.name, name) }) {
                fields[index].value += (HTTPHeaders.sameName(name, "Cookie") ? "; " : ", ") + value
            } else {
                fields.append((name, value, mark))
            }
        }
        for header in command.headers {
            if header.text.hasPrefix("@") {
                warn("'-H \(header.text)' reads headers from a file, which a request file cannot name: not translated", at: header.mark)
                continue
            }
            guard let separator = header.text.firstIndex(where: { $0 == ":" || $0 == ";" }) else {
                var problem = InteropProblem("'\(header.text)' is not a header: write 'Name: value'", at: header.mark)
                // What follows a credential header's name (`Authorization Bearer x`, its colon left out) is its value.
                let words = header.text.split(separator: " ", maxSplits: 1)
                if words.count == 2, HTTPHeaders.namesCredential(String(words[0])) { problem.hidden = [String(words[1])] }
                throw problem
            }
            let name = String(header.text[..<separator]).trimmingCharacters(in: .whitespaces)
            let value = String(header.text[header.text.index(after: separator)...]).trimmingCharacters(in: .whitespaces)
            guard HTTPMethod(name) != nil else {
                throw InteropProblem("'\(name)' is not a header name (letters, digits and !#$%&'*+-.^_`|~)", at: header.mark)
            }
            if header.text[separator] == ":" && value.isEmpty {
                warn(Self.headersCurlAdds.contains { HTTPHeaders.sameName($0, name) }
                        ? "'\(name):' removes a header curl adds by itself; runner has no equivalent: not translated"
                        : "'\(name):' sends no \(name) header (curl removes a header given without a value): not translated",
                     at: header.mark, suggestion: "write '\(name);' to send the header with an empty value")
                continue
            }
            add(name, value, at: header.mark)
        }
        // -r asks for a range, unless a Range header is written with -H (which replaces the one curl adds).
        if let range = command.range, !fields.contains(where: { HTTPHeaders.sameName($0.name, "Range") }) {
            add("Range", "bytes=" + range.text, at: range.mark)
        }
        // A Cookie header written with -H is all curl sends: it leaves the -b cookies out then.
        let cookieHeader = fields.contains { HTTPHeaders.sameName($0.name, "Cookie") }
        for cookie in command.cookies {
            guard cookie.text.contains("=") else {
                warn("'-b \(cookie.text)' reads cookies from a file, which a request file cannot name: not translated", at: cookie.mark)
                continue
            }
            guard !cookieHeader else {
                warn("'-b' cookies are not sent beside a Cookie header given with -H (curl sends the header alone): not translated",
                     at: cookie.mark, hiding: [cookie.text])
                continue
            }
            add("Cookie", cookie.text, at: cookie.mark)
        }
        for (index, field) in fields.enumerated() where CredentialNames.isSecretHeader(field.name) && !HTTPHeaders.sameName(field.name, "Authorization") {
            if HTTPHeaders.sameName(field.name, "Proxy-Authorization") {
                writeAuthorizationHeader(&fields[index])
                continue
            }
            fields[index].value = written(field.value, as: RequestDocument.secretName(named: field.name),
                                          warning: "the \(field.name) header's value is written as it was", at: field.mark, hiding: [field.value])
        }
        return fields
    }

    /// Headers curl may send without `-H` (some only with the option that asks for them: `-u`, `-b`, `-e`, `-r`, data).
    private static let headersCurlAdds = ["Host", "User-Agent", "Accept", "Accept-Encoding", "Content-Type", "Content-Length", "Expect",
                                          "Transfer-Encoding", "Authorization", "Cookie", "Referer", "Range", "Connection"]

    /// `auth:` from `-u`, `--oauth2-bearer`, or an `Authorization: Bearer`/`Basic` header (which it replaces); a header
    /// given beside `-u` stays a header, as curl sends it instead.
    /// Writes the credential of an Authorization (or Proxy-Authorization) header runner sends as it is, after its scheme
    /// word when it has one: a scheme alone (`Bearer`, its credential empty) is no credential.
    private mutating func writeAuthorizationHeader(_ header: inout (name: String, value: String, mark: Mark)) {
        let parts = header.value.split(separator: " ", maxSplits: 1).map(String.init)
        if parts.count == 1, Self.authorizationSchemes.contains(header.value.lowercased()) { return }
        let credential = written(parts.last ?? header.value, as: RequestDocument.secretName(named: header.name),
                                 warning: "the \(header.name) header is written as it was", at: header.mark, hiding: [parts.last ?? header.value])
        header.value = parts.count == 2 ? parts[0] + " " + credential : credential
    }

    /// Authorization scheme words (lowercased) that, written alone, give an empty credential.
    private static let authorizationSchemes: Set<String> = ["basic", "bearer", "digest", "token", "negotiate", "ntlm"]

    private mutating func auth(headers: inout [(name: String, value: String, mark: Mark)]) -> RequestDocument.Auth? {
        let headerIndex = headers.firstIndex { HTTPHeaders.sameName($0.name, "Authorization") }
        if let index = headerIndex, command.user == nil, command.bearer == nil {
            let header = headers[index]
            let parts = header.value.split(separator: " ", maxSplits: 1).map(String.init)
            let scheme = parts.first?.lowercased()
            if parts.count == 2, scheme == "bearer" {
                headers.remove(at: index)
                return .bearer(written(parts[1], as: RequestDocument.secretName("token"), warning: "the bearer token is written as it was",
                                       at: header.mark, hiding: [parts[1]]))
            }
            if parts.count == 2, scheme == "basic", let data = Data(base64Encoded: parts[1]),
               let credentials = String(data: data, encoding: .utf8), let colon = credentials.firstIndex(of: ":") {
                headers.remove(at: index)
                let password = String(credentials[credentials.index(after: colon)...])
                return .basic(username: String(credentials[..<colon]),
                              password: written(password, as: RequestDocument.secretName("password"), warning: "the Basic credentials are written as they were",
                                                at: header.mark, hiding: [parts[1], password]))
            }
            writeAuthorizationHeader(&headers[index])
            return nil
        }
        if let index = headerIndex { writeAuthorizationHeader(&headers[index]) }
        if let bearer = command.bearer {
            let token = written(bearer.text, as: RequestDocument.secretName("token"), warning: "the bearer token is written as it was",
                                at: bearer.mark, hiding: [bearer.text])
            if let user = command.user {
                // curl asks for Bearer auth only when given --oauth2-bearer, and then sends no Basic credentials.
                let password = user.text.firstIndex(of: ":").map { String(user.text[user.text.index(after: $0)...]) }
                warn("'-u' is not translated: with --oauth2-bearer curl sends the bearer token, not these credentials", at: user.mark,
                     suggestion: "remove '-u', or '--oauth2-bearer' to send Basic credentials", hiding: password.map { [$0] } ?? [])
            }
            return .bearer(token)
        }
        if let scheme = command.authScheme, scheme.text != "--basic" {
            // curl sends -u's credentials by another scheme, never as Basic: writing Basic auth would send the
            // password in the clear where curl does not.
            let password = command.user.flatMap { user in
                user.text.firstIndex(of: ":").map { String(user.text[user.text.index(after: $0)...]) }
            }
            warn(command.user == nil ? "'\(scheme.text)' has no equivalent in a request file: it is not translated"
                    : "'-u' is not translated: with \(scheme.text) curl sends the credentials by a scheme runner does not have, "
                    + "never as Basic auth, which would send the password in the clear",
                 at: command.user?.mark ?? scheme.mark,
                 suggestion: command.user == nil ? nil
                    : "if the server also accepts Basic auth over HTTPS, write auth: { basic: { username, password } }, the password from a secret",
                 hiding: password.map { [$0] } ?? [])
            return nil
        }
        if let user = command.user {
            guard let colon = user.text.firstIndex(of: ":") else {
                warn("'-u \(user.text)' has no password (curl would ask for it): the password is left empty", at: user.mark,
                     suggestion: "write the password into the file, or better " + RequestDocument.secretSuggestion("password"))
                return .basic(username: user.text, password: "")
            }
            let password = String(user.text[user.text.index(after: colon)...])
            return .basic(username: String(user.text[..<colon]),
                          password: written(password, as: RequestDocument.secretName("password"), warning: "the password of '-u' is written as it was",
                                            at: user.mark, hiding: [password]))
        }
        return nil
    }

    // MARK: Body

    /// The body from `-d`-style data or `-F` parts (`-T` is read before); the Content-Type header is dropped when the body key sets the same.
    private mutating func body(headers: inout [(name: String, value: String, mark: Mark)]) throws(InteropProblem) -> RequestDocument.Body? {
        if !command.formParts.isEmpty {
            if let data = command.data.first {
                throw InteropProblem("curl cannot send -F parts and data together", at: data.mark,
                                     suggestion: "keep either the -F parts or the data options")
            }
            headers.removeAll { HTTPHeaders.sameName($0.name, "Content-Type") && $0.value.lowercased().hasPrefix("multipart/form-data") }
            return .multipart(try command.formParts.map { part throws(InteropProblem) in try multipartPart(part.argument, literal: part.literal) })
        }
        guard !command.data.isEmpty else { return nil }
        let sentAsJSON = command.data.contains { $0.kind == .json }
        if sentAsJSON, !headers.contains(where: { HTTPHeaders.sameName($0.name, "Accept") }) {
            headers.append(("Accept", "application/json", command.mark))
        }
        let contentTypeIndex = headers.firstIndex { HTTPHeaders.sameName($0.name, "Content-Type") }
        if let file = try fileBody() {
            // The Content-Type curl sends with a file's data: JSON for --json, a form's for -d and --data-binary.
            if contentTypeIndex == nil {
                headers.append(("Content-Type", sentAsJSON ? "application/json" : "application/x-www-form-urlencoded", command.mark))
            }
            return .file(file)
        }
        let contentType = contentTypeIndex.map { headers[$0].value.lowercased() }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        let text = try dataText()
        if sentAsJSON || contentType?.contains("json") == true || contentType == nil,
           let value = try? JSONValue.parse(text), sentAsJSON || contentType != nil || value.isListOrObject {
            guard let changed = JSONNumbers.firstChanged(in: text) else {
                if contentType == "application/json", let index = contentTypeIndex { headers.remove(at: index) }
                return .json(secretMembers(of: value, in: text, at: command.data[0].mark))
            }
            // Kept as text, as written: its credentials too, each with its warning.
            let writing = references
            references = nil
            _ = secretMembers(of: value, in: text, at: command.data[0].mark)
            references = writing
            warn(JSONNumbers.keptAsText(because: changed), at: command.data[0].mark)
        } else if !sentAsJSON, contentType == nil || mediaType == "application/x-www-form-urlencoded",
                  let fields = Self.formFields(text).map(Self.grouped) {
            // A type with parameters (a browser's `; charset=UTF-8`) is kept: the request file sends it as written.
            if contentType?.contains(";") != true, let index = contentTypeIndex { headers.remove(at: index) }
            // Each field is placed at the data option that gives it (`-d a=1 --data-urlencode token=…`).
            let data = command.data
            return .form(secretFields(fields, sent: text) { name in
                data.first { $0.value.hasPrefix(name + "=") || $0.value.contains("&" + name + "=") }?.mark ?? data[0].mark
            })
        }
        if contentType == nil {
            headers.append(("Content-Type", sentAsJSON ? "application/json" : "application/x-www-form-urlencoded", command.mark))
        }
        if sentAsJSON || mediaType.map(OpenAPIContractMedia.isJSON) == true {
            do { _ = try JSONValue.parse(text) } catch {
                warn("the data is not JSON (\(error)): it is kept as text:, sent as written", at: command.data[0].mark,
                     suggestion: "correct the JSON in the request file, and write it under json:")
            }
        }
        return .text(text)
    }

    /// The path of the `-T` file as the request file names it; throws beside data or form parts (curl sends the file
    /// alone) and for standard input.
    private func uploadedFile(_ upload: CurlArgument) throws(InteropProblem) -> String {
        if let other = command.data.first?.mark ?? command.formParts.first?.argument.mark {
            throw InteropProblem("'-T \(upload.text)' uploads a file, and data or form parts are given too: a request file sends one body",
                                 at: other, suggestion: "keep either -T or the data options")
        }
        if command.head {
            throw InteropProblem("'-T \(upload.text)' uploads a file, and -I sends a HEAD request, which has no body: curl refuses "
                                 + "the two together", at: upload.mark, suggestion: "keep either -T or -I")
        }
        guard upload.text != "-", upload.text != "." else {
            throw InteropProblem("'-T \(upload.text)' uploads standard input, which a request file cannot", at: upload.mark,
                                 suggestion: "save the body in a file and write '-T FILE'")
        }
        return filePath(upload.text)
    }

    /// Warns that a `-T` file sent without a `Content-Type` header gets one: curl sends none, and a `file:` body sends
    /// `application/octet-stream` unless a header gives another (a request file cannot send none).
    private mutating func noteUploadContentType(_ upload: CurlArgument, headers: [(name: String, value: String, mark: Mark)]) {
        guard !headers.contains(where: { HTTPHeaders.sameName($0.name, "Content-Type") }) else { return }
        warn("'-T \(upload.text)' sends the file without a Content-Type; the request file's file: body sends "
             + "Content-Type: application/octet-stream (a request file cannot send none)", at: upload.mark,
             suggestion: "if the server reads the type, give the one it expects: -H 'Content-Type: TYPE' in the command, or headers: in the file")
    }

    /// A `-d @file`, `--data-binary @file` or `--json @file` body, the only data option given; nil without one.
    private mutating func fileBody() throws(InteropProblem) -> String? {
        guard let reference = command.data.first(where: \.readsFile) else {
            return nil
        }
        let path = String(reference.value.dropFirst())
        guard command.data.count == 1 else {
            throw InteropProblem("'@\(path)' reads a file, and other data options are given too: a request file sends one file as its body",
                                 at: reference.mark, suggestion: "put all the data in the file, or write it in the command")
        }
        guard path != "-" else {
            throw InteropProblem("'@-' reads the body from standard input, which a request file cannot", at: reference.mark,
                                 suggestion: "save the body in a file and write '@FILE'")
        }
        if reference.kind == .ascii {
            warn("'-d @\(path)' sends the file without its line breaks; the request file sends it as it is", at: reference.mark,
                 suggestion: "curl's --data-binary @\(path) sends what runner sends")
        }
        return filePath(path)
    }

    /// The data options joined as curl joins them: with `&`, except `--json` pieces, which are concatenated.
    private func dataText() throws(InteropProblem) -> String {
        let pieces = try command.data.map { data throws(InteropProblem) in try sentText(of: data) }
        return command.data.allSatisfy { $0.kind == .json } ? pieces.joined() : pieces.joined(separator: "&")
    }

    /// The text curl sends for one data option: its value, or for `--data-urlencode` the value encoded.
    private func sentText(of data: CurlData) throws(InteropProblem) -> String {
        data.kind == .urlencode ? try Self.urlencoded(data) : data.value
    }

    /// The data `-G` puts into the URL's query, as curl sends it; throws when a piece reads a file.
    private func queryData() throws(InteropProblem) -> String {
        if let file = command.data.first(where: \.readsFile) {
            throw InteropProblem("'\(file.value)' reads a file, which a request file cannot put into the query", at: file.mark,
                                 suggestion: "write the query in the command")
        }
        return try dataText()
    }

    /// Warns about a Content-Type header when `-G` leaves no body for it to describe; it is kept, as curl sends it.
    /// With `-G`, the headers `--json` sends all the same (curl adds them whatever becomes of the data), unless given.
    private func addJSONHeaders(to headers: inout [(name: String, value: String, mark: Mark)]) {
        guard let json = command.data.first(where: { $0.kind == .json }) else { return }
        for name in ["Accept", "Content-Type"] where !headers.contains(where: { HTTPHeaders.sameName($0.name, name) }) {
            headers.append((name, "application/json", json.mark))
        }
    }

    private mutating func noteBodyHeaders(_ headers: [(name: String, value: String, mark: Mark)]) {
        guard let contentType = headers.first(where: { HTTPHeaders.sameName($0.name, "Content-Type") }) else { return }
        warn("'Content-Type: \(contentType.value)' describes a body, and -G sends none: the header is kept, as curl sends it",
             at: contentType.mark, suggestion: "remove the header if the server does not need it")
    }

    /// A `--data-urlencode` value as curl sends it: `content` and `=content` as the content percent-encoded,
    /// `name=content` as the name as written (curl expects it encoded already), `=` and the encoded content.
    private static func urlencoded(_ data: CurlData) throws(InteropProblem) -> String {
        if let at = data.value.firstIndex(of: "@"), !data.value[..<at].contains("=") {
            throw InteropProblem("'--data-urlencode \(data.value)' reads a file, which a request file cannot encode", at: data.mark,
                                 suggestion: "write the value in the command: --data-urlencode 'name=value'")
        }
        guard let equals = data.value.firstIndex(of: "=") else { return urlencodedValue(data.value) }
        let content = urlencodedValue(String(data.value[data.value.index(after: equals)...]))
        return equals == data.value.startIndex ? content : data.value[..<equals] + "=" + content
    }

    /// Percent-encodes a value as curl's `--data-urlencode` does: letters, digits and `-._~` as they are, a space as `+`,
    /// every other byte as `%XX`.
    private static func urlencodedValue(_ text: String) -> String {
        PercentEncoding.encode(text).replacingOccurrences(of: "%20", with: "+")
    }

    /// A `-F` or `--form-string` part: `name=value`, `name=@file` or `name=<file`, each word double-quoted or not, with
    /// `;type=T` and curl's other attributes after it (see `CurlFormContent`).
    private mutating func multipartPart(_ argument: CurlArgument, literal: Bool) throws(InteropProblem) -> RequestDocument.MultipartPart {
        guard let equals = argument.text.firstIndex(of: "="), equals != argument.text.startIndex else {
            throw InteropProblem("'\(argument.text)' is not a form part: write name=value or name=@file", at: argument.mark)
        }
        let name = String(argument.text[..<equals])
        let content = argument.text[argument.text.index(after: equals)...]
        if literal {
            return RequestDocument.MultipartPart(name: name, value: secretFields([(name, [String(content)])], sent: "") { _ in argument.mark }[0].values[0])
        }
        let reference = content.first.flatMap { $0 == "@" || $0 == "<" ? $0 : nil }
        let form = CurlFormContent(reference == nil ? content : content.dropFirst(), isFile: reference == "@")
        if form.moreFiles {
            warn("'\(argument.text)' names several files for the part '\(name)', which curl sends as one multipart/mixed part "
                 + "and a request file cannot write: only the first, '\(form.word)', is kept", at: argument.mark)
        }
        if form.trailingText {
            warn("text after the closing quote of '\(name)' is left out, as curl leaves it out", at: argument.mark)
        }
        for attribute in form.attributes {
            if attribute.key != "type" {
                warn("';\(attribute.text)' in a form part has no equivalent (\(Self.untranslatedReason(attribute.key, file: reference != nil))): "
                     + "not translated", at: argument.mark)
            } else if reference == nil {
                warn("';type=\(attribute.value)' of the value part '\(name)' is not translated: a request file gives a type to file parts "
                     + "only (curl sends this part with Content-Type: \(attribute.value), runner with none)", at: argument.mark,
                     suggestion: "if the server needs the type, save the value in a file and send it as a file part with contentType")
            }
        }
        guard let reference else {
            return RequestDocument.MultipartPart(name: name, value: secretFields([(name, [form.word])], sent: "") { _ in argument.mark }[0].values[0])
        }
        if reference == "<" {
            warn("'<\(form.word)' sends the file's content as a field; the request file sends it as a file part", at: argument.mark)
        }
        let contentType = form.attributes.last { $0.key == "type" }?.value
        return RequestDocument.MultipartPart(name: name, file: filePath(form.word), contentType: contentType ?? RequestDocument.MultipartPart.curlContentType(ofFile: form.word))
    }

    /// Why a part's attribute other than `type=` is not translated (`file`: of a file part).
    private static func untranslatedReason(_ key: String, file: Bool) -> String {
        switch key {
        case "filename": file ? "the part's filename is the file's name" : "a request file gives a value part no filename"
        case "headers": "a request file sets no headers of a part"
        case "encoder": "runner sends the part as it is, without a Content-Transfer-Encoding"
        default: "curl itself skips an attribute it does not know"
        }
    }

    /// `fields` with the values of those whose names say they hold a credential `written`: each warned about at the
    /// place `mark` gives for its name, hiding its values as decoded and as `sent` (the encoded form data).
    private mutating func secretFields(_ fields: [(name: String, values: [String])], sent: String,
                                       at mark: (String) -> Mark) -> [(name: String, values: [String])] {
        var fields = fields
        for (index, field) in fields.enumerated() where CredentialNames.isSecretField(field.name) {
            let encoded = sent.split(separator: "&").compactMap { piece -> String? in
                let parts = piece.split(separator: "=", maxSplits: 1)
                return parts.count == 2 && Self.decode(parts[0]) == field.name ? String(parts[1]) : nil
            }
            fields[index].values = written(field.values, as: RequestDocument.secretName(field.name),
                                           warning: "the form field '\(field.name)' is written as it was", at: mark(field.name),
                                           hiding: field.values + encoded)
        }
        return fields
    }

    /// `value` with the JSON members whose names say they hold a credential (`"password": "…"`, `"pin": 1234`) `written`,
    /// hiding their values: a string as it is and escaped, a number as the JSON text `text` writes it. A number stays
    /// as it is, with its warning: a secret, read from the process environment, is text.
    private mutating func secretMembers(of value: JSONValue, in text: String, at mark: Mark) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { secretMembers(of: $0, in: text, at: mark) })
        case .object(let object):
            var written = object
            for (name, member) in object.members {
                switch member {
                case .string(let value) where CredentialNames.isSecretField(name):
                    written[name] = .string(self.written(value, as: RequestDocument.secretName(name), warning: "the JSON member '\(name)' is written as it was",
                                                         at: mark, hiding: [value, JSONValue.stringContents(value)]))
                case .int where CredentialNames.isSecretField(name), .double where CredentialNames.isSecretField(name):
                    warn("the JSON member '\(name)' is written as it was", at: mark, suggestion: RequestDocument.secretSuggestion(name),
                         hiding: CredentialNames.numberLiterals(of: name, in: text))
                default:
                    written[name] = secretMembers(of: member, in: text, at: mark)
                }
            }
            return .object(written)
        default:
            return value
        }
    }

    // MARK: Options

    /// `options:` from `-k`, `-L` (`followRedirects: false` without it, as curl does not follow them), `--max-redirs`, `-m`
    /// and `-x`.
    private mutating func options() throws(InteropProblem) -> [(key: String, value: YAMLNode)] {
        var options: [(key: String, value: YAMLNode)] = []
        if let maxTime = command.maxTime {
            guard let seconds = Double(maxTime.text), seconds > 0, seconds <= 168 * 3600 else {
                throw InteropProblem("'-m \(maxTime.text)' is not a number of seconds", at: maxTime.mark)
            }
            options.append(("timeout", .scalar(JSONValue.double(seconds).interpolatedText + "s")))
        }
        // curl follows redirects only with -L (or --location-trusted), and not after a later --no-location.
        options.append(("followRedirects", .scalar(command.followsRedirects ? "true" : "false")))
        if command.followsRedirects {
            if let trusted = command.trustedRedirects {
                warn("'\(trusted.text)' is translated as followRedirects: true, which does not send the credentials to another host "
                     + "a redirect leads to, as curl does with it", at: trusted.mark,
                     suggestion: "if the other host needs them, request it in a request file of its own")
            }
        }
        if let maxRedirects = command.maxRedirects {
            guard let count = Int(maxRedirects.text), count >= 0 else {
                throw InteropProblem("'--max-redirs \(maxRedirects.text)' is not a number of redirects", at: maxRedirects.mark)
            }
            options.append(("maxRedirects", .scalar(String(count))))
        }
        if command.insecure { options.append(("insecure", .scalar("true"))) }
        if let proxy = command.proxy {
            let password = URLCredentials.password(of: proxy.text, proxy: true)
            if case .failure(let problem) = HTTPProxy.parse(proxy.text) {
                // A SOCKS proxy, say: a file validate would refuse is not written.
                warn("the proxy is not translated: it is not a proxy URL runner sends through (\(problem))", at: proxy.mark,
                     hiding: password.map { [$0] } ?? [])
                return options
            }
            options.append(("proxy", .string(proxy.text.contains("://") ? proxy.text : "http://" + proxy.text)))
            if let password {
                warn("the proxy's password is written as it was", at: proxy.mark,
                     suggestion: "keep it out of the file: remove 'proxy' and give the proxy when running (--proxy, or HTTPS_PROXY)",
                     hiding: [password])
            }
        }
        return options
    }

    /// Warns once when a written value holds `{{`, which runner reads as a template.
    private mutating func noteTemplates(in document: RequestDocument) {
        // The references to secrets the translation writes are templates too, but not the command's.
        guard references == nil ? document.yaml.contains("{{") : command.templateMark != nil else { return }
        warn("'{{' in the command starts a template in a request file: each {{ name }} must be a variable of the environment",
             at: command.templateMark ?? command.mark, suggestion: "define the variables in the environment, or pass them with --var NAME=VALUE")
    }
}

extension JSONValue {
    /// Whether the value is an object or a list.
    var isListOrObject: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

/// The `{{ … }}` templates of a URL as written, replaced by letters a URL keeps as they are while it is read, then put
/// back.
struct TemplateTokens {
    /// The text with each template as a token.
    let text: String
    /// Each token and the template it stands for.
    private let templates: [(token: String, template: String)]

    init(_ written: String) {
        var text = ""
        var templates: [(token: String, template: String)] = []
        var rest = Substring(written)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let token = "runnertemplate\(templates.count)token"
            text += rest[..<open.lowerBound] + token
            templates.append((token, String(rest[open.lowerBound..<close.upperBound])))
            rest = rest[close.upperBound...]
        }
        self.text = text + rest
        self.templates = templates
    }

    /// `text` with the tokens as the templates they stand for.
    func restored(_ text: String) -> String {
        templates.reduce(text) { $0.replacingOccurrences(of: $1.token, with: $1.template) }
    }
}
