import CollectionFormat
@testable import Reporting
import Running
import Testing
import YAML

/// The GitHub workflow commands of `--annotations`: one per problem, escaped as GitHub reads them, secrets hidden.
@Suite struct AnnotationTests {
    /// A failed outcome of `file` whose expectations at `marks` did not hold, each with `message`.
    private func failed(file: String, name: String, message: String, actual: String = "2", marks: [Mark]) -> RequestOutcome {
        let failures = marks.map { mark in
            ExpectationFailure(diagnostic: .error(message, path: file, at: mark), expected: "1", actual: actual)
        }
        return RequestOutcome(file: file, name: name, method: "GET", url: "http://h/", verdict: .failed, failures: failures)
    }

    @Test func aMessageAndPropertiesAreEscapedByGitHubsRules() {
        let outcome = failed(file: "requests/a,b:c.yaml", name: "List, then: count", message: "100% of\nthe items",
                             marks: [Mark(line: 3, column: 5)])
        let commands = GitHubAnnotations(redactor: Redactor(secrets: [])).commands(for: outcome)
        #expect(commands == [
            "::error file=requests/a%2Cb%3Ac.yaml,line=3,col=5,title=List%2C then%3A count"
                + "::100%25 of%0Athe items%0Aexpected: 1%0Aactual:   2",
        ])
        // A name holding line breaks and a tab (from a data row) is one line, as the console shows it.
        let multiline = failed(file: "requests/r.yaml", name: "Line\nbreak\r\nname\tend", message: "m", marks: [Mark(line: 1, column: 1)])
        #expect(GitHubAnnotations(redactor: Redactor(secrets: [])).commands(for: multiline).first?
            .hasPrefix("::error file=requests/r.yaml,line=1,col=1,title=Line break name end::m") == true)
        #expect(GitHubAnnotations.escapedMessage("a\r\nb,c:d%") == "a%0D%0Ab,c:d%25")
        #expect(GitHubAnnotations.escapedProperty("a\r\nb,c:d%") == "a%0D%0Ab%2Cc%3Ad%25")
    }

    @Test func everyFailedExpectationAndTheErrorIsAnAnnotationAtItsPlace() {
        var outcome = failed(file: "requests/x.yaml", name: "x", message: "status did not match",
                             marks: [Mark(line: 4, column: 11), Mark(line: 6, column: 3)])
        outcome.error = .error("could not connect", path: "requests/x.yaml", at: Mark(line: 1, column: 17))
        let commands = GitHubAnnotations(redactor: Redactor(secrets: [])).commands(for: outcome)
        #expect(commands.map { $0.prefix(while: { $0 != "," }) } == Array(repeating: "::error file=requests/x.yaml", count: 3))
        #expect(commands.map { $0.split(separator: ",")[1...2].joined(separator: ",") }
                == ["line=4,col=11", "line=6,col=3", "line=1,col=17"])
        #expect(commands.last?.hasSuffix("::could not connect") == true)
    }

    @Test func aProblemWithoutAFileHasOnlyATitleAndPassesAndSkipsHaveNone() {
        let notSent = RunSummary.notSent([.error("--tag nope selects no request", path: nil, at: nil)], status: 1).outcomes
        let annotations = GitHubAnnotations(redactor: Redactor(secrets: []))
        #expect(notSent.flatMap(annotations.commands) == ["::error title=collection::--tag nope selects no request"])
        for verdict in [RequestOutcome.Verdict.passed, .skipped] {
            let outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "http://h/", verdict: verdict)
            #expect(annotations.commands(for: outcome).isEmpty)
        }
    }

    @Test func secretsAreRedactedBeforeEscaping() {
        let outcome = failed(file: "requests/s.yaml", name: "token 50%-secret", message: "body $.token did not match",
                             actual: "\"50%-secret\"", marks: [Mark(line: 2, column: 1)])
        let commands = GitHubAnnotations(redactor: Redactor(secrets: ["50%-secret"])).commands(for: outcome)
        #expect(commands == ["::error file=requests/s.yaml,line=2,col=1,title=token ***::body $.token did not match"
                                + "%0Aexpected: 1%0Aactual:   \"***\""])
    }
}
