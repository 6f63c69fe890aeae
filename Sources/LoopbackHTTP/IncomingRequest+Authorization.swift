internal import Foundation

/// Reading credentials and form fields out of a request.
extension IncomingRequest {
    /// The user and password of an `Authorization: Basic` header, if present and well-formed.
    public var basicCredentials: (user: String, password: String)? {
        guard let encoded = authorization(scheme: "Basic"),
              let data = Data(base64Encoded: encoded),
              let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
    }

    /// The token of an `Authorization: Bearer` header, if present.
    public var bearerToken: String? {
        authorization(scheme: "Bearer")
    }

    /// The credentials after `scheme ` in the Authorization header (scheme case-insensitive).
    public func authorization(scheme: String) -> String? {
        guard let header = header("Authorization") else { return nil }
        let prefix = scheme.lowercased() + " "
        guard header.lowercased().hasPrefix(prefix) else { return nil }
        return header.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    }

    /// The decoded fields of an `application/x-www-form-urlencoded` body, in order (empty when there is none).
    public var formItems: [QueryItem] {
        QueryItem.parse(Substring(bodyText ?? ""))
    }
}
