internal import Foundation
internal import HTTPCore

/// A response body read once for every check and capture of a request: as text, and parsed as JSON at most once.
final class ResponseContent {
    let response: HTTPResponse
    private var parsedJSON: Result<JSONValue, BodyProblem>?
    private var decodedText: Result<String, BodyProblem>?

    /// Bodies above this size are not parsed as JSON (they are still available as text).
    static let maximumJSONBytes = 8 * 1024 * 1024

    init(_ response: HTTPResponse) {
        self.response = response
    }

    /// Why the body cannot be read the way an expectation or capture needs it.
    struct BodyProblem: Error {
        let message: String
    }

    /// The body as UTF-8 text, or why it is not text.
    var text: Result<String, BodyProblem> {
        if let decodedText { return decodedText }
        let result: Result<String, BodyProblem>
        if let text = String(validatingUTF8Data: response.body) {
            result = .success(text)
        } else {
            result = .failure(BodyProblem(message: "the response body is binary (\(describedBody)), not text"))
        }
        decodedText = result
        return result
    }

    /// The body parsed as JSON, or why it is not JSON (empty, binary, too large, malformed).
    var json: Result<JSONValue, BodyProblem> {
        if let parsedJSON { return parsedJSON }
        let result: Result<JSONValue, BodyProblem>
        if response.body.isEmpty {
            result = .failure(BodyProblem(message: "the response body is empty, not JSON"))
        } else if response.body.count > Self.maximumJSONBytes {
            result = .failure(BodyProblem(message: "the response body is too large to parse as JSON (\(describedBody))"))
        } else if case .failure(let problem) = text {
            result = .failure(BodyProblem(message: problem.message.replacingOccurrences(of: "not text", with: "not JSON")))
        } else {
            do {
                result = .success(try JSONValue.parse(response.body))
            } catch {
                result = .failure(BodyProblem(message: "the response body is not JSON (\(describedBody)): \(error)"))
            }
        }
        parsedJSON = result
        return result
    }

    /// `512 bytes, Content-Type text/html`.
    private var describedBody: String {
        let type = response.headers["Content-Type"].map { ", Content-Type \($0)" } ?? ""
        return "\(response.body.count) bytes\(type)"
    }
}

extension String {
    /// The text of UTF-8 bytes, nil when they are not valid UTF-8 or contain NUL.
    init?(validatingUTF8Data data: Data) {
        let decoded = data.withUnsafeBytes { bytes -> String? in
            guard !bytes.contains(0) else { return nil }
            // Foundation drops a leading byte order mark; without one, the standard library's validation
            // decodes the same text without a detour through Foundation.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(bytes: bytes, encoding: .utf8) }
            return String(validating: bytes, as: UTF8.self)
        }
        guard let decoded else { return nil }
        self = decoded
    }
}
