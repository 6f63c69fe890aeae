import CollectionFormat
import HTTPCore
import Running

/// The `--report-json` document: a stable, documented shape with every outcome (docs/json-report.md).
public enum JSONReport {
    /// Version of the shape; bumped only when a field changes meaning or disappears.
    public static let version = 1

    /// The report of a run, with secrets redacted.
    public static func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        func text(_ value: String) -> JSONValue { .string(redactor.redact(value)) }
        func optional(_ value: String?) -> JSONValue { value.map(text) ?? .null }
        func fileList(_ files: [PlanRecord.File]) -> JSONValue {
            // The collection's own paths, not redacted: a short secret's value may equal a folder's name.
            .array(files.map { .object(JSONObject([("path", .string($0.path)), ("hash", .string($0.hash))])) })
        }
        func milliseconds(_ duration: Duration?) -> JSONValue {
            duration.map { .double(($0.milliseconds * 1000).rounded() / 1000) } ?? .null
        }
        func headers(_ fields: [(name: String, value: String)]) -> JSONValue {
            .array(fields.map { .object(JSONObject([("name", text($0.name)), ("value", text(redactor.redactHeader(name: $0.name, value: $0.value)))])) })
        }
        func body(_ text: String?, isJSON: Bool) -> JSONValue {
            text.map { .string(Exchange.shown($0, isJSON: isJSON, redacting: redactor.redact)) } ?? .null
        }
        func exchange(_ exchange: Exchange) -> JSONValue {
            .object(JSONObject([
                ("request", .object(JSONObject([
                    ("method", .string(redactor.redactMethod(exchange.method))), ("url", text(exchange.url)),
                    ("headers", headers(exchange.requestHeaders)),
                    ("body", body(exchange.requestBody, isJSON: exchange.requestBodyIsJSON)),
                ]))),
                ("response", exchange.status.map { status in
                    .object(JSONObject([
                        ("status", .int(status)), ("headers", headers(exchange.responseHeaders)),
                        ("body", body(exchange.responseBody, isJSON: exchange.responseBodyIsJSON)),
                    ]))
                } ?? .null),
                ("error", optional(exchange.error)),
                // The time of a hop that got no response is not known (the request's own durationMs says how long it took).
                ("durationMs", exchange.status == nil ? .null : milliseconds(exchange.duration)),
            ]))
        }
        func location(_ diagnostic: Diagnostic) -> JSONValue {
            guard let path = diagnostic.path else { return .null }
            // The path and numbers not redacted: a short secret's value may equal a folder's name or a number.
            return .string(path + (diagnostic.mark.map { ":\($0.line):\($0.column)" } ?? ""))
        }
        func remarks(_ diagnostic: Diagnostic) -> [(String, JSONValue)] {
            [("notes", .array(diagnostic.notes.map(text))), ("suggestion", optional(diagnostic.suggestion))]
        }

        let requests: [JSONValue] = summary.outcomes.map { outcome in
            .object(JSONObject([
                ("file", .string(outcome.file)),
                ("flow", outcome.flow.map { .string(redactor.redactName($0, file: outcome.file)) } ?? .null),
                ("name", .string(redactor.redactName(outcome.name, file: outcome.file))),
                ("method", .string(redactor.redactMethod(outcome.method))),
                ("url", text(outcome.url)),
                ("result", .string(outcome.verdict.jsonName)),
                ("status", outcome.statusCode.map(JSONValue.int) ?? .null),
                ("durationMs", milliseconds(outcome.duration)),
                ("attempts", .int(outcome.attempts)),
                ("flaky", .bool(outcome.flaky)),
                ("failures", .array(outcome.failures.map { failure in
                    .object(JSONObject([
                        ("location", location(failure.diagnostic)),
                        ("message", text(failure.diagnostic.message)),
                        ("expected", text(failure.expected)),
                        ("actual", text(failure.actual)),
                    ] + remarks(failure.diagnostic)))
                })),
                ("error", outcome.error.map { error in
                    .object(JSONObject([("location", location(error)), ("message", text(error.message))] + remarks(error)))
                } ?? .null),
                ("skipReason", optional(outcome.skipReason)),
                ("exchange", outcome.exchange.map(exchange) ?? .null),
            ]))
        }
        let report = JSONValue.object(JSONObject([
            ("version", .int(version)),
            ("summary", .object(JSONObject([
                ("total", .int(summary.total)),
                ("passed", .int(summary.count(.passed))),
                ("failed", .int(summary.count(.failed))),
                ("errored", .int(summary.count(.errored))),
                ("skipped", .int(summary.count(.skipped))),
                ("flaky", .int(summary.flakyCount)),
                ("durationMs", milliseconds(summary.duration)),
                ("exitStatus", .int(Int(summary.exitStatus))),
            ]))),
            ("seed", summary.seed.map { .int(Int(clamping: $0)) } ?? .null),
            ("failOnFlaky", summary.failsFlaky.map(JSONValue.bool) ?? .null),
            ("shard", summary.shard.map { .object(JSONObject([("index", .int($0.index)), ("total", .int($0.total))])) } ?? .null),
            ("plan", summary.plan.map { plan in
                .object(JSONObject([
                    ("id", .string(plan.id)),
                    ("files", fileList(plan.files)),
                ] + (plan.inputs.map { inputs in
                    [("environment", .array(inputs.environment.map(text))), ("tags", text(inputs.tags)),
                     ("variables", .array(inputs.variables.map(text))), ("secretVariables", .array(inputs.secretVariables.map(text))),
                     ("read", fileList(inputs.files)),
                     ("unplanned", .string(inputs.unplanned))]
                } ?? []) + (plan.part.map { part in
                    [("part", .object(JSONObject([("files", .array(part.files.map { .string($0) })), ("steps", .array(part.steps.map { .int($0) })),
                                                   ("dealt", .int(part.dealt)),
                                                   ("dealtID", .string(part.dealtID))])))]
                } ?? [])))
            } ?? .null),
            ("requests", .array(requests)),
        ]))
        return report.serialized(pretty: true) + "\n"
    }
}

extension RequestOutcome.Verdict {
    /// The verdict's name in the JSON report.
    var jsonName: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .errored: "errored"
        case .skipped: "skipped"
        }
    }
}
