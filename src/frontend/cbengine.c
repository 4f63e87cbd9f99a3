/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard front-end: the adapter's engine and getmove (commands in cbengine_command.c,
 * board and move conversion in cbengine_board.c). */
#include "cbengine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/clock.h"
#include "poolshark/notation.h"
#include "poolshark/score.h"
#include "poolshark/text.h"
#include "cbengine_internal.h"

CbEngine *cbengine_create(void)
{
	CbEngine *cb = calloc(1, sizeof *cb);
	if (!cb)
		return NULL;
	EngineOptions options;
	engine_default_options(&options);
	cb->engine = engine_create(&options);
	if (!cb->engine || pthread_mutex_init(&cb->lock, NULL) != 0) {
		engine_destroy(cb->engine);
		free(cb);
		return NULL;
	}
	return cb;
}

void cbengine_destroy(CbEngine *cb)
{
	if (!cb)
		return;
	engine_destroy(cb->engine);
	pthread_mutex_destroy(&cb->lock);
	free(cb);
}

/* Copies a finished line into the status buffer so that a reader never
 * sees it without a terminator (status[STATUS_MAX - 1] stays NUL). */
static void publish_status(char *status, const char *line)
{
	size_t n = strlen(line);
	if (n > STATUS_MAX - 2)
		n = STATUS_MAX - 2;
	memcpy(status, line, n);
	status[n] = '\0';
}

/*
 * The search as CheckerBoard shows it. Its status bar is some 70
 * characters wide in the default window (472 pixels), so what matters
 * comes first: the best move, the score, the depth, then time and nodes,
 * and the principal variation, which may be cut, last.
 */
static void on_info(const SearchInfo *info, void *user)
{
	CbEngine *cb = user;
	char line[STATUS_MAX], score[32], best[NOTATION_MOVE_MAX] = "?";
	size_t used = 0;
	score_write_brief(info->score, score, sizeof score);
	if (info->pv_length > 0)
		notation_write_move(&cb->root, info->pv[0], best, sizeof best);
	line[0] = '\0';
	text_append(line, sizeof line, &used, "poolshark: %s %s depth %d, %.1f s, %llu nodes, pv", best,
	            score, info->depth, info->time_ms / 1000.0, (unsigned long long)info->nodes);
	Position p = cb->root;
	for (int i = 0; i < info->pv_length && !text_truncated(sizeof line, used); i++) {
		char move[NOTATION_MOVE_MAX];
		notation_write_move(&p, info->pv[i], move, sizeof move);
		text_append(line, sizeof line, &used, " %s", move);
		position_make(&p, info->pv[i], &p);
	}
	publish_status(cb->status, line);
}

static void on_done(const Position *root, const SearchResult *result, void *user)
{
	(void)root;
	CbEngine *cb = user;
	cb->result = *result;
}

/* The search limits of CheckerBoard's time arguments (doc/CHECKERBOARD.md, getmove). */
static void read_limits(double maxtime, unsigned info, unsigned moreinfo, SearchLimits *out)
{
	memset(out, 0, sizeof *out);
	static const int64_t unit_ms[4] = {0, 1, 10, 100}; /* off, 0.001 s, 0.01 s, 0.1 s */
	unsigned mode = (info >> CB_INCR_TIME_SHIFT) & 3;
	if (mode != 0) {
		int64_t left = (int64_t)(moreinfo >> 16) * unit_ms[mode];
		out->time_left_ms = left > 0 ? left : 1; /* 0 would mean "no clock" */
		out->increment_ms = (int64_t)(moreinfo & 0xffff) * unit_ms[mode];
		return;
	}
	/* Fixed time a move, whether CB_EXACT_TIME is set or maxtime is an average. */
	double ms = maxtime * 1000.0;
	if (!(ms >= 1.0)) /* also NaN */
		ms = 1.0;
	if (ms > 86400000.0)
		ms = 86400000.0;
	out->move_time_ms = (int64_t)ms;
}

static int result_for(GameResult result, Color side)
{
	switch (result) {
	case RESULT_DRAW: return CB_DRAW;
	case RESULT_BLACK_WINS: return side == BLACK ? CB_WIN : CB_LOSS;
	case RESULT_WHITE_WINS: return side == WHITE ? CB_WIN : CB_LOSS;
	case RESULT_NONE: break;
	}
	return CB_UNKNOWN;
}

/*
 * Sets the engine's game to the board *pos, with the history of the last
 * "set gamehist" when that history ends in this board (consumed here).
 * A history that a draw rule ends on the way is taken whole, as every
 * front-end takes a game (engine_set_position()); *drawn says so.
 */
static EngineStatus load_game(CbEngine *cb, const Position *pos, EngineDrawn *drawn)
{
	bool use_history = cb->have_history && position_equal(&cb->history_end, pos);
	cb->have_history = false;
	if (use_history)
		return engine_set_position(cb->engine, &cb->history_start, cb->history, cb->history_count,
		                           NULL, drawn);
	return engine_set_position(cb->engine, pos, NULL, 0, NULL, drawn);
}

static void sleep_ms(int ms)
{
	struct timespec t = {0, (long)ms * 1000000L};
	nanosleep(&t, NULL);
}

/* getmove's code while it searches: none of CheckerBoard's. */
enum { SEARCHING = -1 };

/*
 * Under the lock: sets the engine's game to *pos (and its history) and
 * starts the search. Returns SEARCHING, or CheckerBoard's code with the
 * reason in line when there is nothing to search; *over is the game's
 * status before the move (a draw by the history still gets a move).
 */
static int start_search(CbEngine *cb, Position *pos, double maxtime, char *status, unsigned info,
                        unsigned moreinfo, int64_t asked_ms, GameStatus *over, char *line, size_t size)
{
	Color us = pos->side;
	pos->variant = (uint8_t)engine_variant(cb->engine); /* the board under the selected rules */
	/* A new game: clear the table (the game itself is set just below). */
	EngineStatus ready = (info & CB_RESET_MOVES) ? engine_new_game(cb->engine, pos) : ENGINE_OK;
	EngineDrawn drawn;
	if (ready == ENGINE_OK)
		ready = load_game(cb, pos, &drawn);
	if (ready != ENGINE_OK) {
		snprintf(line, size, "poolshark: %s", engine_status_text(ready));
		return CB_UNKNOWN;
	}
	/* Drawn already by the history (25-move rule, repetition): the engine
	 * plays on from the board, so that CheckerBoard, which ends an engine
	 * match on a CB_DRAW after the move, has a move to play. */
	*over = drawn.status.result == RESULT_DRAW ? drawn.status : game_status(engine_game(cb->engine));
	if (over->result != RESULT_DRAW && over->result != RESULT_NONE) {
		snprintf(line, size, "poolshark: game over (%s)", game_reason_text(over->reason));
		return result_for(over->result, us);
	}
	if (pos->pieces[color_other(us)] == 0) {
		snprintf(line, size, "poolshark: game over, the opponent has no pieces left");
		return CB_WIN;
	}
	SearchLimits limits;
	read_limits(maxtime, info, moreinfo, &limits);
	limits.clock_start_ms = asked_ms; /* CheckerBoard's clock runs from the call */
	cb->status = status;
	cb->root = *pos;
	cb->result.best = move_none();
	EngineStatus started = engine_start(cb->engine, &limits, on_info, on_done, cb);
	if (started != ENGINE_OK) {
		snprintf(line, size, "poolshark: no search (%s)", engine_status_text(started));
		return CB_UNKNOWN;
	}
	return SEARCHING;
}

/*
 * Under the lock, after the search: plays its move on the engine's game and
 * on CheckerBoard's board and move, and says it in line. Returns
 * CheckerBoard's code for the game after the move.
 */
static int play_result(CbEngine *cb, const Position *pos, GameStatus over, int board[8][8], CbMove *move,
                       char *line, size_t size)
{
	SearchResult r = cb->result;
	if (move_is_none(r.best)) {
		snprintf(line, size, "poolshark: no legal move");
		return CB_LOSS;
	}
	cbengine_fill_move(pos, r.best, move);
	Position after;
	position_make(pos, r.best, &after);
	cbengine_write_board(&after, board);
	engine_play(cb->engine, r.best);
	GameStatus end = over.result == RESULT_DRAW ? over : game_status(engine_game(cb->engine));
	/* As on_info(): the move, score and depth first, and an ended game
	 * said before the node count, within the default window's width. */
	char text[NOTATION_MOVE_MAX], score[48];
	notation_write_move(pos, r.best, text, sizeof text);
	score_write_brief(r.score, score, sizeof score);
	snprintf(line, size, "poolshark plays %s %s depth %d%s%s, %llu nodes", text, score, r.depth,
	         end.result != RESULT_NONE ? ", game over: " : "", game_reason_text(end.reason),
	         (unsigned long long)r.nodes);
	return result_for(end.result, pos->side);
}

int cbengine_getmove(CbEngine *cb, int board[8][8], int color, double maxtime, char *status,
                     volatile int *playnow, unsigned info, unsigned moreinfo, CbMove *move)
{
	int64_t asked_ms = clock_now_ms();
	char line[STATUS_MAX], error[NOTATION_ERROR_MAX];
	status[STATUS_MAX - 1] = '\0';
	status[0] = '\0';
	Position pos;
	GameStatus over = {0};
	int code;
	if (*engine_kernel_error(cb->engine)) {
		/* As the command line refuses to start: no search with another kernel than asked. */
		snprintf(line, sizeof line, "poolshark: %s", engine_kernel_error(cb->engine));
		code = CB_UNKNOWN;
	} else if (!cbengine_read_board((const int(*)[8])board, color, &pos, error, sizeof error)) {
		snprintf(line, sizeof line, "poolshark: %s", error);
		code = CB_UNKNOWN;
	} else {
		pthread_mutex_lock(&cb->lock);
		code = start_search(cb, &pos, maxtime, status, info, moreinfo, asked_ms, &over, line,
		                    sizeof line);
		pthread_mutex_unlock(&cb->lock);
	}
	if (code == SEARCHING) {
		while (engine_is_searching(cb->engine)) {
			if (playnow && *playnow) {
				engine_stop(cb->engine); /* then join at once, no more sleeping */
				break;
			}
			sleep_ms(POLL_MS);
		}
		engine_wait(cb->engine);
		pthread_mutex_lock(&cb->lock);
		code = play_result(cb, &pos, over, board, move, line, sizeof line);
		pthread_mutex_unlock(&cb->lock);
	}
	publish_status(status, line);
	return code;
}
