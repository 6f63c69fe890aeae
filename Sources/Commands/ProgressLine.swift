import Reporting
import Synchronization

/// The `[done/total] running…` line on a terminal, redrawn after each request of a long run.
final class ProgressLine: Sendable {
    private let total: Int
    private let enabled: Bool
    private let done = Mutex(0)

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    /// Counts a finished request and redraws the line.
    func advance(_ console: ConsoleReport) {
        guard enabled else { return }
        let count = done.withLock { value in
            value += 1
            return value
        }
        if count < total { Console.progress(console.progress(done: count, total: total)) }
    }

    /// Removes the line so regular output starts at the beginning of a clean line.
    func clear() {
        if enabled { Console.progress("") }
    }
}
