/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard adapter: the shared object loaded with dlopen and called as CheckerBoard calls it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkerboard/scenario.h"
#include "frontend/cbengine.h"
#include "poolshark/movegen.h"
#include "poolshark/nnue.h"
#include "poolshark/notation.h"
#include "poolshark/score.h"
#include "support/support.h"

static void *library;
static CbApi api;

static int load_library(void **state)
{
	(void)state;
	const char *path = getenv("CB_LIBRARY");
	if (!path)
		path = "build/checkerboard/poolshark-cb.so";
	library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!library) {
		fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
		return -1;
	}
	/* POSIX's way from a symbol to a function pointer. */
	*(void **)&api.getmove = dlsym(library, "getmove");
	*(void **)&api.enginecommand = dlsym(library, "enginecommand");
	api.log = stdout;
	return api.getmove && api.enginecommand ? 0 : -1;
}

static int unload_library(void **state)
{
	(void)state;
	/* Not dlclose()d: like CheckerBoard, the process keeps the engine until it exits. */
	return 0;
}

static void run_step(int index)
{
	char why[512] = "";
	bool ok = scenario_steps[index].run(&api, why, sizeof why);
	if (!ok)
		fail_msg("%s: %s", scenario_steps[index].name, why);
}

static void test_startup(void **state)
{
	(void)state;
	run_step(0);
}

static void test_movelists(void **state)
{
	(void)state;
	run_step(1);
}

static void test_bad_input(void **state)
{
	(void)state;
	run_step(2);
}

static void test_game(void **state)
{
	(void)state;
	run_step(3);
}

static void test_reset_and_history(void **state)
{
	(void)state;
	run_step(4);
}

static void test_playnow(void **state)
{
	(void)state;
	run_step(5);
}

/* As pydraughts' CheckerBoardEngine drives the shared object on Linux
 * (ctypes calls of the same two functions, doc/CHECKERBOARD.md): after
 * `set gametype 25` (or 26) `about` names the rules now played, as `get
 * gametype` does; it used to say pool's 23 whatever was set. Pool is set
 * back at the end, for the steps that follow. */
static void test_about_follows_the_gametype(void **state)
{
	(void)state;
	static const struct {
		const char *type, *about, *rule;
	} cases[] = {
	    {"25", "Russian draughts (gametype 25)", "a man crowned during a capture goes on as a king"},
	    {"26", "Brazilian draughts (gametype 26)", "the capture taking the most pieces"},
	    {"23", "American pool checkers (gametype 23)", "crowning only at the end of a move"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char command[256], reply[1024];
		snprintf(command, sizeof command, "set gametype %s", cases[i].type);
		assert_int_equal(api.enginecommand(command, reply), 1);
		assert_int_equal(api.enginecommand("get gametype", reply), 1);
		assert_string_equal(reply, cases[i].type);
		assert_int_equal(api.enginecommand("about", reply), 1);
		if (!strstr(reply, cases[i].about) || !strstr(reply, cases[i].rule))
			fail_msg("after set gametype %s, about says:\n%s", cases[i].type, reply);
	}
}

/* `about` names the network's kernel, and `bench` runs in the library
 * with that kernel, the bench's node count included. */
static void test_kernel_and_bench(void **state)
{
	(void)state;
	char about[1024], reply[1024];
	assert_int_equal(api.enginecommand("about", about), 1);
	const char *named = strstr(about, "network kernel: ");
	if (!named)
		fail_msg("about names no kernel:\n%s", about);
	char kernel[32];
	assert_int_equal(sscanf(named, "network kernel: %31[a-z0-9]", kernel), 1);
	int k = 0;
	while (k < NNUE_KERNEL_COUNT && strcmp(kernel, nnue_kernel_name((NnueKernel)k)) != 0)
		k++;
	if (k == NNUE_KERNEL_COUNT || !nnue_kernel_available((NnueKernel)k))
		fail_msg("about names kernel '%s', not one this processor runs", kernel);
	assert_int_equal(api.enginecommand("bench 3 classic", reply), 1);
	char expected[96];
	snprintf(expected, sizeof expected, "bench depth=3 eval=classic kernel=%s nodes=", kernel);
	if (strncmp(reply, expected, strlen(expected)) != 0 || !strstr(reply, " nps="))
		fail_msg("bench 3 classic answers: %s", reply);
	assert_int_equal(api.enginecommand("bench 0", reply), 0);
	assert_non_null(strstr(reply, "not a depth"));
}

/* With POOLSHARK_KERNEL naming no kernel, the library answers every
 * getmove with the reason and plays no move; about says the kernel was
 * refused. In a child, on a copy of the library (a fresh adapter). */
static void test_kernel_refused(void **state)
{
	(void)state;
	const char *path = getenv("CB_LIBRARY");
	char copy[] = "/tmp/test_cbengine_XXXXXX";
	int fd = mkstemp(copy);
	assert_true(fd >= 0);
	FILE *from = fopen(path ? path : "build/checkerboard/poolshark-cb.so", "rb"), *to = fdopen(fd, "wb");
	assert_non_null(from);
	assert_non_null(to);
	char buffer[65536];
	for (size_t n; (n = fread(buffer, 1, sizeof buffer, from)) > 0;)
		assert_int_equal(fwrite(buffer, 1, n, to), n);
	fclose(from);
	fclose(to);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("POOLSHARK_KERNEL", "avx9000", 1);
		void *lib = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
		CbApi refused = {0};
		if (!lib)
			_exit(10);
		*(void **)&refused.getmove = dlsym(lib, "getmove");
		*(void **)&refused.enginecommand = dlsym(lib, "enginecommand");
		char reply[1024], status[1024] = "";
		if (refused.enginecommand("about", reply) != 1 || !strstr(reply, "(POOLSHARK_KERNEL refused"))
			_exit(11);
		int board[8][8] = {{0}}; /* refused before the board is read */
		CbMove move;
		int playnow = 0;
		int code = refused.getmove(board, CB_BLACK, 0.05, status, &playnow, 0, 0, &move);
		_exit(code == CB_UNKNOWN && strstr(status, "POOLSHARK_KERNEL=avx9000: not a kernel") ? 0
		                                                                                     : 12);
	}
	int status;
	waitpid(pid, &status, 0);
	unlink(copy);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) != 0)
		fail_msg("the refused kernel's library: check %d failed (10 load, 11 about, 12 getmove)",
		         WEXITSTATUS(status));
}

static void test_eval_options(void **state)
{
	(void)state;
	run_step(7);
}

static void test_english(void **state)
{
	(void)state;
	run_step(8);
}

static void test_italian_and_spanish(void **state)
{
	(void)state;
	run_step(9);
}

/* A network file cut short is refused with the reason, and the network set
 * before stays. */
static void test_eval_file_cut_short(void **state)
{
	(void)state;
	char dir[64], path[128], command[192], reply[1024];
	assert_true(support_scratch_dir("test_cbengine", dir, sizeof dir));
	snprintf(path, sizeof path, "%s/cut.bin", dir);
	FILE *in = fopen("tools/data/nnue-pool.bin", "rb");
	assert_non_null(in);
	char bytes[5000];
	assert_int_equal(fread(bytes, 1, sizeof bytes, in), sizeof bytes);
	fclose(in);
	support_write_file(NULL, path, bytes, sizeof bytes);
	assert_int_equal(api.enginecommand("set eval-file tools/data/nnue-pool.bin", reply), 1);
	snprintf(command, sizeof command, "set eval-file %s", path);
	assert_int_equal(api.enginecommand(command, reply), 0);
	char wanted[256];
	snprintf(wanted, sizeof wanted, "error: eval-file: %s: truncated: 5000 bytes", path);
	if (strncmp(reply, wanted, strlen(wanted)) != 0)
		fail_msg("'%s' replied '%s'", command, reply);
	assert_int_equal(api.enginecommand("get eval-file", reply), 1);
	assert_string_equal(reply, "tools/data/nnue-pool.bin");
	assert_int_equal(api.enginecommand("set eval-file default", reply), 1);
	unlink(path);
	rmdir(dir);
}

/* A database directory without databases is refused, as by the other
 * front-ends (engine_set_options()), and the old setting stays. */
static void test_egdb_path_without_databases(void **state)
{
	(void)state;
	char dir[64], command[256], before[1024], reply[1024];
	assert_true(support_scratch_dir("test_cbengine", dir, sizeof dir));
	assert_int_equal(api.enginecommand("get egdb-path", before), 1);
	snprintf(command, sizeof command, "set egdb-path %s", dir);
	assert_int_equal(api.enginecommand(command, reply), 0);
	if (strncmp(reply, "error: egdb-path not set: ", 26) != 0 || strlen(reply) <= 26)
		fail_msg("set egdb-path of an empty directory says: %s", reply);
	assert_int_equal(api.enginecommand("get egdb-path", reply), 1);
	assert_string_equal(reply, before);
	rmdir(dir);
}

/* CheckerBoard's coordinates of a few squares (its coorstonumber() for English numbering). */
static void test_clock(void **state)
{
	(void)state;
	run_step(6);
}

static void test_square_coordinates(void **state)
{
	(void)state;
	static const int cases[][3] = {{1, 6, 0}, {4, 0, 0}, {5, 7, 1}, {8, 1, 1}, {29, 7, 7}, {32, 1, 7}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CbCoor c = cbengine_square_coor(cases[i][0]);
		assert_int_equal(c.x, cases[i][1]);
		assert_int_equal(c.y, cases[i][2]);
	}
	for (int s = 1; s <= 32; s++) {
		CbCoor c = cbengine_square_coor(s);
		assert_int_equal(cbengine_coor_square(c.x, c.y), s);
	}
	assert_int_equal(cbengine_coor_square(1, 0), 0); /* light */
	assert_int_equal(cbengine_coor_square(-1, 0), 0);
	assert_int_equal(cbengine_coor_square(8, 8), 0);
}

/* Every reply fits any buffer it is given: cut, terminated, nothing written past it. */
static void test_small_reply_buffers(void **state)
{
	(void)state;
	CbEngine *cb = cbengine_create();
	assert_non_null(cb);
	static const char *const commands[] = {
	    "name",
	    "about",
	    "get gametype",
	    "get hashsize",
	    "frobnicate",
	    "get movelist B:W1:B",
	    "get movelist B:W21-32:B1-12",
	    "get movelist W:W7,9,K22,23:B16,K18,24,26",
	    "get movelist B:W33:B1",
	    "set gamehist B:W21-32:B1-12",
	};
	static const size_t sizes[] = {1, 2, 5, 11, 40, 100, 256};
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			char buffer[300];
			memset(buffer, 'Z', sizeof buffer);
			cbengine_command(cb, commands[i], buffer, sizes[k]);
			assert_non_null(memchr(buffer, '\0', sizes[k]));
			for (size_t j = sizes[k]; j < sizeof buffer; j++)
				assert_int_equal(buffer[j], 'Z');
		}
	}
	/* A list that does not fit is refused whole, never cut into a list CheckerBoard would misread. */
	char small[40];
	assert_false(cbengine_command(cb, "get movelist B:W21-32:B1-12", small, sizeof small));
	assert_int_equal(strncmp(small, "error", 5), 0);
	char big[CB_REPLY_SIZE];
	assert_true(cbengine_command(cb, "get movelist B:W21-32:B1-12", big, sizeof big));
	assert_string_equal(big, "movelist 7,0,6,6,9,13;0,6,6,9,14;0,6,6,10,14;0,6,6,10,15;0,6,6,11,15;"
	                         "0,6,6,11,16;0,6,6,12,16;");
	cbengine_destroy(cb);
}

/* The example of the CheckerBoard API page, in pool: a man's two-piece capture. */
static void test_capture_entry(void **state)
{
	(void)state;
	CbEngine *cb = cbengine_create();
	assert_non_null(cb);
	char reply[CB_REPLY_SIZE];
	assert_true(cbengine_command(cb, "get movelist W:W22:B17,18,11", reply, sizeof reply));
	/* 22x15x8 takes 18 then 11, 22x13 takes 17 (white men are 5, black men 6). */
	assert_string_equal(reply, "movelist 2,2,5,5,22,8,15,18,6,8,11,6;1,5,5,22,13,13,17,6;");
	assert_true(cbengine_command(cb, "get movelist W:W9:B6,7", reply, sizeof reply));
	assert_string_equal(reply, "movelist 1,2,5,5,9,11,2,6,6,11,7,6;"); /* passes 2, stays a man */
	/* Five pieces, through 2 on the far row and back: still a man at the end. */
	assert_true(cbengine_command(cb, "get movelist W:W27:B23,15,14,6,7", reply, sizeof reply));
	assert_string_equal(reply, "movelist 1,5,5,5,27,18,18,23,6,9,14,6,2,6,6,11,7,6,18,15,6;");
	assert_true(cbengine_command(cb, "get movelist W:W5:B", reply, sizeof reply));
	assert_string_equal(reply, "movelist 1,0,5,9,5,1;"); /* ends on the far row: crowned, 5 -> 9 */
	cbengine_destroy(cb);
}

typedef struct Search {
	CbEngine *cb;
	int board[8][8];
	char status[CB_STATUS_SIZE];
	volatile int playnow;
	CbMove move;
	int result;
} Search;

static void *search_thread(void *arg)
{
	Search *s = arg;
	s->result = cbengine_getmove(s->cb, s->board, CB_BLACK, 30.0, s->status, &s->playnow, CB_RESET_MOVES,
	                             0, &s->move);
	return NULL;
}

/* CheckerBoard's default window shows some 70 characters of the status line:
 * the move, score and depth come first, "game over" within them, and a
 * forced end in one ply reads "1 ply". */
static void test_status_line(void **state)
{
	(void)state;
	CbEngine *cb = cbengine_create();
	assert_non_null(cb);
	char error[NOTATION_ERROR_MAX], text[NOTATION_MOVE_MAX], expect[NOTATION_MOVE_MAX + 96];
	Position p;
	MoveList list;
	regex_t re;
	regmatch_t m[2];

	/* Black takes White's last man: a win in one ply, the game over. */
	assert_true(notation_parse_fen("B:W15:B10,1", VARIANT_POOL, &p, error, sizeof error));
	assert_int_equal(movegen_generate(&p, &list), 1);
	notation_write_move(&p, list.moves[0], text, sizeof text);
	Search *s = calloc(1, sizeof *s);
	assert_non_null(s);
	cbengine_write_board(&p, s->board);
	s->result = cbengine_getmove(cb, s->board, CB_BLACK, 0.2, s->status, &s->playnow, CB_RESET_MOVES, 0,
	                             &s->move);
	assert_int_equal(s->result, CB_WIN);
	snprintf(expect, sizeof expect, "poolshark plays %s win in 1 ply depth 1, game over: no legal move, ",
	         text);
	assert_memory_equal(s->status, expect, strlen(expect));
	assert_true(strstr(s->status, "game over") + strlen("game over") - s->status <= 70);

	/* From the start: the move played, a score in men, the depth, the nodes. */
	position_start(&p);
	cbengine_write_board(&p, s->board);
	s->result = cbengine_getmove(cb, s->board, CB_BLACK, 0.05, s->status, &s->playnow, CB_RESET_MOVES, 0,
	                             &s->move);
	assert_int_equal(s->result, CB_UNKNOWN);
	assert_int_equal(
	    regcomp(&re, "^poolshark plays ([0-9]+-[0-9]+) [-+][0-9]+\\.[0-9]{2} depth [0-9]+, [0-9]+ nodes$",
	            REG_EXTENDED),
	    0);
	assert_int_equal(regexec(&re, s->status, 2, m, 0), 0);
	snprintf(expect, sizeof expect, "%d-%d", cbengine_coor_square(s->move.from.x, s->move.from.y),
	         cbengine_coor_square(s->move.to.x, s->move.to.y));
	assert_int_equal(m[1].rm_eo - m[1].rm_so, (regoff_t)strlen(expect));
	assert_memory_equal(s->status + m[1].rm_so, expect, strlen(expect));
	regfree(&re);

	/* During a search: best move, score, depth, time, nodes, then the line from that move. */
	cbengine_write_board(&p, s->board);
	s->cb = cb;
	s->status[0] = '\0';
	pthread_t thread;
	assert_int_equal(pthread_create(&thread, NULL, search_thread, s), 0);
	assert_int_equal(
	    regcomp(&re,
	            "^poolshark: ([0-9]+-[0-9]+) [-+][0-9]+\\.[0-9]{2} depth [0-9]+, [0-9]+\\.[0-9] s, "
	            "[0-9]+ nodes, pv ([0-9]+-[0-9]+)",
	            REG_EXTENDED),
	    0);
	bool seen = false;
	for (int tries = 0; tries < 300 && !seen; tries++) {
		char copy[CB_STATUS_SIZE];
		struct timespec pause = {0, 10 * 1000 * 1000};
		nanosleep(&pause, NULL);
		memcpy(copy, s->status, sizeof copy); /* as CheckerBoard reads it, while it changes */
		copy[sizeof copy - 1] = '\0';
		regmatch_t pv[3];
		seen = regexec(&re, copy, 3, pv, 0) == 0 &&
		       pv[1].rm_eo - pv[1].rm_so == pv[2].rm_eo - pv[2].rm_so &&
		       !memcmp(copy + pv[1].rm_so, copy + pv[2].rm_so, (size_t)(pv[1].rm_eo - pv[1].rm_so));
	}
	s->playnow = 1;
	pthread_join(thread, NULL);
	regfree(&re);
	assert_true(seen);

	/* The score texts say "ply" for one. */
	score_write(SCORE_WIN - 1, text, sizeof text);
	assert_string_equal(text, "+99.99 (win in 1 ply)");
	score_write(-(SCORE_WIN - 2), text, sizeof text);
	assert_string_equal(text, "-99.98 (loss in 2 plies)");
	score_write_brief(-(SCORE_WIN - 1), text, sizeof text);
	assert_string_equal(text, "loss in 1 ply");
	score_write_brief(-35, text, sizeof text);
	assert_string_equal(text, "-0.35");
	free(s);
	cbengine_destroy(cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_square_coordinates),
	    cmocka_unit_test(test_small_reply_buffers),
	    cmocka_unit_test(test_status_line),
	    cmocka_unit_test(test_capture_entry),
	    cmocka_unit_test(test_startup),
	    cmocka_unit_test(test_movelists),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_game),
	    cmocka_unit_test(test_reset_and_history),
	    cmocka_unit_test(test_playnow),
	    cmocka_unit_test(test_clock),
	    cmocka_unit_test(test_about_follows_the_gametype),
	    cmocka_unit_test(test_kernel_and_bench),
	    cmocka_unit_test(test_kernel_refused),
	    cmocka_unit_test(test_egdb_path_without_databases),
	    cmocka_unit_test(test_eval_options),
	    cmocka_unit_test(test_english),
	    cmocka_unit_test(test_italian_and_spanish),
	    cmocka_unit_test(test_eval_file_cut_short),
	};
	return cmocka_run_group_tests(tests, load_library, unload_library);
}
