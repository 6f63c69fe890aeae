internal import Foundation
internal import NIOConcurrencyHelpers

/// The bearer tokens the demo API issued, each for one purpose and until it expires.
final class TokenStore: Sendable {
    /// What a token was issued for; a token only opens the routes of its kind.
    enum Kind: Sendable {
        /// From `POST /api/login`, for the users resource.
        case session
        /// From `POST /oauth/token`, for the reports.
        case clientCredentials
    }

    private struct Issued {
        let kind: Kind
        let expiry: Date
    }

    private let issued = NIOLockedValueBox([String: Issued]())

    /// Issues a new random token of `kind`, valid for `lifetime` seconds.
    func issue(_ kind: Kind, lifetime: Int) -> String {
        let prefix = kind == .session ? "sess_" : "oat_"
        let token = prefix + DemoRouter.randomHex()
        let entry = Issued(kind: kind, expiry: Date().addingTimeInterval(TimeInterval(lifetime)))
        issued.withLockedValue { $0[token] = entry }
        return token
    }

    /// Whether `token` was issued for `kind` and has not expired.
    func isValid(_ token: String?, for kind: Kind) -> Bool {
        guard let token else { return false }
        return issued.withLockedValue { issued in
            guard let entry = issued[token] else { return false }
            return entry.kind == kind && entry.expiry > Date()
        }
    }
}
