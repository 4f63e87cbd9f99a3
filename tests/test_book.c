/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The opening book: file format, damaged files, weighted choice, the engine's use, bad settings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/bigmem.h"
#include "poolshark/book.h"
#include "poolshark/checksum.h"
#include "poolshark/clock.h"
#include "poolshark/engine.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "support/hubpipe.h"
#include "support/support.h"

enum { LINE_CAP = 8192 };

static char scratch[64];

/* A book of the start position's first two moves (weights 3 and 1) and
 * one entry for the position after 11-15. */
static void write_small_book(const char *path, Move *first, Move *second)
{
	Position start, next;
	position_start(&start);
	MoveList list;
	movegen_generate(&start, &list);
	*first = list.moves[0];
	*second = list.moves[1];
	position_make(&start, list.moves[0], &next);
	MoveList replies;
	movegen_generate(&next, &replies);
	BookEntry entries[] = {
	    {start.key, *second, 1},
	    {next.key, replies.moves[0], 7},
	    {start.key, *first, 3},
	};
	char error[BOOK_ERROR_MAX];
	if (!book_write(path, entries, 3, error, sizeof error))
		fail_msg("book_write: %s", error);
}

static void test_write_then_read(void **state)
{
	(void)state;
	char path[256], error[BOOK_ERROR_MAX];
	snprintf(path, sizeof path, "%s", support_path(scratch, "small.book"));
	Move first, second;
	write_small_book(path, &first, &second);
	Book *book = NULL;
	assert_true(book_open(path, &book, error, sizeof error));
	assert_non_null(book);
	assert_int_equal(book_entry_count(book), 3);
	Position start;
	position_start(&start);
	Move moves[8];
	int weights[8];
	assert_int_equal(book_moves(book, &start, moves, weights, 8), 2);
	/* The heavier move first. */
	assert_true(move_equal(moves[0], first));
	assert_int_equal(weights[0], 3);
	assert_true(move_equal(moves[1], second));
	assert_int_equal(weights[1], 1);
	/* A position that is not in the book. */
	Position other;
	position_make(&start, second, &other);
	assert_int_equal(book_moves(book, &other, moves, weights, 8), 0);
	assert_false(book_pick(book, &other, &(uint64_t){1}, &moves[0]));
	book_free(book);
}

/* Picks follow the weights (3 to 1 here) and only ever give book moves. */
static void test_pick_follows_the_weights(void **state)
{
	(void)state;
	char path[256], error[BOOK_ERROR_MAX];
	snprintf(path, sizeof path, "%s", support_path(scratch, "pick.book"));
	Move first, second;
	write_small_book(path, &first, &second);
	Book *book;
	assert_true(book_open(path, &book, error, sizeof error));
	Position start;
	position_start(&start);
	uint64_t random = 42;
	int firsts = 0;
	const int picks = 4000;
	for (int i = 0; i < picks; i++) {
		Move m;
		assert_true(book_pick(book, &start, &random, &m));
		assert_true(move_equal(m, first) || move_equal(m, second));
		firsts += move_equal(m, first);
	}
	assert_in_range(firsts, picks * 70 / 100, picks * 80 / 100);
	book_free(book);
}

/* Rewrites byte `at` of the file at `path` as `value` (or cuts the file
 * there when value < 0). */
static void damage(const char *path, long at, int value)
{
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	if (value < 0) {
		assert_int_equal(ftruncate(fileno(f), at), 0);
	} else {
		assert_int_equal(fseek(f, at, SEEK_SET), 0);
		assert_int_equal(fputc(value, f), value);
	}
	fclose(f);
}

static void expect_refused(const char *path, const char *fragment)
{
	char error[BOOK_ERROR_MAX];
	Book *book = (Book *)&error; /* must stay untouched */
	if (book_open(path, &book, error, sizeof error))
		fail_msg("%s was accepted", path);
	assert_ptr_equal(book, (Book *)&error);
	if (!strstr(error, fragment))
		fail_msg("'%s' does not say '%s'", error, fragment);
	assert_non_null(strstr(error, path));
}

static void test_damaged_files_are_refused(void **state)
{
	(void)state;
	char path[256];
	Move a, b;
	snprintf(path, sizeof path, "%s", support_path(scratch, "damaged.book"));
	expect_refused(path, "No such file");
	const struct {
		long at;
		int value;
		const char *fragment;
	} cases[] = {
	    {0, 'X', "not a poolshark book"},                         /* magic */
	    {8, 2, "version 2"},                                      /* version */
	    {16, 0, "other position keys"},                           /* start key */
	    {12, 9, "damaged book: 80 bytes for 9 entries"},          /* count */
	    {BOOK_HEADER_BYTES + 5, 0x55, "checksum"},                /* a key byte */
	    {BOOK_HEADER_BYTES + 2 * BOOK_ENTRY_BYTES, -1, "damaged"} /* cut short */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_small_book(path, &a, &b);
		damage(path, cases[i].at, cases[i].value);
		expect_refused(path, cases[i].fragment);
	}
	expect_refused("/", "not a regular file");
	expect_refused("/dev/zero", "not a regular file");
}

/* The built-in book opens, knows the start position, and every move it
 * holds along its own lines is legal. */
static void test_default_book(void **state)
{
	(void)state;
	char error[BOOK_ERROR_MAX];
	Book *book;
	assert_true(book_open("default", &book, error, sizeof error));
	assert_non_null(book);
	assert_true(book_entry_count(book) > 0);
	Position start;
	position_start(&start);
	Move moves[MOVELIST_CAPACITY];
	int weights[MOVELIST_CAPACITY];
	assert_true(book_moves(book, &start, moves, weights, MOVELIST_CAPACITY) >= 2);
	/* Random walks through the book: each move it gives is legal. */
	uint64_t random = 7;
	int in_book = 0;
	for (int game = 0; game < 50; game++) {
		Position p = start;
		Move m;
		while (book_pick(book, &p, &random, &m)) {
			assert_true(movegen_is_legal(&p, m));
			position_make(&p, m, &p);
			in_book++;
		}
	}
	assert_true(in_book >= 100);
	book_free(book);
	assert_true(book_open("off", &book, error, sizeof error));
	assert_null(book);
}

/* With the book on the engine answers from it at once (no node searched),
 * not when analysing, weakened, or with the book off. */
static void test_engine_plays_from_the_book(void **state)
{
	(void)state;
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = 4;
	snprintf(o.book, sizeof o.book, "default");
	Engine *e = engine_create(&o);
	assert_non_null(e);
	SearchLimits limits = {.move_time_ms = 5000};
	SearchResult r;
	int64_t started = clock_now_ms();
	assert_int_equal(engine_search_sync(e, &limits, NULL, NULL, &r), ENGINE_OK);
	assert_true(clock_now_ms() - started < 1000);
	assert_true(r.book);
	assert_int_equal(r.nodes, 0);
	assert_true(movegen_is_legal(game_position(engine_game(e)), r.best));

	limits = (SearchLimits){.depth = 3};
	o.strength = 50;
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	assert_int_equal(engine_search_sync(e, &limits, NULL, NULL, &r), ENGINE_OK);
	assert_false(r.book);
	o.strength = 100;
	snprintf(o.book, sizeof o.book, "off");
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	assert_int_equal(engine_search_sync(e, &limits, NULL, NULL, &r), ENGINE_OK);
	assert_false(r.book);
	assert_true(r.nodes > 0);
	engine_destroy(e);
}

/* ---- The real binary over pipes. ---- */

/* Sends `line` and returns the first reply whose command is `command`. */
static void ask(HubEngine *e, const char *line, const char *command, char *out, size_t size)
{
	hubpipe_send(e, line);
	hubpipe_expect(e, command, 5000, out, size, NULL);
}

/* A missing or damaged book and a table larger than the machine's memory
 * are refused with the reason, and the setting stays what it was. */
static void test_binary_bad_book_and_hash_keep_the_old_setting(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char line[LINE_CAP], command[512], path[256];
	Move a, b;
	ask(&e, "set book default", "set", line, sizeof line);
	assert_string_equal(line, "set name=book value=default");

	snprintf(path, sizeof path, "%s", support_path(scratch, "missing.book"));
	snprintf(command, sizeof command, "set-param name=book value=%s", path);
	ask(&e, command, "error", line, sizeof line);
	assert_non_null(strstr(line, "No such file"));
	assert_non_null(strstr(line, "missing.book"));

	snprintf(path, sizeof path, "%s", support_path(scratch, "corrupt.book"));
	write_small_book(path, &a, &b);
	damage(path, BOOK_HEADER_BYTES + 1, 0x77);
	snprintf(command, sizeof command, "set book %s", path);
	ask(&e, command, "error", line, sizeof line);
	assert_non_null(strstr(line, "checksum"));
	ask(&e, "get book", "get", line, sizeof line);
	assert_string_equal(line, "get name=book value=default");

	/* 1 TiB, the top of the range: more than this machine has (a test
	 * machine with more skips this part). */
	ask(&e, "set hash 16", "set", line, sizeof line);
	if (bigmem_physical_bytes() < ((size_t)1 << 40)) {
		ask(&e, "set-param name=hash value=1048576", "error", line, sizeof line);
		assert_non_null(strstr(line, "more than this machine's memory"));
		assert_non_null(strstr(line, "hash stays 16"));
		ask(&e, "get hash", "get", line, sizeof line);
		assert_string_equal(line, "get name=hash value=16");
	}
	hub_engine_stop(&e, 2000);
}

static int make_scratch(void **state)
{
	*state = scratch;
	return support_scratch_dir("test_book", scratch, sizeof scratch) ? 0 : -1;
}

/* The one FNV-1a of the book and the databases: the published 64-bit
 * test vectors, and a hash continued over two pieces equals one pass. */
static void test_checksum_is_fnv1a(void **state)
{
	(void)state;
	assert_true(checksum_fnv1a(CHECKSUM_FNV_OFFSET, NULL, 0) == 0xcbf29ce484222325ull);
	assert_true(checksum_fnv1a(CHECKSUM_FNV_OFFSET, (const uint8_t *)"a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(checksum_fnv1a(CHECKSUM_FNV_OFFSET, (const uint8_t *)"foobar", 6) ==
	            0x85944171f73967e8ull);
	uint64_t h = checksum_fnv1a(CHECKSUM_FNV_OFFSET, (const uint8_t *)"foo", 3);
	assert_true(checksum_fnv1a(h, (const uint8_t *)"bar", 3) == 0x85944171f73967e8ull);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_checksum_is_fnv1a),
	    cmocka_unit_test(test_write_then_read),
	    cmocka_unit_test(test_pick_follows_the_weights),
	    cmocka_unit_test(test_damaged_files_are_refused),
	    cmocka_unit_test(test_default_book),
	    cmocka_unit_test(test_engine_plays_from_the_book),
	    cmocka_unit_test(test_binary_bad_book_and_hash_keep_the_old_setting),
	};
	return cmocka_run_group_tests(tests, make_scratch, support_teardown_dir);
}
