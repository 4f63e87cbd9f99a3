/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A tiny Hub engine for the match tests: a deterministic random mover that can misbehave on cue. */
#include <bsd/stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/position.h"

/*
 * usage: hub_toy [--fault none|illegal|crash|silent|slow|flood|no-done|mute-hub] [--at N] [--score S]
 *
 * It plays a move chosen from the position's key and the `seed` parameter,
 * so two runs of the same game are the same. With a fault it misbehaves on
 * its N-th `go` of every game (default the first): `illegal` answers
 * `done move=1-2` (two squares that are never adjacent), `crash` aborts,
 * `silent` stops answering anything (ping included) and, once silent, does
 * not even leave when its stdin closes (only a kill ends it),
 * `slow` sleeps past the time it was given, then answers, `flood` sends
 * `info` lines every 10 ms without end and never `done` (nor reads again),
 * `no-done` never answers that `go` but goes on answering `ping`, as an
 * engine whose search thread is stuck does, and `mute-hub` answers nothing
 * from the start, not even `hub` (and, like `silent`, outlives its
 * stdin). --score makes
 * every `info` report that score (side to move's view), so a referee's
 * score adjudication can be tested.
 */
typedef enum Fault {
	FAULT_NONE,
	FAULT_ILLEGAL,
	FAULT_CRASH,
	FAULT_SILENT,
	FAULT_SLOW,
	FAULT_FLOOD,
	FAULT_NO_DONE,
	FAULT_MUTE_HUB,
	FAULT_COUNT
} Fault;

typedef struct Toy {
	Fault fault;
	long long fault_at;
	long long goes; /* `go` commands since the last new-game */
	long long seed;
	const char *score;
	double budget; /* seconds: move-time, or the clock */
	bool silenced;
	bool stuck; /* no-done: thinking for ever, answering only ping */
	Position position;
} Toy;

static void reply(const char *line)
{
	fputs(line, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

static void sleep_seconds(double s)
{
	struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&t, NULL);
}

static bool set_position(Toy *toy, const HubLine *line)
{
	const char *text = hubline_value(line, "pos"), *moves = hubline_value(line, "moves");
	char error[NOTATION_ERROR_MAX], word[NOTATION_MOVE_MAX];
	Position p;
	if (!text || !notation_parse_hub_position(text, VARIANT_POOL, &p, error, sizeof error))
		return false;
	while (moves && *moves) {
		size_t n = strcspn(moves, " ");
		Move m;
		if (n >= sizeof word)
			return false;
		if (n > 0) {
			memcpy(word, moves, n);
			word[n] = '\0';
			if (notation_parse_move(&p, word, &m, error, sizeof error) != MOVE_PARSE_OK)
				return false;
			position_make(&p, m, &p);
		}
		moves += n;
		moves += strspn(moves, " ");
	}
	toy->position = p;
	return true;
}

static void think(Toy *toy)
{
	MoveList list;
	char text[NOTATION_MOVE_MAX], line[160];
	toy->goes++;
	bool fault = toy->fault != FAULT_NONE && toy->goes == toy->fault_at;
	if (fault && toy->fault == FAULT_CRASH)
		abort();
	if (fault && toy->fault == FAULT_SILENT) {
		toy->silenced = true;
		return;
	}
	if (fault && toy->fault == FAULT_FLOOD) {
		for (long long n = 1;; n++) {
			snprintf(line, sizeof line, "info depth=%lld score=0.00 nodes=%lld", n, n * 1000);
			reply(line);
			sleep_seconds(0.01);
		}
	}
	if (fault && toy->fault == FAULT_NO_DONE) {
		toy->stuck = true;
		return;
	}
	if (fault && toy->fault == FAULT_SLOW)
		sleep_seconds(toy->budget * 3 + 0.5);
	if (fault && toy->fault == FAULT_ILLEGAL) {
		reply("done move=1-2");
		return;
	}
	int count = movegen_generate(&toy->position, &list);
	if (count == 0) {
		reply("done move=\"\"");
		return;
	}
	/* A mix of key and seed picks the move: random-looking, repeatable. */
	uint64_t h = (toy->position.key ^ (uint64_t)toy->seed * 0x9e3779b97f4a7c15u) * 0xbf58476d1ce4e5b9u;
	Move m = list.moves[(h >> 32) % (uint64_t)count];
	notation_write_move_hub(m, position_variant(&toy->position), text, sizeof text);
	snprintf(line, sizeof line, "info depth=1 score=%s nodes=%d time=0.00", toy->score, count);
	reply(line);
	snprintf(line, sizeof line, "done move=%s", text);
	reply(line);
}

static bool parse_args(Toy *toy, int argc, char **argv)
{
	const char *problem = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *value = argv[i + 1];
		if (!strcmp(argv[i], "--fault")) {
			static const char *const names[FAULT_COUNT] = {
			    "none", "illegal", "crash", "silent", "slow", "flood", "no-done", "mute-hub"};
			toy->fault = (Fault)-1;
			for (int f = 0; f < FAULT_COUNT; f++)
				if (!strcmp(value, names[f]))
					toy->fault = (Fault)f;
			if ((int)toy->fault < 0)
				return false;
		} else if (!strcmp(argv[i], "--at")) {
			toy->fault_at = strtonum(value, 1, 100000, &problem);
			if (problem)
				return false;
		} else if (!strcmp(argv[i], "--score")) {
			toy->score = value;
		} else {
			return false;
		}
	}
	return argc % 2 == 1;
}

int main(int argc, char **argv)
{
	Toy toy = {.fault = FAULT_NONE, .fault_at = 1, .score = "0.00", .budget = 1.0};
	LineReader reader;
	const char *text;
	size_t length;
	char error[HUBLINE_ERROR_MAX];

	if (!parse_args(&toy, argc, argv)) {
		fprintf(
		    stderr,
		    "usage: hub_toy [--fault none|illegal|crash|silent|slow|flood|no-done|mute-hub] [--at N] "
		    "[--score S]\n");
		return 2;
	}
	toy.silenced = toy.fault == FAULT_MUTE_HUB;
	position_start(&toy.position);
	if (!linereader_init(&reader, STDIN_FILENO))
		return 1;
	for (;;) {
		LineStatus status = linereader_next(&reader, &text, &length);
		if (status == LINE_EOF || status == LINE_READ_ERROR) {
			while (toy.silenced)
				pause();
			break;
		}
		if (status != LINE_OK || toy.silenced)
			continue;
		char *copy = strdup(text);
		HubLine line;
		if (!copy)
			break;
		if (!hubline_parse(copy, &line, error, sizeof error) || !line.command) {
			free(copy);
			continue;
		}
		const char *v;
		if (toy.stuck && strcmp(line.command, "ping") && strcmp(line.command, "quit")) {
			free(copy);
			continue;
		}
		if (!strcmp(line.command, "hub")) {
			reply("id name=hub-toy version=1 author=poolshark");
			reply("param name=seed value=0 type=int min=0 max=1000000");
			reply("wait");
		} else if (!strcmp(line.command, "set-param")) {
			const char *name = hubline_value(&line, "name");
			v = hubline_value(&line, "value");
			const char *problem = "unknown option";
			if (name && v && !strcmp(name, "seed"))
				toy.seed = strtonum(v, 0, 1000000, &problem);
			if (problem)
				reply("error message=\"set-param: unknown option or bad value\"");
		} else if (!strcmp(line.command, "init")) {
			reply("ready");
		} else if (!strcmp(line.command, "new-game")) {
			toy.goes = 0;
		} else if (!strcmp(line.command, "pos")) {
			if (!set_position(&toy, &line))
				reply("error message=\"bad position\"");
		} else if (!strcmp(line.command, "level")) {
			if ((v = hubline_value(&line, "move-time")) || (v = hubline_value(&line, "time")))
				toy.budget = atof(v);
		} else if (!strcmp(line.command, "go")) {
			think(&toy);
		} else if (!strcmp(line.command, "ping")) {
			reply("pong");
		} else if (!strcmp(line.command, "quit")) {
			free(copy);
			break;
		}
		free(copy);
	}
	linereader_free(&reader);
	return 0;
}
