/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The threads option (Lazy SMP): legal results, stop latency, well-formed output, bad values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/bench.h"
#include "poolshark/clock.h"
#include "poolshark/engine.h"
#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/search.h"
#include "poolshark/threads.h"
#include "poolshark/tt.h"
#include "support/hubpipe.h"
#include "support/support.h"

enum { LINE_CAP = 8192 };

static Engine *engine_with_threads(int threads)
{
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = 8;
	o.threads = threads;
	Engine *e = engine_create(&o);
	assert_non_null(e);
	return e;
}

/* Depth-limited and timed searches of the bench positions with two
 * threads: every move is legal, the depth is reached, all nodes count. */
static void test_two_threads_play_legal_moves(void **state)
{
	(void)state;
	Engine *e = engine_with_threads(2);
	for (int i = 0; i < 12; i++) {
		Position p;
		assert_true(notation_parse_fen(bench_positions[i].fen, VARIANT_POOL, &p, NULL, 0));
		assert_int_equal(engine_new_game(e, &p), ENGINE_OK);
		SearchLimits limits = {.depth = 6};
		if (i % 2)
			limits = (SearchLimits){.move_time_ms = 20};
		SearchResult r;
		assert_int_equal(engine_search_sync(e, &limits, NULL, NULL, &r), ENGINE_OK);
		if (!movegen_has_moves(&p)) {
			assert_true(move_is_none(r.best));
			continue;
		}
		assert_true(movegen_is_legal(&p, r.best));
		assert_true(r.depth >= 1);
		if (i % 2 == 0)
			assert_int_equal(r.depth, 6);
		assert_true(r.nodes > 0);
	}
	engine_destroy(e);
}

/* The info lines of one search. */
typedef struct InfoLog {
	int count;
	int depths[64];
	Move last_first; /* the first move of the last line */
} InfoLog;

/* Keeps the line and holds the main search 300 ms after each iteration,
 * so that a helper completes the depth asked for long before it. */
static void log_slow_info(const SearchInfo *info, void *user)
{
	InfoLog *log = user;
	if (log->count < 64)
		log->depths[log->count++] = info->depth;
	log->last_first = info->pv[0];
	usleep(300000);
}

/* A search to a depth ends when any thread completes it: with the main
 * search held back, a helper's iteration of that depth is the result and
 * the last info line (2 threads, and 4 on however many cores), the main
 * search's iterations stop short of it. */
static void test_search_to_depth_ends_with_first_thread(void **state)
{
	(void)state;
	const int counts[] = {2, 4};
	for (int k = 0; k < 2; k++) {
		Engine *e = engine_with_threads(counts[k]);
		Position p;
		assert_true(notation_parse_fen(bench_positions[1].fen, VARIANT_POOL, &p, NULL, 0));
		assert_int_equal(engine_new_game(e, &p), ENGINE_OK);
		SearchLimits limits = {.depth = 9};
		InfoLog log = {0};
		SearchResult r;
		assert_int_equal(engine_search_sync(e, &limits, log_slow_info, &log, &r), ENGINE_OK);
		assert_true(movegen_is_legal(&p, r.best));
		assert_int_equal(r.depth, 9);
		assert_true(log.count >= 2 && log.count < 9);
		assert_int_equal(log.depths[log.count - 1], 9);
		assert_true(log.depths[log.count - 2] < 9);
		assert_true(move_equal(log.last_first, r.best));
		engine_destroy(e);
	}
}

/* One helper's search of the start position, run in its own thread. */
typedef struct HelperRun {
	Search *search;
	TT tt;
	SearchRoot root;
	SearchLimits limits;
	SearchControl control;
	SearchResult result;
} HelperRun;

static void *run_helper_search(void *arg)
{
	HelperRun *h = arg;
	search_run(h->search, &h->tt, &h->root, &h->limits, &h->control, &h->result);
	return NULL;
}

/* A helper without a node limit (as threads_search() starts them) adds its
 * nodes to the shared count while it searches, not only when it ends: the
 * main search's info, node limit and result count them. Once stopped, the
 * count holds exactly the nodes it searched. */
static void test_helper_nodes_count_while_searching(void **state)
{
	(void)state;
	atomic_bool stop;
	atomic_uint_least64_t shared;
	atomic_init(&stop, false);
	atomic_init(&shared, 0);
	HelperRun *h = calloc(1, sizeof *h);
	assert_non_null(h);
	assert_non_null(h->search = search_create());
	assert_true(tt_init(&h->tt, 8));
	tt_new_search(&h->tt);
	Position start;
	position_start(&start);
	search_root_from_position(&start, &h->root);
	h->limits = (SearchLimits){.depth = SEARCH_MAX_PLY};
	h->control = (SearchControl){.stop = &stop, .helper = 1, .shared_nodes = &shared};
	pthread_t id;
	assert_int_equal(pthread_create(&id, NULL, run_helper_search, h), 0);
	uint64_t seen = 0;
	for (int64_t end = clock_now_ms() + 20000; clock_now_ms() < end && seen < 100000; usleep(1000))
		seen = atomic_load(&shared);
	atomic_store(&stop, true);
	pthread_join(id, NULL);
	assert_true(seen >= 100000);
	assert_int_equal(atomic_load(&shared), h->result.nodes);
	tt_free(&h->tt);
	search_destroy(h->search);
	free(h);
}

/* The options refuse 0 and more than threads_max() and keep the value
 * they had; a count within the range is applied. */
static void test_engine_threads_range(void **state)
{
	(void)state;
	Engine *e = engine_with_threads(2);
	EngineOptions o;
	engine_get_options(e, &o);
	assert_int_equal(o.threads, 2);
	assert_true(threads_max() >= 4);
	o.threads = threads_max() + 1;
	assert_int_equal(engine_set_options(e, &o), ENGINE_NO_MEMORY);
	engine_get_options(e, &o);
	assert_int_equal(o.threads, 2);
	o.threads = 3;
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	engine_get_options(e, &o);
	assert_int_equal(o.threads, 3);
	engine_destroy(e);
}

/* ---- The real binary over pipes. ---- */

/*
 * Reads a search's output up to done: every info line is well formed with
 * its six values and a depth one more than the last, but for the last
 * line, which may be deeper still (a search to a depth that a helper
 * completed first), the done line has a legal move first. Returns the last
 * info line's depth (0: none came).
 */
static int read_search(HubEngine *e, const Position *p, int timeout_ms)
{
	int64_t deadline = clock_now_ms() + timeout_ms;
	int last_depth = 0;
	bool jumped = false; /* a line deeper than one more came: it must be the last */
	for (;;) {
		char line[LINE_CAP], copy[LINE_CAP], error[HUBLINE_ERROR_MAX];
		int left = (int)(deadline - clock_now_ms());
		if (hub_engine_read_line(e, line, sizeof line, left > 0 ? left : 0) != HUB_READ_LINE)
			fail_msg("no done within %d ms", timeout_ms);
		snprintf(copy, sizeof copy, "%s", line);
		HubLine parsed;
		if (!hubline_parse(line, &parsed, error, sizeof error) || !parsed.command)
			fail_msg("malformed line '%s': %s", copy, error);
		for (int i = 0; i < parsed.count; i++)
			if (!parsed.tokens[i].value)
				fail_msg("bare word in '%s'", copy);
		if (!strcmp(parsed.command, "info")) {
			static const char *const keys[] = {"depth", "mean-depth", "score",
			                                   "nodes", "time",       "nps"};
			for (int i = 0; i < 6; i++)
				if (!hubline_value(&parsed, keys[i]))
					fail_msg("info without %s: '%s'", keys[i], copy);
			int depth = atoi(hubline_value(&parsed, "depth"));
			if (depth <= last_depth || jumped)
				fail_msg("depth %d after %d: '%s'", depth, last_depth, copy);
			jumped = depth != last_depth + 1;
			last_depth = depth;
			continue;
		}
		if (strcmp(parsed.command, "done"))
			fail_msg("unexpected line during a search: '%s'", copy);
		assert_true(parsed.count >= 1 && parsed.count <= 2);
		assert_string_equal(parsed.tokens[0].key, "move");
		Move m;
		if (notation_parse_move(p, parsed.tokens[0].value, &m, error, sizeof error) != MOVE_PARSE_OK)
			fail_msg("done move %s: %s", parsed.tokens[0].value, error);
		return last_depth;
	}
}

/* With two threads: searches to a depth and for a time give well-formed
 * info lines and a legal move; an analysis stops at once: its done comes
 * within a second (a helper that never stopped would hang the search, and
 * one that stopped only at the end of an iteration would take seconds).
 * How soon it comes: `bench/latency BINARY ROUNDS 2`. */
static void test_binary_two_threads_search_and_stop(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char line[LINE_CAP];
	hubpipe_send(&e, "set-param name=hash value=8");
	hubpipe_send(&e, "set-param name=threads value=2");
	hubpipe_send(&e, "get threads");
	hubpipe_expect(&e, "get", 2000, line, sizeof line, NULL);
	assert_string_equal(line, "get name=threads value=2");
	Position start, after;
	position_start(&start);
	hubpipe_send(&e, "pos start");
	hubpipe_send(&e, "level depth=9");
	hubpipe_send(&e, "go think");
	assert_int_equal(read_search(&e, &start, 20000), 9);
	assert_true(notation_parse_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
	                               VARIANT_POOL, &after, NULL, 0));
	hubpipe_send(&e, "pos start moves=\"11-15\"");
	hubpipe_send(&e, "level move-time=0.1");
	hubpipe_send(&e, "go think");
	assert_true(read_search(&e, &after, 5000) >= 1);

	for (int round = 0; round < 8; round++) {
		hubpipe_send(&e, "pos start");
		hubpipe_send(&e, "go analyze");
		usleep(30000);
		hubpipe_send(&e, "stop");
		read_search(&e, &start, 1000);
	}
	hub_engine_stop(&e, 2000);
}

/* threads=0, one more than the maximum and a word are refused with a
 * message that names the range; the value set before stays. */
static void test_binary_threads_bad_values(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char line[LINE_CAP], command[128];
	hubpipe_send(&e, "set-param name=threads value=2");
	hubpipe_send(&e, "set-param name=threads value=0");
	hubpipe_expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "threads=0 is too small (1.."));
	snprintf(command, sizeof command, "set threads %d", threads_max() + 1);
	hubpipe_send(&e, command);
	hubpipe_expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "is too large (1.."));
	hubpipe_send(&e, "set threads two");
	hubpipe_expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "threads=two"));
	hubpipe_send(&e, "get threads");
	hubpipe_expect(&e, "get", 2000, line, sizeof line, NULL);
	assert_string_equal(line, "get name=threads value=2");
	hub_engine_stop(&e, 2000);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_threads_play_legal_moves),
	    cmocka_unit_test(test_helper_nodes_count_while_searching),
	    cmocka_unit_test(test_search_to_depth_ends_with_first_thread),
	    cmocka_unit_test(test_engine_threads_range),
	    cmocka_unit_test(test_binary_two_threads_search_and_stop),
	    cmocka_unit_test(test_binary_threads_bad_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
