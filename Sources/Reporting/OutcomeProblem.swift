import CollectionFormat
import Running

/// A failed expectation or the error of an outcome, as the reports that list problems one by one show it.
struct OutcomeProblem {
    var message: String
    /// The file the problem points into, when it is about a file.
    var path: String?
    var line: Int?
    var column: Int?
    /// What the expectation wanted and what came; nil for an error.
    var expected: String?
    var actual: String?
    /// What the console prints under the problem: its notes, then its suggestion as `help: …`.
    var notes: [String]

    /// Every failure of `outcome`, then its error, in the order the console shows them.
    static func all(of outcome: RequestOutcome) -> [OutcomeProblem] {
        var problems = outcome.failures.map { failure in
            OutcomeProblem(failure.diagnostic, expected: failure.expected, actual: failure.actual)
        }
        if let error = outcome.error { problems.append(OutcomeProblem(error, expected: nil, actual: nil)) }
        return problems
    }

    /// How many problems `all(of:)` gives for `outcome`, without building them.
    static func count(of outcome: RequestOutcome) -> Int {
        outcome.failures.count + (outcome.error == nil ? 0 : 1)
    }

    private init(_ diagnostic: Diagnostic, expected: String?, actual: String?) {
        message = diagnostic.message
        path = diagnostic.path
        line = diagnostic.mark?.line
        column = diagnostic.mark?.column
        self.expected = expected
        self.actual = actual
        notes = diagnostic.notes + (diagnostic.suggestion.map { ["help: \($0)"] } ?? [])
    }

    /// `path:line:col` (`path:line` without `column`), the path alone when there is no position, nil without a path;
    /// not redacted: the collection's own names and numbers (a short secret's value may equal a folder's name or a number).
    func location(column withColumn: Bool) -> String? {
        guard let path else { return nil }
        guard let line else { return path }
        guard withColumn, let column else { return "\(path):\(line)" }
        return "\(path):\(line):\(column)"
    }
}
