/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The options table and the one way to read, write and describe an option. */
#include "poolshark/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/book.h"
#include "poolshark/nnue.h"
#include "poolshark/number.h"
#include "poolshark/search.h"
#include "poolshark/text.h"
#include "poolshark/threads.h"

/* Up to 1 TiB of table: the machine's memory is the real limit, and the
 * engine refuses a size beyond it with a message that says so. */
enum { MAX_HASH_MB = 1 << 20, MAX_MOVE_OVERHEAD_MS = 10000 };
/* A man either way: more would make the engine give up material to avoid
 * a draw, or to reach one. */
enum { MAX_CONTEMPT = 100 };

static long long get_variant(const EngineOptions *o)
{
	return o->variant;
}

static void set_variant(EngineOptions *o, long long value)
{
	o->variant = (Variant)value;
}

static long long get_hash(const EngineOptions *o)
{
	return (long long)o->hash_mb;
}

static void set_hash(EngineOptions *o, long long value)
{
	o->hash_mb = (size_t)value;
}

static long long get_move_overhead(const EngineOptions *o)
{
	return o->move_overhead_ms;
}

static void set_move_overhead(EngineOptions *o, long long value)
{
	o->move_overhead_ms = (int)value;
}

static long long get_ponder(const EngineOptions *o)
{
	return o->ponder;
}

static void set_ponder(EngineOptions *o, long long value)
{
	o->ponder = value != 0;
}

static long long get_strength(const EngineOptions *o)
{
	return o->strength;
}

static void set_strength(EngineOptions *o, long long value)
{
	o->strength = (int)value;
}

static long long get_contempt(const EngineOptions *o)
{
	return o->contempt;
}

static void set_contempt(EngineOptions *o, long long value)
{
	o->contempt = (int)value;
}

/* The endgame databases: a directory, or "none" (stored as ""). */
static const char *get_egdb_path(const EngineOptions *o)
{
	return o->egdb_path[0] ? o->egdb_path : "none";
}

static bool set_egdb_path(EngineOptions *o, const char *text, char *error, size_t size)
{
	if (strlen(text) >= sizeof o->egdb_path) {
		snprintf(error, size, "egdb-path: the path is longer than %zu characters",
		         sizeof o->egdb_path - 1);
		return false;
	}
	snprintf(o->egdb_path, sizeof o->egdb_path, "%s", strcmp(text, "none") ? text : "");
	return true;
}

static long long get_threads(const EngineOptions *o)
{
	return o->threads;
}

static void set_threads(EngineOptions *o, long long value)
{
	o->threads = (int)value;
}

static long long max_threads(void)
{
	return threads_max();
}

static const char *get_book(const EngineOptions *o)
{
	return o->book;
}

/* A book is read whole when it is set, so that a missing or damaged file
 * is refused here, with its reason, and the old setting stays. */
static bool set_book(EngineOptions *o, const char *text, char *error, size_t size)
{
	if (strlen(text) >= sizeof o->book) {
		snprintf(error, size, "book: the path is longer than %zu characters", sizeof o->book - 1);
		return false;
	}
	Book *book;
	if (!book_open(text, &book, error, size))
		return false;
	book_free(book);
	snprintf(o->book, sizeof o->book, "%s", text);
	return true;
}

static long long get_eval(const EngineOptions *o)
{
	return o->eval;
}

static void set_eval(EngineOptions *o, long long value)
{
	o->eval = (EngineEval)value;
}

static const char *get_eval_file(const EngineOptions *o)
{
	return o->eval_file;
}

/* A network file is read and checked when it is set, so that a missing or
 * damaged file is refused here with its reason and the old setting stays.
 * A network of another rule set passes: the rule set is checked where the
 * options are applied (engine_set_options(), cli_check_eval_file()), since
 * a command line may name --variant after --eval-file. */
static bool set_eval_file(EngineOptions *o, const char *text, char *error, size_t size)
{
	if (strlen(text) >= sizeof o->eval_file) {
		snprintf(error, size, "eval-file: the path is longer than %zu characters",
		         sizeof o->eval_file - 1);
		return false;
	}
	if (strcmp(text, "default")) {
		NnueNetwork *net = malloc(sizeof *net);
		char why[OPTION_ERROR_MAX - 20], other[NNUE_ERROR_MAX];
		bool ok = net && nnue_load_file(net, text, o->variant, why, sizeof why);
		for (int v = 0; net && !ok && v < VARIANT_COUNT; v++)
			ok = nnue_load_file(net, text, (Variant)v, other, sizeof other);
		free(net);
		if (!ok) {
			snprintf(error, size, "eval-file: %s", net ? why : "not enough memory");
			return false;
		}
	}
	snprintf(o->eval_file, sizeof o->eval_file, "%s", text);
	return true;
}

static long long get_multipv(const EngineOptions *o)
{
	return o->multipv;
}

static void set_multipv(EngineOptions *o, long long value)
{
	o->multipv = (int)value;
}

static const OptionDef table[] = {
    {"variant", OPTION_ENUM, 0, 0, VARIANT_NAMES, "the rules played (a change starts a new game)",
     get_variant, set_variant, NULL, NULL, NULL, NULL},
    {"hash", OPTION_INT, 1, MAX_HASH_MB, NULL, "transposition table, MiB", get_hash, set_hash, NULL, NULL,
     NULL, NULL},
    {"move-overhead", OPTION_INT, 0, MAX_MOVE_OVERHEAD_MS, NULL,
     "ms kept back from every clock budget (at most a tenth of it)", get_move_overhead, set_move_overhead,
     NULL, NULL, NULL, NULL},
    {"ponder", OPTION_BOOL, 0, 1, NULL, "whether the GUI may send go ponder", get_ponder, set_ponder, NULL,
     NULL, NULL, NULL},
    {"strength", OPTION_INT, 0, 100, NULL, "0-100: a gentler opponent below 100", get_strength, set_strength,
     NULL, NULL, NULL, NULL},
    {"egdb-path", OPTION_TEXT, 0, 0, "a directory, or none",
     "endgame database directory (doc/EGDB.md), or none", NULL, NULL, get_egdb_path, set_egdb_path, "--egdb",
     NULL},
    {"threads", OPTION_INT, 1, 0, NULL, "search threads sharing the table", get_threads, set_threads, NULL,
     NULL, NULL, max_threads},
    {"book", OPTION_TEXT, 0, 0, "off, default or a book file", "opening book: off, default or a file", NULL,
     NULL, get_book, set_book, NULL, NULL},
    {"eval", OPTION_ENUM, 0, 0, ENGINE_EVAL_NAMES, "evaluation: the hand-written classic one or the network",
     get_eval, set_eval, NULL, NULL, NULL, NULL},
    {"eval-file", OPTION_TEXT, 0, 0, "default or a network file",
     "network of eval=net: default (compiled in) or a file (doc/EVAL.md)", NULL, NULL, get_eval_file,
     set_eval_file, NULL, NULL},
    {"contempt", OPTION_INT, -MAX_CONTEMPT, MAX_CONTEMPT, NULL,
     "hundredths of a man a draw is worse than level for the engine (below 0: better)", get_contempt,
     set_contempt, NULL, NULL, NULL, NULL},
    {"multipv", OPTION_INT, 1, SEARCH_MAX_LINES, NULL,
     "lines analysed, each with an exact score (1: the best move only)", get_multipv, set_multipv, NULL, NULL,
     NULL, NULL},
};
enum { TABLE_SIZE = sizeof table / sizeof table[0] };

const OptionDef *options_at(int index)
{
	return index >= 0 && index < TABLE_SIZE ? &table[index] : NULL;
}

int options_count(void)
{
	return TABLE_SIZE;
}

const OptionDef *options_find(const char *name)
{
	for (int i = 0; i < TABLE_SIZE; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

/* The index of `word` among the space-separated `values`, or -1. */
static int enum_index(const char *values, const char *word)
{
	size_t length = strlen(word);
	int index = 0;
	for (const char *v = values; *v; index++) {
		size_t n = strcspn(v, " ");
		if (n == length && !strncmp(v, word, n))
			return index;
		v += n;
		v += strspn(v, " ");
	}
	return -1;
}

/* The index-th word of `values` into out. */
static void enum_name(const char *values, long long index, char *out, size_t size)
{
	const char *v = values;
	for (long long i = 0; i < index && *v; i++) {
		v += strcspn(v, " ");
		v += strspn(v, " ");
	}
	snprintf(out, size, "%.*s", (int)strcspn(v, " "), v);
}

long long options_max(const OptionDef *def)
{
	return def->max_now ? def->max_now() : def->max;
}

void options_format(const OptionDef *def, const EngineOptions *o, char *out, size_t size)
{
	if (def->type == OPTION_TEXT) {
		snprintf(out, size, "%s", def->get_text(o));
		return;
	}
	long long value = def->get(o);
	switch (def->type) {
	case OPTION_ENUM: enum_name(def->values, value, out, size); break;
	case OPTION_BOOL: snprintf(out, size, "%s", value ? "true" : "false"); break;
	case OPTION_INT: snprintf(out, size, "%lld", value); break;
	case OPTION_TEXT: break;
	}
}

bool options_parse(const OptionDef *def, const char *text, EngineOptions *o, char *error, size_t size)
{
	long long value = 0;
	switch (def->type) {
	case OPTION_TEXT: return def->set_text(o, text, error, size);
	case OPTION_ENUM:
		value = enum_index(def->values, text);
		if (value < 0) {
			snprintf(error, size, "%s '%.40s' is not known (values: %s)", def->name, text,
			         def->values);
			return false;
		}
		break;
	case OPTION_BOOL:
		if (!strcmp(text, "true") || !strcmp(text, "1") || !strcmp(text, "on"))
			value = 1;
		else if (strcmp(text, "false") && strcmp(text, "0") && strcmp(text, "off")) {
			snprintf(error, size, "%s must be true or false, not '%.40s'", def->name, text);
			return false;
		}
		break;
	case OPTION_INT: {
		const char *problem = number_parse(text, def->min, options_max(def), &value);
		if (problem) {
			snprintf(error, size, "%s=%.40s is %s (%lld..%lld)", def->name, text, problem,
			         def->min, options_max(def));
			return false;
		}
		break;
	}
	}
	def->set(o, value);
	return true;
}

bool options_parse_named(const char *name, const char *text, EngineOptions *o, char *error, size_t size)
{
	const OptionDef *def = options_find(name);
	if (!def) {
		char names[OPTION_ERROR_MAX];
		options_names(names, sizeof names);
		snprintf(error, size, "unknown option '%.40s' (options: %s)", name, names);
		return false;
	}
	return options_parse(def, text, o, error, size);
}

bool options_parse_flag(int argc, char **argv, int *index, EngineOptions *o, char *error, size_t size)
{
	const char *arg = argv[*index];
	const OptionDef *def = !strncmp(arg, "--", 2) ? options_find(arg + 2) : NULL;
	for (int i = 0; i < TABLE_SIZE && !def; i++)
		if (table[i].flag && !strcmp(table[i].flag, arg))
			def = &table[i];
	if (!def) {
		if (size)
			error[0] = '\0';
		return false;
	}
	char expected[OPTION_ERROR_MAX];
	options_describe_values(def, expected, sizeof expected);
	if (*index + 1 >= argc) {
		snprintf(error, size, "%s needs a value: %s", arg, expected);
		return false;
	}
	char problem[OPTION_ERROR_MAX];
	if (!options_parse(def, argv[*index + 1], o, problem, sizeof problem)) {
		if (def->type == OPTION_TEXT)
			snprintf(error, size, "%s", problem); /* names the file and the problem */
		else
			snprintf(error, size, "%s takes %s, not '%.40s'", arg, expected, argv[*index + 1]);
		return false;
	}
	*index += 1;
	return true;
}

void options_describe_values(const OptionDef *def, char *out, size_t size)
{
	switch (def->type) {
	case OPTION_ENUM: snprintf(out, size, "one of: %s", def->values); break;
	case OPTION_BOOL: snprintf(out, size, "true or false"); break;
	case OPTION_INT:
		snprintf(out, size, "a whole number from %lld to %lld", def->min, options_max(def));
		break;
	case OPTION_TEXT: snprintf(out, size, "%s", def->values); break;
	}
}

void options_names(char *out, size_t size)
{
	size_t used = 0;
	if (size)
		out[0] = '\0';
	for (int i = 0; i < TABLE_SIZE; i++)
		text_append(out, size, &used, "%s%s", i ? " " : "", table[i].name);
}
