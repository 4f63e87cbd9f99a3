/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Material edges: which engine first went a piece up in each game, when, and what came of it. */
#include "edges.h"

#include <stdio.h>

#include "poolshark/bitboard.h"

/* Black's pieces less White's at ply `ply`. */
static int balance_at(const Game *g, int ply)
{
	const Position *p = &g->positions[ply];
	return bb_count(p->pieces[BLACK]) - bb_count(p->pieces[WHITE]);
}

static int phase_of(int pieces)
{
	return pieces >= 13 ? 0 : pieces >= 7 ? 1 : 2;
}

void edges_add_game(EdgeTally *t, const Game *g, GameResult result, bool engine0_black)
{
	for (int ply = 0; ply <= g->ply_count; ply++) {
		int balance = balance_at(g, ply);
		if (balance == 0)
			continue;
		int held = ply;
		while (held < g->ply_count && held - ply + 1 < EDGE_PLIES &&
		       balance_at(g, held + 1) == balance)
			held++;
		if (held - ply + 1 < EDGE_PLIES && held < g->ply_count) {
			ply = held; /* given back within the window: the next change starts afresh */
			continue;
		}
		Color ahead = balance > 0 ? BLACK : WHITE;
		int engine = (ahead == BLACK) == engine0_black ? 0 : 1;
		int phase = phase_of(bb_count(position_occupied(&g->positions[ply])));
		if (result == RESULT_DRAW)
			t->drawn[engine][phase]++;
		else if ((result == RESULT_BLACK_WINS) == (ahead == BLACK))
			t->won[engine][phase]++;
		else
			t->lost[engine][phase]++;
		return;
	}
	t->none++;
}

void edges_print(const EdgeTally *t, const char *name0, const char *name1)
{
	static const char *const phase_names[EDGE_PHASES] = {"13-24 pieces", "7-12 pieces", "2-6 pieces"};
	int games = t->none;
	for (int e = 0; e < 2; e++)
		for (int k = 0; k < EDGE_PHASES; k++)
			games += t->won[e][k] + t->drawn[e][k] + t->lost[e][k];
	if (!games)
		return;
	printf("First material edge (a piece more for %d plies), by the pieces on the board then;\n"
	       "the games of the engine that took it, and how they ended for it:\n",
	       EDGE_PLIES);
	printf("  %-20s", "");
	for (int k = 0; k < EDGE_PHASES; k++)
		printf(" %22s", phase_names[k]);
	printf("\n");
	for (int e = 0; e < 2; e++) {
		printf("  %-20.20s", e == 0 ? name0 : name1);
		for (int k = 0; k < EDGE_PHASES; k++) {
			char cell[64];
			int n = t->won[e][k] + t->drawn[e][k] + t->lost[e][k];
			snprintf(cell, sizeof cell, "%d: +%d =%d -%d", n, t->won[e][k], t->drawn[e][k],
			         t->lost[e][k]);
			printf(" %22s", cell);
		}
		printf("\n");
	}
	printf("  no edge in %d games\n", t->none);
}
