/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The signals of a program that drives engines: a stop is a flag to poll, not a death. */
#ifndef POOLSHARK_SIGNALS_H
#define POOLSHARK_SIGNALS_H

#include <signal.h>

/*
 * Sets the process up to end its engines before it ends: SIGINT, SIGTERM
 * and SIGHUP set the flag it returns (0 until one comes) instead of ending
 * the program, which polls it (hub_engine_handshake, match_run) and ends
 * its engines itself; SIGPIPE is ignored, so that writing to a dead engine
 * fails with an error; and the process becomes the reaper of what its
 * engines' process groups leave behind (hub_engine_kill()). The flag is
 * the process's one, since a signal handler reaches nothing else; a second
 * call returns it again. Call before the first engine starts (the engines
 * get the default dispositions back, hub_engine_spawn()).
 */
volatile const sig_atomic_t *signals_catch_stop(void);

#endif
