public import CollectionFormat
public import HTTPCore
public import Running
import YAML

/// A `--report-json` document read back: the run's summary with its outcomes, for `merge-reports` (which writes
/// every report format from the parts of a sharded run) and `--rerun-failed` (which runs what failed again).
public struct JSONReportDocument: Sendable {
    /// The run as the report tells it (seed, shard and plan included); its outcomes are already redacted.
    public var summary: RunSummary
    /// The exit status the run reported.
    public var exitStatus: Int32

    /// Why a file is not a JSON report this runner can read.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a report's text; `name` names it in problems.
    public static func read(_ text: String, name: String) throws(Problem) -> JSONReportDocument {
        let root: JSONValue
        do {
            root = try JSONValue.parse(Array(text.utf8))
        } catch {
            throw Problem(description: "\(name) is not JSON: \(error)")
        }
        guard case .object(let report) = root, case .int(let version)? = report["version"],
              case .array(let requests)? = report["requests"], case .object(let counts)? = report["summary"] else {
            // Which of the three it lacks, or has as something else (`"version": "1"` has a version, as a string).
            let expected: [(key: String, kind: String, fits: (JSONValue) -> Bool)] = [
                ("version", "an integer", { if case .int = $0 { true } else { false } }),
                ("summary", "an object", { if case .object = $0 { true } else { false } }),
                ("requests", "a list", { if case .array = $0 { true } else { false } }),
            ]
            let lacks = expected.compactMap { key, kind, fits -> String? in
                guard case .object(let object) = root, let value = object[key] else { return "it has no '\(key)'" }
                return fits(value) ? nil : Self.wrongKind(key, value, kind)
            }
            throw Problem(description: "\(name) is not a runner JSON report (--report-json): \(lacks.joined(separator: "; "))")
        }
        // Every report's summary counts its requests: one without is not a report (nothing to rerun would be read from it),
        // and one that lists fewer has lost some (a truncated or edited part).
        switch counts["total"] {
        case .int(let total)? where total == requests.count: break
        case .int(let total)?:
            throw Problem(description: "\(name): its summary counts \(total) \(total == 1 ? "request" : "requests"), but it lists "
                          + "\(requests.count): is it cut short or edited?")
        case nil:
            throw Problem(description: "\(name) is not a runner JSON report (--report-json): its summary has no 'total'")
        case let other?:
            throw Problem(description: "\(name) is not a runner JSON report (--report-json): its summary's total is "
                          + "\(other.kindName), not an integer")
        }
        guard version <= JSONReport.version else {
            throw Problem(description: "\(name) is a version \(version) report; this runner reads version \(JSONReport.version) and older")
        }
        var outcomes: [RequestOutcome] = []
        for (position, request) in requests.enumerated() {
            do throws(RecordLack) { outcomes.append(try Self.outcome(request)) } catch {
                throw Problem(description: "\(name): request \(position + 1) of the report is not a request record: \(error.text)")
            }
        }
        let duration = Self.duration(counts["durationMs"]) ?? .zero
        guard duration >= .zero else { throw Problem(description: "\(name): its summary's durationMs is negative: is it edited?") }
        var summary = RunSummary(outcomes: outcomes, duration: duration)
        if case .int(let seed)? = report["seed"], seed >= 0 { summary.seed = UInt64(seed) }
        switch report["failOnFlaky"] {
        case nil, .null?: break
        case .bool(let failsFlaky)?: summary.failsFlaky = failsFlaky
        case let other?: throw Problem(description: "\(name): its failOnFlaky is \(other.kindName), not true or false: is it edited?")
        }
        switch report["shard"] {
        case nil, .null?: break
        case .object(let shard)?:
            guard case .int(let index)? = shard["index"], case .int(let total)? = shard["total"], total >= 1, (1...total).contains(index) else {
                throw Problem(description: "\(name): its shard is not a part of a run ('index' and 'total' integers, "
                              + "1 <= index <= total): \(JSONValue.object(shard).compactDescription())")
            }
            summary.shard = Shard(index: index, total: total)
        case let other?:
            throw Problem(description: "\(name): its shard is \(other.kindName), not an object")
        }
        if case .object(let plan)? = report["plan"], case .string(let id)? = plan["id"], case .array(let files)? = plan["files"] {
            summary.plan = PlanRecord(id: id, files: Self.files(files))
            summary.plan?.inputs = Self.inputs(of: plan)
            switch plan["part"] {
            case nil, .null?: break
            case let part?:
                guard let read = Self.part(part) else {
                    throw Problem(description: "\(name): its plan's part is not what a part was dealt ('files', a list of paths, "
                                  + "'steps', each one's number of steps, 'dealt', how many files the parts were dealt, and 'dealtID', "
                                  + "their hash): \(part.compactDescription())")
                }
                summary.plan?.part = read
            }
        }
        let exitStatus: Int32
        switch counts["exitStatus"] {
        case .int(let status)?: exitStatus = Int32(clamping: status)
        // Whether the run stopped, and so what it did not test, is read from it: not a value to guess.
        case nil:
            throw Problem(description: "\(name) is not a runner JSON report (--report-json): its summary has no 'exitStatus'")
        case let other?:
            throw Problem(description: "\(name) is not a runner JSON report (--report-json): its summary's exitStatus is "
                          + "\(other.kindName), not an integer")
        }
        // What the summary counts is what its records say (a part whose record was flipped or dropped with its count is
        // edited), and an exit status the verdicts give (0, 3, 4) is theirs; any other is the run's stop (a signal, an
        // invalid collection, a bad --proxy), kept as it was.
        for verdict in RequestOutcome.Verdict.allCases {
            if case .int(let count)? = counts[verdict.jsonName], count != summary.count(verdict) {
                throw Problem(description: "\(name): its summary counts \(count) \(verdict.jsonName), but its records hold "
                              + "\(summary.count(verdict)): is it edited?")
            }
        }
        if [0, 3, 4].contains(exitStatus) {
            guard exitStatus == summary.exitStatus else {
                throw Problem(description: "\(name): its exit status \(exitStatus) is not the \(summary.exitStatus) its records give: "
                              + "is it edited?")
            }
        } else {
            // A run that stopped before sending (exit 1 or 2) reports its errors, never a request; a merged report (a
            // plan and no shard) holds the other parts' requests.
            let merged = summary.shard == nil && summary.plan != nil
            if exitStatus == 1 || exitStatus == 2, !merged, outcomes.contains(where: { !$0.method.isEmpty }) {
                throw Problem(description: "\(name): its exit status \(exitStatus) says it sent nothing, but it holds request records: "
                              + "is it edited?")
            }
            summary.stopStatus = exitStatus
        }
        return JSONReportDocument(summary: summary, exitStatus: exitStatus)
    }

    /// The files of a plan's list that name a path and a hash.
    private static func files(_ list: [JSONValue]) -> [PlanRecord.File] {
        list.compactMap { file in
            guard case .object(let file) = file, case .string(let path)? = file["path"], case .string(let hash)? = file["hash"]
            else { return nil }
            return PlanRecord.File(path: path, hash: hash)
        }
    }

    /// What a plan records besides its files (its environment, tags, `--var` names, other files read); nil when it does
    /// not record all of it (a report written before it was recorded).
    private static func inputs(of plan: JSONObject) -> PlanRecord.Inputs? {
        guard case .array(let chain)? = plan["environment"], case .string(let tags)? = plan["tags"],
              case .array(let variables)? = plan["variables"], case .array(let secretVariables)? = plan["secretVariables"],
              case .array(let read)? = plan["read"],
              case .string(let unplanned)? = plan["unplanned"] else { return nil }
        let strings = { (list: [JSONValue]) in list.compactMap { if case .string(let text) = $0 { text } else { nil } } }
        return PlanRecord.Inputs(environment: strings(chain), tags: tags, variables: strings(variables),
                                 secretVariables: strings(secretVariables), files: files(read), unplanned: unplanned)
    }

    /// A plan's `part` member as what a part was dealt; nil when it is not one.
    private static func part(_ value: JSONValue) -> PlanRecord.Part? {
        guard case .object(let part) = value, case .array(let list)? = part["files"], case .array(let counts)? = part["steps"],
              case .int(let dealt)? = part["dealt"], case .string(let dealtID)? = part["dealtID"] else { return nil }
        let files = list.compactMap { if case .string(let path) = $0 { path } else { nil } }
        let steps = counts.compactMap { if case .int(let count) = $0, count >= 1 { count } else { nil } }
        guard files.count == list.count, steps.count == counts.count, steps.count == files.count, dealt >= files.count else { return nil }
        return PlanRecord.Part(files: files, steps: steps, dealt: dealt, dealtID: dealtID)
    }

    /// What a request record lacks that every record has, in words: `it has no 'name'`.
    private struct RecordLack: Error {
        let text: String
    }

    /// `its 'status' is a string, not an integer`: a member of another kind than a report's.
    private static func wrongKind(_ key: String, _ member: JSONValue, _ kind: String) -> String {
        "its '\(key)' is \(member.kindName), not \(kind)"
    }

    /// One request record as an outcome, or what it lacks that every record has.
    private static func outcome(_ value: JSONValue) throws(RecordLack) -> RequestOutcome {
        guard case .object(let record) = value else { throw RecordLack(text: "it is \(value.kindName), not an object") }
        func text(_ key: String) throws(RecordLack) -> String {
            guard let member = record[key] else { throw RecordLack(text: "it has no '\(key)'") }
            guard case .string(let text) = member else { throw RecordLack(text: Self.wrongKind(key, member, "a string")) }
            return text
        }
        /// A member that is absent or null, or a value that `read` reads (nil: of another kind).
        func optional<T>(_ key: String, _ kind: String, _ read: (JSONValue) -> T?) throws(RecordLack) -> T? {
            guard let member = record[key], member != .null else { return nil }
            guard let value = read(member) else { throw RecordLack(text: Self.wrongKind(key, member, kind)) }
            return value
        }
        let (file, name, result) = (try text("file"), try text("name"), try text("result"))
        let status = try optional("status", "an integer", { int($0) })
        let attempts = try optional("attempts", "an integer", { int($0) })
        let duration = try optional("durationMs", "a number", { Self.duration($0) })
        let verdicts = RequestOutcome.Verdict.allCases
        guard let verdict = verdicts.first(where: { $0.jsonName == result }) else {
            throw RecordLack(text: "its result '\(result)' is none of " + verdicts.map(\.jsonName).joined(separator: ", "))
        }
        // Values no run writes (an edited record).
        if verdict == .failed, objects(record["failures"]).isEmpty { throw RecordLack(text: "it is failed but lists no failure") }
        if verdict == .passed, !objects(record["failures"]).isEmpty { throw RecordLack(text: "it is passed but lists failures") }
        if let attempts, attempts < 1 { throw RecordLack(text: "its attempts \(attempts) is not 1 or more") }
        if let duration, duration < .zero { throw RecordLack(text: "its durationMs is negative") }
        if let status, !(100...999).contains(status) { throw RecordLack(text: "its status \(status) is not an HTTP status (100 to 999)") }
        if verdict == .errored, object(record["error"]) == nil { throw RecordLack(text: "it is errored but has no error") }
        var outcome = RequestOutcome(
            file: file, flow: string(record["flow"]), name: name, method: string(record["method"]) ?? "",
            url: string(record["url"]) ?? "", verdict: verdict, statusCode: status,
            duration: duration, attempts: attempts ?? 1,
            failures: objects(record["failures"]).map { failure in
                ExpectationFailure(diagnostic: diagnostic(failure), expected: string(failure["expected"]) ?? "",
                                   actual: string(failure["actual"]) ?? "")
            },
            error: { if case .object(let error)? = record["error"] { diagnostic(error) } else { nil } }(),
            skipReason: string(record["skipReason"]))
        outcome.flaky = record["flaky"] == .bool(true)
        if case .object(let exchange)? = record["exchange"] { outcome.exchange = Self.exchange(exchange) }
        return outcome
    }

    /// A failure's or an error's location, message, notes and suggestion as a diagnostic.
    private static func diagnostic(_ record: JSONObject) -> Diagnostic {
        var diagnostic = located(string(record["message"]) ?? "", at: string(record["location"]))
        if case .array(let notes)? = record["notes"] { diagnostic.notes = notes.compactMap(string) }
        diagnostic.suggestion = string(record["suggestion"])
        return diagnostic
    }

    /// An error diagnostic at `location`: `path:line:col`, or a path alone (a path may itself hold colons).
    private static func located(_ message: String, at location: String?) -> Diagnostic {
        guard let location else { return .error(message, path: nil, at: nil) }
        let parts = location.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
            return .error(message, path: parts.dropLast(2).joined(separator: ":"), at: Mark(line: line, column: column))
        }
        return .error(message, path: location, at: nil)
    }

    /// An `exchange` record (its duration zero when the report predates `durationMs` there).
    private static func exchange(_ record: JSONObject) -> Exchange {
        let request = object(record["request"]) ?? JSONObject(), response = object(record["response"])
        func headers(_ value: JSONValue?) -> [(name: String, value: String)] {
            objects(value).compactMap { field in string(field["name"]).map { ($0, string(field["value"]) ?? "") } }
        }
        return Exchange(method: string(request["method"]) ?? "", url: string(request["url"]) ?? "",
                        requestHeaders: headers(request["headers"]), requestBody: string(request["body"]),
                        status: response.flatMap { int($0["status"]) }, responseHeaders: headers(response?["headers"]),
                        responseBody: response.flatMap { string($0["body"]) }, error: string(record["error"]),
                        duration: duration(record["durationMs"]) ?? .zero)
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { text } else { nil }
    }

    private static func int(_ value: JSONValue?) -> Int? {
        if case .int(let number)? = value { number } else { nil }
    }

    private static func object(_ value: JSONValue?) -> JSONObject? {
        if case .object(let object)? = value { object } else { nil }
    }

    private static func objects(_ value: JSONValue?) -> [JSONObject] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(object)
    }

    /// A `durationMs` value as a duration.
    private static func duration(_ value: JSONValue?) -> Duration? {
        switch value {
        case .int(let milliseconds)?: .milliseconds(milliseconds)
        case .double(let milliseconds)?: .microseconds(Int64((milliseconds * 1000).rounded()))
        default: nil
        }
    }
}
