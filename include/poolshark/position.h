/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A pool checkers position: pieces, side to move, Zobrist key; copy-make. */
#ifndef POOLSHARK_POSITION_H
#define POOLSHARK_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/bitboard.h"
#include "poolshark/move.h"
#include "poolshark/variant.h"

typedef enum Color { BLACK = 0, WHITE = 1 } Color;

static inline Color color_other(Color c)
{
	return (Color)(c ^ 1);
}

/*
 * Positions are small values (16 bytes of board plus the key) and are never
 * changed in place by a move: position_make() writes the successor, so a
 * search keeps one per ply and "unmake" is free.
 */
typedef struct Position {
	Bitboard pieces[2]; /* by Color: men and kings of that side */
	Bitboard kings;     /* kings of both sides */
	Color side;         /* side to move */
	uint8_t variant;    /* a Variant: the rules the position is played under */
	uint64_t key;       /* Zobrist key of the pieces and the side to move */
} Position;

/* Zobrist keys: [color][is_king][square], and the side-to-move key. */
extern const uint64_t zobrist_pieces[2][2][SQUARE_COUNT];
extern const uint64_t zobrist_white_to_move;

/* The rows on which each colour's men crown (and which it may not occupy). */
static inline Bitboard position_crown_row(Color c)
{
	return c == BLACK ? BB_BOTTOM_ROW : BB_TOP_ROW;
}

static inline Bitboard position_occupied(const Position *p)
{
	return p->pieces[BLACK] | p->pieces[WHITE];
}

static inline Bitboard position_men(const Position *p, Color c)
{
	return p->pieces[c] & ~p->kings;
}

static inline Bitboard position_kings(const Position *p, Color c)
{
	return p->pieces[c] & p->kings;
}

/* The start position of pool: Black men on 1-12, White men on 21-32, Black to move. */
void position_start(Position *out);

/* The start position of variant v: the same men, and the side that moves
 * first under its rules (White but in pool and English checkers). */
void position_start_variant(Position *out, Variant v);

/* The variant of *p. */
static inline Variant position_variant(const Position *p)
{
	return (Variant)p->variant;
}

/*
 * Builds a pool position from piece sets and the side to move and computes
 * its key (set ->variant afterwards for another rule set: the key does not
 * depend on it). Does not check legality; see position_validate().
 */
void position_set(Position *out, Bitboard black, Bitboard white, Bitboard kings, Color side);

/* The key computed from scratch (the incremental one must always equal it). */
uint64_t position_compute_key(const Position *p);

typedef enum PositionProblem {
	POSITION_OK,
	POSITION_OVERLAP,    /* a square holds both colours */
	POSITION_STRAY_KING, /* a king bit on an empty square */
	POSITION_MAN_ON_CROWN_ROW,
	POSITION_TOO_MANY_PIECES, /* more than 12 pieces of one colour */
	POSITION_BAD_KEY
} PositionProblem;

/* Checks the invariants every position must keep; POSITION_OK when all hold. */
PositionProblem position_validate(const Position *p);

/* A short English description of a PositionProblem ("" for POSITION_OK). */
const char *position_problem_text(PositionProblem problem);

/* The body of the makes below; `pool` (a constant) leaves out what only
 * Russian moves need: m.crowned and the copy of the variant. */
static inline __attribute__((always_inline)) void position_make_with(const Position *p, Move m, Position *out,
                                                                     bool with_key, bool pool)
{
	Color us = p->side, them = color_other(us);
	Bitboard from = bb_square(m.from), to = bb_square(m.to);
	bool king = (p->kings & from) != 0;
	bool crowned = !king && ((to & position_crown_row(us)) || (!pool && m.crowned));
	Bitboard kings = p->kings & ~from;
	Bitboard captured = m.captured;

	if (with_key) {
		uint64_t key = p->key ^ zobrist_white_to_move;
		key ^= zobrist_pieces[us][king][m.from] ^ zobrist_pieces[us][king || crowned][m.to];
		for (Bitboard b = captured & ~p->kings; b; b &= b - 1)
			key ^= zobrist_pieces[them][0][bb_lowest(b)];
		for (Bitboard b = captured & p->kings; b; b &= b - 1)
			key ^= zobrist_pieces[them][1][bb_lowest(b)];
		out->key = key;
	}
	if (king || crowned)
		kings |= to;
	out->pieces[them] = p->pieces[them] & ~captured;
	out->pieces[us] = (p->pieces[us] & ~from) | to;
	out->kings = kings & ~captured;
	out->side = them;
	if (!pool)
		out->variant = p->variant;
}

/*
 * The successor of *p after `m` (legal in *p, as produced by movegen) written
 * to *out; out may equal p. A man that ends its move on its crowning row is
 * crowned, and so is one whose capture crossed it (m.crowned, Russian rules).
 * The key is updated incrementally when with_key is true and left
 * stale otherwise (for perft without a table, which never reads it).
 */
static inline void position_make_keyed(const Position *p, Move m, Position *out, bool with_key)
{
	position_make_with(p, m, out, with_key, false);
}

/*
 * Pool only, for the pool loops of perft and the search: the successor
 * with or without its key, and out->variant left as it was (the loop sets
 * it once). Wrong for a move with m.crowned, which pool never has.
 */
static inline void position_make_pool(const Position *p, Move m, Position *out, bool with_key)
{
	position_make_with(p, m, out, with_key, true);
}

/* position_make_keyed() with the key kept up to date: what search, game
 * records and everything but plain perft use. */
static inline void position_make(const Position *p, Move m, Position *out)
{
	position_make_keyed(p, m, out, true);
}

/* True when both positions hold the same pieces and side to move. */
static inline bool position_equal(const Position *a, const Position *b)
{
	return a->pieces[0] == b->pieces[0] && a->pieces[1] == b->pieces[1] && a->kings == b->kings &&
	       a->side == b->side && a->variant == b->variant;
}

#endif
