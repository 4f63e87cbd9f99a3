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

/* Which draw rules end a game (doc/VARIANTS.md, "Draws"). */
typedef enum DrawRuleSet {
	DRAWS_POOL,         /* RULES.md 3: 25-move rule, thirteen-move count, threefold repetition */
	DRAWS_RUSSIAN,      /* FMJD-64 rules 7.2.3-7.2.8 */
	DRAWS_INTERNATIONAL /* Brazilian: 20 king moves, the endgame counts, threefold repetition */
} DrawRuleSet;

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
	DrawRuleSet draws;
	SquareNotation notation; /* the form written for people; both forms are read */
	int pdn_game_type;       /* PDN GameType: 23, 25, 26 */
} VariantRules;

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

#endif
