/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Hub protocol (v2, 8x8 pool) and the extension commands, one line at a time. */
#include "poolshark/protocol.h"

#include <bsd/stdlib.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "poolshark/bench.h"
#include "poolshark/cli.h"
#include "poolshark/engine.h"
#include "poolshark/eval.h"
#include "poolshark/game.h"
#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/perft.h"
#include "poolshark/text.h"
#include "poolshark/timeman.h"

enum {
	OUTPUT_MAX = 16384, /* a pv of 128 captures still fits */
	MESSAGE_MAX = 400,
	LEVEL_MAX_DEPTH = 100,
	LEVEL_MAX_MOVES = 1000,
	DEFAULT_THINK_MS = 1000, /* `go think` with no level */
};

static const double LEVEL_MAX_SECONDS = 1e6; /* about 11 days */
static const long long LEVEL_MAX_NODES = 1000000000000000LL;

struct Protocol {
	ProtocolConfig config;
	ProtocolWrite write;
	void *user;
	pthread_mutex_t output_lock;
	Engine *engine;
	Game *scratch;         /* `pos` is built here, copied to the engine only when valid */
	char *text;            /* a copy of the line being split */
	bool have_position;    /* pos, new-game or move has set up a game */
	SearchLimits pending;  /* level lines since the last pos or search */
	atomic_bool searching; /* from go until its done line is written */
};

/* Output. One lock around every write, so that the search thread's info and
 * done lines never cut into a reply of the input thread. */

static void emit_locked(Protocol *p, const char *text)
{
	/* A block of several lines goes out under one lock. */
	char line[OUTPUT_MAX];
	const char *s = text;
	for (;;) {
		const char *end = strchr(s, '\n');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		p->write(line, p->user);
		if (!end)
			break;
		s = end + 1;
	}
}

static void emit(Protocol *p, const char *text)
{
	pthread_mutex_lock(&p->output_lock);
	emit_locked(p, text);
	pthread_mutex_unlock(&p->output_lock);
}

void protocol_error(Protocol *p, const char *message)
{
	char buffer[MESSAGE_MAX + 32];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "error");
	char cut[MESSAGE_MAX];
	snprintf(cut, sizeof cut, "%s", message);
	hubwriter_add(&w, "message", cut);
	emit(p, buffer);
}

static void errorf(Protocol *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void errorf(Protocol *p, const char *format, ...)
{
	char message[MESSAGE_MAX];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	protocol_error(p, message);
}

void protocol_greet(Protocol *p)
{
	emit(p, "poolshark " POOLSHARK_VERSION ", American pool checkers: type help for the commands");
}

/* Options: one table drives param, set-param, get and set. */

typedef enum OptionKind { OPTION_ENUM, OPTION_INT, OPTION_BOOL } OptionKind;

typedef struct OptionSpec {
	const char *name;
	OptionKind kind;
	long long min, max;
} OptionSpec;

static const OptionSpec option_specs[] = {
    {"variant", OPTION_ENUM, 0, 0},          {"hash", OPTION_INT, 1, 0}, /* max from the config */
    {"move-overhead", OPTION_INT, 0, 10000}, {"ponder", OPTION_BOOL, 0, 1}, {"strength", OPTION_INT, 0, 100},
};
enum { OPTION_COUNT = sizeof option_specs / sizeof option_specs[0] };

static const OptionSpec *find_option(const char *name)
{
	for (int i = 0; i < OPTION_COUNT; i++)
		if (!strcmp(option_specs[i].name, name))
			return &option_specs[i];
	return NULL;
}

static long long option_max(const Protocol *p, const OptionSpec *spec)
{
	return !strcmp(spec->name, "hash") ? (long long)p->config.max_hash_mb : spec->max;
}

static void option_value(const Protocol *p, const OptionSpec *spec, char *out, size_t size)
{
	EngineOptions o;
	engine_get_options(p->engine, &o);
	if (!strcmp(spec->name, "variant"))
		snprintf(out, size, "pool");
	else if (!strcmp(spec->name, "hash"))
		snprintf(out, size, "%zu", o.hash_mb);
	else if (!strcmp(spec->name, "move-overhead"))
		snprintf(out, size, "%d", o.move_overhead_ms);
	else if (!strcmp(spec->name, "ponder"))
		snprintf(out, size, "%s", o.ponder ? "true" : "false");
	else
		snprintf(out, size, "%d", o.strength);
}

/* Validates and applies one option; false with a message, nothing changed. */
static bool set_option(Protocol *p, const char *name, const char *value, char *error, size_t size)
{
	const OptionSpec *spec = find_option(name);
	if (!spec) {
		snprintf(error, size,
		         "unknown option '%.40s' (options: variant hash move-overhead ponder strength)",
		         name);
		return false;
	}
	EngineOptions o;
	engine_get_options(p->engine, &o);
	long long number = 0;
	if (spec->kind == OPTION_ENUM) {
		if (strcmp(value, "pool")) {
			snprintf(error, size, "variant '%.40s' is not known (values: pool)", value);
			return false;
		}
		return true;
	}
	if (spec->kind == OPTION_BOOL) {
		if (!strcmp(value, "true") || !strcmp(value, "1") || !strcmp(value, "on"))
			number = 1;
		else if (strcmp(value, "false") && strcmp(value, "0") && strcmp(value, "off")) {
			snprintf(error, size, "%s must be true or false, not '%.40s'", name, value);
			return false;
		}
	} else {
		const char *problem = NULL;
		number = strtonum(value, spec->min, option_max(p, spec), &problem);
		if (problem) {
			snprintf(error, size, "%s=%.40s is %s (%lld..%lld)", name, value, problem, spec->min,
			         option_max(p, spec));
			return false;
		}
	}
	if (!strcmp(name, "hash"))
		o.hash_mb = (size_t)number;
	else if (!strcmp(name, "move-overhead"))
		o.move_overhead_ms = (int)number;
	else if (!strcmp(name, "ponder"))
		o.ponder = number != 0;
	else
		o.strength = (int)number;
	if (!engine_set_options(p->engine, &o)) {
		snprintf(error, size, "could not apply %s=%.40s", name, value);
		return false;
	}
	return true;
}

/* Games. */

static void game_copy(Game *to, const Game *from)
{
	int n = from->ply_count;
	to->ply_count = n;
	memcpy(to->positions, from->positions, (size_t)(n + 1) * sizeof from->positions[0]);
	memcpy(to->counters, from->counters, (size_t)(n + 1) * sizeof from->counters[0]);
	memcpy(to->moves, from->moves, (size_t)n * sizeof from->moves[0]);
}

static const Position *current_position(Protocol *p)
{
	return game_position(engine_game(p->engine));
}

/* Search callbacks, called from the search thread. */

static double score_in_men(int score, bool mate, int mate_plies)
{
	if (mate) {
		/* A forced end in p plies reads as 100 - p/100 men (99.93 for 7). */
		int plies = abs(mate_plies);
		double value = 100.0 - plies / 100.0;
		return score < 0 || mate_plies < 0 ? -value : value;
	}
	return score / 100.0;
}

static void on_info(const SearchInfo *info, void *user)
{
	Protocol *p = user;
	char buffer[OUTPUT_MAX], pv[OUTPUT_MAX / 2];
	size_t used = 0;
	pv[0] = '\0';
	for (int i = 0; i < info->pv_length && i < 128; i++) {
		char move[NOTATION_MOVE_MAX];
		notation_write_move_hub(info->pv[i], move, sizeof move);
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
	hubwriter_addf(&w, "depth", "%d", info->depth);
	hubwriter_addf(&w, "mean-depth", "%.1f", info->mean_depth);
	hubwriter_addf(&w, "score", "%.2f", score_in_men(info->score, info->mate, info->mate_plies));
	hubwriter_addf(&w, "nodes", "%" PRIu64, info->nodes);
	hubwriter_addf(&w, "time", "%.3f", seconds);
	hubwriter_addf(&w, "nps", "%.2f", seconds > 0 ? (double)info->nodes / seconds / 1e6 : 0.0);
	if (used)
		hubwriter_add(&w, "pv", pv);
	emit(p, buffer);
}

static void on_done(const Position *root, const SearchResult *result, void *user)
{
	Protocol *p = user;
	char buffer[256], move[NOTATION_MOVE_MAX];
	HubWriter w;
	(void)root;
	hubwriter_init(&w, buffer, sizeof buffer, "done");
	if (!move_is_none(result->best)) {
		notation_write_move_hub(result->best, move, sizeof move);
		hubwriter_add(&w, "move", move);
		if (!move_is_none(result->ponder)) {
			notation_write_move_hub(result->ponder, move, sizeof move);
			hubwriter_add(&w, "ponder", move);
		}
	}
	/* The flag drops before the line goes out: once a GUI has read done, its
	 * next pos or go must be accepted. */
	pthread_mutex_lock(&p->output_lock);
	atomic_store(&p->searching, false);
	emit_locked(p, buffer);
	pthread_mutex_unlock(&p->output_lock);
}

/* Commands. Each returns false only for quit. */

typedef bool (*CommandRun)(Protocol *p, const HubLine *line);

static bool cmd_hub(Protocol *p, const HubLine *line)
{
	(void)line;
	char buffer[512], value[64];
	HubWriter w;
	pthread_mutex_lock(&p->output_lock);
	hubwriter_init(&w, buffer, sizeof buffer, "id");
	hubwriter_add(&w, "name", "poolshark");
	hubwriter_add(&w, "version", POOLSHARK_VERSION);
	hubwriter_add(&w, "author", "the poolshark authors");
	hubwriter_add(&w, "country", "none");
	emit_locked(p, buffer);
	for (int i = 0; i < OPTION_COUNT; i++) {
		const OptionSpec *spec = &option_specs[i];
		hubwriter_init(&w, buffer, sizeof buffer, "param");
		hubwriter_add(&w, "name", spec->name);
		option_value(p, spec, value, sizeof value);
		hubwriter_add(&w, "value", value);
		switch (spec->kind) {
		case OPTION_ENUM:
			hubwriter_add(&w, "type", "enum");
			hubwriter_add(&w, "values", "pool");
			break;
		case OPTION_BOOL: hubwriter_add(&w, "type", "bool"); break;
		case OPTION_INT:
			hubwriter_add(&w, "type", "int");
			hubwriter_addf(&w, "min", "%lld", spec->min);
			hubwriter_addf(&w, "max", "%lld", option_max(p, spec));
			break;
		}
		emit_locked(p, buffer);
	}
	emit_locked(p, "wait");
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

static bool cmd_set_param(Protocol *p, const HubLine *line)
{
	const char *name = hubline_value(line, "name"), *value = hubline_value(line, "value");
	char error[MESSAGE_MAX];
	if (!name || !value) {
		protocol_error(p, "set-param needs name=<option> value=<value>");
		return true;
	}
	if (!set_option(p, name, value, error, sizeof error))
		protocol_error(p, error);
	return true;
}

static bool cmd_init(Protocol *p, const HubLine *line)
{
	(void)line;
	emit(p, "ready");
	return true;
}

static bool cmd_new_game(Protocol *p, const HubLine *line)
{
	(void)line;
	Position start;
	position_start(&start);
	engine_new_game(p->engine);
	game_init(engine_game(p->engine), &start);
	memset(&p->pending, 0, sizeof p->pending);
	p->have_position = true;
	return true;
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
	if (start) {
		position_start(root);
		return true;
	}
	/* A FEN in pos= is read as a FEN: it cannot be mistaken for 33 letters. */
	bool ok = (fen || strchr(hub, ':')) ? notation_parse_fen(fen ? fen : hub, root, error, sizeof error)
	                                    : notation_parse_hub_position(hub, root, error, sizeof error);
	if (!ok)
		errorf(p, "bad position: %s", error);
	return ok;
}

/* Plays the moves= list on p->scratch; false with an error written. */
static bool play_move_list(Protocol *p, const char *moves)
{
	int number = 0;
	const char *s = moves;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return true;
		size_t n = strcspn(s, " \t");
		number++;
		char text[NOTATION_MOVE_MAX];
		if (n >= sizeof text) {
			errorf(p, "move %d in moves is too long (%.20s...)", number, s);
			return false;
		}
		memcpy(text, s, n);
		text[n] = '\0';
		s += n;
		Move m;
		char error[NOTATION_ERROR_MAX];
		Game *g = p->scratch;
		if (notation_parse_move(game_position(g), text, &m, error, sizeof error) != MOVE_PARSE_OK) {
			errorf(p, "move %d in moves: %s", number, error);
			return false;
		}
		if (!game_play(g, m)) {
			if (g->ply_count >= GAME_MAX_PLIES) {
				errorf(p, "move %d in moves: more moves than any game can have", number);
				return false;
			}
			/* The game is over by a draw rule, but the GUI is the referee and
			 * goes on: continue from here with fresh counters. */
			Position next;
			position_make(game_position(g), m, &next);
			game_init(g, &next);
		}
	}
}

static bool cmd_pos(Protocol *p, const HubLine *line)
{
	Position root;
	if (!read_root(p, line, &root))
		return true;
	game_init(p->scratch, &root);
	const char *moves = hubline_value(line, "moves");
	if (moves && !play_move_list(p, moves))
		return true;
	game_copy(engine_game(p->engine), p->scratch);
	memset(&p->pending, 0, sizeof p->pending);
	p->have_position = true;
	return true;
}

/* Number readers for level: strict syntax, named failures. */

static bool read_count(Protocol *p, const char *key, const char *text, long long min, long long max,
                       long long *out)
{
	const char *problem = NULL;
	long long v = strtonum(text, min, max, &problem);
	if (problem) {
		if (text[0] == '-' && strspn(text + 1, "0123456789") == strlen(text + 1) && text[1])
			errorf(p, "level %s=%.30s is negative", key, text);
		else if (!strcmp(problem, "invalid"))
			errorf(p, "level %s=%.30s is not a whole number", key, text);
		else
			errorf(p, "level %s=%.30s is %s (%lld..%lld)", key, text, problem, min, max);
		return false;
	}
	*out = v;
	return true;
}

static bool read_seconds(Protocol *p, const char *key, const char *text, int64_t *ms)
{
	const char *digits = text[0] == '-' || text[0] == '+' ? text + 1 : text;
	size_t whole = strspn(digits, "0123456789");
	size_t frac = digits[whole] == '.' ? strspn(digits + whole + 1, "0123456789") : 0;
	size_t length = whole + (digits[whole] == '.' ? 1 + frac : 0);
	if (whole + frac == 0 || digits[length]) {
		errorf(p, "level %s=%.30s is not a number of seconds", key, text);
		return false;
	}
	double v = strtod(text, NULL);
	if (text[0] == '-' && v != 0) {
		errorf(p, "level %s=%.30s is negative", key, text);
		return false;
	}
	if (!(v <= LEVEL_MAX_SECONDS)) {
		errorf(p, "level %s=%.30s is too large (at most %.0f seconds)", key, text, LEVEL_MAX_SECONDS);
		return false;
	}
	*ms = llround(v * 1000.0);
	return true;
}

static bool cmd_level(Protocol *p, const HubLine *line)
{
	SearchLimits l = p->pending;
	bool any = false;
	long long n;
	int64_t ms;
	const char *v;
	if ((v = hubline_value(line, "depth"))) {
		if (!read_count(p, "depth", v, 1, LEVEL_MAX_DEPTH, &n))
			return true;
		l.depth = (int)n;
		any = true;
	}
	if ((v = hubline_value(line, "nodes"))) {
		if (!read_count(p, "nodes", v, 1, LEVEL_MAX_NODES, &n))
			return true;
		l.nodes = (uint64_t)n;
		any = true;
	}
	if ((v = hubline_value(line, "moves"))) {
		if (!read_count(p, "moves", v, 0, LEVEL_MAX_MOVES, &n))
			return true;
		l.moves_to_go = (int)n;
		any = true;
	}
	/* Zero means "no limit" to the engine; a GUI's 0 seconds means "hurry". */
	if ((v = hubline_value(line, "move-time"))) {
		if (!read_seconds(p, "move-time", v, &ms))
			return true;
		l.move_time_ms = ms > 0 ? ms : 1;
		any = true;
	}
	if ((v = hubline_value(line, "time"))) {
		if (!read_seconds(p, "time", v, &ms))
			return true;
		l.time_left_ms = ms > 0 ? ms : 1;
		any = true;
	}
	if ((v = hubline_value(line, "inc"))) {
		if (!read_seconds(p, "inc", v, &ms))
			return true;
		l.increment_ms = ms;
		any = true;
	}
	if (hubline_has_word(line, "infinite")) {
		l.infinite = true;
		any = true;
	}
	if (!any) {
		protocol_error(p, "level needs depth=, nodes=, move-time=, time= (moves=, inc=) or infinite");
		return true;
	}
	p->pending = l;
	return true;
}

static bool limits_empty(const SearchLimits *l)
{
	return !l->depth && !l->nodes && !l->move_time_ms && !l->time_left_ms && !l->infinite;
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
		errorf(p, "go takes think, ponder or analyze, not '%.30s'", mode);
		return true;
	}
	if (!p->have_position) {
		protocol_error(p, "no position: send pos first");
		return true;
	}
	if (!movegen_has_moves(current_position(p))) {
		protocol_error(p, "no legal move in this position: the side to move has lost");
		return true;
	}
	if (limits_empty(&limits))
		limits.move_time_ms = DEFAULT_THINK_MS;
	memset(&p->pending, 0, sizeof p->pending);
	atomic_store(&p->searching, true);
	if (!engine_start(p->engine, &limits, on_info, on_done, p)) {
		atomic_store(&p->searching, false);
		protocol_error(p, "the search could not start");
	}
	return true;
}

static bool cmd_ping(Protocol *p, const HubLine *line)
{
	(void)line;
	emit(p, "pong");
	return true;
}

static bool cmd_stop(Protocol *p, const HubLine *line)
{
	(void)line;
	protocol_stop(p);
	return true;
}

static bool cmd_ponder_hit(Protocol *p, const HubLine *line)
{
	(void)line;
	if (atomic_load(&p->searching))
		engine_ponder_hit(p->engine);
	return true;
}

static bool cmd_quit(Protocol *p, const HubLine *line)
{
	(void)line;
	protocol_stop(p);
	protocol_wait(p);
	return false;
}

/* Extension commands. */

static const char *const help_text =
    "poolshark speaks the Hub protocol (version 2) on the 8x8 pool board.\n"
    "Hub commands (what a GUI sends):\n"
    "  hub                      identify: id, one param line per option, wait\n"
    "  set-param name=N value=V set an option (see get)\n"
    "  init                     answered by ready\n"
    "  new-game                 start position, clear the hash table\n"
    "  pos pos=P [moves=M]      P: B or W, then 32 letters b B w W e for squares 1-32\n"
    "  pos start | pos fen=F    the start position, or a PDN FEN; moves in Hub or PDN form\n"
    "  level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite\n"
    "  go think | go ponder | go analyze      search; info lines, then done move=M ponder=M\n"
    "  ping | stop | ponder-hit               also during a search\n"
    "  quit\n"
    "Commands for people and scripts:\n"
    "  help                     this text\n"
    "  board [flip]             the board with square numbers, side to move and FEN\n"
    "  fen | moves              the FEN | the legal moves in PDN\n"
    "  move M | undo            play a move on the current game | take one back\n"
    "  perft depth=N [divide]   count the leaves of the move tree\n"
    "  bench [depth=N]          fixed-depth search benchmark\n"
    "  eval                     the static evaluation and its terms\n"
    "  name | about             who is speaking\n"
    "  get [OPTION] | set OPTION VALUE        read or change an option\n"
    "Options: variant (pool), hash (MiB), move-overhead (ms), ponder (true or false),\n"
    "strength (0 to 100, 100 is full strength). Scores are in men, from the side to move.";

static bool cmd_help(Protocol *p, const HubLine *line)
{
	(void)line;
	emit(p, help_text);
	return true;
}

static bool cmd_board(Protocol *p, const HubLine *line)
{
	char text[PROTOCOL_BOARD_MAX];
	protocol_draw_board(current_position(p), hubline_has_word(line, "flip"), text, sizeof text);
	emit(p, text);
	return true;
}

static bool cmd_fen(Protocol *p, const HubLine *line)
{
	(void)line;
	char fen[NOTATION_FEN_MAX], buffer[NOTATION_FEN_MAX + 16];
	HubWriter w;
	notation_write_fen(current_position(p), fen, sizeof fen);
	hubwriter_init(&w, buffer, sizeof buffer, "fen");
	hubwriter_add(&w, "value", fen);
	emit(p, buffer);
	return true;
}

static bool cmd_moves(Protocol *p, const HubLine *line)
{
	(void)line;
	char text[OUTPUT_MAX / 2], buffer[OUTPUT_MAX];
	int n = notation_write_legal_moves(current_position(p), text, sizeof text);
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "moves");
	hubwriter_addf(&w, "count", "%d", n);
	hubwriter_add(&w, "moves", text);
	emit(p, buffer);
	return true;
}

/* After move or undo: where the game stands. */
static void report_game(Protocol *p, const char *command, const char *played)
{
	const Game *g = engine_game(p->engine);
	char fen[NOTATION_FEN_MAX], buffer[512];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, command);
	if (played)
		hubwriter_add(&w, "played", played);
	notation_write_fen(game_position(g), fen, sizeof fen);
	hubwriter_add(&w, "fen", fen);
	GameStatus status = game_status(g);
	if (status.result != RESULT_NONE) {
		hubwriter_add(&w, "result", game_result_text(status.result));
		hubwriter_add(&w, "reason", game_reason_text(status.reason));
	}
	emit(p, buffer);
}

static bool cmd_move(Protocol *p, const HubLine *line)
{
	const char *text = hubline_word(line, 0);
	if (!text)
		text = hubline_value(line, "move");
	if (!text) {
		protocol_error(p, "move needs a move, e.g. move 11-15");
		return true;
	}
	Game *g = engine_game(p->engine);
	const Position *pos = game_position(g);
	GameStatus status = game_status(g);
	if (status.result != RESULT_NONE) {
		errorf(p, "the game is over (%s)", game_reason_text(status.reason));
		return true;
	}
	Move m;
	char error[NOTATION_ERROR_MAX], played[NOTATION_MOVE_MAX];
	if (notation_parse_move(pos, text, &m, error, sizeof error) != MOVE_PARSE_OK) {
		protocol_error(p, error);
		return true;
	}
	notation_write_move(pos, m, played, sizeof played);
	if (!game_play(g, m)) {
		protocol_error(p, "the game record is full");
		return true;
	}
	p->have_position = true;
	report_game(p, "move", played);
	return true;
}

static bool cmd_undo(Protocol *p, const HubLine *line)
{
	(void)line;
	if (!game_undo(engine_game(p->engine))) {
		protocol_error(p, "no move to take back");
		return true;
	}
	report_game(p, "undo", NULL);
	return true;
}

static bool cmd_perft(Protocol *p, const HubLine *line)
{
	const char *text = hubline_value(line, "depth");
	if (!text)
		text = hubline_word(line, 0);
	if (text && !strcmp(text, "divide"))
		text = hubline_word(line, 1);
	if (!text) {
		protocol_error(p, "perft needs depth=N");
		return true;
	}
	const char *problem = NULL;
	int depth = (int)strtonum(text, 1, p->config.max_perft_depth, &problem);
	if (problem) {
		errorf(p, "perft depth=%.30s is %s (1..%d)", text, problem, p->config.max_perft_depth);
		return true;
	}
	const Position *pos = current_position(p);
	PerftTable *table = depth > 5 ? perft_table_create(64) : NULL;
	char buffer[256];
	HubWriter w;
	int64_t start = timeman_now_ms();
	uint64_t total;
	if (hubline_has_word(line, "divide")) {
		PerftDivide *d = malloc(sizeof *d);
		if (!d) {
			perft_table_free(table);
			protocol_error(p, "out of memory");
			return true;
		}
		perft_divide(pos, depth, table, d);
		for (int i = 0; i < d->count; i++) {
			char move[NOTATION_MOVE_MAX];
			notation_write_move(pos, d->moves[i], move, sizeof move);
			hubwriter_init(&w, buffer, sizeof buffer, "perft");
			hubwriter_add(&w, "move", move);
			hubwriter_addf(&w, "nodes", "%" PRIu64, d->leaves[i]);
			emit(p, buffer);
		}
		total = d->total;
		free(d);
	} else {
		total = perft_count(pos, depth, table);
	}
	perft_table_free(table);
	double seconds = (double)(timeman_now_ms() - start) / 1000.0;
	hubwriter_init(&w, buffer, sizeof buffer, "perft");
	hubwriter_addf(&w, "depth", "%d", depth);
	hubwriter_addf(&w, "nodes", "%" PRIu64, total);
	hubwriter_addf(&w, "time", "%.3f", seconds);
	hubwriter_addf(&w, "nps", "%.2f", seconds > 0 ? (double)total / seconds / 1e6 : 0.0);
	emit(p, buffer);
	return true;
}

static void emit_bench_position(int index, const Position *root, const SearchResult *result, void *user)
{
	Protocol *p = user;
	char move[NOTATION_MOVE_MAX] = "none", buffer[512];
	HubWriter w;
	if (!move_is_none(result->best))
		notation_write_move(root, result->best, move, sizeof move);
	hubwriter_init(&w, buffer, sizeof buffer, "bench");
	hubwriter_addf(&w, "position", "%d", index + 1);
	hubwriter_addf(&w, "nodes", "%" PRIu64, result->nodes);
	hubwriter_add(&w, "best", move);
	emit(p, buffer);
}

/*
 * The same measurement as `poolshark bench` (bench_run), so the node total is
 * the same signature. It runs in the input thread: lines sent meanwhile are
 * answered when it ends.
 */
static bool cmd_bench(Protocol *p, const HubLine *line)
{
	if (!p->config.allow_bench) {
		protocol_error(p, "bench is turned off here");
		return true;
	}
	const char *text = hubline_value(line, "depth");
	if (!text)
		text = hubline_word(line, 0);
	long long depth = BENCH_DEFAULT_DEPTH;
	const char *problem = NULL;
	if (text && (depth = strtonum(text, 1, BENCH_MAX_DEPTH, &problem), problem)) {
		errorf(p, "bench depth=%.30s is %s (1..%d)", text, problem, BENCH_MAX_DEPTH);
		return true;
	}
	BenchTotals totals;
	if (!bench_run((int)depth, emit_bench_position, p, &totals)) {
		protocol_error(p, "out of memory");
		return true;
	}
	double seconds = (double)totals.elapsed_ms / 1000.0;
	char buffer[512];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "bench");
	hubwriter_addf(&w, "depth", "%d", totals.depth);
	hubwriter_addf(&w, "nodes", "%" PRIu64, totals.nodes);
	hubwriter_addf(&w, "time", "%.3f", seconds);
	hubwriter_addf(&w, "nps", "%.2f", seconds > 0 ? (double)totals.nodes / seconds / 1e6 : 0.0);
	emit(p, buffer);
	return true;
}

/*
 * The terms of the evaluation: each is the drop of the score when the
 * weights of that term are set to zero, so the terms show what each idea
 * contributes here (they need not add up to the score exactly, because the
 * drawish-material scale multiplies them all).
 */
typedef struct EvalTerm {
	const char *name;
	size_t offset[3];
	size_t size[3];
} EvalTerm;

#define TERM1(n, f)                                                                                          \
	{                                                                                                    \
		n, {offsetof(EvalWeights, f)},                                                               \
		{                                                                                            \
			sizeof(((EvalWeights *)0)->f)                                                        \
		}                                                                                            \
	}
#define TERM2(n, f, g)                                                                                       \
	{                                                                                                    \
		n, {offsetof(EvalWeights, f), offsetof(EvalWeights, g)},                                     \
		{                                                                                            \
			sizeof(((EvalWeights *)0)->f), sizeof(((EvalWeights *)0)->g)                         \
		}                                                                                            \
	}

static const EvalTerm eval_terms[] = {
    TERM1("men", man),
    TERM2("kings", king_opening, king_endgame),
    TERM1("advancement", man_row),
    TERM1("tempo", tempo),
    TERM1("back-guard", back_guard),
    TERM1("centre", man_centre),
    TERM1("edge", man_edge),
    TERM1("runaway", runaway),
    TERM1("king-centre", king_centre),
    TERM2("king-diagonals", king_main_diagonal, king_double_diagonal),
    TERM1("king-mobility", king_mobility),
    TERM1("king-trapped", king_trapped),
};

static bool cmd_eval(Protocol *p, const HubLine *line)
{
	(void)line;
	const Position *pos = current_position(p);
	const EvalWeights *base = &eval_default_weights;
	int score = eval_evaluate(pos, base);
	char buffer[1024];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "eval");
	hubwriter_add(&w, "side", pos->side == BLACK ? "black" : "white");
	hubwriter_addf(&w, "score", "%.2f", score / 100.0);
	for (size_t i = 0; i < sizeof eval_terms / sizeof eval_terms[0]; i++) {
		EvalWeights off = *base;
		for (int k = 0; k < 3 && eval_terms[i].size[k]; k++)
			memset((char *)&off + eval_terms[i].offset[k], 0, eval_terms[i].size[k]);
		hubwriter_addf(&w, eval_terms[i].name, "%.2f", (score - eval_evaluate(pos, &off)) / 100.0);
	}
	hubwriter_addf(&w, "draw-scale", "%.2f", eval_draw_scale(pos, base) / 16.0);
	emit(p, buffer);
	return true;
}

static bool cmd_name(Protocol *p, const HubLine *line)
{
	(void)line;
	emit(p, "name value=poolshark version=" POOLSHARK_VERSION);
	return true;
}

static bool cmd_about(Protocol *p, const HubLine *line)
{
	(void)line;
	emit(p, "about value=\"poolshark " POOLSHARK_VERSION
	        ", an engine for American pool checkers; GPL-3.0-or-later\"");
	return true;
}

static bool cmd_get(Protocol *p, const HubLine *line)
{
	const char *name = hubline_word(line, 0);
	char buffer[256], value[64];
	HubWriter w;
	if (name && !find_option(name)) {
		errorf(p, "unknown option '%.40s' (options: variant hash move-overhead ponder strength)",
		       name);
		return true;
	}
	pthread_mutex_lock(&p->output_lock);
	for (int i = 0; i < OPTION_COUNT; i++) {
		if (name && strcmp(name, option_specs[i].name))
			continue;
		option_value(p, &option_specs[i], value, sizeof value);
		hubwriter_init(&w, buffer, sizeof buffer, "get");
		hubwriter_add(&w, "name", option_specs[i].name);
		hubwriter_add(&w, "value", value);
		emit_locked(p, buffer);
	}
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

static bool cmd_set(Protocol *p, const HubLine *line)
{
	const char *name = hubline_word(line, 0), *value = hubline_word(line, 1);
	char error[MESSAGE_MAX], buffer[256], current[64];
	if (!name || !value) {
		protocol_error(p, "set needs an option and a value, e.g. set hash 128");
		return true;
	}
	if (!set_option(p, name, value, error, sizeof error)) {
		protocol_error(p, error);
		return true;
	}
	HubWriter w;
	option_value(p, find_option(name), current, sizeof current);
	hubwriter_init(&w, buffer, sizeof buffer, "set");
	hubwriter_add(&w, "name", name);
	hubwriter_add(&w, "value", current);
	emit(p, buffer);
	return true;
}

typedef struct Command {
	const char *name;
	CommandRun run;
	bool during_search; /* harmless while the search thread owns the game */
} Command;

static const Command commands[] = {
    {"hub", cmd_hub, true},      {"set-param", cmd_set_param, false},
    {"init", cmd_init, true},    {"new-game", cmd_new_game, false},
    {"pos", cmd_pos, false},     {"level", cmd_level, false},
    {"go", cmd_go, false},       {"ping", cmd_ping, true},
    {"stop", cmd_stop, true},    {"ponder-hit", cmd_ponder_hit, true},
    {"quit", cmd_quit, true},    {"help", cmd_help, true},
    {"board", cmd_board, true},  {"fen", cmd_fen, true},
    {"moves", cmd_moves, true},  {"move", cmd_move, false},
    {"undo", cmd_undo, false},   {"perft", cmd_perft, false},
    {"bench", cmd_bench, false}, {"eval", cmd_eval, true},
    {"name", cmd_name, true},    {"about", cmd_about, true},
    {"get", cmd_get, true},      {"set", cmd_set, false},
};

bool protocol_handle_line(Protocol *p, const char *line, size_t length)
{
	char error[HUBLINE_ERROR_MAX];
	if (length > HUBLINE_MAX_LENGTH) {
		errorf(p, "line too long (more than %d bytes)", HUBLINE_MAX_LENGTH);
		return true;
	}
	if (!hubline_check_bytes(line, length, error, sizeof error)) {
		protocol_error(p, error);
		return true;
	}
	memcpy(p->text, line, length);
	p->text[length] = '\0';
	HubLine parsed;
	if (!hubline_parse(p->text, &parsed, error, sizeof error)) {
		protocol_error(p, error);
		return true;
	}
	if (!parsed.command)
		return true;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const Command *c = &commands[i];
		if (strcmp(c->name, parsed.command))
			continue;
		if (!c->during_search) {
			if (atomic_load(&p->searching)) {
				errorf(p, "%s cannot run during a search (send stop first)", c->name);
				return true;
			}
			/* done is out; let the search thread finish returning. */
			engine_wait(p->engine);
		}
		return c->run(p, &parsed);
	}
	errorf(p, "unknown command '%.40s' (type help)", parsed.command);
	return true;
}

void protocol_stop(Protocol *p)
{
	if (atomic_load(&p->searching))
		engine_stop(p->engine);
}

void protocol_wait(Protocol *p)
{
	engine_wait(p->engine);
}

bool protocol_is_searching(const Protocol *p)
{
	return atomic_load(&((Protocol *)p)->searching);
}

void protocol_default_config(ProtocolConfig *out)
{
	EngineOptions o;
	engine_default_options(&o);
	out->interactive = false;
	out->hash_mb = o.hash_mb;
	out->max_hash_mb = 16384;
	out->max_perft_depth = 15;
	out->allow_bench = true;
}

Protocol *protocol_create(const ProtocolConfig *config, ProtocolWrite write, void *user)
{
	Protocol *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->config = *config;
	p->write = write;
	p->user = user;
	atomic_init(&p->searching, false);
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = config->hash_mb;
	p->scratch = malloc(sizeof *p->scratch);
	p->text = malloc(HUBLINE_MAX_LENGTH + 1);
	p->engine = p->scratch && p->text ? engine_create(&o) : NULL;
	if (!p->engine || pthread_mutex_init(&p->output_lock, NULL)) {
		if (p->engine)
			engine_destroy(p->engine);
		free(p->scratch);
		free(p->text);
		free(p);
		return NULL;
	}
	return p;
}

void protocol_reset(Protocol *p)
{
	engine_stop(p->engine);
	engine_wait(p->engine);
	atomic_store(&p->searching, false);
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = p->config.hash_mb;
	engine_set_options(p->engine, &o);
	engine_new_game(p->engine);
	Position start;
	position_start(&start);
	game_init(engine_game(p->engine), &start);
	memset(&p->pending, 0, sizeof p->pending);
	p->have_position = false;
}

void protocol_destroy(Protocol *p)
{
	if (!p)
		return;
	engine_stop(p->engine);
	engine_wait(p->engine);
	engine_destroy(p->engine);
	pthread_mutex_destroy(&p->output_lock);
	free(p->scratch);
	free(p->text);
	free(p);
}

/* The board for people. */

static char piece_letter(const Position *pos, int s)
{
	Bitboard b = bb_square(s);
	bool king = (pos->kings & b) != 0;
	if (pos->pieces[BLACK] & b)
		return king ? 'B' : 'b';
	if (pos->pieces[WHITE] & b)
		return king ? 'W' : 'w';
	return '.';
}

void protocol_draw_board(const Position *pos, bool flipped, char *out, size_t size)
{
	size_t used = 0;
	if (!size)
		return;
	out[0] = '\0';
	const char *files = flipped ? "h  g  f  e  d  c  b  a" : "a  b  c  d  e  f  g  h";
	text_append(out, size, &used, "      %s          %s\n", files, files);
	for (int line = 0; line < 8; line++) {
		int row = flipped ? 7 - line : line; /* row 0 is rank 8, Black's side */
		char pieces[40] = "", numbers[40] = "";
		size_t pu = 0, nu = 0;
		for (int col = 0; col < 8; col++) {
			int c = flipped ? 7 - col : col;
			bool dark = (row + c) % 2 == 1;
			if (dark) {
				int s = 4 * row + c / 2;
				text_append(pieces, sizeof pieces, &pu, "  %c", piece_letter(pos, s));
				text_append(numbers, sizeof numbers, &nu, " %2d", s + 1);
			} else {
				text_append(pieces, sizeof pieces, &pu, "   ");
				text_append(numbers, sizeof numbers, &nu, "   ");
			}
		}
		while (nu && numbers[nu - 1] == ' ')
			numbers[--nu] = '\0';
		text_append(out, size, &used, "  %d %s      %d %s\n", 8 - row, pieces, 8 - row, numbers);
	}
	char fen[NOTATION_FEN_MAX];
	notation_write_fen(pos, fen, sizeof fen);
	text_append(out, size, &used, "%s to move\nfen %s", pos->side == BLACK ? "Black" : "White", fen);
}

/* The process side: stdin in this thread, flushed lines on stdout. */

static void write_file(const char *line, void *user)
{
	FILE *out = user;
	fputs(line, out);
	fputc('\n', out);
	fflush(out);
}

int protocol_run(int in_fd, FILE *out, const ProtocolConfig *config)
{
	LineReader reader;
	if (!linereader_init(&reader, in_fd))
		return 1;
	Protocol *p = protocol_create(config, write_file, out);
	if (!p) {
		linereader_free(&reader);
		return 1;
	}
	if (config->interactive)
		protocol_greet(p);
	for (;;) {
		const char *line;
		size_t length;
		LineStatus status = linereader_next(&reader, &line, &length);
		if (status == LINE_TOO_LONG) {
			errorf(p, "line too long (more than %d bytes), ignored", HUBLINE_MAX_LENGTH);
			continue;
		}
		if (status != LINE_OK)
			break; /* end of input: the GUI is gone, stop at once */
		if (!protocol_handle_line(p, line, length))
			break;
	}
	protocol_destroy(p);
	linereader_free(&reader);
	return 0;
}

int cli_protocol(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: poolshark [hub]\n");
		return CLI_USAGE;
	}
	/* A GUI that dies closes the pipe; writing to it must fail, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	ProtocolConfig config;
	protocol_default_config(&config);
	config.interactive = isatty(STDIN_FILENO) != 0;
	return protocol_run(STDIN_FILENO, stdout, &config) ? CLI_FAILURE : CLI_OK;
}
