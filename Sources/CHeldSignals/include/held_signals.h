#ifndef RUNNER_HELD_SIGNALS_H
#define RUNNER_HELD_SIGNALS_H

#include <stdint.h>

/// The bytes each watched signal is written as: its number, then `runner_monotonic_nanoseconds` when it came.
#define RUNNER_SIGNAL_RECORD_SIZE 9

/// SIGINT, SIGTERM and SIGHUP are held (recorded, not acted on) from the moment the program is loaded, before `main`, by a
/// constructor; these give them back, take the one held, or forward them to whoever watches them.

/// From now on, SIGINT, SIGTERM and SIGHUP are recorded instead of ending the process. Done at load already; again by whoever
/// stops watching them. A signal held that nobody takes within a few seconds (a program stuck before it watches or releases
/// them) ends the process by its default action after all.
void runner_hold_signals(void);

/// Gives SIGINT, SIGTERM and SIGHUP their default actions again and raises the one held, if any (it ends the process).
void runner_release_held_signals(void);

/// The signal held (0 when none), which is no longer held: whoever calls this watches the signals itself.
int runner_take_held_signal(void);

/// From now on, each SIGINT, SIGTERM and SIGHUP is written as a record of `RUNNER_SIGNAL_RECORD_SIZE` bytes (its number and
/// when it came) to the pipe whose read end this returns (-1 when no pipe could be made); `runner_hold_signals` ends it. A
/// signal that came before is still held.
int runner_watch_signals(void);

/// Whether a SIGINT, SIGTERM or SIGHUP has come since the program was loaded (1) or not (0), at the moment it came: before
/// whoever watches the signals has read it.
int runner_any_signal_received(void);

/// The time on the monotonic clock, in nanoseconds: when a watched signal came is told on it.
int64_t runner_monotonic_nanoseconds(void);

#endif
