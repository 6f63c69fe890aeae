internal import Foundation
public import HTTPCore
internal import Expectations
public import YAML

/// A way a response differs from what the document says: what is wrong, what was expected, what came.
public struct OpenAPIMismatch: Sendable, Hashable {
    /// `GET /users/{id} (getUser): body does not match the response schema for 200 (2 violations)`.
    public let message: String
    public let expected: String
    public let actual: String
    /// What the document says that the response breaks (its first violation's keyword, the response, its headers or
    /// media types), as a pointer and where it is written; nil when the request matches no operation.
    public var place: (pointer: String, mark: Mark?)? { placeInDocument.map { ($0.pointer, $0.mark) } }
    fileprivate var placeInDocument: Place?

    fileprivate struct Place: Sendable, Hashable {
        let pointer: String
        let mark: Mark?
    }

    fileprivate init(message: String, expected: String, actual: String, at pointer: String? = nil, in contract: OpenAPIContract? = nil) {
        (self.message, self.expected, self.actual) = (message, expected, actual)
        placeInDocument = pointer.map { Place(pointer: $0, mark: contract?.mark(of: $0)) }
    }
}

/// What the check needs of a response: its request's method and path, its status, headers and body.
public struct OpenAPIExchange {
    public var method: String
    /// The request's path as sent (percent-encoded: `request.components.percentEncodedPath`, not `HTTPRequest.path`,
    /// which is decoded), without the query.
    public var path: String
    public var status: Int
    public var headers: HTTPHeaders
    public var bodyIsEmpty: Bool
    /// The body parsed as JSON, or why it is not JSON; called only when a JSON schema applies.
    public var json: () -> Result<JSONValue, OpenAPIBodyProblem>

    public init(method: String, path: String, status: Int, headers: HTTPHeaders, bodyIsEmpty: Bool,
                json: @escaping () -> Result<JSONValue, OpenAPIBodyProblem>) {
        (self.method, self.path, self.status, self.headers, self.bodyIsEmpty, self.json) = (method, path, status, headers, bodyIsEmpty, json)
    }

    /// The exchange of a response to `request`: its method, and its path as sent, percent-encoded (a `%2F` stays inside
    /// its segment; `HTTPRequest.path` is decoded).
    public init(request: HTTPRequest, status: Int, headers: HTTPHeaders, bodyIsEmpty: Bool,
                json: @escaping () -> Result<JSONValue, OpenAPIBodyProblem>) {
        self.init(method: request.method.rawValue, path: request.components.percentEncodedPath, status: status, headers: headers,
                  bodyIsEmpty: bodyIsEmpty, json: json)
    }
}

/// Why a response body cannot be read as JSON.
public struct OpenAPIBodyProblem: Error {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

extension OpenAPIContract {
    /// The most schema violations a mismatch lists.
    public static let shownViolations = 100

    /// Every way `exchange` differs from its operation: no operation for its method and path, an undocumented status,
    /// a missing required header, an undocumented media type, a body that breaks the response's schema.
    public func mismatches(of exchange: OpenAPIExchange) -> [OpenAPIMismatch] {
        let method = exchange.method.uppercased()
        let request = "\(method) \(exchange.path)"
        let candidates = operations(matching: exchange.path)
        guard let operation = candidates.first(where: { $0.method == method }) else {
            let expected = "an operation of the OpenAPI document for \(request)"
            if let other = candidates.first {
                let methods = candidates.map(\.method).joined(separator: ", ")
                return [OpenAPIMismatch(message: "\(request) matches no operation: \(other.template) has \(methods), not \(method)",
                                        expected: expected, actual: "\(other.template): \(methods)")]
            }
            let below = basePaths == [""] ? "" : " below " + basePaths.joined(separator: " or ")
            return [OpenAPIMismatch(message: "\(request) matches no operation: no path of the document\(below) matches it",
                                    expected: expected, actual: "no operation")]
        }
        let label = operation.label
        let status = exchange.status
        guard let (key, response) = Self.documentedResponse(for: status, in: operation) else {
            let documented = operation.responses.map(\.key).joined(separator: ", ")
            return [OpenAPIMismatch(message: "\(label): status \(status) is not documented",
                                    expected: "one of the documented statuses: \(documented.isEmpty ? "none" : documented)",
                                    actual: String(status), at: operation.responsesPointer, in: self)]
        }
        var mismatches: [OpenAPIMismatch] = []
        for name in response.requiredHeaders where exchange.headers.values(for: name).isEmpty {
            mismatches.append(OpenAPIMismatch(message: "\(label): required header \(name) is missing from the \(key) response",
                                              expected: "the header \(name)", actual: "no header \(name)",
                                              at: response.pointer + OpenAPIPointer.pointer(["headers", name]), in: self))
        }
        guard !response.content.isEmpty, !exchange.bodyIsEmpty || status != 204, method != "HEAD" else { return mismatches }
        let contentType = exchange.headers["Content-Type"].map(OpenAPIContractMedia.essence) ?? ""
        guard let media = Self.documentedMedia(contentType, in: response) else {
            let documented = response.content.map(\.mediaType).joined(separator: ", ")
            let actual = contentType.isEmpty ? "no Content-Type" : contentType
            let what = contentType.isEmpty ? "has no Content-Type" : "has media type \(contentType), which is not documented"
            mismatches.append(OpenAPIMismatch(message: "\(label): the \(key) response \(what)",
                                              expected: "one of \(documented)", actual: actual,
                                              at: response.pointer + OpenAPIPointer.pointer(["content"]), in: self))
            return mismatches
        }
        guard let schema = media.schema, Self.isJSON(OpenAPIContractMedia.essence(media.mediaType)) || Self.isJSON(contentType) else { return mismatches }
        let subject = "body does not match the response schema for \(key)"
        switch exchange.json() {
        case .failure(let problem):
            mismatches.append(OpenAPIMismatch(message: "\(label): \(subject): it is not JSON", expected: "a JSON body", actual: problem.message,
                                              at: response.pointer + OpenAPIPointer.pointer(["content", media.mediaType]), in: self))
        case .success(let body):
            let violations = schema.validate(body)
            guard !violations.isEmpty else { return mismatches }
            let shown = violations.prefix(Self.shownViolations).map { violation in
                let place = documentPointer(inSchemaPath: violation.schemaPath).map { "#" + $0 } ?? violation.schemaPath
                return "\(violation.instancePath): \(violation.message) (\(place))"
            }
            let more = violations.count > shown.count ? ["… and \(violations.count - shown.count) more"] : []
            let first = shown[0]
            mismatches.append(OpenAPIMismatch(
                message: "\(label): \(subject): \(violations.count == 1 ? first : "\(violations.count) violations, first \(first)")",
                expected: "a body valid against the \(key) response's \(media.mediaType) schema", actual: (Array(shown) + more).joined(separator: "\n"),
                at: documentPointer(inSchemaPath: violations[0].schemaPath), in: self))
        }
        return mismatches
    }

    /// The operations whose path template matches `path` below a server's base path, the most specific first (see
    /// `OpenAPIPathTemplate.isMoreSpecific`), in the document's order when equally specific.
    private func operations(matching path: String) -> [Operation] {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
        var found: [Operation] = []
        for base in basePaths {
            guard bare == base || bare.hasPrefix(base + "/") || base.isEmpty else { continue }
            let rest = String(bare.dropFirst(base.count))
            let segments = rest.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
                .map { String($0).removingPercentEncoding ?? String($0) }
            found = operations.filter { $0.path.matches(segments) }
            if !found.isEmpty { break }
        }
        return found.enumerated().sorted { left, right in
            left.element.path.isMoreSpecific(than: right.element.path)
                || !right.element.path.isMoreSpecific(than: left.element.path) && left.offset < right.offset
        }.map(\.element)
    }

    /// The response documented for `status`: its code, else its class (`2XX`), else `default`.
    private static func documentedResponse(for status: Int, in operation: Operation) -> (key: String, response: Response)? {
        operation.responses.first { $0.key == String(status) }
            ?? operation.responses.first { $0.key.uppercased() == "\(status / 100)XX" }
            ?? operation.responses.first { $0.key == "default" }
    }

    /// The documented media type for a response's `contentType` (without parameters): exact, else `type/*`, else `*/*`; a
    /// document's key is compared without its parameters too (`application/json; charset=utf-8`).
    private static func documentedMedia(_ contentType: String, in response: Response) -> (mediaType: String, schema: JSONSchema?)? {
        let range = (contentType.split(separator: "/").first.map(String.init) ?? contentType) + "/*"
        let documented = response.content.map { (essence: OpenAPIContractMedia.essence($0.mediaType), media: $0) }
        return (documented.first { $0.essence == contentType } ?? documented.first { $0.essence == range }
                ?? documented.first { $0.essence == "*/*" })?.media
    }


    /// Whether a media type is JSON.
    static func isJSON(_ mediaType: String) -> Bool {
        OpenAPIContractMedia.isJSON(mediaType)
    }
}

/// Media types as OpenAPI documents name them.
public enum OpenAPIContractMedia {
    /// Whether a (lowercased) media type is JSON: `application/json` or a `+json` type.
    public static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// A media type or Content-Type without its parameters, lowercased: `application/json` of `Application/JSON; charset=utf-8`.
    public static func essence(_ header: String) -> String {
        (header.split(separator: ";").first.map(String.init) ?? header).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
