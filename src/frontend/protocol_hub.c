/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The commands of Hub protocol v2 on the 8x8 board: hub, set-param, init, new-game, pos, level, go, ping,
 * stop, ponder-hit, quit. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/clock.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/options.h"
#include "poolshark/score.h"
#include "poolshark/version.h"
#include "protocol_internal.h"

enum {
	LEVEL_MAX_DEPTH = 100,
	LEVEL_MAX_MOVES = 1000,
	DEFAULT_THINK_MS = 1000, /* `go think` with no level */
};

static const double LEVEL_MAX_SECONDS = 1e6; /* about 11 days */
static const long long LEVEL_MAX_NODES = 1000000000000000LL;

/* Search callbacks, called from the search thread. */

static void on_info(const SearchInfo *info, void *user)
{
	Protocol *p = user;
	char buffer[PROTOCOL_OUTPUT_MAX], pv[PROTOCOL_OUTPUT_MAX / 2];
	size_t used = 0;
	pv[0] = '\0';
	Variant variant = engine_variant(p->engine);
	for (int i = 0; i < info->pv_length && i < SEARCH_MAX_PLY; i++) {
		char move[NOTATION_MOVE_MAX];
		notation_write_move_hub(info->pv[i], variant, move, sizeof move);
		size_t n = strlen(move);
		if (used + n + 2 > sizeof pv)
			break;
		if (used)
			pv[used++] = ' ';
		memcpy(pv + used, move, n + 1);
		used += n;
	}
	double seconds = info->time_ms / 1000.0;
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "info");
	if (info->line > 0)
		hubwriter_addf(&w, "multipv", "%d", info->line);
	hubwriter_addf(&w, "depth", "%d", info->depth);
	hubwriter_addf(&w, "mean-depth", "%.1f", info->mean_depth);
	hubwriter_addf(&w, "score", "%.2f", score_in_men(info->score));
	hubwriter_addf(&w, "nodes", "%" PRIu64, info->nodes);
	hubwriter_addf(&w, "time", "%.3f", seconds);
	hubwriter_addf(&w, "nps", "%.2f", seconds > 0 ? (double)info->nodes / seconds / 1e6 : 0.0);
	if (info->egdb_hits)
		hubwriter_addf(&w, "egdb-hits", "%" PRIu64, info->egdb_hits);
	if (used)
		hubwriter_add(&w, "pv", pv);
	protocol_emit(p, buffer);
}

static void on_done(const Position *root, const SearchResult *result, void *user)
{
	Protocol *p = user;
	char buffer[256], move[NOTATION_MOVE_MAX];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "done");
	if (!move_is_none(result->best)) {
		notation_write_move_hub(result->best, position_variant(root), move, sizeof move);
		hubwriter_add(&w, "move", move);
		if (!move_is_none(result->ponder)) {
			notation_write_move_hub(result->ponder, position_variant(root), move, sizeof move);
			hubwriter_add(&w, "ponder", move);
		}
	}
	protocol_emit(p, buffer);
}

/* Hub commands. Each returns false only for quit. */

/* Forgets the last level (a new position, or a go, uses it up). */
static void forget_level(Protocol *p)
{
	memset(&p->pending, 0, sizeof p->pending);
	p->level_refused = false;
}

/* The end of new-game and pos: the engine's answer `status` to the new
 * game, said when it refused; otherwise a new position, without a level. */
static bool hub_position_set(Protocol *p, EngineStatus status)
{
	if (status != ENGINE_OK) {
		protocol_error(p, engine_status_text(status));
		return true;
	}
	forget_level(p);
	p->have_position = true;
	return true;
}

static bool cmd_hub(Protocol *p, const HubLine *line)
{
	(void)line;
	char buffer[OPTION_TEXT_MAX + 512], value[OPTION_TEXT_MAX];
	HubWriter w;
	EngineOptions o;
	engine_get_options(p->engine, &o);
	pthread_mutex_lock(&p->output_lock);
	hubwriter_init(&w, buffer, sizeof buffer, "id");
	hubwriter_add(&w, "name", "poolshark");
	hubwriter_add(&w, "version", poolshark_version);
	hubwriter_add(&w, "author", "the poolshark authors");
	hubwriter_add(&w, "country", "none");
	protocol_emit_locked(p, buffer);
	for (int i = 0; i < options_count(); i++) {
		const OptionDef *def = options_at(i);
		hubwriter_init(&w, buffer, sizeof buffer, "param");
		hubwriter_add(&w, "name", def->name);
		options_format(def, &o, value, sizeof value);
		hubwriter_add(&w, "value", value);
		switch (def->type) {
		case OPTION_ENUM:
			hubwriter_add(&w, "type", "enum");
			hubwriter_add(&w, "values", def->values);
			break;
		case OPTION_BOOL: hubwriter_add(&w, "type", "bool"); break;
		case OPTION_INT:
			hubwriter_add(&w, "type", "int");
			hubwriter_addf(&w, "min", "%lld", def->min);
			hubwriter_addf(&w, "max", "%lld", options_max(def));
			break;
		case OPTION_TEXT: hubwriter_add(&w, "type", "string"); break;
		}
		protocol_emit_locked(p, buffer);
	}
	protocol_emit_locked(p, "wait");
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

static bool cmd_set_param(Protocol *p, const HubLine *line)
{
	const char *name = hubline_value(line, "name"), *value = hubline_value(line, "value");
	char error[PROTOCOL_MESSAGE_MAX];
	if (!name || !value) {
		protocol_error(p, "set-param needs name=<option> value=<value>");
		return true;
	}
	if (!protocol_set_option(p, name, value, error, sizeof error))
		protocol_error(p, error);
	return true;
}

static bool cmd_init(Protocol *p, const HubLine *line)
{
	(void)line;
	/* Ready means ready to play: the table's page faults are taken now,
	 * not on the first move's clock. */
	engine_prepare(p->engine);
	protocol_emit(p, "ready");
	return true;
}

static bool cmd_new_game(Protocol *p, const HubLine *line)
{
	(void)line;
	EngineStatus status = engine_new_game(p->engine, NULL);
	return hub_position_set(p, status);
}

/* Reads the root of `pos` from one of pos=, fen= or the word start. */
static bool read_root(Protocol *p, const HubLine *line, Position *root)
{
	const char *hub = hubline_value(line, "pos"), *fen = hubline_value(line, "fen");
	bool start = hubline_has_word(line, "start");
	char error[NOTATION_ERROR_MAX];
	int forms = (hub != NULL) + (fen != NULL) + start;
	if (forms == 0) {
		protocol_error(p, "pos needs pos=<side and 32 squares>, fen=<PDN FEN> or start");
		return false;
	}
	if (forms > 1) {
		protocol_error(p, "pos takes only one of pos=, fen= and start");
		return false;
	}
	Variant variant = engine_variant(p->engine);
	if (start) {
		position_start_variant(root, variant);
		return true;
	}
	/* A FEN in pos= is read as a FEN: it cannot be mistaken for 33 letters. */
	bool ok = (fen || strchr(hub, ':'))
	              ? notation_parse_fen(fen ? fen : hub, variant, root, error, sizeof error)
	              : notation_parse_hub_position(hub, variant, root, error, sizeof error);
	if (!ok)
		protocol_errorf(p, "bad position: %s", error);
	return ok;
}

/* Reads the moves= list from *root into p->pos_moves; the count, or -1
 * with an error written. */
static int read_move_list(Protocol *p, const Position *root, const char *moves)
{
	int count = 0;
	Position here = *root;
	for (const char *s = moves;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return count;
		size_t n = strcspn(s, " \t");
		char text[NOTATION_MOVE_MAX];
		if (n >= sizeof text) {
			protocol_errorf(p, "move %d in moves is too long (%.20s...)", count + 1, s);
			return -1;
		}
		if (count == GAME_MAX_PLIES) {
			protocol_errorf(p, "move %d in moves: more moves than any game can have", count + 1);
			return -1;
		}
		memcpy(text, s, n);
		text[n] = '\0';
		s += n;
		char error[NOTATION_ERROR_MAX];
		Move *m = &p->pos_moves[count];
		if (notation_parse_move(&here, text, m, error, sizeof error) != MOVE_PARSE_OK) {
			protocol_errorf(p, "move %d in moves: %s", count + 1, error);
			return -1;
		}
		position_make(&here, *m, &here);
		count++;
	}
}

static bool cmd_pos(Protocol *p, const HubLine *line)
{
	Position root;
	if (!read_root(p, line, &root))
		return true;
	const char *moves = hubline_value(line, "moves");
	int count = moves ? read_move_list(p, &root, moves) : 0, bad = 0;
	if (count < 0)
		return true;
	EngineDrawn drawn;
	EngineStatus status = engine_set_position(p->engine, &root, p->pos_moves, count, &bad, &drawn);
	if (status == ENGINE_ILLEGAL_MOVE || status == ENGINE_RECORD_FULL) {
		protocol_errorf(p, "move %d in moves: %s", bad + 1,
		                status == ENGINE_RECORD_FULL ? "more moves than any game can have"
		                                             : engine_status_text(status));
		return true;
	}
	if (status == ENGINE_OK && drawn.status.result == RESULT_DRAW) {
		/* The GUI is the referee: the position is taken, and said to be
		 * drawn by the rule (doc/PROTOCOL.md, pos). */
		char text[PROTOCOL_MESSAGE_MAX];
		snprintf(text, sizeof text,
		         "info message=\"drawn by the %s after move %d of moves; playing on\"",
		         game_reason_text(drawn.status.reason), drawn.after_moves);
		protocol_emit(p, text);
	}
	return hub_position_set(p, status);
}

/* Number readers for level: strict syntax, named failures. */

static bool read_count(Protocol *p, const char *key, const char *text, long long min, long long max,
                       long long *out)
{
	const char *problem = number_parse(text, min, max, out);
	if (!problem)
		return true;
	if (!strcmp(problem, "too small") || !strcmp(problem, "too large"))
		protocol_errorf(p, "level %s=%.30s is %s (%lld..%lld)", key, text, problem, min, max);
	else
		protocol_errorf(p, "level %s=%.30s is %s", key, text, problem);
	return false;
}

/* Seconds as GUIs send them, "9.999999999996123e-06" included; a clock
 * already overdrawn ("-0.05") counts as 0: no time left. */
static bool read_seconds(Protocol *p, const char *key, const char *text, int64_t *ms)
{
	double seconds;
	const char *problem = number_parse_decimal(text, -LEVEL_MAX_SECONDS, LEVEL_MAX_SECONDS, &seconds);
	if (!problem) {
		*ms = seconds > 0 ? llround(seconds * 1000.0) : 0;
		return true;
	}
	if (!strcmp(problem, "too large"))
		protocol_errorf(p, "level %s=%.30s is too large (at most %.0f seconds)", key, text,
		                LEVEL_MAX_SECONDS);
	else
		protocol_errorf(p, "level %s=%.30s is not a number of seconds", key, text);
	return false;
}

static const char *const LEVEL_KEYS[] = {"depth", "nodes", "moves", "move-time", "time", "inc"};

/* Names the arguments of a level line that are not level's (a misspelt
 * key would otherwise go unnoticed); true when there were any. */
static bool report_unknown(Protocol *p, const HubLine *line, bool applied)
{
	char names[PROTOCOL_MESSAGE_MAX / 2] = "";
	size_t used = 0;
	int unknown = 0;
	for (int i = 0; i < line->count; i++) {
		const HubToken *t = &line->tokens[i];
		bool known = !t->value && !strcmp(t->key, "infinite");
		for (size_t k = 0; k < sizeof LEVEL_KEYS / sizeof LEVEL_KEYS[0] && !known; k++)
			known = t->value && !strcmp(t->key, LEVEL_KEYS[k]);
		if (known)
			continue;
		int n = snprintf(names + used, sizeof names - used, "%s'%.30s'", unknown ? ", " : "", t->key);
		if (n > 0 && (size_t)n < sizeof names - used)
			used += (size_t)n;
		unknown++;
	}
	if (unknown)
		protocol_errorf(p,
		                "level: unknown %s %s%s (level takes depth=, nodes=, moves=, move-time=, "
		                "time=, inc=, infinite)",
		                unknown > 1 ? "keys" : "key", names,
		                applied ? " ignored, the rest applies" : "");
	return unknown > 0;
}

/* Reads a level line into p->pending; false, with an error written and
 * nothing changed, when a value cannot be read. */
static bool read_level(Protocol *p, const HubLine *line)
{
	SearchLimits l = p->pending;
	bool any = false;
	long long n;
	int64_t ms;
	const char *v;
	if ((v = hubline_value(line, "depth"))) {
		if (!read_count(p, "depth", v, 1, LEVEL_MAX_DEPTH, &n))
			return false;
		l.depth = (int)n;
		any = true;
	}
	if ((v = hubline_value(line, "nodes"))) {
		if (!read_count(p, "nodes", v, 1, LEVEL_MAX_NODES, &n))
			return false;
		l.nodes = (uint64_t)n;
		any = true;
	}
	if ((v = hubline_value(line, "moves"))) {
		if (!read_count(p, "moves", v, 0, LEVEL_MAX_MOVES, &n))
			return false;
		l.moves_to_go = (int)n;
		any = true;
	}
	/* Zero means "no limit" to the engine; a GUI's 0 seconds means "hurry". */
	if ((v = hubline_value(line, "move-time"))) {
		if (!read_seconds(p, "move-time", v, &ms))
			return false;
		l.move_time_ms = ms > 0 ? ms : 1;
		any = true;
	}
	if ((v = hubline_value(line, "time"))) {
		if (!read_seconds(p, "time", v, &ms))
			return false;
		l.time_left_ms = ms > 0 ? ms : 1;
		any = true;
	}
	if ((v = hubline_value(line, "inc"))) {
		if (!read_seconds(p, "inc", v, &ms))
			return false;
		l.increment_ms = ms;
		any = true;
	}
	if (hubline_has_word(line, "infinite")) {
		l.infinite = true;
		any = true;
	}
	if (!any) {
		if (!report_unknown(p, line, false))
			protocol_error(
			    p, "level needs depth=, nodes=, move-time=, time= (moves=, inc=) or infinite");
		return false;
	}
	p->pending = l;
	report_unknown(p, line, true);
	return true;
}

static bool cmd_level(Protocol *p, const HubLine *line)
{
	p->level_refused = !read_level(p, line);
	return true;
}

static bool limits_empty(const SearchLimits *l)
{
	return !l->depth && !l->nodes && !l->move_time_ms && !l->time_left_ms && !l->infinite;
}

/* A go that cannot search still ends with done (and no move), so that a
 * client that waits for done never hangs. */
static bool go_failed(Protocol *p, const char *message)
{
	pthread_mutex_lock(&p->output_lock);
	char buffer[PROTOCOL_MESSAGE_MAX + 32];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "error");
	hubwriter_add(&w, "message", message);
	protocol_emit_locked(p, buffer);
	protocol_emit_locked(p, "done");
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

/* Reads `searchmoves` of go: moves of the current position, each legal,
 * into limits->root_moves; false with the message in error. */
static bool read_searchmoves(Protocol *p, const char *text, SearchLimits *limits, char *error, size_t size)
{
	const Position *here = protocol_position(p);
	limits->root_move_count = 0;
	for (const char *s = text;;) {
		s += strspn(s, " \t");
		if (!*s)
			break;
		size_t n = strcspn(s, " \t");
		char move[NOTATION_MOVE_MAX], why[NOTATION_ERROR_MAX];
		if (n >= sizeof move || limits->root_move_count == SEARCH_MAX_ROOT_MOVES) {
			snprintf(error, size, "searchmoves: more than %d moves, or a move too long",
			         SEARCH_MAX_ROOT_MOVES);
			return false;
		}
		memcpy(move, s, n);
		move[n] = '\0';
		s += n;
		if (notation_parse_move(here, move, &limits->root_moves[limits->root_move_count], why,
		                        sizeof why) != MOVE_PARSE_OK) {
			snprintf(error, size, "searchmoves: %s", why);
			return false;
		}
		limits->root_move_count++;
	}
	if (!limits->root_move_count) {
		snprintf(error, size, "searchmoves names no move");
		return false;
	}
	return true;
}

static bool cmd_go(Protocol *p, const HubLine *line)
{
	const char *mode = hubline_word(line, 0);
	SearchLimits limits = p->pending;
	if (!mode)
		mode = "think";
	if (!strcmp(mode, "ponder")) {
		limits.ponder = true;
	} else if (!strcmp(mode, "analyze") || !strcmp(mode, "analyse")) {
		limits.infinite = true;
	} else if (strcmp(mode, "think")) {
		/* A malformed line, like any other: no search was asked for. */
		protocol_errorf(p, "go takes think, ponder or analyze, not '%.30s'", mode);
		return true;
	}
	if (!p->have_position)
		return go_failed(p, "no position: send pos first");
	if (!movegen_has_moves(protocol_position(p)))
		return go_failed(p, "no legal move in this position: the side to move has lost");
	const char *only = hubline_value(line, "searchmoves");
	char problem[PROTOCOL_MESSAGE_MAX];
	if (only && !read_searchmoves(p, only, &limits, problem, sizeof problem))
		return go_failed(p, problem);
	if (p->level_refused) {
		/* The GUI sent a clock the engine could not read: rather than
		 * think for the default, which may be more than that clock,
		 * answer at once. */
		limits.move_time_ms = 1;
		limits.time_left_ms = 0;
	} else if (limits_empty(&limits)) {
		limits.move_time_ms = DEFAULT_THINK_MS;
	}
	limits.clock_start_ms = clock_now_ms(); /* the GUI's clock runs from here */
	forget_level(p);
	p->search_bounded = !limits.infinite && !limits.ponder;
	EngineStatus status = engine_start(p->engine, &limits, on_info, on_done, p);
	if (status != ENGINE_OK) {
		char message[PROTOCOL_MESSAGE_MAX];
		snprintf(message, sizeof message, "the search could not start: %s",
		         engine_status_text(status));
		return go_failed(p, message);
	}
	return true;
}

static bool cmd_ping(Protocol *p, const HubLine *line)
{
	(void)line;
	protocol_emit(p, "pong");
	return true;
}

/* The search's done is written before the next line is read, as Scan
 * does: a client may send pos and go right after stop without waiting for
 * done (pydraughts' HubEngine does), and they must not find a search still
 * unwinding. */
static bool cmd_stop(Protocol *p, const HubLine *line)
{
	(void)line;
	protocol_stop(p);
	protocol_wait(p);
	return true;
}

static bool cmd_ponder_hit(Protocol *p, const HubLine *line)
{
	(void)line;
	if (engine_is_searching(p->engine))
		engine_ponder_hit(p->engine);
	return true;
}

static bool cmd_quit(Protocol *p, const HubLine *line)
{
	cmd_stop(p, line);
	return false;
}

const ProtocolCommand protocol_hub_commands[] = {
    {"hub", cmd_hub, true},   {"set-param", cmd_set_param, false},
    {"init", cmd_init, true}, {"new-game", cmd_new_game, false},
    {"pos", cmd_pos, false},  {"level", cmd_level, false},
    {"go", cmd_go, false},    {"ping", cmd_ping, true},
    {"stop", cmd_stop, true}, {"ponder-hit", cmd_ponder_hit, true},
    {"quit", cmd_quit, true},
};
const int protocol_hub_command_count = (int)(sizeof protocol_hub_commands / sizeof protocol_hub_commands[0]);
