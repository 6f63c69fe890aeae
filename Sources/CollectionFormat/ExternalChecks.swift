import Foundation

/// Load-time checks whose engines live in the Expectations module: JSONPath, regular expressions, JSON.
enum ExternalChecks {
    /// Why a JSONPath query does not parse, with the offset (in characters) of the problem; nil when valid.
    static func jsonPathProblem(_ query: String) -> (message: String, offset: Int)? {
        // TODO: use the RFC 9535 parser of branch `expectations` once merged.
        guard query.hasPrefix("$") else { return ("a JSONPath query starts with '$'", 0) }
        return nil
    }

    /// Why a regular expression does not compile; nil when valid.
    static func regexProblem(_ pattern: String) -> String? {
        do {
            _ = try NSRegularExpression(pattern: pattern)
            return nil
        } catch {
            return "invalid regular expression '\(pattern)'"
        }
    }

    /// The number of capture groups of a valid regular expression.
    static func captureGroupCount(_ pattern: String) -> Int {
        (try? NSRegularExpression(pattern: pattern))?.numberOfCaptureGroups ?? 0
    }

    /// Why a text is not JSON; nil when valid.
    static func jsonProblem(_ data: Data) -> String? {
        // TODO: use JSONValue.parse of branch `expectations` once merged (for line and column).
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return "not valid JSON"
        }
    }
}
