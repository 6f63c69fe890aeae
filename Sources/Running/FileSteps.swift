public import CollectionFormat
internal import Expectations
internal import HTTPCore
internal import Loaders

extension CollectionRun {
    /// One run of a file's steps (the whole file, or one row of `each:`): its scope, its name, and whether it runs.
    struct FileRun {
        var scope: VariableScope
        /// The row's name (`NAME [ROW]`, or the `name:` template's), nil for a file without rows.
        var label: String?
        /// Why the run's steps cannot run at all (a row that does not resolve, `each:` over something else than a list).
        var problem: RunFailure?
        /// Why its steps are skipped (a `when:` of the flow that does not hold, `each:` over an empty list).
        var skipReason: String?
    }

    /// What one run of a file carries from step to step.
    struct FlowState {
        var run: FileRun
        let jar = CookieJar()
        /// The first step that failed; the steps after it (not the cleanup steps) are skipped.
        var failedStep: String?
        /// Why a step was skipped for a capture an earlier file failed to make: the steps after it (not the cleanup steps)
        /// are skipped so too.
        var missedCapture: String?
        /// Whether a step got past cancellation and `--bail`: the flow has begun, so its cleanup steps run whatever happens.
        var started = false
        var captures: [(name: String, value: JSONValue)] = []
        /// The `use:`s among the steps (each with the uses around it) one of whose steps was reached, and why those of
        /// the others were not (an earlier step failed, the run was cancelled or bailed): a used file's cleanup steps run
        /// only after its steps were reached, as a flow's run only once it began.
        var usesReached: Set<[UseSite]> = []
        var usesNotReached: [[UseSite]: String] = [:]
        /// The names captured by steps a `use:` brought in, with that use (and the uses around it).
        var capturesOfUses: [(use: [UseSite], name: String)] = []

        /// Notes that `step` was reached, or why not (`reason`), for the uses that brought it in.
        mutating func note(_ step: RequestDefinition, notReachedBecause reason: String?) {
            guard !step.isCleanup, !step.useSites.isEmpty else { return }
            for depth in 1...step.useSites.count {
                let use = Array(step.useSites.prefix(depth))
                if let reason {
                    if !usesReached.contains(use), usesNotReached[use] == nil { usesNotReached[use] = reason }
                } else {
                    usesReached.insert(use)
                }
            }
        }
    }

    /// Runs the steps of a file in order, once per row of `each:`; a failed step skips the rest of its flow but not its
    /// cleanup (`finally:`) steps.
    func runSteps(of file: RequestFile, _ index: Int, scope startScope: VariableScope, _ context: FileContext) async -> FileResult {
        var result = FileResult()
        for run in fileRuns(of: file, from: startScope) {
            var flow = FlowState(run: run)
            for definition in options.selection.selectedSteps(of: file) {
                await runStep(definition, in: file, flow: &flow, bail: options.bail ? context.bail : nil) { outcome in
                    if outcome.flaky, options.failOnFlaky { Self.failFlaky(&outcome, definition, environment: collection.environment) }
                    if outcome.verdict.isFailure, options.bail { context.bail.set() }
                    result.counts.add(outcome)
                    if context.keepingOutcomes { result.outcomes.append(outcome) }
                    await context.outcomes.add(outcome, file: index)
                }
            }
            result.captures += flow.captures
        }
        return result
    }

    /// The runs of a file: one per row of `each:` (rows written or read, or the elements of a template's list), else one;
    /// each draws its random values from a stream of its own, and knows whether the flow's `when:` holds for it.
    private func fileRuns(of file: RequestFile, from start: VariableScope) -> [FileRun] {
        var base = start
        base.builtins.random = random.stream(file.path)
        var runs: [FileRun]
        if let template = file.rowsTemplate {
            switch EachList.elements(of: template, in: base, path: file.path) {
            case .failure(let problem):
                runs = [FileRun(scope: base, problem: problem)]
            case .success(let elements) where elements.isEmpty:
                runs = [FileRun(scope: base, skipReason: EachList.emptyReason(template))]
            case .success(let elements):
                runs = elements.enumerated().map { row, element in
                    var run = FileRun(scope: base)
                    run.scope.builtins.random = random.stream("\(file.path) [\(row + 1)]")
                    run.scope.defineElement(element, number: row + 1, in: .row)
                    // Numbered when its `name:` does not resolve, so that the rows' errors tell them apart.
                    run.label = file.defaultRowLabel(row)
                    do throws(RunFailure) { run.label = try Self.label(of: file, row: row, scope: run.scope) } catch { run.problem = error }
                    return run
                }
            }
        } else if let rows = file.rows {
            runs = rows.rows.indices.map { row in
                var run = FileRun(scope: base)
                run.scope.builtins.random = random.stream("\(file.path) [\(row + 1)]")
                run.label = file.defaultRowLabel(row)
                do throws(RunFailure) {
                    run.scope = try EachList.scope(run.scope, withRow: row, of: rows, in: rows.valuesPath(in: file.path))
                    run.label = try Self.label(of: file, row: row, scope: run.scope)
                } catch {
                    run.problem = error
                }
                return run
            }
        } else {
            runs = [FileRun(scope: base)]
        }
        guard !file.conditions.isEmpty else { return runs }
        for position in runs.indices where runs[position].problem == nil && runs[position].skipReason == nil {
            do throws(RunFailure) {
                runs[position].skipReason = try Self.unmetCondition(file.conditions, in: runs[position].scope, path: file.path)
            } catch {
                runs[position].problem = error
            }
        }
        return runs
    }

    /// Runs one step in a run of its file and hands `report` each of its outcomes as soon as it is known (the one
    /// outcome of a step that is skipped or cannot run, one per element of its `each:` list, else one); `report` may
    /// turn an outcome into a failure (a flaky one under `--fail-on-flaky`) and set `bail`. The elements after a
    /// cancellation, or after a failure under `--bail`, are not sent.
    private func runStep(_ step: RequestDefinition, in file: RequestFile, flow: inout FlowState, bail: StopSignal?,
                         report: (inout RequestOutcome) async -> Void) async {
        let name = file.isFlow ? step.name : flow.run.label ?? step.name
        let flowName = file.isFlow ? flow.run.label ?? file.name : nil
        func record(_ outcome: RequestOutcome, flow: inout FlowState) async {
            var outcome = outcome
            await report(&outcome)
            if outcome.verdict.isFailure, !step.isCleanup, flow.failedStep == nil { flow.failedStep = step.name }
        }
        func unsent(_ verdict: RequestOutcome.Verdict, reason: String? = nil, problem: RunFailure? = nil,
                    named: String? = nil) -> RequestOutcome {
            RequestOutcome(file: file.path, flow: flowName, name: named ?? name, method: step.request.method.value,
                           url: step.request.url.source, verdict: verdict, error: problem?.diagnostic, skipReason: reason)
        }
        if let reason = notRunReason(of: step, in: file, flow: flow, bailed: bail?.isSet == true) {
            // A step skipped by its own `skip:` was reached, as a flow whose steps were skipped has begun.
            flow.note(step, notReachedBecause: step.skip == nil ? reason : nil)
            return await record(unsent(.skipped, reason: reason), flow: &flow)
        }
        flow.note(step, notReachedBecause: nil)
        let begun = flow.started
        if !step.isCleanup { flow.started = true }
        if let problem = flow.run.problem {
            if let reason = missedCapture(problem.undefinedName, in: flow.run.scope, of: file, step: step, flow: &flow) {
                return await record(unsent(.skipped, reason: reason), flow: &flow)
            }
            return await record(unsent(.errored, problem: problem), flow: &flow)
        }
        if let reason = flow.run.skipReason { return await record(unsent(.skipped, reason: reason), flow: &flow) }
        // A used step's `with:` values are resolved once, in the flow's scope, for its `when:`, its `each:` and its request.
        let scope: VariableScope
        do throws(Unmet) {
            scope = try Self.scope(of: step, from: step.isCleanup ? Self.cleanupScope(of: step, in: file, flow: flow) : flow.run.scope)
        } catch {
            if let reason = missedCapture(error.problem?.undefinedName, in: flow.run.scope, of: file, step: step, flow: &flow) {
                return await record(unsent(.skipped, reason: reason), flow: &flow)
            }
            return await record(unsent(error.verdict, reason: error.reason, problem: error.problem), flow: &flow)
        }
        guard let loop = step.loop else {
            if let unmet = Self.unmet(step, in: scope) {
                return await record(unsent(unmet.verdict, reason: unmet.reason, problem: unmet.problem), flow: &flow)
            }
            let outcome = await send(step, of: file, scope: scope, flow: &flow, named: (flowName, name), bail: (bail, begun))
            return await record(outcome, flow: &flow)
        }
        switch EachList.elements(of: loop, in: scope, path: step.path) {
        case .failure where step.isCleanup && Self.isUndefined(loop, in: scope):
            // A cleanup step looping over what a failed step never captured has nothing to clean up.
            await record(unsent(.skipped, reason: "each: '\(loop.source)' is undefined: nothing was captured"), flow: &flow)
        case .failure(let problem):
            if let reason = missedCapture(problem.undefinedName, in: scope, of: file, step: step, flow: &flow) {
                await record(unsent(.skipped, reason: reason), flow: &flow)
            } else {
                await record(unsent(.errored, problem: problem), flow: &flow)
            }
        case .success(let elements) where elements.isEmpty:
            await record(unsent(.skipped, reason: EachList.emptyReason(loop)), flow: &flow)
        case .success(let elements):
            for (position, element) in elements.enumerated() {
                // The element's variables win over the flow's captures, for this step only (its `when:` included); its
                // captures go to the flow.
                var elementScope = scope
                elementScope.defineElement(element, number: position + 1, in: .input)
                let iteration = "\(name) [\(position + 1)]"
                if let reason = Self.stopReason(cleansUp: step.isCleanup && begun, bailed: bail?.isSet == true) {
                    await record(unsent(.skipped, reason: reason, named: iteration), flow: &flow)
                } else if let unmet = Self.unmet(step, in: elementScope) {
                    await record(unsent(unmet.verdict, reason: unmet.reason, problem: unmet.problem, named: iteration), flow: &flow)
                } else {
                    let outcome = await send(step, of: file, scope: elementScope, flow: &flow, named: (flowName, iteration),
                                             bail: (bail, begun))
                    await record(outcome, flow: &flow)
                }
            }
        }
    }

    /// Why a step does not run: a condition that does not hold (skipped), an operand or a `with:` value that does not
    /// resolve (errored).
    struct Unmet: Error {
        var verdict: RequestOutcome.Verdict
        var reason: String?
        var problem: RunFailure?
    }

    /// The scope a step runs in: its flow's, with the step's `with:` values, each resolved in the scope so far. A `when:`
    /// beside a `use:` is checked before that use's own values are defined (it sees those of the uses around it); the
    /// step's own `when:` is left to `unmet(_:in:)`.
    private static func scope(of step: RequestDefinition, from start: VariableScope) throws(Unmet) -> VariableScope {
        var scope = start
        var unset = Set(Condition.requiredNames(step.conditions))
        for (position, input) in step.inputs.enumerated() {
            if let unmet = unmet(step.conditions.filter { $0.inputsVisible == position }, in: scope, path: step.path) { throw unmet }
            do throws(RunFailure) { try scope.define(input, in: step.path, unset: &unset) } catch {
                throw Unmet(verdict: .errored, problem: error)
            }
        }
        return scope
    }

    /// Why the step's own `when:` keeps it from running in `scope`; nil when it runs.
    private static func unmet(_ step: RequestDefinition, in scope: VariableScope) -> Unmet? {
        unmet(step.conditions.filter { $0.inputsVisible >= step.inputs.count }, in: scope, path: step.path)
    }

    /// Why `conditions` keep a step from running in `scope`: one that does not hold (skipped), or an operand that does not
    /// resolve (errored); nil when they all hold.
    private static func unmet(_ conditions: [Condition], in scope: VariableScope, path: String) -> Unmet? {
        do throws(RunFailure) {
            return try unmetCondition(conditions, in: scope, path: path).map { Unmet(verdict: .skipped, reason: $0) }
        } catch {
            return Unmet(verdict: .errored, problem: error)
        }
    }

    /// Sends a step and keeps its captures in the flow; a cleanup step is sent from a task of its own, so a first SIGINT
    /// or SIGTERM, which cancels the run, does not stop it (a second ends the process), and `bail` does not keep it
    /// waiting for its `delay` or a throttle slot from being sent. Another step of a flow with cleanup steps gets the
    /// answer to an exchange under way when the run is cancelled (nothing more is sent: no retry, no next poll). A step that sent nothing (stopped by `bail`, or
    /// cancelled while it waited) leaves its flow begun only if it was before the step (`begun`).
    private func send(_ step: RequestDefinition, of file: RequestFile, scope: VariableScope, flow: inout FlowState,
                      named: (flow: String?, name: String), bail: (signal: StopSignal?, begun: Bool)) async -> RequestOutcome {
        let prepared = PreparedStep(step, compiled: compiled)
        let (executor, jar) = (executor, flow.jar)
        let result = if step.isCleanup {
            await Task { await executor.run(prepared, of: file, scope: scope, jar: jar) }.value
        } else {
            // What a step of a flow that cleans up sent is answered before a cancellation ends it: its cleanup needs
            // what it created (its captures), and a request abandoned may have acted on the server.
            await HTTPClientTransport.$finishesExchangeUnderWay.withValue(file.cleansUp) {
                await executor.run(prepared, of: file, scope: scope, jar: jar, stoppedBy: bail.signal)
            }
        }
        if result.sentNothing { flow.started = bail.begun }
        var outcome = result.outcome
        // A variable an earlier file was to capture, which did not for it failed: this request is skipped, as the steps
        // after a failed one of a flow are, not an error of its own (the run fails for the earlier file).
        if let reason = missedCapture(result.undefinedName, in: scope, of: file, step: step, flow: &flow) {
            outcome.verdict = .skipped
            (outcome.error, outcome.skipReason) = (nil, reason)
        }
        (outcome.flow, outcome.name) = named
        for capture in result.captures {
            flow.run.scope.define(capture.name, capture.value, in: .capture)
            flow.captures.append(capture)
            if !step.useSites.isEmpty { flow.capturesOfUses.append((step.useSites, capture.name)) }
        }
        return outcome
    }

    /// Why a step that could not be built for the variable `name` no layer defines is skipped: the last earlier file that
    /// captures it failed (or went without a capture a failed file did not make, so a chain of captures skips along), as
    /// the steps after a failed one of a flow are; nil when that is not why. The steps after it in its flow are skipped
    /// so too (not its cleanup steps), and its file, which makes none of its own captures then, counts as failed.
    private func missedCapture(_ name: String?, in scope: VariableScope, of file: RequestFile, step: RequestDefinition,
                               flow: inout FlowState) -> String? {
        guard let name, let capturer = scope.capturingFiles?(name).last, capturer != file.path, failedFiles.contains(capturer)
        else { return nil }
        let reason = RequestOutcome.missedCaptureReason + "\(capturer), which captures '\(name)'"
        if !step.isCleanup { flow.missedCapture = flow.missedCapture ?? reason }
        failedFiles.insert(file.path)
        return reason
    }

    /// The scope of a cleanup step: a variable the flow's steps capture is the flow's own, absent when its capture did
    /// not happen, though an earlier file captured one of that name (`when: { "{{ id }}": { exists: true } }` must not
    /// delete another flow's `id`).
    /// An error for such a variable names this file alone as the one that captures it.
    /// A used file's cleanup step reads the values its own use's steps captured: absent when they did not, though another
    /// step of the flow captured one of that name; an error for such a variable names the used file.
    static func cleanupScope(of step: RequestDefinition, in file: RequestFile, flow: FlowState) -> VariableScope {
        var scope = flow.run.scope
        // Each name missed, with the file that captures it.
        var missed: [String: String] = [:]
        for name in file.namesItsStepsCapture.subtracting(flow.captures.map(\.name)) { missed[name] = file.path }
        if let use = step.cleansUpAfterUse {
            let captured = Set(flow.capturesOfUses.filter { $0.use.starts(with: use) }.map(\.name))
            for own in file.steps where !own.isCleanup && own.useSites.starts(with: use) {
                for capture in own.captures where !captured.contains(capture.name) { missed[capture.name] = own.path }
            }
        }
        for name in missed.keys { scope.forgetCapture(name) }
        if !missed.isEmpty, let capturingFiles = scope.capturingFiles {
            let missedNames = missed
            scope.capturingFiles = { name in missedNames[name].map { [$0] } ?? capturingFiles(name) }
        }
        return scope
    }

    /// Why a step does not run, or nil when it runs. Once its flow has begun, a cleanup step runs after a failure, after
    /// `--bail` and after the run was cancelled; before, it is skipped as the steps before it were.
    private func notRunReason(of step: RequestDefinition, in file: RequestFile, flow: FlowState, bailed: Bool) -> String? {
        let cleansUp = step.isCleanup && flow.started
        if let skip = file.skip ?? step.skip { return skip.reason ?? "skipped" }
        // A used file's cleanup steps are skipped as its steps were when none was reached.
        if let use = step.cleansUpAfterUse, !flow.usesReached.contains(use), let reason = flow.usesNotReached[use] { return reason }
        if Task.isCancelled && !cleansUp { return RequestOutcome.cancelledReason }
        if cleansUp { return nil }
        if let failedStep = flow.failedStep { return "an earlier step failed: \(failedStep)" }
        if let missedCapture = flow.missedCapture { return missedCapture }
        return Self.stopReason(cleansUp: false, bailed: bailed)
    }

    /// Why nothing more is sent: the run was cancelled, or a request failed under `--bail` (`bailed`); nil for a cleanup
    /// step of a begun flow (`cleansUp`), which runs whatever happens.
    private static func stopReason(cleansUp: Bool, bailed: Bool) -> String? {
        if cleansUp { return nil }
        if Task.isCancelled { return RequestOutcome.cancelledReason }
        return bailed ? StepExecutor.bailReason : nil
    }

    /// The first condition of `conditions` that does not hold in `scope`, as a skip reason naming it and the actual value
    /// (`when "{{ region }}" is in ["eu","us"]: was "ap"`); nil when all hold. A key whose template does not resolve (an
    /// undefined variable, an unset `$env.NAME`, a missing key) is absent.
    package static func unmetCondition(_ conditions: [Condition], in scope: VariableScope, path: String) throws(RunFailure) -> String? {
        for condition in conditions {
            // What does not resolve is absent (`exists: false` of an unset variable), except a value that is set but
            // cannot be read.
            let actual: JSONValue?
            do { actual = try scope.resolve(condition.subject) } catch {
                guard !([error] + error.following).contains(where: \.valueIsNotText) else { throw RunFailure(error, in: condition.path ?? path) }
                actual = nil
            }
            let (matcher, templates): (Matcher<JSONValue>, [JSONValue: String])
            do {
                (matcher, templates) = try scope.resolve(condition.matcher)
            } catch {
                throw RunFailure(error, in: condition.path ?? path)
            }
            // A string is read as a header is: a number for the operators comparing with one (a `--var` and a data
            // row are text: `--var n=2` is greater than 1).
            let text = if case .string(let text)? = actual { text } else { String?.none }
            let holds = if let text { matcher.evaluate(text: text).holds } else { matcher.evaluate(actual).holds }
            guard !holds else { continue }
            // Why the types differ, worked out only for a condition that does not hold.
            let differ = if let text { matcher.typesDiffer(fromText: text) } else { matcher.typesDiffer(from: actual, givenBy: templates) }
            let note = differ.map { " (\($0))" } ?? ""
            return "when \"\(condition.subject.source)\" \(matcher.clause): was \(actual.map { $0.compactDescription() } ?? "absent")\(note)"
        }
        return nil
    }

    /// Whether the variable `template` (an `each:`) names is defined in no layer of `scope`.
    private static func isUndefined(_ template: Template, in scope: VariableScope) -> Bool {
        guard case .variable(let variable)? = template.singleExpression?.expression else { return false }
        return scope.value(of: variable.name) == nil
    }

    /// How a row's run is named: by the file's `name:` template, or `NAME [ROW]` (rows numbered from 1).
    private static func label(of file: RequestFile, row: Int, scope: VariableScope) throws(RunFailure) -> String {
        do { return try file.rowLabel(row, in: scope) } catch { throw RunFailure(error, in: file.path) }
    }

    /// A flaky pass under `--fail-on-flaky`: a failure, located at the retry options it was retried by: the request's,
    /// else the environment's (in its file), else (no retry written anywhere) at the request's URL.
    private static func failFlaky(_ outcome: inout RequestOutcome, _ definition: RequestDefinition,
                                  environment: ResolvedEnvironment?) {
        let (path, mark) = if let retry = definition.options.retry {
            (definition.path, retry.mark)
        } else if let retry = environment?.options.retry, let path = environment?.retryPath {
            (path, retry.mark)
        } else {
            (definition.path, definition.request.url.mark)
        }
        outcome.verdict = .failed
        outcome.failures.append(ExpectationFailure(
            diagnostic: .error("passed only after a retry, and --fail-on-flaky is set", path: path, at: mark),
            expected: "a pass at the first attempt", actual: "a pass after \(outcome.attempts) attempts"))
    }
}

extension RequestFile {
    /// The names the file's steps (not its cleanup steps) capture, selected or not: a cleanup step reads the file's own
    /// values of them, never an earlier file's (`CollectionRun.cleanupScope`), and waits for no other file's.
    var namesItsStepsCapture: Set<String> {
        Set(steps.filter { !$0.isCleanup }.flatMap { $0.captures.map(\.name) })
    }
}
