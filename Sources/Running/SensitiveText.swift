internal import Foundation
internal import HTTPCore

/// Which texts of a request must be hidden like secrets, beyond the environment's secret values.
enum SensitiveText {
    /// Shorter values are not hidden on their own: masking every `ab` would garble the output.
    static let minimumLength = 6

    /// Whether `value` (a captured text) is derived from one of `sources`: it contains one, or is a long
    /// enough part of one (for example a regex capture of a piece of a token), as sent or as a server misread it
    /// (`Grüße` echoed as `GrÃ¼ÃŸe`).
    static func derives(_ value: String, from sources: some Collection<String>) -> Bool {
        sources.contains { source in
            ([source] + Mojibake.readings(of: source)).contains { form in
                !form.isEmpty && (value.contains(form) || value.count >= minimumLength && form.contains(value))
            }
        }
    }
}

extension AuthMethod {
    /// The credential texts this auth puts on the wire (a server may echo them back): the Basic
    /// `user:password` in base64 and the password alone (servers show it decoded), the bearer token, the OAuth2 client
    /// secret and its Basic form.
    var credentialTexts: [String] {
        let texts: [String] = switch self {
        case .none: []
        case let .basic(username, password): [Self.base64("\(username):\(password)"), password]
        case .bearer(let token): [token]
        case .oauth2ClientCredentials(let credentials):
            [credentials.clientSecret, Self.base64("\(credentials.clientID):\(credentials.clientSecret)")]
        }
        return texts.filter { $0.count >= SensitiveText.minimumLength }
    }

    private static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
}

extension HTTPHeaders {
    /// The credentials the headers send, long enough to hide on their own (a server may echo them): the values of the
    /// cookies of `Cookie`, and of `Authorization` and `Proxy-Authorization` the part after the scheme (`Bearer T`), and
    /// a `Basic` one's password.
    var credentialValues: [String] {
        let cookies = values(for: "Cookie").flatMap { $0.split(separator: ";") }.compactMap { pair -> String? in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        let authorizations = (values(for: "Authorization") + values(for: "Proxy-Authorization")).flatMap { value in
            let parts = value.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            let credential = parts.last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            // `Basic` credentials come back decoded too (`user:password`, as servers show them): the password is hidden.
            guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: credential),
                  let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":") else { return [credential] }
            return [credential, String(decoded[decoded.index(after: colon)...])]
        }
        return (cookies + authorizations).filter { $0.count >= SensitiveText.minimumLength }
    }
}
