/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Match statistics: Elo and its interval from pairs, LOS, SPRT bounds and decisions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "stats.h"

static void assert_near(double a, double b, double tolerance)
{
	if (fabs(a - b) > tolerance)
		fail_msg("%.9f is not within %g of %.9f", a, tolerance, b);
}

static void test_elo_and_score_are_inverse(void **state)
{
	(void)state;
	for (double elo = -800; elo <= 800; elo += 37.5)
		assert_near(stats_elo_from_score(stats_score_from_elo(elo)), elo, 1e-9);
	assert_near(stats_score_from_elo(0), 0.5, 1e-12);
	/* 10^(400/400) = 10: a 400-point favourite scores 10/11. */
	assert_near(stats_score_from_elo(400), 10.0 / 11.0, 1e-12);
	assert_true(isinf(stats_elo_from_score(1.0)) && stats_elo_from_score(1.0) > 0);
}

/* The pentanomial estimate equals the plain sample statistics of the pair scores. */
static void test_pentanomial_matches_sample_statistics(void **state)
{
	(void)state;
	MatchTally t = {0};
	double samples[64];
	int n = 0;
	const int counts[5] = {2, 7, 19, 11, 5};
	for (int k = 0; k < 5; k++)
		for (int i = 0; i < counts[k]; i++) {
			/* Two games per pair: k half points split as evenly as they go. */
			stats_add_pair(&t, k / 2, k - k / 2);
			samples[n++] = k / 4.0;
		}
	double mean = 0, var = 0;
	for (int i = 0; i < n; i++)
		mean += samples[i] / n;
	for (int i = 0; i < n; i++)
		var += (samples[i] - mean) * (samples[i] - mean) / n;
	double error = sqrt(var / n);

	EloEstimate e;
	assert_true(stats_elo_pentanomial(&t, &e));
	assert_int_equal(stats_pair_count(&t), n);
	assert_near(e.score, mean, 1e-12);
	assert_near(e.elo, -400 * log10(1 / mean - 1), 1e-9);
	assert_near(e.elo_low, -400 * log10(1 / (mean - 1.959964 * error) - 1), 1e-3);
	assert_near(e.elo_high, -400 * log10(1 / (mean + 1.959964 * error) - 1), 1e-3);
	assert_near(e.los, 0.5 * erfc(-(mean - 0.5) / error / sqrt(2.0)), 1e-12);
	assert_true(e.elo_low < e.elo && e.elo < e.elo_high);
}

static void test_symmetry_and_scaling(void **state)
{
	(void)state;
	MatchTally a = {.pairs = {3, 10, 30, 14, 5}}, mirror = {.pairs = {5, 14, 30, 10, 3}};
	MatchTally even = {.pairs = {4, 10, 30, 10, 4}}, big = a;
	EloEstimate ea, em, ee, eb;
	for (int k = 0; k < 5; k++)
		big.pairs[k] *= 4;
	assert_true(stats_elo_pentanomial(&a, &ea));
	assert_true(stats_elo_pentanomial(&mirror, &em));
	assert_true(stats_elo_pentanomial(&even, &ee));
	assert_true(stats_elo_pentanomial(&big, &eb));
	assert_near(ea.elo, -em.elo, 1e-9);
	assert_near(ea.los + em.los, 1.0, 1e-12);
	assert_true(ea.los > 0.5);
	assert_near(ee.elo, 0.0, 1e-9);
	assert_near(ee.los, 0.5, 1e-12);
	/* Four times the pairs, half the interval (in score terms, so nearly in Elo). */
	assert_near(eb.elo, ea.elo, 1e-9);
	assert_near((eb.elo_high - eb.elo_low) * 2, ea.elo_high - ea.elo_low, 0.5);

	MatchTally empty = {0};
	assert_false(stats_elo_pentanomial(&empty, &ea));
	assert_false(stats_elo_trinomial(&empty, &ea));
}

static void test_trinomial(void **state)
{
	(void)state;
	MatchTally t = {0};
	for (int i = 0; i < 30; i++)
		stats_add_game(&t, 2);
	for (int i = 0; i < 50; i++)
		stats_add_game(&t, 1);
	for (int i = 0; i < 20; i++)
		stats_add_game(&t, 0);
	assert_int_equal(t.wins, 30);
	assert_int_equal(t.draws, 50);
	assert_int_equal(t.losses, 20);
	EloEstimate e;
	assert_true(stats_elo_trinomial(&t, &e));
	assert_near(e.score, 0.55, 1e-12);
	assert_near(e.elo, stats_elo_from_score(0.55), 1e-9);
	assert_true(e.los > 0.5 && e.los < 1.0);
}

static void test_sprt_bounds(void **state)
{
	(void)state;
	SprtConfig c = {0, 5, 0.05, 0.05};
	double lower, upper;
	stats_sprt_bounds(&c, &lower, &upper);
	assert_near(lower, log(0.05 / 0.95), 1e-12);
	assert_near(upper, log(0.95 / 0.05), 1e-12);
	assert_near(lower, -2.944438979, 1e-8);
	SprtConfig skew = {0, 5, 0.05, 0.1};
	stats_sprt_bounds(&skew, &lower, &upper);
	assert_near(lower, log(0.1 / 0.95), 1e-12);
	assert_near(upper, log(0.9 / 0.05), 1e-12);
}

static void test_sprt_llr(void **state)
{
	(void)state;
	SprtConfig c = {0, 10, 0.05, 0.05};
	MatchTally t = {.pairs = {60, 200, 400, 240, 100}}, twice = t;
	for (int k = 0; k < 5; k++)
		twice.pairs[k] *= 2;
	/* Many pairs: the normal approximation N ((m-s0)^2 - (m-s1)^2) / (2 v) is close. */
	double n = 1000, mean = 0, var = 0;
	for (int k = 0; k < 5; k++)
		mean += t.pairs[k] * (k / 4.0) / n;
	for (int k = 0; k < 5; k++)
		var += t.pairs[k] * (k / 4.0 - mean) * (k / 4.0 - mean) / n;
	double s0 = stats_score_from_elo(0), s1 = stats_score_from_elo(10);
	double normal = n * ((mean - s0) * (mean - s0) - (mean - s1) * (mean - s1)) / (2 * var);
	double llr = stats_sprt_llr(&t, &c);
	assert_true(llr > 0);
	assert_near(llr, normal, 0.02 * fabs(normal));
	/* The fitted distributions depend on the proportions only. */
	assert_near(stats_sprt_llr(&twice, &c), 2 * llr, 1e-6);

	/* Score exactly halfway between the hypotheses: no evidence either way. */
	MatchTally even = {.pairs = {5, 10, 20, 10, 5}};
	SprtConfig around = {-10, 10, 0.05, 0.05};
	assert_near(stats_sprt_llr(&even, &around), 0.0, 1e-9);
	MatchTally none = {0};
	assert_near(stats_sprt_llr(&none, &c), 0.0, 0);
	/* One pair won twice is far from proof; each pair adds at most a bounded amount. */
	MatchTally one = {.pairs = {0, 0, 0, 0, 1}};
	SprtConfig wide = {0, 50, 0.05, 0.05};
	double one_llr = stats_sprt_llr(&one, &wide);
	assert_true(one_llr > 0 && one_llr < 1.0);
}

static void test_sprt_decisions(void **state)
{
	(void)state;
	SprtConfig c = {0, 5, 0.05, 0.05};
	MatchTally strong = {.pairs = {10, 100, 300, 200, 60}};
	MatchTally weak = {.pairs = {60, 200, 300, 100, 10}};
	MatchTally few = {.pairs = {0, 1, 2, 1, 0}};
	MatchTally all_draws = {.pairs = {0, 0, 50, 0, 0}};
	double llr;
	assert_int_equal(stats_sprt_decide(&strong, &c, &llr), SPRT_ACCEPT_H1);
	assert_true(llr > 2.95);
	assert_int_equal(stats_sprt_decide(&weak, &c, &llr), SPRT_ACCEPT_H0);
	assert_true(llr < -2.95);
	assert_int_equal(stats_sprt_decide(&few, &c, NULL), SPRT_CONTINUE);
	/* Identical pairs: no zero variance, a finite ratio. */
	assert_true(isfinite(stats_sprt_llr(&all_draws, &c)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_elo_and_score_are_inverse),
	    cmocka_unit_test(test_pentanomial_matches_sample_statistics),
	    cmocka_unit_test(test_symmetry_and_scaling),
	    cmocka_unit_test(test_trinomial),
	    cmocka_unit_test(test_sprt_bounds),
	    cmocka_unit_test(test_sprt_llr),
	    cmocka_unit_test(test_sprt_decisions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
