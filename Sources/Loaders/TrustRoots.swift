internal import Foundation
internal import NIOSSL
internal import SwiftASN1

/// The certificates of trusted files as verification is given them.
enum TrustRoots {
    /// `roots` without each one outside its dates at `now` that another of the same subject within its dates replaces
    /// (a renewed root kept beside the expired one in a bundle): BoringSSL tries the first certificate of an issuer's
    /// name it finds, so the expired one listed first would fail every server the renewed one verifies, where curl and
    /// OpenSSL take the valid one.
    static func current(_ roots: [NIOSSLCertificate], at now: Date = Date()) -> [NIOSSLCertificate] {
        let subjects = roots.map { $0.names?.subject }
        let validSubjects = Set(zip(roots, subjects).compactMap { root, subject in root.isValid(at: now) ? subject : nil })
        return zip(roots, subjects).compactMap { root, subject in
            guard let subject, !root.isValid(at: now), validSubjects.contains(subject) else { return root }
            return nil
        }
    }
}

extension NIOSSLCertificate {
    /// The certificate's issuer and subject names as encoded (DER), compared byte for byte (a renewed certificate of an
    /// authority writes its name as before); nil when they cannot be read.
    var names: (issuer: [UInt8], subject: [UInt8])? {
        // Certificate: SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serialNumber, signature, issuer, validity,
        // subject, ... }, ... } (RFC 5280, section 4.1).
        guard let der = try? toDERBytes(), let certificate = try? DER.parse(der), case .constructed(let parts) = certificate.content,
              let signed = parts.first(where: { _ in true }), case .constructed(let fields) = signed.content else { return nil }
        var items = Array(fields)
        if items.first?.identifier.tagClass == .contextSpecific { items.removeFirst() }
        guard items.count >= 5 else { return nil }
        return (Array(items[2].encodedBytes), Array(items[4].encodedBytes))
    }

    /// When the certificate starts to be valid.
    var validFrom: Date { Date(timeIntervalSince1970: TimeInterval(notValidBefore)) }

    /// When the certificate stops being valid.
    var validUntil: Date { Date(timeIntervalSince1970: TimeInterval(notValidAfter)) }

    /// Whether `now` is within the certificate's dates.
    func isValid(at now: Date) -> Bool { validFrom <= now && now <= validUntil }
}
