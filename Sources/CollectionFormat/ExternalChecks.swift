import Expectations
import Foundation
import HTTPCore
internal import Synchronization

/// Load-time checks whose engines live in the Expectations and HTTPCore modules: JSONPath, XPath, regular expressions.
enum ExternalChecks {
    /// Why a JSONPath query (RFC 9535) does not parse, with the offset (in Unicode scalars) of the problem; nil when valid.
    ///
    /// Answers are kept by query text: a collection repeats the same few queries in many files.
    static func jsonPathProblem(_ query: String) -> (message: String, offset: Int)? {
        jsonPathAnswer(query).problem
    }

    /// The literal patterns of `match()` and `search()` in a valid JSONPath query that are no I-Regexp: they match nothing.
    static func jsonPathPatternsMatchingNothing(_ query: String) -> [String] {
        jsonPathAnswer(query).patternsMatchingNothing
    }

    /// What parsing `query` says, kept by query text.
    private static func jsonPathAnswer(_ query: String) -> JSONPathAnswer {
        if let known = jsonPathAnswers.withLock({ $0[query] }) { return known }
        let answer: JSONPathAnswer
        do {
            answer = JSONPathAnswer(problem: nil, patternsMatchingNothing: try JSONPath(query).patternsMatchingNothing)
        } catch {
            answer = JSONPathAnswer(problem: (error.message, error.offset), patternsMatchingNothing: [])
        }
        jsonPathAnswers.withLock { $0[query] = answer }
        return answer
    }

    /// The query with the member name around `offset` (in Unicode scalars) written in brackets, such as
    /// `$.headers['X-Team']` for `$.headers.X-Team`, when that parses; nil otherwise.
    static func bracketedName(in query: String, at offset: Int) -> String? {
        let scalars = Array(query.unicodeScalars)
        guard offset < scalars.count, let dot = scalars[..<offset].lastIndex(of: ".") else { return nil }
        let end = scalars[offset...].firstIndex { $0 == "." || $0 == "[" } ?? scalars.count
        let name = String(String.UnicodeScalarView(scalars[(dot + 1)..<end]))
        // A name holds no JSONPath syntax: `id == @` (of `?@.id == @.tags[*]`) is a comparison, not a name.
        guard !name.isEmpty, !name.contains(where: { "'\\[]\"=!<>@$()&|?,*".contains($0) }) else { return nil }
        let rewritten = String(String.UnicodeScalarView(scalars[..<dot])) + "['\(name)']"
            + String(String.UnicodeScalarView(scalars[end...]))
        return jsonPathProblem(rewritten) == nil ? rewritten : nil
    }

    /// What `jsonPathProblem` found for one query text.
    private struct JSONPathAnswer: Sendable {
        let problem: (message: String, offset: Int)?
        let patternsMatchingNothing: [String]
    }

    private static let jsonPathAnswers = Mutex<[String: JSONPathAnswer]>([:])

    /// Why an XPath expression does not compile with `namespaces`, or names a function or prefix it cannot use;
    /// nil when valid. Answers are kept like those of `jsonPathProblem`.
    static func xpathProblem(_ expression: String, namespaces: [XPathNamespace]) -> XPathError? {
        let key = XPathKey(expression: expression, namespaces: namespaces)
        if let known = xpathAnswers.withLock({ $0[key] }) { return known }
        let problem: XPathError?
        do {
            _ = try XPath(expression, namespaces: namespaces)
            problem = nil
        } catch {
            problem = error
        }
        xpathAnswers.withLock { $0[key] = .some(problem) }
        return problem
    }

    /// An expression with the prefixes it is checked with.
    private struct XPathKey: Hashable {
        let expression: String
        let namespaces: [XPathNamespace]
    }

    private static let xpathAnswers = Mutex<[XPathKey: XPathError?]>([:])

    /// The help for a regular expression that does not compile.
    static var regexHelp: String {
        "a regular expression in ICU syntax (much like PCRE): escape a literal '(', '[', '.', '+', '?', '*' with '\\', written "
            + "'\\\\' in double quotes (or use single quotes)"
    }

    /// Why a regular expression does not compile (the engine of `matches`); nil when valid.
    static func regexProblem(_ pattern: String) -> String? {
        do {
            try Matcher<JSONValue>.validatePattern(pattern)
            return nil
        } catch {
            return error.description
        }
    }

    /// The number of capture groups of a valid regular expression (same ICU engine as `matches`).
    static func captureGroupCount(_ pattern: String) -> Int {
        (try? NSRegularExpression(pattern: pattern))?.numberOfCaptureGroups ?? 0
    }
}
