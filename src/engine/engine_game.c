/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's game: set from a sent game (engine_set_position()) or a record, played on, taken back. */
#include "poolshark/engine.h"

#include <stdlib.h>

#include "poolshark/movegen.h"
#include "engine_internal.h"

EngineStatus engine_set_game(Engine *e, const Game *g)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	if (game_position(g)->variant != e->options.variant)
		return ENGINE_WRONG_VARIANT;
	game_copy(e->game, g);
	return ENGINE_OK;
}

/* The generator's copy of `m` in *p (it carries what the move's identity
 * leaves out: a Russian crowning during the capture); false when m is not
 * legal there. */
static bool legal_copy(const Position *p, Move m, Move *out)
{
	MoveList list;
	int n = movegen_generate(p, &list);
	for (int i = 0; i < n; i++)
		if (move_equal(list.moves[i], m)) {
			*out = list.moves[i];
			return true;
		}
	return false;
}

EngineStatus engine_set_position(Engine *e, const Position *start, const Move *moves, int count,
                                 int *bad_index, EngineDrawn *drawn)
{
	EngineDrawn none = {{RESULT_NONE, END_NONE}, 0};
	EngineDrawn *d = drawn ? drawn : &none;
	*d = none;
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	if (start->variant != e->options.variant)
		return ENGINE_WRONG_VARIANT;
	Game *g = malloc(sizeof *g);
	if (!g)
		return ENGINE_NO_MEMORY;
	game_init(g, start);
	EngineStatus status = ENGINE_OK;
	for (int i = 0; i <= count && status == ENGINE_OK; i++) {
		GameStatus now = game_status(g);
		if (now.result == RESULT_DRAW) {
			/* Drawn by a rule, and the GUI goes on (or asks for a
			 * move): from here with fresh counters. */
			if (d->status.result == RESULT_NONE) {
				d->status = now;
				d->after_moves = i;
			}
			Position here = *game_position(g);
			game_init(g, &here);
		}
		Move m;
		if (i == count)
			break;
		if (!legal_copy(game_position(g), moves[i], &m))
			status = ENGINE_ILLEGAL_MOVE;
		else if (!game_play(g, m))
			status = ENGINE_RECORD_FULL;
		if (status != ENGINE_OK && bad_index)
			*bad_index = i;
	}
	if (status == ENGINE_OK)
		game_copy(e->game, g);
	else
		*d = none;
	free(g);
	return status;
}

EngineStatus engine_play(Engine *e, Move m)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	if (game_status(e->game).result != RESULT_NONE)
		return ENGINE_GAME_OVER;
	/* The generator's own copy is played: it carries what the move's
	 * identity leaves out (a Russian crowning during the capture). */
	MoveList list;
	int n = movegen_generate(game_position(e->game), &list), found = -1;
	for (int i = 0; i < n && found < 0; i++)
		if (move_equal(list.moves[i], m))
			found = i;
	if (found < 0)
		return ENGINE_ILLEGAL_MOVE;
	return game_play(e->game, list.moves[found]) ? ENGINE_OK : ENGINE_RECORD_FULL;
}

EngineStatus engine_undo(Engine *e)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	return game_undo(e->game) ? ENGINE_OK : ENGINE_NOTHING_TO_UNDO;
}
