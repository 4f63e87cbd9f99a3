/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The endgame database tool: decoded tables in memory, the solver and the verifier. */
#ifndef POOLSHARK_TOOLS_EGDB_H
#define POOLSHARK_TOOLS_EGDB_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "poolshark/egdb.h"
#include "poolshark/position.h"

/* Decoded tables (one value byte per index) of the classes in use, read from
 * the files of one directory or just solved. */
typedef struct Store {
	const char *dir;
	Variant variant; /* the rule set of the tables and files */
	uint8_t *values[EGDB_CLASS_KEYS];
	uint64_t sizes[EGDB_CLASS_KEYS];
} Store;

/* The file path of class c in the store's directory. */
void store_path(const Store *st, EgdbClass c, char *out, size_t size);

/* Makes sure class c is in memory, reading and checking its file; false with
 * a message on stderr when it is missing or corrupt. */
bool store_load(Store *st, EgdbClass c);

/* Frees every table. */
void store_free(Store *st);

/*
 * The value of *p (any side to move) from the loaded tables: its class must
 * be loaded, or the side to move must have no piece (lost now).
 */
uint8_t store_value(const Store *st, const Position *p);

/* store_value() as an EgdbValueOf (egdb_class.h), `store` a Store: always
 * true. */
bool store_value_of(const void *store, const Position *p, uint8_t *value);

/* Reads class c's file into a fresh buffer (the caller frees it) and checks
 * it, its rule set the store's too; NULL with a message on stderr. */
uint8_t *store_read_file(const Store *st, EgdbClass c, size_t *size, EgdbHeader *h);

/* Loads every class the positions of pair (x v y, y v x) can move into by a
 * capture or a crowning. */
bool store_load_exits(Store *st, EgdbClass pair);

typedef struct BuildOptions {
	int threads;
	bool quiet;
	/* Batch jobs: with slices M > 0, slice K >= 0 runs only step 1 on the
	 * K-th of M index ranges and writes its summary beside the files;
	 * slice -1 runs step 2 from the M summaries (and removes them). */
	int slices, slice;
} BuildOptions;

/* Solves the pair (x v y and y v x) by retrograde analysis and writes its
 * file(s); the classes it depends on must be loadable. Keeps the solved
 * tables in the store. See BuildOptions for the split into jobs. */
bool solve_pair(Store *st, EgdbClass pair, const BuildOptions *o);

/*
 * Re-derives the values of class c's file from its successors with the move
 * generator: slice `slice` (0-based) of `slices` equal index ranges (0 of 1:
 * all). Counts positions checked into *checked and mismatches (printing the
 * first few) into *bad; false on a missing or corrupt file.
 */
bool verify_class(Store *st, EgdbClass c, int threads, int slice, int slices, uint64_t *checked,
                  uint64_t *bad);

/* The value a position must have given the values of its successors (the
 * side to move picks the best; no move loses). */
uint8_t derive_value(const Store *st, const Position *p);

/*
 * Fits the plan of three kings against one (kings_plan.h) to the distances
 * of rule set v's databases in dir (three kings against one and what it
 * leads to: four pieces) and writes the weights as the C source of
 * src/eval/kings_plan_weights.c to out (its first comment naming the
 * command), the fit's size and error to stderr. With `man`, the plan of
 * two kings and a man against one (KingsManPlanWeights) instead, into
 * src/eval/kings_man_plan_weights.c. Deterministic. 0, or 1 with a
 * message when the databases are missing.
 */
int egdb_fit_plan(const char *dir, Variant v, bool man, FILE *out);

/*
 * Reviews the games of the PDN files paths[0..count) against rule set v's
 * databases in dir: for each game and side, the first position where that
 * side stands won by the databases with the win inside the draw counts
 * (game_win_fits), a line each to out with what the game's result made of
 * it, then per player (the Black and White tags) the won endings reached
 * and how many were won, drawn and lost. A game of another rule set, a bad
 * game or a file that cannot be read is named on stderr and skipped.
 * 0, or 1 when anything was skipped or the databases cannot be opened.
 */
int egdb_review(const char *dir, Variant v, const char *const *paths, int count, FILE *out);

#endif
