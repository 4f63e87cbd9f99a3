/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A move is (from, to, captured set); a move list holds the legal moves. */
#ifndef POOLSHARK_MOVE_H
#define POOLSHARK_MOVE_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/bitboard.h"

/*
 * RULES.md 2.11: a move is identified by its origin, its destination and the
 * set of captured squares; the path of a capture is not part of the move
 * (notation recovers one when it must print it).
 */
typedef struct Move {
	Bitboard captured; /* squares of the pieces taken, 0 for a quiet move */
	uint8_t from;      /* bit index 0..31 */
	uint8_t to;
	/* Russian rules: a man that crossed its crowning row during this
	 * capture and ends it elsewhere, as a king. Not part of the move's
	 * identity (move_equal): 0 in every other case. */
	uint8_t crowned;
} Move;

_Static_assert(sizeof(Move) == 8, "a move packs into 8 bytes");

/*
 * Enough for any position reachable under the rules: at most 12 flying kings
 * with 13 squares each for quiet moves, and capture trees bounded in tests by
 * random play and fuzzing. The generator never writes past it.
 */
enum { MOVELIST_CAPACITY = 512 };

typedef struct MoveList {
	int count;
	Move moves[MOVELIST_CAPACITY];
} MoveList;

static inline bool move_equal(Move a, Move b)
{
	return a.from == b.from && a.to == b.to && a.captured == b.captured;
}

static inline bool move_is_capture(Move m)
{
	return m.captured != 0;
}

/* The null move: never legal, used as "no move". */
static inline Move move_none(void)
{
	Move m = {0, 0, 0, 0};
	return m;
}

static inline bool move_is_none(Move m)
{
	return m.from == m.to && m.captured == 0;
}

/* The longest capture takes 12 pieces: its path has 13 squares. */
enum { MOVEPATH_MAX = 13 };

/* A capture's route: the origin, then every landing square in order. */
typedef struct MovePath {
	int length;
	uint8_t squares[MOVEPATH_MAX];
} MovePath;

/* Sorts by origin, then destination, then captured set: the order in which
 * people read a list of moves. */
void movelist_sort(MoveList *list);

#endif
