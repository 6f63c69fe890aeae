import Foundation
import HTTPCore

/// Replaces secret values and credential header values with `***`; every output goes through one.
public struct Redactor: Sendable {
    /// Header names whose values are always hidden, lowercased.
    public static let credentialHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]
    public static let mask = "***"

    /// Secret values, longest first so a secret containing another is hidden whole.
    private let secrets: [String]

    /// Hides each secret as written and in the forms it takes in URLs and JSON text.
    public init(secrets: some Sequence<String>) {
        let forms = secrets.filter { !$0.isEmpty }.flatMap(Self.encodedForms)
        self.secrets = Set(forms).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// A secret as written, percent-encoded (as in a query) and escaped (as inside a JSON string).
    private static func encodedForms(of secret: String) -> [String] {
        var forms = [secret, PercentEncoding.encodeAllButAlphanumerics(secret)]
        if let query = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { forms.append(query) }
        let json = JSONValue.string(secret).serialized()
        forms.append(String(json.dropFirst().dropLast()))
        return forms
    }

    /// The text with every secret value replaced by `***`.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        return result
    }

    /// A header's value as it may be printed: hidden for credential headers, else with secrets redacted.
    public func redactHeader(name: String, value: String) -> String {
        Self.credentialHeaders.contains(name.lowercased()) ? Self.mask : redact(value)
    }
}
