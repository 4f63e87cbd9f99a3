/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A game: positions so far, the draw counters of RULES.md 3, and the result. */
#ifndef POOLSHARK_GAME_H
#define POOLSHARK_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/move.h"
#include "poolshark/position.h"

/*
 * Counters that decide draws and travel with each position of a game or a
 * search line. reversible_plies: plies since a man moved or a piece was
 * captured (pool's 25-move rule draws at 50). thirteen: -1, or the number
 * of moves the stronger side has made since the board first held exactly
 * three kings against one lone king (drawn after its 13th).
 *
 * Positions of the other rule sets keep their counts in the last three
 * fields (game_variant_counters_after()): endgame, the moves of the side
 * playing against a lone king since the material last changed (-1 when no
 * such count runs); balance_plies, plies since a capture or a crowning
 * (Russian rule 7.2.6); and road, the moves of that side since the lone
 * king came to stand on the long diagonal (Russian rule 7.2.7; -1 while it
 * does not stand there). Their thirteen is GAME_THIRTEEN_LIMIT when one of
 * their counted draws is due and -1 otherwise, so that the search's test
 * of pool's counters answers for every variant.
 */
typedef struct DrawCounters {
	int16_t reversible_plies;
	int16_t thirteen;
	int16_t endgame;
	int16_t balance_plies;
	int16_t road;
} DrawCounters;

enum {
	GAME_REVERSIBLE_LIMIT = 50, /* 25 moves by each player */
	GAME_THIRTEEN_LIMIT = 13,
	/* A game ends within this many plies: 24 men make at most 7 steps each
	 * and at most 24 captures happen; between two such moves at most 49
	 * reversible plies are played before the 25-move rule ends the game. */
	GAME_MAX_PLIES = (24 * 7 + 24 + 1) * GAME_REVERSIBLE_LIMIT
};

/* The counters of a position met with no history (a new game or a FEN). */
void game_counters_start(const Position *p, DrawCounters *out);

/* The side with three kings when the board holds exactly three kings
 * against one lone king and no men; -1 otherwise. */
static inline int game_thirteen_stronger_side(const Position *p)
{
	if (p->kings != position_occupied(p))
		return -1;
	int black = bb_count(p->pieces[BLACK]), white = bb_count(p->pieces[WHITE]);
	if (black == 3 && white == 1)
		return BLACK;
	if (black == 1 && white == 3)
		return WHITE;
	return -1;
}

/* game_counters_after() for positions of the rule sets other than pool. */
void game_variant_counters_after(const Position *before, Move m, const Position *after,
                                 const DrawCounters *prev, DrawCounters *out);

/* game_counters_after() of a pool position (the search's pool path). */
static inline void game_counters_after_pool(const Position *before, Move m, const Position *after,
                                            const DrawCounters *prev, DrawCounters *out)
{
	bool man_moved = !(before->kings & bb_square(m.from));
	out->reversible_plies = (man_moved || m.captured) ? 0 : prev->reversible_plies + 1;

	int stronger = game_thirteen_stronger_side(after);
	if (stronger < 0)
		out->thirteen = -1;
	else if (prev->thirteen < 0 || game_thirteen_stronger_side(before) != stronger)
		out->thirteen = 0; /* the material has just appeared */
	else
		out->thirteen = prev->thirteen + (before->side == (Color)stronger ? 1 : 0);
}

/* The counters after `m` (legal in *before) leads to *after. Inline: the
 * search calls it at every node. */
static inline void game_counters_after(const Position *before, Move m, const Position *after,
                                       const DrawCounters *prev, DrawCounters *out)
{
	if (!variant_fast_path(before->variant))
		game_variant_counters_after(before, m, after, prev, out);
	else
		game_counters_after_pool(before, m, after, prev, out);
}

/* game_win_fits() for positions of the rule sets other than pool. */
bool game_variant_win_fits(const Position *p, const DrawCounters *c, int plies);

/*
 * Whether a game end `plies` plies away (a database's distance to the win
 * or loss) comes before every counted draw of *p's rules that runs at *p
 * with counters *c: conservative in that no count is credited with a
 * reset on the way (a man's move, a capture, a crowning), and like pool's
 * test in that a count the material may start later is not charged.
 * Pool: the 25-move rule and the thirteen-move count. Russian and
 * Brazilian: the kings-only count, the count against a lone king (its
 * limit as the position stands) and Russian's balance count.
 */
static inline bool game_win_fits(const Position *p, const DrawCounters *c, int plies)
{
	if (!variant_fast_path(p->variant))
		return game_variant_win_fits(p, c, plies);
	return c->reversible_plies + plies < GAME_REVERSIBLE_LIMIT &&
	       (c->thirteen < 0 || c->thirteen + (plies + 1) / 2 <= GAME_THIRTEEN_LIMIT);
}

typedef enum GameResult { RESULT_NONE, RESULT_BLACK_WINS, RESULT_WHITE_WINS, RESULT_DRAW } GameResult;

typedef enum GameEndReason {
	END_NONE,
	END_NO_MOVES, /* the side to move cannot move and loses */
	END_25_MOVE_RULE,
	END_THIRTEEN_MOVES,
	END_REPETITION,    /* third occurrence of a position */
	END_KING_MOVES,    /* Russian 15, Brazilian 20, English 40 moves: no man moved, nothing taken */
	END_ENDGAME_COUNT, /* Russian and Brazilian counts against a lone king */
	END_BALANCE        /* Russian 7.2.6: kings on both sides, balance unchanged */
} GameEndReason;

/* The draw that the counters of a position of another rule set than pool declare
 * (END_NONE when none); repetition is not a counter. */
GameEndReason game_variant_draw(const Position *p, const DrawCounters *c);

/*
 * The draw by a counter (not by repetition) at *p with counters *c, or
 * END_NONE: pool's 25-move rule and thirteen-move count, or the variant's
 * rules. A side without a move still loses first (game_status()).
 */
static inline GameEndReason game_counters_draw(const Position *p, const DrawCounters *c)
{
	if (!variant_fast_path(p->variant))
		return game_variant_draw(p, c);
	if (c->reversible_plies >= GAME_REVERSIBLE_LIMIT)
		return END_25_MOVE_RULE;
	if (c->thirteen >= GAME_THIRTEEN_LIMIT)
		return END_THIRTEEN_MOVES;
	return END_NONE;
}

typedef struct GameStatus {
	GameResult result;
	GameEndReason reason;
} GameStatus;

/* A game record. Large (GAME_MAX_PLIES entries): allocate it, don't stack it. */
typedef struct Game {
	int ply_count; /* moves played since the start position */
	Position positions[GAME_MAX_PLIES + 1];
	DrawCounters counters[GAME_MAX_PLIES + 1];
	Move moves[GAME_MAX_PLIES];
} Game;

/* Starts a game at *start (counters as game_counters_start()). */
void game_init(Game *g, const Position *start);

/* Makes *to a copy of *from, copying only the plies played. */
void game_copy(Game *to, const Game *from);

/* The current position. */
static inline const Position *game_position(const Game *g)
{
	return &g->positions[g->ply_count];
}

static inline const DrawCounters *game_counters(const Game *g)
{
	return &g->counters[g->ply_count];
}

/* Plays `m`, which must be legal in the current position. False (and no
 * change) when the game is already over or the record is full. */
bool game_play(Game *g, Move m);

/* Takes back the last move; false when there is none. */
bool game_undo(Game *g);

/* How many times the current position (same pieces, same side to move) has
 * occurred in the game, counting the current one. */
int game_repetitions(const Game *g);

/*
 * Whether the game is over and why. A side with no legal move loses first;
 * then the draws: 25-move rule, thirteen-move count (or the variant's
 * counted draws), threefold repetition.
 */
GameStatus game_status(const Game *g);

/*
 * Starts *g at *start and plays `plies` moves chosen uniformly by the
 * generator state *rng (random.h). True when all of them could be played and
 * the result is a fair start: the game goes on, material is level and the
 * side to move has no capture pending. Callers that want such a start call
 * it again (the state has moved on) until it is true.
 */
bool game_random_level_start(Game *g, const Position *start, int plies, uint64_t *rng);

/* "no legal move", "25-move rule", ... ("" for END_NONE). */
const char *game_reason_text(GameEndReason reason);

/* The PDN Result value: "1-0" White won, "0-1" Black won, "1/2-1/2" draw,
 * "*" not over. The first number is White's, as the PDN standard has it. */
const char *game_result_text(GameResult result);

#endif
