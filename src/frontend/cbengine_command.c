/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard front-end: enginecommand's replies (name, about, get and set of the options, gamehist, bench).
 */
#include "cbengine.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "poolshark/bench.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/options.h"
#include "poolshark/version.h"
#include "cbengine_internal.h"

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

/* Why engine_set_options() answered `set`, copied while cb->lock is held
 * (the engine's refusal text changes with its next refusal). */
static void refusal_reason(CbEngine *cb, EngineStatus set, char *out, size_t size)
{
	bool refused = set == ENGINE_BAD_EGDB || set == ENGINE_BAD_NETWORK;
	snprintf(out, size, "%s", refused ? engine_refusal_text(cb->engine) : engine_status_text(set));
}

/* The rule sets whose boards, numbers and first side have been checked
 * against CheckerBoard's own (doc/CHECKERBOARD.md): English (21) is
 * numbered and placed as pool, Italian (22) and Spanish (24) by their
 * numbering. Czech (29) is refused, by `set gametype` and `set variant`
 * alike: CheckerBoard 1.77a writes gametype 29's squares with
 * coorstonumber() but reads them back with a numbertocoors() that lands
 * two squares further on (squares 1 and 2 off its board), so no move list
 * an engine answers would be read where it was meant. */
static bool board_checked(Variant v)
{
	return v != VARIANT_CZECH;
}

static const char czech_refused[] =
    "Czech draughts (gametype 29) is not played in CheckerBoard 1.77a: its numbertocoors() reads "
    "gametype 29's square numbers two squares off (doc/CHECKERBOARD.md)";

static bool command_set(CbEngine *cb, char *args, char *reply, size_t size)
{
	char *what = next_word(&args);
	if (!what)
		return reply_text(reply, size, false, "?");
	if (strcmp(what, "gamehist") == 0)
		return command_gamehist(cb, args, reply, size);
	char *value = next_word(&args);
	if (strcmp(what, "gametype") == 0) {
		/* 23 pool, 21 English, 22 Italian, 24 Spanish, 25 Russian, 26 Brazilian: the variant option
		 * follows (a change starts a new game, as `set variant` does). */
		long long v;
		Variant variant;
		EngineOptions o;
		EngineStatus set = ENGINE_WRONG_VARIANT;
		char reason[OPTION_ERROR_MAX];
		bool known = value && !next_word(&args) && !number_parse(value, 1, 99, &v) &&
		             variant_from_game_type((int)v, &variant);
		if (known && board_checked(variant)) {
			pthread_mutex_lock(&cb->lock);
			engine_get_options(cb->engine, &o);
			o.variant = variant;
			set = engine_set_options(cb->engine, &o);
			refusal_reason(cb, set, reason, sizeof reason);
			pthread_mutex_unlock(&cb->lock);
		}
		if (set == ENGINE_OK)
			return reply_text(reply, size, true, "%lld", v);
		if (known && !board_checked(variant))
			return reply_text(reply, size, false, "error: %s", czech_refused);
		/* Rules poolshark plays, refused (a network file of other rules is set). */
		if (set != ENGINE_WRONG_VARIANT)
			return reply_text(reply, size, false, "error: gametype not set: %s", reason);
		return reply_text(
		    reply, size, false,
		    "error: poolshark plays pool checkers (gametype %d), English checkers (21), "
		    "Italian (22), Spanish (24), Russian (25) and Brazilian draughts (26)",
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
	if (parsed && !board_checked(o.variant)) {
		pthread_mutex_unlock(&cb->lock);
		return reply_text(reply, size, false, "error: %s not set: %s", what, czech_refused);
	}
	EngineStatus set = parsed ? engine_set_options(cb->engine, &o) : ENGINE_OK;
	char reason[OPTION_ERROR_MAX];
	refusal_reason(cb, set, reason, sizeof reason);
	pthread_mutex_unlock(&cb->lock);
	if (!parsed && value && option->type == OPTION_TEXT && error[0]) {
		/* A file or directory that cannot be used: its reason. */
		return reply_text(reply, size, false, "error: %s", error);
	}
	if (!parsed) {
		char values[OPTION_ERROR_MAX];
		options_describe_values(option, values, sizeof values);
		return reply_text(reply, size, false, "error: %s takes one value, %s", what, values);
	}
	if (set != ENGINE_OK)
		return reply_text(reply, size, false, "error: %s not set: %s", what, reason);
	return reply_text(reply, size, true, "%s %s", what, value);
}

/* The rules now played, as their description says them (`set gametype
 * 25` makes this Russian draughts, gametype 25), and the network's kernel
 * (getmove's status says why one POOLSHARK_KERNEL named was refused). */
static bool command_about(CbEngine *cb, char *reply, size_t size)
{
	pthread_mutex_lock(&cb->lock);
	const VariantRules *rules = variant_rules(engine_variant(cb->engine));
	pthread_mutex_unlock(&cb->lock);
	const char *refused = engine_kernel_error(cb->engine);
	return reply_text(reply, size, true,
	                  "poolshark %s\n%s (gametype %d):\n"
	                  "men capture %s, %s kings, %s,\n"
	                  "%s.\nnetwork kernel: %s%s\nGPL-3.0-or-later",
	                  poolshark_version, rules->title, rules->pdn_game_type,
	                  rules->men_capture_back ? "backward" : "forward only",
	                  rules->kings_fly ? "flying" : "short", variant_priority_text(rules->priority),
	                  rules->crown_mid_capture ? "a man crowned during a capture goes on as a king"
	                                           : "crowning only at the end of a move",
	                  engine_kernel(cb->engine),
	                  *refused ? " (POOLSHARK_KERNEL refused: see the status)" : "");
}

/*
 * `bench [DEPTH] [classic|net]`: `poolshark bench` run by this library (the
 * DLL's own code, for measuring its speed) under the rules now played, in
 * one line: depth, evaluation, kernel, nodes (the signature), time and
 * nodes per second. It takes seconds and answers when done; not during a
 * search.
 */
static bool command_bench(CbEngine *cb, char *args, char *reply, size_t size)
{
	long long depth = BENCH_DEFAULT_DEPTH;
	EngineEval eval = ENGINE_EVAL_NET;
	for (char *word; (word = next_word(&args));) {
		if (strcmp(word, "classic") == 0 || strcmp(word, "net") == 0)
			eval = word[0] == 'c' ? ENGINE_EVAL_CLASSIC : ENGINE_EVAL_NET;
		else if (number_parse(word, 1, BENCH_MAX_DEPTH, &depth))
			return reply_text(reply, size, false,
			                  "error: bench %.30s: not a depth (1..%d), classic or net", word,
			                  BENCH_MAX_DEPTH);
	}
	pthread_mutex_lock(&cb->lock);
	bool busy = engine_is_searching(cb->engine);
	Variant variant = engine_variant(cb->engine);
	pthread_mutex_unlock(&cb->lock);
	if (busy)
		return reply_text(reply, size, false, "error: bench: %s", engine_status_text(ENGINE_BUSY));
	BenchTotals totals;
	char error[ENGINE_PATH_MAX + 256];
	if (!bench_run((int)depth, variant, eval, "default", NULL, NULL, &totals, error, sizeof error))
		return reply_text(reply, size, false, "error: bench: %s", error);
	int64_t ms = totals.elapsed_ms > 0 ? totals.elapsed_ms : 1;
	return reply_text(reply, size, true,
	                  "bench depth=%d eval=%s kernel=%s nodes=%llu ms=%lld cpu-ms=%lld nps=%llu",
	                  totals.depth, eval == ENGINE_EVAL_NET ? "net" : "classic", totals.kernel,
	                  (unsigned long long)totals.nodes, (long long)totals.elapsed_ms,
	                  (long long)totals.cpu_ms, (unsigned long long)(totals.nodes * 1000 / (uint64_t)ms));
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
	if (strcmp(word, "bench") == 0)
		return command_bench(cb, args, reply, reply_size);
	return reply_text(reply, reply_size, false, "?");
}
