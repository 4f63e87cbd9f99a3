/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine process: Hub lines from a file descriptor in, replies out, until quit or end of input. */
#ifndef POOLSHARK_HUBLOOP_H
#define POOLSHARK_HUBLOOP_H

#include <stdio.h>

#include "protocol.h"

/*
 * Runs a session over file descriptors: reads lines from in_fd until `quit`
 * or end of input, writes replies to out (flushed after every line). At end
 * of input a bounded search finishes and writes its done first, and an
 * infinite or ponder search is stopped at once (protocol_finish()).
 * Returns 0, or 1 when the session could not start.
 */
int hubloop_run(int in_fd, FILE *out, const ProtocolConfig *config);

/* `poolshark` with no subcommand (or `poolshark hub`): the protocol on
 * stdin/stdout. Returns the process exit status. */
int hubloop_main(int argc, char **argv);

#endif
