internal import Foundation
internal import HTTPCore

/// Which texts of a request must be hidden like secrets, beyond the environment's secret values.
enum SensitiveText {
    /// Shorter values are not hidden on their own: masking every `ab` would garble the output.
    static let minimumLength = 6

    /// Whether `value` (a captured text) is derived from one of `sources`: it contains one, or is a long
    /// enough part of one (for example a regex capture of a piece of a token).
    static func derives(_ value: String, from sources: some Collection<String>) -> Bool {
        sources.contains { source in
            !source.isEmpty && (value.contains(source) || value.count >= minimumLength && source.contains(value))
        }
    }
}

extension AuthMethod {
    /// The credential texts this auth puts on the wire (a server may echo them back): the Basic
    /// `user:password` in base64, the bearer token, the OAuth2 client secret and its Basic form.
    var credentialTexts: [String] {
        let texts: [String] = switch self {
        case .none: []
        case let .basic(username, password): [Self.base64("\(username):\(password)")]
        case .bearer(let token): [token]
        case .oauth2ClientCredentials(let credentials):
            [credentials.clientSecret, Self.base64("\(credentials.clientID):\(credentials.clientSecret)")]
        }
        return texts.filter { $0.count >= SensitiveText.minimumLength }
    }

    private static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
}

extension HTTPHeaders {
    /// The values of the cookies the `Cookie` headers send, long enough to hide on their own (a server may echo them).
    var cookieValues: [String] {
        values(for: "Cookie").flatMap { $0.split(separator: ";") }.compactMap { pair -> String? in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            return value.count >= SensitiveText.minimumLength ? value : nil
        }
    }
}
