import CollectionFormat
import Foundation
import Running

/// JUnit XML as GitHub, GitLab and Jenkins read it: a testsuite per file, a testcase per request or step.
public enum JUnitReport {
    /// The report of a run; well-formed whatever the responses contained, with secrets redacted.
    public static func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        var files: [String] = []
        var outcomesByFile: [String: [RequestOutcome]] = [:]
        for outcome in summary.outcomes {
            if outcomesByFile[outcome.file] == nil { files.append(outcome.file) }
            outcomesByFile[outcome.file, default: []].append(outcome)
        }
        func text(_ value: String) -> String { XMLText.escape(redactor.redact(value)) }

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"runner\" tests=\"\(summary.total)\" failures=\"\(summary.count(.failed))\""
        xml += " errors=\"\(summary.count(.errored))\" skipped=\"\(summary.count(.skipped))\" time=\"\(seconds(summary.duration))\">\n"
        for file in files {
            let outcomes = outcomesByFile[file]!
            let suite = RunSummary(outcomes: outcomes, duration: outcomes.reduce(.zero) { $0 + ($1.duration ?? .zero) })
            xml += "  <testsuite name=\"\(text(file))\" tests=\"\(outcomes.count)\" failures=\"\(suite.count(.failed))\""
            xml += " errors=\"\(suite.count(.errored))\" skipped=\"\(suite.count(.skipped))\" time=\"\(seconds(suite.duration))\">\n"
            for outcome in outcomes {
                xml += "    <testcase name=\"\(text(outcome.displayName))\" classname=\"\(text(Self.className(of: file)))\""
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
                    xml += ">\n" + flaky + "      <skipped message=\"\(text(outcome.skipReason ?? "skipped"))\"/>\n"
                case .failed:
                    // A flaky pass that --fail-on-flaky failed keeps its flaky property beside the failure.
                    let first = outcome.failures.first?.diagnostic.message ?? "expectation failed"
                    xml += ">\n" + flaky + "      <failure type=\"expectation\" message=\"\(text(first))\">\(text(details ?? ""))</failure>\n"
                case .errored:
                    let message = outcome.error?.message ?? "request could not complete"
                    xml += ">\n" + flaky + "      <error type=\"request\" message=\"\(text(message))\">\(text(details ?? ""))</error>\n"
                }
                // The exchange of a failed or errored request, as the console's --verbose shows it.
                if let exchange = outcome.exchange {
                    xml += "      <system-out>\(text(ExchangeText.render(exchange, redactor: redactor)))</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration.milliseconds / 1000)
    }

    /// A file's path in the dotted form CI tools group test cases by: `requests/users/01-create.yaml` becomes
    /// `requests.users.01-create`.
    static func className(of path: String) -> String {
        var components = path.split(separator: "/").filter { $0 != "." }.map(String.init)
        if let last = components.last, let dot = last.lastIndex(of: "."), dot != last.startIndex {
            components[components.count - 1] = String(last[..<dot])
        }
        return components.joined(separator: ".")
    }
}
