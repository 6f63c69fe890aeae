#include "held_signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t held_signal = 0;

static void hold(int number) {
    if (held_signal == 0) held_signal = number;
}

void runner_hold_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = hold;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

void runner_release_held_signals(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int number = runner_take_held_signal();
    if (number != 0) raise(number);
}

int runner_take_held_signal(void) {
    int number = __atomic_exchange_n(&held_signal, 0, __ATOMIC_SEQ_CST);
    return number;
}
