/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-match: engine-vs-engine matches between Hub engines, refereed by the rules library. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "match.h"
#include "poolshark/number.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

static const char usage_text[] =
    "usage: pool-match --engine cmd=COMMAND [name=NAME] [option=KEY=VALUE ...] [LIMIT]\n"
    "                  --engine cmd=COMMAND ... --games N [--concurrency J]\n"
    "                  (--tc SECONDS+INCREMENT | --movetime S | --depth D | --nodes N)\n"
    "                  --openings FILE [--pdn OUT.pdn] [--seed S] [--shard K/N]\n"
    "                  [--variant " VARIANT_CHOICES "]\n"
    "                  [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]\n"
    "                  [--margin S] [--stall-timeout S] [--move-timeout S] [--max-moves N]\n"
    "                  [--adjudicate score=MEN moves=N] [--no-comments]\n"
    "       pool-match --summarize A.pdn [B.pdn ...] [--sprt ...]\n"
    "\n"
    "Per-engine LIMIT (tc=, movetime=, depth=, nodes=) overrides the common one.\n"
    "Each opening is played twice, colours reversed; the first engine has Black\n"
    "in odd rounds. Elo, LOS and the SPRT are from the first engine's side.\n";

/* Set by the signal handler only; the workers poll it. */
static volatile sig_atomic_t interrupted;

static void on_signal(int signal_number)
{
	(void)signal_number;
	interrupted = 1;
}

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

/* Reads key=value words from argv[*i] on until the next `--` option. */
static bool parse_engine(int argc, char **argv, int *i, EngineSpec *spec)
{
	memset(spec, 0, sizeof *spec);
	while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2)) {
		char *word = argv[++*i], *eq = strchr(word, '=');
		bool known;
		if (!eq) {
			fprintf(stderr, "pool-match: --engine: expected key=value, got '%s'\n", word);
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
				fprintf(stderr, "pool-match: --engine option=KEY=VALUE expected, got '%s'\n",
				        value);
				return false;
			}
			*inner = '\0';
			spec->params[spec->param_count++] = (HubParam){value, inner + 1};
		} else if (!parse_limit(word, value, &spec->limits, &known)) {
			fprintf(stderr,
			        known ? "pool-match: --engine: bad %s value '%s'\n"
			              : "pool-match: --engine: unknown key '%s' (value '%s')\n",
			        word, value);
			return false;
		}
	}
	if (!spec->command) {
		fprintf(stderr, "pool-match: --engine needs cmd=COMMAND\n");
		return false;
	}
	return true;
}

/* --sprt elo0=.. elo1=.. alpha=.. beta=.. (any subset; defaults 0 5 0.05 0.05). */
static bool parse_sprt(int argc, char **argv, int *i, SprtConfig *sprt)
{
	*sprt = (SprtConfig){0, 5, 0.05, 0.05};
	while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2)) {
		const char *word = argv[++*i];
		double v;
		const char *eq = strchr(word, '=');
		if (!eq || !parse_real(eq + 1, -1e4, 1e4, &v)) {
			fprintf(stderr, "pool-match: --sprt: bad '%s'\n", word);
			return false;
		}
		size_t n = (size_t)(eq - word);
		if (n == 4 && !strncmp(word, "elo0", 4))
			sprt->elo0 = v;
		else if (n == 4 && !strncmp(word, "elo1", 4))
			sprt->elo1 = v;
		else if (n == 5 && !strncmp(word, "alpha", 5) && v > 0 && v < 1)
			sprt->alpha = v;
		else if (n == 4 && !strncmp(word, "beta", 4) && v > 0 && v < 1)
			sprt->beta = v;
		else {
			fprintf(stderr, "pool-match: --sprt: bad '%s'\n", word);
			return false;
		}
	}
	if (sprt->elo1 <= sprt->elo0) {
		fprintf(stderr, "pool-match: --sprt needs elo1 > elo0\n");
		return false;
	}
	return true;
}

static bool parse_adjudicate(int argc, char **argv, int *i, MatchConfig *c)
{
	long long moves = 0;
	c->adjudicate_moves = 3;
	while (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2)) {
		const char *word = argv[++*i];
		if (!strncmp(word, "score=", 6) && parse_real(word + 6, 0.01, 1e4, &c->adjudicate_score))
			continue;
		if (!strncmp(word, "moves=", 6) && parse_int(word + 6, 1, 10000, &moves)) {
			c->adjudicate_moves = (int)moves;
			continue;
		}
		fprintf(stderr, "pool-match: --adjudicate: bad '%s'\n", word);
		return false;
	}
	if (c->adjudicate_score <= 0) {
		fprintf(stderr, "pool-match: --adjudicate needs score=MEN\n");
		return false;
	}
	return true;
}

static int usage(void)
{
	fputs(usage_text, stderr);
	return 2;
}

int main(int argc, char **argv)
{
	MatchConfig c = {.concurrency = 1,
	                 .shard_count = 1,
	                 .margin = 0.1,
	                 .stall_timeout = 10,
	                 .move_timeout = 300,
	                 .handshake_timeout = 10,
	                 .comments = true};
	Limits common = {LIMIT_NONE, 0, 0, 0, 0, 0};
	int engine_count = 0;
	long long v;
	bool summarize = false;
	char **files = NULL;
	int file_count = 0;

	if (version_option(argc, argv, "pool-match"))
		return textfile_exit("pool-match", 0);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		bool known;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_text, stdout);
			return textfile_exit("pool-match", 0);
		} else if (!strcmp(a, "--engine")) {
			if (engine_count == 2) {
				fprintf(stderr, "pool-match: exactly two --engine options\n");
				return 2;
			}
			if (!parse_engine(argc, argv, &i, &c.engines[engine_count++]))
				return 2;
		} else if (!strcmp(a, "--summarize")) {
			summarize = true;
			files = argv + i + 1;
			while (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
				i++;
				file_count++;
			}
		} else if (!strcmp(a, "--sprt")) {
			if (!parse_sprt(argc, argv, &i, &c.sprt))
				return 2;
			c.sprt_enabled = true;
		} else if (!strcmp(a, "--adjudicate")) {
			if (!parse_adjudicate(argc, argv, &i, &c))
				return 2;
		} else if (!strcmp(a, "--no-comments")) {
			c.comments = false;
		} else if (!next) {
			fprintf(stderr, "pool-match: %s needs a value\n", a);
			return usage();
		} else if (!strcmp(a, "--tc") || !strcmp(a, "--movetime") || !strcmp(a, "--depth") ||
		           !strcmp(a, "--nodes")) {
			if (!parse_limit(a + 2, next, &common, &known)) {
				fprintf(stderr, "pool-match: bad %s '%s'\n", a, next);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--games") && parse_int(next, 1, 10000000, &v)) {
			c.games = (int)v;
			i++;
		} else if (!strcmp(a, "--concurrency") && parse_int(next, 1, 256, &v)) {
			c.concurrency = (int)v;
			i++;
		} else if (!strcmp(a, "--openings")) {
			c.openings_path = argv[++i];
		} else if (!strcmp(a, "--pdn")) {
			c.pdn_path = argv[++i];
		} else if (!strcmp(a, "--seed") && parse_int(next, 0, LLONG_MAX, &v)) {
			c.seed = (uint64_t)v;
			c.seeded = true;
			i++;
		} else if (!strcmp(a, "--shard")) {
			long long k, n;
			char copy[64];
			snprintf(copy, sizeof copy, "%s", next);
			char *slash = strchr(copy, '/');
			if (!slash)
				return usage();
			*slash = '\0';
			if (!parse_int(slash + 1, 1, 1000000, &n) || !parse_int(copy, 1, n, &k)) {
				fprintf(stderr, "pool-match: --shard K/N with 1 <= K <= N\n");
				return 2;
			}
			c.shard_index = (int)k - 1;
			c.shard_count = (int)n;
			i++;
		} else if (!strcmp(a, "--margin") && parse_real(next, 0, 3600, &c.margin)) {
			i++;
		} else if (!strcmp(a, "--stall-timeout") && parse_real(next, 0.05, 86400, &c.stall_timeout)) {
			i++;
		} else if (!strcmp(a, "--move-timeout") && parse_real(next, 0.05, 1e7, &c.move_timeout)) {
			i++;
		} else if (!strcmp(a, "--max-moves") && parse_int(next, 1, 100000, &v)) {
			c.max_moves = (int)v;
			i++;
		} else if (!strcmp(a, "--variant") && next) {
			if (!variant_parse(next, &c.variant)) {
				fprintf(stderr, "pool-match: unknown variant '%.40s' (known: %s)\n", next,
				        VARIANT_NAMES);
				return 2;
			}
			i++;
		} else {
			fprintf(stderr, "pool-match: bad option or value: %s %s\n", a, next);
			return usage();
		}
	}

	if (summarize) {
		if (file_count == 0) {
			fprintf(stderr, "pool-match: --summarize needs at least one PDN file\n");
			return usage();
		}
		return textfile_exit("pool-match",
		                     match_summarize(files, file_count, c.sprt_enabled ? &c.sprt : NULL));
	}
	const char *missing = engine_count != 2  ? "two --engine options"
	                      : c.games == 0     ? "--games N"
	                      : !c.openings_path ? "--openings FILE"
	                                         : NULL;
	if (missing) {
		fprintf(stderr, "pool-match: a match needs %s\n", missing);
		return usage();
	}
	for (int e = 0; e < 2; e++) {
		EngineSpec *spec = &c.engines[e];
		/* The rules go first: options such as eval-file are checked
		 * against them. */
		if (c.variant != VARIANT_POOL && spec->param_count < MAX_PARAMS) {
			memmove(spec->params + 1, spec->params,
			        (size_t)spec->param_count * sizeof *spec->params);
			spec->params[0] = (HubParam){"variant", variant_rules(c.variant)->name};
			spec->param_count++;
		}
		if (c.engines[e].limits.kind == LIMIT_NONE)
			c.engines[e].limits = common;
		if (c.engines[e].limits.kind == LIMIT_NONE) {
			fprintf(stderr,
			        "pool-match: engine %d has no limit (--tc, --movetime, --depth or --nodes)\n",
			        e + 1);
			return 2;
		}
	}
	if (c.handshake_timeout < c.stall_timeout)
		c.handshake_timeout = c.stall_timeout;

	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = on_signal;
	sigemptyset(&action.sa_mask);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGHUP, &action, NULL);
	signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe: an error, not our death */
	/* What an engine's process group leaves behind comes to us to reap. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* The summary on standard output is what the user asked for: a failure
	 * to write it (a full disk, a closed pipe) is the run's failure. */
	return textfile_exit("pool-match", match_run(&c, &interrupted));
}
