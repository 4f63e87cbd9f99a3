/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The multipv option and go's searchmoves, through the real binary over pipes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/clock.h"
#include "hubclient.h"

enum { LINES_MAX = 16, MOVE_TEXT = 32, LINE_CAP = HUB_LINE_MAX, FENS_MAX = 128 };

/* The lines of the last iteration of a search: first move and score. */
typedef struct Lines {
	int count;
	int depth;
	int number[LINES_MAX]; /* multipv=, 0 when absent */
	char move[LINES_MAX][MOVE_TEXT];
	double score[LINES_MAX];
	char done[MOVE_TEXT]; /* done's move */
} Lines;

static void spawn(HubEngine *e)
{
	const char *bin = getenv("POOLSHARK_BIN");
	char command[1024], error[256];
	snprintf(command, sizeof command, "%s hub", bin ? bin : "./poolshark");
	hub_engine_init(e);
	if (!hub_engine_spawn(e, command, error, sizeof error))
		fail_msg("spawn: %s", error);
}

static void send_line(HubEngine *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void send_line(HubEngine *e, const char *format, ...)
{
	char line[LINE_CAP];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof line, format, args);
	va_end(args);
	if (!hub_engine_send(e, line))
		fail_msg("engine gone while sending '%s'", line);
}

/* The next line that starts with `command` (within 20 s). */
static void expect(HubEngine *e, const char *command, char *out, size_t size)
{
	int64_t deadline = clock_now_ms() + 20000;
	for (;;) {
		int left = (int)(deadline - clock_now_ms());
		if (hub_engine_read_line(e, out, size, left > 0 ? left : 0) != HUB_READ_LINE)
			fail_msg("no '%s' line", command);
		if (!strncmp(out, command, strlen(command)))
			return;
	}
}

/* The value of `key=` in a Hub line (quotes dropped), or "" . */
static void value_of(const char *line, const char *key, char *out, size_t size)
{
	char pattern[64];
	snprintf(pattern, sizeof pattern, " %s=", key);
	const char *v = strstr(line, pattern);
	out[0] = '\0';
	if (!v)
		return;
	v += strlen(pattern);
	size_t n = *v == '"' ? strcspn(++v, "\"") : strcspn(v, " ");
	snprintf(out, size, "%.*s", (int)n, v);
}

/* Sends `go think` (with `extra` appended) and reads the info lines up to
 * done; keeps the lines of the deepest iteration. */
static void search(HubEngine *e, const char *extra, Lines *out)
{
	char line[LINE_CAP], text[LINE_CAP];
	memset(out, 0, sizeof *out);
	send_line(e, "go think%s", extra);
	for (;;) {
		expect(e, "", line, sizeof line);
		if (!strncmp(line, "done", 4)) {
			value_of(line, "move", out->done, sizeof out->done);
			return;
		}
		if (strncmp(line, "info ", 5))
			continue;
		value_of(line, "depth", text, sizeof text);
		int depth = atoi(text);
		if (depth > out->depth) {
			out->depth = depth;
			out->count = 0;
		}
		assert_true(out->count < LINES_MAX);
		int k = out->count++;
		value_of(line, "multipv", text, sizeof text);
		out->number[k] = atoi(text);
		value_of(line, "score", text, sizeof text);
		out->score[k] = atof(text);
		value_of(line, "pv", text, sizeof text);
		snprintf(out->move[k], MOVE_TEXT, "%.*s", (int)strcspn(text, " "), text);
	}
}

/* The number of legal moves of the position set. */
static int legal_count(HubEngine *e)
{
	char line[LINE_CAP], value[32];
	send_line(e, "legal");
	for (;;) {
		expect(e, "legal", line, sizeof line);
		if (strstr(line, " count=")) {
			value_of(line, "count", value, sizeof value);
			return atoi(value);
		}
	}
}

/* The positions of the bench (bench/positions.fen), read in order. */
static int bench_fens(char fens[][128], int max)
{
	FILE *f = fopen("bench/positions.fen", "r");
	assert_non_null(f);
	char line[256];
	int n = 0;
	while (n < max && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			snprintf(fens[n++], 128, "%.127s", line);
	}
	fclose(f);
	return n;
}

/* At depth 8, multipv=3: three lines (fewer when the position has fewer
 * moves), their first moves distinct, best first, each numbered, and done
 * plays line 1's move; with multipv above the number of legal moves, one
 * line a move. */
static void test_lines_are_distinct_numbered_and_ordered(void **state)
{
	(void)state;
	static char fens[FENS_MAX][128];
	int n = bench_fens(fens, FENS_MAX);
	assert_true(n >= 20);
	HubEngine e;
	spawn(&e);
	send_line(&e, "set-param name=multipv value=3");
	for (int i = 0; i < n; i += 3) {
		send_line(&e, "new-game");
		send_line(&e, "pos fen=%s", fens[i]);
		int legal = legal_count(&e);
		send_line(&e, "level depth=8");
		Lines l;
		search(&e, "", &l);
		int expected = legal < 3 ? legal : 3;
		if (l.count != expected)
			fail_msg("%s: %d lines at depth %d, expected %d", fens[i], l.count, l.depth,
			         expected);
		for (int k = 0; k < l.count; k++) {
			assert_int_equal(l.number[k], k + 1);
			for (int j = 0; j < k; j++)
				if (!strcmp(l.move[j], l.move[k]))
					fail_msg("%s: lines %d and %d both start with %s", fens[i], j + 1,
					         k + 1, l.move[k]);
			if (k > 0 && l.score[k] > l.score[k - 1])
				fail_msg("%s: line %d scores %.2f above line %d's %.2f", fens[i], k + 1,
				         l.score[k], k, l.score[k - 1]);
		}
		assert_string_equal(l.done, l.move[0]);
	}
	/* The start has seven moves: multipv=10 gives seven lines. */
	send_line(&e, "set-param name=multipv value=10");
	send_line(&e, "pos start");
	send_line(&e, "level depth=4");
	Lines l;
	search(&e, "", &l);
	assert_int_equal(l.count, 7);
	hub_engine_stop(&e, 2000);
}

/*
 * Each line's score is exact: the score of a search of that move alone
 * (go searchmoves=M) at the same depth from the same empty table and
 * history. Compared at depth 2, in every bench position: deeper, the
 * table and the history each search leaves behind shape the other's tree
 * (as in any alpha-beta engine), so that the two searches no longer see
 * the same tree. A line scored as a by-product of the first line's window
 * (a bound) would differ here.
 */
static void test_scores_equal_each_move_searched_alone(void **state)
{
	(void)state;
	static char fens[FENS_MAX][128];
	int n = bench_fens(fens, FENS_MAX);
	HubEngine e;
	spawn(&e);
	int compared = 0;
	for (int i = 0; i < n; i++) {
		Lines lines;
		send_line(&e, "set-param name=multipv value=3");
		send_line(&e, "new-game");
		send_line(&e, "pos fen=%s", fens[i]);
		send_line(&e, "level depth=2");
		search(&e, "", &lines);
		send_line(&e, "set-param name=multipv value=1");
		for (int k = 0; k < lines.count; k++) {
			Lines alone;
			char extra[128];
			send_line(&e, "new-game");
			send_line(&e, "pos fen=%s", fens[i]);
			send_line(&e, "level depth=2");
			snprintf(extra, sizeof extra, " searchmoves=%s", lines.move[k]);
			search(&e, extra, &alone);
			assert_int_equal(alone.count, 1);
			assert_int_equal(alone.number[0], 0); /* one line: not numbered */
			assert_string_equal(alone.done, lines.move[k]);
			if (alone.score[0] != lines.score[k])
				fail_msg("%s: line %d (%s) scores %.2f, the move alone %.2f", fens[i], k + 1,
				         lines.move[k], lines.score[k], alone.score[0]);
			compared++;
		}
	}
	assert_true(compared >= 2 * n);
	hub_engine_stop(&e, 2000);
}

/* multipv is checked like any option; searchmoves names a bad move, and the
 * go ends with a bare done. */
static void test_bad_values_are_named(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	char line[LINE_CAP];
	send_line(&e, "set-param name=multipv value=11");
	expect(&e, "error", line, sizeof line);
	assert_non_null(strstr(line, "multipv=11"));
	send_line(&e, "get multipv");
	expect(&e, "get", line, sizeof line);
	assert_string_equal(line, "get name=multipv value=1");
	send_line(&e, "pos start");
	send_line(&e, "go think searchmoves=\"11-15 9-17\"");
	expect(&e, "error", line, sizeof line);
	assert_non_null(strstr(line, "searchmoves: illegal move 9-17"));
	expect(&e, "done", line, sizeof line);
	assert_string_equal(line, "done");
	/* Two moves asked for: the best of them is played. */
	send_line(&e, "level depth=6");
	Lines l;
	search(&e, " searchmoves=\"12-16 9-14\"", &l);
	assert_true(!strcmp(l.done, "12-16") || !strcmp(l.done, "9-14"));
	hub_engine_stop(&e, 2000);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lines_are_distinct_numbered_and_ordered),
	    cmocka_unit_test(test_scores_equal_each_move_searched_alone),
	    cmocka_unit_test(test_bad_values_are_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
