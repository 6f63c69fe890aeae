internal import CollectionFormat
internal import Expectations
internal import Foundation
internal import HTTPCore

/// Takes the values of a request's `capture:` entries from its response.
struct CaptureExtractor {
    let step: PreparedStep
    let path: String

    /// The captured values in declaration order, and a failure for each capture that found nothing.
    func capture(from content: ResponseContent) -> (values: [(name: String, value: JSONValue)], failures: [ExpectationFailure]) {
        var values: [(name: String, value: JSONValue)] = []
        var failures: [ExpectationFailure] = []
        for (capture, source) in zip(step.definition.captures, step.captureSources) {
            switch value(of: source, in: content) {
            case .success(let value): values.append((capture.name, value))
            case .failure(let problem):
                failures.append(ExpectationFailure(
                    diagnostic: .error("capture '\(capture.name)' found no value", path: path, at: capture.mark),
                    expected: problem.expected, actual: problem.actual))
            }
        }
        return (values, failures)
    }

    /// Why a capture found nothing: what it looked for and what there was.
    struct Missing: Error {
        let expected: String
        let actual: String
    }

    private func value(of source: PreparedStep.CompiledCapture, in content: ResponseContent) -> Result<JSONValue, Missing> {
        let headers = content.response.headers
        switch source {
        case .status:
            return .success(.int(content.response.status.code))
        case .header(let name):
            let values = headers.values(for: name)
            guard !values.isEmpty else { return .failure(Missing(expected: "a header \(name)", actual: "no such header")) }
            return .success(.string(values.joined(separator: ", ")))
        case .cookie(let name):
            let cookies = headers.values(for: "Set-Cookie").compactMap(Self.cookie)
            guard let cookie = cookies.last(where: { $0.name == name }) else {
                let names = cookies.map(\.name)
                return .failure(Missing(expected: "a Set-Cookie header for '\(name)'",
                                        actual: (names.isEmpty ? "no cookies set" : "cookies set: \(names.joined(separator: ", "))")
                                            + " by the final response (a capture reads the last response after redirects)"))
            }
            return .success(.string(cookie.value))
        case .jsonPath(let query):
            switch content.json {
            case .failure(let problem): return .failure(Missing(expected: "a JSON body", actual: problem.message))
            case .success(let document):
                // A query that may select several nodes (a wildcard, a filter, a slice) captures a list, of one node or
                // none too: what `each:` loops over.
                guard query.isSingular else { return .success(.array(query.values(in: document))) }
                guard let value = query.comparableValue(in: document) else {
                    return .failure(Missing(expected: "a value at \(query)", actual: "the query selected nothing"))
                }
                return .success(value)
            }
        case .regex(let pattern):
            switch content.text {
            case .failure(let problem): return .failure(Missing(expected: "a text body", actual: problem.message))
            case .success(let text):
                guard let found = pattern.firstGroup(in: text) else {
                    return .failure(Missing(expected: "a match of the pattern", actual: "the body has no match"))
                }
                guard let group = found.group else {
                    return .failure(Missing(expected: "a match whose first group takes part",
                                            actual: "its first match, \(JSONValue.string(found.match).compactDescription(maxLength: 80)), leaves the first group out"))
                }
                return .success(.string(group))
            }
        case .xpath(let xpath):
            switch content.markup {
            case .failure(let problem):
                return .failure(Missing(expected: content.expectedMarkup, actual: problem.message))
            case .success(let document):
                do {
                    guard let value = try xpath.comparableValue(in: document) else {
                        return .failure(Missing(expected: "a value at \(xpath.text)", actual: "the query selected nothing"))
                    }
                    return .success(value)
                } catch {
                    return .failure(Missing(expected: "a value at \(xpath.text)", actual: error.message))
                }
            }
        case .invalid(let reason):
            return .failure(Missing(expected: "a valid capture", actual: reason))
        }
    }

    /// The name and value of a `Set-Cookie` header (RFC 6265 section 5.2: up to the first `;`, split at the first `=`; a
    /// quoted value keeps its quotes, as the cookie jar stores and sends it).
    static func cookie(_ header: String) -> (name: String, value: String)? {
        let pair = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : (name, value)
    }
}
