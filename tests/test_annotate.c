/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark annotate` run as a real process on PDN files: NAGs, comments, variations, summary, bad input. */
#define _XOPEN_SOURCE 700 /* posix_openpt() for the progress line's terminal */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "poolshark/notation.h"
#include "poolshark/pdn.h"
#include "support/support.h"

enum { OUTPUT_MAX = 1 << 17, TIMEOUT_SECONDS = 60 };

/* Pool: after 3. 12-16 White takes a man for nothing (19x12); 4-8 kept it. */
static const char blunder_game[] = "[Event \"hanging man\"]\n"
                                   "[Black \"b\"]\n"
                                   "[White \"w\"]\n"
                                   "[Result \"*\"]\n"
                                   "\n"
                                   "1. 11-15 23-19 2. 8-11 {a comment kept} 22-17 3. 12-16 19x12 4. 4-8 *\n"
                                   "\n";

static const char russian_game[] = "[GameType \"25\"]\n"
                                   "[Event \"russian\"]\n"
                                   "[Result \"1-0\"]\n"
                                   "\n"
                                   "1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. a1-b2 h8-g7 1-0\n"
                                   "\n";

static const char brazilian_game[] = "[GameType \"26\"]\n"
                                     "[Event \"brazilian\"]\n"
                                     "[Result \"*\"]\n"
                                     "\n"
                                     "1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n"
                                     "\n";

typedef struct Run {
	int status; /* exit status, or -1 when killed */
	char out[OUTPUT_MAX], err[OUTPUT_MAX];
} Run;

static char dir[64];

static void read_file(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
}

/*
 * Runs `poolshark annotate ARGS` with stdout to `out_path` (a file of the
 * test's directory unless it starts with '/') and stderr to a file, both
 * read back into *r; killed after TIMEOUT_SECONDS.
 */
static void run_annotate(Run *r, const char *out_path, const char *const *args)
{
	const char *bin = support_engine();
	char out_file[128], err_file[128];
	if (out_path[0] == '/')
		snprintf(out_file, sizeof out_file, "%s", out_path);
	else
		snprintf(out_file, sizeof out_file, "%s", support_path(dir, out_path));
	snprintf(err_file, sizeof err_file, "%s", support_path(dir, "stderr.txt"));
	char *argv[32];
	int argc = 0;
	argv[argc++] = (char *)bin;
	argv[argc++] = "annotate";
	for (int i = 0; args[i] && argc < 31; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int out = open(out_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0 || err < 0 || chdir(dir) != 0)
			_exit(126);
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		alarm(TIMEOUT_SECONDS);
		execv(bin, argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->out[0] = '\0';
	if (strcmp(out_file, "/dev/full"))
		read_file(out_file, r->out, sizeof r->out);
	read_file(err_file, r->err, sizeof r->err);
}

/* Reads every game of a PDN text with the library's reader. */
static int read_games(const char *text, PdnGame *games, int max)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(f);
	int n = 0;
	char error[256];
	for (;;) {
		PdnGame g;
		PdnReadStatus status = pdn_read_game(f, &g, error, sizeof error);
		if (status == PDN_READ_END)
			break;
		if (status != PDN_READ_OK)
			fprintf(stderr, "%s\n", error);
		assert_int_equal(status, PDN_READ_OK);
		assert_true(n < max);
		games[n++] = g;
	}
	fclose(f);
	return n;
}

/* The games of `output` are those of `input`: same start, moves, result and
 * tags (GameType and Result may be added); every ply has a comment that
 * starts with the input's own one. */
static void assert_same_games(const char *input, const char *output, int expected)
{
	PdnGame in[8], out[8];
	int n = read_games(input, in, 8);
	assert_int_equal(n, expected);
	assert_int_equal(read_games(output, out, 8), n);
	for (int i = 0; i < n; i++) {
		const Game *a = in[i].game, *b = out[i].game;
		assert_true(position_equal(&a->positions[0], &b->positions[0]));
		assert_int_equal(a->ply_count, b->ply_count);
		for (int k = 0; k < a->ply_count; k++) {
			assert_true(move_equal(a->moves[k], b->moves[k]));
			assert_non_null(out[i].comments[k]);
			if (in[i].comments[k])
				assert_memory_equal(out[i].comments[k], in[i].comments[k],
				                    strlen(in[i].comments[k]));
		}
		assert_int_equal(in[i].result, out[i].result);
		for (int t = 0; t < in[i].tag_count; t++)
			assert_string_equal(pdn_game_tag(&out[i], in[i].tags[t].name), in[i].tags[t].value);
		for (int t = 0; t < out[i].tag_count; t++)
			assert_true(pdn_game_tag(&in[i], out[i].tags[t].name) ||
			            !strcmp(out[i].tags[t].name, "GameType") ||
			            !strcmp(out[i].tags[t].name, "Result"));
		pdn_game_free(&in[i]);
		pdn_game_free(&out[i]);
	}
}

/* The hanging man gets $4, its comment names the better move, its variation
 * starts with it; the other comments have the documented form. */
static void test_blunder_is_marked(void **state)
{
	(void)state;
	support_write_text(dir, "blunder.pdn", blunder_game);
	Run *r = malloc(sizeof *r);
	assert_non_null(r);
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "4", "blunder.pdn", NULL});
	assert_int_equal(r->status, 0);
	assert_same_games(blunder_game, r->out, 1);

	/* "3. 12-16 $4 {SCORE/DEPTH, best MOVE SCORE} ( 3. MOVE ..." */
	regex_t re;
	assert_int_equal(
	    regcomp(
	        &re,
	        "3\\. 12-16 \\$4\\s+\\{\\+[0-9]+\\.[0-9]{2}/4, best ([0-9]+-[0-9]+) [-+][0-9]+\\.[0-9]{2}\\}"
	        "\\s+\\(\\s+3\\. ([0-9]+-[0-9]+) ",
	        REG_EXTENDED),
	    0);
	regmatch_t m[3];
	int found = regexec(&re, r->out, 3, m, 0);
	if (found)
		fprintf(stderr, "%s", r->out);
	assert_int_equal(found, 0);
	assert_int_equal(m[1].rm_eo - m[1].rm_so, m[2].rm_eo - m[2].rm_so);
	assert_memory_equal(r->out + m[1].rm_so, r->out + m[2].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
	regfree(&re);

	/* Every engine comment: "+0.35/4" or "-0.20/4, best 9-14 +0.10". */
	PdnGame g;
	assert_int_equal(read_games(r->out, &g, 1), 1);
	assert_int_equal(regcomp(&re,
	                         "^(a comment kept )?(#-?[0-9]+|[-+][0-9]+\\.[0-9]{2})/[0-9]+"
	                         "(, best [0-9]+[-x][0-9]+ (#-?[0-9]+|[-+][0-9]+\\.[0-9]{2}))?$",
	                         REG_EXTENDED | REG_NOSUB),
	                 0);
	for (int i = 0; i < g.game->ply_count; i++) {
		if (regexec(&re, g.comments[i], 0, NULL, 0))
			fprintf(stderr, "comment %d: '%s'\n", i, g.comments[i]);
		assert_int_equal(regexec(&re, g.comments[i], 0, NULL, 0), 0);
	}
	assert_non_null(strstr(g.comments[2], "a comment kept "));
	regfree(&re);
	pdn_game_free(&g);
	free(r);
}

/* Counts the NAGs of each side in the main line of a pool game (Black moves first). */
static void count_nags(const char *pdn, int counts[2][7])
{
	PdnGame g;
	assert_int_equal(read_games(pdn, &g, 1), 1);
	memset(counts, 0, sizeof(int) * 2 * 7);
	const char *p = strstr(pdn, "\n\n") + 2;
	int ply = 0, depth = 0;
	while (*p && ply <= g.game->ply_count) {
		if (*p == '{') {
			p = strchr(p, '}') + 1;
		} else if (*p == '(' || *p == ')') {
			depth += *p == '(' ? 1 : -1;
			p++;
		} else if (isspace((unsigned char)*p)) {
			p++;
		} else {
			size_t n = strcspn(p, " \n{(");
			if (depth == 0 && *p == '$')
				counts[g.game->positions[ply - 1].side][atoi(p + 1)]++;
			else if (depth == 0 && isdigit((unsigned char)*p) && p[n - 1] != '.')
				ply++;
			p += n;
		}
	}
	pdn_game_free(&g);
}

/* The summary on stderr counts what the output marks, side by side. */
static void test_summary_counts_the_marks(void **state)
{
	(void)state;
	support_write_text(dir, "blunder.pdn", blunder_game);
	Run *r = malloc(sizeof *r);
	assert_non_null(r);
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "4", "blunder.pdn", NULL});
	assert_int_equal(r->status, 0);
	int counts[2][7];
	count_nags(r->out, counts);
	assert_int_equal(counts[BLACK][4], 1);
	static const char *const names[2] = {"Black", "White"};
	for (int side = 0; side < 2; side++) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "annotate: game 1 \"hanging man\" %s: ", names[side]);
		const char *line = strstr(r->err, prefix);
		assert_non_null(line);
		int blunders, mistakes, dubious, good, moves;
		double average;
		assert_int_equal(
		    sscanf(line + strlen(prefix),
		           "blunders %d, mistakes %d, dubious %d, good %d, average loss %lf over %d moves",
		           &blunders, &mistakes, &dubious, &good, &average, &moves),
		    6);
		assert_int_equal(blunders, counts[side][4]);
		assert_int_equal(mistakes, counts[side][2]);
		assert_int_equal(dubious, counts[side][6]);
		assert_int_equal(good, counts[side][1]);
		assert_int_equal(moves, side == BLACK ? 4 : 3);
		assert_true(side == WHITE || average >= 0.90 / 4); /* the blunder alone lost 0.90 */
	}
	free(r);
}

/* Three rule sets in one file, --jobs 2 writes what --jobs 1 writes. */
static void test_jobs_and_rule_sets(void **state)
{
	(void)state;
	char input[4096];
	snprintf(input, sizeof input, "%s%s%s", blunder_game, russian_game, brazilian_game);
	support_write_text(dir, "three.pdn", input);
	Run *one = malloc(sizeof *one), *two = malloc(sizeof *two);
	assert_non_null(one);
	assert_non_null(two);
	run_annotate(one, "one.pdn", (const char *const[]){"--nodes", "3000", "three.pdn", NULL});
	assert_int_equal(one->status, 0);
	run_annotate(two, "two.pdn",
	             (const char *const[]){"--nodes", "3000", "--jobs", "2", "--output", "out2.pdn",
	                                   "three.pdn", NULL});
	assert_int_equal(two->status, 0);
	assert_string_equal(two->out, "");
	char path[128];
	snprintf(path, sizeof path, "%s", support_path(dir, "out2.pdn"));
	read_file(path, two->out, sizeof two->out);
	assert_string_equal(one->out, two->out);
	assert_string_equal(one->err, two->err);
	assert_same_games(input, one->out, 3);
	assert_non_null(strstr(one->out, "[GameType \"25\"]"));
	assert_non_null(strstr(one->out, "[GameType \"26\"]"));
	assert_non_null(strstr(one->err, "game 3 \"brazilian\" White:"));
	free(one);
	free(two);
}

/* A damaged file: the readable games are written, each bad one is named
 * with its line, Event and move, and the exit status says it. */
static void test_bad_input(void **state)
{
	(void)state;
	char input[4096];
	snprintf(input, sizeof input,
	         "%s"
	         "[Event \"illegal\"]\n[Result \"*\"]\n\n1. 11-15 23-19 2. 8-11 19-10 *\n\n"
	         "[GameType \"20\"]\n[Event \"draughts\"]\n\n1. 32-28 *\n\n"
	         "%s",
	         blunder_game, russian_game);
	support_write_text(dir, "bad.pdn", input);
	Run *r = malloc(sizeof *r);
	assert_non_null(r);
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "2", "bad.pdn", NULL});
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(
	    r->err, "bad.pdn:11: game 2 (Event \"illegal\"), move 2 (White, ply 4): illegal move 19-10\n"));
	assert_non_null(strstr(r->err, "bad.pdn:16: game 3 (Event \"draughts\"): GameType 20"));
	char good[4096];
	snprintf(good, sizeof good, "%s%s", blunder_game, russian_game);
	assert_same_games(good, r->out, 2);

	/* Not text at all, and no file. */
	static const char nul[] = "[Event \"x\"]\n1. 11-15\0 *\n";
	support_write_file(dir, "nul.pdn", nul, sizeof nul - 1);
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "2", "nul.pdn", NULL});
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "nul.pdn:2: game 1 (Event \"x\")"));
	assert_non_null(strstr(r->err, "NUL byte"));
	support_write_text(dir, "nul.pdn", "");
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "2", "nul.pdn", NULL});
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "nul.pdn holds no game"));
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "2", "missing.pdn", NULL});
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "cannot open missing.pdn"));
	free(r);
}

/* A full disk: a message and a failing exit status. */
static void test_full_disk(void **state)
{
	(void)state;
	support_write_text(dir, "blunder.pdn", blunder_game);
	Run *r = malloc(sizeof *r);
	assert_non_null(r);
	run_annotate(r, "/dev/full", (const char *const[]){"--depth", "2", "blunder.pdn", NULL});
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "cannot write standard output: No space left on device"));
	run_annotate(r, "out.pdn",
	             (const char *const[]){"--depth", "2", "--output", "/dev/full", "blunder.pdn", NULL});
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->err, "cannot write /dev/full"));
	free(r);
}

/* Usage errors: no limit, two limits, a bad job count. */
static void test_usage(void **state)
{
	(void)state;
	support_write_text(dir, "blunder.pdn", blunder_game);
	Run *r = malloc(sizeof *r);
	assert_non_null(r);
	run_annotate(r, "out.pdn", (const char *const[]){"blunder.pdn", NULL});
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "give exactly one of --depth, --movetime, --nodes"));
	run_annotate(r, "out.pdn", (const char *const[]){"--depth", "2", "--jobs", "0", "blunder.pdn", NULL});
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "job count '0'"));
	run_annotate(r, "out.pdn", (const char *const[]){"--help", NULL});
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "$4 blunder from 0.90"));
	free(r);
}

/* On a terminal, stderr shows which game and ply are being searched. */
static void test_progress_on_a_terminal(void **state)
{
	(void)state;
	support_write_text(dir, "blunder.pdn", blunder_game);
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	const char *slave_name = ptsname(master);
	assert_non_null(slave_name);
	const char *bin = support_engine();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int slave = open(slave_name, O_RDWR);
		int out = open("/dev/null", O_WRONLY);
		if (slave < 0 || out < 0 || chdir(dir) != 0)
			_exit(126);
		dup2(out, STDOUT_FILENO);
		dup2(slave, STDERR_FILENO);
		alarm(TIMEOUT_SECONDS);
		execl(bin, bin, "annotate", "--depth", "2", "blunder.pdn", (char *)NULL);
		_exit(127);
	}
	char seen[8192];
	size_t used = 0;
	for (;;) {
		ssize_t n = read(master, seen + used, sizeof seen - 1 - used);
		if (n <= 0)
			break; /* EIO once the child has closed the terminal */
		used += (size_t)n;
	}
	seen[used] = '\0';
	int status;
	waitpid(pid, &status, 0);
	close(master);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_non_null(strstr(seen, "\rannotate: game 1/1 ply 1/7"));
	assert_non_null(strstr(seen, "\rannotate: game 1/1 ply 7/7"));
	assert_non_null(strstr(seen, "annotate: game 1 \"hanging man\" Black: "));
}

static int setup(void **state)
{
	(void)state;
	return support_scratch_dir("test_annotate", dir, sizeof dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	static const char *const names[] = {"blunder.pdn", "three.pdn", "bad.pdn",  "nul.pdn",   "out.pdn",
	                                    "one.pdn",     "two.pdn",   "out2.pdn", "stderr.txt"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		unlink(support_path(dir, names[i]));
	}
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_blunder_is_marked),
	    cmocka_unit_test(test_summary_counts_the_marks),
	    cmocka_unit_test(test_jobs_and_rule_sets),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_full_disk),
	    cmocka_unit_test(test_usage),
	    cmocka_unit_test(test_progress_on_a_terminal),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
