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
	char tools[1024];  /* the directory of the tools */
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
	support_run(&r, "%s/pool-match --engine cmd=%s --engine cmd=%s --games 2 --depth 2", paths.tools,
	            paths.engine, paths.engine);
	expect_usage_error(&r, "pool-match: a match needs --openings FILE");
	support_run(&r, "%s/pool-match --engine cmd=%s --engine cmd=%s --depth 2 --openings /dev/null",
	            paths.tools, paths.engine, paths.engine);
	expect_usage_error(&r, "pool-match: a match needs --games N");
	support_run(&r, "%s/pool-match --engine cmd=%s --games 2 --depth 2 --openings /dev/null", paths.tools,
	            paths.engine);
	expect_usage_error(&r, "pool-match: a match needs two --engine options");
	support_run(&r, "%s/pool-match --summarize", paths.tools);
	expect_usage_error(&r, "pool-match: --summarize needs at least one PDN file");
}

static void test_make_openings_names_the_bad_option(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s/make-openings --frob", paths.tools);
	expect_usage_error(&r, "make-openings: --frob: unknown option");
	support_run(&r, "%s/make-openings --plies", paths.tools);
	expect_usage_error(&r, "make-openings: --plies: needs a value");
	support_run(&r, "%s/make-openings --plies 99", paths.tools);
	expect_usage_error(&r, "make-openings: --plies 99: ");
}

/* selfplay plays every opening with both colours: an odd count is refused
 * (it used to play one game fewer without a word). */
static void test_selfplay_refuses_what_it_cannot_play(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s/selfplay --games 0", paths.tools);
	expect_usage_error(&r, "selfplay: --games: 0 is too small");
	support_run(&r, "%s/selfplay --games 3 --depth-a 1 --depth-b 1", paths.tools);
	expect_usage_error(&r, "selfplay: --games: 3 is odd");
	support_run(&r, "%s/selfplay --frob 1", paths.tools);
	expect_usage_error(&r, "selfplay: unknown option '--frob'");
	support_run(&r, "%s/selfplay --games", paths.tools);
	expect_usage_error(&r, "selfplay: --games: needs a value");
}

static int setup(void **state)
{
	(void)state;
	const char *tools = getenv("TOOL_DIR"), *bin = getenv("POOLSHARK_BIN");
	if (!tools || !bin) {
		fprintf(stderr, "test_cli_errors: TOOL_DIR and POOLSHARK_BIN must be set (make test does)\n");
		return -1;
	}
	snprintf(paths.tools, sizeof paths.tools, "%s", tools);
	snprintf(paths.engine, sizeof paths.engine, "%s", bin);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pool_match_says_what_is_missing),
	    cmocka_unit_test(test_make_openings_names_the_bad_option),
	    cmocka_unit_test(test_selfplay_refuses_what_it_cannot_play),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
