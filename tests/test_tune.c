/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tune tool through its binary: labelled quiet positions, weight files, a fit that lowers the error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "support/support.h"

typedef struct Paths {
	char tool[1024];
	char source[1024]; /* the repository: the openings files */
	char dir[256];
} Paths;

static Paths paths;

/* Runs `tune ARGS` through the shell with a time limit, stdout to `out`
 * (a file in the scratch directory), stderr dropped. Returns the exit
 * status (124 on timeout). */
static int run_tune(const char *args, const char *out)
{
	return support_shell(paths.dir, "timeout 60 '%s' %s > '%s' 2>/dev/null", paths.tool, args, out);
}

static FILE *open_file(const char *name)
{
	FILE *f = fopen(support_path(paths.dir, name), "r");
	assert_non_null(f);
	return f;
}

typedef struct GenSummary {
	int positions;
	int games_seen; /* distinct game numbers */
	int results[3]; /* lines labelled 0, 0.5, 1 */
} GenSummary;

/* Checks every data line of `name` (a legal FEN with no capture for the
 * side to move, a result of 1, 0.5 or 0 shared by all lines of its game,
 * a game number below `games`) and counts them. */
static GenSummary check_data_of(const char *name, Variant variant, int games)
{
	GenSummary s = {0};
	int game_result[64];
	for (int i = 0; i < 64; i++)
		game_result[i] = -1;
	assert_true(games <= 64);
	FILE *f = open_file(name);
	char line[512];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		char fen[256], result[8];
		int game;
		assert_int_equal(sscanf(line, "%255s %7s %d", fen, result, &game), 3);
		Position p;
		char error[NOTATION_ERROR_MAX];
		if (!notation_parse_fen(fen, variant, &p, error, sizeof error))
			fail_msg("%s: %s", fen, error);
		assert_false(movegen_has_capture(&p));
		assert_true(movegen_has_moves(&p));
		int r = !strcmp(result, "0") ? 0 : !strcmp(result, "0.5") ? 1 : !strcmp(result, "1") ? 2 : -1;
		assert_true(r >= 0);
		assert_true(game >= 0 && game < games);
		if (game_result[game] < 0) {
			game_result[game] = r;
			s.games_seen++;
		}
		assert_int_equal(game_result[game], r);
		s.results[r]++;
		s.positions++;
	}
	fclose(f);
	return s;
}

static GenSummary check_data(const char *name, int games)
{
	return check_data_of(name, VARIANT_POOL, games);
}

/* A side with one man against eight loses every game: every label says so,
 * from Black's view. */
static void test_gen_labels_follow_the_result(void **state)
{
	(void)state;
	support_write_text(paths.dir, "lost.fen", "# black is lost\nB:W21,22,23,24,25,26,27,28:B1\n");
	assert_int_equal(run_tune("gen --openings lost.fen --games 3 --depth 4 --random-plies 2", "lost.txt"),
	                 0);
	GenSummary s = check_data("lost.txt", 3);
	assert_int_equal(s.games_seen, 3);
	assert_true(s.positions >= 3);
	assert_int_equal(s.results[0], s.positions);
}

/* Games cut off by the ply cap are draws; --per-game bounds the lines of
 * each game. */
static void test_gen_cap_and_sampling(void **state)
{
	(void)state;
	support_write_text(paths.dir, "start.fen",
	                   "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n");
	assert_int_equal(run_tune("gen --openings start.fen --games 4 --depth 3 --max-plies 12 --per-game 5",
	                          "capped.txt"),
	                 0);
	GenSummary s = check_data("capped.txt", 4);
	assert_int_equal(s.games_seen, 4);
	assert_int_equal(s.results[1], s.positions);
	assert_true(s.positions <= 4 * 5);
}

/* --variant plays that variant's games from its own openings: quiet
 * positions under its rules, a header that names it, and a fit that refuses
 * them as another variant's. */
static void test_gen_and_fit_per_variant(void **state)
{
	(void)state;
	char openings[1200], args[1400];
	snprintf(openings, sizeof openings, "%s/tools/data/openings-russian.fen", paths.source);
	snprintf(args, sizeof args, "gen --variant russian --openings '%s' --games 6 --depth 3", openings);
	assert_int_equal(run_tune(args, "russian.txt"), 0);
	GenSummary s = check_data_of("russian.txt", VARIANT_RUSSIAN, 6);
	assert_int_equal(s.games_seen, 6);
	FILE *f = open_file("russian.txt");
	char line[512];
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_true(!strncmp(line, "# tune gen --variant russian ", 29));
	assert_int_equal(run_tune("fit --data russian.txt --variant russian --passes 1", "russian.fit"), 0);
	f = open_file("russian.fit");
	bool table = false;
	while (fgets(line, sizeof line, f))
		table |= !strcmp(line, "static const EvalWeights eval_russian_weights = {\n");
	fclose(f);
	assert_true(table);
	assert_int_equal(run_tune("fit --data russian.txt --passes 0", "bad.out"), 1);
	assert_int_equal(run_tune("fit --data russian.txt --variant brazilian --passes 0", "bad.out"), 1);
	assert_int_equal(run_tune("gen --variant chess --games 1", "bad.out"), 2);
	assert_int_equal(run_tune("fit --data russian.txt --variant chess", "bad.out"), 2);
}

/* Reads "start: MSE training X validation Y" / "end: ..." from a fit's output. */
static bool read_mse(const char *name, const char *which, double *training)
{
	FILE *f = open_file(name);
	char line[512];
	bool found = false;
	size_t n = strlen(which);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, which, n) && sscanf(line + n, " MSE training %lf", training) == 1)
			found = true;
	fclose(f);
	return found;
}

static bool read_k(const char *name, double *k)
{
	FILE *f = open_file(name);
	char line[512];
	bool found = false;
	while (fgets(line, sizeof line, f))
		found |= sscanf(line, "K = %lf", k) == 1;
	fclose(f);
	return found;
}

/* A fit lowers the training error; its weight file, read back with the
 * same K, gives exactly the error the fit ended with; `man` stays 100. */
static void test_fit_lowers_error_and_round_trips(void **state)
{
	(void)state;
	assert_int_equal(
	    run_tune("gen --openings start.fen --games 40 --depth 3 --random-plies 8", "data.txt"), 0);
	assert_int_equal(run_tune("fit --data data.txt --passes 4 --valid-every 0 --out w.txt", "fit.txt"),
	                 0);
	double start, end, k;
	assert_true(read_mse("fit.txt", "start:", &start));
	assert_true(read_mse("fit.txt", "end:", &end));
	assert_true(read_k("fit.txt", &k));
	assert_true(end < start);

	FILE *f = open_file("w.txt");
	char line[256];
	int lines = 0, man = -1;
	while (fgets(line, sizeof line, f)) {
		lines++;
		sscanf(line, "man %d", &man);
	}
	fclose(f);
	assert_int_equal(man, 100);
	assert_true(lines >= 20);

	char args[256];
	snprintf(args, sizeof args, "fit --data data.txt --weights w.txt --k %.9f --passes 0 --valid-every 0",
	         k);
	assert_int_equal(run_tune(args, "again.txt"), 0);
	double again;
	assert_true(read_mse("again.txt", "start:", &again));
	assert_true(again > end - 1e-5 && again < end + 1e-5);
}

/* Damaged input is reported with a failure status, never fitted. */
static void test_bad_input_is_rejected(void **state)
{
	(void)state;
	support_write_text(paths.dir, "bad.txt", "B:W21:B1 1 0\nB:W21:B99 0.5 1\n");
	assert_int_equal(run_tune("fit --data bad.txt --passes 0", "bad.out"), 1);
	support_write_text(paths.dir, "badresult.txt", "B:W21:B1 2 0\n");
	assert_int_equal(run_tune("fit --data badresult.txt --passes 0", "bad.out"), 1);
	support_write_text(paths.dir, "badweights.txt", "no_such_weight 3\n");
	assert_int_equal(run_tune("fit --data data.txt --weights badweights.txt --passes 0", "bad.out"), 1);
	assert_int_equal(run_tune("fit --passes 0", "bad.out"), 2);
}

/* A file without end is refused at once, never read for ever (the shell's
 * limit gives 124 when it would be). */
static void test_endless_input_is_refused(void **state)
{
	(void)state;
	support_write_text(paths.dir, "one.txt", "B:W21:B1 1 0\n");
	assert_int_equal(run_tune("gen --openings /dev/zero --games 2 --depth 1", "zero.out"), 1);
	assert_int_equal(run_tune("fit --data /dev/zero --passes 0", "zero.out"), 1);
	assert_int_equal(run_tune("fit --data one.txt --weights /dev/zero --passes 0", "zero.out"), 1);
}

/* Results that cannot be written fail the run: standard output and --out. */
static void test_write_errors_fail(void **state)
{
	(void)state;
	support_write_text(paths.dir, "two.txt", "B:W21:B1 1 0\nW:W21:B1 0 1\n");
	support_write_text(paths.dir, "start2.fen",
	                   "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n");
	assert_int_equal(run_tune("gen --openings start2.fen --games 2 --depth 1", "/dev/full"), 1);
	assert_int_equal(run_tune("fit --data two.txt --passes 0", "/dev/full"), 1);
	assert_int_equal(run_tune("fit --data two.txt --passes 1 --out /dev/full", "full.out"), 1);
	/* The same runs succeed where the output has room. */
	assert_int_equal(run_tune("gen --openings start2.fen --games 2 --depth 1", "gen.out"), 0);
	assert_int_equal(run_tune("fit --data two.txt --passes 1 --out w2.txt", "full.out"), 0);
}

static int setup(void **state)
{
	*state = paths.dir;
	bool ready = support_tool_path("test_tune", "tune", paths.tool, sizeof paths.tool) &&
	             getcwd(paths.source, sizeof paths.source) &&
	             support_scratch_dir("test_tune", paths.dir, sizeof paths.dir);
	return ready ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gen_labels_follow_the_result),
	    cmocka_unit_test(test_gen_cap_and_sampling),
	    cmocka_unit_test(test_fit_lowers_error_and_round_trips),
	    cmocka_unit_test(test_bad_input_is_rejected),
	    cmocka_unit_test(test_endless_input_is_refused),
	    cmocka_unit_test(test_write_errors_fail),
	    cmocka_unit_test(test_gen_and_fit_per_variant),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
