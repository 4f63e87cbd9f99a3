/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule sets poolshark plays: one constant description per variant. */
#ifndef POOLSHARK_VARIANT_H
#define POOLSHARK_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The 8x8 family: pool checkers, Russian, Brazilian, English (checkers),
 * Italian, Spanish and Czech draughts share the board of 32 squares, the
 * twelve men a side, the Turkish strike and captures that must be taken
 * and completed (doc/VARIANTS.md). They differ only in what the fields of
 * VariantRules say. Italian and Spanish draughts are played on a board
 * whose colours are mirrored; a mirror maps their game onto pool's board
 * move for move, so every rule set is played on pool's board and only the
 * names of the squares (BoardNumbering) differ.
 */
typedef enum Variant {
	VARIANT_POOL,
	VARIANT_RUSSIAN,
	VARIANT_BRAZILIAN,
	VARIANT_ENGLISH,
	VARIANT_ITALIAN,
	VARIANT_SPANISH,
	VARIANT_CZECH,
	VARIANT_COUNT
} Variant;

/*
 * The counted draws of a rule set (doc/VARIANTS.md, "Draws"), read by
 * game.c: plies where both sides' moves count, moves where only the side
 * playing for a win counts; 0 where the rule set has no such rule.
 * Threefold repetition ends a game under every rule set. Pool's 25-move
 * rule and thirteen-move count are its fast path's (game.h's GAME_
 * limits), so its fields are all 0.
 */
typedef struct DrawLimits {
	int king_move_plies;         /* no man moved, nothing taken: the game is drawn */
	int lone_king_few;           /* one or two pieces with a king against a lone king */
	int lone_king_three;         /* three pieces with a king against a lone king */
	int lone_king_long_diagonal; /* the same, the lone king holding the long diagonal */
	int lone_king_kings;         /* three or more kings against a lone king */
	int balance_4_5_plies;       /* kings on both sides, 4 or 5 pieces, nothing taken or crowned */
	int balance_6_7_plies;       /* the same with 6 or 7 pieces */
} DrawLimits;

/* How the players of a variant write squares. */
typedef enum SquareNotation {
	NOTATION_NUMERIC,  /* 1-32, `11-15`, `11x18` */
	NOTATION_ALGEBRAIC /* a1-h8, `c3-d4`, `c3:e5` */
} SquareNotation;

/* Which capture the player must choose when several exist. */
typedef enum CapturePriority {
	CAPTURE_FREE,         /* any (pool, Russian, English) */
	CAPTURE_MOST_PIECES,  /* one that takes the most pieces (Brazilian) */
	CAPTURE_PIECES_KINGS, /* the most pieces, then the most kings (Spanish) */
	CAPTURE_ITALIAN,      /* the most pieces, then by a king, then the most
	                         kings, then the one that meets a king first */
	CAPTURE_KING_FIRST    /* one by a king when a king can capture (Czech) */
} CapturePriority;

/* How the 32 squares of pool's board are numbered for people and PDN. */
typedef enum BoardNumbering {
	NUMBERING_POOL,    /* square 1 is b8, Black's men on 1-12, a1 dark */
	NUMBERING_MIRROR,  /* the colours mirrored (a1 light): square 1 is a8,
	                      Black's men on 1-12 (Italian) */
	NUMBERING_REVERSED /* mirrored and counted from White's side: square 1
	                      is h1, White's men on 1-12 (Spanish) */
} BoardNumbering;

typedef struct VariantRules {
	Variant id;
	const char *name;       /* as `--variant` and the `variant` option spell it */
	const char *title;      /* for people */
	const char *rule;       /* the rule text this description implements */
	bool white_first;       /* Russian 1.4, Brazilian rules: White; pool (RULES.md 1): Black */
	bool crown_mid_capture; /* a man reaching the far row during a capture goes on as a king */
	bool kings_fly;         /* kings move and capture along whole diagonals, else one square */
	bool men_capture_back;  /* men capture backward as well as forward */
	bool men_take_kings;    /* men may capture kings */
	CapturePriority priority;
	DrawLimits draws;
	SquareNotation notation;  /* the form written for people; both forms are read */
	BoardNumbering numbering; /* which square is which number (and letter) */
	int pdn_game_type;        /* PDN GameType: 21-26, 29 */
} VariantRules;

/*
 * True for the rule set whose generator and draw counters are compiled in
 * as the fast path (pool). The one test of a variant's id that the hot
 * entries (generation, counting, the draw counters) make: every other rule
 * set takes the path that its VariantRules fields drive.
 */
static inline bool variant_fast_path(Variant v)
{
	return v == VARIANT_POOL;
}

/* The description of v (v < VARIANT_COUNT). */
const VariantRules *variant_rules(Variant v);

/* The variant called `name` ("pool", "russian", "english", ...): false
 * when there is none. */
bool variant_parse(const char *name, Variant *out);

/* The variant whose PDN GameType is `game_type`: false when none is. */
bool variant_from_game_type(int game_type, Variant *out);

/* The bit index (0-31) of square `number` (1-32) as `numbering` counts
 * the squares, and back: the number of bit index `square`. */
int variant_square_of_number(BoardNumbering numbering, int number);
int variant_number_of_square(BoardNumbering numbering, int square);

/* True when the numbering's board is pool's board mirrored (its a1 light):
 * a square's file letter is then mirrored too (a <-> h). */
static inline bool variant_board_mirrored(BoardNumbering numbering)
{
	return numbering != NUMBERING_POOL;
}

/* The priority in a few words, for people ("free choice of capture"). */
const char *variant_priority_text(CapturePriority priority);

/* Every name, space-separated, in Variant order, for messages and the
 * options table. */
#define VARIANT_NAMES "pool russian brazilian english italian spanish czech"

/* The same for usage lines. */
#define VARIANT_CHOICES "pool|russian|brazilian|english|italian|spanish|czech"

#endif
