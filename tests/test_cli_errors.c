/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Usage errors of the programs, run as a user runs them: each names what is wrong, then the usage, exit 2. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "support/support.h"

typedef struct Paths {
	char engine[1024]; /* the poolshark binary */
	char match[1024], openings[1024], selfplay[1024];
} Paths;

static Paths paths;

/* The output holds `reason` before the usage line, and the exit is 2. */
static void expect_usage_error(const SupportRun *r, const char *reason)
{
	const char *at = strstr(r->text, reason), *usage = strstr(r->text, "usage:");
	if (!at || !usage || at > usage || r->status != 2)
		fail_msg("expected '%s' and then the usage, exit 2; got exit %d:\n%s", reason, r->status,
		         r->text);
}

static void test_pool_match_says_what_is_missing(void **state)
{
	(void)state;
	SupportRun r;
	/* Without --openings, the rule set's file of the source tree: a copy
	 * of the program outside any tree, run from elsewhere, names the
	 * missing file. */
	support_run(&r,
	            "(d=$(mktemp -d) && cp %s \"$d/pool-match\" && cd / && \"$d/pool-match\" --engine cmd=%s "
	            "--engine cmd=%s --games 2 --depth 2 --variant english; s=$?; rm -rf \"$d\"; exit $s)",
	            paths.match, paths.engine, paths.engine);
	if (r.status != 1 || !strstr(r.text, "tools/data/openings-english.fen"))
		fail_msg("expected exit 1 naming tools/data/openings-english.fen; got exit %d:\n%s", r.status,
		         r.text);
	support_run(&r, "%s --engine cmd=%s --engine cmd=%s --depth 2 --openings /dev/null", paths.match,
	            paths.engine, paths.engine);
	expect_usage_error(&r, "pool-match: a match needs --games N");
	support_run(&r, "%s --engine cmd=%s --games 2 --depth 2 --openings /dev/null", paths.match,
	            paths.engine);
	expect_usage_error(&r, "pool-match: a match needs two --engine options");
	support_run(&r, "%s --summarize", paths.match);
	expect_usage_error(&r, "pool-match: --summarize needs at least one PDN file");
}

static void test_make_openings_names_the_bad_option(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s --frob", paths.openings);
	expect_usage_error(&r, "make-openings: --frob: unknown option");
	support_run(&r, "%s --plies", paths.openings);
	expect_usage_error(&r, "make-openings: --plies: needs a value");
	support_run(&r, "%s --plies 99", paths.openings);
	expect_usage_error(&r, "make-openings: --plies: 99 is too large");
	support_run(&r, "%s --engine %s --min-score 0.9 --max-score 0.5", paths.openings, paths.engine);
	expect_usage_error(&r, "make-openings: --min-score 0.90 is above --max-score 0.50");
	support_run(&r, "%s --min-score 0.5", paths.openings);
	expect_usage_error(&r, "make-openings: --min-score needs --engine");
	support_run(&r, "%s --min-score -1", paths.openings);
	expect_usage_error(&r, "make-openings: --min-score: -1 is negative (from 0 to 100)");
}

/* selfplay plays every opening with both colours: an odd count is refused
 * (it used to play one game fewer without a word). */
static void test_selfplay_refuses_what_it_cannot_play(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s --games 0", paths.selfplay);
	expect_usage_error(&r, "selfplay: --games: 0 is too small");
	support_run(&r, "%s --games 3 --depth-a 1 --depth-b 1", paths.selfplay);
	expect_usage_error(&r, "selfplay: --games: 3 is odd");
	support_run(&r, "%s --frob 1", paths.selfplay);
	expect_usage_error(&r, "selfplay: --frob: unknown option");
	support_run(&r, "%s --games", paths.selfplay);
	expect_usage_error(&r, "selfplay: --games: needs a value");
}

/* The output holds every one of `fragments` (NULL-terminated), and the exit is `status`. */
static void expect_output(const SupportRun *r, int status, const char *const *fragments)
{
	bool found = true;
	for (const char *const *f = fragments; *f; f++)
		found = found && strstr(r->text, *f);
	if (!found || r->status != status) {
		char wanted[1024] = "";
		for (const char *const *f = fragments; *f; f++)
			snprintf(wanted + strlen(wanted), sizeof wanted - strlen(wanted), " '%s'", *f);
		fail_msg("expected%s, exit %d; got exit %d:\n%s", wanted, status, r->status, r->text);
	}
}

/* A network file that cannot be used, or of other rules than --variant
 * (named before or after it), stops analyse, play and annotate before any
 * search: exit 2 and a message naming the file and the problem. A network
 * of the rules played is taken whichever flag comes first. */
static void test_eval_file_is_checked(void **state)
{
	(void)state;
	char dir[64], missing[128], cut[128];
	assert_true(support_scratch_dir("test_cli_errors", dir, sizeof dir));
	snprintf(missing, sizeof missing, "%s/missing.bin", dir);
	snprintf(cut, sizeof cut, "%s/cut.bin", dir);
	SupportRun r;
	support_run(&r, "head -c 5000 tools/data/nnue-pool.bin > %s", cut);
	assert_int_equal(r.status, 0);
	static const char *const programs[] = {"analyse --eval net --depth 3", "play", "annotate --depth 1"};
	const struct {
		const char *file, *why;
	} bad[] = {{missing, "No such file"}, {cut, "truncated: 5000 bytes"}, {dir, "eval-file"}};
	for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++)
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			char named[128];
			snprintf(named, sizeof named, "%s: ", bad[i].file);
			support_run(&r, "%s %s --eval-file %s < /dev/null", paths.engine, programs[p],
			            bad[i].file);
			const char *const fragments[] = {named, bad[i].why, NULL};
			expect_output(&r, 2, fragments);
			assert_null(strstr(r.text, "bestmove"));
		}
	const char *const foreign[] = {"tools/data/nnue-pool.bin: ", "a network for pool, not for russian",
	                               NULL};
	for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++) {
		support_run(&r, "%s %s --variant russian --eval-file tools/data/nnue-pool.bin < /dev/null",
		            paths.engine, programs[p]);
		expect_output(&r, 2, foreign);
		support_run(&r, "%s %s --eval-file tools/data/nnue-pool.bin --variant russian < /dev/null",
		            paths.engine, programs[p]);
		expect_output(&r, 2, foreign);
	}
	const char *const taken[] = {"bestmove ", NULL};
	support_run(
	    &r, "%s analyse --eval net --variant russian --eval-file tools/data/nnue-russian.bin --depth 3",
	    paths.engine);
	expect_output(&r, 0, taken);
	support_run(
	    &r, "%s analyse --eval net --eval-file tools/data/nnue-russian.bin --variant russian --depth 3",
	    paths.engine);
	expect_output(&r, 0, taken);
	assert_int_equal(support_remove_dir(dir), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(paths.engine, sizeof paths.engine, "%s", support_engine());
	bool ready =
	    support_tool_path("test_cli_errors", "pool-match", paths.match, sizeof paths.match) &&
	    support_tool_path("test_cli_errors", "make-openings", paths.openings, sizeof paths.openings) &&
	    support_tool_path("test_cli_errors", "selfplay", paths.selfplay, sizeof paths.selfplay);
	return ready ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pool_match_says_what_is_missing),
	    cmocka_unit_test(test_make_openings_names_the_bad_option),
	    cmocka_unit_test(test_selfplay_refuses_what_it_cannot_play),
	    cmocka_unit_test(test_eval_file_is_checked),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
