/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Match statistics: Elo from game pairs (pentanomial), LOS and a Wald SPRT. */
#include "stats.h"

#include <math.h>
#include <string.h>

/* Two-sided 95% quantile of the standard normal distribution. */
static const double Z95 = 1.959963984540054;

void stats_add_pair(MatchTally *t, int half_points_a, int half_points_b)
{
	int k = half_points_a + half_points_b;
	if (k >= 0 && k <= 4)
		t->pairs[k]++;
}

void stats_add_game(MatchTally *t, int half_points)
{
	if (half_points >= 2)
		t->wins++;
	else if (half_points == 1)
		t->draws++;
	else
		t->losses++;
}

int stats_pair_count(const MatchTally *t)
{
	int n = 0;
	for (int k = 0; k < 5; k++)
		n += t->pairs[k];
	return n;
}

double stats_elo_from_score(double score)
{
	if (score <= 0.0)
		return -INFINITY;
	if (score >= 1.0)
		return INFINITY;
	return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score_from_elo(double elo)
{
	return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

static double normal_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/*
 * Shared by both models: `count` outcomes with scores `value[i]` in 0..1 and
 * frequencies `weight[i]`. A pair's score is its mean per game, so the mean
 * and its standard error are per game in both models.
 */
static bool estimate(const double *value, const double *weight, int count, EloEstimate *out)
{
	double n = 0.0, mean = 0.0, var = 0.0;
	memset(out, 0, sizeof *out);
	for (int i = 0; i < count; i++)
		n += weight[i];
	if (n <= 0.0)
		return false;
	for (int i = 0; i < count; i++)
		mean += weight[i] * value[i];
	mean /= n;
	for (int i = 0; i < count; i++)
		var += weight[i] * (value[i] - mean) * (value[i] - mean);
	var /= n;
	double error = sqrt(var / n);
	out->score = mean;
	out->elo = stats_elo_from_score(mean);
	out->elo_low = stats_elo_from_score(mean - Z95 * error);
	out->elo_high = stats_elo_from_score(mean + Z95 * error);
	if (error > 0.0)
		out->los = normal_cdf((mean - 0.5) / error);
	else
		out->los = mean > 0.5 ? 1.0 : mean < 0.5 ? 0.0 : 0.5;
	return true;
}

bool stats_elo_pentanomial(const MatchTally *t, EloEstimate *out)
{
	double value[5], weight[5];
	for (int k = 0; k < 5; k++) {
		value[k] = k / 4.0;
		weight[k] = t->pairs[k];
	}
	return estimate(value, weight, 5, out);
}

bool stats_elo_trinomial(const MatchTally *t, EloEstimate *out)
{
	const double value[3] = {0.0, 0.5, 1.0};
	const double weight[3] = {t->losses, t->draws, t->wins};
	return estimate(value, weight, 3, out);
}

void stats_sprt_bounds(const SprtConfig *c, double *lower, double *upper)
{
	*lower = log(c->beta / (1.0 - c->alpha));
	*upper = log((1.0 - c->beta) / c->alpha);
}

/*
 * The distribution over the five pair scores x[k] that is most likely to have
 * produced the counts w[k] among those with mean `mean`. Maximising
 * sum w log p under sum p = 1 and sum p (x - mean) = 0 gives
 * p[k] = w[k] / (W (1 + lambda (x[k] - mean))), where lambda is the root of
 * f(lambda) = sum w (x - mean) / (1 + lambda (x - mean)); f falls strictly
 * on the interval where every p stays positive, so bisection finds it.
 */
static void most_likely(const double *w, const double *x, double mean, double *p)
{
	double total = 0.0, lo = -1.0 / (1.0 - mean), hi = 1.0 / mean;
	for (int k = 0; k < 5; k++)
		total += w[k];
	for (int iteration = 0; iteration < 200; iteration++) {
		double mid = 0.5 * (lo + hi), f = 0.0;
		for (int k = 0; k < 5; k++)
			f += w[k] * (x[k] - mean) / (1.0 + mid * (x[k] - mean));
		if (f > 0.0)
			lo = mid;
		else
			hi = mid;
	}
	double lambda = 0.5 * (lo + hi);
	for (int k = 0; k < 5; k++)
		p[k] = w[k] / (total * (1.0 + lambda * (x[k] - mean)));
}

double stats_sprt_llr(const MatchTally *t, const SprtConfig *c)
{
	if (stats_pair_count(t) == 0)
		return 0.0;
	double w[5], x[5], p0[5], p1[5], llr = 0.0;
	for (int k = 0; k < 5; k++) {
		w[k] = t->pairs[k] > 0 ? t->pairs[k] : 1e-3;
		x[k] = k / 4.0;
	}
	most_likely(w, x, stats_score_from_elo(c->elo0), p0);
	most_likely(w, x, stats_score_from_elo(c->elo1), p1);
	for (int k = 0; k < 5; k++)
		llr += w[k] * log(p1[k] / p0[k]);
	return llr;
}

SprtDecision stats_sprt_decide(const MatchTally *t, const SprtConfig *c, double *llr_out)
{
	double lower, upper, llr = stats_sprt_llr(t, c);
	stats_sprt_bounds(c, &lower, &upper);
	if (llr_out)
		*llr_out = llr;
	if (llr >= upper)
		return SPRT_ACCEPT_H1;
	if (llr <= lower)
		return SPRT_ACCEPT_H0;
	return SPRT_CONTINUE;
}
