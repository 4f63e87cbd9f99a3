/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Material edges: which engine first went a piece up in each game, when, and what came of it. */
#ifndef POOL_MATCH_EDGES_H
#define POOL_MATCH_EDGES_H

#include <stdbool.h>

#include "poolshark/game.h"

enum {
	/* An edge is a piece more held this many plies in a row: the middle
	 * of an exchange is not one. */
	EDGE_PLIES = 6,
	/* The board's pieces when the edge came: 13 to 24, 7 to 12, 2 to 6. */
	EDGE_PHASES = 3
};

/* Per engine (0, 1) and phase: the games in which that engine took the
 * first edge, and how those games ended for it. */
typedef struct EdgeTally {
	int won[2][EDGE_PHASES], drawn[2][EDGE_PHASES], lost[2][EDGE_PHASES];
	int none; /* games in which neither side ever held an edge */
} EdgeTally;

/*
 * Adds one game: its plies (g->positions), its result, and whether engine 0
 * played Black in it. The first edge is the first ply from which one side
 * has had more pieces (men and kings alike) than the other for EDGE_PLIES
 * plies in a row, or to the end of a shorter game.
 */
void edges_add_game(EdgeTally *t, const Game *g, GameResult result, bool engine0_black);

/* Prints the tally as a table (nothing when no game was added). */
void edges_print(const EdgeTally *t, const char *name0, const char *name1);

#endif
