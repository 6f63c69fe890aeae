#include "held_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// The first signal that came while nobody watched, until it is taken.
static volatile sig_atomic_t held_signal = 0;
/// Whether a SIGINT, SIGTERM or SIGHUP has come since the program was loaded.
static volatile sig_atomic_t any_received = 0;
/// Where the signals are forwarded while they are watched (the write end of `signal_pipe`), else -1.
static volatile sig_atomic_t forward_fd = -1;
/// The pipe the watched signals go through, made once: its ends are never closed, so the handler never writes to a
/// descriptor that was reused.
static int signal_pipe[2] = {-1, -1};

/// How long a held signal waits for the program to take it (`runner run` watching the signals, or another command
/// releasing them) before its default action ends the process: a program stuck before then (a thread the system
/// would not create) still ends when it is told to.
#define HELD_SIGNAL_GRACE_SECONDS 3

static void receive(int number) {
    any_received = 1;
    int fd = forward_fd;
    if (fd >= 0) {
        int saved = errno;
        // The number and when it came, in one write (atomic, being shorter than PIPE_BUF).
        unsigned char record[RUNNER_SIGNAL_RECORD_SIZE];
        int64_t now = runner_monotonic_nanoseconds();
        record[0] = (unsigned char)number;
        memcpy(record + 1, &now, sizeof now);
        ssize_t written = write(fd, record, sizeof record);
        (void)written;
        errno = saved;
    } else if (held_signal == 0) {
        held_signal = number;
        alarm(HELD_SIGNAL_GRACE_SECONDS);
    }
}

/// The grace of a held signal is over: unless the program took it meanwhile, its default action ends the process.
static void expire(int number) {
    (void)number;
    int held = held_signal;
    if (forward_fd >= 0 || held == 0) return;
    signal(held, SIG_DFL);
    raise(held);
}

void runner_hold_signals(void) {
    forward_fd = -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = receive;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    action.sa_handler = expire;
    sigaction(SIGALRM, &action, NULL);
}

void runner_release_held_signals(void) {
    forward_fd = -1;
    alarm(0);
    signal(SIGALRM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int number = runner_take_held_signal();
    if (number != 0) raise(number);
}

int runner_take_held_signal(void) {
    int number = __atomic_exchange_n(&held_signal, 0, __ATOMIC_SEQ_CST);
    return number;
}

int runner_watch_signals(void) {
    if (signal_pipe[0] < 0) {
        if (pipe(signal_pipe) != 0) return -1;
        fcntl(signal_pipe[0], F_SETFD, FD_CLOEXEC);
        fcntl(signal_pipe[1], F_SETFD, FD_CLOEXEC);
        // A full pipe drops a signal rather than blocking the handler.
        fcntl(signal_pipe[1], F_SETFL, fcntl(signal_pipe[1], F_GETFL) | O_NONBLOCK);
    }
    runner_hold_signals();
    forward_fd = signal_pipe[1];
    alarm(0);
    return signal_pipe[0];
}

int64_t runner_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int runner_any_signal_received(void) {
    return any_received;
}
