internal import Synchronization

/// Hands outcomes on in run order (file by file) while files run in parallel, so the output of a
/// parallel run reads like a sequential one; outcomes of the earliest unfinished file go out at once.
///
/// A lock, not an actor: a worker hands its outcome on without leaving its thread. `emit` runs one call at a time
/// and in order, but outside the lock: the worker that finds nobody emitting emits what is due, and a worker that
/// comes meanwhile queues its outcome and goes on instead of waiting for another worker's write. A standard output
/// that blocks (a paused pager) still pauses the workers: once `queueLimit` outcomes wait, a worker waits for the
/// write in progress, so outcomes never pile up in memory.
final class OutcomeEmitter: Sendable {
    private struct State {
        /// The file whose outcomes are handed on as they come.
        var current = 0
        var buffered: [Int: [RequestOutcome]] = [:]
        var finished: Set<Int> = []
        /// Outcomes due, in order, not emitted yet.
        var due: [RequestOutcome] = []
        /// Whether a worker is emitting (then it also emits what others queue meanwhile).
        var emitting = false
    }

    /// What a worker does after handing on an outcome.
    private enum Next {
        case done
        case emit
        case waitForWrite
    }

    /// How many due outcomes may wait for the worker that emits before the others wait for its write.
    static let queueLimit = 64

    private let emit: @Sendable (RequestOutcome) -> Void
    private let state = Mutex(State())
    /// Held while outcomes are written.
    private let writing = Mutex(())

    init(emit: @escaping @Sendable (RequestOutcome) -> Void) {
        self.emit = emit
    }

    /// An outcome of file number `file` (in run order).
    func add(_ outcome: RequestOutcome, file: Int) {
        handOn { state in
            if file == state.current { state.due.append(outcome) } else { state.buffered[file, default: []].append(outcome) }
        }
    }

    /// File number `file` has no more outcomes.
    func finish(file: Int) {
        handOn { state in
            state.finished.insert(file)
            while state.finished.remove(state.current) != nil {
                state.current += 1
                state.due += state.buffered.removeValue(forKey: state.current) ?? []
            }
        }
    }

    /// Changes the state, then emits what is due unless another worker is emitting.
    private func handOn(_ change: (inout State) -> Void) {
        let next = state.withLock { state -> Next in
            change(&state)
            if state.emitting { return state.due.count > Self.queueLimit ? .waitForWrite : .done }
            if state.due.isEmpty { return .done }
            state.emitting = true
            return .emit
        }
        switch next {
        case .done: return
        case .waitForWrite: writing.withLock { _ in }
        case .emit: emitDue()
        }
    }

    /// Emits due outcomes, in order, until none is left.
    private func emitDue() {
        while true {
            let batch = state.withLock { state -> [RequestOutcome] in
                defer { state.due = [] }
                if state.due.isEmpty { state.emitting = false }
                return state.due
            }
            if batch.isEmpty { return }
            writing.withLock { _ in
                for outcome in batch { emit(outcome) }
            }
        }
    }
}
