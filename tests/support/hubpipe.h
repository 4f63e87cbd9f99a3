/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers: the engine program driven over real pipes, as a Hub GUI drives it. */
#ifndef POOLSHARK_TESTS_HUBPIPE_H
#define POOLSHARK_TESTS_HUBPIPE_H

#include <stddef.h>

#include "poolshark/hubline.h"
#include "poolshark/move.h"
#include "poolshark/position.h"
#include "hubclient.h"

enum {
	HUBPIPE_LINE_MAX = 8192,
	/* How long a reply that must come may take. A correct engine answers
	 * in milliseconds; this only has to hold on a loaded machine under the
	 * sanitizers, and a broken one never answers at all. */
	HUBPIPE_SLOW_MS = 10000
};

/* Starts `ENGINE hub` (support_engine()) on pipes; fails the test when it
 * cannot. */
void hubpipe_spawn(HubEngine *e);

/* Sends one line; fails the test when the engine is gone. */
void hubpipe_send(HubEngine *e, const char *line);

/*
 * Reads lines until one whose command is `command` and copies it to out
 * (when not NULL); the lines before it are counted in *skipped (when not
 * NULL). Fails the test after timeout_ms, or when the engine closes its
 * output first.
 */
void hubpipe_expect(HubEngine *e, const char *command, int timeout_ms, char *out, size_t size, int *skipped);

/* Parses `text` (in place) into *line; fails the test unless it is a well
 * formed Hub line of key=value arguments only. */
void hubpipe_parse_strict(char *text, HubLine *line);

/*
 * Reads a search's lines up to its done line: every info line must be
 * well formed with its six values (depth, mean-depth, score, nodes, time,
 * nps), done must carry a move legal in *p and at most a ponder move
 * (copied to ponder, "" when none, when ponder is not NULL). Returns the
 * move; fails the test after timeout_ms.
 */
Move hubpipe_read_done(HubEngine *e, const Position *p, int timeout_ms, char *ponder, size_t ponder_size);

#endif
