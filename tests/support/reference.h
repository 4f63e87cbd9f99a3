/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A slow, obvious move generator written from RULES.md alone: the test oracle. */
#ifndef POOLSHARK_TESTS_REFERENCE_H
#define POOLSHARK_TESTS_REFERENCE_H

#include <stdint.h>

/*
 * This generator shares no code and no table with src/: it works on an 8x8
 * array of letters with explicit row/column arithmetic, so that a mistake in
 * the bitboard tables or shifts cannot hide in both places at once.
 *
 * Squares are PDN numbers 1..32. A captured set is a 32-bit mask with bit
 * n-1 set for square n.
 */
/* The rule sets, as doc/VARIANTS.md states them (reference.c says what
 * each one changes). */
typedef enum RefRules {
	REF_POOL,      /* RULES.md */
	REF_RUSSIAN,   /* a man reaching its far row during a capture goes on as a king */
	REF_BRAZILIAN, /* only the captures that take the most pieces */
	REF_ENGLISH,   /* men capture forward only, kings step one square, free choice */
	REF_ITALIAN,   /* as English, men may not take kings, the FID's order of captures */
	REF_SPANISH,   /* men forward only, flying kings, the most pieces, then the most kings */
	REF_CZECH      /* men forward only, flying kings, a king's capture before a man's */
} RefRules;

typedef struct RefBoard {
	char squares[33]; /* [1..32]: 'b' 'B' 'w' 'W' or '.'; [0] unused */
	char side;        /* 'B' or 'W': the side to move */
	RefRules rules;
} RefBoard;

typedef struct RefMove {
	int from, to;      /* 1..32 */
	uint32_t captured; /* bit n-1 for captured square n; 0 for a quiet move */
	int path[13];      /* landing squares of one way to play it (captures) */
	int path_length;   /* number of entries of path (0 for a quiet move) */
	int crowned;       /* Russian: the man became a king on the far row during the capture */
	int kings_taken;   /* how many of the captured pieces are kings */
	uint32_t order;    /* bit 31-k set when the k-th piece taken is a king (Italian 6.9) */
} RefMove;

enum { REF_MAX_MOVES = 1024 };

/*
 * Every legal move of the side to move, each (from, to, captured) once, in
 * no particular order; returns their number (at most `capacity` are stored,
 * the count may be larger if the buffer is too small).
 */
int reference_generate(const RefBoard *b, RefMove *out, int capacity);

/* The same, but every capture that the pieces can make when one can,
 * before the rules choose among them (the most pieces, a king's first):
 * for tests that must see a choice made. */
int reference_generate_unchosen(const RefBoard *b, RefMove *out, int capacity);

/* The board after `m` (which must come from reference_generate). */
void reference_make(const RefBoard *b, const RefMove *m, RefBoard *out);

/* Leaf count `depth` plies below *b, without bulk counting or caching. */
uint64_t reference_perft(const RefBoard *b, int depth);

/* Row (0 = top, Black's back row) and column (0 = a) of square 1..32. */
int reference_row(int square);
int reference_column(int square);

/* The square at (row, column), or 0 when that is off the board or light. */
int reference_square_at(int row, int column);

#endif
