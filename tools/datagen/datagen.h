/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen: labelled training positions from self-play (shared declarations). */
#ifndef POOLSHARK_TOOLS_DATAGEN_H
#define POOLSHARK_TOOLS_DATAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/egdb_class.h"
#include "poolshark/random.h"
#include "posdata.h"

/* The generator state of game (or walk) `number`: the seed and the number
 * alone, so that it is the same in any thread and any shard. */
static inline uint64_t datagen_rng(long long seed, int number)
{
	uint64_t state = (uint64_t)seed ^ ((uint64_t)number * 0xd1b54a32d192ed03ull);
	random_next(&state);
	return state;
}

/* A database value (egdb_class.h) as a record's result label. */
static inline PosdataResult datagen_egdb_label(uint8_t value)
{
	EgdbResult r = egdb_value_result(value);
	return r == EGDB_WIN ? POSDATA_WIN : r == EGDB_LOSS ? POSDATA_LOSS : POSDATA_DRAW;
}

/* The Zobrist keys already written, to drop a position met again (an
 * open-addressing set that doubles at half load). */
typedef struct KeySet {
	uint64_t *slots; /* 0 marks a free slot; key 0 is kept in has_zero */
	size_t capacity, count;
	bool has_zero;
} KeySet;

/* False when memory is short. */
bool keyset_init(KeySet *s);
/* Adds key; *added tells whether it was new. False when memory is short. */
bool keyset_add(KeySet *s, uint64_t key, bool *added);
void keyset_free(KeySet *s);

/* Subcommands; argv[0] is the subcommand's name. Exit statuses (2: bad
 * arguments). */
int datagen_gen(int argc, char **argv);
int datagen_info(int argc, char **argv);
int datagen_merge(int argc, char **argv);
int datagen_walk(int argc, char **argv);

#endif
