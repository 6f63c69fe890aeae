internal import Foundation
internal import HTTPCore
internal import Loaders

extension Exchange {
    /// How much of a body the reports keep: 64 KiB.
    public static let bodyLimit = 64 * 1024

    /// The last hop of a request as it was sent and as it was answered (or why it failed), for the reports of a
    /// failed or errored request.
    init(lastHopOf loaded: Result<HTTPResponse, HTTPError>) {
        let (request, response, error): (HTTPRequest, HTTPResponse?, HTTPError?) = switch loaded {
        case .success(let response): (response.request, response, nil)
        case .failure(let error): (error.lastWritten, error.response, error)
        }
        let body = request.body.isEmpty ? nil : try? request.body.encode()
        let headers = request.headersAsSent(bodyLength: body?.count ?? 0)
        self.init(
            method: request.method.rawValue, url: request.displayURL,
            requestHeaders: headers.map { ($0.name, $0.value) },
            requestBody: body.flatMap { Self.bodyText($0, type: headers["Content-Type"]) },
            status: response?.status.code,
            responseHeaders: response?.headers.map { ($0.name, $0.value) } ?? [],
            responseBody: response.flatMap { Self.bodyText($0.body, type: $0.headers["Content-Type"]) },
            error: error?.message, duration: response?.duration ?? .zero)
    }

    /// A body as reports show it, nil when empty: UTF-8 text (JSON indented, the tokens of an OAuth2 token response
    /// masked) cut at `bodyLimit` bytes, `…` and a note saying so, or its size and type when it is binary or not UTF-8.
    static func bodyText(_ body: Data, type: String?) -> String? {
        guard !body.isEmpty else { return nil }
        guard let text = String(validatingUTF8Data: body) else {
            return "(\(body.count) bytes of \(type.map { "'\($0)'" } ?? "binary data"), not shown)"
        }
        let shown = indentedJSON(text) ?? text
        guard shown.utf8.count > bodyLimit else { return shown }
        // `…` right after the cut text, so that the start of a secret cut there is hidden (`Redactor`).
        return shown.prefix(utf8Count: bodyLimit) + "…\n(cut at \(bodyLimit / 1024) KiB of \(shown.utf8.count) bytes)"
    }

    /// Whether `value` holds a number a `Double` may not hold as written: one of magnitude 2^53 or more.
    private static func holdsInexactNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let number): abs(number) >= 9_007_199_254_740_992
        case .array(let elements): elements.contains(where: holdsInexactNumber)
        case .object(let object): object.members.contains { holdsInexactNumber($0.value) }
        default: false
        }
    }

    /// The members of an OAuth2 token response that are credentials.
    static let tokenMembers: Set<String> = ["access_token", "refresh_token", "id_token"]

    /// JSON text indented two spaces, with the tokens of an OAuth2 token response masked; nil when not JSON, or when
    /// indenting would change a value: an escaped lone surrogate (`\ud83d`) becomes U+FFFD when parsed (and the text
    /// around it, half of a secret written with a reference for its other half, could no longer be recognised and
    /// hidden); a number beyond 2^53 is read as a `Double`, and `12345678901234567890` would show as `1.2345678901234567e+19`.
    private static func indentedJSON(_ text: String) -> String? {
        guard let first = text.utf8.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "["), var value = try? JSONValue.parse(text)
        else { return nil }
        if case .object(var object) = value {
            for key in object.keys where tokenMembers.contains(key) { object[key] = .string("***") }
            value = .object(object)
        }
        guard !holdsInexactNumber(value) else { return nil }
        let indented = value.serialized(pretty: true)
        let replacements = { (text: String) in text.unicodeScalars.lazy.filter { $0 == "\u{FFFD}" }.count }
        return replacements(indented) > replacements(text) ? nil : indented
    }
}
