public import CollectionFormat
internal import HTTPCore
internal import Loaders

/// The client certificates of a collection that cannot be used, found before anything is sent.
public enum ClientCertificateProblems {
    /// An error at each file of an `options.clientCert` (of a request or the environment) that is missing or unreadable,
    /// whose key does not decrypt with its password or does not belong to its certificate. A password that uses a
    /// variable known only when the run captures it (or not defined at all) is checked when the request is sent; the
    /// files are checked all the same.
    public static func diagnostics(in collection: LoadedCollection) -> [Diagnostic] {
        var definitions = collection.files.flatMap { file in file.steps.compactMap(\.options.clientCert) }
        if let environment = collection.environment?.options.clientCert { definitions.append(environment) }
        var answers: [ClientCertificate: [(aboutKey: Bool, message: String, reason: ClientCertificateCheck.Reason)]] = [:]
        var diagnostics: [Diagnostic] = []
        for definition in definitions {
            // A password not known yet (a capture gives it, or a variable is undefined, said elsewhere): the files are
            // still checked, but not whether it decrypts the key.
            let password = try? definition.password.map { try collection.scope.resolveString($0) }
            let passwordKnown = password != nil || definition.password == nil
            let certificate = ClientCertificate(certificateFile: definition.certificate.absolutePath,
                                                keyFile: definition.key.absolutePath, password: password)
            let answer = answers[certificate] ?? ClientCertificateCheck.problems(certificate)
            answers[certificate] = answer
            // Both files' problems, so that fixing one does not only reveal the other at the next run.
            for problem in answer where passwordKnown || [.missing, .unreadable, .notPEM].contains(problem.reason) {
                diagnostics.append(diagnostic(problem, of: definition))
            }
        }
        return diagnostics
    }

    /// The error of a `problem` of `definition`'s files, at the file it is about, or at the password when a password
    /// only the run knew (a capture gave it) does not decrypt the key.
    static func diagnostic(_ problem: (aboutKey: Bool, message: String, reason: ClientCertificateCheck.Reason),
                           of definition: ClientCertificateDefinition, atPassword: Bool = false) -> Diagnostic {
        let (key, reference) = problem.aboutKey ? ("key", definition.key) : ("cert", definition.certificate)
        let (message, suggestion) = Self.explained(problem.reason, problem.message, of: reference, aboutKey: problem.aboutKey)
        let mark = atPassword && [.wrongPassword, .nonASCIIPassword].contains(problem.reason) ? definition.password?.mark : nil
        return .error("'options.clientCert.\(key)': the file '\(reference.written)' \(message)",
                      path: definition.path, at: mark ?? reference.mark, suggestion: suggestion)
    }

    /// What is wrong with a file of `options.clientCert` (the key's when `aboutKey`), said after its name, and how to fix
    /// it: where a missing file was looked for; what a PEM certificate or key looks like; for a key its password does not
    /// decrypt, that `options.clientCert.password` is the one to check.
    private static func explained(_ reason: ClientCertificateCheck.Reason, _ message: String, of reference: FileReference,
                                  aboutKey: Bool) -> (message: String, suggestion: String) {
        switch reason {
        case .missing:
            ("\(message) (looked for '\(reference.path)')", "paths are relative to the file that names them")
        case .unreadable:
            (message, "make the file readable by the user running runner")
        case .notPEM:
            (message, aboutKey
                ? "give the PEM file of the certificate's private key (between '-----BEGIN PRIVATE KEY-----' and its END line, or RSA or EC PRIVATE KEY)"
                : "give the PEM file of the certificate (between '-----BEGIN CERTIFICATE-----' and '-----END CERTIFICATE-----')")
        case .noPassword:
            (message, "give the key's password in 'options.clientCert.password'")
        case .wrongPassword:
            ("\(message) in 'options.clientCert.password'",
             "check 'options.clientCert.password' (or the variable it uses): it must be the password the key was encrypted with")
        case .nonASCIIPassword:
            ("\(message) (in 'options.clientCert.password')",
             "encrypt the key again with an ASCII password: openssl pkey -in KEY -aes256 -out NEW_KEY")
        case .otherKey:
            (message, "give the key the certificate was issued for")
        }
    }
}
