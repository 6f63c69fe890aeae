import CollectionFormat
import Running
import YAML

/// The `--report-tap` stream, TAP version 14 (testanything.org): a test point per request or step, `# SKIP` with the
/// reason for skipped ones, a YAML diagnostic block under each failed or errored one, and `Bail out!` at the end of a
/// run a signal stopped.
public enum TAPReport {
    /// The report of a run, with secrets redacted.
    public static func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        var tap = "TAP version 14\n1..\(summary.outcomes.count)\n"
        for (index, outcome) in summary.outcomes.enumerated() {
            let point = "\(index + 1) - \(description(outcome.displayName, file: outcome.file, redactor: redactor))"
            switch outcome.verdict {
            case .passed:
                tap += "ok \(point)\n"
            case .skipped:
                tap += "ok \(point) # SKIP \(oneLine(outcome.skipReason ?? "skipped", redactor: redactor))\n"
            case .failed, .errored:
                tap += "not ok \(point)\n" + diagnostics(of: outcome, redactor: redactor)
            }
            if outcome.flaky {
                tap += "# flaky: passed only after \(outcome.attempts) attempts (retried for a status or an error)"
                tap += outcome.verdict == .failed ? ", failed by --fail-on-flaky\n" : "\n"
            }
        }
        let line = ConsoleReport(sources: sources, redactor: redactor, color: false, verbose: false).summary(summary)
        // The run's own words and numbers, not redacted: a short secret's value may equal a count.
        tap += "# \(TerminalText.oneLine(line))\n" + (ConsoleReport.seedLine(summary).map { "# \($0)\n" } ?? "")
        // A run stopped by a signal is a failed run, whatever its points say (its requests not run are skips).
        if let stopStatus = summary.stopStatus {
            tap += "Bail out! the run was " + (summary.cancellingSignal.map { "cancelled by \($0)" } ?? "stopped (exit status \(stopStatus))") + "\n"
        }
        return tap
    }

    /// The YAML block under a failed or errored test point, indented two spaces: the first problem's message,
    /// severity, location (`path:line:col`), expected and actual values, notes (one per line); every problem under `problems` when there
    /// are several; attempts and flakiness when retried; the request's exchange when it was sent.
    private static func diagnostics(of outcome: RequestOutcome, redactor: Redactor) -> String {
        let problems = OutcomeProblem.all(of: outcome)
        func fields(_ problem: OutcomeProblem) -> [(key: String, value: String)] {
            var fields = [("message", redactor.redact(problem.message))]
            if let location = problem.location(column: true) { fields.append(("location", location)) }
            if let expected = problem.expected { fields.append(("expected", redactor.redact(expected))) }
            if let actual = problem.actual { fields.append(("actual", redactor.redact(actual))) }
            if !problem.notes.isEmpty { fields.append(("notes", redactor.redact(problem.notes.joined(separator: "\n")))) }
            return fields.map { ($0.0, quoted($0.1)) }
        }
        let indent = "  "
        var block = "\(indent)---\n"
        var top = problems.first.map(fields) ?? [("message", quoted("request could not complete"))]
        top.insert(("severity", outcome.verdict == .errored ? "error" : "fail"), at: 1)
        for (key, value) in top { block += "\(indent)\(key): \(value)\n" }
        if problems.count > 1 {
            block += "\(indent)problems:\n"
            for problem in problems {
                for (position, field) in fields(problem).enumerated() {
                    block += "\(indent)  \(position == 0 ? "- " : "  ")\(field.key): \(field.value)\n"
                }
            }
        }
        if outcome.attempts > 1 { block += "\(indent)attempts: \(outcome.attempts)\n" }
        if outcome.flaky { block += "\(indent)flaky: true\n" }
        // The exchange as the console's --verbose shows it, one quoted string (control characters made visible).
        if let exchange = outcome.exchange { block += "\(indent)exchange: \(quoted(ExchangeText.render(exchange, redactor: redactor)))\n" }
        return block + "\(indent)...\n"
    }

    /// A test point's description: redacted, on one line, with `\` and `#` escaped as TAP 14 asks (an unescaped `#`
    /// would start a directive).
    static func description(_ name: String, file: String, redactor: Redactor) -> String {
        let line = TerminalText.oneLine(redactor.redactName(name, file: file))
        guard line.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "#") }) else { return line }
        return line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
    }

    /// Text on one line of the stream: redacted, control characters shown as escapes, line breaks as spaces.
    private static func oneLine(_ text: String, redactor: Redactor) -> String {
        TerminalText.oneLine(redactor.redact(text))
    }

    /// A double-quoted YAML string holding `text` exactly: `"` and `\` escaped, line breaks, tabs and every character
    /// YAML does not allow unescaped (C0 and C1 controls, DEL, U+FEFF, U+FFFE, U+FFFF) as escapes that YAML 1.2 and
    /// TAP consumers' YAMLish readers both decode. Past `limit` characters between the quotes, the rest is left out,
    /// saying so.
    static func quoted(_ text: String, limit: Int = quotedLimit) -> String {
        var result = "\""
        result.reserveCapacity(min(text.utf8.count, limit) + 2)
        var written = 0
        for scalar in text.unicodeScalars {
            let escaped: String? = if let escape = yamlEscapes[scalar] {
                escape
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else if [0xFEFF, 0xFFFE, 0xFFFF].contains(scalar.value) || ControlCharacters.isControl(scalar) {
                "\\u" + String(scalar.value, radix: 16, uppercase: true)
            } else {
                nil
            }
            written += escaped?.unicodeScalars.count ?? 1
            guard written <= limit else { return result + cutNote + "\"" }
            if let escaped { result += escaped } else { result.unicodeScalars.append(scalar) }
        }
        return result + "\""
    }

    /// The most characters between a string's quotes: `prove`'s YAMLish reader (Test::Harness 3.44) fails on a longer
    /// one (a regular expression's recursion limit of 65,534), and loses the test points after it.
    static let quotedLimit = 60_000

    /// What ends a string cut at `quotedLimit`.
    private static let cutNote = "\\n… (the rest is left out: TAP readers read at most 60,000 characters of a string; "
        + "the JSON report has it)"

    /// The characters a double-quoted YAML string writes as a named escape.
    private static let yamlEscapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"]
}
