/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PDN game records (GameType 23): writing and reading whole games. */
#ifndef POOLSHARK_PDN_H
#define POOLSHARK_PDN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "poolshark/game.h"

/* One tag pair, e.g. {"Event", "casual game"}. */
typedef struct PdnTag {
	const char *name;
	const char *value;
} PdnTag;

/*
 * Writes one game record: the tags given (GameType "23" and, when the game
 * did not start from the start position, FEN and SetUp are added unless
 * present), then the moves of `game` in PDN move text with move numbers,
 * then the result. comments may be NULL, or hold one string (or NULL) per
 * ply, written as `{...}` after that move. Returns false on a write error.
 */
bool pdn_write_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
		    const char *const *comments);

#endif
