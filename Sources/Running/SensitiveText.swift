internal import Foundation
internal import HTTPCore

/// Which texts of a request must be hidden like secrets, beyond the environment's secret values.
package enum SensitiveText {
    /// Shorter values are hidden only where they stand as a whole value: masking every `ab` inside text would garble the
    /// output.
    package static let minimumLength = 6

    /// The texts of a value a credential variable holds: a string's or number's text, a list's elements each (a captured
    /// list of tokens stays a list where it shows, its elements hidden), and of a mapping the members a request sends as
    /// credentials (named in `sent`, as the fields of a looped element are: `{{ key }}`, or named as credentials), else
    /// all of them.
    static func credentialTexts(of value: JSONValue, sent: Set<String>) -> [String] {
        switch value {
        case .array(let elements): return elements.flatMap { credentialTexts(of: $0, sent: sent) }
        case .object(let object):
            let named = object.members.filter { sent.contains($0.key) || HTTPHeaders.namesCredential($0.key) }
            return (named.isEmpty ? object.members : named).flatMap { credentialTexts(of: $0.value, sent: sent) }
        case .null, .bool: return []
        default: return [value.interpolatedText]
        }
    }

    /// The texts of a captured value derived from one of `sources` (`derives`): the value's text when it is a scalar, and
    /// for a mapping or a list those of its keys and elements, not all of it: a captured object of request headers that
    /// holds a cookie hides the cookie, not the host and the user agent beside it.
    static func derivedTexts(in value: JSONValue, from sources: some Collection<String>) -> [String] {
        switch value {
        case .array(let elements): return elements.flatMap { derivedTexts(in: $0, from: sources) }
        case .object(let object):
            return object.members.flatMap { member in
                (derives(member.key, from: sources) ? [member.key] : []) + derivedTexts(in: member.value, from: sources)
            }
        default:
            let text = value.interpolatedText
            return derives(text, from: sources) ? [text] : []
        }
    }

    /// Whether `value` (a captured text) is derived from one of `sources`: it holds one, or a piece of one of
    /// `minimumLength` characters or more (a regex group of a token, a header echo around part of a secret), as sent or
    /// as a server misread it (`Grüße` echoed as `GrÃ¼ÃŸe`), also inside JSON text (`Gr\u00c3\u00bc…`, a regex group of
    /// a body).
    static func derives(_ value: String, from sources: some Collection<String>) -> Bool {
        let forms = sources.filter { !$0.isEmpty }.flatMap { [$0] + Mojibake.readings(of: $0) }
        guard !forms.isEmpty else { return false }
        // Bytes looked for, not text: Foundation's search costs milliseconds in a large body.
        let holdsByte = { (byte: Character) in value.utf8.contains(byte.asciiValue!) }
        // The value as JSON string content, its escapes decoded, when it is valid as such and holds escapes.
        if holdsByte("\\"), case .string(let unescaped)? = try? JSONValue.parse(Array("\"\(value)\"".utf8)),
           holds(unescaped, anyOf: forms) {
            return true
        }
        // The value percent-decoded (a piece of a secret as sent in a URL, spaces as `%20` or `+`), when it holds escapes.
        if holdsByte("%") {
            let encodings = holdsByte("+") ? [value, value.replacingOccurrences(of: "+", with: " ")] : [value]
            if encodings.contains(where: { $0.removingPercentEncoding.map { holds($0, anyOf: forms) } ?? false }) { return true }
        }
        return holds(value, anyOf: forms)
    }

    /// Whether `value` holds one of `forms`, or a run of `minimumLength` bytes of one (of its UTF-8: a piece of a few
    /// characters for text outside ASCII), also one running from a form's end into its start (a piece of two copies
    /// side by side).
    private static func holds(_ value: String, anyOf forms: [String]) -> Bool {
        // A form of `minimumLength` bytes or more is in the value only if its pieces are: searched for only when shorter
        // (a text search through a large body is slow).
        if forms.contains(where: { $0.utf8.count < minimumLength && value.contains($0) }) { return true }
        var pieces = Set<UInt64>()
        for form in forms { _ = windows(of: form + form) { pieces.insert($0); return false } }
        return !pieces.isEmpty && windows(of: value) { pieces.contains($0) }
    }

    /// Calls `body` with each run of `minimumLength` bytes of the text's UTF-8, as one number (the bytes in order), until
    /// it returns true; whether it did.
    private static func windows(of text: String, _ body: (UInt64) -> Bool) -> Bool {
        let mask: UInt64 = (1 << (8 * UInt64(minimumLength))) - 1
        var key: UInt64 = 0
        for (offset, byte) in text.utf8.enumerated() {
            key = (key << 8 | UInt64(byte)) & mask
            if offset >= minimumLength - 1, body(key) { return true }
        }
        return false
    }
}

extension AuthMethod {
    /// The credential texts this auth puts on the wire (a server may echo them back): the Basic
    /// `user:password` in base64 (also with its scheme, for one too short to hide alone), the password alone (servers show
    /// it decoded; with its user name when too short to hide alone), the bearer token, the OAuth2 client secret and its
    /// Basic form.
    var credentialTexts: [String] {
        let texts: [String] = switch self {
        case .none: []
        case let .basic(username, password):
            // One too short to hide on its own is hidden with its scheme, as a server echoes the header.
            // Decoded with its user name when the password is too short to hide alone (a server's echo of `user:ok`).
            HTTPHeaders.withSchemeWhenShort(Self.base64("\(username):\(password)"), scheme: "Basic")
                + (password.count < SensitiveText.minimumLength ? ["\(username):\(password)"] : [password])
        case .bearer(let token): [token]
        case .oauth2ClientCredentials(let credentials):
            [credentials.clientSecret, Self.base64("\(credentials.clientID):\(credentials.clientSecret)")]
        }
        return texts.filter { $0.count >= SensitiveText.minimumLength }
    }

    /// The password or token too short to hide inside other text: hidden where it stands as a whole value (a server's
    /// echo of `{"token": "abc"}`).
    var shortCredentials: [String] {
        let credential: String? = switch self {
        case .basic(_, let password): password
        case .bearer(let token): token
        default: nil
        }
        return credential.map { $0.count < SensitiveText.minimumLength ? [$0] : [] } ?? []
    }

    private static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
}

/// The credentials a body sends (a short one is hidden only where it stands as a whole value): the values of form fields and multipart values
/// named as credentials (`password`, `client_secret`: `HTTPHeaders.namesCredential`), and of JSON members so named at any
/// depth (GraphQL variables included, and a text body that is JSON), a string or a number, whatever gives them (a
/// capture, `$env`, the file).
func credentialValues(of body: (any HTTPBody)?) -> [String] {
    func members(of value: JSONValue) -> [String] {
        switch value {
        case .array(let elements): return elements.flatMap(members)
        case .object(let object):
            return object.members.flatMap { member -> [String] in
                guard HTTPHeaders.namesCredential(member.key) else { return members(of: member.value) }
                switch member.value {
                case .string(let text): return [text]
                case .int(let number): return [String(number)]
                case .double: return [member.value.serialized()]
                default: return members(of: member.value)
                }
            }
        default: return []
        }
    }
    let values: [String] = switch body {
    case let form as FormBody: form.fields.filter { HTTPHeaders.namesCredential($0.name) }.map(\.value)
    case let multipart as MultipartBody: multipart.parts.compactMap { part in
        if case .field(let name, let value) = part, HTTPHeaders.namesCredential(name) { value } else { nil }
    }
    case let json as JSONBody: members(of: json.value)
    // Text that is JSON (`text:` with a JSON Content-Type, as `import curl` writes a body JSON values would change):
    // its members too.
    case let data as DataBody where startsJSON(data.data):
        (try? JSONValue.parse(Array(data.data))).map(members) ?? []
    default: []
    }
    return values
}

/// Whether `data` starts, after white space, as a JSON object or list does; up to 64 KiB (the longest value a file
/// writes), as it is parsed again for every request that sends it.
private func startsJSON(_ data: Data) -> Bool {
    guard data.count <= 1 << 16, let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
}

extension HTTPHeaders {
    /// The credentials the headers send, long enough to hide on their own (a server may echo them): the values of the
    /// cookies of `Cookie`, and of `Authorization` and `Proxy-Authorization` the part after the scheme (`Bearer T`; with
    /// the scheme when that part is too short to hide alone), a `Basic` one's password, and the values of the other
    /// headers named as credentials (`X-Api-Key`, `X-Session`: `namesCredential`).
    var credentialValues: [String] {
        let named = fields.filter { !Self.isCredential($0.name) && Self.namesCredential($0.name) }
            .map { $0.value.trimmingCharacters(in: .whitespaces) }
        let cookies = values(for: "Cookie").flatMap { $0.split(separator: ";") }.compactMap { pair -> String? in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        let authorizations = authorizationCredentials.flatMap { scheme, credential in
            // `Basic` credentials come back decoded too (`user:password`, as servers show them): the password is hidden.
            // One too short to hide on its own is hidden with its scheme (`Basic dTo3`), as a server echoes the header.
            let sent = scheme.map { Self.withSchemeWhenShort(credential, scheme: $0) } ?? [credential]
            guard scheme?.lowercased() == "basic", let data = Data(base64Encoded: credential),
                  let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":") else { return sent }
            return sent + [String(decoded[decoded.index(after: colon)...])]
        }
        // A named header's short value (`X-Pin: 42`) is hidden where it stands as a whole value.
        return (cookies + authorizations).filter { $0.count >= SensitiveText.minimumLength } + named
    }

    /// The tokens of the `Authorization` and `Proxy-Authorization` headers too short to hide inside other text (`Bearer
    /// abc`; not Basic's base64, whose password `credentialValues` gives decoded): hidden where they stand as a whole value,
    /// as a server echoes them.
    var shortTokens: [String] {
        authorizationCredentials.compactMap { scheme, token in
            guard let scheme, scheme.lowercased() != "basic" else { return nil }
            return token.count < SensitiveText.minimumLength ? token : nil
        }
    }

    /// The values of the `Authorization` and `Proxy-Authorization` headers as their scheme (nil when the value is one
    /// word) and the credential after it.
    private var authorizationCredentials: [(scheme: String?, credential: String)] {
        (values(for: "Authorization") + values(for: "Proxy-Authorization")).map { value in
            let parts = value.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            let credential = parts.last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            return (parts.count == 2 ? String(parts[0]) : nil, credential)
        }
    }

    /// A credential sent after `scheme`, and when it is too short to hide on its own (`u:7` is `dTo3`) also with its
    /// scheme (`Basic dTo3`), as a server echoing the header shows it.
    static func withSchemeWhenShort(_ credential: String, scheme: String) -> [String] {
        credential.count < SensitiveText.minimumLength ? [credential, scheme + " " + credential] : [credential]
    }
}
