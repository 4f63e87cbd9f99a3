/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engine facade: background searches, stop, ponder, clocks, options (their latencies: bench/latency). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "poolshark/clock.h"
#include "poolshark/engine.h"
#include "poolshark/eval.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/timeman.h"
#include "support/support.h"

/* What the callbacks saw; written by the search thread. */
typedef struct Seen {
	atomic_int infos;
	atomic_int dones;
	SearchResult result;
	Position root;
} Seen;

static void on_info(const SearchInfo *info, void *user)
{
	Seen *seen = user;
	assert_true(info->depth >= 1);
	atomic_fetch_add(&seen->infos, 1);
}

static void on_done(const Position *root, const SearchResult *result, void *user)
{
	Seen *seen = user;
	seen->result = *result;
	seen->root = *root;
	atomic_fetch_add(&seen->dones, 1);
}

static void init_seen(Seen *s)
{
	atomic_init(&s->infos, 0);
	atomic_init(&s->dones, 0);
}

static void sleep_ms(int ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

static Engine *small_engine(void)
{
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = 8;
	Engine *e = engine_create(&o);
	assert_non_null(e);
	return e;
}

/* The engine's static score is the one the search under eval=net uses:
 * the network's, and in pool's kings endings one side ahead the score that
 * replaces it (here three kings against one, whose plan the network lacks). */
static void test_network_score_is_the_searched_one(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Position ending = support_position("W:WK1,K10,K17:BK21");
	int score = 0;
	assert_true(engine_network_score(e, &ending, &score));
	assert_int_equal(score, eval_kings_ending(&ending, &eval_default_weights));
	Position men = support_position("W:W21,22,23:B1,2,3");
	assert_true(engine_network_score(e, &men, &score));
	assert_int_not_equal(score, 2 * eval_evaluate(&men, &eval_default_weights));
	engine_destroy(e);
}

/* An infinite search runs until told; the stop request brings exactly one
 * `done`, with a legal move (how soon: bench/latency, "stop -> done"). */
static void test_stop_ends_an_infinite_search(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Seen seen;
	init_seen(&seen);
	SearchLimits limits = {.infinite = true};
	assert_int_equal(engine_start(e, &limits, on_info, on_done, &seen), ENGINE_OK);
	assert_int_equal(engine_start(e, &limits, on_info, on_done, &seen), ENGINE_BUSY);
	sleep_ms(300);
	assert_true(engine_is_searching(e));
	assert_int_equal(atomic_load(&seen.dones), 0);
	engine_stop(e);
	engine_wait(e);
	assert_int_equal(atomic_load(&seen.dones), 1);
	assert_false(engine_is_searching(e));
	assert_true(atomic_load(&seen.infos) >= 1);
	assert_true(support_is_legal(&seen.root, seen.result.best));
	engine_destroy(e);
}

/* A stop at once still gives a legal move. */
static void test_immediate_stop_still_moves(void **state)
{
	(void)state;
	Engine *e = small_engine();
	for (int i = 0; i < 20; i++) {
		Seen seen;
		init_seen(&seen);
		SearchLimits limits = {.infinite = true};
		assert_int_equal(engine_start(e, &limits, NULL, on_done, &seen), ENGINE_OK);
		engine_stop(e);
		engine_wait(e);
		assert_int_equal(atomic_load(&seen.dones), 1);
		assert_true(support_is_legal(&seen.root, seen.result.best));
	}
	engine_destroy(e);
}

/* Pondering does not end on its own; after ponder-hit the clock runs and
 * the 100 ms move time ends the search by itself (how soon:
 * bench/latency, "ponder-hit -> done"). */
static void test_ponder_hit_starts_the_clock(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Seen seen;
	init_seen(&seen);
	SearchLimits limits = {.move_time_ms = 100, .ponder = true};
	assert_int_equal(engine_start(e, &limits, NULL, on_done, &seen), ENGINE_OK);
	sleep_ms(400);
	assert_int_equal(atomic_load(&seen.dones), 0);
	engine_ponder_hit(e);
	engine_wait(e);
	assert_int_equal(atomic_load(&seen.dones), 1);
	assert_true(support_is_legal(&seen.root, seen.result.best));
	engine_destroy(e);
}

/* A search on a clock ends by itself; with one legal move it plays it
 * after one iteration (the time used of a clock: bench/latency). */
static void test_clock_is_respected(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Seen seen;
	init_seen(&seen);
	SearchLimits limits = {.time_left_ms = 600, .moves_to_go = 1};
	assert_int_equal(engine_start(e, &limits, NULL, on_done, &seen), ENGINE_OK);
	engine_wait(e);
	assert_int_equal(atomic_load(&seen.dones), 1);
	assert_true(seen.result.nodes > 0);

	/* Black's only move is the capture 1x10. */
	Position p;
	assert_true(notation_parse_fen("B:W6,20:B1,K32", VARIANT_POOL, &p, NULL, 0));
	MoveList list;
	assert_int_equal(movegen_generate(&p, &list), 1);
	assert_int_equal(engine_new_game(e, &p), ENGINE_OK);
	init_seen(&seen);
	limits.time_left_ms = 60000;
	limits.moves_to_go = 0;
	assert_int_equal(engine_start(e, &limits, NULL, on_done, &seen), ENGINE_OK);
	engine_wait(e);
	assert_true(move_equal(seen.result.best, list.moves[0]));
	assert_int_equal(seen.result.depth, 1); /* nothing to think about: one iteration */
	engine_destroy(e);
}

/* Every call that changes the engine's game, table or options is refused
 * during a search, and the game is exactly as it was; after the search
 * each is accepted. */
static void test_no_changes_while_searching(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Move first;
	assert_int_equal(notation_parse_move(game_position(engine_game(e)), "11-15", &first, NULL, 0),
	                 MOVE_PARSE_OK);
	assert_int_equal(engine_play(e, first), ENGINE_OK);
	Game *before = malloc(sizeof *before);
	assert_non_null(before);
	game_copy(before, engine_game(e));

	Seen seen;
	init_seen(&seen);
	SearchLimits limits = {.infinite = true};
	EngineOptions o;
	engine_get_options(e, &o);
	o.hash_mb = 2;
	Move reply;
	assert_int_equal(notation_parse_move(game_position(before), "22-18", &reply, NULL, 0), MOVE_PARSE_OK);
	Position start;
	position_start(&start);
	Game *other = malloc(sizeof *other);
	assert_non_null(other);
	game_init(other, &start);
	SearchResult r = {.depth = -7};

	assert_int_equal(engine_start(e, &limits, NULL, on_done, &seen), ENGINE_OK);
	assert_int_equal(engine_set_options(e, &o), ENGINE_BUSY);
	assert_int_equal(engine_new_game(e, NULL), ENGINE_BUSY);
	assert_int_equal(engine_set_game(e, other), ENGINE_BUSY);
	assert_int_equal(engine_play(e, reply), ENGINE_BUSY);
	assert_int_equal(engine_undo(e), ENGINE_BUSY);
	assert_int_equal(engine_seed(e, 1), ENGINE_BUSY);
	assert_int_equal(engine_search_sync(e, &limits, NULL, NULL, &r), ENGINE_BUSY);
	assert_int_equal(r.depth, -7);
	const Game *g = engine_game(e);
	assert_int_equal(g->ply_count, before->ply_count);
	assert_memory_equal(game_position(g), game_position(before), sizeof(Position));
	EngineOptions unchanged;
	engine_get_options(e, &unchanged);
	assert_int_equal(unchanged.hash_mb, 8);
	engine_stop(e);
	engine_wait(e);

	assert_int_equal(engine_play(e, reply), ENGINE_OK);
	assert_int_equal(engine_game(e)->ply_count, 2);
	assert_int_equal(engine_undo(e), ENGINE_OK);
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	assert_int_equal(engine_set_game(e, other), ENGINE_OK);
	assert_int_equal(engine_game(e)->ply_count, 0);
	assert_int_equal(engine_new_game(e, NULL), ENGINE_OK);
	EngineOptions back;
	engine_get_options(e, &back);
	assert_int_equal(back.hash_mb, 2);
	free(before);
	free(other);
	engine_destroy(e);
}

/* engine_play() takes only legal moves and none after the end; undo needs a move. */
static void test_play_and_undo_check_their_input(void **state)
{
	(void)state;
	Engine *e = small_engine();
	assert_int_equal(engine_undo(e), ENGINE_NOTHING_TO_UNDO);
	Move legal;
	assert_int_equal(notation_parse_move(game_position(engine_game(e)), "11-15", &legal, NULL, 0),
	                 MOVE_PARSE_OK);
	assert_int_equal(engine_play(e, support_move(11, 20, 0)), ENGINE_ILLEGAL_MOVE);
	assert_int_equal(engine_game(e)->ply_count, 0);
	assert_int_equal(engine_play(e, legal), ENGINE_OK);
	assert_int_equal(engine_game(e)->ply_count, 1);

	/* White's king on 29 is blocked: the game is over, nothing more. */
	Position lost;
	assert_true(notation_parse_fen("W:WK29:B25,22", VARIANT_POOL, &lost, NULL, 0));
	assert_int_equal(engine_new_game(e, &lost), ENGINE_OK);
	assert_int_equal(engine_play(e, support_move(29, 25, 0)), ENGINE_GAME_OVER);
	assert_int_equal(engine_game(e)->ply_count, 0);
	engine_destroy(e);
}

/* The synchronous search of the game position honours depth and reports
 * every iteration; a game with a history searches its current position. */
static void test_sync_search_of_the_game(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Seen seen;
	init_seen(&seen);
	const Game *g = engine_game(e);
	Move m;
	assert_int_equal(notation_parse_move(game_position(g), "11-15", &m, NULL, 0), MOVE_PARSE_OK);
	assert_int_equal(engine_play(e, m), ENGINE_OK);
	SearchLimits limits = {.depth = 6};
	SearchResult r;
	assert_int_equal(engine_search_sync(e, &limits, on_info, &seen, &r), ENGINE_OK);
	assert_int_equal(r.depth, 6);
	assert_int_equal(atomic_load(&seen.infos), 6);
	assert_true(support_is_legal(game_position(g), r.best));
	assert_int_equal(game_position(g)->side, WHITE);

	/* Strength below 100 caps the depth. */
	EngineOptions o;
	engine_get_options(e, &o);
	o.strength = 0;
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	engine_search_sync(e, &limits, NULL, NULL, &r);
	assert_int_equal(r.depth, 1);
	engine_destroy(e);
}

/* engine_root_scores(): every root move with its score after a search that
 * scores them all, with one thread and with two; none after another search. */
static void test_root_scores(void **state)
{
	(void)state;
	Engine *e = small_engine();
	Move moves[MOVELIST_CAPACITY];
	int scores[MOVELIST_CAPACITY];
	SearchResult r;
	SearchLimits plain = {.depth = 5}, all = {.depth = 5, .score_all_moves = true};
	assert_int_equal(engine_search_sync(e, &plain, NULL, NULL, &r), ENGINE_OK);
	assert_int_equal(engine_root_scores(e, moves, scores, MOVELIST_CAPACITY), 0);
	for (int threads = 1; threads <= 2; threads++) {
		EngineOptions o;
		engine_get_options(e, &o);
		o.threads = threads;
		assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
		assert_int_equal(engine_search_sync(e, &all, NULL, NULL, &r), ENGINE_OK);
		int n = engine_root_scores(e, moves, scores, MOVELIST_CAPACITY);
		assert_int_equal(n, movegen_count(game_position(engine_game(e))));
		int best = 0;
		for (int i = 1; i < n; i++)
			if (scores[i] > scores[best])
				best = i;
		assert_int_equal(scores[best], r.score);
		for (int i = 0; i < n; i++)
			assert_true(support_is_legal(game_position(engine_game(e)), moves[i]));
		assert_int_equal(engine_root_scores(e, moves, scores, 2), 2);
	}
	engine_destroy(e);
}
/* Resident memory of this process in KiB (0 when unknown). */
static long resident_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = 0;
	if (f)
		fclose(f);
	return resident * 4;
}

/* A new game costs nothing on the clock: it does not write the table (it
 * used to clear it, which on a fresh engine faulted all of it in), and a
 * search after it behaves exactly as in a fresh engine, node for node,
 * although the table is full of the old game. */
static void test_new_game_leaves_the_table_alone(void **state)
{
	(void)state;
	Engine *used = small_engine(), *fresh = small_engine();
	SearchLimits limits = {.depth = 9};
	SearchResult a, b;
	assert_int_equal(engine_search_sync(used, &limits, NULL, NULL, &a), ENGINE_OK);
	const TT *table = engine_table(used);
	void *before = malloc(tt_bytes(table));
	assert_non_null(before);
	memcpy(before, table->buckets, tt_bytes(table));
	Position p;
	assert_true(notation_parse_fen("W:W18,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
	                               VARIANT_POOL, &p, NULL, 0));
	assert_int_equal(engine_new_game(used, &p), ENGINE_OK);
	assert_memory_equal(table->buckets, before, tt_bytes(table));
	free(before);
	assert_int_equal(engine_new_game(fresh, &p), ENGINE_OK);
	assert_int_equal(engine_search_sync(used, &limits, NULL, NULL, &a), ENGINE_OK);
	assert_int_equal(engine_search_sync(fresh, &limits, NULL, NULL, &b), ENGINE_OK);
	assert_int_equal(a.nodes, b.nodes);
	assert_true(move_equal(a.best, b.best));
	assert_int_equal(a.score, b.score);
	engine_destroy(used);
	engine_destroy(fresh);
}

/* A new table is made resident in the background from the start, and
 * engine_prepare() (the Hub's init) waits for it: the first move does not
 * take the table's page faults. */
static void test_prepare_makes_the_table_resident(void **state)
{
	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip();
#endif
	long before = resident_kib();
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = 64;
	Engine *e = engine_create(&o);
	assert_non_null(e);
	assert_int_equal(engine_prepare(e), ENGINE_OK);
	long after = resident_kib();
	fprintf(stderr, "resident before create and after prepare: %ld and %ld KiB\n", before, after);
	assert_true(after - before >= 63 * 1024);
	o.hash_mb = 32;
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	assert_int_equal(engine_prepare(e), ENGINE_OK);
	long resized = resident_kib();
	assert_true(resized - before >= 31 * 1024 && resized - before < 48 * 1024);
	engine_destroy(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stop_ends_an_infinite_search),
	    cmocka_unit_test(test_immediate_stop_still_moves),
	    cmocka_unit_test(test_ponder_hit_starts_the_clock),
	    cmocka_unit_test(test_clock_is_respected),
	    cmocka_unit_test(test_no_changes_while_searching),
	    cmocka_unit_test(test_play_and_undo_check_their_input),
	    cmocka_unit_test(test_network_score_is_the_searched_one),
	    cmocka_unit_test(test_sync_search_of_the_game),
	    cmocka_unit_test(test_root_scores),
	    cmocka_unit_test(test_new_game_leaves_the_table_alone),
	    cmocka_unit_test(test_prepare_makes_the_table_resident),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
