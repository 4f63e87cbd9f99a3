/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make-openings: every distinct position a few plies from the start, minus those an engine calls lost. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hubclient.h"
#include "poolshark/clock.h"
#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/position.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"
#include "cmdline.h"
#include "signals.h"

enum { MAX_OPENINGS = 100000, SEARCH_TIMEOUT_MS = 120000 };

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
	while (clock_now_ms() < deadline && !*e->interrupt) {
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

typedef struct Settings {
	Variant variant;
	long long plies, depth;
	double max_score, min_score;
	const char *engine; /* NULL: keep every position */
} Settings;

/* The options into *s (its defaults first); false with the exit status. */
static bool parse_options(int argc, char **argv, Settings *s, int *status)
{
	*s = (Settings){.variant = VARIANT_POOL, .plies = 3, .depth = 8, .max_score = 0.6};
	const CmdlineOption options[] = {
	    cmdline_variant("variant", &s->variant, "the rules and their start (default pool)"),
	    cmdline_long("plies", "N", &s->plies, 0, 12, "plies from the start (default 3)"),
	    cmdline_text("engine", "COMMAND", &s->engine, "a Hub engine that scores each position"),
	    cmdline_long("depth", "D", &s->depth, 1, 100, "the engine's depth (default 8)"),
	    cmdline_decimal("max-score", "MEN", &s->max_score, 0, 100,
	                    "the largest score kept, either way (default 0.6)"),
	    cmdline_decimal("min-score", "MEN", &s->min_score, 0, 100,
	                    "the smallest score kept, either way (default 0)"),
	};
	const Cmdline cmdline = {
	    .program = "make-openings",
	    .synopsis =
	        "usage: make-openings [--variant " VARIANT_CHOICES "] [--plies N] [--engine COMMAND]\n"
	        "                     [--depth D] [--max-score MEN] [--min-score MEN]\n"
	        "\n"
	        "Prints one FEN per line: every distinct position N plies from the\n"
	        "variant's start, in move generator order. With --engine (a Hub engine, e.g.\n"
	        "./poolshark) each position is searched to depth D and kept only when the\n"
	        "score is within --max-score of equal and at least --min-score from it: a\n"
	        "--min-score above 0 makes a set of unbalanced openings, each giving one\n"
	        "side an edge.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	if (s->min_score > s->max_score)
		*status = cmdline_fail(&cmdline,
		                       "--min-score %.2f is above --max-score %.2f: no position can be kept",
		                       s->min_score, s->max_score);
	else if (s->min_score > 0 && !s->engine)
		*status = cmdline_fail(&cmdline, "--min-score needs --engine, which scores the positions");
	else
		return true;
	return false;
}

/* The two comment lines that open the file: what it holds, and the command that remakes it. */
static void print_header(const Settings *s, int count, const char *engine_name)
{
	printf("# %d distinct positions %lld plies from the %s start", count, s->plies,
	       variant_rules(s->variant)->title);
	if (s->engine && s->min_score > 0)
		printf(", kept when `%s` at depth %lld scores from %.2f to %.2f either way", engine_name,
		       s->depth, s->min_score, s->max_score);
	else if (s->engine)
		printf(", kept when `%s` at depth %lld scores within %.2f", engine_name, s->depth,
		       s->max_score);
	bool pool = s->variant == VARIANT_POOL;
	const char *name = variant_rules(s->variant)->name;
	printf("\n# remake: make-openings");
	if (!pool)
		printf(" --variant %s", name);
	printf(" --plies %lld", s->plies);
	if (s->engine)
		printf(" --engine ./poolshark --depth %lld --max-score %.2f", s->depth, s->max_score);
	if (s->min_score > 0)
		printf(" --min-score %.2f", s->min_score);
	printf(" > tools/data/openings%s%s%s.fen\n", pool ? "" : "-", pool ? "" : name,
	       s->min_score > 0 ? "-unbalanced" : "");
}

static int run(int argc, char **argv)
{
	Settings s;
	int status = 0;
	if (!parse_options(argc, argv, &s, &status))
		return status;
	Collection c = {0, malloc(MAX_OPENINGS * sizeof(Position))};
	Position start;
	if (!c.positions)
		return 1;
	position_start_variant(&start, s.variant);
	collect(&start, (int)s.plies, &c);

	HubEngine e;
	char error[HUB_LINE_MAX];
	hub_engine_init(&e);
	volatile const sig_atomic_t *interrupted = signals_catch_stop();
	HubParam params[] = {{"variant", variant_rules(s.variant)->name}};
	int param_count = s.variant == VARIANT_POOL ? 0 : 1; /* pool: any Hub engine */
	bool spawned = s.engine && hub_engine_spawn(&e, s.engine, error, sizeof error);
	e.interrupt = interrupted; /* spawning cleared it */
	if (s.engine &&
	    (!spawned || !hub_engine_handshake(&e, params, param_count, 10000, error, sizeof error))) {
		fprintf(stderr, "make-openings: %s: %s\n", s.engine, error);
		hub_engine_stop(&e, 500);
		free(c.positions);
		return *interrupted ? 130 : 1;
	}
	print_header(&s, c.count, e.name[0] ? e.name : s.engine);
	int kept = 0;
	for (int i = 0; i < c.count && !*interrupted; i++) {
		char fen[NOTATION_FEN_MAX];
		double score = 0;
		notation_write_fen(&c.positions[i], fen, sizeof fen);
		if (s.engine) {
			if (!engine_score(&e, &c.positions[i], s.depth, &score)) {
				if (*interrupted)
					break;
				fprintf(stderr, "make-openings: no score for %s\n", fen);
				status = 1;
				break;
			}
			if (fabs(score) > s.max_score || fabs(score) < s.min_score) {
				fprintf(stderr, "dropped %s (score %+.2f)\n", fen, score);
				continue;
			}
		}
		printf("%s\n", fen);
		kept++;
	}
	if (*interrupted) {
		fprintf(stderr, "make-openings: interrupted\n");
		status = 130;
	} else {
		fprintf(stderr, "make-openings: kept %d of %d positions\n", kept, c.count);
	}
	/* A search still running is not waited for: the engine is ended. */
	hub_engine_stop(&e, *interrupted ? 100 : 1000);
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
