/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-match over real pipes and processes: repeatable games, faulty engines, Ctrl-C, shards. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "poolshark/clock.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/pdn.h"
#include "support/support.h"

enum { MAX_GAMES = 256, RUN_TIMEOUT_MS = 60000 };

typedef struct Paths {
	char tool[1024];
	char toy[1024];
	char engine[1024]; /* poolshark, or the toy when poolshark does not speak Hub */
	char dir[256];     /* scratch directory */
	char openings[300];
} Paths;

static Paths paths;

static void pause_ms(int ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&t, NULL);
}

/* Fails when any process is left among our children (orphans come to us: we are a subreaper). */
static void assert_no_children(void)
{
	int status;
	pid_t r = waitpid(-1, &status, WNOHANG);
	if (r != -1 || errno != ECHILD) {
		fail_msg("a process was left behind (waitpid gave %d)", (int)r);
	}
}

/*
 * Runs pool-match with argv (NULL-terminated, without the program), stdout
 * to `out_path` and stderr to `out_path`.err when out_path is in the
 * scratch directory (else to /dev/null); sends `signal_number` after interrupt_ms
 * when that is > 0. Returns the exit status; fails the test on a crash or after RUN_TIMEOUT_MS.
 */
static int run_tool_signal(const char *const *args, const char *out_path, int interrupt_ms, int signal_number)
{
	const char *argv[64];
	int n = 0;
	argv[n++] = paths.tool;
	for (; args[n - 1] && n < 63; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char err_path[1100];
		snprintf(err_path, sizeof err_path, "%s.err", out_path);
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		/* Only beside outputs in the scratch directory (never /dev/full.err). */
		bool scratch = !strncmp(out_path, paths.dir, strlen(paths.dir));
		int err = scratch ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
		dup2(out, STDOUT_FILENO);
		dup2(err >= 0 ? err : open("/dev/null", O_WRONLY), STDERR_FILENO);
		execv(paths.tool, (char *const *)argv);
		_exit(127);
	}
	int64_t start = clock_now_ms();
	bool sent = false;
	int status;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		int64_t elapsed = clock_now_ms() - start;
		if (interrupt_ms > 0 && !sent && elapsed >= interrupt_ms) {
			kill(pid, signal_number);
			sent = true;
		}
		if (elapsed > RUN_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fail_msg("pool-match did not finish within %d ms", RUN_TIMEOUT_MS);
		}
		pause_ms(10);
	}
	/* Orphans are handed to us before pool-match's exit is reported, so
	 * this needs no waiting. */
	assert_no_children();
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* run_tool_signal() with SIGINT, as a Ctrl-C at the terminal sends. */
static int run_tool(const char *const *args, const char *out_path, int interrupt_ms)
{
	return run_tool_signal(args, out_path, interrupt_ms, SIGINT);
}

/* Reads the whole file into out (cut at size - 1). */
static void read_text(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
}

/* Games of a PDN file, indexed by round - 1. */
typedef struct Record {
	int count;
	PdnGame games[MAX_GAMES];
	bool present[MAX_GAMES];
} Record;

static void read_record(const char *path, Record *r)
{
	FILE *f = fopen(path, "r");
	char error[200];
	PdnGame g;
	PdnReadStatus s;
	memset(r, 0, sizeof *r);
	assert_non_null(f);
	while ((s = pdn_read_game(f, &g, error, sizeof error)) != PDN_READ_END) {
		if (s != PDN_READ_OK)
			fail_msg("%s: %s", path, error);
		const char *round = pdn_game_tag(&g, "Round");
		assert_non_null(round);
		int i = atoi(round) - 1;
		assert_true(i >= 0 && i < MAX_GAMES);
		assert_false(r->present[i]);
		r->games[i] = g;
		r->present[i] = true;
		r->count++;
	}
	fclose(f);
}

static void free_record(Record *r)
{
	for (int i = 0; i < MAX_GAMES; i++)
		if (r->present[i])
			pdn_game_free(&r->games[i]);
}

static const char *tag(const PdnGame *g, const char *name)
{
	const char *v = pdn_game_tag(g, name);
	if (!v)
		fail_msg("no %s tag", name);
	return v;
}

/* A game that the rules ended replays to that very end. */
static void assert_rules_agree(const PdnGame *g)
{
	GameStatus s = game_status(g->game);
	const char *term = tag(g, "Termination");
	if (s.result != RESULT_NONE) {
		assert_string_equal(term, game_reason_text(s.reason));
		assert_int_equal(g->result, s.result);
	} else {
		assert_null(strstr(term, game_reason_text(END_NO_MOVES)));
	}
}

/* The first engine (the one whose name is given first) won game g. */
static bool first_engine_won(const PdnGame *g, const char *first_name)
{
	bool black = !strcmp(tag(g, "Black"), first_name);
	return g->result == (black ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
}

static void play_twice(const char *engine, const char *extra_key, const char *extra_value)
{
	char pdn[2][300], out[300], cmd[1100];
	Record r[2];
	snprintf(cmd, sizeof cmd, "cmd=%s", engine);
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "same.out"));
	for (int run = 0; run < 2; run++) {
		char name[32];
		snprintf(name, sizeof name, "same%d.pdn", run);
		snprintf(pdn[run], sizeof pdn[run], "%s", support_path(paths.dir, name));
		const char *args[] = {"--engine", cmd,      "name=a",          extra_key,
		                      "--engine", cmd,      "name=b",          extra_value,
		                      "--games",  "6",      "--concurrency",   "2",
		                      "--depth",  "3",      "--openings",      paths.openings,
		                      "--pdn",    pdn[run], "--stall-timeout", "20",
		                      NULL};
		assert_int_equal(run_tool(args, out, 0), 0);
		read_record(pdn[run], &r[run]);
	}
	assert_int_equal(r[0].count, 6);
	assert_int_equal(r[1].count, 6);
	for (int i = 0; i < 6; i++) {
		assert_true(r[0].present[i] && r[1].present[i]);
		const Game *a = r[0].games[i].game, *b = r[1].games[i].game;
		assert_true(position_equal(&a->positions[0], &b->positions[0]));
		assert_int_equal(a->ply_count, b->ply_count);
		for (int k = 0; k < a->ply_count; k++)
			assert_true(move_equal(a->moves[k], b->moves[k]));
		assert_int_equal(r[0].games[i].result, r[1].games[i].result);
		assert_rules_agree(&r[0].games[i]);
		/* Each opening twice, colours reversed. */
		assert_string_equal(tag(&r[0].games[i], "FEN"), tag(&r[0].games[i ^ 1], "FEN"));
		assert_string_equal(tag(&r[0].games[i], "Black"), i % 2 ? "b" : "a");
	}
	free_record(&r[0]);
	free_record(&r[1]);
}

static void test_same_games_twice_poolshark(void **state)
{
	(void)state;
	play_twice(paths.engine, "option=hash=8", "option=hash=8");
}

/* The rules are set before the engines' own options, which may depend on
 * them: a Russian network is taken under --variant russian. */
static void test_variant_before_engine_options(void **state)
{
	(void)state;
	/* The tests run from the source tree. */
	const char *openings = "tools/data/openings-russian.fen";
	char opt[] = "option=eval-file=tools/data/nnue-russian.bin", cmd[1100], out[300];
	snprintf(cmd, sizeof cmd, "cmd=%s", paths.engine);
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "variant.out"));
	const char *args[] = {"--engine", cmd, "name=a",    "option=eval=net", opt,
	                      "--engine", cmd, "name=b",    "--games",         "2",
	                      "--depth",  "2", "--variant", "russian",         "--openings",
	                      openings,   NULL};
	int status = run_tool(args, out, 0);
	if (status != 0) {
		char text[2000] = "", err[330];
		snprintf(err, sizeof err, "%s.err", out);
		read_text(err, text, sizeof text);
		fail_msg("pool-match exited %d: %s", status, text);
	}
}

static void test_same_games_twice_toy(void **state)
{
	(void)state;
	play_twice(paths.toy, "option=seed=1", "option=seed=2");
}

typedef struct FaultCase {
	const char *fault;
	const char *limit_key, *limit_value;
	const char *termination;
	const char *detail; /* a piece of TerminationDetails */
} FaultCase;

static void test_faulty_engines_are_caught(void **state)
{
	(void)state;
	static const FaultCase cases[] = {
	    {"illegal", "--depth", "2", "illegal move", "\"done move=1-2\""},
	    {"crash", "--depth", "2", "crash", "signal 6"},
	    {"silent", "--depth", "2", "stall", "ping"},
	    {"slow", "--movetime", "0.05", "time forfeit", "faulty"},
	    {"slow", "--tc", "0.2+0.05", "time forfeit", "faulty"},
	    /* Lines without end: the clock is read after every line. */
	    {"flood", "--movetime", "0.05", "time forfeit", "faulty used more than"},
	    /* Answers ping, never done, and there is no clock: the move timeout. */
	    {"no-done", "--depth", "2", "stall", "sent no `done` within 1.0 s"},
	};
	char good[1100], bad[1100], pdn[300], out[300];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		Record r;
		snprintf(good, sizeof good, "cmd=%s", paths.toy);
		snprintf(bad, sizeof bad, "cmd=%s --fault %s --at 3", paths.toy, cases[c].fault);
		snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "fault.pdn"));
		snprintf(out, sizeof out, "%s", support_path(paths.dir, "fault.out"));
		const char *args[] = {"--engine",
		                      good,
		                      "name=good",
		                      "--engine",
		                      bad,
		                      "name=faulty",
		                      "--games",
		                      "4",
		                      "--concurrency",
		                      "2",
		                      cases[c].limit_key,
		                      cases[c].limit_value,
		                      "--margin",
		                      "0.05",
		                      "--stall-timeout",
		                      "0.3",
		                      "--move-timeout",
		                      "1",
		                      "--openings",
		                      paths.openings,
		                      "--pdn",
		                      pdn,
		                      NULL};
		assert_int_equal(run_tool(args, out, 0), 0);
		read_record(pdn, &r);
		/* Every game is played: the match went on, the engine came back. */
		assert_int_equal(r.count, 4);
		for (int i = 0; i < 4; i++) {
			const PdnGame *g = &r.games[i];
			assert_string_equal(tag(g, "Termination"), cases[c].termination);
			assert_non_null(strstr(tag(g, "TerminationDetails"), cases[c].detail));
			assert_true(first_engine_won(g, "good"));
			/* The fault came at its third move, after two good ones. */
			assert_true(g->game->ply_count >= 4 && g->game->ply_count <= 5);
		}
		free_record(&r);
	}
}

static void test_interrupt_leaves_no_process(void **state)
{
	(void)state;
	char good[1100], bad[1100], pdn[300], out[300];
	snprintf(good, sizeof good, "cmd=%s", paths.toy);
	snprintf(bad, sizeof bad, "cmd=%s --fault silent --at 1", paths.toy);
	snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "int.pdn"));
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "int.out"));
	const char *args[] = {"--engine",
	                      good,
	                      "--engine",
	                      bad,
	                      "--games",
	                      "8",
	                      "--concurrency",
	                      "3",
	                      "--depth",
	                      "2",
	                      "--stall-timeout",
	                      "30",
	                      "--openings",
	                      paths.openings,
	                      "--pdn",
	                      pdn,
	                      NULL};
	int64_t start = clock_now_ms();
	/* 130: interrupted; run_tool checks that nothing is left. */
	assert_int_equal(run_tool(args, out, 400), 130);
	assert_true(clock_now_ms() - start < 5000);
	Record r;
	read_record(pdn, &r);
	assert_int_equal(r.count, 0); /* unfinished games are not recorded */
	free_record(&r);
}

static void test_adjudication(void **state)
{
	(void)state;
	char winner[1100], loser[1100], pdn[300], out[300];
	Record r;
	snprintf(winner, sizeof winner, "cmd=%s --score 5.5", paths.toy);
	snprintf(loser, sizeof loser, "cmd=%s --score -4", paths.toy);
	snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "adj.pdn"));
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "adj.out"));
	const char *args[] = {"--engine",     winner,    "name=w",  "--engine",   loser,
	                      "name=l",       "--games", "4",       "--depth",    "1",
	                      "--adjudicate", "score=3", "moves=2", "--openings", paths.openings,
	                      "--pdn",        pdn,       NULL};
	assert_int_equal(run_tool(args, out, 0), 0);
	read_record(pdn, &r);
	assert_int_equal(r.count, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(tag(&r.games[i], "Termination"), "adjudication: score");
		assert_true(first_engine_won(&r.games[i], "w"));
		assert_int_equal(r.games[i].game->ply_count, 4); /* two moves each */
	}
	free_record(&r);

	const char *capped[] = {"--engine",   winner,         "--engine", loser,         "--games",
	                        "2",          "--depth",      "1",        "--max-moves", "3",
	                        "--openings", paths.openings, "--pdn",    pdn,           NULL};
	assert_int_equal(run_tool(capped, out, 0), 0);
	read_record(pdn, &r);
	assert_int_equal(r.count, 2);
	for (int i = 0; i < 2; i++) {
		assert_string_equal(tag(&r.games[i], "Termination"), "adjudication: move cap");
		assert_int_equal(r.games[i].result, RESULT_DRAW);
		assert_int_equal(r.games[i].game->ply_count, 6);
	}
	free_record(&r);
}

static bool file_contains(const char *path, const char *text)
{
	char buffer[8192];
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buffer, 1, sizeof buffer - 1, f);
	buffer[n] = '\0';
	fclose(f);
	return strstr(buffer, text) != NULL;
}

static void test_sprt_stops_the_match(void **state)
{
	(void)state;
	char good[1100], bad[1100], pdn[300], out[300];
	Record r;
	snprintf(good, sizeof good, "cmd=%s", paths.toy);
	snprintf(bad, sizeof bad, "cmd=%s --fault illegal", paths.toy);
	snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "sprt.pdn"));
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "sprt.out"));
	const char *args[] = {"--engine",     good,      "name=good",  "--engine",  bad,
	                      "--games",      "200",     "--depth",    "1",         "--sprt",
	                      "elo0=0",       "elo1=50", "alpha=0.05", "beta=0.05", "--openings",
	                      paths.openings, "--pdn",   pdn,          NULL};
	assert_int_equal(run_tool(args, out, 0), 0);
	read_record(pdn, &r);
	assert_true(r.count >= 2 && r.count < 200);
	for (int i = 0; i < MAX_GAMES; i++)
		if (r.present[i])
			assert_true(first_engine_won(&r.games[i], "good"));
	assert_true(file_contains(out, "H1 accepted"));
	free_record(&r);
}

/* The "Result for ..." line of a summary. */
static void result_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	out[0] = '\0';
	while (fgets(out, (int)size, f) && strncmp(out, "Result for", 10))
		;
	fclose(f);
	assert_int_equal(strncmp(out, "Result for", 10), 0);
}

static void test_shards_and_summarize(void **state)
{
	(void)state;
	char a[1100], b[1100], pdn[3][300], out[300], full_line[256], sum_line[256];
	Record shard[2];
	snprintf(a, sizeof a, "cmd=%s", paths.toy);
	snprintf(b, sizeof b, "cmd=%s", paths.toy);
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "shard.out"));
	for (int s = 0; s < 3; s++) {
		char name[32], slice[8];
		snprintf(name, sizeof name, "shard%d.pdn", s);
		snprintf(slice, sizeof slice, "%d/2", s + 1);
		snprintf(pdn[s], sizeof pdn[s], "%s", support_path(paths.dir, name));
		const char *args[] = {"--engine",
		                      a,
		                      "name=x",
		                      "--engine",
		                      b,
		                      "name=y",
		                      "option=seed=9",
		                      "--games",
		                      "10",
		                      "--depth",
		                      "1",
		                      "--seed",
		                      "77",
		                      "--openings",
		                      paths.openings,
		                      "--pdn",
		                      pdn[s],
		                      s < 2 ? "--shard" : NULL,
		                      slice,
		                      NULL};
		assert_int_equal(run_tool(args, out, 0), 0);
		if (s < 2)
			read_record(pdn[s], &shard[s]);
	}
	result_line(out, full_line, sizeof full_line); /* the unsharded run */
	/* The shards split the pairs between them and cover all ten games. */
	for (int i = 0; i < 10; i++) {
		assert_true(shard[0].present[i] != shard[1].present[i]);
		assert_int_equal(shard[0].present[i], shard[0].present[i ^ 1]);
	}
	assert_int_equal(shard[0].count + shard[1].count, 10);
	free_record(&shard[0]);
	free_record(&shard[1]);

	const char *args[] = {"--summarize", pdn[0], pdn[1], NULL};
	assert_int_equal(run_tool(args, out, 0), 0);
	result_line(out, sum_line, sizeof sum_line);
	assert_string_equal(sum_line, full_line);
	assert_true(file_contains(out, "10 games"));

	/* Two matches share round numbers (here one match given twice): each
	 * file's games pair among themselves. */
	const char *twice[] = {"--summarize", pdn[2], pdn[2], NULL};
	assert_int_equal(run_tool(twice, out, 0), 0);
	assert_true(file_contains(out, "20 games"));
	assert_true(file_contains(out, "Pairs (10)"));
}

/*
 * The first material edge of each game, in the summary: a piece won and
 * kept (alpha, Black in round 1, two pieces left, won), a piece down from
 * the start (beta, White in round 3, 23 pieces, drawn), and an exchange
 * whose piece comes straight back, which is no edge.
 */
/* The edge table's row of `name` in the summary at `path`: per phase the
 * games, won, drawn and lost. */
static bool edge_row(const char *path, const char *name, int row[12])
{
	char line[512], first[64];
	bool found = false;
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (!found && fgets(line, sizeof line, f)) {
		int *r = row;
		found =
		    sscanf(line, " %63s %d: +%d =%d -%d %d: +%d =%d -%d %d: +%d =%d -%d", first, &r[0], &r[1],
		           &r[2], &r[3], &r[4], &r[5], &r[6], &r[7], &r[8], &r[9], &r[10], &r[11]) == 13 &&
		    !strcmp(first, name);
	}
	fclose(f);
	return found;
}

static void test_summarize_material_edges(void **state)
{
	(void)state;
	char out[300], pdn[300];
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "edges.out"));
	snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "edges.pdn"));
	static const char games[] =
	    "[Round \"1\"]\n[Black \"alpha\"]\n[White \"beta\"]\n[Result \"0-1\"]\n"
	    "[SetUp \"1\"]\n[FEN \"B:W18,31:B14,1\"]\n\n1. 14x23 31-26 2. 23x30 0-1\n\n"
	    "[Round \"2\"]\n[Black \"beta\"]\n[White \"alpha\"]\n[Result \"1/2-1/2\"]\n\n"
	    "1. 11-15 22-18 2. 15x22 25x18 1/2-1/2\n\n"
	    "[Round \"3\"]\n[Black \"alpha\"]\n[White \"beta\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
	    "[FEN \"B:W21,22,23,24,25,26,27,28,29,30,31,32:B2,3,4,5,6,7,8,9,10,11,12\"]\n\n"
	    "1. 11-15 22-18 1/2-1/2\n";
	support_write_file(NULL, pdn, games, sizeof games - 1);
	const char *args[] = {"--summarize", pdn, NULL};
	assert_int_equal(run_tool(args, out, 0), 0);
	assert_true(file_contains(out, "3 games"));
	assert_true(file_contains(out, "First material edge (a piece more for 6 plies)"));
	/* Per phase (13-24, 7-12, 2-6 pieces): games, won, drawn, lost. */
	static const int alpha[12] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0};
	static const int beta[12] = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	int row[12];
	assert_true(edge_row(out, "alpha", row));
	assert_memory_equal(row, alpha, sizeof row);
	assert_true(edge_row(out, "beta", row));
	assert_memory_equal(row, beta, sizeof row);
	assert_true(file_contains(out, "  no edge in 1 games\n"));
}

/*
 * An engine run by a wrapper that leaves a process behind in its group (as
 * the leak checker of a sanitizer build does while it exits). pool-match
 * ends the whole group and reaps every member before it exits, so nothing
 * is handed on to us.
 */
static void test_engine_group_is_reaped(void **state)
{
	(void)state;
	char wrapped[1100], pdn[300], out[300];
	snprintf(wrapped, sizeof wrapped, "cmd=sh -c 'sleep 30 >/dev/null & exec %s'", paths.toy);
	snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "group.pdn"));
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "group.out"));
	const char *args[] = {"--engine",   wrapped,        "name=a", "--engine", wrapped,
	                      "name=b",     "--games",      "2",      "--depth",  "1",
	                      "--openings", paths.openings, "--pdn",  pdn,        NULL};
	/* run_tool fails the test if a process is left. */
	assert_int_equal(run_tool(args, out, 0), 0);
}

/* Unreadable or broken inputs and a full output end with status 1; odd but
 * valid PDN does not. run_tool fails the test on a crash or a hang. */
static void test_summarize_bad_inputs(void **state)
{
	(void)state;
	char out[300], empty_tags[300], nul[300];
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "sum.out"));
	snprintf(empty_tags, sizeof empty_tags, "%s", support_path(paths.dir, "empty-tags.pdn"));
	snprintf(nul, sizeof nul, "%s", support_path(paths.dir, "nul.pdn"));
	support_write_file(NULL, empty_tags, "[Event \"\"]\n{}\n;\n", 16);
	support_write_file(NULL, nul, "[Event \"x\"]\n1. 11-15\0 *\n", 24);

	const char *tags[] = {"--summarize", empty_tags, NULL};
	assert_int_equal(run_tool(tags, out, 0), 0);
	assert_true(file_contains(out, "0 games"));
	const char *with_nul[] = {"--summarize", nul, NULL};
	assert_int_equal(run_tool(with_nul, out, 0), 1);
	const char *directory[] = {"--summarize", paths.dir, NULL};
	assert_int_equal(run_tool(directory, out, 0), 1);
	const char *zeros[] = {"--summarize", "/dev/zero", NULL};
	assert_int_equal(run_tool(zeros, out, 0), 1);
	/* The summary is the whole point: losing it is an error. */
	assert_int_equal(run_tool(tags, "/dev/full", 0), 1);
}

/* An openings file without end is refused at once, before any engine starts. */
static void test_endless_openings_are_refused(void **state)
{
	(void)state;
	char toy[1100], out[300];
	snprintf(toy, sizeof toy, "cmd=%s", paths.toy);
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "zero.out"));
	const char *args[] = {"--engine", toy, "--engine",   toy,         "--games", "2",
	                      "--depth",  "1", "--openings", "/dev/zero", NULL};
	int64_t start = clock_now_ms();
	assert_int_equal(run_tool(args, out, 0), 1);
	assert_true(clock_now_ms() - start < 5000);
	char err[310], text[4096];
	snprintf(err, sizeof err, "%s.err", out);
	read_text(err, text, sizeof text);
	assert_non_null(strstr(text, "/dev/zero:1: a NUL byte"));
}

/*
 * SIGTERM and SIGINT end a match that waits for an engine's handshake (here
 * an engine that never answers `hub`): at once, with status 130, a message,
 * and the engine ended (run_tool fails the test if anything is left).
 */
static void test_signal_during_handshake(void **state)
{
	(void)state;
	char mute[1100], toy[1100], out[300], err[310], text[4096];
	snprintf(mute, sizeof mute, "cmd=%s --fault mute-hub", paths.toy);
	snprintf(toy, sizeof toy, "cmd=%s", paths.toy);
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "term.out"));
	const int signals[] = {SIGTERM, SIGINT};
	for (int i = 0; i < 2; i++) {
		const char *args[] = {"--engine", toy, "--engine",   mute,           "--games", "2",
		                      "--depth",  "1", "--openings", paths.openings, NULL};
		int64_t start = clock_now_ms();
		assert_int_equal(run_tool_signal(args, out, 300, signals[i]), 130);
		/* The handshake would have waited 10 s. */
		assert_true(clock_now_ms() - start < 3000);
		snprintf(err, sizeof err, "%s.err", out);
		read_text(err, text, sizeof text);
		assert_non_null(strstr(text, "pool-match: interrupted"));
	}
}

/* A match whose summary or PDN record cannot be written, or whose engine
 * refuses an option it was given, ends with status 1, and at once. */
static void test_match_output_errors(void **state)
{
	(void)state;
	char toy[1100], out[300], pdn[300];
	snprintf(toy, sizeof toy, "cmd=%s", paths.toy);
	snprintf(out, sizeof out, "%s", support_path(paths.dir, "err.out"));
	snprintf(pdn, sizeof pdn, "%s", support_path(paths.dir, "err.pdn"));
	const char *full_stdout[] = {"--engine", toy,          "--engine",     toy, "--games", "2", "--depth",
	                             "1",        "--openings", paths.openings, NULL};
	assert_int_equal(run_tool(full_stdout, "/dev/full", 0), 1);

	/* The first record that cannot be written stops the match. */
	const char *full_pdn[] = {"--engine", toy,         "--engine", toy,          "--games",
	                          "40",       "--depth",   "1",        "--openings", paths.openings,
	                          "--pdn",    "/dev/full", NULL};
	assert_int_equal(run_tool(full_pdn, out, 0), 1);
	assert_true(file_contains(out, ", 1 games"));

	/* A --pdn that cannot be opened stops it before any engine starts. */
	char missing[400], marker[400], marking[1600];
	snprintf(missing, sizeof missing, "%s/no/such/dir.pdn", paths.dir);
	snprintf(marker, sizeof marker, "%s/engine-started", paths.dir);
	snprintf(marking, sizeof marking, "cmd=sh -c 'touch %s; exec %s'", marker, paths.toy);
	const char *bad_pdn[] = {"--engine", marking,      "--engine",     toy,     "--games", "2", "--depth",
	                         "1",        "--openings", paths.openings, "--pdn", missing,   NULL};
	assert_int_equal(run_tool(bad_pdn, out, 0), 1);
	assert_int_equal(access(marker, F_OK), -1);

	/* An engine that answers an option with error: the match would not be
	 * the one asked for, so none is played. */
	char refusing[1100];
	snprintf(refusing, sizeof refusing, "option=colour=blue");
	const char *option[] = {"--engine", toy, refusing,     "--engine",     toy,     "--games", "2",
	                        "--depth",  "1", "--openings", paths.openings, "--pdn", pdn,       NULL};
	assert_int_equal(run_tool(option, out, 0), 1);
	assert_false(file_contains(out, "Match:"));
}

/* Every distinct position two plies from the start: a small openings file. */
static void write_openings(void)
{
	Position start, seen[64];
	int count = 0;
	MoveList first, second;
	FILE *f = fopen(paths.openings, "w");
	assert_non_null(f);
	position_start(&start);
	movegen_generate(&start, &first);
	for (int i = 0; i < first.count; i++) {
		Position p1, p2;
		position_make(&start, first.moves[i], &p1);
		movegen_generate(&p1, &second);
		for (int j = 0; j < second.count && count < 64; j++) {
			position_make(&p1, second.moves[j], &p2);
			bool known = false;
			for (int k = 0; k < count; k++)
				known |= position_equal(&seen[k], &p2);
			if (known)
				continue;
			seen[count++] = p2;
			char fen[NOTATION_FEN_MAX];
			notation_write_fen(&p2, fen, sizeof fen);
			fprintf(f, "%s\n", fen);
		}
	}
	fclose(f);
}

/* Whether `binary` answers `hub` with `wait` (poolshark's Hub mode works). */
static bool speaks_hub(const char *binary)
{
	char command[1200], line[256];
	bool ok = false;
	snprintf(command, sizeof command, "printf 'hub\\nquit\\n' | timeout 5 '%s' 2>/dev/null", binary);
	FILE *p = popen(command, "r");
	if (!p)
		return false;
	while (fgets(line, sizeof line, p))
		ok |= !strncmp(line, "wait", 4);
	pclose(p);
	return ok;
}

static int setup(void **state)
{
	*state = paths.dir;
	if (!support_tool_path("test_match", "pool-match", paths.tool, sizeof paths.tool) ||
	    !support_helper_path("test_match", "hub_toy", paths.toy, sizeof paths.toy) ||
	    !support_scratch_dir("test_match", paths.dir, sizeof paths.dir))
		return -1;
	if (speaks_hub(support_engine())) {
		snprintf(paths.engine, sizeof paths.engine, "%s", support_engine());
	} else {
		fprintf(stderr, "test_match: %s does not speak Hub; using hub_toy instead\n",
		        support_engine());
		snprintf(paths.engine, sizeof paths.engine, "%s", paths.toy);
	}
	snprintf(paths.openings, sizeof paths.openings, "%s/openings.fen", paths.dir);
	/* Orphaned engines are handed to us, so a leftover cannot hide. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	write_openings();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_games_twice_poolshark),
	    cmocka_unit_test(test_variant_before_engine_options),
	    cmocka_unit_test(test_same_games_twice_toy),
	    cmocka_unit_test(test_faulty_engines_are_caught),
	    cmocka_unit_test(test_interrupt_leaves_no_process),
	    cmocka_unit_test(test_adjudication),
	    cmocka_unit_test(test_sprt_stops_the_match),
	    cmocka_unit_test(test_shards_and_summarize),
	    cmocka_unit_test(test_engine_group_is_reaped),
	    cmocka_unit_test(test_summarize_bad_inputs),
	    cmocka_unit_test(test_summarize_material_edges),
	    cmocka_unit_test(test_endless_openings_are_refused),
	    cmocka_unit_test(test_signal_during_handshake),
	    cmocka_unit_test(test_match_output_errors),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
