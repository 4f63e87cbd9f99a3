/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make-openings: every distinct position a few plies from the start, minus those an engine calls lost. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "hubclient.h"
#include "poolshark/clock.h"
#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/position.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

static const char usage_text[] =
    "usage: make-openings [--variant " VARIANT_CHOICES "] [--plies N] [--engine COMMAND]\n"
    "                     [--depth D] [--max-score MEN] [--min-score MEN]\n"
    "\n"
    "Prints one FEN per line: every distinct position N plies (default 3) from\n"
    "the variant's start, in move generator order. With --engine (a Hub engine, e.g.\n"
    "./poolshark) each position is searched to depth D (default 8) and kept\n"
    "only when the score is within --max-score (default 0.6) of equal and at\n"
    "least --min-score (default 0) from it: a --min-score above 0 makes a set of\n"
    "unbalanced openings, each giving one side an edge.\n";

enum { MAX_OPENINGS = 100000, SEARCH_TIMEOUT_MS = 120000 };

/* Set by the signal handler only (the one place a signal can say so); the
 * waits for the engine poll it, so that the engine is ended before we go. */
static volatile sig_atomic_t interrupted;

static void on_signal(int signal_number)
{
	(void)signal_number;
	interrupted = 1;
}

typedef struct Collection {
	int count;
	Position *positions;
} Collection;

static bool seen(const Collection *c, const Position *p)
{
	for (int i = 0; i < c->count; i++)
		if (c->positions[i].key == p->key && position_equal(&c->positions[i], p))
			return true;
	return false;
}

/* Depth-first from *p; positions `plies` deep are added once each. */
static void collect(const Position *p, int plies, Collection *c)
{
	if (plies == 0) {
		if (!seen(c, p) && c->count < MAX_OPENINGS && movegen_has_moves(p))
			c->positions[c->count++] = *p;
		return;
	}
	MoveList list;
	int n = movegen_generate(p, &list);
	for (int i = 0; i < n; i++) {
		Position next;
		position_make(p, list.moves[i], &next);
		collect(&next, plies - 1, c);
	}
}

/* The engine's last `info` score (side to move's view) for *p at `depth`. */
static bool engine_score(HubEngine *e, const Position *p, long long depth, double *score)
{
	char hub[NOTATION_HUB_POSITION_MAX], line[HUB_LINE_MAX], error[HUBLINE_ERROR_MAX];
	bool have = false;
	notation_write_hub_position(p, hub, sizeof hub);
	if (!hub_engine_send(e, "new-game") || !hub_engine_sendf(e, "pos pos=%s", hub) ||
	    !hub_engine_sendf(e, "level depth=%lld", depth) || !hub_engine_send(e, "go think"))
		return false;
	int64_t deadline = clock_now_ms() + SEARCH_TIMEOUT_MS;
	while (clock_now_ms() < deadline && !interrupted) {
		HubRead r = hub_engine_read_line(e, line, sizeof line, 100);
		if (r == HUB_READ_EOF)
			return false;
		HubLine parsed;
		if (r != HUB_READ_LINE || !hubline_parse(line, &parsed, error, sizeof error) ||
		    !parsed.command)
			continue;
		if (!strcmp(parsed.command, "info")) {
			const char *s = hubline_value(&parsed, "score");
			char *end;
			if (s) {
				double v = strtod(s, &end);
				if (end != s && *end == '\0' && isfinite(v)) {
					*score = v;
					have = true;
				}
			}
		} else if (!strcmp(parsed.command, "done")) {
			return have;
		}
	}
	return false;
}

static int run(int argc, char **argv)
{
	long long plies = 3, depth = 8;
	double max_score = 0.6, min_score = 0;
	const char *engine = NULL, *problem = NULL;
	Variant variant = VARIANT_POOL;

	for (int i = 1; i < argc; i++) {
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (!next) {
			bool known = !strcmp(argv[i], "--plies") || !strcmp(argv[i], "--depth") ||
			             !strcmp(argv[i], "--variant") || !strcmp(argv[i], "--engine") ||
			             !strcmp(argv[i], "--max-score") || !strcmp(argv[i], "--min-score");
			fprintf(stderr, "make-openings: %s: %s\n%s", argv[i],
			        known ? "needs a value" : "unknown option", usage_text);
			return 2;
		}
		if (!strcmp(argv[i], "--plies")) {
			problem = number_parse(next, 0, 12, &plies);
		} else if (!strcmp(argv[i], "--depth")) {
			problem = number_parse(next, 1, 100, &depth);
		} else if (!strcmp(argv[i], "--variant")) {
			if (!variant_parse(next, &variant))
				problem = "unknown variant (known: " VARIANT_NAMES ")";
		} else if (!strcmp(argv[i], "--engine")) {
			engine = next;
		} else if (!strcmp(argv[i], "--max-score")) {
			if (number_parse_decimal(next, 0, 100, &max_score))
				problem = "not a score from 0 to 100";
		} else if (!strcmp(argv[i], "--min-score")) {
			if (number_parse_decimal(next, 0, 100, &min_score))
				problem = "not a score from 0 to 100";
		} else {
			problem = "unknown option";
		}
		if (problem) {
			fprintf(stderr, "make-openings: %s %s: %s\n%s", argv[i], next, problem, usage_text);
			return 2;
		}
		i++;
	}

	if (min_score > max_score) {
		fprintf(
		    stderr,
		    "make-openings: --min-score %.2f is above --max-score %.2f: no position can be kept\n%s",
		    min_score, max_score, usage_text);
		return 2;
	}
	if (min_score > 0 && !engine) {
		fprintf(stderr, "make-openings: --min-score needs --engine, which scores the positions\n%s",
		        usage_text);
		return 2;
	}

	Collection c = {0, malloc(MAX_OPENINGS * sizeof(Position))};
	Position start;
	if (!c.positions)
		return 1;
	position_start_variant(&start, variant);
	collect(&start, (int)plies, &c);

	HubEngine e;
	char error[HUB_LINE_MAX];
	hub_engine_init(&e);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1); /* see hub_engine_kill() */
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = on_signal;
	sigemptyset(&action.sa_mask);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGHUP, &action, NULL);
	HubParam params[] = {{"variant", variant_rules(variant)->name}};
	int param_count = variant == VARIANT_POOL ? 0 : 1; /* pool: any Hub engine */
	bool spawned = engine && hub_engine_spawn(&e, engine, error, sizeof error);
	e.interrupt = &interrupted; /* spawning cleared it */
	if (engine &&
	    (!spawned || !hub_engine_handshake(&e, params, param_count, 10000, error, sizeof error))) {
		fprintf(stderr, "make-openings: %s: %s\n", engine, error);
		hub_engine_stop(&e, 500);
		free(c.positions);
		return interrupted ? 130 : 1;
	}
	printf("# %d distinct positions %lld plies from the %s start", c.count, plies,
	       variant_rules(variant)->title);
	if (engine && min_score > 0)
		printf(", kept when `%s` at depth %lld scores from %.2f to %.2f either way",
		       e.name[0] ? e.name : engine, depth, min_score, max_score);
	else if (engine)
		printf(", kept when `%s` at depth %lld scores within %.2f", e.name[0] ? e.name : engine,
		       depth, max_score);
	const char *name = variant_rules(variant)->name;
	printf("\n# remake: make-openings");
	if (variant != VARIANT_POOL)
		printf(" --variant %s", name);
	printf(" --plies %lld", plies);
	if (engine)
		printf(" --engine ./poolshark --depth %lld --max-score %.2f", depth, max_score);
	if (min_score > 0)
		printf(" --min-score %.2f", min_score);
	printf(" > tools/data/openings%s%s%s.fen\n", variant == VARIANT_POOL ? "" : "-",
	       variant == VARIANT_POOL ? "" : name, min_score > 0 ? "-unbalanced" : "");
	int kept = 0, status = 0;
	for (int i = 0; i < c.count && !interrupted; i++) {
		char fen[NOTATION_FEN_MAX];
		double score = 0;
		notation_write_fen(&c.positions[i], fen, sizeof fen);
		if (engine) {
			if (!engine_score(&e, &c.positions[i], depth, &score)) {
				if (interrupted)
					break;
				fprintf(stderr, "make-openings: no score for %s\n", fen);
				status = 1;
				break;
			}
			if (fabs(score) > max_score || fabs(score) < min_score) {
				fprintf(stderr, "dropped %s (score %+.2f)\n", fen, score);
				continue;
			}
		}
		printf("%s\n", fen);
		kept++;
	}
	if (interrupted) {
		fprintf(stderr, "make-openings: interrupted\n");
		status = 130;
	} else {
		fprintf(stderr, "make-openings: kept %d of %d positions\n", kept, c.count);
	}
	/* A search still running is not waited for: the engine is ended. */
	hub_engine_stop(&e, interrupted ? 100 : 1000);
	free(c.positions);
	return status;
}

/* The results go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "make-openings"))
		return textfile_exit("make-openings", 0);
	return textfile_exit("make-openings", run(argc, argv));
}
