internal import CHeldSignals

/// SIGINT and SIGTERM held from the moment the program is loaded (a C constructor, before `main` and the libraries'
/// static initializers) until `runner run` watches them itself, so that a signal in the milliseconds before (starting,
/// parsing the command line, checking the report paths, installing the watch) stops the run as any other does, its
/// reports written, instead of killing the process or being lost. Other commands release them at once.
public enum HeldSignals {
    /// From now on, SIGINT and SIGTERM are recorded instead of ending the process (until a signal source replaces the
    /// handler).
    public static func hold() {
        runner_hold_signals()
    }

    /// Gives SIGINT and SIGTERM their default actions again, and raises the one held, if any (it ends the process).
    public static func release() {
        runner_release_held_signals()
    }

    /// The signal held, if one was, once whoever calls this watches the signals itself (they are no longer held).
    static func take() -> Int32? {
        let number = runner_take_held_signal()
        return number == 0 ? nil : Int32(number)
    }
}
