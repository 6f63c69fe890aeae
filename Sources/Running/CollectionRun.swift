public import CollectionFormat
internal import HTTPCore
public import Loaders
internal import Synchronization

/// Runs a loaded collection: files in lexical order (or in parallel with `jobs`), flows in order,
/// captures shared with every later request, and every request judged into a `RequestOutcome`.
///
/// With `jobs > 1` a file starts once every earlier file that captures a variable it uses has finished,
/// and it sees the captures of earlier files only, so parallel and sequential runs give the same results.
public struct CollectionRun: Sendable {
    public let collection: LoadedCollection
    public let options: RunOptions
    /// The files to run, in order, with the steps the tag filters select.
    let plan: [PlannedFile]
    /// For each planned file, the earlier planned files it waits for.
    let dependencies: [Set<Int>]
    private let executor: StepExecutor

    /// A file and its selected steps, prepared.
    struct PlannedFile: Sendable {
        let file: RequestFile
        let steps: [PreparedStep]
    }

    /// Prepares a run; requests go through the standard loader chain ending at `transport`.
    public init(collection: LoadedCollection, options: RunOptions, transport: any HTTPLoader) {
        self.collection = collection
        self.options = options
        let compiled = CompiledChecks()
        plan = collection.files.compactMap { file in
            let steps = options.selectedSteps(of: file).map { PreparedStep($0.step, compiled: compiled) }
            return steps.isEmpty ? nil : PlannedFile(file: file, steps: steps)
        }
        dependencies = Self.dependencies(of: plan, environment: collection.environment)
        let server = collection.environment?.baseURL.flatMap { ServerEnvironment(baseURL: $0) }
        let layers = LoaderLayer.standard(
            environment: server, userAgent: options.userAgent, tokens: OAuth2TokenStore(),
            trace: options.recordExchanges ? ExchangeLog.layer : nil)
        executor = StepExecutor(loader: chain(layers, ending: transport), builder: RequestBuilder(environment: collection.environment),
                                server: server, recordExchanges: options.recordExchanges)
    }

    /// For each file that runs (in order), the indexes of the earlier ones it waits for with `jobs > 1`.
    public var fileDependencies: [[Int]] { dependencies.map { $0.sorted() } }

    /// How many requests the run will report (selected steps, skipped ones included).
    public var requestCount: Int { plan.reduce(0) { $0 + $1.steps.count } }

    /// Runs every planned request; `onOutcome` receives each outcome in run order as soon as it can.
    ///
    /// The summary keeps every outcome when `keepingOutcomes` (for reports); otherwise only the counts,
    /// so a run's memory does not grow with its outcomes.
    public func run(keepingOutcomes: Bool = true,
                    onOutcome: @escaping @Sendable (RequestOutcome) -> Void = { _ in }) async -> RunSummary {
        let start = ContinuousClock.now
        let emitter = OutcomeEmitter(emit: onOutcome)
        let bailed = BailFlag()
        var results: [Int: FileResult] = [:]
        var finishedPrefix = FinishedPrefix(scope: collection.scope)
        await withTaskGroup(of: (Int, FileResult).self) { group in
            var started = Set<Int>()
            var firstUnstarted = 0
            var running = 0
            while true {
                // Files before `firstUnstarted` have all started; the scan stops once `jobs` files run,
                // so each pass costs the files it looks at, not the whole plan.
                while started.contains(firstUnstarted) { firstUnstarted += 1 }
                for index in firstUnstarted..<plan.count {
                    guard running < options.jobs else { break }
                    guard !started.contains(index), dependencies[index].allSatisfy({ results[$0] != nil }) else { continue }
                    started.insert(index)
                    running += 1
                    let scope = finishedPrefix.scope(for: index, after: results)
                    group.addTask {
                        let result = await runFile(index, scope: scope, keepingOutcomes: keepingOutcomes,
                                                   emitter: emitter, bailed: bailed)
                        await emitter.finish(file: index)
                        return (index, result)
                    }
                }
                guard let (index, result) = await group.next() else { break }
                running -= 1
                results[index] = result
            }
        }
        let outcomes = plan.indices.flatMap { results[$0]?.outcomes ?? [] }
        let counts = results.values.reduce(into: [RequestOutcome.Verdict: Int]()) { counts, result in
            counts.merge(result.counts, uniquingKeysWith: +)
        }
        return RunSummary(counts: counts, duration: start.duration(to: .now), outcomes: outcomes)
    }

    /// What running one file produced.
    struct FileResult: Sendable {
        /// The file's outcomes, when the run keeps them.
        var outcomes: [RequestOutcome] = []
        var counts: [RequestOutcome.Verdict: Int] = [:]
        var captures: [(name: String, value: JSONValue)] = []
    }

    /// The collection's scope with the captures of the longest run of finished files from the first,
    /// kept up to date as files finish, so a file's starting scope costs the files after that run only
    /// (not every earlier file, which made a run quadratic in its number of files).
    struct FinishedPrefix {
        /// The collection's scope with the captures of files `0..<count`, in file order.
        private(set) var scope: VariableScope
        /// How many files from the first have finished and are in `scope`.
        private(set) var count = 0

        init(scope: VariableScope) {
            self.scope = scope
        }

        /// The starting scope of file `index`: the captures of every finished earlier file, in file order.
        mutating func scope(for index: Int, after results: [Int: FileResult]) -> VariableScope {
            while count < index, let finished = results[count] {
                Self.define(finished.captures, in: &scope)
                count += 1
            }
            var scope = self.scope
            for earlier in count..<max(count, index) {
                Self.define(results[earlier]?.captures ?? [], in: &scope)
            }
            return scope
        }

        private static func define(_ captures: [(name: String, value: JSONValue)], in scope: inout VariableScope) {
            for capture in captures { scope.define(capture.name, capture.value, in: .capture) }
        }
    }

    /// Runs the steps of a file in order; a failed step skips the rest of its flow.
    private func runFile(_ index: Int, scope startScope: VariableScope, keepingOutcomes: Bool,
                         emitter: OutcomeEmitter, bailed: BailFlag) async -> FileResult {
        let planned = plan[index]
        var scope = startScope
        var result = FileResult()
        var failedStep: String?
        for step in planned.steps {
            var outcome: RequestOutcome
            if let reason = skipReason(of: step.definition, in: planned.file, failedStep: failedStep,
                                       bailed: options.bail && bailed.isSet) {
                outcome = RequestOutcome(file: planned.file.path, flow: planned.file.isFlow ? planned.file.name : nil,
                                         name: step.definition.name, method: step.definition.request.method.value,
                                         url: step.definition.request.url.source, verdict: .skipped, skipReason: reason)
            } else {
                let stepResult = await executor.run(step, of: planned.file, scope: scope)
                outcome = stepResult.outcome
                for capture in stepResult.captures {
                    scope.define(capture.name, capture.value, in: .capture)
                    result.captures.append(capture)
                }
                if outcome.verdict == .failed || outcome.verdict == .errored {
                    failedStep = step.definition.name
                    if options.bail { bailed.set() }
                }
            }
            result.counts[outcome.verdict, default: 0] += 1
            if keepingOutcomes { result.outcomes.append(outcome) }
            await emitter.add(outcome, file: index)
        }
        return result
    }

    /// Why a step does not run, or nil when it runs.
    private func skipReason(of step: RequestDefinition, in file: RequestFile, failedStep: String?, bailed: Bool) -> String? {
        if let skip = file.skip ?? step.skip { return skip.reason ?? "skipped" }
        if let failedStep { return "an earlier step failed: \(failedStep)" }
        if bailed { return "not run: --bail stopped the run after a failure" }
        return nil
    }

    /// For each file, the earlier files that capture a variable it (or the environment it uses) reads.
    static func dependencies(of plan: [PlannedFile], environment: ResolvedEnvironment?) -> [Set<Int>] {
        var environmentTemplates: [Template] = []
        if let environment {
            environmentTemplates = environment.headers.map(\.value.value) + environment.query.flatMap(\.value.templates)
            if let auth = environment.auth { environmentTemplates += auth.value.value.templates }
        }
        let environmentNames = variableNames(in: environmentTemplates)
        // For each variable name, the files capturing it, in order: looking up only the names a file
        // uses keeps this linear in the number of files (comparing with every earlier file was quadratic).
        var capturers: [String: [Int]] = [:]
        for index in plan.indices {
            for name in Set(plan[index].steps.flatMap { $0.definition.captures.map(\.name) }) {
                capturers[name, default: []].append(index)
            }
        }
        return plan.indices.map { index in
            let used = environmentNames.union(variableNames(in: plan[index].steps.flatMap(\.definition.templates)))
            return Set(used.flatMap { capturers[$0]?.prefix { $0 < index } ?? [] })
        }
    }

    /// The root names of the variables the templates read.
    private static func variableNames(in templates: [Template]) -> Set<String> {
        var names = Set<String>()
        for template in templates {
            for (expression, _) in template.expressions {
                if case .variable(let path) = expression { names.insert(path.name) }
            }
        }
        return names
    }
}

/// Set once a request fails under `--bail`; read by every file before each step.
final class BailFlag: Sendable {
    private let flag = Mutex(false)

    var isSet: Bool { flag.withLock { $0 } }

    func set() { flag.withLock { $0 = true } }
}
