import Foundation
import CollectionFormat
@testable import Reporting
import Running
import Testing
import TestSupport
import YAML

/// The Markdown summary's cap and cell escaping, and the TAP report's quoting, on outcomes built directly.
@Suite struct MarkdownAndTAPRenderingTests {
    /// A failed outcome with one failure at line `line` of `requests/many.yaml` whose actual value is `actual`.
    private static func failed(_ index: Int, actual: String) -> RequestOutcome {
        let diagnostic = Diagnostic.error("body $.items did not match", path: "requests/many.yaml", at: Mark(line: index + 1, column: 3))
        return RequestOutcome(file: "requests/many.yaml", name: "request \(index)", method: "GET", url: "http://h/\(index)",
                              verdict: .failed, failures: [ExpectationFailure(diagnostic: diagnostic, expected: "[]", actual: actual)])
    }

    @Test func tenThousandFailuresMakeASummaryUnderOneMebibyteThatSaysHowManyRowsWereLeftOut() {
        let longActual = String(repeating: "a value with | pipes and <tags> ", count: 200)
        let outcomes = (0..<10_000).map { Self.failed($0, actual: longActual) }
        let summary = RunSummary(outcomes: outcomes, duration: .seconds(12))
        let markdown = MarkdownReport.render(summary, sources: SourceCache(), redactor: Redactor(secrets: []))
        #expect(markdown.utf8.count < 1024 * 1024, "\(markdown.utf8.count) bytes")
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| FAIL |") }
        #expect(rows.count > 0 && rows.count <= MarkdownReport.maximumRows)
        #expect(markdown.contains("\n\(10_000 - rows.count) more rows were left out to keep this summary small "
                                  + "(\(rows.count) of 10000 failures and errors shown)"), "\(markdown.suffix(300))")
        #expect(rows.first?.contains("| requests/many.yaml:1 | body \\$.items did not match | \\[\\] |") == true, "\(rows.first ?? "")")
        #expect(rows.first?.hasSuffix("… |") == true, "a long cell is cut")
        #expect(markdown.contains("| 0 | 10000 | 0 | 0 | 0 | 10000 | 4 |"))
    }

    /// A secret too short to hide inside text (`2`, `1`) hides no line or column number, no count of the run and no part
    /// of a host or a version; where it stands whole in a message it is hidden.
    @Test func aShortSecretHidesNoLineNumberCountOrPartOfAHost() throws {
        let redactor = Redactor(secrets: ["2", "1"])
        let sources = SourceCache()
        sources.store("request: { url: http://127.0.0.1:8080/v1.2 }\nexpect: { status: 201 }\n", for: "requests/a.yaml")
        let diagnostic = Diagnostic.error("status did not match", path: "requests/a.yaml", at: Mark(line: 2, column: 19))
        let outcome = RequestOutcome(file: "requests/a.yaml", name: "a", method: "GET", url: "http://127.0.0.1:8080/v1.2",
                                     verdict: .failed, statusCode: 200, duration: .milliseconds(5), failures: [
                                        ExpectationFailure(diagnostic: diagnostic, expected: "2", actual: "200")])
        let summary = RunSummary(outcomes: [outcome], duration: .milliseconds(5))
        let console = ConsoleReport(sources: sources, redactor: redactor, color: false, verbose: false)
        #expect(console.line(for: outcome).contains("GET http://127.0.0.1:8080/v1.2  200"))
        let problems = try #require(OutcomeText.problems(of: outcome, sources: sources, redactor: redactor, color: false))
        #expect(problems.hasPrefix("requests/a.yaml:2:19: error: status did not match\n 2 | expect: { status: 201 }\n"), "\(problems)")
        #expect(problems.contains("= expected: ***"))
        #expect(GitHubAnnotations(redactor: redactor).commands(for: outcome).first?.hasPrefix("::error file=requests/a.yaml,line=2,col=19,") == true)
        let json = JSONReport.render(summary, sources: sources, redactor: redactor)
        #expect(json.contains(#""location": "requests/a.yaml:2:19""#) || json.contains(#""location":"requests/a.yaml:2:19""#), "\(json)")
        let tap = TAPReport.render(summary, sources: sources, redactor: redactor)
        #expect(tap.contains(#"location: "requests/a.yaml:2:19""#) && tap.contains("\n# 1 request: 0 passed, 1 failed in 5 ms\n"), "\(tap)")
        let markdown = MarkdownReport.render(summary, sources: sources, redactor: redactor)
        #expect(markdown.hasPrefix("## runner: 1 request: 0 passed, 1 failed"), "\(markdown)")
        #expect(markdown.contains("| requests/a.yaml:2 |"), "\(markdown)")
        // A standard method is shown in the JSON report as the console shows it, whatever short secret equals it.
        let method = JSONReport.render(summary, sources: sources, redactor: Redactor(secrets: ["GET"]))
        #expect(method.contains(#""method": "GET""#) || method.contains(#""method":"GET""#), "\(method)")
    }

    @Test func aRunWithoutFailuresSaysSoAndLeavesNothingOut() {
        let outcome = RequestOutcome(file: "a.yaml", name: "a", method: "GET", url: "http://h/", verdict: .passed)
        let markdown = MarkdownReport.render(RunSummary(outcomes: [outcome], duration: .milliseconds(5)), sources: SourceCache(),
                                             redactor: Redactor(secrets: []))
        #expect(markdown.hasSuffix("\nNo failures or errors.\n"))
        #expect(!markdown.contains("left out"))
    }

    @Test func cellsEscapeTableMarkupAndHTMLAndRedactSecretsBeforeEscaping() {
        let redactor = Redactor(secrets: ["pass|word`<1>"])
        #expect(MarkdownReport.cell("a|b\nc`d`<script>&\r\ne", redactor: redactor) == #"a\|b<br>c\`d\`&lt;script&gt;&amp;<br>e"#)
        #expect(MarkdownReport.cell(#"back\slash *bold* [link](x) ~~s~~"#, redactor: redactor)
                == #"back\\slash \*bold\* \[link\](x) \~\~s\~\~"#)
        #expect(MarkdownReport.cell("token=pass|word`<1>!", redactor: redactor) == #"token=\*\*\*\!"#)
        #expect(MarkdownReport.cell("esc\u{1B}[31m", redactor: redactor) == #"esc\\u{1B}\[31m"#)
        let long = MarkdownReport.cell(String(repeating: "x", count: 1000) + "pass|word`<1>", redactor: redactor)
        #expect(long == String(repeating: "x", count: MarkdownReport.maximumCellCharacters) + "…")
    }

    @Test func tapQuotesEveryValueAsAYAMLDoubleQuotedStringAndEscapesDescriptions() {
        #expect(TAPReport.quoted("plain: text # not a comment") == #""plain: text # not a comment""#)
        #expect(TAPReport.quoted("a\"b\\c\nd\te\r") == #""a\"b\\c\nd\te\r""#)
        #expect(TAPReport.quoted("\u{1B}[31m\u{0}\u{7F}\u{85}\u{FEFF}é") == #""\x1B[31m\x00\x7F\x85\uFEFFé""#)
        #expect(TAPReport.quoted("rtl \u{202E}gnp.exe\u{2028}\u{2069}") == #""rtl \u202Egnp.exe\u2028\u2069""#)
        let redactor = Redactor(secrets: ["s3cret-value"])
        #expect(TAPReport.description("a # b \\ c\nd s3cret-value", file: "a.yaml", redactor: redactor) == ##"a \# b \\ c d ***"##)
    }

    /// A string longer than `prove`'s YAMLish reader reads (an exchange with a large body) is cut, saying so: the reader
    /// failed on it, and lost the test points after it.
    @Test func aStringLongerThanTAPReadersReadIsCutAndProveReadsThePointsAfterIt() throws {
        let long = String(repeating: #""id": 1, "#, count: 10_000)
        let quoted = TAPReport.quoted(long)
        #expect(quoted.hasPrefix(#""\"id\": 1, "#) && quoted.hasSuffix("TAP readers read at most 60,000 characters of a string; the JSON report has it)\""))
        #expect(quoted.count < TAPReport.quotedLimit + 200)
        let passed = RequestOutcome(file: "b.yaml", name: "after", method: "GET", url: "http://h/", verdict: .passed)
        let tap = TAPReport.render(RunSummary(outcomes: [Self.failed(0, actual: long), passed], duration: .milliseconds(3)),
                                   sources: SourceCache(), redactor: Redactor(secrets: []))
        guard let prove = ["/usr/bin/prove", "/usr/local/bin/prove"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("Perl's prove is not installed: the cut TAP stream is not read by a TAP consumer")
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runner-long-\(UUID().uuidString).tap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(tap.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prove)
        process.arguments = ["-e", "cat", file.path]
        let output = Pipe()
        (process.standardOutput, process.standardError) = (output, output)
        try process.run()
        let text = String(decoding: readAll(output.fileHandleForReading.fileDescriptor), as: UTF8.self)
        process.waitUntilExit()
        // Without the cut: "Complex regular subexpression recursion limit (65534) exceeded", a YAMLish parse error and a
        // bad plan (1 of 2 tests read).
        #expect(text.contains("Tests: 2 Failed: 1"), "\(text)")
        for failure in ["recursion limit", "YAMLish", "Bad plan"] { #expect(!text.contains(failure), "\(text)") }
    }

    @Test func tapSaysFlakyAndLocatesEachProblemOfAFailedOutcome() {
        var flaky = Self.failed(0, actual: "line one\nline \"two\" s3cret-value")
        flaky.flaky = true
        flaky.attempts = 3
        let skipped = RequestOutcome(file: "b.yaml", name: "later", method: "GET", url: "http://h/", verdict: .skipped,
                                     skipReason: "ticket #42")
        let tap = TAPReport.render(RunSummary(outcomes: [flaky, skipped], duration: .milliseconds(3)), sources: SourceCache(),
                                   redactor: Redactor(secrets: ["s3cret-value"]))
        #expect(tap.hasPrefix("""
            TAP version 14
            1..2
            not ok 1 - request 0
              ---
              message: "body $.items did not match"
              severity: fail
              location: "requests/many.yaml:1:3"
              expected: "[]"
              actual: "line one\\nline \\"two\\" ***"
              attempts: 3
              flaky: true
              ...
            # flaky: passed only after 3 attempts (retried for a status or an error), failed by --fail-on-flaky
            ok 2 - later # SKIP ticket #42
            # 2 requests: 0 passed, 1 failed (1 flaky), 1 skipped in 3 ms

            """), "\(tap)")
    }

    /// A run a signal stopped ends its TAP stream with `Bail out!`, so a consumer fails it although its points are skips.
    @Test func tapOfACancelledRunBailsOut() {
        let cancelled = RequestOutcome(file: "a.yaml", name: "later", method: "GET", url: "http://h/", verdict: .skipped,
                                       skipReason: "cancelled")
        var summary = RunSummary(outcomes: [cancelled], duration: .milliseconds(3))
        summary.stopStatus = 143
        let tap = TAPReport.render(summary, sources: SourceCache(), redactor: Redactor(secrets: []))
        #expect(tap.hasSuffix("ok 1 - later # SKIP cancelled\n# 1 request: 0 passed, 1 skipped in 3 ms (cancelled by SIGTERM)\n"
                              + "Bail out! the run was cancelled by SIGTERM\n"), "\(tap)")
    }

    /// A run stopped before sending (an invalid collection) counts its problems, not requests, in the heading.
    @Test func aRunThatSentNothingCountsProblems() {
        let summary = RunSummary.notSent([.error("unknown key 'urll'", path: "r/01.yaml", at: Mark(line: 2, column: 1)),
                                          .error("expected a mapping", path: "r/02.yaml", at: Mark(line: 1, column: 1))], status: 2)
        let markdown = MarkdownReport.render(summary, sources: SourceCache(), redactor: Redactor(secrets: []))
        #expect(markdown.hasPrefix("## runner: nothing was sent: 2 problems\n"), "\(markdown)")
        #expect(TAPReport.render(summary, sources: SourceCache(), redactor: Redactor(secrets: [])).contains("# nothing was sent: 2 problems\n"))
        let html = HTMLReport.render(summary, sources: SourceCache(), redactor: Redactor(secrets: []), version: "0.1.0")
        #expect(html.contains("<p class=\"meta\">nothing was sent: 2 problems · exit status 2"), "\(html)")
    }

    /// The notes the console prints under a problem (a Retry-After not waited for, a type mismatch) and its suggestion
    /// reach every report that lists problems, redacted, and a JSON report read back (`merge-reports`) keeps them.
    @Test func notesAndSuggestionsReachTheJSONTAPAndMarkdownReports() throws {
        var outcome = Self.failed(0, actual: "503")
        outcome.failures[0].diagnostic.notes = ["not retried: the server asked to wait 400s (Retry-After)", "echoed s3cret-value"]
        outcome.error = Diagnostic.error("undefined variable 'tokn'", path: "requests/many.yaml", at: Mark(line: 2, column: 9),
                                         suggestion: "did you mean 'token'?")
        let summary = RunSummary(outcomes: [outcome], duration: .milliseconds(3))
        let redactor = Redactor(secrets: ["s3cret-value"])
        let json = JSONReport.render(summary, sources: SourceCache(), redactor: redactor)
        #expect(json.contains("\"notes\": [\n            \"not retried: the server asked to wait 400s (Retry-After)\",\n            \"echoed ***\"\n          ],\n          \"suggestion\": null"), "\(json)")
        #expect(json.contains("\"suggestion\": \"did you mean 'token'?\""), "\(json)")
        let read = try JSONReportDocument.read(json, name: "report.json").summary.outcomes[0]
        #expect(read.failures[0].diagnostic.notes == ["not retried: the server asked to wait 400s (Retry-After)", "echoed ***"])
        #expect(read.error?.suggestion == "did you mean 'token'?")

        let tap = TAPReport.render(summary, sources: SourceCache(), redactor: redactor)
        #expect(tap.contains(#"    notes: "not retried: the server asked to wait 400s (Retry-After)\necho"#), "\(tap)")
        #expect(tap.contains(#"    notes: "help: did you mean 'token'?""#), "\(tap)")
        let markdown = MarkdownReport.render(summary, sources: SourceCache(), redactor: redactor)
        #expect(markdown.contains(#"| body \$.items did not match<br>not retried: the server asked to wait 400s (Retry-After)<br>echoed \*\*\* |"#),
                "\(markdown)")
        #expect(!tap.contains("s3cret") && !markdown.contains("s3cret"))
    }
}
