import Foundation

/// Makes run output comparable with golden files: the server's port, measured times and multipart boundaries vary.
enum OutputPatterns {
    /// The expected text with `{{VERSION}}` replaced by runner's version and `{{PORT}}` by the test server's port
    /// (left as written without a server).
    static func substituting(port: Int?, in expected: String) -> String {
        let version = expected.replacingOccurrences(of: "{{VERSION}}", with: Repository.version)
        return port.map { version.replacingOccurrences(of: "{{PORT}}", with: String($0)) } ?? version
    }

    /// The text with runner's `User-Agent` written as `runner/{{VERSION}}`, for recording expected output.
    static func generalizingVersion(in text: String) -> String {
        text.replacingOccurrences(of: "runner/\(Repository.version)", with: "runner/{{VERSION}}")
    }

    /// The text with every measured time (`84 ms`, `1.25 s`, `612.3 ms`) replaced by `<time>`, and every multipart
    /// boundary's random part by `<id>`.
    static func normalizingTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"\b[0-9]+(\.[0-9]+)? m?s\b"#, with: "<time>", options: .regularExpression)
            .replacingOccurrences(of: #"runner-boundary-[0-9A-F-]{36}"#, with: "runner-boundary-<id>", options: .regularExpression)
    }
}
