public import HTTPCore
internal import Foundation
internal import Synchronization

/// Adds credentials from `options.auth`: Basic, Bearer, or an OAuth2 client-credentials token.
///
/// A request that already carries `Authorization` is left alone. OAuth2 tokens are fetched through
/// `tokenLoader` (by default the rest of the chain), shared by every request with the same credentials,
/// reused until shortly before they expire, and dropped after a 401 so the next request fetches anew.
public struct AuthLoader: HTTPLoader {
    public let next: any HTTPLoader
    let tokenLoader: any HTTPLoader
    let tokens: OAuth2TokenStore

    /// Creates an auth loader; tokens are fetched through `tokenLoader`, or `next` when it is nil.
    public init(next: any HTTPLoader, tokenLoader: (any HTTPLoader)? = nil, tokens: OAuth2TokenStore = OAuth2TokenStore()) {
        self.next = next
        self.tokenLoader = tokenLoader ?? next
        self.tokens = tokens
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        // The request is handed on, changed in place when it needs a header: never copied.
        if case .none = request.options.auth { return try await next.load(request) }
        guard !request.headers.contains("Authorization") else { return try await next.load(request) }
        switch request.options.auth {
        case .none:
            return try await next.load(request)
        case let .basic(username, password):
            request.headers["Authorization"] = Self.basicCredentials(username, password)
            return try await next.load(request)
        case .bearer(let token):
            request.headers["Authorization"] = "Bearer \(token)"
            return try await next.load(request)
        case .oauth2ClientCredentials(let credentials):
            let (tokenLoader, options, deadline) = (self.tokenLoader, request.options, request.deadline)
            let userAgent = request.headers["User-Agent"]
            let token = try await tokens.token(for: credentials) { () async throws(HTTPError) -> OAuth2AccessToken in
                try await OAuth2AccessToken.fetch(credentials, using: tokenLoader, options: options, deadline: deadline,
                                                  userAgent: userAgent)
            }
            request.headers["Authorization"] = "\(token.type) \(token.value)"
            let response = try await next.load(request)
            if response.status == .unauthorized { await tokens.invalidate(credentials, ifValue: token.value) }
            return response
        }
    }

    /// The `Authorization` value for Basic credentials (RFC 7617).
    static func basicCredentials(_ username: String, _ password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}

/// An OAuth2 access token and when to stop using it.
public struct OAuth2AccessToken: Sendable, Hashable {
    public var value: String
    /// The scheme for `Authorization`, normally `Bearer`.
    public var type: String
    /// When the token should no longer be used; nil when the server gave no lifetime.
    public var expiresAt: ContinuousClock.Instant?
    /// Every credential the token response held (its `isCredentialMember` members: the access token, a refresh or ID
    /// token, a MAC key), which outputs hide wherever a later response shows them.
    public var revealed: [String]

    public init(value: String, type: String = "Bearer", expiresAt: ContinuousClock.Instant? = nil, revealed: [String] = []) {
        self.value = value
        self.type = type
        self.expiresAt = expiresAt
        self.revealed = revealed
    }

    /// Whether `name` names a credential of a token response (`access_token`, `refresh_token`, `id_token`, `mac_key`),
    /// in any case and with or without its `_` or as `-` (`Access_Token`, `accessToken`, `Refresh-Token`, as servers
    /// that do not follow RFC 6749 write it).
    public static func isCredentialMember(_ name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return ["accesstoken", "refreshtoken", "idtoken", "mackey"].contains(folded)
    }

    /// Whether the token may still be used at `now`.
    public func isValid(at now: ContinuousClock.Instant) -> Bool {
        expiresAt.map { now < $0 } ?? true
    }

    /// Fetches a token with the client-credentials grant, authenticating the client with Basic auth (its ID and secret
    /// each form-encoded first, as RFC 6749 section 2.3.1 says: a `:` in the ID would end it) and sending the
    /// `User-Agent` of the request it is for.
    static func fetch(
        _ credentials: OAuth2ClientCredentials, using loader: any HTTPLoader, options: HTTPRequestOptions,
        deadline: ContinuousClock.Instant? = nil, userAgent: String? = nil
    ) async throws(HTTPError) -> OAuth2AccessToken {
        var fields = [(name: "grant_type", value: "client_credentials")]
        if let scope = credentials.scope { fields.append((name: "scope", value: scope)) }
        // Through the request's proxy (`--proxy` sends every request through it) and trusting what it trusts.
        var tokenOptions = HTTPRequestOptions(timeout: options.timeout, insecure: options.insecure,
                                              maxResponseBytes: options.maxResponseBytes,
                                              trustedCertificateFiles: options.trustedCertificateFiles)
        tokenOptions.proxy = options.proxy
        tokenOptions.auth = .none
        var request = HTTPRequest(
            method: .post, url: credentials.tokenURL,
            headers: ["Accept": "application/json", "Authorization": AuthLoader.basicCredentials(PercentEncoding.encode(credentials.clientID),
                                                                                           PercentEncoding.encode(credentials.clientSecret))],
            body: FormBody(fields), options: tokenOptions)
        if let userAgent { request.headers["User-Agent"] = userAgent }
        request.deadline = deadline
        let sentAt = ContinuousClock.now
        let response = try await loader.load(request)
        return try parse(response, sentAt: sentAt)
    }

    /// Reads `access_token`, `token_type` and `expires_in` from a token response (RFC 6749 section 5.1): a JSON object,
    /// or form fields (`access_token=…&token_type=bearer`), as some servers answer whatever the `Accept`, under any
    /// `Content-Type`.
    static func parse(_ response: HTTPResponse, sentAt: ContinuousClock.Instant) throws(HTTPError) -> OAuth2AccessToken {
        let failure = { (detail: String) in
            HTTPError(.invalidResponse, request: response.request, response: response,
                      message: "the OAuth2 token request to \(response.request.displayURL) \(detail)")
        }
        guard response.status.isSuccess else {
            // RFC 6749's `error` code says why (`invalid_client`); it names no credential.
            let code = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
            let shown = code.flatMap { $0.count <= 40 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") } ? $0 : nil }
            throw failure("was refused with status \(response.status.code)" + (shown.map { " (error '\($0)')" } ?? ""))
        }
        let json = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let document = json ?? formFields(of: response.body)
        guard let value = document["access_token"] as? String, !value.isEmpty else {
            let names = json == nil ? formFieldNames(of: response.body) : []
            throw failure("returned no access_token (" + (json != nil ? "its JSON object has no 'access_token' string, or an empty one)"
                : names.isEmpty ? "its body is neither a JSON object nor form fields holding one)"
                : "its form fields are \(names.joined(separator: ", ")), and none is 'access_token' with a value: the name is "
                    + "read as RFC 6749 writes it" + (response.body.contains(UInt8(ascii: ";"))
                        ? ", and fields are separated by '&' or a line break, not ';')" : ")")))
        }
        // A bearer token is one word (RFC 6750); one holding white space or a control character cannot be sent as it is.
        if value.contains(where: { $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }) {
            throw failure("returned an access_token holding white space or a control character, which a Bearer token cannot hold")
        }
        // A zero-width space or other non-ASCII character would go out as raw UTF-8 bytes no server reads as the token.
        if !value.unicodeScalars.allSatisfy(\.isASCII) {
            throw failure("returned an access_token holding a character that is not ASCII, which a Bearer token cannot hold")
        }
        // What would end the credential or start a parameter of it (RFC 9110 section 11.4); an `=` only ends a token.
        if let character = value.dropLast(value.reversed().prefix { $0 == "=" }.count).first(where: { ";,\"\\=".contains($0) }) {
            throw failure("returned an access_token holding '\(character)', which a Bearer token cannot hold"
                + (json == nil && character != "\\" && character != "\"" ? " (form fields are separated by '&' or a line break)" : ""))
        }
        // A client must not use a token whose type it does not understand (RFC 6749, section 7.1).
        if let type = document["token_type"] as? String, type.lowercased() != "bearer" {
            throw failure("returned a token of type '\(type.prefix(40))', which runner cannot send (it sends Bearer tokens)")
        }
        let type = "Bearer"
        let lifetime = (document["expires_in"] as? NSNumber)?.doubleValue ?? (document["expires_in"] as? String).flatMap(Double.init)
        let expiresAt = lifetime.map { seconds in
            sentAt.advanced(by: .milliseconds(Int64(max(0, seconds - min(30, seconds / 10)) * 1000)))
        }
        return OAuth2AccessToken(value: value, type: type, expiresAt: expiresAt, revealed: credentials(in: response.body))
    }

    /// Every credential a token response's body holds, whether the auth takes the response or refuses it (for outputs
    /// to hide): the strings under an `isCredentialMember` member at any depth of JSON, and the values of such form
    /// fields, as written and decoded, fields ended by `&`, `;` or a line break.
    public static func credentials(in body: some Collection<UInt8>) -> [String] {
        var found: [String] = []
        if let json = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) {
            credentials(in: json, underCredential: false, into: &found)
            return found
        }
        let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
        for field in String(decoding: body, as: UTF8.self).split(whereSeparator: { $0 == "&" || $0 == ";" || $0.isNewline }) {
            guard let equals = field.firstIndex(of: "="),
                  isCredentialMember(decode(field[..<equals]).trimmingCharacters(in: .whitespaces)) else { continue }
            let value = field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            found += Set([value, decode(Substring(value))])
        }
        return found
    }

    /// The strings of `value` (read by `JSONSerialization`) under an `isCredentialMember` member, at any depth.
    private static func credentials(in value: Any, underCredential: Bool, into found: inout [String]) {
        switch value {
        case let text as String where underCredential: found.append(text)
        case let elements as [Any]: elements.forEach { credentials(in: $0, underCredential: underCredential, into: &found) }
        case let members as [String: Any]:
            for (name, member) in members {
                credentials(in: member, underCredential: underCredential || isCredentialMember(name), into: &found)
            }
        default: break
        }
    }

    /// The names of a form-encoded body's fields (those with a `=`), quoted, in order, each once: at most 8, each cut at 40
    /// characters (what a refused token response holds, without its values).
    private static func formFieldNames(of body: Data) -> [String] {
        let text = String(decoding: body, as: UTF8.self)
        let fields = text.split(whereSeparator: { $0 == "&" || $0.isNewline }).filter { $0.contains("=") }
        var names: [String] = []
        for field in fields {
            let name = "'\(field.prefix { $0 != "=" }.prefix(40))'"
            if !names.contains(name) { names.append(name) }
        }
        return Array(names.prefix(8))
    }

    /// The fields of a form-encoded body, decoded (`+` as a space, `%XX` escapes); the first of a name repeated wins.
    /// Text that is no form gives fields no token response has (a field is a whole line without `=`).
    private static func formFields(of body: Data) -> [String: Any] {
        let decode = { (text: Substring) in String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
        var fields: [String: Any] = [:]
        // A line break ends a field too (a body ending in one, fields on lines of their own).
        for field in String(decoding: body, as: UTF8.self).split(whereSeparator: { $0 == "&" || $0.isNewline }) {
            let name = decode(field.prefix { $0 != "=" })
            if fields[name] == nil { fields[name] = decode(field.drop { $0 != "=" }.dropFirst()) }
        }
        return fields
    }
}

/// Caches OAuth2 tokens per credentials for a run; concurrent requests share one in-flight fetch, which is cancelled
/// once every request waiting for it is (a signal cancelling the run does not wait for a token URL that never answers).
public actor OAuth2TokenStore {
    private enum Entry {
        case fetching(SharedFetch)
        case ready(OAuth2AccessToken)
    }

    /// A token fetch and how many requests still wait for it.
    private final class SharedFetch: Sendable {
        private let task: Task<Result<OAuth2AccessToken, HTTPError>, Never>
        private let waiting = Mutex(0)

        init(_ fetch: @escaping @Sendable () async throws(HTTPError) -> OAuth2AccessToken) {
            task = Task {
                do throws(HTTPError) { return .success(try await fetch()) } catch { return .failure(error) }
            }
        }

        /// The fetch's result for one more waiter; the last waiter to be cancelled cancels the fetch.
        var result: Result<OAuth2AccessToken, HTTPError> {
            get async {
                waiting.withLock { $0 += 1 }
                return await withTaskCancellationHandler {
                    await task.value
                } onCancel: {
                    if waiting.withLock({ count in count -= 1; return count == 0 }) { task.cancel() }
                }
            }
        }
    }

    private var entries: [OAuth2ClientCredentials: Entry] = [:]
    /// What every token fetched for some credentials revealed (`OAuth2AccessToken.revealed`), dropped ones included.
    private var revealed: [OAuth2ClientCredentials: [String]] = [:]

    public init() {}

    /// Every credential the tokens fetched for `credentials` held, also of a token since dropped (after a 401, or
    /// expired): a later response may show its refresh token.
    public func credentials(revealedFor credentials: OAuth2ClientCredentials) -> [String] {
        revealed[credentials] ?? []
    }

    /// A valid token for `credentials`: the cached one, the one being fetched, or a new fetch.
    public func token(
        for credentials: OAuth2ClientCredentials,
        fetch: @escaping @Sendable () async throws(HTTPError) -> OAuth2AccessToken
    ) async throws(HTTPError) -> OAuth2AccessToken {
        switch entries[credentials] {
        case .ready(let token) where token.isValid(at: .now):
            return token
        case .fetching(let shared):
            let result = await shared.result
            // A fetch the others waiting for it cancelled: one of its own for a request that goes on (a cleanup step).
            if case .failure(let error) = result, error.code == .cancelled, !Task.isCancelled {
                forget(shared, of: credentials)
                return try await token(for: credentials, fetch: fetch)
            }
            return try result.get()
        default:
            let shared = SharedFetch(fetch)
            entries[credentials] = .fetching(shared)
            let result = await shared.result
            switch result {
            case .success(let token):
                revealed[credentials, default: []] += token.revealed.filter { !(revealed[credentials] ?? []).contains($0) }
                if isFetching(shared, for: credentials) { entries[credentials] = .ready(token) }
            case .failure: forget(shared, of: credentials)
            }
            return try result.get()
        }
    }

    /// Whether `shared` is the fetch under way for `credentials` (not one that a later fetch replaced).
    private func isFetching(_ shared: SharedFetch, for credentials: OAuth2ClientCredentials) -> Bool {
        if case .fetching(let current) = entries[credentials] { current === shared } else { false }
    }

    /// Forgets the fetch `shared` of `credentials`, when it is still the one under way.
    private func forget(_ shared: SharedFetch, of credentials: OAuth2ClientCredentials) {
        if isFetching(shared, for: credentials) { entries[credentials] = nil }
    }

    /// Forgets the cached token for `credentials` when it is still `value`.
    public func invalidate(_ credentials: OAuth2ClientCredentials, ifValue value: String) {
        if case .ready(let token) = entries[credentials], token.value == value { entries[credentials] = nil }
    }
}

extension LoaderLayer {
    /// Adds credentials from each request's `options.auth`; tokens fetched through the rest of the chain.
    public static func auth(tokens: OAuth2TokenStore = OAuth2TokenStore()) -> LoaderLayer {
        LoaderLayer { AuthLoader(next: $0, tokens: tokens) }
    }
}
