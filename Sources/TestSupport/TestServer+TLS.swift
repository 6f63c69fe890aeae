internal import Crypto
internal import Foundation
internal import NIOCore
internal import NIOSSL
internal import X509

/// How a TLS test server proves its identity.
public enum TestServerTLS: Sendable {
    /// A certificate made for this server when it starts, signed by its own key: no client trusts it.
    case selfSigned
    /// A self-signed certificate made by the test, which may add it to a client's trusted certificates.
    case identity(SelfSignedIdentity)
}

extension TestServer {
    /// Starts an HTTPS server on `host` and a free port, with the same routes as the plain server.
    ///
    /// The certificate and key are generated in memory at start (never written anywhere); the
    /// certificate names `localhost` and is valid for one day. Its `baseURL` starts with "https://".
    public static func start(host: String = "127.0.0.1", tls: TestServerTLS) async throws -> TestServer {
        let identity = switch tls {
        case .selfSigned: try SelfSignedIdentity.generate()
        case .identity(let identity): identity
        }
        let context = try NIOSSLContext(configuration: identity.serverConfiguration)
        return try await start(host: host, scheme: "https") { channel in
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
        }
    }
}

/// A freshly generated P-256 key and the self-signed certificate it signs.
public struct SelfSignedIdentity: Sendable {
    /// The PEM text of the certificate.
    public let certificatePEM: String
    /// The PEM text of the private key.
    let privateKeyPEM: String

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

    /// A NIOSSL server configuration presenting this certificate, HTTP/1.1 only.
    var serverConfiguration: TLSConfiguration {
        get throws {
            let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
            return TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        }
    }
}
