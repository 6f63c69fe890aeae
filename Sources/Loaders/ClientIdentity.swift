public import HTTPCore
internal import Foundation
internal import NIOSSL

/// A TLS client certificate loaded for use: its certificate chain and the private key that matches the first.
struct ClientIdentity {
    let chain: [NIOSSLCertificate]
    let key: NIOSSLPrivateKey

    /// Why a client certificate cannot be used.
    struct Problem: Error, Sendable {
        /// Which file the problem is about.
        enum File: Sendable { case certificate, key }

        let file: File
        let message: String
    }

    /// Loads the files of `certificate`: a readable PEM certificate, a readable PEM key (decrypted with the password
    /// when it is encrypted) and a key that belongs to the certificate.
    static func load(_ certificate: ClientCertificate) throws(Problem) -> ClientIdentity {
        guard FileManager.default.fileExists(atPath: certificate.certificateFile) else {
            throw Problem(file: .certificate, message: "does not exist")
        }
        guard FileManager.default.fileExists(atPath: certificate.keyFile) else { throw Problem(file: .key, message: "does not exist") }
        guard let certificateText = FileManager.default.contents(atPath: certificate.certificateFile) else {
            throw Problem(file: .certificate, message: "cannot be read")
        }
        guard let chain = try? NIOSSLCertificate.fromPEMBytes(Array(certificateText)), !chain.isEmpty else {
            throw Problem(file: .certificate, message: "holds no PEM certificate")
        }
        guard let keyText = FileManager.default.contents(atPath: certificate.keyFile) else {
            throw Problem(file: .key, message: "cannot be read")
        }
        let encrypted = String(decoding: keyText, as: UTF8.self).contains("ENCRYPTED")
        if encrypted, certificate.password == nil {
            throw Problem(file: .key, message: "is encrypted and no password is given")
        }
        // Always through the callback: without one, BoringSSL would ask for the password on the terminal.
        let password = Array((certificate.password ?? "").utf8)
        guard let key = try? NIOSSLPrivateKey(bytes: Array(keyText), format: .pem, passphraseCallback: { set in set(password) })
        else {
            throw Problem(file: .key, message: encrypted ? "cannot be decrypted with the password given" : "holds no PEM private key")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = chain.map { .certificate($0) }
        configuration.privateKey = .privateKey(key)
        guard (try? NIOSSLContext(configuration: configuration)) != nil else {
            throw Problem(file: .key, message: "does not belong to the certificate")
        }
        return ClientIdentity(chain: chain, key: key)
    }
}

/// Checks of client certificates before anything is sent.
public enum ClientCertificateCheck {
    /// Why `certificate` cannot be used: the file it is about (`certificateFile` or `keyFile`) and what is wrong
    /// with it; nil when it can be.
    public static func problem(_ certificate: ClientCertificate) -> (file: String, message: String)? {
        do {
            _ = try ClientIdentity.load(certificate)
            return nil
        } catch {
            return (error.file == .certificate ? certificate.certificateFile : certificate.keyFile, error.message)
        }
    }
}
