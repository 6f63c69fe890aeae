internal import Foundation
internal import NIOSSL
internal import X509

/// The certificates of trusted files as verification is given them.
enum TrustRoots {
    /// `roots` without each one outside its dates at `now` that another of the same subject within its dates replaces
    /// (a renewed root kept beside the expired one in a bundle): BoringSSL tries the first certificate of an issuer's
    /// name it finds, so the expired one listed first would fail every server the renewed one verifies, where curl and
    /// OpenSSL take the valid one.
    static func current(_ roots: [NIOSSLCertificate], at now: Date = Date()) -> [NIOSSLCertificate] {
        let parsed = roots.map(\.fields)
        let validSubjects = Set(parsed.compactMap { $0.flatMap { $0.isValid(at: now) ? $0.subject : nil } })
        return zip(roots, parsed).compactMap { root, fields in
            guard let fields, !fields.isValid(at: now), validSubjects.contains(fields.subject) else { return root }
            return nil
        }
    }
}

extension NIOSSLCertificate {
    /// The certificate's fields, read from its DER encoding; nil when it cannot be read.
    var fields: Certificate? {
        (try? toDERBytes()).flatMap { try? Certificate(derEncoded: $0) }
    }
}

extension Certificate {
    /// Whether `now` is within the certificate's dates.
    func isValid(at now: Date) -> Bool { notValidBefore <= now && now <= notValidAfter }
}
