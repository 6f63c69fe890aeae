import Foundation

/// Checks of a PEM file named as a bundle of trusted certificates (`caCert`, `--cacert`, `SSL_CERT_FILE`).
public enum CertificateFile {
    /// Why the file at `absolutePath` cannot serve as a PEM certificate bundle (it is missing, unreadable, or holds
    /// no `CERTIFICATE` block whose text is base64), or nil when it can.
    public static func problem(at absolutePath: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath, isDirectory: &isDirectory) else { return "does not exist" }
        guard !isDirectory.boolValue else { return "is a directory" }
        guard let data = FileManager.default.contents(atPath: absolutePath) else { return "cannot be read" }
        guard let text = String(data: data, encoding: .utf8), containsCertificate(text) else {
            return "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        }
        return nil
    }

    /// Whether `text` has a `CERTIFICATE` PEM block with base64 content.
    private static func containsCertificate(_ text: String) -> Bool {
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----") {
            guard let end = rest[begin.upperBound...].range(of: "-----END CERTIFICATE-----") else { return false }
            let body = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            if !body.isEmpty, let bytes = Data(base64Encoded: String(body)), !bytes.isEmpty { return true }
            rest = rest[end.upperBound...]
        }
        return false
    }
}
