/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time budgets: fixed move time, a reserve that scales, clocks with and without moves to go, no overrun. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "poolshark/clock.h"
#include "poolshark/timeman.h"

static void test_no_limit_without_time(void **state)
{
	(void)state;
	SearchLimits depth_only = {.depth = 8};
	SearchLimits infinite = {.infinite = true, .time_left_ms = 60000};
	TimeBudget b;
	timeman_budget(&depth_only, 50, &b);
	assert_false(b.limited);
	timeman_budget(&infinite, 50, &b);
	assert_false(b.limited);
}

static void test_move_time_less_overhead(void **state)
{
	(void)state;
	SearchLimits l = {.move_time_ms = 1000};
	TimeBudget b;
	timeman_budget(&l, 30, &b);
	assert_true(b.limited);
	assert_int_equal(b.hard_ms, 970);
	assert_int_equal(b.soft_ms, 970);
	l.move_time_ms = 10; /* overhead larger than the time: a tenth kept */
	timeman_budget(&l, 30, &b);
	assert_int_equal(b.hard_ms, 9);
	l.move_time_ms = 1;
	timeman_budget(&l, 30, &b);
	assert_int_equal(b.hard_ms, 1);
}

/* The overhead is kept back up to a tenth of the budget: a 0.05 s move
 * with the default 50 ms searches 45 ms (it searched 1 ms), CheckerBoard's
 * 0.1 s a move 90 ms, a second the full second less 50 ms; a larger budget
 * never searches less, and the reserve never exceeds the overhead. */
static void test_reserve_scales_with_the_budget(void **state)
{
	(void)state;
	SearchLimits l = {.move_time_ms = 50};
	TimeBudget b;
	timeman_budget(&l, 50, &b);
	assert_int_equal(b.hard_ms, 45);
	assert_int_equal(b.soft_ms, 45);
	l.move_time_ms = 100;
	timeman_budget(&l, 50, &b);
	assert_int_equal(b.hard_ms, 90);
	l.move_time_ms = 1000;
	timeman_budget(&l, 50, &b);
	assert_int_equal(b.hard_ms, 950);
	int64_t last = 0;
	for (int64_t ms = 1; ms <= 3000; ms++) {
		int64_t reserve = timeman_reserve(ms, 50);
		assert_true(reserve >= 0 && reserve <= 50 && reserve <= ms / 10);
		l.move_time_ms = ms;
		timeman_budget(&l, 50, &b);
		assert_true(b.hard_ms >= last);
		assert_true(b.hard_ms >= 1 && (ms == 1 || b.hard_ms + reserve <= ms));
		last = b.hard_ms;
	}
	assert_int_equal(timeman_reserve(100, -5), 0);
	assert_int_equal(timeman_reserve(5000, 0), 0);

	/* A clock of 0.2 s: 20 ms kept back, not 50. */
	SearchLimits clock = {.time_left_ms = 200, .increment_ms = 2};
	timeman_budget(&clock, 50, &b);
	assert_int_equal(b.soft_ms, 180 / 25 + 1);
	assert_true(b.hard_ms <= 180 / 3);
}

/* A clock without moves to go is shared over 25 moves, over 12 in
 * Russian; moves to go, when given, still decide; and no game length lets
 * the hard limit overrun the clock. */
static void test_assumed_moves_by_rules(void **state)
{
	(void)state;
	SearchLimits l = {.time_left_ms = 60000, .increment_ms = 1000};
	TimeBudget b;
	static const struct {
		Variant v;
		int64_t soft;
	} by_rules[] = {{VARIANT_POOL, 60000 / 25 + 750},
	                {VARIANT_RUSSIAN, 60000 / 12 + 750},
	                {VARIANT_BRAZILIAN, 60000 / 25 + 750},
	                {VARIANT_ENGLISH, 60000 / 25 + 750}};
	for (size_t i = 0; i < sizeof by_rules / sizeof *by_rules; i++) {
		timeman_budget_over(&l, 0, timeman_assumed_moves(by_rules[i].v), &b);
		assert_int_equal(b.soft_ms, by_rules[i].soft);
	}
	timeman_budget(&l, 0, &b);
	assert_int_equal(b.soft_ms, 60000 / 25 + 750);
	l.moves_to_go = 40;
	timeman_budget_over(&l, 0, 12, &b);
	assert_int_equal(b.soft_ms, 60000 / 40 + 750);
	l.moves_to_go = 0;
	for (int assumed = -1; assumed <= 30; assumed++)
		for (int64_t left = 1; left <= 5000; left += 7) {
			l.time_left_ms = left;
			timeman_budget_over(&l, 50, assumed, &b);
			int64_t reserve = timeman_reserve(left, 50);
			assert_true(b.soft_ms >= 1 && b.soft_ms <= b.hard_ms);
			assert_true(left <= reserve + 1 ? b.hard_ms == 1 : b.hard_ms + reserve <= left);
		}
}

/* Whatever the clock, the hard limit plus the reserve fits in the time
 * left, the soft target is no later than the hard limit, and both are at
 * least 1 ms. */
static void test_clock_never_overruns(void **state)
{
	(void)state;
	static const int64_t times[] = {1, 5, 49, 50, 51, 100, 999, 5000, 60000, 3600000};
	static const int64_t incs[] = {0, 10, 1000, 5000};
	static const int togo[] = {0, 1, 2, 5, 40, 200};
	static const int overheads[] = {0, 50, 200};
	for (size_t a = 0; a < sizeof times / sizeof *times; a++)
		for (size_t i = 0; i < sizeof incs / sizeof *incs; i++)
			for (size_t m = 0; m < sizeof togo / sizeof *togo; m++)
				for (size_t o = 0; o < sizeof overheads / sizeof *overheads; o++) {
					SearchLimits l = {.time_left_ms = times[a],
					                  .increment_ms = incs[i],
					                  .moves_to_go = togo[m]};
					TimeBudget b;
					timeman_budget(&l, overheads[o], &b);
					assert_true(b.limited);
					assert_true(b.soft_ms >= 1);
					assert_true(b.soft_ms <= b.hard_ms);
					int64_t reserve = timeman_reserve(times[a], overheads[o]);
					if (times[a] > reserve + 1)
						assert_true(b.hard_ms + reserve <= times[a]);
					else
						assert_int_equal(b.hard_ms, 1);
				}
}

/* More time left means no less time spent; the last move before a time
 * control may use most of the clock, an ordinary move much less. */
static void test_budget_grows_with_the_clock(void **state)
{
	(void)state;
	TimeBudget small, large, last;
	SearchLimits l = {.time_left_ms = 10000};
	timeman_budget(&l, 50, &small);
	l.time_left_ms = 100000;
	timeman_budget(&l, 50, &large);
	assert_true(large.soft_ms > small.soft_ms);
	assert_true(large.hard_ms > small.hard_ms);
	assert_true(small.hard_ms <= 10000 / 3);
	l.time_left_ms = 10000;
	l.moves_to_go = 1;
	timeman_budget(&l, 50, &last);
	assert_true(last.hard_ms > small.hard_ms);
	assert_true(last.hard_ms < 10000 - 50);
}

static void test_increment_is_spent(void **state)
{
	(void)state;
	TimeBudget without, with;
	SearchLimits l = {.time_left_ms = 60000};
	timeman_budget(&l, 50, &without);
	l.increment_ms = 2000;
	timeman_budget(&l, 50, &with);
	assert_true(with.soft_ms >= without.soft_ms + 1000);
}

/* A search that ran all the wall time is charged that; one that ran half
 * of it (a loaded machine) is charged the wall time and the half it lost;
 * never less than the wall time, never more than twice it. */
static void test_charge_adds_the_time_not_run(void **state)
{
	(void)state;
	assert_int_equal(timeman_charged(50, 50), 50);
	assert_int_equal(timeman_charged(50, 51), 50); /* rounding of the two clocks */
	assert_int_equal(timeman_charged(50, -1), 50); /* processor time unknown */
	assert_int_equal(timeman_charged(60, 30), 90);
	assert_int_equal(timeman_charged(40, 0), 80);
	for (int64_t elapsed = 0; elapsed < 300; elapsed += 7)
		for (int64_t ran = -1; ran < 320; ran += 11) {
			int64_t c = timeman_charged(elapsed, ran);
			assert_true(c >= elapsed && c <= 2 * elapsed);
		}
}

static void test_clock_is_monotonic(void **state)
{
	(void)state;
	int64_t a = clock_now_ms(), b = clock_now_ms();
	assert_true(b >= a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_limit_without_time),
	    cmocka_unit_test(test_move_time_less_overhead),
	    cmocka_unit_test(test_reserve_scales_with_the_budget),
	    cmocka_unit_test(test_clock_never_overruns),
	    cmocka_unit_test(test_assumed_moves_by_rules),
	    cmocka_unit_test(test_budget_grows_with_the_clock),
	    cmocka_unit_test(test_increment_is_spent),
	    cmocka_unit_test(test_charge_adds_the_time_not_run),
	    cmocka_unit_test(test_clock_is_monotonic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
