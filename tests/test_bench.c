/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark bench` and `analyse` through the real binary: signature, format, errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "poolshark/clock.h"
#include "poolshark/bench.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/timeman.h"
#include "support/support.h"

enum { TIMEOUT_SECONDS = 60 };

/* `poolshark ARGS`, killed after a minute. */
static void run_engine(SupportExec *r, const char *const *args)
{
	support_exec(r, args, TIMEOUT_SECONDS);
}

/* The number after `key` on the line that starts with it, or -1. */
static long long number_after(const char *text, const char *key)
{
	const char *at = strstr(text, key);
	return at ? strtoll(at + strlen(key), NULL, 10) : -1;
}

/* The output ends with the two signature lines, in this order. */
static void check_tail(const SupportExec *r)
{
	assert_true(r->out_length >= 2 && r->out[r->out_length - 1] == '\n');
	const char *last = r->out + r->out_length - 1;
	while (last > r->out && last[-1] != '\n')
		last--;
	assert_true(last > r->out);
	const char *previous = last - 1;
	while (previous > r->out && previous[-1] != '\n')
		previous--;
	assert_int_equal(strncmp(previous, "Nodes searched: ", 16), 0);
	assert_int_equal(strncmp(last, "Nodes/second: ", 14), 0);
}

static void test_bench_is_deterministic(void **state)
{
	(void)state;
	static SupportExec a, b;
	const char *args[] = {"bench", "6", NULL};
	run_engine(&a, args);
	run_engine(&b, args);
	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	check_tail(&a);
	long long na = number_after(a.out, "Nodes searched: ");
	long long nb = number_after(b.out, "Nodes searched: ");
	assert_true(na > 0);
	assert_true(na == nb);

	/* One line per bench position, and their nodes add up to the total. */
	long long sum = 0;
	int lines = 0;
	for (const char *at = strstr(a.out, "nodes "); at; at = strstr(at + 1, "nodes ")) {
		sum += strtoll(at + 6, NULL, 10);
		lines++;
	}
	assert_int_equal(lines, bench_position_count);
	assert_true(sum == na);

	/* A deeper bench searches more. */
	static SupportExec deeper;
	const char *args7[] = {"bench", "7", NULL};
	run_engine(&deeper, args7);
	assert_true(number_after(deeper.out, "Nodes searched: ") > na);
}

static void test_bench_rejects_bad_arguments(void **state)
{
	(void)state;
	static SupportExec r;
	const char *bad[][4] = {
	    {"bench", "x", NULL}, {"bench", "0", NULL}, {"bench", "6", "7", NULL}, {"bench", "-3", NULL}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		run_engine(&r, bad[i]);
		assert_int_equal(r.status, 2);
	}
}

/* --eval-file benches that network: the default's own file gives the
 * default's signature, another network another one, and a file that is not
 * a pool network stops the bench with status 1 and no signature. */
static void test_bench_uses_the_eval_file(void **state)
{
	(void)state;
	static SupportExec plain, same, other, bad;
	run_engine(&plain, (const char *const[]){"bench", "6", NULL});
	run_engine(&same,
	           (const char *const[]){"bench", "--eval-file", "tools/data/nnue-pool.bin", "6", NULL});
	run_engine(&other, (const char *const[]){"bench", "--eval-file", "tools/data/nnue-pool-trial.bin",
	                                         "6", NULL});
	assert_int_equal(plain.status, 0);
	assert_int_equal(same.status, 0);
	assert_int_equal(other.status, 0);
	long long n_plain = number_after(plain.out, "Nodes searched: ");
	assert_true(n_plain > 0);
	assert_true(number_after(same.out, "Nodes searched: ") == n_plain);
	long long n_other = number_after(other.out, "Nodes searched: ");
	assert_true(n_other > 0 && n_other != n_plain);

	const char *refused[] = {"tools/data/nnue-russian.bin", "tests/no-such-network.bin"};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		run_engine(&bad, (const char *const[]){"bench", "--eval-file", refused[i], "6", NULL});
		assert_int_equal(bad.status, 1);
		assert_null(strstr(bad.out, "Nodes searched"));
	}
}

static void test_bench_positions(void **state)
{
	(void)state;
	assert_true(bench_position_count >= 30);
	int with_kings = 0, with_captures = 0;
	for (int i = 0; i < bench_position_count; i++) {
		Position p;
		char error[NOTATION_ERROR_MAX];
		if (!notation_parse_fen(bench_positions[i].fen, VARIANT_POOL, &p, error, sizeof error))
			fail_msg("bench position %d: %s", i + 1, error);
		assert_true(movegen_has_moves(&p));
		assert_true(strlen(bench_positions[i].comment) > 0);
		with_kings += p.kings != 0;
		with_captures += movegen_has_capture(&p);
	}
	assert_true(with_kings >= 8);
	assert_true(with_captures >= 5);

	/* bench/positions.fen lists the same positions in the same order. */
	FILE *f = fopen("bench/positions.fen", "r");
	if (!f)
		skip();
	char line[512];
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		assert_true(n < bench_position_count);
		assert_string_equal(line, bench_positions[n].fen);
		n++;
	}
	fclose(f);
	assert_int_equal(n, bench_position_count);
}

/* The last line of analyse is `bestmove M [ponder R]`, with M legal. */
static void test_analyse_prints_a_legal_move(void **state)
{
	(void)state;
	static SupportExec r;
	const char *fen = "W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14";
	const char *args[] = {"analyse", "--fen", fen, "--depth", "5", NULL};
	run_engine(&r, args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "info depth 5 "));
	const char *best = strstr(r.out, "bestmove ");
	assert_non_null(best);
	char text[64];
	assert_int_equal(sscanf(best, "bestmove %63s", text), 1);
	Position p;
	assert_true(notation_parse_fen(fen, VARIANT_POOL, &p, NULL, 0));
	Move m;
	assert_int_equal(notation_parse_move(&p, text, &m, NULL, 0), MOVE_PARSE_OK);

	const char *nodes[] = {"analyse", "--nodes", "20000", NULL};
	run_engine(&r, nodes);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "bestmove "));

	const char *timed[] = {"analyse", "--movetime", "200", NULL};
	int64_t start = clock_now_ms();
	run_engine(&r, timed);
	assert_int_equal(r.status, 0);
	assert_true(clock_now_ms() - start < 2000);
	assert_non_null(strstr(r.out, "bestmove "));

	const char *lost[] = {"analyse", "--fen", "B:W9,14:B5", "--depth", "3", NULL};
	run_engine(&r, lost);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "bestmove none"));
}

static void test_analyse_rejects_bad_arguments(void **state)
{
	(void)state;
	static SupportExec r;
	const char *bad[][6] = {
	    {"analyse", NULL},
	    {"analyse", "--depth", NULL},
	    {"analyse", "--depth", "abc", NULL},
	    {"analyse", "--depth", "3", "--nodes", "10", NULL},
	    {"analyse", "--fen", "X:W1:B2", "--depth", "3"},
	    {"analyse", "--speed", "3", NULL},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		run_engine(&r, bad[i]);
		assert_int_equal(r.status, 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bench_positions),
	    cmocka_unit_test(test_bench_is_deterministic),
	    cmocka_unit_test(test_bench_rejects_bad_arguments),
	    cmocka_unit_test(test_bench_uses_the_eval_file),
	    cmocka_unit_test(test_analyse_prints_a_legal_move),
	    cmocka_unit_test(test_analyse_rejects_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
