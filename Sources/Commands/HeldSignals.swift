import Foundation
import Synchronization

/// SIGINT and SIGTERM held from the first moment of `main` until `runner run` watches them itself, so that a signal in
/// the milliseconds before (parsing the command line, checking the report paths, installing the watch) stops the run
/// as any other does, its reports written, instead of killing the process or being lost. Other commands release them
/// at once.
public enum HeldSignals {
    /// The first signal held (0: none), set by the handler.
    private static let held = Atomic<Int32>(0)

    /// From now on, SIGINT and SIGTERM are recorded instead of ending the process (until a signal source replaces the
    /// handler).
    public static func hold() {
        // Initialized here, not first in the handler, where a lazy global's initialization would not be signal-safe.
        _ = held.load(ordering: .relaxed)
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in _ = HeldSignals.held.compareExchange(expected: 0, desired: number, ordering: .relaxed) }
        }
    }

    /// Gives SIGINT and SIGTERM their default actions again, and raises the one held, if any (it ends the process).
    public static func release() {
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
        let number = held.exchange(0, ordering: .relaxed)
        if number != 0 { raise(number) }
    }

    /// The signal held, if one was, once whoever calls this watches the signals itself (they are no longer held).
    static func take() -> Int32? {
        let number = held.exchange(0, ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
