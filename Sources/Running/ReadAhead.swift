internal import Synchronization
internal import Dispatch
internal import Foundation

/// Decodes the files of a run again, in run order, on a thread of its own, a bounded number of files ahead of the
/// workers that ask for them.
///
/// The run's workers send requests on the event loops; decoding there held a loop from its other connections and
/// left workers waiting for each other's decodes. The thread keeps at most `window` decoded files that nobody has
/// asked for yet, and stops short of that once their texts reach `byteBudget` bytes (a window of large files would
/// hold that many large decoded files); with a full window it sleeps until half of it (in files and in bytes) has
/// been taken, so it decodes in bursts instead of being woken for every file. It ends when it has nothing left to decode or `stop()` is called. A worker asking for a file
/// the thread has decoded takes it; one asking for the file the thread is decoding waits for it; any other file
/// (ahead of the thread, behind a full window, or asked for twice) the worker decodes itself, so no worker ever
/// waits for a file the thread may not reach.
final class ReadAhead: Sendable {
    typealias Definitions = RunPlanner.FileSource.Definitions

    private struct State {
        /// Decoded files nobody has asked for yet.
        var ready: [Int: Definitions] = [:]
        /// The bytes of their texts.
        var readyBytes = 0
        /// The file the thread is decoding, with the workers waiting for it.
        var decoding: (index: Int, waiters: [CheckedContinuation<Void, Never>])?
        /// Whether each file has been asked for (the thread skips those).
        var asked: [Bool]
        /// Whether the run no longer needs the thread.
        var stopped = false
        /// Whether the thread sleeps until half the window is free.
        var sleeping = false
        /// Whether the thread has returned (or was never needed).
        var ended = false
    }

    private let plan: [RunPlanner.PlannedFile]
    private let state: Mutex<State>
    private let window: Int
    private let byteBudget: Int
    /// Wakes the thread, sleeping with a full window, once half of it has been taken.
    private let wake = DispatchSemaphore(value: 0)

    /// Texts of decoded files held ahead before the window counts as full: many small request files fill the
    /// window first; files of hundreds of kilobytes are held a few at a time.
    static let defaultByteBudget = 4 << 20

    /// Starts decoding the files of `plan` that must be read again, keeping at most `window` of them ahead, fewer
    /// once their texts reach `byteBudget` bytes.
    init(plan: [RunPlanner.PlannedFile], window: Int, byteBudget: Int = defaultByteBudget) {
        self.plan = plan
        state = Mutex(State(asked: Array(repeating: false, count: plan.count)))
        self.window = window
        self.byteBudget = byteBudget
        guard plan.contains(where: \.source.decodesAgain) else {
            state.withLock { $0.ended = true }
            return
        }
        let thread = Thread { [self] in
            decodeInOrder()
            state.withLock { $0.ended = true }
        }
        thread.name = "runner.read-ahead"
        thread.start()
    }

    /// The definitions of planned file `index`.
    func definitions(of index: Int) async -> Definitions {
        guard plan[index].source.decodesAgain else { return plan[index].source.definitions() }
        while true {
            enum Next { case take(Definitions, wakingTheThread: Bool), wait, decode }
            let next: Next = state.withLock { state in
                if let ready = state.ready.removeValue(forKey: index) {
                    state.readyBytes -= ready.textBytes
                    // A sleeping thread goes on once half its window has been taken.
                    let wakes = state.sleeping && state.ready.count <= window / 2 && state.readyBytes <= byteBudget / 2
                    if wakes { state.sleeping = false }
                    return .take(ready, wakingTheThread: wakes)
                }
                if state.decoding?.index == index { return .wait }
                state.asked[index] = true
                return .decode
            }
            switch next {
            case .take(let definitions, let wakes):
                if wakes { wake.signal() }
                return definitions
            case .decode:
                return plan[index].source.definitions()
            case .wait:
                await withCheckedContinuation { continuation in
                    let waits = state.withLock { state in
                        guard state.decoding?.index == index else { return false }
                        state.decoding!.waiters.append(continuation)
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            }
        }
    }

    /// Ends the thread at its next file (a run that stopped early leaves files nobody will ask for).
    func stop() {
        let wakes = state.withLock { state in
            state.stopped = true
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wakes { wake.signal() }
    }

    /// The files decoded that nobody has asked for yet, in order (for tests).
    var decodedAhead: [Int] { state.withLock { $0.ready.keys.sorted() } }

    /// Whether the thread has ended or never started (for tests).
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// The thread's work: each file not asked for yet, in order, once the window has room for it.
    private func decodeInOrder() {
        for index in plan.indices where plan[index].source.decodesAgain {
            enum Next { case decode, skip, sleep, stop }
            var next = Next.sleep
            while next == .sleep {
                next = state.withLock { state in
                    if state.stopped { return .stop }
                    if state.asked[index] { return .skip }
                    if state.ready.count >= window || state.readyBytes >= byteBudget {
                        state.sleeping = true
                        return .sleep
                    }
                    state.decoding = (index, [])
                    return .decode
                }
                if next == .sleep { wake.wait() }
            }
            if next == .stop { return }
            if next == .skip { continue }
            let definitions = plan[index].source.definitions()
            let waiters = state.withLock { state in
                state.ready[index] = definitions
                state.readyBytes += definitions.textBytes
                defer { state.decoding = nil }
                return state.decoding?.waiters ?? []
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}

private extension RunPlanner.FileSource.Definitions {
    /// The size of the decoded file's text, which stands for what its definitions hold.
    var textBytes: Int {
        if case .file(_, let text?) = self { return text.utf8.count }
        return 0
    }
}
