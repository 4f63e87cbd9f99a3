/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Transposition table: store and probe, win scores by ply, replacement, clearing, new games. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "poolshark/search.h"
#include "poolshark/tt.h"

static Move move_of(int from, int to, Bitboard captured)
{
	Move m = {captured, (uint8_t)from, (uint8_t)to, 0};
	return m;
}

static void test_size_is_a_power_of_two(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 3));
	assert_int_equal(tt.bucket_count & (tt.bucket_count - 1), 0);
	assert_true(tt.bucket_count * sizeof(TTBucket) <= 3u * 1024 * 1024);
	assert_true(tt.bucket_count * sizeof(TTBucket) * 2 > 3u * 1024 * 1024);
	assert_true(tt_resize(&tt, 1));
	assert_int_equal(tt.bucket_count * sizeof(TTBucket), 1024 * 1024);
	tt_free(&tt);
	assert_true(tt_init(&tt, 0)); /* at least one bucket */
	assert_int_equal(tt.bucket_count, 1);
	tt_free(&tt);
}

static void test_store_then_probe(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 1));
	uint64_t key = 0x123456789abcdef0ull;
	TTHit hit;
	assert_false(tt_probe(&tt, key, 0, &hit));
	Move m = move_of(9, 18, bb_square(13));
	tt_store(&tt, key, 3, 7, -42, 17, TT_BOUND_LOWER, m);
	assert_true(tt_probe(&tt, key, 3, &hit));
	assert_true(move_equal(hit.move, m));
	assert_int_equal(hit.score, -42);
	assert_int_equal(hit.eval, 17);
	assert_int_equal(hit.depth, 7);
	assert_int_equal(hit.bound, TT_BOUND_LOWER);
	/* Same bucket, other verification bits: a miss. */
	assert_false(tt_probe(&tt, key ^ (1ull << 40), 3, &hit));
	tt_clear(&tt);
	assert_false(tt_probe(&tt, key, 3, &hit));
	tt_free(&tt);
}

/* A win found 5 plies below a node at ply 3 is stored as "5 from here"
 * and read back at ply 7 as 5 + 7 from the root. */
static void test_win_scores_are_relative_to_the_node(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 1));
	uint64_t key = 77;
	tt_store(&tt, key, 3, 9, SCORE_WIN - 8, 0, TT_BOUND_EXACT, move_none());
	TTHit hit;
	assert_true(tt_probe(&tt, key, 7, &hit));
	assert_int_equal(hit.score, SCORE_WIN - 12);
	tt_store(&tt, key, 2, 10, -SCORE_WIN + 6, 0, TT_BOUND_EXACT, move_none());
	assert_true(tt_probe(&tt, key, 0, &hit));
	assert_int_equal(hit.score, -SCORE_WIN + 4);
	assert_int_equal(tt_score_to_node(123, 9), 123);
	assert_int_equal(tt_score_from_node(tt_score_to_node(SCORE_WIN - 30, 11), 11), SCORE_WIN - 30);
	tt_free(&tt);
}

/* Storing again without a move keeps the old move of the same position. */
static void test_move_survives_moveless_store(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 1));
	Move m = move_of(21, 17, 0);
	tt_store(&tt, 5, 0, 4, 10, 0, TT_BOUND_EXACT, m);
	tt_store(&tt, 5, 0, 5, -3, 0, TT_BOUND_UPPER, move_none());
	TTHit hit;
	assert_true(tt_probe(&tt, 5, 0, &hit));
	assert_true(move_equal(hit.move, m));
	assert_int_equal(hit.bound, TT_BOUND_UPPER);
	assert_int_equal(hit.depth, 5);
	tt_free(&tt);
}

/* A one-bucket table: four positions fit; a fifth replaces the shallowest,
 * and entries of an old search give way before deeper new ones. */
static void test_replacement_by_depth_and_age(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 0));
	TTHit hit;
	for (uint64_t i = 1; i <= 4; i++)
		tt_store(&tt, i << 32, 0, (int)(10 + i), 0, 0, TT_BOUND_EXACT, move_none());
	for (uint64_t i = 1; i <= 4; i++)
		assert_true(tt_probe(&tt, i << 32, 0, &hit));
	tt_store(&tt, 5ull << 32, 0, 3, 0, 0, TT_BOUND_EXACT, move_none());
	assert_true(tt_probe(&tt, 5ull << 32, 0, &hit));
	assert_false(tt_probe(&tt, 1ull << 32, 0, &hit)); /* depth 11 was the shallowest */
	assert_true(tt_probe(&tt, 4ull << 32, 0, &hit));

	/* Two searches later the deep entries are old: the new one, although
	 * shallow, replaces one of them rather than nothing at all. */
	tt_new_search(&tt);
	tt_new_search(&tt);
	tt_store(&tt, 6ull << 32, 0, 4, 0, 0, TT_BOUND_EXACT, move_none());
	assert_true(tt_probe(&tt, 6ull << 32, 0, &hit));
	assert_true(tt_probe(&tt, 5ull << 32, 0, &hit) + tt_probe(&tt, 2ull << 32, 0, &hit) +
	                tt_probe(&tt, 3ull << 32, 0, &hit) + tt_probe(&tt, 4ull << 32, 0, &hit) ==
	            3);
	tt_free(&tt);
}

static void test_hashfull_counts_this_search(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 1));
	assert_int_equal(tt_hashfull(&tt), 0);
	for (uint64_t i = 0; i < 250; i++)
		tt_store(&tt, i, 0, 1, 0, 0, TT_BOUND_EXACT, move_none());
	assert_int_equal(tt_hashfull(&tt), 250);
	tt_new_search(&tt);
	assert_int_equal(tt_hashfull(&tt), 0);
	tt_free(&tt);
}

/* The same stores into a table: the probes of every key afterwards, as a
 * string of found/missed, depth and move. */
static void store_sequence(TT *tt, int rounds, uint64_t salt)
{
	for (int r = 0; r < rounds; r++) {
		tt_new_search(tt);
		for (uint64_t i = 1; i <= 7; i++) {
			uint64_t key = (i * 0x9e3779b97f4a7c15ull ^ salt) << 8;
			Move m = move_of((int)(i % 32), (int)((i * 7 + (uint64_t)r) % 32), 0);
			tt_store(tt, key, 0, (int)(i * 3 + (uint64_t)r) % 20, (int)i, 0, TT_BOUND_LOWER, m);
		}
	}
}

static void probe_all(const TT *tt, char *out, size_t size)
{
	size_t used = 0;
	for (uint64_t i = 1; i <= 7; i++) {
		uint64_t key = (i * 0x9e3779b97f4a7c15ull ^ 5) << 8;
		TTHit hit;
		bool found = tt_probe(tt, key, 0, &hit);
		used +=
		    (size_t)snprintf(out + used, size - used, "%d:%d:%d-%d ", found, found ? hit.depth : 0,
		                     found ? hit.move.from : 0, found ? hit.move.to : 0);
	}
}

/* After tt_new_game() the old entries are gone for probes and for
 * replacement alike: a one-bucket table full of an old game's entries
 * ends up, after the same stores, exactly as a fresh one. The memory is
 * not written: its bytes are the old game's until a store lands there. */
static void test_new_game_forgets_without_touching(void **state)
{
	(void)state;
	TT fresh, used;
	assert_true(tt_init(&fresh, 0));
	assert_true(tt_init(&used, 0));
	store_sequence(&used, 3, 11); /* another game's positions */
	TTHit hit;
	uint64_t old_key = 0;
	for (uint64_t i = 1; i <= 7 && !old_key; i++)
		if (tt_probe(&used, (i * 0x9e3779b97f4a7c15ull ^ 11) << 8, 0, &hit))
			old_key = (i * 0x9e3779b97f4a7c15ull ^ 11) << 8;
	assert_true(old_key != 0);
	TTBucket before = used.buckets[0];
	assert_true(tt_new_game(&used));
	assert_memory_equal(&before, &used.buckets[0], sizeof before);
	assert_false(tt_probe(&used, old_key, 0, &hit));
	assert_int_equal(tt_hashfull(&used), 0);

	store_sequence(&fresh, 4, 5);
	store_sequence(&used, 4, 5);
	char a[256], b[256];
	probe_all(&fresh, a, sizeof a);
	probe_all(&used, b, sizeof b);
	assert_string_equal(a, b);
	tt_free(&fresh);
	tt_free(&used);
}

/* A new game on a table nobody wrote changes nothing; once it is in use,
 * 63 new games go by without a clear and the 64th, whose era may still
 * have entries, asks for one. */
static void test_new_game_eras_come_round(void **state)
{
	(void)state;
	TT tt;
	assert_true(tt_init(&tt, 0));
	for (int i = 0; i < 3 * TT_ERA_COUNT; i++)
		assert_true(tt_new_game(&tt));
	assert_int_equal(tt.era, 0);
	uint64_t key = 42ull << 32;
	for (int game = 0; game < TT_ERA_COUNT - 1; game++) {
		tt_new_search(&tt);
		tt_store(&tt, key, 0, 5, 1, 0, TT_BOUND_EXACT, move_none());
		assert_true(tt_new_game(&tt));
	}
	tt_new_search(&tt);
	tt_store(&tt, key, 0, 5, 1, 0, TT_BOUND_EXACT, move_none());
	uint8_t era = tt.era;
	assert_false(tt_new_game(&tt));
	assert_int_equal(tt.era, era); /* nothing changed */
	tt_clear(&tt);
	TTHit hit;
	assert_false(tt_probe(&tt, key, 0, &hit));
	assert_true(tt_new_game(&tt)); /* cleared: nothing to forget */
	/* A store without tt_new_search() counts as a use too. */
	tt_store(&tt, key, 0, 5, 1, 0, TT_BOUND_EXACT, move_none());
	assert_true(tt_new_game(&tt));
	assert_false(tt_probe(&tt, key, 0, &hit));
	tt_free(&tt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_is_a_power_of_two),
	    cmocka_unit_test(test_store_then_probe),
	    cmocka_unit_test(test_win_scores_are_relative_to_the_node),
	    cmocka_unit_test(test_move_survives_moveless_store),
	    cmocka_unit_test(test_replacement_by_depth_and_age),
	    cmocka_unit_test(test_hashfull_counts_this_search),
	    cmocka_unit_test(test_new_game_forgets_without_touching),
	    cmocka_unit_test(test_new_game_eras_come_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
