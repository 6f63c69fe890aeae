internal import Foundation
internal import CollectionFormat
internal import Expectations
internal import HTTPCore
internal import OpenAPIContract
internal import Synchronization
internal import YAML

/// A request definition with what its checks need compiled once per run: JSONPath queries, regular
/// expressions and the schema, so the per-request work is resolving, sending and evaluating.
struct PreparedStep: Sendable {
    let definition: RequestDefinition
    /// The compiled query of each `expect.body` entry (same order); nil when it does not compile.
    let bodyQueries: [JSONPath?]
    /// The compiled expression of each `expect.xpath` entry (same order), or why it does not compile.
    let xpathQueries: [Result<XPath, XPathError>]
    /// The compiled source of each capture (same order).
    let captureSources: [CompiledCapture]
    /// The schema of `expect.schema`, or why it cannot be used.
    let schema: Result<JSONSchema, SchemaProblem>?
    /// The checks of `options.retry.stopWhen`, prepared the same way.
    let stopWhen: StopChecks?
    /// The OpenAPI document the response must match: the request's `expect.openapi`, else the environment's.
    let openAPI: OpenAPIExpectation?

    /// The prepared `stopWhen` expectations (a class: a step holds at most one, and a struct cannot hold itself).
    final class StopChecks: Sendable {
        let step: PreparedStep
        let mark: Mark

        init(_ step: PreparedStep, mark: Mark) {
            self.step = step
            self.mark = mark
        }
    }

    /// A capture source with its query or pattern compiled.
    enum CompiledCapture: Sendable {
        case jsonPath(JSONPath)
        case header(String)
        case cookie(String)
        case regex(CapturePattern)
        case xpath(XPath)
        case status
        /// The source could not be compiled (validation normally prevents this).
        case invalid(String)
    }

    /// Why a schema file cannot be used.
    struct SchemaProblem: Error, Sendable {
        let message: String
    }

    /// `definition` prepared with what `compiled` holds; `inheritsOpenAPI` says whether the environment's `expect.openapi`
    /// applies (not to `stopWhen`, which says when polling stops rather than what a response must be).
    init(_ definition: RequestDefinition, compiled: CompiledChecks, inheritsOpenAPI: Bool = true) {
        self.definition = definition
        bodyQueries = definition.expect.body.map { try? compiled.query($0.path).get() }
        let namespaces = definition.expect.namespaces
        xpathQueries = definition.expect.xpath.map { compiled.xpath($0.expression, namespaces: namespaces) }
        captureSources = definition.captures.map { capture in
            switch capture.source {
            case .jsonPath(let text):
                switch compiled.query(text) {
                case .success(let query): return .jsonPath(query)
                case .failure(let error): return .invalid("\(error)")
                }
            case .header(let name): return .header(name)
            case .cookie(let name): return .cookie(name)
            case .regex(let pattern):
                switch compiled.pattern(pattern) {
                case .success(let compiled): return .regex(compiled)
                case .failure(let error): return .invalid("invalid regular expression '\(pattern)': \(error)")
                }
            case .xpath(let expression):
                switch compiled.xpath(expression, namespaces: namespaces) {
                case .success(let xpath): return .xpath(xpath)
                case .failure(let error): return .invalid("invalid XPath '\(expression)': \(error)")
                }
            case .status: return .status
            }
        }
        schema = definition.expect.schema.map { compiled.schemas.schema(at: $0.absolutePath) }
        stopWhen = definition.options.retry?.stopWhen.map { stop in
            StopChecks(PreparedStep(definition.with(expect: stop.value), compiled: compiled, inheritsOpenAPI: false), mark: stop.mark)
        }
        openAPI = compiled.openAPI.expectation(for: definition, inheritsEnvironment: inheritsOpenAPI)
    }
}

/// What a run compiles for its checks, once per distinct text: many requests share the same queries
/// (`$.id`), so they share one compiled value (less work and memory per request file). Files that run
/// in parallel share it.
final class CompiledChecks: Sendable {
    let schemas: SchemaCache
    let openAPI: OpenAPICache

    /// Checks that start with the schemas and OpenAPI documents the collection's check compiled (by absolute path), and
    /// the environment's `expect.openapi`.
    init(schemas: [String: JSONSchema] = [:], openAPIContracts: [String: OpenAPIContract] = [:],
         environmentOpenAPI: Sourced<FileReference>? = nil) {
        self.schemas = SchemaCache(schemas)
        openAPI = OpenAPICache(openAPIContracts, environment: environmentOpenAPI)
    }
    private let queries = Mutex<[String: Result<JSONPath, JSONPathError>]>([:])
    private let patterns = Mutex<[String: Result<CapturePattern, any Error>]>([:])
    private let xpaths = Mutex<[XPathKey: Result<XPath, XPathError>]>([:])

    /// An XPath expression with the prefixes it is compiled with.
    private struct XPathKey: Hashable {
        let expression: String
        let namespaces: [XPathNamespace]
    }

    /// The compiled JSONPath query of `text`, or why it does not compile.
    func query(_ text: String) -> Result<JSONPath, JSONPathError> {
        Self.compiled(text, in: queries) { text in Result { () throws(JSONPathError) -> JSONPath in try JSONPath(text) } }
    }

    /// The compiled capture pattern of `text`, or why it does not compile.
    func pattern(_ text: String) -> Result<CapturePattern, any Error> {
        Self.compiled(text, in: patterns) { text in Result { try CapturePattern(text) } }
    }

    /// The compiled XPath expression of `text` with `namespaces`, or why it does not compile.
    func xpath(_ text: String, namespaces: [XPathNamespace]) -> Result<XPath, XPathError> {
        Self.compiled(XPathKey(expression: text, namespaces: namespaces), in: xpaths) { key in
            Result { () throws(XPathError) -> XPath in try XPath(key.expression, namespaces: key.namespaces) }
        }
    }

    /// The value cached for `key`, compiled (outside the lock) and cached on first use.
    private static func compiled<Key: Hashable & Sendable, Value: Sendable>(_ key: Key, in cache: borrowing Mutex<[Key: Value]>,
                                                                   compile: (Key) -> Value) -> Value {
        if let known = cache.withLock({ $0[key] }) { return known }
        let value = compile(key)
        cache.withLock { $0[key] = value }
        return value
    }
}

/// A regular expression whose first capture group is captured from the body text.
struct CapturePattern: @unchecked Sendable {
    // NSRegularExpression is immutable after creation and safe to share.
    private let expression: NSRegularExpression

    init(_ pattern: String) throws {
        expression = try NSRegularExpression(pattern: pattern)
    }

    /// The first match: its first group (or the whole match without groups), nil when that group took no part in it
    /// (`(a)|b` matching `b`), and the whole match; nil without a match.
    func firstGroup(in text: String) -> (group: String?, match: String)? {
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let whole = Range(match.range, in: text) else { return nil }
        let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        return (Range(range, in: text).map { String(text[$0]) }, String(text[whole]))
    }
}

/// Schema files compiled once per run, by absolute path: those the collection's check compiled, and any other
/// read when first needed.
final class SchemaCache: Sendable {
    private let schemas: Mutex<[String: Result<JSONSchema, PreparedStep.SchemaProblem>]>

    init(_ checked: [String: JSONSchema]) {
        schemas = Mutex(checked.mapValues { .success($0) })
    }

    /// The compiled schema in the file, or why it cannot be used.
    func schema(at absolutePath: String) -> Result<JSONSchema, PreparedStep.SchemaProblem> {
        schemas.withLock { schemas in
            if let known = schemas[absolutePath] { return known }
            let result = Self.compile(absolutePath)
            schemas[absolutePath] = result
            return result
        }
    }

    private static func compile(_ absolutePath: String) -> Result<JSONSchema, PreparedStep.SchemaProblem> {
        do {
            return .success(try JSONSchema(contentsOfFile: absolutePath))
        } catch {
            return .failure(.init(message: "the schema cannot be used: \(error)"))
        }
    }
}
