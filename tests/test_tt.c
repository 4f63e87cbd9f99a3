/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Transposition table: store and probe, win scores by ply, replacement, clearing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "poolshark/search.h"
#include "poolshark/tt.h"

static Move move_of(int from, int to, Bitboard captured)
{
	Move m = {captured, (uint8_t)from, (uint8_t)to};
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_is_a_power_of_two),
	    cmocka_unit_test(test_store_then_probe),
	    cmocka_unit_test(test_win_scores_are_relative_to_the_node),
	    cmocka_unit_test(test_move_survives_moveless_store),
	    cmocka_unit_test(test_replacement_by_depth_and_age),
	    cmocka_unit_test(test_hashfull_counts_this_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
