public import CollectionFormat
internal import HTTPCore
public import Loaders
internal import OpenAPIContract
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
    let plan: [RunPlanner.PlannedFile]
    /// For each planned file, the earlier planned files it waits for.
    let dependencies: FileDependencies
    let compiled: CompiledChecks
    let executor: StepExecutor
    /// The run's random values, seeded when the collection was read: each file run draws from a stream of its own.
    let random: RandomValues
    /// The files that had a request fail or error, by path, once they end: a later file missing what they capture skips.
    let failedFiles = FailedFiles()

    /// Prepares a run of the files `collection` holds; requests go through the standard loader chain ending at `transport`.
    public init(collection: LoadedCollection, options: RunOptions, transport: any HTTPLoader) {
        let planner = RunPlanner(planning: collection.files, selection: options.selection, scope: collection.scope)
        self.init(collection: collection, planner: planner, options: options, transport: transport)
    }

    /// Prepares a run of the files `planner` was given (those of `collection`, in order, with the selection of `options`).
    public init(collection: LoadedCollection, planner: RunPlanner, options: RunOptions, transport: any HTTPLoader) {
        self.collection = collection
        self.options = options
        compiled = CompiledChecks(schemas: collection.schemas,
                                  openAPIContracts: collection.openAPIContracts.compactMapValues { $0 as? OpenAPIContract },
                                  environmentOpenAPI: collection.environment?.openapi)
        random = collection.scope.builtins.random
        plan = planner.files
        requestCount = planner.requestCount
        dependencies = planner.dependencies(environment: collection.environment)
        // The builder applies the environment; the chain gets absolute requests.
        let tokens = OAuth2TokenStore()
        let layers = LoaderLayer.standard(userAgent: options.userAgent, tokens: tokens,
                                          trace: options.recordExchanges ? ExchangeLog.layer : nil)
        executor = StepExecutor(loader: chain(layers, ending: transport), tokens: tokens,
                                builder: RequestBuilder(environment: collection.environment, run: options,
                                                        credentialVariables: collection.credentialVariables),
                                recordExchanges: options.recordExchanges, failsFlaky: options.failOnFlaky,
                                credentialVariables: collection.credentialVariables)
    }

    /// For each file that runs (in order), the indexes of the earlier ones it waits for with `jobs > 1`.
    public var fileDependencies: [[Int]] { plan.indices.map { dependencies.files(before: $0) } }

    /// How many requests the run will report (selected steps, skipped ones included).
    public let requestCount: Int

    /// Runs every planned request; `onOutcome` receives each outcome in run order as soon as it can, from one task
    /// (the only one to render and write), and has had every outcome when the run returns.
    ///
    /// The workers wait while `onOutcome` is busy (see `OutcomeHandOff`). The summary keeps every outcome when
    /// `keepingOutcomes` (for reports); otherwise only the counts, so a run's memory does not grow with its outcomes.
    public func run(keepingOutcomes: Bool = true,
                    onOutcome: @escaping @Sendable (RequestOutcome) -> Void = { _ in }) async -> RunSummary {
        let start = ContinuousClock.now
        let outcomes = OutcomeHandOff(onOutcome: onOutcome)
        let context = FileContext(outcomes: outcomes, bail: StopSignal(), keepingOutcomes: keepingOutcomes)
        var results = Results(scope: collection.scope, keepingOutcomes: keepingOutcomes)
        await runFiles(context, into: &results)
        await outcomes.close()
        var summary = RunSummary(counts: results.counts, duration: start.duration(to: .now),
                                 outcomes: plan.indices.flatMap { results.outcomes[$0] ?? [] })
        if random.wereUsed { summary.seed = random.seed }
        summary.failsFlaky = options.failOnFlaky
        return summary
    }

    /// What every file of a run reports to.
    struct FileContext: Sendable {
        let outcomes: OutcomeHandOff
        /// Set once a request fails under `--bail`; read by every file before each step, and ending throttle waits.
        let bail: StopSignal
        let keepingOutcomes: Bool
    }

    /// What the finished files produced: their captures (for the files after them), counts and kept outcomes.
    struct Results: Sendable {
        var finished: FinishedFiles
        var counts = VerdictCounts()
        var outcomes: [Int: [RequestOutcome]] = [:]
        let keepingOutcomes: Bool

        init(scope: VariableScope, keepingOutcomes: Bool) {
            finished = FinishedFiles(scope: scope)
            self.keepingOutcomes = keepingOutcomes
        }

        mutating func record(_ index: Int, _ result: FileResult) {
            finished.add(index, captures: result.captures)
            counts += result.counts
            if keepingOutcomes { outcomes[index] = result.outcomes }
        }
    }

    /// Runs up to `jobs` files at once (one after another with one job), each once the earlier files it depends on
    /// have finished.
    ///
    /// `jobs` worker tasks each take the first file that may start, run it and record its result, until every file
    /// has started: no task per file, and no hop to a coordinating task between files. Each worker's responses are
    /// handled on one event loop of its own (`withEventLoopAffinity`).
    private func runFiles(_ context: FileContext, into results: inout Results) async {
        let queue = FileQueue(plan: plan, dependencies: dependencies, results: results, jobs: options.jobs)
        let work: @Sendable () async -> Void = {
            while let file = await queue.next() {
                let result = await runFile(file.index, scope: file.scope, context)
                queue.finish(file.index, result)
            }
        }
        let workers = min(options.jobs, plan.count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers { group.addTask { await HTTPClientTransport.withEventLoopAffinity(work) } }
        }
        results = queue.results
    }

    /// The files of a parallel run not started yet, handed out in order as the files they depend on finish,
    /// and the results of the finished ones.
    final class FileQueue: Sendable {
        /// A file handed to a worker, with its starting scope.
        struct File: Sendable {
            let index: Int
            let scope: VariableScope
        }

        private struct State {
            var results: Results
            var progress: CaptureProgress
            var started = Set<Int>()
            /// Files before this one have all started.
            var firstUnstarted = 0
            /// Workers waiting for a file to finish because no file may start yet.
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        /// What a worker does next.
        private enum Step {
            case run(File)
            case stop
            case wait
        }

        private let plan: [RunPlanner.PlannedFile]
        private var count: Int { plan.count }
        /// How far past the first file not started a worker looks for one that may start: far enough to keep
        /// the workers busy, bounded so that a long chain of waiting files costs no scan of all of them.
        private let lookahead: Int
        private let state: Mutex<State>

        init(plan: [RunPlanner.PlannedFile], dependencies: FileDependencies, results: Results, jobs: Int) {
            self.plan = plan
            // More jobs than files work as many as there are files (and `--jobs` near Int.max does not overflow).
            lookahead = max(256, 16 * min(jobs, max(plan.count, 1)))
            state = Mutex(State(results: results, progress: CaptureProgress(dependencies)))
        }

        /// The results recorded so far (every file's once the workers have stopped).
        var results: Results { state.withLock { $0.results } }

        /// The first file that may start, waiting while none may; nil once every file has started.
        func next() async -> File? {
            while true {
                let step = state.withLock { state -> Step in
                    if let file = start(&state) { return .run(file) }
                    return state.firstUnstarted == count ? .stop : .wait
                }
                switch step {
                case .run(let file): return file
                case .stop: return nil
                case .wait:
                    await withCheckedContinuation { continuation in
                        // Checked again under the lock that records the wait, so a file finishing meanwhile is not missed.
                        let waits = state.withLock { state in
                            guard mustWait(&state) else { return false }
                            state.waiting.append(continuation)
                            return true
                        }
                        if !waits { continuation.resume() }
                    }
                }
            }
        }

        /// Records a finished file and wakes the workers waiting for one.
        func finish(_ index: Int, _ result: FileResult) {
            let waiting = state.withLock { state in
                state.results.record(index, result)
                state.progress.finished(index, among: state.results.finished)
                defer { state.waiting = [] }
                return state.waiting
            }
            for worker in waiting { worker.resume() }
        }

        /// Starts the first file whose dependencies have all finished, if any.
        private func start(_ state: inout State) -> File? {
            guard let index = firstReady(&state) else { return nil }
            state.started.insert(index)
            return File(index: index, scope: state.results.finished.scope(for: index, reading: state.progress.dependencies))
        }

        /// Whether files remain but none may start before another finishes.
        private func mustWait(_ state: inout State) -> Bool {
            firstReady(&state) == nil && state.firstUnstarted < count
        }

        /// The first file not started, within the lookahead, whose dependencies have all finished.
        private func firstReady(_ state: inout State) -> Int? {
            // Files before `firstUnstarted` have all started, so each look costs the files after them only.
            while state.started.remove(state.firstUnstarted) != nil { state.firstUnstarted += 1 }
            let (started, progress) = (state.started, state.progress)
            return (state.firstUnstarted..<min(count, state.firstUnstarted + lookahead)).first { index in
                !started.contains(index) && progress.mayStart(index)
            }
        }
    }

    /// What running one file produced.
    struct FileResult: Sendable {
        /// The file's outcomes, when the run keeps them.
        var outcomes: [RequestOutcome] = []
        var counts = VerdictCounts()
        var captures: [(name: String, value: JSONValue)] = []
    }

    /// The finished files and their captures, kept as the collection's scope with the captures of the
    /// longest run of finished files from the first (in file order), plus the captures of files finished
    /// after a gap, until the gap closes. So a file's starting scope costs the captures it reads from files
    /// after that run only, and nothing is kept per file once the run has passed it.
    struct FinishedFiles: Sendable {
        /// The collection's scope with the captures of files `0..<prefix`, in file order.
        private var prefixScope: VariableScope
        /// How many files from the first have finished and are in `prefixScope`.
        private var prefix = 0
        /// The captures of finished files after the prefix, by file.
        private var later: [Int: [(name: String, value: JSONValue)]] = [:]

        init(scope: VariableScope) {
            prefixScope = scope
        }

        /// Whether file `index` has finished.
        func contains(_ index: Int) -> Bool { index < prefix || later[index] != nil }

        /// Records a finished file and its captures.
        mutating func add(_ index: Int, captures: [(name: String, value: JSONValue)]) {
            later[index] = captures
            while let captures = later.removeValue(forKey: prefix) {
                Self.define(captures, in: &prefixScope)
                prefix += 1
            }
        }

        /// The starting scope of file `index`: the captures of every finished earlier file, in file order.
        ///
        /// Past the prefix only the variables the file reads are defined (`dependencies.waits`): those are all it
        /// can see, and a file in a parallel run starts once every earlier file capturing them has finished.
        func scope(for index: Int, reading dependencies: FileDependencies) -> VariableScope {
            var scope = prefixScope
            guard index > prefix else { return scope }
            for wait in dependencies.waits[index] {
                let name = dependencies.names[wait.variable], capturers = dependencies.capturers[wait.variable]
                let firstAfterPrefix = dependencies.capturers(of: wait.variable, before: prefix)
                for file in capturers[min(firstAfterPrefix, wait.capturersBefore)..<wait.capturersBefore] {
                    for capture in later[file] ?? [] where capture.name == name {
                        scope.define(name, capture.value, in: .capture)
                    }
                }
            }
            return scope
        }

        private static func define(_ captures: [(name: String, value: JSONValue)], in scope: inout VariableScope) {
            for capture in captures { scope.define(capture.name, capture.value, in: .capture) }
        }
    }

    /// Runs the steps of a file in order, then says it has finished, so the outcomes of later files may go on.
    private func runFile(_ index: Int, scope: VariableScope, _ context: FileContext) async -> FileResult {
        var scope = scope
        // A variable a file captures is missing only when that capture did not happen: the error names the files.
        let (dependencies, plan) = (dependencies, plan)
        scope.capturingFiles = { name in
            guard let variable = dependencies.names.firstIndex(of: name) else { return [] }
            return dependencies.capturers[variable].prefix { $0 <= index }.map { plan[$0].file.path }
        }
        let result = await runSteps(of: plan[index].file, index, scope: scope, context)
        if result.counts[.failed] + result.counts[.errored] > 0 { failedFiles.insert(plan[index].file.path) }
        context.outcomes.finish(file: index)
        return result
    }

    /// The paths of the files that ended with a request failed or errored.
    final class FailedFiles: Sendable {
        private let paths = Mutex<Set<String>>([])

        func insert(_ path: String) { paths.withLock { _ = $0.insert(path) } }
        func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }
    }
}
