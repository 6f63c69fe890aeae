import Foundation
import Loaders
import Reporting
import Running
import Synchronization
import Dispatch

/// Turns SIGINT, SIGTERM and SIGHUP into the cancellation of the run, so that what ran is reported and the reports are
/// written. The same signal again within `repeatWindow` is the same request to stop (GNU `timeout` signals the child
/// and then its process group, microseconds apart) and is ignored; a different signal, or the same one later, ends the
/// process at once through `stopAtOnce`. A signal while the input is read, when the reading has not ended
/// `readingGraceSeconds` later (a read that blocks: a FIFO, a pipe left open), ends the process too, as nothing was sent.
final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        /// When the first signal came (`HeldSignals.now()`'s nanoseconds).
        var receivedAt: Int64?
        var task: Task<RunSummary, Never>?
        var reading = false
        /// Whether a step under way in a flow that cleans up gets its answer when the run is cancelled.
        var answersStepsUnderWay = false
        /// Once the run is over (its reports are written next): its exit status.
        var ended: ExitStatus?
    }

    /// How soon the same signal again counts as the same request to stop.
    static let repeatWindow: Int64 = 500_000_000
    /// How many seconds a reading of the input that a signal came during may still take before the process ends.
    static let readingGraceSeconds = 1

    private let state = Mutex(State())
    /// Ends the process for a signal: a second one, or one whose reading did not end in time.
    private let stopAtOnce: @Sendable (_ signal: Int32, _ why: StopReason) -> Never

    /// Why the process ends at once.
    enum StopReason: Sendable {
        /// A second signal; `whileReading` when the input was still being read (nothing was sent).
        case secondSignal(whileReading: Bool)
        /// A first signal came while the input was read, and the reading did not end in time.
        case readingDidNotEnd
        /// A second signal after the run ended with this status, while its reports were written.
        case runEnded(ExitStatus)
    }

    /// Watches SIGINT, SIGTERM and SIGHUP from now on (a signal held since `main` began is the first); `stopAtOnce` ends the
    /// process for a second signal, or for a first one when the reading it came during does not end within
    /// `readingGraceSeconds`.
    init(stopAtOnce: @escaping @Sendable (_ signal: Int32, _ why: StopReason) -> Never = { signal, _ in
        _exit(Interruption.status(for: signal).rawValue)
    }) {
        self.stopAtOnce = stopAtOnce
        // Weak: a signal that comes when the run has ended (the second of a pair) finds no run to stop.
        _ = HeldSignals.watch { [weak self] signal in self?.received(signal) }
    }

    deinit {
        // The run is over: a signal that comes now (the second of a pair, a few milliseconds behind the first) is held,
        // not the end of the process before it exits with the run's status.
        HeldSignals.hold()
    }

    /// The exit status for a signal, 128 and its number: 143 for SIGTERM, 129 for SIGHUP, 130 for SIGINT.
    static func status(for signal: Int32) -> ExitStatus {
        ExitStatus(rawValue: CancellingSignal(number: signal).exitStatus) ?? .interrupted
    }

    /// `SIGTERM`, `SIGHUP` or `SIGINT`.
    static func name(of signal: Int32) -> String { CancellingSignal(number: signal).name }

    /// The exit status for the signal received, if one was.
    var status: ExitStatus? {
        state.withLock { $0.signal }.map(Self.status(for:))
    }

    /// Marks the run over, with `status`: its reports are written next. A signal from now on changes neither them nor
    /// the exit status: the first says so, a second ends the process at once with `status`.
    func runEnded(status: ExitStatus) {
        state.withLock { $0.ended = status }
    }

    /// Reads the run's input (the collection, `--env-file`, `--rerun-failed`) with `body`: a signal that comes meanwhile
    /// cancels the run once it is read, or ends the process if the reading has not ended `readingGraceSeconds` after it.
    func reading<T: Sendable>(_ body: () async -> T) async -> T {
        state.withLock { $0.reading = true }
        defer { state.withLock { $0.reading = false } }
        return await body()
    }

    /// Whether a signal has asked the run to stop.
    private var stopRequested: Bool {
        state.withLock { $0.signal != nil } || HeldSignals.anyReceived
    }

    /// Runs `body` in a task that a signal cancels; `answeringStepsUnderWay` when the run has flows that clean up, whose
    /// steps under way get their answers first, as the notice says.
    func cancelling(answeringStepsUnderWay: Bool = false, _ body: @escaping @Sendable () async -> RunSummary) async -> RunSummary {
        // A signal that came already, even one the watcher has not handled yet, cancels the task before its body begins
        // (cancelled from here, the body could send its first request before `cancel` is reached on a busy machine).
        let task = Task {
            if self.stopRequested { withUnsafeCurrentTask { $0?.cancel() } }
            return await body()
        }
        let cancelled = state.withLock { state in
            (state.task, state.answersStepsUnderWay) = (task, answeringStepsUnderWay)
            return state.signal != nil
        }
        if cancelled { task.cancel() }
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    /// What a signal asks for.
    private enum Request {
        /// The first signal: cancel the run (the task, when it has started); `reading` while the input is read;
        /// `answering` when steps under way in flows that clean up get their answers.
        case cancel(Task<RunSummary, Never>?, reading: Bool, answering: Bool)
        /// The first signal, once the run is over.
        case ended
        /// A second signal once the run is over, with its status.
        case exit(ExitStatus)
        /// The same signal again soon after: the same request.
        case same
        /// Another signal, or the same one later: stop at once (`reading` while the input is read).
        case stopAtOnce(reading: Bool)
    }

    /// The first signal cancels the run; the same one within `repeatWindow` of it (by when each came, not when its handler
    /// ran: a notice blocked on standard error may hold the handler) is ignored; any other ends the process. (Signals
    /// that arrive before their handler runs are delivered to it once.)
    private func received(_ signal: HeldSignals.Received) {
        let number = signal.number
        let request = state.withLock { state -> Request in
            guard let first = state.signal, let receivedAt = state.receivedAt else {
                state.signal = number
                state.receivedAt = signal.nanoseconds
                return state.ended == nil ? .cancel(state.task, reading: state.reading, answering: state.answersStepsUnderWay) : .ended
            }
            if first == number && signal.nanoseconds - receivedAt < Self.repeatWindow { return .same }
            return state.ended.map(Request.exit) ?? .stopAtOnce(reading: state.reading)
        }
        switch request {
        case .cancel(let task, let reading, let answering):
            // Cancelled, and the reading's grace begun, before the notice, which standard error may hold up (a pipe nobody
            // reads).
            task?.cancel()
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.readingGraceSeconds)) { [weak self] in
                guard let self, self.state.withLock({ $0.reading }) else { return }
                self.stopAtOnce(number, .readingDidNotEnd)
            }
            Console.signalNotice("\(CancellingSignal(number: number).verb): "
                + (reading ? "stopping while the input is read; nothing is sent" : "cancelling the run; the requests not run are reported as skipped")
                + (answering && !reading ? " (a step under way in a flow with finally: steps is given up to "
                    + "\(HTTPClientTransport.answerGrace.components.seconds) s to answer, for its cleanup; a second signal stops at once)" : ""))
        case .ended:
            Console.signalNotice("\(CancellingSignal(number: number).verb): the run has ended; its reports are being written "
                + "(a second signal ends the process at once, with the run's status, before the rest are)")
        case .same: break
        case .exit(let status): stopAtOnce(number, .runEnded(status))
        case .stopAtOnce(let reading): stopAtOnce(number, .secondSignal(whileReading: reading))
        }
    }
}
