internal import CollectionFormat
internal import Foundation
internal import HTTPCore
internal import OpenAPIContract
internal import Synchronization

/// `expect.openapi` of a request (or of its environment): the document, compiled, and where the expectation is written.
struct OpenAPIExpectation: Sendable {
    let contract: Result<OpenAPIContract, OpenAPIProblems>
    let reference: FileReference
    /// The file the `openapi:` key is in: the request file, or the environment file.
    let path: String

    /// Every way the response differs from its operation in the document, each located at the `openapi:` key, with notes
    /// saying where the document says what it breaks and, for the environment's expectation, which request file sent it
    /// (at `requestPath`); `json` is the body as JSON, or why it is not, as failures may say it.
    func failures(of content: ResponseContent, json: @autoclosure @escaping () -> Result<JSONValue, ResponseContent.BodyProblem>,
                  requestPath: String) -> [ExpectationFailure] {
        let subject = "openapi \(reference.written)"
        let contract: OpenAPIContract
        switch self.contract {
        case .success(let compiled): contract = compiled
        case .failure(let problems):
            let first = problems.problems.first.map(\.description) ?? "it cannot be read"
            return [failure("\(subject) cannot be used", expected: "a usable OpenAPI document", actual: first, concernsBody: false)]
        }
        let request = content.response.request
        let exchange = OpenAPIExchange(
            request: request, status: content.response.status.code,
            headers: content.response.headers, bodyIsEmpty: content.response.body.isEmpty,
            json: { json().mapError { OpenAPIBodyProblem($0.message) } })
        return contract.mismatches(of: exchange).map { mismatch in
            var failure = failure(mismatch.message, expected: mismatch.expected, actual: mismatch.actual, concernsBody: mismatch.message.contains("body"))
            if let place = mismatch.place {
                let line = place.mark.map { ":\($0.line):\($0.column)" } ?? ""
                failure.diagnostic.notes.append("the document says so at \(reference.path)\(line) (#\(place.pointer))")
            }
            if path != requestPath { failure.diagnostic.notes.append("the response to \(requestPath)") }
            return failure
        }
    }

    private func failure(_ message: String, expected: String, actual: String, concernsBody: Bool) -> ExpectationFailure {
        ExpectationFailure(diagnostic: .error(message, path: path, at: reference.mark), expected: expected, actual: actual,
                           concernsBody: concernsBody)
    }
}

/// OpenAPI documents compiled once per run, by absolute path: those the collection's check compiled, and any other read
/// when first needed; and the environment's `expect.openapi`.
final class OpenAPICache: Sendable {
    private let contracts: Mutex<[String: Result<OpenAPIContract, OpenAPIProblems>]>
    private let environment: Sourced<FileReference>?

    init(_ checked: [String: OpenAPIContract], environment: Sourced<FileReference>?) {
        contracts = Mutex(checked.mapValues { .success($0) })
        self.environment = environment
    }

    /// The expectation of `definition`: its own `expect.openapi`, else (when `inheritsEnvironment`) the environment's.
    func expectation(for definition: RequestDefinition, inheritsEnvironment: Bool) -> OpenAPIExpectation? {
        if let own = definition.expect.openapi {
            return OpenAPIExpectation(contract: contract(at: own.absolutePath), reference: own, path: definition.path)
        }
        guard inheritsEnvironment, definition.expect.error == nil, let environment else { return nil }
        return OpenAPIExpectation(contract: contract(at: environment.value.absolutePath), reference: environment.value,
                                  path: environment.path)
    }

    /// The compiled document in the file, or why it cannot be used.
    private func contract(at absolutePath: String) -> Result<OpenAPIContract, OpenAPIProblems> {
        contracts.withLock { contracts in
            if let known = contracts[absolutePath] { return known }
            let result = Result { () throws(OpenAPIProblems) -> OpenAPIContract in
                try OpenAPIContract(try OpenAPIDocument(contentsOfFile: absolutePath))
            }
            contracts[absolutePath] = result
            return result
        }
    }
}
