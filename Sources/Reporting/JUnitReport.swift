import CollectionFormat
import Foundation
import Running

/// JUnit XML as GitHub, GitLab and Jenkins read it: a testsuite per file, a testcase per request or step.
public enum JUnitReport {
    /// The report of a run; well-formed whatever the responses contained, with secrets redacted.
    public static func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        let summary = withCancellationCase(summary)
        var files: [String] = []
        var outcomesByFile: [String: [RequestOutcome]] = [:]
        for outcome in summary.outcomes {
            if outcomesByFile[outcome.file] == nil { files.append(outcome.file) }
            outcomesByFile[outcome.file, default: []].append(outcome)
        }
        func attribute(_ value: String) -> String { XMLText.escape(redactor.redact(value), inAttribute: true) }
        /// A name on one line, as the console shows it (a data row's name may hold line breaks).
        func name(_ value: String, file: String) -> String {
            XMLText.escape(TerminalText.oneLine(redactor.redactName(value, file: file)), inAttribute: true)
        }
        /// The collection's own names, not redacted (a short secret's value may equal a folder's name).
        func path(_ value: String) -> String { XMLText.escape(TerminalText.oneLine(value), inAttribute: true) }

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"runner\" tests=\"\(summary.total)\" failures=\"\(summary.count(.failed))\""
        xml += " errors=\"\(summary.count(.errored))\" skipped=\"\(summary.count(.skipped))\" time=\"\(seconds(summary.duration))\">\n"
        // The seed of the run's random values, on every suite (where JUnit readers look for properties).
        let seedProperty = summary.seed.map { "    <properties><property name=\"seed\" value=\"\($0)\"/></properties>\n" } ?? ""
        for file in files {
            let outcomes = outcomesByFile[file]!
            let suite = RunSummary(outcomes: outcomes, duration: outcomes.reduce(.zero) { $0 + ($1.duration ?? .zero) })
            let className = path(Self.className(of: file))
            xml += "  <testsuite name=\"\(path(file))\" tests=\"\(outcomes.count)\" failures=\"\(suite.count(.failed))\""
            xml += " errors=\"\(suite.count(.errored))\" skipped=\"\(suite.count(.skipped))\" time=\"\(seconds(suite.duration))\">\n"
            xml += seedProperty
            for outcome in outcomes {
                xml += "    <testcase name=\"\(name(outcome.displayName, file: file))\" classname=\"\(className)\""
                xml += " time=\"\(seconds(outcome.duration ?? .zero))\""
                let details = OutcomeText.problems(of: outcome, sources: sources, redactor: redactor, color: false)
                let flaky = outcome.flaky ? "      <properties><property name=\"flaky\" value=\"true\"/></properties>\n" : ""
                switch outcome.verdict {
                case .passed where outcome.flaky:
                    xml += ">\n" + flaky + "    </testcase>\n"
                    continue
                case .passed:
                    xml += "/>\n"
                    continue
                case .skipped:
                    xml += ">\n" + flaky + "      <skipped message=\"\(attribute(outcome.skipReason ?? "skipped"))\"/>\n"
                case .failed:
                    // A flaky pass that --fail-on-flaky failed keeps its flaky property beside the failure.
                    let first = outcome.failures.first?.diagnostic.message ?? "expectation failed"
                    xml += ">\n" + flaky + "      <failure type=\"expectation\" message=\"\(attribute(first))\">\(XMLText.escape(details ?? ""))</failure>\n"
                case .errored:
                    let message = outcome.error?.message ?? "request could not complete"
                    xml += ">\n" + flaky + "      <error type=\"request\" message=\"\(attribute(message))\">\(XMLText.escape(details ?? ""))</error>\n"
                }
                // The exchange of a failed or errored request, as the console's --verbose shows it.
                if let exchange = outcome.exchange {
                    xml += "      <system-out>\(XMLText.escape(ExchangeText.render(exchange, redactor: redactor)))</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// `summary` with an errored case saying the run was cancelled, when a signal cancelled it: its own cases (the rest
    /// skipped) would read as a passing run to a publisher that judges by failures and errors, as CI's JUnit readers
    /// do. (A run stopped at once by a second signal has such a case already.)
    private static func withCancellationCase(_ summary: RunSummary) -> RunSummary {
        guard let signal = summary.cancellingSignal, let status = summary.stopStatus,
              !summary.outcomes.contains(where: { $0.method.isEmpty && $0.verdict == .errored }) else { return summary }
        let message = "the run was cancelled by \(signal) (exit status \(status)): the requests it did not finish are skipped"
        var cancelled = RunSummary(outcomes: summary.outcomes + RunSummary.notSent([.error(message, path: nil, at: nil)], status: status).outcomes,
                                   duration: summary.duration)
        (cancelled.seed, cancelled.stopStatus) = (summary.seed, status)
        return cancelled
    }

    /// Seconds with three decimals (`1.234`), as `String(format: "%.3f")` writes them, at a tenth of its cost.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        // At a half millisecond, only the binary value of the seconds decides which way `%.3f` rounds.
        guard abs(milliseconds.truncatingRemainder(dividingBy: 1) - 0.5) > 1e-6 else {
            return String(format: "%.3f", milliseconds / 1000)
        }
        let thousandths = Int(milliseconds.rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A file's path in the dotted form CI tools group test cases by: `requests/users/01-create.yaml` becomes
    /// `requests.users.01-create`.
    static func className(of path: String) -> String {
        // Over UTF-8 bytes: splitting Characters costs more than the rest of a passing request's test case.
        var components = path.utf8.split(separator: UInt8(ascii: "/")).filter { !$0.elementsEqual(".".utf8) }
        if let last = components.last, let dot = last.lastIndex(of: UInt8(ascii: ".")), dot != last.startIndex {
            components[components.count - 1] = last[..<dot]
        }
        return String(decoding: Array(components.joined(separator: ".".utf8)), as: UTF8.self)
    }
}
