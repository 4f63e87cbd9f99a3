/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Openings files: one FEN a line, read for a rule set, and random starts played from them. */
#ifndef POOLSHARK_OPENINGS_H
#define POOLSHARK_OPENINGS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/game.h"
#include "poolshark/position.h"
#include "poolshark/variant.h"

typedef struct Openings {
	int count;
	Position *positions; /* owned; openings_free() releases it */
} Openings;

/* The repository's openings file of variant v: tools/data/openings.fen for
 * pool, tools/data/openings-NAME.fen for the others. */
const char *openings_default_path(Variant v);

enum { OPENINGS_PATH_MAX = 512 };

/* The openings file a tool reads when given none, written into path[size]
 * (OPENINGS_PATH_MAX is enough) and returned: the repository's
 * (openings_default_path) when it can be read from the working directory,
 * else from the source tree that holds the running program (the program's
 * directory, its parent or the parent's parent; Linux only), else an
 * installed copy's PREFIX/share/poolshark/NAME (the directory that
 * holds poolshark_installed_egdb_dir) when that can be read, else the
 * repository's, so that the error names the file looked for. */
const char *openings_find_default(Variant v, char *path, size_t size);

/*
 * Reads `path`: one FEN a line, blank lines and lines starting with `#`
 * skipped, each position set to variant v. False with "PATH: reason" or
 * "PATH:LINE: reason" in err (a missing file, a bad FEN, no openings, a
 * line or the file over its bound of 64 MiB, short memory, or *interrupted
 * set while reading; interrupted may be NULL), and *out empty.
 */
bool openings_read(const char *path, Variant v, volatile const sig_atomic_t *interrupted, Openings *out,
                   char *err, size_t err_size);

void openings_free(Openings *o);

/*
 * Starts *g at *opening and plays min_plies..max_plies (a uniform choice)
 * random legal moves chosen by *rng, retrying until material is level, no capture is pending and the game
 * goes on (a random move that drops a man would decide the game before it
 * starts); falls back to the bare opening after 100 failures.
 */
void openings_random_start(uint64_t *rng, const Position *opening, int min_plies, int max_plies, Game *g);

#endif
