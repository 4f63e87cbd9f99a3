/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Hub protocol (v2, 8x8 pool) and the extension commands, one line at a time. */
#ifndef POOLSHARK_PROTOCOL_H
#define POOLSHARK_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "poolshark/engine.h"

/*
 * Receives every line the protocol prints, without its newline, one whole
 * line per call. Calls come from the thread that handles input and from the
 * search thread, but never at the same time: the protocol holds one lock
 * around each call, so lines never interleave.
 */
typedef void (*ProtocolWrite)(const char *line, void *user);

typedef struct ProtocolConfig {
	bool interactive;                /* a person at a terminal: greet them */
	size_t hash_mb;                  /* hash size at start */
	size_t max_hash_mb;              /* largest `hash` that set-param accepts */
	int max_perft_depth;             /* deepest `perft` accepted */
	bool allow_bench;                /* whether `bench` runs (fuzzing turns it off) */
	char egdb_path[ENGINE_PATH_MAX]; /* endgame databases at start; "" none */
} ProtocolConfig;

typedef struct Protocol Protocol;

/* Defaults for a real engine process: not interactive, hash 64 MiB. */
void protocol_default_config(ProtocolConfig *out);

/*
 * A protocol session with an engine of its own at the start position.
 * `write` gets every output line. NULL when memory is short.
 */
Protocol *protocol_create(const ProtocolConfig *config, ProtocolWrite write, void *user);

/* Stops a running search, waits for it (its `done` is still written) and
 * frees everything. */
void protocol_destroy(Protocol *p);

/*
 * Handles one input line of `length` bytes (it may hold NUL or any other
 * byte; those get an error reply). Returns false when the line was `quit`
 * (the search, if any, has then been stopped and waited for), true
 * otherwise. Never blocks on a running search: commands that cannot run
 * during one get `error message="..."`. A bad command changes nothing.
 */
bool protocol_handle_line(Protocol *p, const char *line, size_t length);

/*
 * Back to the state of a new session: any search stopped and waited for,
 * options at their defaults, the hash table cleared, no position set.
 * (For fuzzing and tests, where creating a session per input is slow.)
 */
void protocol_reset(Protocol *p);

/* Writes `error message="<message>"` (e.g. for a line that was too long). */
void protocol_error(Protocol *p, const char *message);

/* Writes the greeting a person at a terminal sees first. */
void protocol_greet(Protocol *p);

/* Asks a running search to stop (its `done` follows); no-op otherwise. */
void protocol_stop(Protocol *p);

/* Waits until no search runs. */
void protocol_wait(Protocol *p);

/* At the end of input: a search that ends by itself (depth, nodes, time,
 * clock) finishes and writes its done; an infinite or ponder search is
 * stopped at once. Returns when no search runs. */
void protocol_finish(Protocol *p);

/* True while a search runs (until just before its done line is written). */
bool protocol_is_searching(const Protocol *p);

#endif
