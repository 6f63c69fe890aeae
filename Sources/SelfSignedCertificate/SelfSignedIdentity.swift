public import Foundation
internal import Crypto
internal import X509

/// A P-256 key and its certificate as PEM text: an identity for a loopback HTTPS server. `generate()` makes a
/// self-signed one, which only clients skipping verification accept; `TestCertificateAuthority` issues others.
public struct SelfSignedIdentity: Sendable {
    /// The PEM text of the certificate.
    public let certificatePEM: String
    /// The PEM text of the private key.
    public let privateKeyPEM: String

    /// A new key and a certificate for `localhost`, valid from an hour ago for a day.
    public static func generate() throws -> SelfSignedIdentity {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CommonName("runner test server")
            OrganizationName("runner tests")
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return SelfSignedIdentity(certificatePEM: try certificate.serializeAsPEM().pemString, privateKeyPEM: key.pemRepresentation)
    }

    /// Writes the certificate and the key (readable by the owner only) into `directory` as `certificate.pem`
    /// and `key.pem`, and returns their paths.
    public func write(into directory: URL) throws -> (certificate: String, privateKey: String) {
        let certificate = directory.appendingPathComponent("certificate.pem")
        let key = directory.appendingPathComponent("key.pem")
        try Data(certificatePEM.utf8).write(to: certificate)
        guard FileManager.default.createFile(atPath: key.path, contents: Data(privateKeyPEM.utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: key.path]) }
        return (certificate.path, key.path)
    }
}
