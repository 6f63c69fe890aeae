internal import Foundation
internal import CollectionFormat
internal import Expectations
internal import HTTPCore
internal import Synchronization

/// A request definition with what its checks need compiled once per run: JSONPath queries, regular
/// expressions and the schema, so the per-request work is resolving, sending and evaluating.
struct PreparedStep: Sendable {
    let definition: RequestDefinition
    /// The compiled query of each `expect.body` entry (same order); nil when it does not compile.
    let bodyQueries: [JSONPath?]
    /// The compiled source of each capture (same order).
    let captureSources: [CompiledCapture]
    /// The schema of `expect.schema`, or why it cannot be used.
    let schema: Result<JSONSchema, SchemaProblem>?

    /// A capture source with its query or pattern compiled.
    enum CompiledCapture: Sendable {
        case jsonPath(JSONPath)
        case header(String)
        case cookie(String)
        case regex(CapturePattern)
        case status
        /// The source could not be compiled (validation normally prevents this).
        case invalid(String)
    }

    /// Why a schema file cannot be used.
    struct SchemaProblem: Error, Sendable {
        let message: String
    }

    init(_ definition: RequestDefinition, compiled: CompiledChecks) {
        self.definition = definition
        bodyQueries = definition.expect.body.map { try? compiled.query($0.path).get() }
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
            case .status: return .status
            }
        }
        schema = definition.expect.schema.map { compiled.schemas.schema(at: $0.absolutePath) }
    }
}

/// What a run compiles for its checks, once per distinct text: many requests share the same queries
/// (`$.id`), so they share one compiled value (less work and memory per request file). Files that run
/// in parallel share it.
final class CompiledChecks: Sendable {
    let schemas = SchemaCache()
    private let queries = Mutex<[String: Result<JSONPath, JSONPathError>]>([:])
    private let patterns = Mutex<[String: Result<CapturePattern, any Error>]>([:])

    /// The compiled JSONPath query of `text`, or why it does not compile.
    func query(_ text: String) -> Result<JSONPath, JSONPathError> {
        Self.compiled(text, in: queries) { text in Result { () throws(JSONPathError) -> JSONPath in try JSONPath(text) } }
    }

    /// The compiled capture pattern of `text`, or why it does not compile.
    func pattern(_ text: String) -> Result<CapturePattern, any Error> {
        Self.compiled(text, in: patterns) { text in Result { try CapturePattern(text) } }
    }

    /// The value cached for `text`, compiled (outside the lock) and cached on first use.
    private static func compiled<Value: Sendable>(_ text: String, in cache: borrowing Mutex<[String: Value]>,
                                        compile: (String) -> Value) -> Value {
        if let known = cache.withLock({ $0[text] }) { return known }
        let value = compile(text)
        cache.withLock { $0[text] = value }
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

    /// The first group of the first match (or the whole match without groups); nil without a match.
    func firstGroup(in text: String) -> String? {
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        return Range(range, in: text).map { String(text[$0]) }
    }
}

/// Schema files read and compiled once per run, by absolute path.
final class SchemaCache: @unchecked Sendable {
    private var schemas: [String: Result<JSONSchema, PreparedStep.SchemaProblem>] = [:]
    private let lock = NSLock()

    /// The compiled schema in the file, or why it cannot be used.
    func schema(at absolutePath: String) -> Result<JSONSchema, PreparedStep.SchemaProblem> {
        lock.lock()
        defer { lock.unlock() }
        if let known = schemas[absolutePath] { return known }
        let result = Self.compile(absolutePath)
        schemas[absolutePath] = result
        return result
    }

    private static func compile(_ absolutePath: String) -> Result<JSONSchema, PreparedStep.SchemaProblem> {
        do {
            return .success(try JSONSchema(contentsOfFile: absolutePath))
        } catch {
            return .failure(.init(message: "the schema cannot be used: \(error)"))
        }
    }
}
