/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bitboard tables and steps re-derived from board geometry (row, column). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "poolshark/bitboard.h"
#include "support/reference.h"
#include "support/support.h"

/* Row and column change of each Direction, as its name says (row 0 = top). */
static const int direction_rows[DIR_COUNT] = {1, 1, -1, -1};
static const int direction_columns[DIR_COUNT] = {-1, 1, -1, 1};

/* Bit index of the square one step from bit s in d, or -1 off the board. */
static int neighbour(int s, Direction d)
{
	int square = reference_square_at(reference_row(s + 1) + direction_rows[d],
	                                 reference_column(s + 1) + direction_columns[d]);
	return square - 1;
}

static Bitboard squares_where(int (*pick)(int square))
{
	Bitboard b = 0;
	for (int n = 1; n <= 32; n++)
		if (pick(n))
			b |= bb_square(n - 1);
	return b;
}

static int on_left_edge(int n)
{
	return reference_column(n) == 0;
}
static int on_right_edge(int n)
{
	return reference_column(n) == 7;
}
static int on_top_row(int n)
{
	return reference_row(n) == 0;
}
static int on_bottom_row(int n)
{
	return reference_row(n) == 7;
}
static int on_even_row(int n)
{
	return reference_row(n) % 2 == 0;
}

/* The diagram of RULES.md section 1, read off square by square. */
static void test_numbering_matches_the_diagram(void **state)
{
	(void)state;
	static const char *names[33] = {"",   "b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7", "b6", "d6",
	                                "f6", "h6", "a5", "c5", "e5", "g5", "b4", "d4", "f4", "h4", "a3",
	                                "c3", "e3", "g3", "b2", "d2", "f2", "h2", "a1", "c1", "e1", "g1"};
	for (int n = 1; n <= 32; n++) {
		int column = names[n][0] - 'a', row = '8' - names[n][1];
		assert_int_equal(reference_row(n), row);
		assert_int_equal(reference_column(n), column);
		assert_int_equal(reference_square_at(row, column), n);
	}
	/* a1 dark, h1 light (RULES.md 1) */
	assert_int_equal(reference_square_at(7, 0), 29);
	assert_int_equal(reference_square_at(7, 7), 0);
}

static void test_edge_masks(void **state)
{
	(void)state;
	assert_int_equal(BB_LEFT_EDGE, squares_where(on_left_edge));
	assert_int_equal(BB_RIGHT_EDGE, squares_where(on_right_edge));
	assert_int_equal(BB_TOP_ROW, squares_where(on_top_row));
	assert_int_equal(BB_BOTTOM_ROW, squares_where(on_bottom_row));
	assert_int_equal(BB_EVEN_ROWS, squares_where(on_even_row));
	assert_int_equal(BB_ODD_ROWS, (Bitboard)~BB_EVEN_ROWS);
}

static void test_rays_follow_the_diagonals(void **state)
{
	(void)state;
	int total = 0;
	for (int d = 0; d < DIR_COUNT; d++)
		for (int s = 0; s < 32; s++) {
			Bitboard want = 0;
			for (int t = neighbour(s, (Direction)d); t >= 0; t = neighbour(t, (Direction)d))
				want |= bb_square(t);
			assert_int_equal(bitboard_rays[d][s], want);
			total += bb_count(want);
		}
	/* Every ordered pair of squares on a common diagonal, counted once per
	 * direction: the two long-diagonal families of an 8x8 board hold 7
	 * diagonals of lengths 2,4,6,8,6,4,2 and 8 of lengths 1,3,5,7,7,5,3,1. */
	int pairs = 0;
	static const int lengths[] = {2, 4, 6, 8, 6, 4, 2, 1, 3, 5, 7, 7, 5, 3, 1};
	for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
		pairs += lengths[i] * (lengths[i] - 1);
	assert_int_equal(total, pairs);
}

static void test_within_two(void **state)
{
	(void)state;
	for (int s = 0; s < 32; s++) {
		Bitboard want = 0;
		for (int d = 0; d < DIR_COUNT; d++) {
			int t = neighbour(s, (Direction)d);
			if (t >= 0) {
				want |= bb_square(t);
				if (neighbour(t, (Direction)d) >= 0)
					want |= bb_square(neighbour(t, (Direction)d));
			}
		}
		assert_int_equal(bitboard_within_two[s], want);
	}
	assert_int_equal(bb_count(bitboard_within_two[17]), 8); /* 18, in the middle */
	assert_int_equal(bb_count(bitboard_within_two[28]), 2); /* 29, a corner */
}

static void test_single_steps(void **state)
{
	(void)state;
	for (int d = 0; d < DIR_COUNT; d++)
		for (int s = 0; s < 32; s++) {
			int t = neighbour(s, (Direction)d);
			Bitboard want = t >= 0 ? bb_square(t) : 0;
			assert_int_equal(bb_step(bb_square(s), (Direction)d), want);
		}
	/* The named forms agree with the switch. */
	assert_int_equal(bb_step_down_left(bb_square(8)), bb_square(12));  /* 9 -> 13 */
	assert_int_equal(bb_step_down_right(bb_square(8)), bb_square(13)); /* 9 -> 14 */
	assert_int_equal(bb_step_up_left(bb_square(8)), bb_square(4));     /* 9 -> 5 */
	assert_int_equal(bb_step_up_right(bb_square(8)), bb_square(5));    /* 9 -> 6 */
	assert_int_equal(bb_step_up_left(bb_square(12)), 0);               /* 13: edge */
	assert_int_equal(bb_step_down_right(bb_square(11)), 0);            /* 12: edge */
}

static void test_steps_of_sets_are_unions(void **state)
{
	(void)state;
	Rng rng = {12345};
	for (int i = 0; i < 20000; i++) {
		Bitboard b = (Bitboard)rng_next(&rng);
		if (i % 3 == 0)
			b &= (Bitboard)rng_next(&rng); /* sparser sets too */
		for (int d = 0; d < DIR_COUNT; d++) {
			Bitboard want = 0;
			for (Bitboard x = b; x; x &= x - 1) {
				int t = neighbour(bb_lowest(x), (Direction)d);
				if (t >= 0)
					want |= bb_square(t);
			}
			assert_int_equal(bb_step(b, (Direction)d), want);
		}
	}
}

static void test_first_on_ray(void **state)
{
	(void)state;
	Rng rng = {777};
	for (int i = 0; i < 20000; i++) {
		Bitboard blockers = (Bitboard)rng_next(&rng) & (Bitboard)rng_next(&rng);
		int s = rng_below(&rng, 32);
		Direction d = (Direction)rng_below(&rng, DIR_COUNT);
		int want = -1;
		for (int t = neighbour(s, d); t >= 0; t = neighbour(t, d))
			if (blockers & bb_square(t)) {
				want = t;
				break;
			}
		assert_int_equal(bb_first_on_ray(s, d, blockers), want);
	}
	assert_true(dir_is_down(DIR_DOWN_LEFT) && dir_is_down(DIR_DOWN_RIGHT));
	assert_false(dir_is_down(DIR_UP_LEFT) || dir_is_down(DIR_UP_RIGHT));
}

/* What a flying king on s sees along d, square by square: every square up
 * to and including the first of `occupied`. */
static Bitboard sight_walk(int s, Direction d, Bitboard occupied)
{
	Bitboard seen = 0;
	for (int t = neighbour(s, d); t >= 0; t = neighbour(t, d)) {
		seen |= bb_square(t);
		if (occupied & bb_square(t))
			break;
	}
	return seen;
}

/* The last square along d from s, as a set (empty at the edge). */
static Bitboard far_end(int s, Direction d)
{
	int end = -1;
	for (int t = neighbour(s, d); t >= 0; t = neighbour(t, d))
		end = t;
	return end >= 0 ? bb_square(end) : 0;
}

/* bb_sight's lookup against the walk, for every square, both diagonals and
 * every occupancy of the squares that decide; pieces elsewhere (the
 * diagonal's ends, other diagonals) must not change the answer. The
 * squares' entries fill bitboard_sight without overlapping. */
static void test_sight_by_lookup(void **state)
{
	(void)state;
	static const Direction down[DIAG_COUNT] = {DIR_DOWN_LEFT, DIR_DOWN_RIGHT};
	static const Direction up[DIAG_COUNT] = {DIR_UP_RIGHT, DIR_UP_LEFT};
	static bool used[BITBOARD_SIGHT_ENTRIES];
	Rng rng = {4242};
	int entries = 0;
	for (int s = 0; s < 32; s++)
		for (int g = 0; g < DIAG_COUNT; g++) {
			const BitboardSightIndex *x = &bitboard_sight_index[s][g];
			Bitboard line = sight_walk(s, down[g], 0) | sight_walk(s, up[g], 0);
			Bitboard mask = line & ~far_end(s, down[g]) & ~far_end(s, up[g]);
			assert_int_equal(x->mask, mask);
			assert_int_equal(x->shift, mask ? 64 - bb_count(mask) : 63);
			int n = 1 << bb_count(mask), offset = (int)(x->answers - bitboard_sight);
			assert_true(offset >= 0 && offset + n <= BITBOARD_SIGHT_ENTRIES);
			for (int i = 0; i < n; i++) {
				assert_false(used[offset + i]);
				used[offset + i] = true;
			}
			entries += n;
			Bitboard occupancy = 0;
			do { /* every subset of mask, then the empty set again */
				Bitboard want =
				    sight_walk(s, down[g], occupancy) | sight_walk(s, up[g], occupancy);
				Bitboard elsewhere = (Bitboard)rng_next(&rng) & ~mask & ~bb_square(s);
				assert_int_equal(bb_sight(s, (Diagonal)g, occupancy), want);
				assert_int_equal(bb_sight(s, (Diagonal)g, occupancy | elsewhere), want);
				occupancy = (occupancy - mask) & mask;
			} while (occupancy);
		}
	assert_int_equal(entries, BITBOARD_SIGHT_ENTRIES);
	for (int d = 0; d < DIR_COUNT; d++)
		assert_int_equal(dir_diagonal((Direction)d),
		                 d == DIR_DOWN_LEFT || d == DIR_UP_RIGHT ? DIAG_DOWN_LEFT : DIAG_DOWN_RIGHT);
}

/* A king's quiet moves, counted for the evaluation's mobility. */
static void test_king_moves(void **state)
{
	(void)state;
	Rng rng = {2718};
	for (int i = 0; i < 20000; i++) {
		Bitboard occupied = (Bitboard)rng_next(&rng) & (Bitboard)rng_next(&rng);
		int s = rng_below(&rng, 32);
		int want = 0;
		for (int d = 0; d < DIR_COUNT; d++)
			want += bb_count(sight_walk(s, (Direction)d, occupied) & ~occupied);
		assert_int_equal(bb_king_moves(s, occupied), want);
	}
	/* RULES.md's corner: a lone king on 29 slides the long diagonal. */
	assert_int_equal(bb_king_moves(28, 0), 7);
}

static void test_bit_helpers(void **state)
{
	(void)state;
	Rng rng = {99};
	for (int i = 0; i < 10000; i++) {
		Bitboard b = (Bitboard)rng_next(&rng);
		int count = 0, low = -1, high = -1;
		for (int s = 0; s < 32; s++)
			if (b & (1u << s)) {
				count++;
				if (low < 0)
					low = s;
				high = s;
			}
		assert_int_equal(bb_count(b), count);
		if (b) {
			assert_int_equal(bb_lowest(b), low);
			assert_int_equal(bb_highest(b), high);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_numbering_matches_the_diagram),
	    cmocka_unit_test(test_edge_masks),
	    cmocka_unit_test(test_rays_follow_the_diagonals),
	    cmocka_unit_test(test_within_two),
	    cmocka_unit_test(test_single_steps),
	    cmocka_unit_test(test_steps_of_sets_are_unions),
	    cmocka_unit_test(test_first_on_ray),
	    cmocka_unit_test(test_sight_by_lookup),
	    cmocka_unit_test(test_king_moves),
	    cmocka_unit_test(test_bit_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
