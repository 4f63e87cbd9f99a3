/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard front-end: board and move conversion, enginecommand replies, getmove over the Engine. */
#include "poolshark/cbengine.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/clock.h"
#include "poolshark/engine.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/options.h"
#include "poolshark/score.h"
#include "poolshark/text.h"
#include "poolshark/version.h"

enum {
	/* Reversible moves kept from "set gamehist": twice what the 25-move
	 * rule allows, so a history that already ended the game still fits. */
	HISTORY_MAX = 2 * GAME_REVERSIBLE_LIMIT,
	COMMAND_MAX = 4096, /* longer commands are rejected, not parsed */
	STATUS_MAX = 256,   /* what getmove writes into CheckerBoard's status line */
	POLL_MS = 1         /* how often getmove looks at *playnow */
};

_Static_assert((int)STATUS_MAX <= (int)CB_STATUS_SIZE, "the status line fits CheckerBoard's buffer");
_Static_assert((int)MOVEPATH_MAX <= (int)CB_PATH_MAX + 1,
               "a capture's landings fit path[1..11] or are refused");

struct CbEngine {
	Engine *engine;
	Game *work; /* where a game is put together for engine_set_game() */
	/* Guards the engine's game and options and the history below between
	 * getmove and enginecommand calls from CheckerBoard's two threads. */
	pthread_mutex_t lock;
	bool have_history;
	Position history_start, history_end;
	int history_count;
	Move history[HISTORY_MAX];

	/* The running getmove: where the search thread reports. */
	char *status;
	Position root;
	SearchResult result;
};

CbCoor cbengine_square_coor(int square)
{
	int i = square - 1;
	CbCoor c;
	c.y = i / 4;
	c.x = 2 * (3 - i % 4) + (c.y % 2);
	return c;
}

int cbengine_coor_square(int x, int y)
{
	if (x < 0 || x > 7 || y < 0 || y > 7 || (x + y) % 2 != 0)
		return 0;
	return 4 * (y + 1) - x / 2;
}

static void set_error(char *error, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(char *error, size_t size, const char *format, ...)
{
	if (!error || size == 0)
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(error, size, format, args);
	va_end(args);
}

static int piece_code(const Position *p, int bit)
{
	Bitboard b = bb_square(bit);
	int colour = (p->pieces[BLACK] & b) ? CB_BLACK : (p->pieces[WHITE] & b) ? CB_WHITE : CB_FREE;
	if (colour == CB_FREE)
		return CB_FREE;
	return colour | ((p->kings & b) ? CB_KING : CB_MAN);
}

bool cbengine_read_board(const int board[8][8], int color, Position *out, char *error, size_t error_size)
{
	if (color != CB_BLACK && color != CB_WHITE) {
		set_error(error, error_size, "unknown colour %d (expected %d for black or %d for white)",
		          color, CB_BLACK, CB_WHITE);
		return false;
	}
	Bitboard pieces[2] = {0, 0}, kings = 0;
	for (int x = 0; x < 8; x++) {
		for (int y = 0; y < 8; y++) {
			int v = board[x][y];
			if (v == CB_FREE)
				continue;
			int square = cbengine_coor_square(x, y);
			if (square == 0) {
				set_error(error, error_size, "a piece (%d) on the light square x=%d y=%d", v,
				          x, y);
				return false;
			}
			int colour = v & (CB_WHITE | CB_BLACK), kind = v & (CB_MAN | CB_KING);
			if (v != (colour | kind) || colour == (CB_WHITE | CB_BLACK) || colour == 0 ||
			    kind == (CB_MAN | CB_KING) || kind == 0) {
				set_error(error, error_size, "unknown piece code %d on square %d", v, square);
				return false;
			}
			Bitboard b = bb_square(square - 1);
			pieces[colour == CB_BLACK ? BLACK : WHITE] |= b;
			if (kind == CB_KING)
				kings |= b;
		}
	}
	Position p;
	position_set(&p, pieces[BLACK], pieces[WHITE], kings, color == CB_BLACK ? BLACK : WHITE);
	PositionProblem problem = position_validate(&p);
	if (problem != POSITION_OK) {
		set_error(error, error_size, "impossible board: %s", position_problem_text(problem));
		return false;
	}
	*out = p;
	return true;
}

void cbengine_write_board(const Position *p, int board[8][8])
{
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++)
			board[x][y] = CB_FREE;
	for (int bit = 0; bit < SQUARE_COUNT; bit++) {
		CbCoor c = cbengine_square_coor(bit + 1);
		board[c.x][c.y] = piece_code(p, bit);
	}
}

/* The captured square strictly between a and b on their diagonal. */
static int captured_between(Bitboard captured, int a, int b)
{
	CbCoor from = cbengine_square_coor(a + 1), to = cbengine_square_coor(b + 1);
	int dx = to.x > from.x ? 1 : -1, dy = to.y > from.y ? 1 : -1;
	for (int x = from.x + dx, y = from.y + dy; x != to.x && y != to.y; x += dx, y += dy) {
		int square = cbengine_coor_square(x, y);
		if (square && (captured & bb_square(square - 1)))
			return square - 1;
	}
	return -1;
}

bool cbengine_fill_move(const Position *p, Move m, CbMove *out)
{
	memset(out, 0, sizeof *out);
	Color us = p->side;
	Bitboard from = bb_square(m.from);
	bool king = (p->kings & from) != 0;
	bool crowned = !king && ((bb_square(m.to) & position_crown_row(us)) || m.crowned);
	int colour = us == BLACK ? CB_BLACK : CB_WHITE;
	out->oldpiece = colour | (king ? CB_KING : CB_MAN);
	out->newpiece = colour | (king || crowned ? CB_KING : CB_MAN);
	out->from = cbengine_square_coor(m.from + 1);
	out->to = cbengine_square_coor(m.to + 1);
	out->path[0] = out->from;
	if (!m.captured) {
		out->path[1] = out->to;
		out->del[0].x = -1;
		out->del[0].y = -1;
		return true;
	}
	MovePath path;
	if (movegen_paths(p, m, &path, 1) < 1)
		return false;
	int jumps = path.length - 1;
	bool fits = jumps < CB_PATH_MAX;
	out->jumps = jumps;
	for (int i = 0; i < jumps && i < CB_PATH_MAX; i++) {
		if (i + 1 < CB_PATH_MAX)
			out->path[i + 1] = cbengine_square_coor(path.squares[i + 1] + 1);
		int taken = captured_between(m.captured, path.squares[i], path.squares[i + 1]);
		if (taken < 0)
			return false;
		out->del[i] = cbengine_square_coor(taken + 1);
		out->delpiece[i] = piece_code(p, taken);
	}
	return fits;
}

/* Appends one move in the "get movelist" form: jumps,old,new,from,to then landed,captured,piece per jump. */
static bool append_movelist_entry(const Position *p, Move m, char *out, size_t size, size_t *used)
{
	CbMove cm;
	if (!cbengine_fill_move(p, m, &cm))
		return false;
	text_append(out, size, used, "%d,%d,%d,%d,%d", cm.jumps, cm.oldpiece, cm.newpiece, m.from + 1,
	            m.to + 1);
	for (int i = 0; i < cm.jumps; i++)
		text_append(out, size, used, ",%d,%d,%d",
		            cbengine_coor_square(cm.path[i + 1].x, cm.path[i + 1].y),
		            cbengine_coor_square(cm.del[i].x, cm.del[i].y), cm.delpiece[i]);
	text_append(out, size, used, ";");
	return true;
}

bool cbengine_write_movelist(const Position *p, char *out, size_t size)
{
	if (size == 0)
		return false;
	MoveList list;
	movegen_generate(p, &list);
	movelist_sort(&list);
	if (list.count > CB_MOVELIST_MAX) {
		set_error(out, size, "error: %d legal moves, more than the %d CheckerBoard can take",
		          list.count, CB_MOVELIST_MAX);
		return false;
	}
	size_t used = 0;
	out[0] = '\0';
	text_append(out, size, &used, "movelist %d", list.count);
	if (list.count > 0)
		text_append(out, size, &used, ",");
	for (int i = 0; i < list.count; i++) {
		if (!append_movelist_entry(p, list.moves[i], out, size, &used)) {
			set_error(out, size, "error: a capture of more than %d pieces does not fit a CBmove",
			          CB_PATH_MAX - 1);
			return false;
		}
	}
	if (text_truncated(size, used)) {
		set_error(out, size, "error: the list of %d moves does not fit the %lu-byte reply",
		          list.count, (unsigned long)size);
		return false;
	}
	return true;
}

CbEngine *cbengine_create(void)
{
	CbEngine *cb = calloc(1, sizeof *cb);
	if (!cb)
		return NULL;
	EngineOptions options;
	engine_default_options(&options);
	cb->engine = engine_create(&options);
	cb->work = malloc(sizeof *cb->work);
	if (!cb->engine || !cb->work || pthread_mutex_init(&cb->lock, NULL) != 0) {
		engine_destroy(cb->engine);
		free(cb->work);
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
	free(cb->work);
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
 * "set gamehist" when that history ends in this board (consumed here). A
 * history that the rules end on the way (25-move rule, repetition) stops
 * there: the game is over.
 */
static EngineStatus load_game(CbEngine *cb, const Position *pos)
{
	Game *g = cb->work;
	bool use_history = cb->have_history && position_equal(&cb->history_end, pos);
	cb->have_history = false;
	game_init(g, use_history ? &cb->history_start : pos);
	for (int i = 0; use_history && i < cb->history_count; i++)
		if (!game_play(g, cb->history[i]))
			break;
	return engine_set_game(cb->engine, g);
}

static void sleep_ms(int ms)
{
	struct timespec t = {0, (long)ms * 1000000L};
	nanosleep(&t, NULL);
}

int cbengine_getmove(CbEngine *cb, int board[8][8], int color, double maxtime, char *status,
                     volatile int *playnow, unsigned info, unsigned moreinfo, CbMove *move)
{
	int64_t asked_ms = clock_now_ms();
	char line[STATUS_MAX], error[NOTATION_ERROR_MAX];
	status[STATUS_MAX - 1] = '\0';
	status[0] = '\0';
	Position pos;
	if (!cbengine_read_board((const int(*)[8])board, color, &pos, error, sizeof error)) {
		snprintf(line, sizeof line, "poolshark: %s", error);
		publish_status(status, line);
		return CB_UNKNOWN;
	}
	Color us = pos.side;

	pthread_mutex_lock(&cb->lock);
	pos.variant = (uint8_t)engine_variant(cb->engine); /* the board under the selected rules */
	/* A new game: clear the table (the game itself is set just below). */
	EngineStatus ready = (info & CB_RESET_MOVES) ? engine_new_game(cb->engine, &pos) : ENGINE_OK;
	if (ready == ENGINE_OK)
		ready = load_game(cb, &pos);
	if (ready != ENGINE_OK) {
		pthread_mutex_unlock(&cb->lock);
		snprintf(line, sizeof line, "poolshark: %s", engine_status_text(ready));
		publish_status(status, line);
		return CB_UNKNOWN;
	}
	GameStatus over = game_status(engine_game(cb->engine));
	if (over.result == RESULT_DRAW) {
		/* Drawn already by the history (25-move rule, repetition): a move
		 * all the same, so that CheckerBoard, which ends an engine match on
		 * a CB_DRAW after the move, has one to play. */
		game_init(cb->work, &pos);
		engine_set_game(cb->engine, cb->work);
	} else if (over.result != RESULT_NONE) {
		pthread_mutex_unlock(&cb->lock);
		snprintf(line, sizeof line, "poolshark: game over (%s)", game_reason_text(over.reason));
		publish_status(status, line);
		return result_for(over.result, us);
	}
	if (pos.pieces[color_other(us)] == 0) {
		pthread_mutex_unlock(&cb->lock);
		publish_status(status, "poolshark: game over, the opponent has no pieces left");
		return CB_WIN;
	}

	SearchLimits limits;
	read_limits(maxtime, info, moreinfo, &limits);
	limits.clock_start_ms = asked_ms; /* CheckerBoard's clock runs from the call */
	cb->status = status;
	cb->root = pos;
	cb->result.best = move_none();
	EngineStatus started = engine_start(cb->engine, &limits, on_info, on_done, cb);
	pthread_mutex_unlock(&cb->lock);
	if (started != ENGINE_OK) {
		snprintf(line, sizeof line, "poolshark: no search (%s)", engine_status_text(started));
		publish_status(status, line);
		return CB_UNKNOWN;
	}
	while (engine_is_searching(cb->engine)) {
		if (playnow && *playnow) {
			engine_stop(cb->engine); /* then join at once, no more sleeping */
			break;
		}
		sleep_ms(POLL_MS);
	}
	engine_wait(cb->engine);

	pthread_mutex_lock(&cb->lock);
	SearchResult r = cb->result;
	if (move_is_none(r.best)) {
		pthread_mutex_unlock(&cb->lock);
		publish_status(status, "poolshark: no legal move");
		return CB_LOSS;
	}
	cbengine_fill_move(&pos, r.best, move);
	Position after;
	position_make(&pos, r.best, &after);
	cbengine_write_board(&after, board);
	engine_play(cb->engine, r.best);
	GameStatus end = over.result == RESULT_DRAW ? over : game_status(engine_game(cb->engine));
	pthread_mutex_unlock(&cb->lock);

	/* As on_info(): the move, score and depth first, and an ended game
	 * said before the node count, within the default window's width. */
	char text[NOTATION_MOVE_MAX], score[48];
	notation_write_move(&pos, r.best, text, sizeof text);
	score_write_brief(r.score, score, sizeof score);
	snprintf(line, sizeof line, "poolshark plays %s %s depth %d%s%s, %llu nodes", text, score, r.depth,
	         end.result != RESULT_NONE ? ", game over: " : "", game_reason_text(end.reason),
	         (unsigned long long)r.nodes);
	publish_status(status, line);
	return result_for(end.result, us);
}

/* ---- enginecommand ---- */

static bool reply_text(char *reply, size_t size, bool ok, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Writes a reply of at most CB_SHORT_REPLY bytes (most of CheckerBoard's
 * buffers are that size) and returns ok. */
static bool reply_text(char *reply, size_t size, bool ok, const char *format, ...)
{
	if (size > CB_SHORT_REPLY)
		size = CB_SHORT_REPLY;
	va_list args;
	va_start(args, format);
	vsnprintf(reply, size, format, args);
	va_end(args);
	return ok;
}

/* Splits off the next space-separated word of *s (the text is modified). */
static char *next_word(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (!*p) {
		*s = p;
		return NULL;
	}
	char *word = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return word;
}

/* An option of the options table; "hashsize" is CheckerBoard's name for
 * "hash". CheckerBoard's "book" is a level 0-3 that its dialog reads, not
 * a file: it stays unsupported ("?"), so poolshark's book is off there. */
static const OptionDef *find_option(const char *name)
{
	if (strcmp(name, "book") == 0)
		return NULL;
	return options_find(strcmp(name, "hashsize") == 0 ? "hash" : name);
}

static bool command_movelist(CbEngine *cb, char *args, char *reply, size_t size)
{
	while (*args == ' ')
		args++;
	Position p;
	char error[NOTATION_ERROR_MAX];
	pthread_mutex_lock(&cb->lock);
	Variant variant = engine_variant(cb->engine);
	pthread_mutex_unlock(&cb->lock);
	if (!notation_parse_fen_board(args, variant, &p, error, sizeof error))
		return reply_text(reply, size, false, "error: %s", error);
	/* With no piece to move there is no move, whatever else stands on the
	 * board: CheckerBoard's probe `B:W1:B` expects "movelist 0". */
	if (p.pieces[p.side] == 0)
		return reply_text(reply, size, true, "movelist 0");
	PositionProblem problem = position_validate(&p);
	if (problem != POSITION_OK)
		return reply_text(reply, size, false, "error: %s", position_problem_text(problem));
	return cbengine_write_movelist(&p, reply, size < CB_REPLY_SIZE ? size : CB_REPLY_SIZE);
}

static bool command_get(CbEngine *cb, char *args, char *reply, size_t size)
{
	char *what = next_word(&args);
	if (!what)
		return reply_text(reply, size, false, "?");
	if (strcmp(what, "protocolversion") == 0)
		return reply_text(reply, size, true, "%d", CB_PROTOCOL_VERSION);
	if (strcmp(what, "gametype") == 0) {
		pthread_mutex_lock(&cb->lock);
		int type = variant_rules(engine_variant(cb->engine))->pdn_game_type;
		pthread_mutex_unlock(&cb->lock);
		return reply_text(reply, size, true, "%d", type);
	}
	if (strcmp(what, "movelist") == 0)
		return command_movelist(cb, args, reply, size);
	const OptionDef *option = find_option(what);
	if (!option)
		return reply_text(reply, size, false, "?");
	EngineOptions o;
	char value[OPTION_TEXT_MAX];
	pthread_mutex_lock(&cb->lock);
	engine_get_options(cb->engine, &o);
	pthread_mutex_unlock(&cb->lock);
	options_format(option, &o, value, sizeof value);
	return reply_text(reply, size, true, "%s", value);
}

/* "set gamehist <fen> [from-to ...]": the position after the last
 * irreversible move and the reversible moves since (doc/CHECKERBOARD.md). */
static bool command_gamehist(CbEngine *cb, char *args, char *reply, size_t size)
{
	char error[NOTATION_ERROR_MAX];
	Position start, p;
	Move moves[HISTORY_MAX];
	int count = 0;
	pthread_mutex_lock(&cb->lock);
	cb->have_history = false;
	Variant variant = engine_variant(cb->engine);
	pthread_mutex_unlock(&cb->lock);
	char *fen = next_word(&args);
	if (!fen)
		return reply_text(reply, size, false, "error: set gamehist needs a FEN");
	if (!notation_parse_fen(fen, variant, &start, error, sizeof error))
		return reply_text(reply, size, false, "error: %s", error);
	p = start;
	for (char *word; (word = next_word(&args));) {
		if (count == HISTORY_MAX)
			return reply_text(reply, size, false, "error: more than %d history moves",
			                  HISTORY_MAX);
		if (notation_parse_move(&p, word, &moves[count], error, sizeof error) != MOVE_PARSE_OK)
			return reply_text(reply, size, false, "error: history move %d: %s", count + 1, error);
		position_make(&p, moves[count], &p);
		count++;
	}
	pthread_mutex_lock(&cb->lock);
	cb->history_start = start;
	cb->history_end = p;
	cb->history_count = count;
	memcpy(cb->history, moves, (size_t)count * sizeof moves[0]);
	cb->have_history = true;
	pthread_mutex_unlock(&cb->lock);
	return reply_text(reply, size, true, "gamehist %d moves", count);
}

static bool command_set(CbEngine *cb, char *args, char *reply, size_t size)
{
	char *what = next_word(&args);
	if (!what)
		return reply_text(reply, size, false, "?");
	if (strcmp(what, "gamehist") == 0)
		return command_gamehist(cb, args, reply, size);
	char *value = next_word(&args);
	if (strcmp(what, "gametype") == 0) {
		/* 23 pool, 25 Russian, 26 Brazilian: the variant option follows
		 * (a change starts a new game, as `set variant` does). */
		long long v;
		Variant variant;
		EngineOptions o;
		EngineStatus set = ENGINE_WRONG_VARIANT;
		if (value && !next_word(&args) && !number_parse(value, 1, 99, &v) &&
		    variant_from_game_type((int)v, &variant)) {
			pthread_mutex_lock(&cb->lock);
			engine_get_options(cb->engine, &o);
			o.variant = variant;
			set = engine_set_options(cb->engine, &o);
			pthread_mutex_unlock(&cb->lock);
		}
		if (set == ENGINE_OK)
			return reply_text(reply, size, true, "%lld", v);
		return reply_text(reply, size, false,
		                  "error: poolshark plays pool checkers (gametype %d), Russian (25) and "
		                  "Brazilian draughts (26)",
		                  CB_GAMETYPE_POOL);
	}
	const OptionDef *option = find_option(what);
	if (!option)
		return reply_text(reply, size, false, "?");
	EngineOptions o;
	char error[OPTION_ERROR_MAX];
	error[0] = '\0';
	pthread_mutex_lock(&cb->lock);
	engine_get_options(cb->engine, &o);
	bool parsed = value && !next_word(&args) && options_parse(option, value, &o, error, sizeof error);
	EngineStatus set = parsed ? engine_set_options(cb->engine, &o) : ENGINE_OK;
	pthread_mutex_unlock(&cb->lock);
	if (!parsed) {
		char values[OPTION_ERROR_MAX];
		options_describe_values(option, values, sizeof values);
		return reply_text(reply, size, false, "error: %s takes one value, %s", what, values);
	}
	if (set != ENGINE_OK)
		return reply_text(reply, size, false, "error: %s not set: %s", what, engine_status_text(set));
	return reply_text(reply, size, true, "%s %s", what, value);
}

/* The rules now played, as their description says them (`set gametype
 * 25` makes this Russian draughts, gametype 25). */
static bool command_about(CbEngine *cb, char *reply, size_t size)
{
	pthread_mutex_lock(&cb->lock);
	const VariantRules *rules = variant_rules(engine_variant(cb->engine));
	pthread_mutex_unlock(&cb->lock);
	return reply_text(reply, size, true,
	                  "poolshark %s\n%s (gametype %d):\n"
	                  "men capture backward, flying kings, %s,\n"
	                  "%s.\nGPL-3.0-or-later",
	                  poolshark_version, rules->title, rules->pdn_game_type,
	                  rules->majority_capture ? "the capture taking the most pieces"
	                                          : "free choice of capture",
	                  rules->crown_mid_capture ? "a man crowned during a capture goes on as a king"
	                                           : "crowning only at the end of a move");
}

bool cbengine_command(CbEngine *cb, const char *command, char *reply, size_t reply_size)
{
	if (!reply || reply_size == 0)
		return false;
	reply[0] = '\0';
	if (!command)
		return reply_text(reply, reply_size, false, "?");
	size_t length = strnlen(command, COMMAND_MAX);
	if (length == COMMAND_MAX)
		return reply_text(reply, reply_size, false, "error: command longer than %d bytes",
		                  COMMAND_MAX - 1);
	char text[COMMAND_MAX];
	memcpy(text, command, length + 1);
	char *args = text;
	char *word = next_word(&args);
	if (!word)
		return reply_text(reply, reply_size, false, "?");
	if (strcmp(word, "name") == 0)
		return reply_text(reply, reply_size, true, "poolshark %s", poolshark_version);
	if (strcmp(word, "about") == 0)
		return command_about(cb, reply, reply_size);
	if (strcmp(word, "help") == 0)
		return reply_text(reply, reply_size, true, "%s", ""); /* no help file: CheckerBoard says so */
	if (strcmp(word, "get") == 0)
		return command_get(cb, args, reply, reply_size);
	if (strcmp(word, "set") == 0)
		return command_set(cb, args, reply, reply_size);
	return reply_text(reply, reply_size, false, "?");
}
