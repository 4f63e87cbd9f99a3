/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The three rule sets, each field tagged with the rule it implements. */
#include "poolshark/variant.h"

#include <string.h>

static const VariantRules rules[VARIANT_COUNT] = {
    [VARIANT_POOL] =
        {
            .id = VARIANT_POOL,
            .name = "pool",
            .title = "American pool checkers",
            .rule = "doc/RULES.md (APCA rules as settled by the project)",
            .white_first = false,         /* RULES.md 1: Black moves first */
            .crown_mid_capture = false,   /* RULES.md 2.4: crowned only where the move ends */
            .majority_capture = false,    /* RULES.md 2.9: free choice among captures */
            .draws = {0},                 /* RULES.md 3: the fast path's counts (game.h) */
            .notation = NOTATION_NUMERIC, /* PDN GameType 23 */
            .pdn_game_type = 23,
        },
    [VARIANT_RUSSIAN] =
        {
            .id = VARIANT_RUSSIAN,
            .name = "russian",
            .title = "Russian draughts",
            .rule = "rules of the game of the FMJD Section-64 and the Russian draughts federation "
                    "(doc/VARIANTS.md)",
            .white_first = true,       /* White starts */
            .crown_mid_capture = true, /* a man crossing the far row becomes a king and
                                          captures on as one */
            .majority_capture = false, /* free choice of capture */
            .draws =
                {
                    .king_move_plies = 30,        /* 7.2.5: 15 moves of kings */
                    .lone_king_few = 5,           /* 7.2.4 */
                    .lone_king_long_diagonal = 5, /* 7.2.7: three against one on the long diagonal */
                    .lone_king_kings = 15,        /* 7.2.8: three or more kings */
                    .balance_4_5_plies = 60,      /* 7.2.6: 30 moves */
                    .balance_6_7_plies = 120,     /* 7.2.6: 60 moves */
                },
            .notation = NOTATION_ALGEBRAIC, /* c3-d4, c3:e5; PDN GameType 25 */
            .pdn_game_type = 25,
        },
    [VARIANT_BRAZILIAN] =
        {
            .id = VARIANT_BRAZILIAN,
            .name = "brazilian",
            .title = "Brazilian draughts",
            .rule = "rules of the Confederação Brasileira de Damas, international rules on 8x8 "
                    "(doc/VARIANTS.md)",
            .white_first = true,        /* "O lance inicial cabe sempre às brancas" */
            .crown_mid_capture = false, /* a man passing the far row stays a man */
            .majority_capture = true,   /* Lei da Maioria: take the most pieces */
            .draws =
                {
                    .king_move_plies = 40, /* 20 moves of kings, nothing taken */
                    .lone_king_few = 5,    /* one or two pieces with a king: 5 moves */
                    .lone_king_three = 16, /* three pieces with a king: 16 moves */
                },
            .notation = NOTATION_ALGEBRAIC, /* as lidraughts writes it; PDN GameType 26 */
            .pdn_game_type = 26,
        },
};

const VariantRules *variant_rules(Variant v)
{
	return &rules[v < VARIANT_COUNT ? v : VARIANT_POOL];
}

bool variant_parse(const char *name, Variant *out)
{
	for (int v = 0; v < VARIANT_COUNT; v++)
		if (!strcmp(rules[v].name, name)) {
			*out = (Variant)v;
			return true;
		}
	return false;
}

bool variant_from_game_type(int game_type, Variant *out)
{
	for (int v = 0; v < VARIANT_COUNT; v++)
		if (rules[v].pdn_game_type == game_type) {
			*out = (Variant)v;
			return true;
		}
	return false;
}
