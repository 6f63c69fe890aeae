#ifndef RUNNER_HELD_SIGNALS_H
#define RUNNER_HELD_SIGNALS_H

/// SIGINT and SIGTERM are held (recorded, not acted on) from the moment the program is loaded, before `main`, by a
/// constructor; these give them back or take the one held.

/// From now on, SIGINT and SIGTERM are recorded instead of ending the process (until a signal source replaces the
/// handler). Done at load already; again by whoever gave them back.
void runner_hold_signals(void);

/// Gives SIGINT and SIGTERM their default actions again and raises the one held, if any (it ends the process).
void runner_release_held_signals(void);

/// The signal held (0 when none), which is no longer held: whoever calls this watches the signals itself.
int runner_take_held_signal(void);

#endif
