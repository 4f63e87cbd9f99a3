/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard adapter: the shared object loaded with dlopen and called as CheckerBoard calls it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkerboard/scenario.h"
#include "poolshark/cbengine.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_square_coordinates),
	    cmocka_unit_test(test_small_reply_buffers),
	    cmocka_unit_test(test_capture_entry),
	    cmocka_unit_test(test_startup),
	    cmocka_unit_test(test_movelists),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_game),
	    cmocka_unit_test(test_reset_and_history),
	    cmocka_unit_test(test_playnow),
	    cmocka_unit_test(test_clock),
	};
	return cmocka_run_group_tests(tests, load_library, unload_library);
}
