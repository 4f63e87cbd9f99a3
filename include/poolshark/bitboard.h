/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bitboards: one bit per playable square, and the four diagonal steps. */
#ifndef POOLSHARK_BITBOARD_H
#define POOLSHARK_BITBOARD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Layout. Square n of the PDN numbering (1..32, RULES.md section 1) is bit
 * n-1. Row r (0 = the top row, where Black starts) holds bits 4r..4r+3 from
 * left to right. On even rows the dark squares sit in columns 1,3,5,7, on odd
 * rows in columns 0,2,4,6, so a diagonal step is a shift by 4 plus, on one
 * row parity, a shift by 3 or 5. Keeping the PDN order means that square
 * numbers, FEN lists and bit indices convert with a +1, that the whole board
 * fits a 32-bit word (four words per position, cheap to copy), and that a
 * 180-degree turn of the board is a bit reversal.
 */
typedef uint32_t Bitboard;

enum { SQUARE_COUNT = 32 };

typedef enum Direction {
	DIR_DOWN_LEFT, /* toward higher square numbers (Black's forward) */
	DIR_DOWN_RIGHT,
	DIR_UP_LEFT, /* toward lower square numbers (White's forward) */
	DIR_UP_RIGHT,
	DIR_COUNT
} Direction;

#define BB_EVEN_ROWS  0x0f0f0f0fu /* rows 0,2,4,6 (dark squares on odd columns) */
#define BB_ODD_ROWS   0xf0f0f0f0u /* rows 1,3,5,7 */
#define BB_LEFT_EDGE  0x10101010u /* column a: squares 5, 13, 21, 29 */
#define BB_RIGHT_EDGE 0x08080808u /* column h: squares 4, 12, 20, 28 */
#define BB_TOP_ROW    0x0000000fu /* squares 1-4: White crowns here */
#define BB_BOTTOM_ROW 0xf0000000u /* squares 29-32: Black crowns here */
#define BB_ALL        0xffffffffu

/* rays[d][s]: every square reached from bit s by repeated steps in d. */
extern const Bitboard bitboard_rays[DIR_COUNT][SQUARE_COUNT];
/* neighbors[d][s]: the square one step from s in d (0 off the board). */
extern const Bitboard bitboard_neighbors[DIR_COUNT][SQUARE_COUNT];
/* jumps[d][s]: the square two steps from s in d, where a man lands. */
extern const Bitboard bitboard_jumps[DIR_COUNT][SQUARE_COUNT];
/* within_two[s]: the squares one or two diagonal steps from s, each way:
 * those whose men's steps and jumps a piece arriving on or leaving s can
 * change. */
extern const Bitboard bitboard_within_two[SQUARE_COUNT];

static inline Bitboard bb_square(int s)
{
	return (Bitboard)1u << s;
}

static inline int bb_count(Bitboard b)
{
	return __builtin_popcount(b);
}

/* Index of the lowest set bit; b must not be 0. */
static inline int bb_lowest(Bitboard b)
{
	return __builtin_ctz(b);
}

/* Index of the highest set bit; b must not be 0. */
static inline int bb_highest(Bitboard b)
{
	return 31 - __builtin_clz(b);
}

static inline Bitboard bb_step_down_left(Bitboard b)
{
	return ((b & BB_EVEN_ROWS) << 4) | ((b & BB_ODD_ROWS & ~BB_LEFT_EDGE) << 3);
}

static inline Bitboard bb_step_down_right(Bitboard b)
{
	return ((b & BB_EVEN_ROWS & ~BB_RIGHT_EDGE) << 5) | ((b & BB_ODD_ROWS) << 4);
}

static inline Bitboard bb_step_up_left(Bitboard b)
{
	return ((b & BB_EVEN_ROWS) >> 4) | ((b & BB_ODD_ROWS & ~BB_LEFT_EDGE) >> 5);
}

static inline Bitboard bb_step_up_right(Bitboard b)
{
	return ((b & BB_EVEN_ROWS & ~BB_RIGHT_EDGE) >> 3) | ((b & BB_ODD_ROWS) >> 4);
}

/* Every set bit moved one diagonal step in d; steps off the board vanish. */
static inline Bitboard bb_step(Bitboard b, Direction d)
{
	switch (d) {
	case DIR_DOWN_LEFT: return bb_step_down_left(b);
	case DIR_DOWN_RIGHT: return bb_step_down_right(b);
	case DIR_UP_LEFT: return bb_step_up_left(b);
	default: return bb_step_up_right(b);
	}
}

/* True for the directions that walk toward higher bit indices. */
static inline bool dir_is_down(Direction d)
{
	return d == DIR_DOWN_LEFT || d == DIR_DOWN_RIGHT;
}

/* The two diagonals through a square, each named by the direction that
 * walks it toward higher square numbers. */
typedef enum Diagonal {
	DIAG_DOWN_LEFT,  /* DIR_DOWN_LEFT and DIR_UP_RIGHT: the long diagonal's */
	DIAG_DOWN_RIGHT, /* DIR_DOWN_RIGHT and DIR_UP_LEFT: the double diagonals' */
	DIAG_COUNT
} Diagonal;

static inline Diagonal dir_diagonal(Direction d)
{
	return d == DIR_DOWN_LEFT || d == DIR_UP_RIGHT ? DIAG_DOWN_LEFT : DIAG_DOWN_RIGHT;
}

/*
 * A flying king's sight by lookup. What a king sees along one diagonal
 * depends only on which of the diagonal's squares between its two ends
 * hold pieces (an end square stops it whether empty or not), at most 6
 * squares; a multiplication by a constant chosen per square and diagonal
 * gathers their occupancy into the top bits of a 64-bit product, and that
 * index selects the answer among the square's entries of bitboard_sight.
 */
enum { BITBOARD_SIGHT_ENTRIES = 832 };

typedef struct BitboardSightIndex {
	const Bitboard *answers; /* this square's, in bitboard_sight */
	uint64_t magic;          /* a multiplier that gathers mask's squares */
	Bitboard mask;           /* the squares whose occupancy decides */
	uint8_t shift;           /* 64 less the index's bits (63 when it has none) */
} BitboardSightIndex;

extern const BitboardSightIndex bitboard_sight_index[SQUARE_COUNT][DIAG_COUNT];
extern const Bitboard bitboard_sight[BITBOARD_SIGHT_ENTRIES];

/* What a flying king on s sees along g, the squares of `occupied` blocking
 * it: each way, the empty squares up to the first piece, and that piece. */
static inline Bitboard bb_sight(int s, Diagonal g, Bitboard occupied)
{
	const BitboardSightIndex *x = &bitboard_sight_index[s][g];
	return x->answers[(uint64_t)(occupied & x->mask) * x->magic >> x->shift];
}

/* The nearest set bit of `blockers` on the ray from s in d, or -1. */
static inline int bb_first_on_ray(int s, Direction d, Bitboard blockers)
{
	Bitboard hit = bitboard_rays[d][s] & blockers;
	if (!hit)
		return -1;
	return dir_is_down(d) ? bb_lowest(hit) : bb_highest(hit);
}

/* The long diagonal 4-29 and the two double diagonals 1-28 and 5-32, whose
 * holding decides the kings endings. */
#define BB_LONG_DIAGONAL        0x11224488u /* 4, 8, 11, 15, 18, 22, 25, 29 */
#define BB_DOUBLE_DIAGONAL_LOW  0x08844221u /* 1-6-10-15-19-24-28 */
#define BB_DOUBLE_DIAGONAL_HIGH 0x84422110u /* 5-9-14-18-23-27-32 */

/* The squares a flying king on s can move to without capturing, the
 * squares of `occupied` blocking it. */
static inline int bb_king_moves(int s, Bitboard occupied)
{
	return bb_count((bb_sight(s, DIAG_DOWN_LEFT, occupied) | bb_sight(s, DIAG_DOWN_RIGHT, occupied)) &
	                ~occupied);
}

/* The squares a short king (one step each way, English and Italian) on s
 * can move to without capturing. */
static inline int bb_king_steps(int s, Bitboard occupied)
{
	Bitboard sq = bb_square(s);
	return bb_count(
	    (bb_step_down_left(sq) | bb_step_down_right(sq) | bb_step_up_left(sq) | bb_step_up_right(sq)) &
	    ~occupied);
}

#endif
