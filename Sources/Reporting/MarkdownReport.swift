import CollectionFormat
import Running

/// The `--report-markdown` summary, GitHub-flavoured and small enough for `$GITHUB_STEP_SUMMARY` (1 MiB at most): the
/// counts, then a table of the failures and errors with their locations, capped in rows and bytes.
public enum MarkdownReport {
    /// The most rows the table of failures and errors holds; a line under it says how many were left out.
    public static let maximumRows = 200
    /// The most bytes of table rows: fewer rows than `maximumRows` when their cells are long.
    public static let maximumTableBytes = 256 * 1024
    /// The most characters a cell shows (after redaction); longer text ends in `…`.
    public static let maximumCellCharacters = 300

    /// The summary of a run, with secrets redacted and every cell escaped for a Markdown table.
    public static func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        let line = ConsoleReport(sources: sources, redactor: redactor, color: false, verbose: false).summary(summary)
        // The run's own words and numbers, not redacted: a short secret's value may equal a count.
        var markdown = "## runner: \(cell(line, redactor: nil))\n\n"
        markdown += "| Passed | Failed | Errored | Skipped | Flaky | Total | Exit status |\n"
        markdown += "|---:|---:|---:|---:|---:|---:|---:|\n"
        let counts = [summary.count(.passed), summary.count(.failed), summary.count(.errored), summary.count(.skipped),
                      summary.flakyCount, summary.total, Int(summary.exitStatus)]
        markdown += "| " + counts.map(String.init).joined(separator: " | ") + " |\n"
        if let line = ConsoleReport.seedLine(summary) { markdown += "\n\(cell(line, redactor: nil))\n" }

        let rowCount = summary.outcomes.reduce(0) { $0 + OutcomeProblem.count(of: $1) }
        guard rowCount > 0 else { return markdown + "\nNo failures or errors.\n" }
        markdown += "\n### Failures and errors\n\n"
        markdown += "| Result | Request | Location | Problem | Expected | Actual |\n|---|---|---|---|---|---|\n"
        var rowsWritten = 0
        var tableBytes = 0
        writing: for outcome in summary.outcomes {
            for problem in OutcomeProblem.all(of: outcome) {
                let row = self.row(problem, of: outcome, redactor: redactor)
                guard rowsWritten < maximumRows, tableBytes + row.utf8.count <= maximumTableBytes else { break writing }
                markdown += row
                rowsWritten += 1
                tableBytes += row.utf8.count
            }
        }
        if rowsWritten < rowCount {
            let leftOut = rowCount - rowsWritten
            markdown += "\n\(leftOut) more \(leftOut == 1 ? "row was" : "rows were") left out to keep this summary small "
                + "(\(rowsWritten) of \(rowCount) failures and errors shown); the JUnit and JSON reports list them all.\n"
        }
        return markdown
    }

    /// A table row: the verdict, the request (flaky ones say so), `path:line`, the message and its notes, expected and
    /// actual.
    private static func row(_ problem: OutcomeProblem, of outcome: RequestOutcome, redactor: Redactor) -> String {
        // Redacted here, as the location is, so that the numbers runner writes stay.
        var request = redactor.redactName(outcome.displayName, file: outcome.file)
        if outcome.flaky { request += " (flaky, \(outcome.attempts) attempts)" }
        // Each redacted here, before `cell` cuts it: the request and the location keep their numbers.
        let cells = [
            outcome.verdict.rawValue, request, problem.location(column: false) ?? outcome.file,
            redactor.redact(([problem.message] + problem.notes).joined(separator: "\n")),
            redactor.redact(problem.expected ?? ""), redactor.redact(problem.actual ?? ""),
        ]
        return "| " + cells.map { cell($0, redactor: nil) }.joined(separator: " | ") + " |\n"
    }

    /// Text as a table cell: secrets redacted (when a redactor is given), control characters shown as escapes, cut at `maximumCellCharacters`,
    /// then `|`, backticks and the other characters Markdown would read as formatting escaped, `<`, `>` and `&` as
    /// HTML entities, and line breaks as `<br>`.
    static func cell(_ text: String, redactor: Redactor?) -> String {
        // Redacted before it is cut, so that no part of a secret is left when the cut falls inside it.
        var visible = TerminalText.printable((redactor?.redact(text) ?? text).replacingBytes(of: "\r\n", with: "\n"))
        if visible.count > maximumCellCharacters { visible = String(visible.prefix(maximumCellCharacters)) + "…" }
        var escaped = ""
        escaped.reserveCapacity(visible.utf8.count)
        for character in visible {
            switch character {
            case "\\", "`", "|", "*", "_", "[", "]", "~", "#", "!", "$": escaped += "\\" + String(character)
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\n", "\r": escaped += "<br>"
            case "\t": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
