/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark perft` driven as a real process over pipes, with a timeout. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/perft.h"
#include "poolshark/position.h"
#include "support/reference.h"
#include "support/support.h"

enum { TIMEOUT_SECONDS = 60 };

/* `poolshark ARGS`, killed after TIMEOUT_SECONDS. */
static void run_engine(SupportExec *r, const char *const *args)
{
	support_exec(r, args, TIMEOUT_SECONDS);
}

/* A decimal number: digits with at most one '.' between digits. */
static bool is_decimal(const char *s, size_t n)
{
	bool dot = false, digits = false;
	for (size_t i = 0; i < n; i++) {
		if (isdigit((unsigned char)s[i]))
			digits = true;
		else if (s[i] == '.' && !dot && digits && i + 1 < n)
			dot = true;
		else
			return false;
	}
	return digits;
}

/* Parses exactly `depth=D leaves=N seconds=S mlps=M`; false on any other
 * shape. */
static bool parse_total_line(const char *line, int *depth, uint64_t *leaves)
{
	unsigned long long n;
	int d, used = 0;
	if (sscanf(line, "depth=%d leaves=%llu seconds=%n", &d, &n, &used) != 2 || used == 0)
		return false;
	char check[64];
	snprintf(check, sizeof check, "depth=%d leaves=%llu seconds=", d, n);
	if (strncmp(line, check, strlen(check)))
		return false; /* no signs, leading zeros or extra spaces */
	const char *s = line + used, *space = strchr(s, ' ');
	if (!space || !is_decimal(s, (size_t)(space - s)) || strncmp(space, " mlps=", 6))
		return false;
	const char *m = space + 6;
	if (!is_decimal(m, strlen(m)))
		return false;
	*depth = d;
	*leaves = n;
	return true;
}

/* Splits text into lines (in place); returns the count. */
static int split_lines(char *text, char **lines, int max)
{
	int n = 0;
	for (char *s = text; *s && n < max;) {
		char *nl = strchr(s, '\n');
		lines[n++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return n;
}

static void check_depth_lines(SupportExec *r, const uint64_t *want, int depth)
{
	char *lines[64];
	if (r->status != 0)
		fprintf(stderr, "exit %d, stderr: %s\n", r->status, r->err);
	assert_int_equal(r->status, 0);
	assert_true(strlen(r->out) > 0 && r->out[strlen(r->out) - 1] == '\n');
	int n = split_lines(r->out, lines, 64);
	assert_int_equal(n, depth);
	for (int i = 0; i < n; i++) {
		int d;
		uint64_t leaves;
		if (!parse_total_line(lines[i], &d, &leaves))
			fprintf(stderr, "bad line: \"%s\"\n", lines[i]);
		assert_true(parse_total_line(lines[i], &d, &leaves));
		assert_int_equal(d, i + 1);
		assert_int_equal(leaves, want[i + 1]);
	}
}

static const uint64_t start_leaves[] = {1, 7, 49, 302, 1469, 7482, 37986, 190146};

static void test_perft_lines(void **state)
{
	(void)state;
	static SupportExec r;
	run_engine(&r, (const char *const[]){"perft", "3", NULL});
	check_depth_lines(&r, start_leaves, 3);
}

static void test_perft_with_hash(void **state)
{
	(void)state;
	static SupportExec r;
	run_engine(&r, (const char *const[]){"perft", "--hash", "16", "6", NULL});
	check_depth_lines(&r, start_leaves, 6);
}

static void test_perft_fen(void **state)
{
	(void)state;
	static SupportExec r;
	static const uint64_t kings[] = {1, 2, 9, 13, 89, 205};
	run_engine(&r, (const char *const[]){"perft", "--fen", "B:W6,25,26,K4:B1,23", "5", NULL});
	check_depth_lines(&r, kings, 5);
	static const uint64_t blocked[] = {1, 0, 0};
	run_engine(&r, (const char *const[]){"perft", "--fen", "B:W17,22:B13", "2", NULL});
	check_depth_lines(&r, blocked, 2);
}

/* `--divide`: one `<move> <leaves>` line per root move, each move legal PDN
 * text, each count that of its subtree, then the total line. */
static void check_divide(const char *fen, int depth, uint64_t total)
{
	static SupportExec r;
	char depth_text[8];
	snprintf(depth_text, sizeof depth_text, "%d", depth);
	if (fen)
		run_engine(&r, (const char *const[]){"perft", "--divide", "--fen", fen, depth_text, NULL});
	else
		run_engine(&r, (const char *const[]){"perft", "--divide", depth_text, NULL});
	assert_int_equal(r.status, 0);
	Position p;
	if (fen)
		p = support_position(fen);
	else
		position_start(&p);
	MoveList list;
	int moves = movegen_generate(&p, &list);
	char *lines[600];
	int n = split_lines(r.out, lines, 600);
	assert_int_equal(n, moves + 1);
	uint64_t sum = 0;
	Move seen[MOVELIST_CAPACITY];
	for (int i = 0; i < moves; i++) {
		char text[NOTATION_MOVE_MAX + 1], error[NOTATION_ERROR_MAX];
		unsigned long long leaves;
		int used = 0;
		assert_int_equal(sscanf(lines[i], "%64s %llu%n", text, &leaves, &used), 2);
		assert_int_equal(lines[i][used], '\0');
		Move m;
		if (notation_parse_move(&p, text, &m, error, sizeof error) != MOVE_PARSE_OK)
			fprintf(stderr, "divide line \"%s\": %s\n", lines[i], error);
		assert_int_equal(notation_parse_move(&p, text, &m, error, sizeof error), MOVE_PARSE_OK);
		Position next;
		position_make(&p, m, &next);
		assert_int_equal(leaves, perft_count(&next, depth - 1, NULL));
		seen[i] = m;
		sum += leaves;
	}
	assert_true(support_same_moves(seen, moves, list.moves, moves)); /* each move once */
	int d;
	uint64_t leaves;
	assert_true(parse_total_line(lines[moves], &d, &leaves));
	assert_int_equal(d, depth);
	assert_int_equal(leaves, sum);
	assert_int_equal(leaves, total);
}

static void test_perft_divide(void **state)
{
	(void)state;
	check_divide(NULL, 3, 302);
	check_divide("W:WK2,19,25,26:B5,6,9,13", 3, 221);
	/* A capture position: the expected total comes from the reference. */
	const char *fen = "W:W7,9,K22,23:B16,K18,24,26";
	Position p = support_position(fen);
	RefBoard b;
	support_to_reference(&p, &b);
	check_divide(fen, 3, reference_perft(&b, 3));
}

/* --variant: the variant's start (White first) and its rules; a FEN is read
 * under them; moves of a divide are written algebraic. */
static void test_perft_variants(void **state)
{
	(void)state;
	static SupportExec r;
	static const uint64_t russian[] = {1, 7, 49, 302, 1469, 7482};
	static const uint64_t brazilian[] = {1, 7, 49, 302, 1469, 7473};
	run_engine(&r, (const char *const[]){"perft", "--variant", "russian", "5", NULL});
	check_depth_lines(&r, russian, 5);
	run_engine(&r, (const char *const[]){"perft", "--hash", "4", "--variant", "brazilian", "5", NULL});
	check_depth_lines(&r, brazilian, 5);
	/* The majority rule: of 22x31, 22x8 and 30x14 only the two-piece ones. */
	static const uint64_t majority[] = {1, 2};
	run_engine(&r, (const char *const[]){"perft", "--fen", "W:W22,30:B18,26,11", "--variant", "brazilian",
	                                     "1", NULL});
	check_depth_lines(&r, majority, 1);
	run_engine(&r, (const char *const[]){"perft", "--variant", "russian", "--fen", "W:W11:B7,9",
	                                     "--divide", "1", NULL});
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "f6:a5 1\n"));
}

/* Bad arguments: exit status 2, nothing on stdout, an error on stderr that
 * names the offending argument. */
static void check_usage_error(const char *const *args, const char *named)
{
	static SupportExec r;
	run_engine(&r, args);
	fprintf(stderr, "  %s", r.err);
	assert_int_equal(r.status, 2);
	assert_int_equal(strlen(r.out), 0);
	char *newline = strchr(r.err, '\n');
	if (newline)
		*newline = '\0'; /* the first line names the problem, not the usage */
	assert_non_null(strstr(r.err, named));
}

static void test_bad_arguments(void **state)
{
	(void)state;
	check_usage_error((const char *const[]){"perft", "--fen", "B:W33:B1", "3", NULL}, "33");
	check_usage_error((const char *const[]){"perft", "--fen", "B:W21:X1", "3", NULL}, "X1");
	check_usage_error((const char *const[]){"perft", "0", NULL}, "0");
	check_usage_error((const char *const[]){"perft", "31", NULL}, "31");
	check_usage_error((const char *const[]){"perft", "abc", NULL}, "abc");
	check_usage_error((const char *const[]){"perft", "+3", NULL}, "'+3' is not a whole number");
	check_usage_error((const char *const[]){"perft", " 3", NULL}, "' 3' is not a whole number");
	check_usage_error((const char *const[]){"perft", "--frobnicate", "3", NULL}, "--frobnicate");
	check_usage_error((const char *const[]){"perft", NULL}, "DEPTH");
	check_usage_error((const char *const[]){"perft", "--hash", "abc", "3", NULL}, "abc");
	check_usage_error((const char *const[]){"perft", "--fen", NULL}, "--fen");
	check_usage_error((const char *const[]){"perft", "--divide", "--paths", "3", NULL},
	                  "--divide and --paths: one at a time");
	check_usage_error((const char *const[]){"perft", "--variant", "checkers", "3", NULL},
	                  "unknown variant 'checkers' (known: " VARIANT_NAMES ")");
	check_usage_error((const char *const[]){"bench", "--variant", "shogi", NULL},
	                  "unknown variant 'shogi' (known: " VARIANT_NAMES ")");
	check_usage_error((const char *const[]){"analyse", "--variant", "go", "--depth", "2", NULL},
	                  "--variant takes one of: " VARIANT_NAMES ", not 'go'");
	check_usage_error((const char *const[]){"play", "--variant", "go", NULL},
	                  "--variant takes one of: " VARIANT_NAMES ", not 'go'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_perft_lines),    cmocka_unit_test(test_perft_with_hash),
	    cmocka_unit_test(test_perft_fen),      cmocka_unit_test(test_perft_divide),
	    cmocka_unit_test(test_perft_variants), cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
