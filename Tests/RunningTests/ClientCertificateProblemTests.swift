import CollectionFormat
import Foundation
import Running
import Testing

/// The problems of `options.clientCert` files found before anything is sent: located at the file, saying what is
/// wrong and what to fix.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "the encrypted key is made with the openssl command"))
struct ClientCertificateProblemTests {
    /// `requests/a.yaml` naming `c.pem` and `k.pem` with `password`, and the two files: a
    /// certificate and its key, encrypted with the password `right`.
    private func collection(password: String, key: String = "k.pem") throws -> TestCollection {
        let collection = try TestCollection([
            "requests/a.yaml": "request: { url: https://127.0.0.1:1/ }\noptions:\n"
                + "  clientCert: { cert: c.pem, key: \(key), password: \(password) }\n",
        ])
        let folder = collection.root.appendingPathComponent("requests")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-days", "1", "-subj", "/CN=test",
                             "-keyout", folder.appendingPathComponent("k.pem").path, "-out", folder.appendingPathComponent("c.pem").path,
                             "-passout", "pass:right"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        return collection
    }

    private func problems(_ collection: TestCollection) async -> [String] {
        ClientCertificateProblems.diagnostics(in: await collection.load()).map {
            $0.description + ($0.suggestion.map { " [help: \($0)]" } ?? "")
        }
    }

    /// A key found but not decrypted by its password says so, naming the key file and `options.clientCert.password`,
    /// not where the (found) file was looked for.
    @Test func aWrongPasswordSaysThePasswordDoesNotDecryptTheKey() async throws {
        let collection = try collection(password: "wrong")
        defer { collection.remove() }
        #expect(await problems(collection) == [
            "requests/a.yaml:3:35: error: 'options.clientCert.key': the file 'k.pem' cannot be decrypted with the password given "
                + "in 'options.clientCert.password' [help: check 'options.clientCert.password' (or the variable it uses): it must "
                + "be the password the key was encrypted with]",
        ])
        let right = try self.collection(password: "right")
        defer { right.remove() }
        #expect(await problems(right).isEmpty)
    }

    /// A password with characters outside ASCII is an error at the key, not a crash: NIOSSL's passphrase callback
    /// traps on a byte above 127.
    @Test func aNonASCIIPasswordIsAnErrorNotACrash() async throws {
        let collection = try collection(password: "Grüße")
        defer { collection.remove() }
        #expect(await problems(collection) == [
            "requests/a.yaml:3:35: error: 'options.clientCert.key': the file 'k.pem' cannot be decrypted with a password of "
                + "characters outside ASCII, which the TLS library cannot take (in 'options.clientCert.password') [help: "
                + "encrypt the key again with an ASCII password: openssl pkey -in KEY -aes256 -out NEW_KEY]",
        ])
    }

    /// A missing file says where it was looked for.
    @Test func aMissingKeySaysWhereItWasLookedFor() async throws {
        let collection = try collection(password: "right", key: "gone.pem")
        defer { collection.remove() }
        #expect(await problems(collection) == [
            "requests/a.yaml:3:35: error: 'options.clientCert.key': the file 'gone.pem' does not exist (looked for "
                + "'requests/gone.pem') [help: paths are relative to the file that names them]",
        ])
    }

    /// A password whose variable is not defined (an error of its own) leaves the files checked: a missing one is said
    /// in the same run, not after the variable is fixed (trial helper-181); whether it decrypts the key is not.
    @Test func filesAreCheckedWhenThePasswordIsNotKnown() async throws {
        let collection = try collection(password: "\"{{ undefined }}\"", key: "gone.pem")
        defer { collection.remove() }
        #expect(await problems(collection) == [
            "requests/a.yaml:3:35: error: 'options.clientCert.key': the file 'gone.pem' does not exist (looked for "
                + "'requests/gone.pem') [help: paths are relative to the file that names them]",
        ])
        let found = try self.collection(password: "\"{{ undefined }}\"")
        defer { found.remove() }
        #expect(await problems(found).isEmpty)
    }

    /// A PEM file of the wrong kind (the certificate named as the key) says what the key's file looks like.
    @Test func theCertificateNamedAsTheKeySaysWhatAKeyLooksLike() async throws {
        let collection = try collection(password: "right", key: "c.pem")
        defer { collection.remove() }
        #expect(await problems(collection) == [
            "requests/a.yaml:3:35: error: 'options.clientCert.key': the file 'c.pem' holds no PEM private key [help: give the "
                + "PEM file of the certificate's private key (between '-----BEGIN PRIVATE KEY-----' and its END line, or RSA or "
                + "EC PRIVATE KEY)]",
        ])
    }
}
