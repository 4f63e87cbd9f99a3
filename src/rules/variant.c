/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule sets of the 8x8 family, each field tagged with the rule it implements. */
#include "poolshark/variant.h"

#include <string.h>

#include "poolshark/bitboard.h"

static const VariantRules rules[VARIANT_COUNT] = {
    [VARIANT_POOL] =
        {
            .id = VARIANT_POOL,
            .name = "pool",
            .title = "American pool checkers",
            .rule = "doc/RULES.md (APCA rules as settled by the project)",
            .white_first = false,       /* RULES.md 1: Black moves first */
            .crown_mid_capture = false, /* RULES.md 2.4: crowned only where the move ends */
            .kings_fly = true,          /* RULES.md 2.2 */
            .men_capture_back = true,   /* RULES.md 2.3 */
            .men_take_kings = true,
            .priority = CAPTURE_FREE,     /* RULES.md 2.9: free choice among captures */
            .draws = {0},                 /* RULES.md 3: the fast path's counts (game.h) */
            .notation = NOTATION_NUMERIC, /* PDN GameType 23 */
            .numbering = NUMBERING_POOL,
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
            .kings_fly = true,
            .men_capture_back = true,
            .men_take_kings = true,
            .priority = CAPTURE_FREE, /* free choice of capture */
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
            .numbering = NUMBERING_POOL,
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
            .kings_fly = true,
            .men_capture_back = true,
            .men_take_kings = true,
            .priority = CAPTURE_MOST_PIECES, /* Lei da Maioria: take the most pieces */
            .draws =
                {
                    .king_move_plies = 40, /* 20 moves of kings, nothing taken */
                    .lone_king_few = 5,    /* one or two pieces with a king: 5 moves */
                    .lone_king_three = 16, /* three pieces with a king: 16 moves */
                },
            .notation = NOTATION_ALGEBRAIC, /* as lidraughts writes it; PDN GameType 26 */
            .numbering = NUMBERING_POOL,
            .pdn_game_type = 26,
        },
    [VARIANT_ENGLISH] =
        {
            .id = VARIANT_ENGLISH,
            .name = "english",
            .title = "English checkers",
            .rule = "the WCDF/ACF laws of checkers (doc/VARIANTS.md)",
            .white_first = false,       /* Black (the dark pieces) moves first */
            .crown_mid_capture = false, /* a man crowned by a capture ends the move there */
            .kings_fly = false,         /* a king moves one square */
            .men_capture_back = false,  /* men move and capture forward only */
            .men_take_kings = true,
            .priority = CAPTURE_FREE, /* any capture, completed */
            .draws =
                {
                    /* WCDF rules: a draw when neither side has moved a
                     * man nor taken a piece in its own last 40 moves */
                    .king_move_plies = 80,
                },
            .notation = NOTATION_NUMERIC, /* 11-15, 11x18; PDN GameType 21 */
            .numbering = NUMBERING_POOL,
            .pdn_game_type = 21,
        },
    [VARIANT_ITALIAN] =
        {
            .id = VARIANT_ITALIAN,
            .name = "italian",
            .title = "Italian draughts",
            .rule = "FID Regolamento tecnico, Capo I (doc/VARIANTS.md)",
            .white_first = true,         /* 2.4: White moves first */
            .crown_mid_capture = false,  /* a man crowned by a capture ends the move there */
            .kings_fly = false,          /* 4.7: a king moves one square */
            .men_capture_back = false,   /* 5.3 a: men capture forward only */
            .men_take_kings = false,     /* 5.3 b: a man may not capture a king */
            .priority = CAPTURE_ITALIAN, /* 6.6-6.9 */
            .draws = {0},
            .notation = NOTATION_NUMERIC,  /* 2.4: 1-32 from the top left; PDN GameType 22 */
            .numbering = NUMBERING_MIRROR, /* 2.3: a dark square at each player's lower right */
            .pdn_game_type = 22,
        },
    [VARIANT_SPANISH] =
        {
            .id = VARIANT_SPANISH,
            .name = "spanish",
            .title = "Spanish draughts",
            .rule = "the Spanish federation's rules of the game (doc/VARIANTS.md)",
            .white_first = true,
            .crown_mid_capture = false, /* a man crowned by a capture ends the move there */
            .kings_fly = true,
            .men_capture_back = false,
            .men_take_kings = true,
            .priority = CAPTURE_PIECES_KINGS, /* the most pieces, then the most kings */
            .draws = {0},
            .notation = NOTATION_NUMERIC,    /* PDN GameType 24 */
            .numbering = NUMBERING_REVERSED, /* square 1 is h1, White on 1-12 */
            .pdn_game_type = 24,
        },
    [VARIANT_CZECH] =
        {
            .id = VARIANT_CZECH,
            .name = "czech",
            .title = "Czech draughts",
            .rule = "the Czech draughts federation's rules (doc/VARIANTS.md)",
            .white_first = true,
            .crown_mid_capture = false, /* a man crowned by a capture ends the move there */
            .kings_fly = true,          /* 3.9 */
            .men_capture_back = false,  /* 4.1 */
            .men_take_kings = true,
            .priority = CAPTURE_KING_FIRST, /* 4.14: a king's capture before a man's */
            .draws = {0},
            .notation = NOTATION_ALGEBRAIC, /* 2.6; PDN GameType 29 */
            .numbering = NUMBERING_POOL,
            .pdn_game_type = 29,
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

const char *variant_priority_text(CapturePriority priority)
{
	switch (priority) {
	case CAPTURE_MOST_PIECES: return "the capture taking the most pieces";
	case CAPTURE_PIECES_KINGS: return "the capture taking the most pieces, then the most kings";
	case CAPTURE_ITALIAN: return "the most pieces, then by a king, the most kings, a king first";
	case CAPTURE_KING_FIRST: return "a king's capture before a man's";
	case CAPTURE_FREE:
	default: return "free choice of capture";
	}
}

/* Bit index k's mirror image: the same row, counted from the other end. */
static int mirror(int k)
{
	return 4 * (k / 4) + 3 - k % 4;
}

int variant_square_of_number(BoardNumbering numbering, int number)
{
	switch (numbering) {
	case NUMBERING_MIRROR: return mirror(number - 1);
	case NUMBERING_REVERSED: return mirror(SQUARE_COUNT - number);
	case NUMBERING_POOL:
	default: return number - 1;
	}
}

int variant_number_of_square(BoardNumbering numbering, int square)
{
	switch (numbering) {
	case NUMBERING_MIRROR: return mirror(square) + 1;
	case NUMBERING_REVERSED: return SQUARE_COUNT - mirror(square);
	case NUMBERING_POOL:
	default: return square + 1;
	}
}
