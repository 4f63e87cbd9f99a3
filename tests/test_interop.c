/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Other programs' files and clients: foreign PDN through pool-match --summarize, a pydraughts Hub session. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/support.h"

typedef struct Paths {
	char engine[1024];
	char tools[1024];
	char dir[64]; /* scratch */
} Paths;

static Paths paths;

typedef struct Run {
	int status;
	char text[32768];
} Run;

static void run(Run *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Runs a shell command, stderr joined to stdout; keeps output and status. */
static void run(Run *r, const char *format, ...)
{
	char command[4096];
	va_list args;
	va_start(args, format);
	vsnprintf(command, sizeof command, format, args);
	va_end(args);
	strncat(command, " 2>&1", sizeof command - strlen(command) - 1);
	FILE *f = popen(command, "r");
	assert_non_null(f);
	size_t n = fread(r->text, 1, sizeof r->text - 1, f);
	r->text[n] = '\0';
	int status = pclose(f);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", paths.dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* Games as other programs write them: no Round, or lidraughts' "-". They
 * count by result and players (they used to be skipped, all of them); a
 * damaged one is named by its place, Event, Round and line. */
static void test_summarize_reads_foreign_files(void **state)
{
	(void)state;
	write_file("foreign.pdn",
	           "[Event \"club\"]\n[Round \"-\"]\n[Black \"anna\"]\n[White \"bert\"]\n"
	           "[Result \"0-1\"]\n\n1. 11-15 23-19 0-1\n\n"
	           "[Event \"club\"]\n[Black \"bert\"]\n[White \"anna\"]\n[Result \"1-0\"]\n\n"
	           "1. 11-15 23-19 2. 8-11 1-0\n\n"
	           "[Event \"club\"]\n[Black \"bert\"]\n[White \"anna\"]\n\n1. 11-15 23-19 1/2-1/2\n\n"
	           "[Event \"club\"]\n[Round \"7\"]\n[Black \"anna\"]\n[White \"bert\"]\n\n"
	           "1. 11-15 23-19\n2. 9-13 22-17 3. 13x22 25x18 4. 11-16 1-0\n");
	Run r;
	run(&r, "%s/pool-match --summarize %s/foreign.pdn", paths.tools, paths.dir);
	if (!strstr(r.text, "Match: anna vs bert, 3 games") || !strstr(r.text, "Result for anna: +2 =1 -0"))
		fail_msg("%s", r.text);
	char expected[512];
	snprintf(
	    expected, sizeof expected,
	    "pool-match: %s/foreign.pdn:28: game 4 (Event \"club\", Round \"7\"): move 6: illegal move 25x18",
	    paths.dir);
	if (!strstr(r.text, expected))
		fail_msg("no '%s' in:\n%s", expected, r.text);
	assert_int_equal(r.status, 1); /* the damaged game */
}

static int setup(void **state)
{
	(void)state;
	const char *tools = getenv("TOOL_DIR"), *bin = getenv("POOLSHARK_BIN");
	if (!tools || !bin) {
		fprintf(stderr, "test_interop: TOOL_DIR and POOLSHARK_BIN must be set (make test does)\n");
		return -1;
	}
	snprintf(paths.tools, sizeof paths.tools, "%s", tools);
	snprintf(paths.engine, sizeof paths.engine, "%s", bin);
	snprintf(paths.dir, sizeof paths.dir, "/tmp/test_interop.XXXXXX");
	return mkdtemp(paths.dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return support_remove_dir(paths.dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_summarize_reads_foreign_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
