import OpenAPIContract

/// The OpenAPI documents `expect.openapi` names, read, checked and compiled when the collection is checked.
enum OpenAPIFile {
    /// The most problems of one document reported.
    static let shownProblems = 20

    /// The document in the file at `absolutePath` (which exists) ready to judge responses, or every problem found:
    /// not YAML or JSON, not OpenAPI 3.0/3.1, breaking the OpenAPI rules, a response schema that does not compile.
    static func compiled(atPath absolutePath: String) -> Result<OpenAPIContract, OpenAPIProblems> {
        do {
            return .success(try OpenAPIContract(try OpenAPIDocument(contentsOfFile: absolutePath)))
        } catch {
            return .failure(error)
        }
    }
}
