/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Game record: history, draw counters and the result (RULES.md section 3). */
#include "poolshark/game.h"

#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/random.h"

void game_counters_start(const Position *p, DrawCounters *out)
{
	if (!variant_fast_path(p->variant)) {
		/* A position met with no history: as if the material had just
		 * appeared. */
		DrawCounters none = {0, -1, -1, 0, -1};
		game_variant_counters_after(p, move_none(), p, &none, out);
		out->reversible_plies = 0;
		out->balance_plies = 0;
		return;
	}
	out->reversible_plies = 0;
	out->thirteen = game_thirteen_stronger_side(p) >= 0 ? 0 : -1;
	out->endgame = -1;
	out->balance_plies = 0;
}

/* a1-h8, the long diagonal ("большак") of Russian rule 7.2.7. */
#define LONG_DIAGONAL 0x11224488u

/*
 * The side that plays for a win against one lone king, and its counts
 * (*p's DrawLimits: Russian FMJD-64 7.2.4, 7.2.7, 7.2.8; Brazilian the
 * international rules' counts), in moves of that side: *limit since the
 * material arose, *road since the lone king came to the long diagonal
 * (7.2.7: three pieces with a king against a king on the main road), each
 * -1 where it does not apply. Returns -1 when neither applies.
 *
 * 7.2.7 is read as counting from the move that put the lone king on the
 * main road: a king that reaches it late, even onto a square where it is
 * taken, is not a draw at once; and while it stands there 7.2.4's count
 * from the material runs on too, whichever ends first.
 */
static int lone_king_count(const Position *p, int *limit, int *road)
{
	const DrawLimits *d = &variant_rules(p->variant)->draws;
	for (int strong = 0; strong < 2; strong++) {
		Bitboard weak = p->pieces[color_other((Color)strong)];
		Bitboard mine = p->pieces[strong], kings = mine & p->kings;
		if (bb_count(weak) != 1 || !(weak & p->kings) || !kings)
			continue;
		int n = bb_count(mine);
		if (n <= 2)
			*limit = d->lone_king_few;
		else if (n == 3 && d->lone_king_three)
			*limit = d->lone_king_three;
		else
			*limit = kings == mine && d->lone_king_kings ? d->lone_king_kings : -1;
		*road = n == 3 && d->lone_king_long_diagonal && (weak & LONG_DIAGONAL)
		            ? d->lone_king_long_diagonal
		            : -1;
		if (*limit <= 0)
			*limit = -1;
		return *limit > 0 || *road > 0 ? strong : -1;
	}
	return -1;
}

/* True when *a and *b hold as many men and kings of each colour. */
static bool same_material(const Position *a, const Position *b)
{
	for (int c = 0; c < 2; c++)
		if (bb_count(a->pieces[c] & a->kings) != bb_count(b->pieces[c] & b->kings) ||
		    bb_count(a->pieces[c]) != bb_count(b->pieces[c]))
			return false;
	return true;
}

void game_variant_counters_after(const Position *before, Move m, const Position *after,
                                 const DrawCounters *prev, DrawCounters *out)
{
	bool man_moved = !move_is_none(m) && !(before->kings & bb_square(m.from));
	bool crowned = man_moved && (after->kings & bb_square(m.to));
	out->reversible_plies = (man_moved || m.captured) ? 0 : prev->reversible_plies + 1;
	out->balance_plies = (m.captured || crowned) ? 0 : prev->balance_plies + 1;

	int limit, road, strong = lone_king_count(after, &limit, &road);
	int step = before->side == (Color)strong ? 1 : 0;
	bool fresh = prev->endgame < 0 || !same_material(before, after); /* the material has just appeared */
	out->endgame = strong < 0 ? -1 : fresh ? 0 : prev->endgame + step;
	out->road = strong < 0 || road < 0 ? -1 : fresh || prev->road < 0 ? 0 : prev->road + step;
	out->thirteen = game_variant_draw(after, out) != END_NONE ? GAME_THIRTEEN_LIMIT : -1;
}

GameEndReason game_variant_draw(const Position *p, const DrawCounters *c)
{
	const DrawLimits *d = &variant_rules(p->variant)->draws;
	if (d->king_move_plies && c->reversible_plies >= d->king_move_plies)
		return END_KING_MOVES;
	int limit, road;
	if (lone_king_count(p, &limit, &road) >= 0 &&
	    ((limit > 0 && c->endgame >= limit) || (road > 0 && c->road >= road)))
		return END_ENDGAME_COUNT;
	if ((p->kings & p->pieces[BLACK]) && (p->kings & p->pieces[WHITE])) {
		int n = bb_count(position_occupied(p));
		if ((n == 4 || n == 5) && d->balance_4_5_plies && c->balance_plies >= d->balance_4_5_plies)
			return END_BALANCE;
		if ((n == 6 || n == 7) && d->balance_6_7_plies && c->balance_plies >= d->balance_6_7_plies)
			return END_BALANCE;
	}
	return END_NONE;
}

/* The counts draw at the first position where one reaches its limit; the
 * winning move itself comes after `plies - 1` plies, and the side left
 * without a move loses before any draw is looked at (game_status()). */
bool game_variant_win_fits(const Position *p, const DrawCounters *c, int plies)
{
	const DrawLimits *d = &variant_rules(p->variant)->draws;
	if (d->king_move_plies && c->reversible_plies + plies - 1 >= d->king_move_plies)
		return false;
	/* The stronger side moves at every other ply: at most (plies + 1) / 2. */
	int limit, road, moves = (plies + 1) / 2 - 1;
	if (lone_king_count(p, &limit, &road) >= 0 &&
	    ((limit > 0 && c->endgame >= 0 && c->endgame + moves >= limit) ||
	     (road > 0 && c->road >= 0 && c->road + moves >= road)))
		return false;
	if ((p->kings & p->pieces[BLACK]) && (p->kings & p->pieces[WHITE])) {
		int n = bb_count(position_occupied(p));
		int balance = n == 4 || n == 5   ? d->balance_4_5_plies
		              : n == 6 || n == 7 ? d->balance_6_7_plies
		                                 : 0;
		if (balance && c->balance_plies + plies - 1 >= balance)
			return false;
	}
	return true;
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
	} else if ((status.reason = game_counters_draw(p, c)) != END_NONE) {
		status.result = RESULT_DRAW;
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
	case END_KING_MOVES: return "no man moved, nothing taken";
	case END_ENDGAME_COUNT: return "endgame count against a lone king";
	case END_BALANCE: return "balance of pieces unchanged";
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
