#include "hold_signals_at_load.h"
#include "held_signals.h"

/// Runs when the program is loaded, before Swift's `main` and the static initializers of the libraries linked into the
/// executable: a SIGINT, SIGTERM or SIGHUP from then on is recorded, for `run` to report.
__attribute__((constructor(101))) static void hold_signals_at_load(void) {
    runner_hold_signals();
}
