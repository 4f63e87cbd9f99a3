/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-match: engine-vs-engine matches between Hub engines, refereed by the rules library. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "openings.h"
#include "poolshark/number.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"
#include "cmdline.h"
#include "signals.h"

static const char synopsis[] =
    "usage: pool-match --engine cmd=COMMAND [name=NAME] [option=KEY=VALUE ...] [LIMIT]\n"
    "                  --engine cmd=COMMAND ... --games N [--concurrency J]\n"
    "                  (--tc SECONDS+INCREMENT | --movetime S | --depth D | --nodes N)\n"
    "                  [--openings FILE] [--pdn OUT.pdn] [--seed S] [--shard K/N]\n"
    "                  [--variant " VARIANT_CHOICES "]\n"
    "                  [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]\n"
    "                  [--margin S] [--stall-timeout S] [--move-timeout S] [--max-moves N]\n"
    "                  [--adjudicate score=MEN moves=N] [--no-comments]\n"
    "       pool-match --summarize A.pdn [B.pdn ...] [--sprt ...]\n"
    "\n"
    "Per-engine LIMIT (tc=, movetime=, depth=, nodes=) overrides the common one.\n"
    "Without --openings, the rule set's file: tools/data/ in the source tree,\n"
    "else the installed copy's share/poolshark/.\n"
    "Each opening is played twice, colours reversed; the first engine has Black\n"
    "in odd rounds. Elo, LOS and the SPRT are from the first engine's side.\n";

/* What the command line sets beside MatchConfig. */
typedef struct Args {
	MatchConfig *config;
	Limits common; /* --tc, --movetime, --depth, --nodes: every engine's without a LIMIT */
	int engines;   /* --engine options read */
	bool summarize;
	CmdlineOperands files; /* --summarize's */
} Args;

static bool parse_real(const char *text, double low, double high, double *out)
{
	return !number_parse_decimal(text, low, high, out);
}

static bool parse_int(const char *text, long long low, long long high, long long *out)
{
	return !number_parse(text, low, high, out);
}

/* "10+0.1", "10" (no increment). */
static bool parse_tc(const char *text, Limits *out)
{
	char base[64];
	const char *plus = strchr(text, '+');
	size_t n = plus ? (size_t)(plus - text) : strlen(text);
	if (n == 0 || n >= sizeof base)
		return false;
	memcpy(base, text, n);
	base[n] = '\0';
	out->kind = LIMIT_CLOCK;
	out->increment = 0;
	return parse_real(base, 0.001, 1e7, &out->base) &&
	       (!plus || parse_real(plus + 1, 0, 1e6, &out->increment));
}

/* One limit key (tc, movetime, depth, nodes); false when `key` is none of them or the value is bad. */
static bool parse_limit(const char *key, const char *value, Limits *out, bool *known)
{
	*known = true;
	memset(out, 0, sizeof *out);
	if (!strcmp(key, "tc"))
		return parse_tc(value, out);
	if (!strcmp(key, "movetime")) {
		out->kind = LIMIT_MOVETIME;
		return parse_real(value, 0.001, 1e6, &out->move_time);
	}
	if (!strcmp(key, "depth")) {
		out->kind = LIMIT_DEPTH;
		return parse_int(value, 1, 1000, &out->depth);
	}
	if (!strcmp(key, "nodes")) {
		out->kind = LIMIT_NODES;
		return parse_int(value, 1, (long long)1e15, &out->nodes);
	}
	*known = false;
	return false;
}

/* A limit option common to both engines (--tc, --movetime, --depth, --nodes). */
static bool set_common_limit(Args *a, const char *key, const char *value, char *problem, size_t size)
{
	bool known;
	if (parse_limit(key, value, &a->common, &known))
		return true;
	snprintf(problem, size, "bad value '%s'", value);
	return false;
}

static bool set_tc(void *context, const char *value, char *problem, size_t size)
{
	return set_common_limit(context, "tc", value, problem, size);
}

static bool set_movetime(void *context, const char *value, char *problem, size_t size)
{
	return set_common_limit(context, "movetime", value, problem, size);
}

static bool set_depth(void *context, const char *value, char *problem, size_t size)
{
	return set_common_limit(context, "depth", value, problem, size);
}

static bool set_nodes(void *context, const char *value, char *problem, size_t size)
{
	return set_common_limit(context, "nodes", value, problem, size);
}

static bool set_seed(void *context, const char *value, char *problem, size_t size)
{
	MatchConfig *c = ((Args *)context)->config;
	long long seed;
	if (!cmdline_read_number(value, 0, LLONG_MAX, &seed, problem, size))
		return false;
	c->seed = (uint64_t)seed;
	c->seeded = true;
	return true;
}

/* --engine: the next engine, then its key=value words. */
static bool begin_engine(void *context, const char *value, char *problem, size_t size)
{
	Args *a = context;
	(void)value;
	if (a->engines == 2) {
		snprintf(problem, size, "a third one (a match has two engines)");
		return false;
	}
	memset(&a->config->engines[a->engines++], 0, sizeof a->config->engines[0]);
	return true;
}

static bool engine_word(void *context, char *word, char *problem, size_t size)
{
	Args *a = context;
	EngineSpec *spec = &a->config->engines[a->engines - 1];
	char *eq = strchr(word, '=');
	bool known;
	if (!eq) {
		snprintf(problem, size, "expected key=value, got '%s'", word);
		return false;
	}
	*eq = '\0';
	const char *value = eq + 1;
	if (!strcmp(word, "cmd")) {
		spec->command = value;
	} else if (!strcmp(word, "name")) {
		snprintf(spec->name, sizeof spec->name, "%s", value);
	} else if (!strcmp(word, "option")) {
		char *inner = strchr(value, '=');
		if (!inner || inner == value || spec->param_count == MAX_PARAMS) {
			snprintf(problem, size, "option=KEY=VALUE expected, got '%s'", value);
			return false;
		}
		*inner = '\0';
		spec->params[spec->param_count++] = (HubParam){value, inner + 1};
	} else if (!parse_limit(word, value, &spec->limits, &known)) {
		snprintf(problem, size, known ? "bad %s value '%s'" : "unknown key '%s' (value '%s')", word,
		         value);
		return false;
	}
	return true;
}

static bool end_engine(void *context, char *problem, size_t size)
{
	Args *a = context;
	if (a->config->engines[a->engines - 1].command)
		return true;
	snprintf(problem, size, "needs cmd=COMMAND");
	return false;
}

/* --sprt elo0=.. elo1=.. alpha=.. beta=.. (any subset; defaults 0 5 0.05 0.05). */
static bool begin_sprt(void *context, const char *value, char *problem, size_t size)
{
	MatchConfig *c = ((Args *)context)->config;
	(void)value, (void)problem, (void)size;
	c->sprt = (SprtConfig){0, 5, 0.05, 0.05};
	c->sprt_enabled = true;
	return true;
}

static bool sprt_word(void *context, char *word, char *problem, size_t size)
{
	SprtConfig *sprt = &((Args *)context)->config->sprt;
	const struct {
		const char *key;
		double *field;
		bool probability;
	} keys[] = {{"elo0", &sprt->elo0, false},
	            {"elo1", &sprt->elo1, false},
	            {"alpha", &sprt->alpha, true},
	            {"beta", &sprt->beta, true}};
	const char *eq = strchr(word, '=');
	double v;
	for (size_t k = 0; eq && k < sizeof keys / sizeof keys[0]; k++)
		if (strlen(keys[k].key) == (size_t)(eq - word) &&
		    !strncmp(word, keys[k].key, (size_t)(eq - word)) && parse_real(eq + 1, -1e4, 1e4, &v) &&
		    (!keys[k].probability || (v > 0 && v < 1))) {
			*keys[k].field = v;
			return true;
		}
	snprintf(problem, size, "bad '%s'", word);
	return false;
}

static bool end_sprt(void *context, char *problem, size_t size)
{
	const SprtConfig *sprt = &((Args *)context)->config->sprt;
	if (sprt->elo1 > sprt->elo0)
		return true;
	snprintf(problem, size, "needs elo1 > elo0");
	return false;
}

/* --adjudicate score=MEN moves=N. */
static bool begin_adjudicate(void *context, const char *value, char *problem, size_t size)
{
	(void)value, (void)problem, (void)size;
	((Args *)context)->config->adjudicate_moves = 3;
	return true;
}

static bool adjudicate_word(void *context, char *word, char *problem, size_t size)
{
	MatchConfig *c = ((Args *)context)->config;
	long long moves = 0;
	if (!strncmp(word, "score=", 6) && parse_real(word + 6, 0.01, 1e4, &c->adjudicate_score))
		return true;
	if (!strncmp(word, "moves=", 6) && parse_int(word + 6, 1, 10000, &moves)) {
		c->adjudicate_moves = (int)moves;
		return true;
	}
	snprintf(problem, size, "bad '%s'", word);
	return false;
}

static bool end_adjudicate(void *context, char *problem, size_t size)
{
	if (((Args *)context)->config->adjudicate_score > 0)
		return true;
	snprintf(problem, size, "needs score=MEN");
	return false;
}

/* The options into *c (its defaults first) and *a; false with the exit status. */
static bool parse_options(int argc, char **argv, MatchConfig *c, Args *a, int *status)
{
	*c = (MatchConfig){.concurrency = 1,
	                   .shard_count = 1,
	                   .margin = 0.1,
	                   .stall_timeout = 10,
	                   .move_timeout = 300,
	                   .handshake_timeout = 10,
	                   .comments = true};
	*a = (Args){.config = c, .common = {LIMIT_NONE, 0, 0, 0, 0, 0}};
	const CmdlineOption options[] = {
	    cmdline_words("engine", "cmd=COMMAND [name=NAME] [option=KEY=VALUE ...] [LIMIT]", begin_engine,
	                  engine_word, end_engine, "an engine; twice"),
	    cmdline_int("games", "N", &c->games, 1, 10000000, "games to play, two an opening"),
	    cmdline_int("concurrency", "J", &c->concurrency, 1, 256, "games at once (default 1)"),
	    cmdline_call("tc", "SECONDS+INCREMENT", set_tc, "a clock for each engine"),
	    cmdline_call("movetime", "S", set_movetime, "seconds a move"),
	    cmdline_call("depth", "D", set_depth, "a depth a move"),
	    cmdline_call("nodes", "N", set_nodes, "nodes a move"),
	    cmdline_text("openings", "FILE", &c->openings_path, "one FEN a line (default: the rule set's)"),
	    cmdline_text("pdn", "OUT.pdn", &c->pdn_path, "the games"),
	    cmdline_call("seed", "S", set_seed, "shuffles the openings (default: in file order)"),
	    cmdline_shard("shard", "K/N", &c->shard_index, &c->shard_count, "plays pairs K, K+N, ... only"),
	    cmdline_variant("variant", &c->variant, "the rules of every game (default pool)"),
	    cmdline_words("sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05", begin_sprt, sprt_word, end_sprt,
	                  "stops when the SPRT decides"),
	    cmdline_decimal("margin", "S", &c->margin, 0, 3600, "seconds of grace on a clock (default 0.1)"),
	    cmdline_decimal("stall-timeout", "S", &c->stall_timeout, 0.05, 86400,
	                    "ping after S silent seconds, stall after 2S (default 10)"),
	    cmdline_decimal("move-timeout", "S", &c->move_timeout, 0.05, 1e7,
	                    "the longest move without a clock (default 300)"),
	    cmdline_int("max-moves", "N", &c->max_moves, 1, 100000, "a draw after N moves each"),
	    cmdline_words("adjudicate", "score=MEN moves=N", begin_adjudicate, adjudicate_word,
	                  end_adjudicate, "a win when both engines score beyond MEN for N moves (default 3)"),
	    cmdline_off("no-comments", &c->comments, "no {score/depth time} after each move"),
	    cmdline_on("summarize", &a->summarize, "the summary of the PDN files given"),
	};
	const Cmdline cmdline = {
	    .program = "pool-match",
	    .synopsis = synopsis,
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .operands = &a->files,
	    .context = a,
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	const struct {
		bool broken;
		const char *why;
	} rules[] = {
	    {a->summarize && !a->files.count, "--summarize needs at least one PDN file"},
	    {!a->summarize && a->engines != 2, "a match needs two --engine options"},
	    {!a->summarize && c->games == 0, "a match needs --games N"},
	};
	if (!a->summarize && a->files.count) {
		*status =
		    cmdline_fail(&cmdline, "%s: not an option (a match reads no file)", a->files.words[0]);
		cmdline_operands_free(&a->files);
		return false;
	}
	const char *missing = NULL;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0] && !missing; i++)
		missing = rules[i].broken ? rules[i].why : NULL;
	if (!missing) {
		/* English plays the three-move deck, each rule set its own
		 * starts: never pool's read under other rules. */
		if (!c->openings_path)
			c->openings_path = openings_find_default(c->variant, c->openings_default,
			                                         sizeof c->openings_default);
		return true;
	}
	cmdline_operands_free(&a->files);
	*status = cmdline_fail(&cmdline, "%s", missing);
	return false;
}

/* Each engine's parameters and limit, from the common ones; false with a message. */
static bool settle_engines(MatchConfig *c, const Limits *common)
{
	for (int e = 0; e < 2; e++) {
		EngineSpec *spec = &c->engines[e];
		/* The rules go first: options such as eval-file are checked
		 * against them. */
		if (c->variant != VARIANT_POOL && spec->param_count < MAX_PARAMS) {
			memmove(spec->params + 1, spec->params,
			        (size_t)spec->param_count * sizeof *spec->params);
			spec->params[0] = (HubParam){"variant", variant_rules(c->variant)->name};
			spec->param_count++;
		}
		if (spec->limits.kind == LIMIT_NONE)
			spec->limits = *common;
		if (spec->limits.kind == LIMIT_NONE) {
			fprintf(stderr,
			        "pool-match: engine %d has no limit (--tc, --movetime, --depth or --nodes)\n",
			        e + 1);
			return false;
		}
	}
	if (c->handshake_timeout < c->stall_timeout)
		c->handshake_timeout = c->stall_timeout;
	return true;
}

int main(int argc, char **argv)
{
	MatchConfig c;
	Args a;
	int status;
	if (version_option(argc, argv, "pool-match"))
		return textfile_exit("pool-match", 0);
	if (!parse_options(argc, argv, &c, &a, &status))
		return textfile_exit("pool-match", status);
	if (a.summarize) {
		status = match_summarize(a.files.words, a.files.count, c.sprt_enabled ? &c.sprt : NULL);
		cmdline_operands_free(&a.files);
		return textfile_exit("pool-match", status);
	}
	if (!settle_engines(&c, &a.common))
		return 2;
	volatile const sig_atomic_t *interrupted = signals_catch_stop();
	/* The summary on standard output is what the user asked for: a failure
	 * to write it (a full disk, a closed pipe) is the run's failure. */
	return textfile_exit("pool-match", match_run(&c, interrupted));
}
