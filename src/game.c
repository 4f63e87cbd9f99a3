/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Game record: history, draw counters and the result (RULES.md section 3). */
#include "poolshark/game.h"

#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/random.h"

void game_counters_start(const Position *p, DrawCounters *out)
{
	out->reversible_plies = 0;
	out->thirteen = game_thirteen_stronger_side(p) >= 0 ? 0 : -1;
}

void game_init(Game *g, const Position *start)
{
	g->ply_count = 0;
	g->positions[0] = *start;
	game_counters_start(start, &g->counters[0]);
}

void game_copy(Game *to, const Game *from)
{
	int n = from->ply_count;
	to->ply_count = n;
	memcpy(to->positions, from->positions, (size_t)(n + 1) * sizeof from->positions[0]);
	memcpy(to->counters, from->counters, (size_t)(n + 1) * sizeof from->counters[0]);
	memcpy(to->moves, from->moves, (size_t)n * sizeof from->moves[0]);
}

bool game_play(Game *g, Move m)
{
	if (g->ply_count >= GAME_MAX_PLIES || game_status(g).result != RESULT_NONE)
		return false;
	int n = g->ply_count;
	position_make(&g->positions[n], m, &g->positions[n + 1]);
	game_counters_after(&g->positions[n], m, &g->positions[n + 1], &g->counters[n], &g->counters[n + 1]);
	g->moves[n] = m;
	g->ply_count = n + 1;
	return true;
}

bool game_undo(Game *g)
{
	if (g->ply_count == 0)
		return false;
	g->ply_count--;
	return true;
}

int game_repetitions(const Game *g)
{
	const Position *now = game_position(g);
	int seen = 1;
	/* Only positions since the last man move or capture can repeat it. */
	int back = game_counters(g)->reversible_plies;
	for (int i = 2; i <= back && i <= g->ply_count; i += 2)
		if (position_equal(&g->positions[g->ply_count - i], now))
			seen++;
	return seen;
}

GameStatus game_status(const Game *g)
{
	const Position *p = game_position(g);
	const DrawCounters *c = game_counters(g);
	GameStatus status = {RESULT_NONE, END_NONE};

	if (!movegen_has_moves(p)) {
		status.result = p->side == BLACK ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
		status.reason = END_NO_MOVES;
	} else if (c->reversible_plies >= GAME_REVERSIBLE_LIMIT) {
		status.result = RESULT_DRAW;
		status.reason = END_25_MOVE_RULE;
	} else if (c->thirteen >= GAME_THIRTEEN_LIMIT) {
		status.result = RESULT_DRAW;
		status.reason = END_THIRTEEN_MOVES;
	} else if (game_repetitions(g) >= 3) {
		status.result = RESULT_DRAW;
		status.reason = END_REPETITION;
	}
	return status;
}

bool game_random_level_start(Game *g, const Position *start, int plies, uint64_t *rng)
{
	game_init(g, start);
	for (int i = 0; i < plies; i++) {
		MoveList list;
		int n = movegen_generate(game_position(g), &list);
		if (n == 0)
			return false;
		game_play(g, list.moves[random_below(rng, (uint64_t)n)]);
	}
	const Position *p = game_position(g);
	return game_status(g).result == RESULT_NONE &&
	       bb_count(p->pieces[BLACK]) == bb_count(p->pieces[WHITE]) && !movegen_has_capture(p);
}

const char *game_reason_text(GameEndReason reason)
{
	switch (reason) {
	case END_NONE: return "";
	case END_NO_MOVES: return "no legal move";
	case END_25_MOVE_RULE: return "25-move rule";
	case END_THIRTEEN_MOVES: return "thirteen-move count";
	case END_REPETITION: return "threefold repetition";
	}
	return "";
}

const char *game_result_text(GameResult result)
{
	switch (result) {
	case RESULT_BLACK_WINS: return "0-1";
	case RESULT_WHITE_WINS: return "1-0";
	case RESULT_DRAW: return "1/2-1/2";
	case RESULT_NONE: return "*";
	}
	return "*";
}
