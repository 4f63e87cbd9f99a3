/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The strength option: exact at 100, varied and legal below, no gross blunders at 0. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "poolshark/engine.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"

/* Black to move, 11 men each: of its 10 moves one lets White take three
 * men at once, six allow no capture at all (checked in the test). */
static const char *const TRAP_FEN = "B:W20,21,23,24,25,26,27,29,30,31,32:B1,2,3,4,5,7,8,11,13,14,16";

static Engine *engine_at(int strength, const char *fen)
{
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = 2;
	o.strength = strength;
	Engine *e = engine_create(&o);
	assert_non_null(e);
	Position p;
	if (fen) {
		char error[NOTATION_ERROR_MAX];
		assert_true(notation_parse_fen(fen, VARIANT_POOL, &p, error, sizeof error));
	} else {
		position_start(&p);
	}
	assert_int_equal(engine_new_game(e, &p), ENGINE_OK);
	return e;
}

static Move search_seeded(Engine *e, uint64_t seed, const SearchLimits *limits, SearchResult *r)
{
	Position root = *game_position(engine_game(e));
	assert_int_equal(engine_new_game(e, &root), ENGINE_OK);
	assert_int_equal(engine_seed(e, seed), ENGINE_OK);
	assert_int_equal(engine_search_sync(e, limits, NULL, NULL, r), ENGINE_OK);
	return r->best;
}

static int index_of(const MoveList *list, Move m)
{
	for (int i = 0; i < list->count; i++)
		if (move_equal(list->moves[i], m))
			return i;
	return -1;
}

/* The most pieces the side to move can take with one capture. */
static int biggest_capture(const Position *p)
{
	MoveList list;
	int most = 0;
	movegen_generate(p, &list);
	for (int i = 0; i < list.count; i++)
		if (bb_count(list.moves[i].captured) > most)
			most = bb_count(list.moves[i].captured);
	return most;
}

/* At 100 the seed plays no part: the same move and the same nodes. */
static void test_full_strength_ignores_the_seed(void **state)
{
	(void)state;
	Engine *e = engine_at(100, TRAP_FEN);
	SearchLimits limits = {.depth = 7};
	SearchResult a, b;
	search_seeded(e, 1, &limits, &a);
	search_seeded(e, 987654321, &limits, &b);
	assert_true(move_equal(a.best, b.best));
	assert_int_equal(a.nodes, b.nodes);
	assert_int_equal(a.score, b.score);
	assert_int_equal(a.depth, 7);
	engine_destroy(e);
}

/* Below 100 the moves vary from game to game, are always legal, and the
 * same seed repeats them. */
static void test_low_strength_varies_legally(void **state)
{
	(void)state;
	static const int strengths[] = {0, 20, 50};
	for (size_t k = 0; k < sizeof strengths / sizeof strengths[0]; k++) {
		Engine *e = engine_at(strengths[k], NULL);
		MoveList legal;
		movegen_generate(game_position(engine_game(e)), &legal);
		int chosen[MOVELIST_CAPACITY] = {0};
		int distinct = 0;
		SearchLimits limits = {0};
		for (uint64_t seed = 0; seed < 60; seed++) {
			SearchResult r, again;
			int i = index_of(&legal, search_seeded(e, seed, &limits, &r));
			assert_true(i >= 0);
			if (chosen[i]++ == 0)
				distinct++;
			assert_true(move_equal(search_seeded(e, seed, &limits, &again), r.best));
		}
		if (distinct < 2)
			fail_msg("strength %d played one move in 60 games", strengths[k]);
		engine_destroy(e);
	}
}

/* Strength 0 sees one ply and the captures that follow: it may give away a
 * man, but never three at once while a move that loses nothing exists,
 * and mostly it leaves nothing to take. */
static void test_strength_zero_does_not_hang_three_men(void **state)
{
	(void)state;
	Engine *e = engine_at(0, TRAP_FEN);
	const Position *p = game_position(engine_game(e));
	MoveList legal;
	movegen_generate(p, &legal);
	bool blunder[MOVELIST_CAPACITY] = {false};
	int blunders = 0, safe = 0;
	for (int i = 0; i < legal.count; i++) {
		Position after;
		position_make(p, legal.moves[i], &after);
		int taken = biggest_capture(&after);
		blunder[i] = taken >= 3;
		blunders += blunder[i];
		safe += taken == 0;
	}
	assert_true(blunders >= 1 && safe >= 2);

	/* Giving a man away is possible but rare: most games it plays a
	 * move that leaves nothing to take. */
	int played_blunder = 0, played_safe = 0;
	SearchLimits limits = {0};
	SearchResult r;
	for (uint64_t seed = 0; seed < 200; seed++) {
		int i = index_of(&legal, search_seeded(e, seed, &limits, &r));
		assert_true(i >= 0);
		played_blunder += blunder[i];
		Position after;
		position_make(p, legal.moves[i], &after);
		played_safe += biggest_capture(&after) == 0;
	}
	assert_int_equal(played_blunder, 0);
	if (played_safe < 150)
		fail_msg("strength 0 left something to take in %d games of 200", 200 - played_safe);
	engine_destroy(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_strength_ignores_the_seed),
	    cmocka_unit_test(test_low_strength_varies_legally),
	    cmocka_unit_test(test_strength_zero_does_not_hang_three_men),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
