/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perft: leaf counts of the legal move tree, the proof of the generator. */
#ifndef POOLSHARK_PERFT_H
#define POOLSHARK_PERFT_H

#include <stddef.h>
#include <stdint.h>

#include "poolshark/move.h"
#include "poolshark/position.h"

/* An optional cache of (key, depth) -> leaves, opaque to callers. */
typedef struct PerftTable PerftTable;

/*
 * Maps a table of about `megabytes` MiB (at least one entry) from the
 * system, zeroed and already resident (its pages are touched by two
 * threads here, not during the count); NULL when the memory is not there.
 * Free with perft_table_free(), which gives the memory back.
 */
PerftTable *perft_table_create(size_t megabytes);
void perft_table_free(PerftTable *table);

/*
 * The number of leaves `depth` plies below *p (1 at depth 0), counting the
 * moves of the last ply in bulk. `table` may be NULL; with a table the
 * count is the same, only faster.
 */
uint64_t perft_count(const Position *p, int depth, PerftTable *table);

/*
 * perft_count() where a capture that takes the same pieces by several
 * routes counts once per route, as some published tables count (English
 * checkers' "by paths"); every route leads to the same position. The
 * table, when given, holds these counts apart from perft_count()'s.
 */
uint64_t perft_count_paths(const Position *p, int depth, PerftTable *table);

typedef struct PerftDivide {
	int count; /* number of root moves */
	Move moves[MOVELIST_CAPACITY];
	uint64_t leaves[MOVELIST_CAPACITY];
	uint64_t total;
} PerftDivide;

/* perft split by root move, in movegen order; depth must be at least 1. */
void perft_divide(const Position *p, int depth, PerftTable *table, PerftDivide *out);

#endif
