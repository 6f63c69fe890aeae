import Expectations
import Foundation
import HTTPCore
internal import Synchronization

/// Load-time checks whose engines live in the Expectations and HTTPCore modules: JSONPath, XPath, regular expressions, JSON.
enum ExternalChecks {
    /// Why a JSONPath query (RFC 9535) does not parse, with the offset (in Unicode scalars) of the problem; nil when valid.
    ///
    /// Answers are kept by query text: a collection repeats the same few queries in many files.
    static func jsonPathProblem(_ query: String) -> (message: String, offset: Int)? {
        if let known = jsonPathAnswers.withLock({ $0[query] }) { return known.problem }
        let problem: (message: String, offset: Int)?
        do {
            _ = try JSONPath(query)
            problem = nil
        } catch {
            problem = (error.message, error.offset)
        }
        jsonPathAnswers.withLock { $0[query] = JSONPathAnswer(problem: problem) }
        return problem
    }

    /// The query with the member name around `offset` (in Unicode scalars) written in brackets, such as
    /// `$.headers['X-Team']` for `$.headers.X-Team`, when that parses; nil otherwise.
    static func bracketedName(in query: String, at offset: Int) -> String? {
        let scalars = Array(query.unicodeScalars)
        guard offset < scalars.count, let dot = scalars[..<offset].lastIndex(of: ".") else { return nil }
        let end = scalars[offset...].firstIndex { $0 == "." || $0 == "[" } ?? scalars.count
        let name = String(String.UnicodeScalarView(scalars[(dot + 1)..<end]))
        guard !name.isEmpty, !name.contains("'"), !name.contains("\\") else { return nil }
        let rewritten = String(String.UnicodeScalarView(scalars[..<dot])) + "['\(name)']"
            + String(String.UnicodeScalarView(scalars[end...]))
        return jsonPathProblem(rewritten) == nil ? rewritten : nil
    }

    /// What `jsonPathProblem` found for one query text.
    private struct JSONPathAnswer: Sendable {
        let problem: (message: String, offset: Int)?
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

    /// The schema in the file at `absolutePath` (which exists), compiled, or why it cannot be used: not JSON, not a
    /// schema, an unknown `$schema`, a `$ref` that does not resolve or names a network URL. `displayPath` is how the
    /// file is shown, and where the problem is is shown relative to it.
    static func schema(atPath absolutePath: String, displayPath: String) -> Result<JSONSchema, SchemaProblem> {
        do {
            return .success(try JSONSchema(contentsOfFile: absolutePath))
        } catch {
            return .failure(SchemaProblem(error, schemaFile: absolutePath, displayPath: displayPath))
        }
    }
}

/// A schema file that cannot be used, with where the problem is: the file (the schema itself or one it
/// references), the line and column in it when they can be found, and the JSON pointer.
struct SchemaProblem: Error {
    let message: String
    /// `requests/schemas/user.json:3:14 (#/properties/id/type)`, or without the position when the file does
    /// not lead there.
    let location: String
    let suggestion: String?

    /// The problem `error` describes in the schema file `schemaFile`, shown as `displayPath`.
    init(_ error: JSONSchemaError, schemaFile: String, displayPath: String) {
        let file = error.otherFile ?? schemaFile
        let shownFile = error.otherFile.map { Self.displayPath(of: $0, besides: schemaFile, shownAs: displayPath) } ?? displayPath
        let position = error.textPosition ?? FileSystem.read(file).flatMap { bytes in
            JSONTextPosition.of(pointer: Self.tokens(ofFragment: error.schemaPath), in: bytes)
        }
        let notJSON = error.textPosition != nil
        switch (notJSON, error.otherFile) {
        case (true, nil): message = "is \(error.message)"
        case (true, _?): message = "is invalid: '\(shownFile)' is \(error.message)"
        case (false, _): message = "is invalid: \(error.message)"
        }
        location = shownFile + (position.map { ":\($0.line):\($0.column)" } ?? "") + (notJSON ? "" : " (\(error.schemaPath))")
        suggestion = error.suggestion
    }

    /// The unescaped tokens of a JSON pointer fragment `#/a/b~1c`.
    private static func tokens(ofFragment fragment: String) -> [String] {
        guard let hash = fragment.firstIndex(of: "#") else { return [] }
        return fragment[fragment.index(after: hash)...].split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
    }

    /// How to show `path`, a file referenced from the schema file `schemaFile` shown as `shownAs`: in the same
    /// terms (`requests/schemas/common.json` beside `requests/schemas/user.json`).
    private static func displayPath(of path: String, besides schemaFile: String, shownAs: String) -> String {
        var components = (shownAs as NSString).deletingLastPathComponent.split(separator: "/").map(String.init)
        for component in JSONSchemaError.path(of: path, relativeTo: schemaFile).split(separator: "/").map(String.init) {
            if component == "..", let last = components.last, last != ".." { components.removeLast() } else { components.append(component) }
        }
        return components.joined(separator: "/")
    }
}
