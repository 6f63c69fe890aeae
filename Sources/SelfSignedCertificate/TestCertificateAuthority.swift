public import Foundation
internal import Crypto
internal import SwiftASN1
internal import X509

/// A certificate authority made at test time: a P-256 key and its self-signed CA certificate, which issues
/// server certificates that clients trusting its certificate accept.
public struct TestCertificateAuthority: Sendable {
    /// The PEM text of the authority's certificate: the file a client adds to its trusted roots.
    public let certificatePEM: String
    private let key: P256.Signing.PrivateKey
    private let name: DistinguishedName

    /// A new authority named `commonName`, valid from an hour ago for a day unless other dates are given.
    public static func generate(commonName: String = "runner test CA", validFrom: Date = Date().addingTimeInterval(-3600),
                                until: Date = Date().addingTimeInterval(86_400)) throws -> TestCertificateAuthority {
        let name = try DistinguishedName {
            CommonName(commonName)
            OrganizationName("runner tests")
        }
        return try make(key: P256.Signing.PrivateKey(), name: name, validFrom: validFrom, until: until)
    }

    /// The same authority (its key and name) with a certificate of other dates, as a renewed root is.
    public func renewed(validFrom: Date = Date().addingTimeInterval(-3600),
                        until: Date = Date().addingTimeInterval(86_400)) throws -> TestCertificateAuthority {
        try Self.make(key: key, name: name, validFrom: validFrom, until: until)
    }

    /// The authority of `key` and `name` with a self-signed certificate valid between the dates.
    private static func make(key: P256.Signing.PrivateKey, name: DistinguishedName, validFrom: Date,
                             until: Date) throws -> TestCertificateAuthority {
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: validFrom, notValidAfter: until,
            issuer: name, subject: name,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return TestCertificateAuthority(certificatePEM: try certificate.serializeAsPEM().pemString, key: key, name: name)
    }

    /// A new key and a server certificate for `localhost` (or the DNS names and IP addresses given) signed by this
    /// authority, valid from an hour ago for a day unless other dates are given.
    public func issueServerIdentity(validFrom: Date = Date().addingTimeInterval(-3600),
                                    until: Date = Date().addingTimeInterval(86_400),
                                    dnsNames: [String] = ["localhost"], ipAddresses: [[UInt8]] = []) throws -> SelfSignedIdentity {
        try issue(commonName: "localhost", usage: .serverAuth, validFrom: validFrom, until: until,
                  names: dnsNames.map { .dnsName($0) } + ipAddresses.map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) })
    }

    /// A new key and a client certificate (for mutual TLS) signed by this authority, valid from an hour ago for a day.
    public func issueClientIdentity() throws -> SelfSignedIdentity {
        try issue(commonName: "runner test client", usage: .clientAuth)
    }

    /// A new key and a certificate for `localhost` with this extended key usage, signed by this authority.
    private func issue(commonName: String, usage: ExtendedKeyUsage.Usage, validFrom: Date = Date().addingTimeInterval(-3600),
                       until: Date = Date().addingTimeInterval(86_400),
                       names: [GeneralName] = [.dnsName("localhost")]) throws -> SelfSignedIdentity {
        let leafKey = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CommonName(commonName)
            OrganizationName("runner tests")
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: validFrom, notValidAfter: until,
            issuer: name, subject: subject,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return SelfSignedIdentity(certificatePEM: try certificate.serializeAsPEM().pemString,
                                  privateKeyPEM: leafKey.pemRepresentation)
    }
}
