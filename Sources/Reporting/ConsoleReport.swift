import Foundation
import CollectionFormat
import Running

/// What the console shows: a line per request, its problems as located diagnostics, and a summary.
public struct ConsoleReport: Sendable {
    public var sources: SourceCache
    public var redactor: Redactor
    /// ANSI colours; only on a terminal and never with `NO_COLOR` (the caller decides).
    public var color: Bool
    /// Show each exchange (`--verbose`).
    public var verbose: Bool

    public init(sources: SourceCache, redactor: Redactor, color: Bool, verbose: Bool) {
        self.sources = sources
        self.redactor = redactor
        self.color = color
        self.verbose = verbose
    }

    /// Everything printed when a request finishes: its line, then its exchange and problems.
    public func render(_ outcome: RequestOutcome) -> String {
        redactor.learn(from: outcome)
        var text = line(for: outcome)
        if verbose { for exchange in outcome.exchanges { text += "\n" + render(exchange) } }
        if let problems = OutcomeText.problems(of: outcome, sources: sources, redactor: redactor, color: color) {
            text += "\n" + problems
        }
        // Under a failing expectation on the body, the start of the body (`--verbose` shows all of it above).
        if !verbose, outcome.failures.contains(where: \.concernsBody), let exchange = outcome.exchange,
           let start = ExchangeText.bodyStart(of: exchange, redactor: redactor) {
            text += "\n" + start
        }
        return text
    }

    /// `PASS  name  METHOD url  status  time  (n attempts)`.
    public func line(for outcome: RequestOutcome) -> String {
        // Built in one string with room for the usual columns (a line per request): no array of columns to join.
        var columns = ""
        columns.reserveCapacity(outcome.name.utf8.count + (outcome.flow?.utf8.count ?? 0) + outcome.method.utf8.count
                                + outcome.url.utf8.count + 48)
        columns += redactor.redactName(outcome.displayName, file: outcome.file)
        func add(_ column: String) {
            columns += "  "
            columns += column
        }
        // A standard method and what the runner measured are not hidden: a short secret (`GET`, `200`) does not hide them.
        add(redactor.redactMethod(outcome.method))
        columns += " "
        columns += Self.shownURL(redactor.redact(outcome.url))
        if let status = outcome.statusCode { add(String(status)) }
        if let duration = outcome.duration { add(OutcomeText.duration(duration)) }
        if outcome.attempts > 1 { add("(\(outcome.attempts) attempts)") }
        if outcome.flaky { add(paint("FLAKY", RequestOutcome.Verdict.skipped.colour)) }
        if let reason = outcome.skipReason { add("(\(redactor.redact(reason)))") }
        let verdict = paint(outcome.verdict.paddedLabel, outcome.verdict.colour)
        return verdict + "  " + TerminalText.oneLine(columns)
    }

    /// The most of a URL a result line shows: a longer one (a captured megabyte sent in the path) is cut there.
    static let shownURLLimit = 2048

    /// `url` as a result line shows it: cut after `shownURLLimit` characters, saying how long it is.
    static func shownURL(_ url: String) -> String {
        guard url.utf8.count > shownURLLimit else { return url }
        return String(url.prefix(shownURLLimit)) + "… (\(url.utf8.count) bytes)"
    }

    /// `nothing was sent: 2 problems` for a run stopped before sending (an invalid collection, a bad option), whose cases
    /// are its problems, not requests; nil for a run that sent.
    static func nothingSent(_ summary: RunSummary) -> String? {
        guard summary.stopStatus != nil, summary.cancellingSignal == nil, summary.outcomes.allSatisfy({ $0.method.isEmpty }) else { return nil }
        let total = summary.total
        return "nothing was sent" + (total == 0 ? "" : ": \(total) \(total == 1 ? "problem" : "problems")")
    }

    /// One hop, `>` and `<` prefixed, credentials and secrets hidden, bodies cut at 2 KiB.
    func render(_ exchange: Exchange) -> String {
        ExchangeText.render(exchange, redactor: redactor, bodyLimit: 2048)
    }

    /// `7 requests: 5 passed (1 flaky), 1 failed, 1 skipped in 84 ms`: counts of zero are left out, passed excepted;
    /// flaky requests `--fail-on-flaky` failed are counted after `failed`; a run a signal cancelled ends in
    /// `(cancelled by SIGINT)`.
    public func summary(_ summary: RunSummary) -> String {
        if let nothingSent = Self.nothingSent(summary) { return nothingSent }
        let flaky = { (verdict: RequestOutcome.Verdict) in summary.flakyCount(verdict) > 0 ? " (\(summary.flakyCount(verdict)) flaky)" : "" }
        var parts = ["\(summary.count(.passed)) passed" + flaky(.passed)]
        if summary.count(.failed) > 0 { parts.append(paint("\(summary.count(.failed)) failed", RequestOutcome.Verdict.failed.colour) + flaky(.failed)) }
        if summary.count(.errored) > 0 { parts.append(paint("\(summary.count(.errored)) errored", RequestOutcome.Verdict.errored.colour)) }
        if summary.count(.skipped) > 0 { parts.append("\(summary.count(.skipped)) skipped") }
        let cancelled = summary.cancellingSignal.map { " (cancelled by \($0))" } ?? ""
        let total = summary.total
        return "\(total) \(total == 1 ? "request" : "requests"): \(parts.joined(separator: ", ")) in \(OutcomeText.duration(summary.duration))"
            + cancelled
    }

    /// The line naming the seed of a run that used random built-ins, which `--seed` replays; nil for a run that used none.
    public static func seedLine(_ summary: RunSummary) -> String? {
        summary.seed.map { "random values from seed \($0): --seed \($0) sends them again" }
    }

    /// The progress line shown on a terminal during long runs (the caller overwrites it with `\r`).
    public func progress(done: Int, total: Int) -> String { "[\(done)/\(total)] running…" }

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}

extension RequestOutcome.Verdict {
    /// The verdict's word padded with spaces to five characters (`PASS `), so the names line up.
    var paddedLabel: String {
        switch self {
        case .passed: "PASS "
        case .failed: "FAIL "
        case .errored: "ERROR"
        case .skipped: "SKIP "
        }
    }

    /// The ANSI colour code of the verdict.
    var colour: String {
        switch self {
        case .passed: "32"
        case .failed: "31"
        case .errored: "35"
        case .skipped: "33"
        }
    }
}
