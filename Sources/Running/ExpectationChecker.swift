internal import Foundation
internal import CollectionFormat
internal import Expectations
internal import HTTPCore
internal import YAML

/// Checks a response against a request's `expect:` block, each failure located at its expectation.
struct ExpectationChecker {
    let step: PreparedStep
    /// The request file, for locations.
    let path: String
    let scope: VariableScope
    /// Whether a status of 400 or above fails without `expect.status` (not for `stopWhen`, which checks a state).
    var judgesStatus = true
    /// Credentials the request sent, besides the scope's secrets: an actual value holding one or a secret is shown
    /// only as every output hides it (`***`), without the matcher's notes about it (`length 16`).
    var credentials: [String] = []

    /// Every expectation that does not hold; templates in expected values are resolved with the scope.
    func failures(of content: ResponseContent, duration: Duration) throws(RunFailure) -> [ExpectationFailure] {
        let expect = step.definition.expect
        var failures: [ExpectationFailure] = []
        if let status = expect.status {
            failures += try check(status: status, actual: content.response.status.code)
        } else if judgesStatus, content.response.status.code >= 400 {
            // Without expect.status an error status is a failure: a 500 must not pass a check that forgot to say.
            let code = content.response.status.code
            failures.append(failure("status", at: step.definition.request.url.mark, message: "status \(code), and no expect.status accepts it",
                                    expected: "a status below 400, or the statuses expect.status lists", actual: String(code)))
        }
        // A status the request retries on, kept: the retry loader says why (a Retry-After longer than runner waits).
        if let note = content.response.notRetried {
            for index in failures.indices { failures[index].diagnostic.notes.append(note) }
        }
        for header in expect.headers {
            failures += try check(header: header, in: content.response.headers)
        }
        failures += try checkBody(content)
        failures += try checkXPath(content)
        if let text = expect.text {
            switch content.text {
            case .success(let body):
                failures += try check(text: text.value, body: body, at: text.mark)
            case .failure(let problem):
                failures.append(failure("text", at: text.mark, message: "text cannot be checked", expected: "a text body", actual: problem.message))
            }
        }
        if let schema = expect.schema, let compiled = step.schema {
            failures += check(schema: compiled, reference: schema, content: content)
        }
        if let openAPI = step.openAPI {
            failures += openAPI.failures(of: content, json: shownJSON(of: content), requestPath: path)
        }
        if let limit = expect.duration {
            failures += check(duration: duration, against: limit)
        }
        if content.response.resentAfterConnectionLoss {
            for index in failures.indices { failures[index].diagnostic.notes.append(StepExecutor.resentNote(answered: true)) }
        }
        if content.response.retriedAfterWritten {
            let note = StepExecutor.retriedAfterWrittenNote(content.response.request.method.rawValue)
            for index in failures.indices { failures[index].diagnostic.notes.append(note) }
        }
        return failures
    }

    /// Whether `expect.status` accepts `status` (false when its templates cannot be resolved).
    static func accepts(_ expectation: Located<StatusExpectation>, status: Int, scope: VariableScope) -> Bool {
        switch expectation.value {
        case .oneOf(let patterns): patterns.contains { $0.matches(status) }
        case .matcher(let matcher):
            (try? scope.resolve(matcher)).map { codes($0.matcher).evaluate(.int(status)).holds } == true
        }
    }

    /// A status matcher with each operand of digits (a template's text from a `--var` or a data row) read as the code it
    /// spells, and a class a template gave (`--var code=2xx`) read as its codes (in an equality, as their range).
    private static func codes(_ matcher: Matcher<JSONValue>) -> Matcher<JSONValue> {
        func code(_ operand: JSONValue) -> JSONValue {
            if case .string(let text) = operand, let code = StatusPattern.code(spelledBy: text) { .int(code) } else { operand }
        }
        /// The codes of the class an operand names (`"2xx"`), nil for another operand.
        func classCodes(_ operand: JSONValue) -> Range<Int>? {
            guard case .string(let text) = operand, let digit = StatusPattern.classDigit(of: text) else { return nil }
            return digit * 100..<digit * 100 + 100
        }
        func range(_ operand: JSONValue) -> Matcher<JSONValue>? {
            classCodes(operand).map { .all([.greaterThanOrEqual(.int($0.lowerBound)), .lessThan(.int($0.upperBound))]) }
        }
        switch matcher {
        case .equals(let operand): if let range = range(operand) { return range }
        case .notEquals(let operand): if let range = range(operand) { return .not(range) }
        case .in(let operands) where operands.contains(where: { classCodes($0) != nil }):
            // A class among the candidates stands for each of its codes.
            return .in(operands.flatMap { operand in classCodes(operand).map { $0.map { JSONValue.int($0) } } ?? [code(operand)] })
        case .not(let inner): return .not(codes(inner))
        case .all(let matchers): return .all(matchers.map(codes))
        default: break
        }
        return matcher.map(code)
    }

    private func check(status: Located<StatusExpectation>, actual: Int) throws(RunFailure) -> [ExpectationFailure] {
        switch status.value {
        case .oneOf(let patterns):
            guard !patterns.contains(where: { $0.matches(actual) }) else { return [] }
            let expected = patterns.count == 1 ? patterns[0].description : "one of " + patterns.map(\.description).joined(separator: ", ")
            return [failure("status", at: status.mark, message: "status did not match",
                            expected: expected, actual: String(actual))]
        case .matcher(let matcher):
            let resolved = try resolve(matcher).matcher
            try checkStatuses(matcher)
            var classes = false
            resolved.forEachCandidate { if case .string(let text) = $0, StatusPattern.classDigit(of: text) != nil { classes = true } }
            guard classes else { return evaluate(Self.codes(resolved), against: .int(actual), subject: "status", at: status.mark) }
            // A class is compared as its codes, but shown as given (`one of [500,"4xx"]`, not a hundred codes).
            guard !Self.codes(resolved).evaluate(.int(actual)).holds else { return [] }
            return [failure("status", at: status.mark, message: "status did not match",
                            expected: resolved.shown(against: .int(actual)).expectation, actual: String(actual))]
        }
    }

    /// Fails at the template whose value an equality of `expect.status` compares with but that is no status
    /// (`--var code=6xx`): it would never be equal to the code, and a negation would always hold.
    private func checkStatuses(_ matcher: Matcher<TemplateValue>) throws(RunFailure) {
        var problem: TemplateError?
        matcher.forEachCandidate { operand in
            guard problem == nil, operand.literalValue == nil, case .string(let template) = operand.content,
                  let value = try? scope.resolve(operand),
                  !StatusPattern.isStatus(value) else { return }
            problem = TemplateError("\(value.compactDescription()) (from '\(template.source)') is not a status", at: operand.mark,
                                    suggestion: StatusPattern.notAStatus)
        }
        if let problem { throw RunFailure(problem, in: path) }
    }

    /// A header is absent, one value, or several joined by `, `; numbers compare with numeric operands.
    private func check(header: HeaderExpectation, in headers: HTTPHeaders) throws(RunFailure) -> [ExpectationFailure] {
        let values = headers.values(for: header.name)
        let matcher = try resolve(header.matcher).matcher
        let value = values.joined(separator: ", ")
        let result = values.isEmpty ? matcher.evaluate(nil) : matcher.evaluate(text: value)
        return failures(result, of: matcher.boundsReadAsNumbers, against: values.isEmpty ? nil : .string(value),
                        subject: "header \(header.name)", at: header.mark)
    }

    /// The body as text; a number compares with numeric operands, as a header does (`text: "{{ count }}"`).
    private func check(text: Matcher<TemplateValue>, body: String, at mark: Mark) throws(RunFailure) -> [ExpectationFailure] {
        let matcher = try resolve(text).matcher
        return failures(matcher.evaluate(text: body), of: matcher.boundsReadAsNumbers, against: .string(body), subject: "text",
                        at: mark)
    }

    /// The `body:` queries; a body that is not JSON fails once, at the first query.
    private func checkBody(_ content: ResponseContent) throws(RunFailure) -> [ExpectationFailure] {
        let expectations = step.definition.expect.body
        guard let first = expectations.first else { return [] }
        let document: JSONValue
        switch shownJSON(of: content) {
        case .success(let value): document = value
        case .failure(let problem):
            return [failure("body \(first.path)", at: first.mark, message: "body \(first.path) cannot be checked", expected: "a JSON body",
                            actual: problem.message)]
        }
        var failures: [ExpectationFailure] = []
        for (expectation, query) in zip(expectations, step.bodyQueries) {
            guard let query else {
                failures.append(failure("body \(expectation.path)", at: expectation.pathMark,
                                        message: "'\(expectation.path)' is not a valid JSONPath query", expected: "a valid query", actual: expectation.path))
                continue
            }
            let selected = query.values(in: document)
            if let count = expectation.count {
                let resolved = try resolve(count.value).matcher
                failures += self.failures(resolved.evaluate(count: selected.count), of: resolved, against: .int(selected.count),
                                          subject: "body \(expectation.path) count", at: count.mark)
            }
            var found = try check(expectation.matcher, against: JSONPath.comparableValue(of: selected),
                                  subject: "body \(expectation.path)", at: expectation.mark)
            // A query that may select several nodes (a wildcard, a filter) but selected one compares that node, not a list.
            if !query.isSingular, selected.count == 1 {
                let note = "\(expectation.path) can select several nodes but selected one, which is compared as itself, not as a "
                    + "list of one (with two or more it is the list of them); count: checks how many"
                for index in found.indices { found[index].diagnostic.notes.append(note) }
            }
            failures += found
        }
        return failures
    }

    /// The `xpath:` queries; a body that is not XML (or HTML) fails once, at the first query.
    private func checkXPath(_ content: ResponseContent) throws(RunFailure) -> [ExpectationFailure] {
        let expectations = step.definition.expect.xpath
        guard let first = expectations.first else { return [] }
        let document: MarkupDocument
        switch content.markup {
        case .success(let parsed): document = parsed
        case .failure(let problem):
            return [failure("xpath \(first.expression)", at: first.mark, message: "xpath \(first.expression) cannot be checked",
                            expected: content.expectedMarkup, actual: problem.message)]
        }
        var failures: [ExpectationFailure] = []
        for (expectation, query) in zip(expectations, step.xpathQueries) {
            let subject = "xpath \(expectation.expression)"
            let actual: JSONValue?
            do {
                actual = try query.get().comparableValue(in: document)
            } catch {
                failures.append(failure(subject, at: expectation.expressionMark, message: "\(subject) cannot be evaluated",
                                        expected: "a valid XPath expression", actual: error.message))
                continue
            }
            failures += try check(expectation.matcher, against: actual, subject: subject, at: expectation.mark)
        }
        return failures
    }

    /// The schema expectation: one failure listing every violation, or saying why the schema or body cannot be used.
    private func check(schema result: Result<JSONSchema, PreparedStep.SchemaProblem>, reference: FileReference,
                       content: ResponseContent) -> [ExpectationFailure] {
        let subject = "schema \(reference.written)"
        switch (result, shownJSON(of: content)) {
        case (.failure(let problem), _):
            return [failure(subject, at: reference.mark, message: "\(subject) cannot be used", expected: "a usable schema", actual: problem.message)]
        case (_, .failure(let problem)):
            return [failure(subject, at: reference.mark, message: "\(subject) cannot be checked", expected: "a JSON body",
                            actual: problem.message)]
        case (.success(let schema), .success(let document)):
            let violations = schema.validate(document)
            guard !violations.isEmpty else { return [] }
            // Every violation, one per line, up to a number a person reads.
            let shown = violations.prefix(Self.shownViolations).map(\.description)
            let more = violations.count > shown.count ? ["… and \(violations.count - shown.count) more"] : []
            return [failure(subject, at: reference.mark,
                            message: "the body does not match the schema (\(violations.count) \(violations.count == 1 ? "violation" : "violations"))",
                            expected: "a body valid against \(reference.written)", actual: (shown + more).joined(separator: "\n"))]
        }
    }

    /// The most schema violations a failure lists.
    static let shownViolations = 100

    /// `duration` compares milliseconds (to a tenth; whole ones written without a fraction: `2000 ms`).
    private func check(duration: Duration, against limit: Located<Matcher<Duration>>) -> [ExpectationFailure] {
        func milliseconds(_ value: Double) -> JSONValue {
            value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
        }
        let matcher = limit.value.map { milliseconds($0.milliseconds) }
        let actual = milliseconds((duration.milliseconds * 10).rounded() / 10)
        let result = matcher.evaluate(actual)
        guard !result.holds else { return [] }
        return [failure("duration", at: limit.mark, message: "duration did not match",
                        expected: matcher.expectation + " ms", actual: "\(actual.serialized()) ms")]
    }

    /// `subject` names the expectation in a failure; only a failure needs its text.
    private func check(_ matcher: Matcher<TemplateValue>, against actual: JSONValue?, subject: @autoclosure () -> String,
                       at mark: Mark) throws(RunFailure) -> [ExpectationFailure] {
        let (resolved, templates) = try resolve(matcher)
        return failures(resolved.evaluate(actual, givenBy: templates), of: resolved, against: actual, subject: subject(), at: mark)
    }

    private func evaluate(_ matcher: Matcher<JSONValue>, against actual: JSONValue?, subject: @autoclosure () -> String,
                          at mark: Mark) -> [ExpectationFailure] {
        failures(matcher.evaluate(actual), of: matcher, against: actual, subject: subject(), at: mark)
    }

    /// The failure `result` is (none when the matcher holds), for `actual` checked by `matcher`.
    private func failures(_ result: MatchResult, of matcher: Matcher<JSONValue>, against actual: JSONValue?,
                          subject: @autoclosure () -> String, at mark: Mark) -> [ExpectationFailure] {
        guard !result.holds else { return [] }
        let subject = subject()
        let detail = holdsHiddenText(actual) && !result.isAboutTheMatcher ? nil : result.message
        return [failure(subject, at: mark, message: Self.message(subject, detail: detail, explains: result.explains),
                        expected: matcher.shown(against: actual).expectation,
                        actual: actual.map { $0.compactDescription(maxLength: 300) } ?? "nothing")]
    }

    /// The body parsed as JSON, or why it is not JSON as failures may say it: without its size or the parser's words
    /// (which tell its first characters) when it holds hidden text. Every check of the body as JSON reads it here.
    private func shownJSON(of content: ResponseContent) -> Result<JSONValue, ResponseContent.BodyProblem> {
        content.json.mapError { problem in
            guard case .success(let text) = content.text, holdsHiddenText(.string(text)) else { return problem }
            return ResponseContent.BodyProblem(message: "the response body is not JSON (it holds a hidden value)")
        }
    }

    /// Whether `actual` holds a secret or a credential the request sent, or is a piece of one (a captured part of a
    /// token), which every output hides.
    private func holdsHiddenText(_ actual: JSONValue?) -> Bool {
        guard let actual else { return false }
        return SensitiveText.derives(actual.interpolatedText, from: Array(scope.secretValues) + credentials)
    }

    /// The matcher resolved in the scope, with the lone templates its operands came from.
    private func resolve(_ matcher: Matcher<TemplateValue>) throws(RunFailure) -> (matcher: Matcher<JSONValue>, templates: [JSONValue: String]) {
        do { return try scope.resolve(matcher) } catch { throw RunFailure(error, in: path) }
    }

    private func failure(_ subject: String, at mark: Mark, message: String, expected: String, actual: String) -> ExpectationFailure {
        let concernsBody = subject == "text" || ["body ", "schema ", "xpath "].contains { subject.hasPrefix($0) }
        return ExpectationFailure(diagnostic: .error(message, path: path, at: mark), expected: expected, actual: actual,
                                  concernsBody: concernsBody)
    }

    /// `body $.id did not match`, with the matcher's explanation when it says more than expected and actual.
    private static func message(_ subject: String, detail: String?, explains: Bool = false) -> String {
        guard let detail, explains || !detail.hasPrefix("expected ") else { return "\(subject) did not match" }
        return "\(subject) did not match: \(detail)"
    }
}

extension Duration {
    /// The duration in milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
