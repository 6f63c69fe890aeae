#ifndef RUNNER_HOLD_SIGNALS_AT_LOAD_H
#define RUNNER_HOLD_SIGNALS_AT_LOAD_H

/// Nothing to call: linking this target into the `runner` executable holds SIGINT and SIGTERM from the moment the
/// program is loaded (a constructor). Test processes do not link it, so Ctrl-C stops them as usual.

#endif
