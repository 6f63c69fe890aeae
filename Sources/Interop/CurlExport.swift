import Foundation
public import HTTPCore

/// A request as `export curl` writes it, with what the built request does not keep.
public struct ExportedRequest: Sendable {
    /// The request with its templates resolved (secrets and captures as placeholders).
    public var request: HTTPRequest
    /// A `file:` body, as the path curl reads it from; the request's body is then not written.
    public var bodyFile: String?
    /// The timeout written in the request or its environment; nil when it is runner's default.
    public var timeout: Duration?
    /// Whether `maxRedirects` was written (curl's own limit is 50, runner's 10).
    public var writesMaxRedirects: Bool
    /// How many of the URL's last query items `query:` and the environment added (runner encodes their values as query
    /// values; the query the `url:` writes is encoded as a URL).
    public var appendedQueryItems: Int

    public init(request: HTTPRequest, bodyFile: String? = nil, timeout: Duration? = nil, writesMaxRedirects: Bool = false,
                appendedQueryItems: Int = 0) {
        self.request = request
        self.bodyFile = bodyFile
        self.timeout = timeout
        self.writesMaxRedirects = writesMaxRedirects
        self.appendedQueryItems = appendedQueryItems
    }
}

/// Writes a request as one curl command: method, URL, headers, auth, body and the options curl has.
public struct CurlExport {
    /// Turns resolved text into shell words, hiding placeholders and secret values behind variables.
    public var placeholders: ValuePlaceholders
    /// How a file the request reads is named in the command (relative to the current directory, when under it).
    public var displayPath: @Sendable (String) -> String
    /// The OAuth2 token variable, for requests whose auth fetches one.
    public static let oauth2TokenVariable = "OAUTH2_TOKEN"

    public init(placeholders: ValuePlaceholders, displayPath: @escaping @Sendable (String) -> String = { $0 }) {
        self.placeholders = placeholders
        self.displayPath = displayPath
    }

    /// The command, as lines joined by ` \`, and a comment line before it when its auth needs one.
    public func command(for exported: ExportedRequest) -> (text: String, variables: [String]) {
        if let name = partNameCurlCannotSend(exported) {
            let why = name.variables.isEmpty ? "holds '='" : "is known only when the command runs, and may hold '='"
            return (ShellText.comment("not written: curl cannot send the multipart part named '\(name.displayed)', which \(why): its -F "
                                      + "and --form-string end a part's name at its first '=' (runner run sends the name whole)"),
                    name.variables)
        }
        if holdsNULOnTheCommandLine(exported) {
            return (ShellText.comment("not written: the body holds a NUL byte, which no command line can pass (runner run sends "
                                      + "it): send the body from a file with --data-binary @FILE"), [])
        }
        if proxyCredentialsHoldControlCharacters(exported) {
            return (ShellText.comment("not written: the proxy's user or password holds a control character, which curl does not "
                                      + "send: it skips such a proxy without a word (runner run sends them)"), [])
        }
        let request = exported.request
        var words: [[ShellText]] = []
        var comments: [String] = []
        var commentVariables: [String] = []
        let body = bodyWords(exported)
        switch (request.method.rawValue, !body.isEmpty) {
        case ("GET", false), ("POST", true): break
        case ("HEAD", false): words.append([.literal("--head")])
        default: words.append([.literal("-X"), .literal(request.method.rawValue)])
        }
        words.append([urlWord(exported)])
        var headers = request.headers
        // curl writes the multipart Content-Type itself, with the boundary of the parts it sends.
        if !(request.body is MultipartBody) { headers.addMissing(from: request.body.additionalHeaders) }
        // The headers runner drops on a hop to another origin (credentials, and those holding a secret) that curl sends there.
        let droppedByRunner = Set(request.headersKeptFromOtherOrigins.map { $0.lowercased() })
        var keptByCurl: [String] = []
        for header in headers {
            // curl drops a header written `Name: ` with nothing after it; `Name;` is how it sends one empty.
            let field = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            let text = placeholders.shellText(field)
            words.append([.literal("-H"), text])
            let name = header.name.lowercased()
            if !Self.droppedByCurlOnARedirect.contains(name),
               droppedByRunner.contains(name) || !placeholders.secretVariables.isDisjoint(with: text.variables) {
                keptByCurl.append(header.name)
            }
        }
        // curl sends the body again on a 307 or 308 (and on a 301 or 302 after another method than POST).
        let bodyHoldsCredential = request.options.bodyHoldsCredential
            || body.joined().contains { !placeholders.secretVariables.isDisjoint(with: $0.variables) }
        let followsRedirects = request.options.followRedirects && keptByCurl.isEmpty && !bodyHoldsCredential
        if request.options.followRedirects, !keptByCurl.isEmpty {
            comments.append(ShellText.comment("-L left out: curl would send \(keptByCurl.uniquedInOrder().joined(separator: ", ")) to "
                                              + "another origin a redirect leads to, where runner run drops credentials and headers "
                                              + "holding a secret; follow a redirect by hand"))
        } else if request.options.followRedirects, bodyHoldsCredential {
            comments.append(ShellText.comment("-L left out: curl would send the body, which holds a secret or a credential, to another origin a "
                                              + "307 or 308 redirect leads to, where runner run refuses to follow; follow a redirect by hand"))
        }
        // A request whose headers set Authorization is sent with that header alone: its auth adds none (AuthLoader).
        let auth: AuthMethod = request.headers.contains("Authorization") ? .none : request.options.auth
        switch auth {
        case .none: break
        case let .basic(username, password): words.append([.literal("-u"), placeholders.shellText("\(username):\(password)")])
        case .bearer(let token):
            words.append([.literal("-H"), placeholders.shellText("Authorization: Bearer \(token)")])
        case .oauth2ClientCredentials(let credentials):
            let comment = oauth2Comment(credentials)
            comments.append(comment.text)
            commentVariables = comment.variables
            words.append([.literal("-H"), ShellText([.literal("Authorization: Bearer "), .variable(Self.oauth2TokenVariable, .none)])])
        }
        words += body
        words += optionWords(exported, followsRedirects: followsRedirects)
        let lines = ["curl " + words[0].map(\.quoted).joined(separator: " ")]
            + words.dropFirst().map { "  " + $0.map(\.quoted).joined(separator: " ") }
        var variables = commentVariables + words.flatMap { $0.flatMap(\.variables) }
        if case .oauth2ClientCredentials = auth { variables.removeAll { $0 == Self.oauth2TokenVariable } }
        return ((comments + [lines.joined(separator: " \\\n")]).joined(separator: "\n"), variables.uniquedInOrder())
    }

    /// The URL without credentials, each reference encoded at run time as runner encodes its value there: in the path
    /// and the query the `url:` writes as in a URL, in the items `query:` and the environment add as a query value.
    private func urlWord(_ exported: ExportedRequest) -> ShellText {
        var components = exported.request.components
        components.user = nil
        components.password = nil
        let url = components.string ?? exported.request.displayURL
        guard let questionMark = url.firstIndex(of: "?") else { return placeholders.shellText(url, encoding: .urlPath) }
        // Split once, between the written query and the added items, so that a hidden value is found whole.
        let items = url[url.index(after: questionMark)...].split(separator: "&", omittingEmptySubsequences: false)
        let written = items.count - min(exported.appendedQueryItems, items.count)
        let added = items[written...].joined(separator: "&")
        let start = url[...questionMark] + items[..<written].joined(separator: "&") + (written > 0 && !added.isEmpty ? "&" : "")
        return placeholders.shellText(String(url[..<questionMark]), encoding: .urlPath)
            + placeholders.shellText(String(start.dropFirst(url.distance(from: url.startIndex, to: questionMark))), encoding: .urlQuery)
            + placeholders.shellText(added, encoding: .query)
    }

    /// Whether the body would put a NUL byte on the command line (a text body, a multipart field), where no argument can
    /// hold one: a shell drops it.
    private func holdsNULOnTheCommandLine(_ exported: ExportedRequest) -> Bool {
        guard exported.bodyFile == nil else { return false }
        switch exported.request.body {
        case let multipart as MultipartBody:
            return multipart.parts.contains { if case .field(_, let value) = $0 { value.utf8.contains(0) } else { false } }
        case is FormBody, is JSONBody, is EmptyBody: return false
        case let body: return ((try? body.encode()) ?? Data()).contains(0)
        }
    }

    /// The body as curl options: `--data-raw` for JSON and text and per form field (encoded), `--form-string` and
    /// `-F name=@file` per multipart part, `--data-binary @file` for a file; none for no body (an empty text is a body,
    /// sent with `Content-Length: 0`, as `--data-raw ''` is to curl).
    private func bodyWords(_ exported: ExportedRequest) -> [[ShellText]] {
        if let file = exported.bodyFile { return [[.literal("--data-binary"), .literal("@" + file)]] }
        let body = exported.request.body
        guard !(body is EmptyBody) else { return [] }
        if let form = body as? FormBody {
            // Encoded here as runner encodes them (curl's --data-urlencode writes a space as `+`, runner as `%20`).
            return form.fields.map { field in
                [.literal("--data-raw"), placeholders.shellText(PercentEncoding.encode(field.name) + "=" + PercentEncoding.encode(field.value),
                                                                encoding: .query)]
            }
        }
        if let multipart = body as? MultipartBody {
            return multipart.parts.map { part in
                switch part {
                case let .field(name, value):
                    return [.literal("--form-string"), placeholders.shellText("\(name)=\(value)")]
                case let .file(name, _, contentType, content):
                    let path = switch content {
                    case .file(let url): displayPath(url.path)
                    case .data: ""
                    }
                    return [.literal("-F"), placeholders.shellText("\(name)=@\"\(Self.curlQuoted(path))\"" + Self.typeAttribute(contentType))]
                }
            }
        }
        if let json = body as? JSONBody {
            return [[.literal("--data-raw"), placeholders.shellText(json.value.serialized(), encoding: .json)]]
        }
        let data = (try? body.encode()) ?? Data()
        return [[.literal("--data-raw"), placeholders.shellText(String(decoding: data, as: UTF8.self))]]
    }

    /// How `-F` gives a file part the content type `type`: `;type=T` when curl reads `T` whole (a `type/subtype` and its
    /// parameters, without a `,`, which starts another file, a quote or backslash, white space at its ends, or a parameter
    /// named as curl's own attributes, `filename=`, `headers=`, `encoder=`, `type=`), else `;headers="Content-Type: T"`,
    /// which curl sends in place of the type it would give.
    static func typeAttribute(_ type: String) -> String {
        let major = type.prefix { $0 != "/" && !$0.isWhitespace }
        let parameters = type.split(separator: ";").dropFirst().map { $0.drop { $0 == " " || $0 == "\t" }.lowercased() }
        let plain = !major.isEmpty && major.utf8.count <= 127 && type.dropFirst(major.count).first == "/"
            && type.dropFirst(major.count + 1).first.map { !";, ".contains($0) } == true
            && !type.contains { ",\"\\".contains($0) } && type.last.map { !$0.isWhitespace } == true
            && !parameters.contains { parameter in ["filename=", "headers=", "encoder=", "type="].contains { parameter.hasPrefix($0) } }
        return plain ? ";type=" + type : ";headers=\"" + curlQuoted("Content-Type: " + type) + "\""
    }

    /// `text` inside a double-quoted word of curl's `-F` (a path, an attribute), its `\` and `"` escaped.
    static func curlQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// The first multipart part name curl cannot be given, as a shell word; nil when it can be given every one. curl's
    /// `-F` and `--form-string` take a part's name up to the first `=` and have no escape for one: a name holding `=`, or
    /// a reference (a secret, a capture), whose value is read only when the command runs, cannot be written.
    private func partNameCurlCannotSend(_ exported: ExportedRequest) -> ShellText? {
        guard exported.bodyFile == nil, let multipart = exported.request.body as? MultipartBody else { return nil }
        for part in multipart.parts {
            let name = switch part {
            case .field(let name, _), .file(let name, _, _, _): placeholders.shellText(name)
            }
            if !name.variables.isEmpty || name.displayed.contains("=") { return name }
        }
        return nil
    }

    /// Whether the proxy the request goes through has a user or password holding a control character (`%0A`), with
    /// which curl sends the request without the proxy.
    private func proxyCredentialsHoldControlCharacters(_ exported: ExportedRequest) -> Bool {
        guard let proxy = exported.request.options.proxy else { return false }
        let server = exported.request.components.scheme?.lowercased() == "https" ? proxy.https : proxy.http
        return [server?.username, server?.password].contains { text in
            text?.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } == true
        }
    }

    /// The headers curl itself leaves out on a redirect to another origin (since 7.83 for another port or scheme too); it
    /// sends every other header it is given there.
    private static let droppedByCurlOnARedirect: Set<String> = ["authorization", "cookie"]

    /// `-L` (when `followsRedirects`), `--max-redirs`, `-k`, `--max-time`, `--proxy` (with `--proxytunnel` for an
    /// `http://` target, which runner sends through a `CONNECT` tunnel as curl does only so), `--cacert`,
    /// `--cert`/`--key`/`--pass`.
    private func optionWords(_ exported: ExportedRequest, followsRedirects: Bool) -> [[ShellText]] {
        let options = exported.request.options
        var words: [[ShellText]] = []
        if followsRedirects {
            words.append([.literal("-L")])
            if exported.writesMaxRedirects { words.append([.literal("--max-redirs"), .literal(String(options.maxRedirects))]) }
        }
        if options.insecure { words.append([.literal("-k")]) }
        if let timeout = exported.timeout {
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            words.append([.literal("--max-time"), .literal(JSONValue.double(seconds).interpolatedText)])
        }
        if let proxy = options.proxy {
            let scheme = exported.request.components.scheme?.lowercased()
            if let server = scheme == "https" ? proxy.https : proxy.http {
                // The user and password percent-encoded, as a URL's user information must be (`p@ss/w0rd` would end it).
                let encoded = { (text: String) in ShellEncoding.query.encode(text) }
                let credentials = server.username.map { user in encoded(user) + (server.password.map { ":" + encoded($0) } ?? "") + "@" } ?? ""
                words.append([.literal("--proxy"),
                              placeholders.shellText("http://\(credentials)\(server.authority)", encoding: .query)])
                if scheme != "https" { words.append([.literal("--proxytunnel")]) }
            } else {
                words.append([.literal("--noproxy"), .literal("*")])
            }
        }
        for file in options.trustedCertificateFiles { words.append([.literal("--cacert"), .literal(displayPath(file))]) }
        if let client = options.clientCertificate {
            words.append([.literal("--cert"), .literal(displayPath(client.certificateFile))])
            words.append([.literal("--key"), .literal(displayPath(client.keyFile))])
            if let password = client.password { words.append([.literal("--pass"), placeholders.shellText(password)]) }
        }
        return words
    }

    /// A comment saying how to get the OAuth2 token the command sends, and the variables it refers to.
    private func oauth2Comment(_ credentials: OAuth2ClientCredentials) -> (text: String, variables: [String]) {
        var words: [ShellText] = [.literal("-u"), placeholders.shellText("\(credentials.clientID):\(credentials.clientSecret)"),
                                  .literal("-d"), .literal("grant_type=client_credentials")]
        if let scope = credentials.scope { words += [.literal("--data-urlencode"), placeholders.shellText("scope=\(scope)")] }
        words.append(placeholders.shellText(credentials.tokenURL.absoluteString, encoding: .url))
        let text = ShellText.comment("\(Self.oauth2TokenVariable): the access_token of: curl " + words.map(\.quoted).joined(separator: " "))
        return (text, words.flatMap(\.variables))
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniquedInOrder() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
