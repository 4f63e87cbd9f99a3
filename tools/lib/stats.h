/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Match statistics: Elo from game pairs (pentanomial), LOS and a Wald SPRT. */
#ifndef POOLSHARK_STATS_H
#define POOLSHARK_STATS_H

#include <stdbool.h>

/*
 * A match seen from the first engine. Each opening is played twice with the
 * colours reversed; the two games form a pair whose total (0, 0.5, 1, 1.5 or
 * 2 points) is one pentanomial sample. Counting pairs instead of games
 * removes the noise that the opening adds to both games of a pair, as
 * fishtest does. wins/draws/losses count every game, pairs only the
 * complete ones.
 */
typedef struct MatchTally {
	int wins, draws, losses;
	int pairs[5]; /* pairs[k]: pairs in which the first engine scored k/2 points */
} MatchTally;

/* Adds one pair whose two games scored a and b for the first engine (each 0,
 * 0.5 or 1 expressed as 0, 1 or 2 half points). */
void stats_add_pair(MatchTally *t, int half_points_a, int half_points_b);

/* Adds one game scored in half points (0 loss, 1 draw, 2 win) to the W/D/L totals. */
void stats_add_game(MatchTally *t, int half_points);

/* The number of complete pairs. */
int stats_pair_count(const MatchTally *t);

typedef struct EloEstimate {
	double score;   /* mean score per game, 0..1 */
	double elo;     /* logistic Elo difference; +-INFINITY at a score of 1 or 0 */
	double elo_low; /* bounds of the 95% confidence interval */
	double elo_high;
	double los; /* likelihood of superiority, 0..1 */
} EloEstimate;

/*
 * Elo of the first engine from the pentanomial pair counts: the score is the
 * mean pair score divided by two, its standard error comes from the spread
 * of the pair scores, the 95% interval is score +- 1.959964 standard errors
 * mapped through the logistic curve, and LOS = Phi((score - 0.5) / error).
 * Returns false (and leaves *out zeroed) when there is no complete pair.
 */
bool stats_elo_pentanomial(const MatchTally *t, EloEstimate *out);

/* The same from the W/D/L game counts (trinomial), used before any pair is
 * complete and for matches that are not played in pairs. False with no game. */
bool stats_elo_trinomial(const MatchTally *t, EloEstimate *out);

/* Logistic Elo of a mean score (0 < score < 1; +-INFINITY at the ends). */
double stats_elo_from_score(double score);

/* The mean score that a logistic Elo difference gives. */
double stats_score_from_elo(double elo);

typedef enum SprtDecision { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtDecision;

typedef struct SprtConfig {
	double elo0, elo1;  /* H0: Elo = elo0, H1: Elo = elo1 (logistic Elo) */
	double alpha, beta; /* false positive and false negative rates */
} SprtConfig;

/* The Wald bounds: *lower = log(beta / (1 - alpha)), *upper = log((1 - beta) / alpha). */
void stats_sprt_bounds(const SprtConfig *c, double *lower, double *upper);

/*
 * The log-likelihood ratio of H1 against H0 from the pentanomial counts, as
 * fishtest's generalized SPRT computes it: for each hypothesis, the pair
 * distribution of largest likelihood whose mean pair score is that of its
 * Elo (s0 or s1); LLR = sum over the five outcomes of n log(p1 / p0). Empty
 * outcomes count 1e-3 so that a run of identical pairs stays finite. Close
 * to N (s1 - s0) (2 m - s0 - s1) / (2 v) for many pairs (m the mean pair
 * score, v its variance), but unlike that it cannot explode on a handful of
 * identical pairs. 0 with no complete pair.
 */
double stats_sprt_llr(const MatchTally *t, const SprtConfig *c);

/* Compares the LLR with the bounds. */
SprtDecision stats_sprt_decide(const MatchTally *t, const SprtConfig *c, double *llr_out);

#endif
