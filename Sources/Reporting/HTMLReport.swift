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
        let counts = RequestOutcome.Verdict.allCases.map { ($0, summary.count($0)) }
        let total = max(summary.total, 1)
        let context: [String: Any] = [
            // Passed only when the run's exit status is 0: a cancelled run, or one that sent nothing, did not pass.
            "title": "runner report: \(summary.exitStatus == 0 ? "passed" : "failed")",
            "total": summary.total,
            // A run stopped before sending had problems, not requests.
            "headline": ConsoleReport.nothingSent(summary)
                ?? "\(summary.total) \(summary.total == 1 ? "request" : "requests") in \(OutcomeText.duration(summary.duration))",
            "exitStatus": Int(summary.exitStatus),
            "version": version,
            "seed": summary.seed.map { " · random values from seed \($0) (--seed \($0))" } ?? "",
            "passed": summary.count(.passed), "failed": summary.count(.failed), "errored": summary.count(.errored),
            "skipped": summary.count(.skipped), "flaky": summary.flakyCount,
            "failedOrErrored": summary.count(.failed) + summary.count(.errored),
            "bar": counts.filter { $0.1 > 0 }.map { verdict, count in
                ["kind": verdict.jsonName, "percent": String(format: "%.2f", Double(count) * 100 / Double(total))]
            },
            "requests": summary.outcomes.map { PageRequest($0, sources: sources, redactor: redactor) },
        ]
        // The template is a constant tested to parse; a failure here is a bug, reported in the page itself.
        do {
            return try HTMLTemplate.parsed().render(context)
        } catch {
            return "<!DOCTYPE html><title>runner report</title><p>the report template is invalid: \(error)</p>\n"
        }
    }
}

/// A request as the page's template reads it: its texts redacted once, found by a switch rather than in a dictionary
/// of `Any` built for it.
private struct PageRequest: MustacheParent {
    let classes, verdict, name, target, facts, file: PageText
    let flaky, open: Bool
    /// Its problems and exchange (`PageDetail`); false when it has none (most requests), so that the page looks up one
    /// key for them, not two.
    let detail: Any

    init(_ outcome: RequestOutcome, sources: SourceCache, redactor: Redactor) {
        classes = PageText(outcome.verdict.jsonName + (outcome.flaky ? " flaky" : ""))
        verdict = PageText(outcome.verdict.rawValue)
        name = PageText(redactor.redactName(outcome.displayName, file: outcome.file))
        target = PageText(redactor.redactMethod(outcome.method) + " " + redactor.redact(outcome.url))
        // A skipped request's reason is on its line, as the console shows it.
        facts = PageText(outcome.skipReason.map { "skipped: " + redactor.redact($0) } ?? Self.facts(of: outcome))
        file = PageText(outcome.file)
        flaky = outcome.flaky
        open = outcome.verdict.isFailure
        detail = PageDetail(outcome, sources: sources, redactor: redactor) ?? false
    }

    func child(named key: String) -> Any? {
        switch key {
        case "classes": classes
        case "verdict": verdict
        case "name": name
        case "target": target
        case "facts": facts
        case "file": file
        case "flaky": flaky
        case "open": open
        case "detail": detail
        default: nil
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

/// A request's located problems and its exchange, as far as it has them (a skipped one's reason is on its line).
private struct PageDetail: MustacheParent {
    /// Absent parts are false, not missing: Mustache would look a missing key up in the request and the page.
    let problems, exchange: Any

    /// Nil when the request has none of them.
    init?(_ outcome: RequestOutcome, sources: SourceCache, redactor: Redactor) {
        let problems = OutcomeText.problems(of: outcome, sources: sources, redactor: redactor, color: false)
        guard problems != nil || outcome.exchange != nil else { return nil }
        self.problems = problems.map(PageText.init) ?? false
        exchange = outcome.exchange.map { PageText(ExchangeText.render($0, redactor: redactor)) } ?? false
    }

    func child(named key: String) -> Any? {
        switch key {
        case "problems": problems
        case "exchange": exchange
        default: nil
        }
    }
}

/// A text of the page, which Mustache escapes and writes without first asking whether it is a template, a lambda or an
/// optional (a dynamic cast each, for a `String`).
private struct PageText: MustacheCustomRenderable {
    let renderText: String
    var isNull: Bool { false }

    /// `text` with its control characters shown as escapes (a page holds no raw ESC or NUL).
    init(_ text: String) {
        renderText = TerminalText.printable(text)
    }
}
