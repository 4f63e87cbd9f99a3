/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Transposition table: buckets of four entries, replacement by depth and age. */
#ifndef POOLSHARK_TT_H
#define POOLSHARK_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/bitboard.h"
#include "poolshark/move.h"

typedef enum TTBound {
	TT_BOUND_NONE = 0,
	TT_BOUND_UPPER = 1,
	TT_BOUND_LOWER = 2,
	TT_BOUND_EXACT = 3
} TTBound;

/*
 * One slot. The low bits of the Zobrist key pick the bucket and the high
 * 32 bits are kept to verify it; the move is stored whole (from, to,
 * captured set), so that the search can recognise it in its move list.
 * The era says which game wrote the entry: the entries of other eras are
 * empty, so that a new game forgets the table without touching it.
 *
 * The threads of a search share the table without locks (threads.h): a
 * slot is two words, each read and written whole. `data` holds the move's
 * squares and era (16 bits), the score and the static value (16 each),
 * the depth and generation << 2 | bound (8 each); `check` holds the key's
 * high 32 bits and the captured set (32 each), XORed with `data`, so that
 * a slot whose two words two threads wrote at once fails its check and
 * reads as another position's.
 */
typedef struct TTEntry {
	atomic_uint_least64_t check;
	atomic_uint_least64_t data;
} TTEntry;

_Static_assert(sizeof(TTEntry) == 16, "four entries fill a 64-byte cache line");
_Static_assert(SQUARE_COUNT <= 32, "a square fits in the 5 bits of move_era");

enum { TT_ERA_COUNT = 64 }; /* the 6 high bits of move_era */

enum { TT_BUCKET_SIZE = 4 };

typedef struct TTBucket {
	TTEntry entries[TT_BUCKET_SIZE];
} TTBucket;

typedef struct TT {
	TTBucket *buckets;
	size_t bucket_count; /* a power of two */
	uint8_t generation;  /* 6 bits, advanced per search */
	uint8_t era;         /* 6 bits, advanced per game (tt_new_game) */
	uint64_t eras_used;  /* bit e: the table may hold entries of era e */
} TT;

/* What a probe found. */
typedef struct TTHit {
	Move move; /* move_none() when the entry has none */
	int score; /* already converted to the probing node's ply */
	int eval;
	int depth;
	TTBound bound;
} TTHit;

/*
 * Maps about `megabytes` MiB (rounded down to a power of two buckets, at
 * least one bucket), zeroed, from the system (bigmem.h: its pages become
 * resident when first used, or with tt_prefault()). False, with
 * tt->buckets NULL, when the memory is not there. Free with tt_free(),
 * which gives the memory back to the system.
 */
bool tt_init(TT *tt, size_t megabytes);
void tt_free(TT *tt);

/* Remaps to a new size (contents lost). On failure returns false with the
 * old size restored, emptied (or, when even that fails, no table). */
bool tt_resize(TT *tt, size_t megabytes);

/* Empties every entry by writing or remapping the memory, and resets the
 * generation and the era (a large table is mapped anew, untouched:
 * prefault it again if wanted). Costs time in proportion to the size. */
void tt_clear(TT *tt);

/*
 * Forgets every entry for a new game without touching the memory: the
 * table moves to a fresh era and every older entry reads as empty (to
 * probes, stores and replacement alike), so that a search then behaves
 * exactly as in a cleared table; nothing at all changes in a table that
 * holds no entry. Returns false, with nothing changed, when the next era
 * may still have entries in the table (one new game in TT_ERA_COUNT, once
 * the table is in use): the caller clears it with tt_clear() then.
 */
bool tt_new_game(TT *tt);

/* The size of the table in bytes. */
static inline size_t tt_bytes(const TT *tt)
{
	return tt->bucket_count * sizeof(TTBucket);
}

/* Makes the table's pages resident with `threads` threads, so that the
 * next search takes no page faults; stops early when *abort (may be NULL)
 * becomes true. */
void tt_prefault(TT *tt, int threads, const atomic_bool *abort);

/* Marks the start of a new search: older entries become easier to replace.
 * Called before the search's threads store anything. */
void tt_new_search(TT *tt);

/*
 * Looks `key` up. On a hit fills *out and returns true; win/loss scores are
 * turned from "plies from this node" back into "plies from the root" using
 * `ply`, the distance of the probing node from the root.
 */
bool tt_probe(const TT *tt, uint64_t key, int ply, TTHit *out);

/*
 * Stores a search result for `key` found at `ply` from the root (win/loss
 * scores are kept relative to the node). Keeps the old move when `move` is
 * none and the entry is for the same position. Replaces, in the bucket, the
 * same position, else an empty slot, else the slot with the smallest depth
 * after an age penalty.
 */
void tt_store(TT *tt, uint64_t key, int ply, int depth, int score, int eval, TTBound bound, Move move);

/* Starts loading the bucket of `key` into the cache, to probe it soon. */
static inline void tt_prefetch(const TT *tt, uint64_t key)
{
	__builtin_prefetch(&tt->buckets[key & (tt->bucket_count - 1)]);
}

/* Permille of the first 1000 entries (250 buckets) written in this search. */
int tt_hashfull(const TT *tt);

/* Converts between root-relative and node-relative win/loss scores. */
int tt_score_to_node(int score, int ply);
int tt_score_from_node(int score, int ply);

#endif
