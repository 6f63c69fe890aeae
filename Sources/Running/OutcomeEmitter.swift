/// Hands outcomes on in run order (file by file) while files run in parallel, so the output of a
/// parallel run reads like a sequential one; outcomes of the earliest unfinished file go out at once.
actor OutcomeEmitter {
    private let emit: @Sendable (RequestOutcome) -> Void
    /// The file whose outcomes are handed on as they come.
    private var current = 0
    private var buffered: [Int: [RequestOutcome]] = [:]
    private var finished: Set<Int> = []

    init(emit: @escaping @Sendable (RequestOutcome) -> Void) {
        self.emit = emit
    }

    /// An outcome of file number `file` (in run order).
    func add(_ outcome: RequestOutcome, file: Int) {
        if file == current { emit(outcome) } else { buffered[file, default: []].append(outcome) }
    }

    /// File number `file` has no more outcomes.
    func finish(file: Int) {
        finished.insert(file)
        while finished.contains(current) {
            current += 1
            for outcome in buffered.removeValue(forKey: current) ?? [] { emit(outcome) }
        }
    }
}
