/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test positions: pool tactics, each with one move that wins material by force. */
#ifndef POOLSHARK_TESTS_TACTICS_H
#define POOLSHARK_TESTS_TACTICS_H

/*
 * A position whose key move wins material by force, and no other move
 * keeps the balance, within `depth` plies of a material-only minimax (man
 * 1, king 2; test_search.c checks the claim). `gain` is what the key move
 * wins over the present balance, `others` the best any other move
 * achieves. The positions come from engine games from random openings
 * (the "shots" of pool checkers: give one or two, take more).
 */
typedef struct Tactic {
	const char *fen;
	const char *move;
	int depth, gain, others;
} Tactic;

extern const Tactic support_tactics[];
extern const int support_tactic_count;

#endif
