import CollectionFormat
import Running

/// The words every output uses for an outcome's problems, rendered the same way everywhere.
enum OutcomeText {
    /// Every failure or the error of an outcome as located diagnostics with expected and actual values;
    /// text that came from a server is made terminal-safe before any colour is added.
    static func problems(of outcome: RequestOutcome, sources: SourceCache, redactor: Redactor, color: Bool) -> String? {
        let diagnostics = diagnostics(of: outcome)
        guard !diagnostics.isEmpty else { return nil }
        return DiagnosticRenderer.render(diagnostics, sources: sources, color: color, redacting: redactor.redactSourceLine,
                                         redactingText: redactor.redact)
    }

    /// Every failure (its expected and actual values as notes) and the error of an outcome, made terminal-safe and
    /// not yet redacted; none for a pass or a skip.
    static func diagnostics(of outcome: RequestOutcome) -> [Diagnostic] {
        var diagnostics = outcome.failures.map { failure in
            var diagnostic = failure.diagnostic
            diagnostic.message = TerminalText.printable(diagnostic.message)
            diagnostic.notes = [
                "expected: \(aligned(TerminalText.printable(failure.expected)))",
                "actual:   \(aligned(TerminalText.printable(failure.actual)))",
            ] + diagnostic.notes.map(TerminalText.printable)
            return diagnostic
        }
        if var error = outcome.error {
            error.message = TerminalText.printable(error.message)
            diagnostics.append(error)
        }
        return diagnostics
    }

    /// A value of several lines (every schema violation) with its later lines under its first, past `actual:   `.
    private static func aligned(_ value: String) -> String {
        value.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: "actual:   ".count))
    }

    /// A duration as people read it: `84 ms`, `1.25 s`.
    static func duration(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds < 1000 ? "\(Int(milliseconds.rounded())) ms" : String(format: "%.2f s", milliseconds / 1000)
    }
}

