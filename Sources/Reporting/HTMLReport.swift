import CollectionFormat
import Foundation
import Mustache
import Running

/// The `--report-html` page: the summary and a bar of results, a filter, and every request with its result, time
/// and attempts; a failed or errored one open, with its located problems and its exchange. Secrets are redacted
/// and every text is escaped by the template (`HTMLTemplate`).
public enum HTMLReport {
    /// The page of a run.
    public static func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor, version: String) -> String {
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        func text(_ value: String) -> String { redactor.redact(value) }
        let counts = RequestOutcome.Verdict.allCases.map { ($0, summary.count($0)) }
        let total = max(summary.total, 1)
        let context: [String: Any] = [
            "title": "runner report: \(summary.count(.failed) + summary.count(.errored) == 0 ? "passed" : "failed")",
            "total": summary.total,
            "requestWord": summary.total == 1 ? "request" : "requests",
            "duration": OutcomeText.duration(summary.duration),
            "exitStatus": Int(summary.exitStatus),
            "version": version,
            "passed": summary.count(.passed), "failed": summary.count(.failed), "errored": summary.count(.errored),
            "skipped": summary.count(.skipped), "flaky": summary.flakyCount,
            "failedOrErrored": summary.count(.failed) + summary.count(.errored),
            "bar": counts.filter { $0.1 > 0 }.map { verdict, count in
                ["kind": verdict.jsonName, "percent": String(format: "%.2f", Double(count) * 100 / Double(total))]
            },
            "requests": summary.outcomes.map { outcome -> [String: Any] in
                let failing = outcome.verdict == .failed || outcome.verdict == .errored
                let request: [String: Any] = [
                    "classes": outcome.verdict.jsonName + (outcome.flaky ? " flaky" : ""),
                    "verdict": outcome.verdict.rawValue,
                    "name": text(outcome.displayName),
                    "method": text(outcome.method),
                    "url": text(outcome.url),
                    "facts": facts(of: outcome),
                    "flaky": outcome.flaky,
                    "file": text(outcome.file),
                    "open": failing,
                    // Absent parts are false, not missing: Mustache would look a missing key up in the page's context.
                    "skipReason": outcome.skipReason.map(text) ?? false,
                    "problems": OutcomeText.problems(of: outcome, sources: sources, redactor: redactor, color: false) ?? false,
                    "exchange": outcome.exchange.map { ExchangeText.render($0, redactor: redactor) } ?? false,
                ]
                return request
            },
        ]
        // The template is a constant tested to parse; a failure here is a bug, reported in the page itself.
        do {
            return try MustacheTemplate(string: HTMLTemplate.page).render(context)
        } catch {
            return "<!DOCTYPE html><title>runner report</title><p>the report template is invalid: \(error)</p>\n"
        }
    }

    /// `200 · 84 ms · 2 attempts`: the status, time and attempts a request took, as far as it got.
    private static func facts(of outcome: RequestOutcome) -> String {
        var facts: [String] = []
        if let status = outcome.statusCode { facts.append(String(status)) }
        if let duration = outcome.duration { facts.append(OutcomeText.duration(duration)) }
        if outcome.attempts > 1 { facts.append("\(outcome.attempts) attempts") }
        return facts.joined(separator: " · ")
    }
}
