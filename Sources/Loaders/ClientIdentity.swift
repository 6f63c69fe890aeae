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
        let reason: ClientCertificateCheck.Reason

        /// What is wrong with the file, said after its name.
        var message: String {
            switch reason {
            case .missing: "does not exist"
            case .unreadable: "cannot be read"
            case .notPEM: file == .certificate ? "holds no PEM certificate" : "holds no PEM private key"
            case .noPassword: "is encrypted and no password is given"
            case .wrongPassword: "cannot be decrypted with the password given"
            case .nonASCIIPassword: "cannot be decrypted with a password of characters outside ASCII, which the TLS library cannot take"
            case .otherKey: "does not belong to the certificate"
            }
        }
    }

    /// Loads the files of `certificate`: a readable PEM certificate, a readable PEM key (decrypted with the password
    /// when it is encrypted) and a key that belongs to the certificate; throws the first problem.
    static func load(_ certificate: ClientCertificate) throws(Problem) -> ClientIdentity {
        let chain = loadChain(certificate), key = loadKey(certificate)
        guard case .success(let chain) = chain else { throw chain.problem! }
        guard case .success(let key) = key else { throw key.problem! }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = chain.map { .certificate($0) }
        configuration.privateKey = .privateKey(key)
        guard (try? NIOSSLContext(configuration: configuration)) != nil else {
            throw Problem(file: .key, reason: .otherKey)
        }
        return ClientIdentity(chain: chain, key: key)
    }

    /// Every problem of `certificate`: the certificate file's and the key file's, each checked on its own, or (when
    /// both load) a key that does not belong to the certificate.
    static func problems(_ certificate: ClientCertificate) -> [Problem] {
        let separate = [loadChain(certificate).problem, loadKey(certificate).problem].compactMap { $0 }
        if !separate.isEmpty { return separate }
        do { _ = try load(certificate) } catch { return [error] }
        return []
    }

    /// The certificate chain of the certificate file.
    private static func loadChain(_ certificate: ClientCertificate) -> Result<[NIOSSLCertificate], Problem> {
        let problem = { (reason: ClientCertificateCheck.Reason) in
            Result<[NIOSSLCertificate], Problem>.failure(Problem(file: .certificate, reason: reason))
        }
        guard FileManager.default.fileExists(atPath: certificate.certificateFile) else { return problem(.missing) }
        guard let certificateText = FileManager.default.contents(atPath: certificate.certificateFile) else {
            return problem(.unreadable)
        }
        guard let chain = try? NIOSSLCertificate.fromPEMBytes(Array(certificateText)), !chain.isEmpty else {
            return problem(.notPEM)
        }
        return .success(chain)
    }

    /// The private key of the key file, decrypted with the password when it is encrypted.
    private static func loadKey(_ certificate: ClientCertificate) -> Result<NIOSSLPrivateKey, Problem> {
        let problem = { (reason: ClientCertificateCheck.Reason) in Result<NIOSSLPrivateKey, Problem>.failure(Problem(file: .key, reason: reason)) }
        guard FileManager.default.fileExists(atPath: certificate.keyFile) else { return problem(.missing) }
        guard let keyText = FileManager.default.contents(atPath: certificate.keyFile) else { return problem(.unreadable) }
        let encrypted = String(decoding: keyText, as: UTF8.self).contains("ENCRYPTED")
        if encrypted, certificate.password == nil { return problem(.noPassword) }
        // Always through the callback: without one, BoringSSL would ask for the password on the terminal. NIOSSL turns
        // each byte into a signed C char with a trapping conversion, so a byte above 127 would crash the process.
        let password = Array((certificate.password ?? "").utf8)
        guard password.allSatisfy({ $0 < 0x80 }) else { return problem(.nonASCIIPassword) }
        guard let key = try? NIOSSLPrivateKey(bytes: Array(keyText), format: .pem, passphraseCallback: { set in set(password) })
        else {
            return problem(encrypted ? .wrongPassword : .notPEM)
        }
        return .success(key)
    }
}

extension Result {
    /// The failure, nil on success.
    fileprivate var problem: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}

/// Checks of client certificates before anything is sent.
public enum ClientCertificateCheck {
    /// What makes a certificate or key file unusable, for messages that say more than `message` (where a missing
    /// file was looked for, which key to change).
    public enum Reason: Sendable, Hashable {
        /// The file does not exist.
        case missing
        case unreadable
        /// The file holds no PEM certificate (the certificate file) or no PEM private key (the key file).
        case notPEM
        /// The key is encrypted and no password is given.
        case noPassword
        /// The key is encrypted and the password given does not decrypt it.
        case wrongPassword
        /// The password has characters outside ASCII, which NIOSSL cannot pass to BoringSSL.
        case nonASCIIPassword
        /// The key does not belong to the certificate.
        case otherKey
    }

    /// Every reason `certificate` cannot be used, the certificate file's and the key file's: each saying whether it is
    /// about the key (one file may hold both) and what is wrong; empty when it can be used.
    public static func problems(_ certificate: ClientCertificate) -> [(aboutKey: Bool, message: String, reason: Reason)] {
        ClientIdentity.problems(certificate).map { ($0.file == .key, $0.message, $0.reason) }
    }

    /// The problem of the client certificate that failed `error` (its files could not be used when the request was sent,
    /// as with a password only a capture gave), nil when `error` has another cause.
    public static func problem(causing error: HTTPError) -> (aboutKey: Bool, message: String, reason: Reason)? {
        (error.underlyingError as? ClientIdentity.Problem).map { ($0.file == .key, $0.message, $0.reason) }
    }
}
