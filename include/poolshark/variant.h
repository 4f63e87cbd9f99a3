/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule sets poolshark plays: one constant description per variant. */
#ifndef POOLSHARK_VARIANT_H
#define POOLSHARK_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Pool checkers, Russian draughts and Brazilian draughts share the board,
 * the men that capture backward, the flying kings, the Turkish strike and
 * captures that must be completed (doc/VARIANTS.md). They differ only in
 * what the fields of VariantRules say. The numbering of the squares is
 * the same for all three (PDN: square 1 is b8, White's men start on 21-32).
 */
typedef enum Variant { VARIANT_POOL, VARIANT_RUSSIAN, VARIANT_BRAZILIAN, VARIANT_COUNT } Variant;

/*
 * The counted draws of a rule set (doc/VARIANTS.md, "Draws"), read by
 * game.c: plies where both sides' moves count, moves where only the side
 * playing for a win counts; 0 where the rule set has no such rule.
 * Threefold repetition ends a game under every rule set. Pool's 25-move
 * rule and thirteen-move count are its fast path's (game.h's GAME_
 * limits), so its fields are all 0.
 */
typedef struct DrawLimits {
	int king_move_plies;         /* kings only, nothing taken: the game is drawn */
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

typedef struct VariantRules {
	Variant id;
	const char *name;       /* as `--variant` and the `variant` option spell it */
	const char *title;      /* for people */
	const char *rule;       /* the rule text this description implements */
	bool white_first;       /* Russian 1.4, Brazilian rules: White; pool (RULES.md 1): Black */
	bool crown_mid_capture; /* a man reaching the far row during a capture goes on as a king */
	bool majority_capture;  /* only the captures taking the most pieces are legal */
	DrawLimits draws;
	SquareNotation notation; /* the form written for people; both forms are read */
	int pdn_game_type;       /* PDN GameType: 23, 25, 26 */
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

/* The variant called `name` ("pool", "russian", "brazilian"): false when
 * there is none. */
bool variant_parse(const char *name, Variant *out);

/* The variant whose PDN GameType is `game_type`: false when none is. */
bool variant_from_game_type(int game_type, Variant *out);

/* "pool russian brazilian": every name, space-separated, for messages and
 * the options table. */
#define VARIANT_NAMES "pool russian brazilian"

/* The same for usage lines: "pool|russian|brazilian". */
#define VARIANT_CHOICES "pool|russian|brazilian"

#endif
