public import CollectionFormat
internal import HTTPCore
internal import Loaders

/// The client certificates of a collection that cannot be used, found before anything is sent.
public enum ClientCertificateProblems {
    /// An error at each file of an `options.clientCert` (of a request or the environment) that is missing or unreadable,
    /// whose key does not decrypt with its password or does not belong to its certificate. A password that uses a
    /// variable known only when the run captures it is checked when the request is sent.
    public static func diagnostics(in collection: LoadedCollection) -> [Diagnostic] {
        var definitions = collection.files.flatMap { file in file.steps.compactMap(\.options.clientCert) }
        if let environment = collection.environment?.options.clientCert { definitions.append(environment) }
        var answers: [ClientCertificate: [(file: String, message: String)]] = [:]
        var diagnostics: [Diagnostic] = []
        for definition in definitions {
            let password: String?
            do { password = try definition.password.map { try collection.scope.resolveString($0) } } catch { continue }
            let certificate = ClientCertificate(certificateFile: definition.certificate.absolutePath,
                                                keyFile: definition.key.absolutePath, password: password)
            let answer = answers[certificate] ?? ClientCertificateCheck.problems(certificate)
            answers[certificate] = answer
            // Both files' problems, so that fixing one does not only reveal the other at the next run.
            for problem in answer {
                let (key, reference) = problem.file == certificate.keyFile && problem.file != certificate.certificateFile
                    ? ("key", definition.key) : ("cert", definition.certificate)
                diagnostics.append(.error(
                    "'options.clientCert.\(key)': the file '\(reference.written)' \(problem.message) (looked for '\(reference.path)')",
                    path: definition.path, at: reference.mark))
            }
        }
        return diagnostics
    }
}
