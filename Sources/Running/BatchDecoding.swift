internal import Synchronization

/// Decodes the files of a parallel run again a batch of neighbours at a time, for the workers that ask for them.
///
/// The worker that first asks for a file of a batch decodes the whole batch, one file after another, and keeps
/// the others for the workers that ask for them next (files are handed out nearly in order); a worker asking
/// for a file of a batch being decoded waits for it. Decodes in a row run with warmer caches than decodes between
/// requests: about 8% fewer cycles per `--jobs 8` request. Each file is asked for once, so what is kept is a few
/// batches at most (within the file queue's lookahead) and a flag per batch.
final class BatchDecoding: Sendable {
    typealias Definitions = RunPlanner.FileSource.Definitions

    private struct State {
        /// Decoded files nobody has asked for yet.
        var ready: [Int: Definitions] = [:]
        /// The batches being decoded, with the workers waiting for one of their files.
        var decoding: [Int: [CheckedContinuation<Void, Never>]] = [:]
        /// Whether each batch is decoded or being decoded.
        var started: [Bool]
    }

    private let plan: [RunPlanner.PlannedFile]
    private let batchSize: Int
    private let state: Mutex<State>

    init(plan: [RunPlanner.PlannedFile], batchSize: Int = 16) {
        self.plan = plan
        self.batchSize = batchSize
        state = Mutex(State(started: Array(repeating: false, count: (plan.count + batchSize - 1) / batchSize)))
    }

    /// The definitions of planned file `index`; asked for once per file.
    func definitions(of index: Int) async -> Definitions {
        guard case .onDisk = plan[index].source else { return plan[index].source.definitions() }
        let batch = index / batchSize
        while true {
            enum Next { case take(Definitions), decodeBatch, decodeAlone, wait }
            let next: Next = state.withLock { state in
                if let ready = state.ready.removeValue(forKey: index) { return .take(ready) }
                if !state.started[batch] {
                    state.started[batch] = true
                    state.decoding[batch] = []
                    return .decodeBatch
                }
                // A decoded batch without this file: it was asked for before; decode it again rather than wait.
                return state.decoding[batch] == nil ? .decodeAlone : .wait
            }
            switch next {
            case .take(let definitions):
                return definitions
            case .decodeBatch:
                return decode(batch, returning: index)
            case .decodeAlone:
                return plan[index].source.definitions()
            case .wait:
                await withCheckedContinuation { continuation in
                    let waiting = state.withLock { state in
                        guard state.decoding[batch] != nil else { return false }
                        state.decoding[batch]!.append(continuation)
                        return true
                    }
                    if !waiting { continuation.resume() }
                }
            }
        }
    }

    /// Decodes the files of `batch`, keeps all but `index` for their workers and wakes those waiting for them.
    private func decode(_ batch: Int, returning index: Int) -> Definitions {
        var own: Definitions?
        var others: [(index: Int, definitions: Definitions)] = []
        for file in batch * batchSize..<min(plan.count, (batch + 1) * batchSize) {
            guard case .onDisk = plan[file].source else { continue }
            let definitions = plan[file].source.definitions()
            if file == index { own = definitions } else { others.append((file, definitions)) }
        }
        let waiters = state.withLock { state in
            for other in others { state.ready[other.index] = other.definitions }
            return state.decoding.removeValue(forKey: batch) ?? []
        }
        for waiter in waiters { waiter.resume() }
        guard let own else { preconditionFailure("file \(index) is not in batch \(batch)") }
        return own
    }
}
