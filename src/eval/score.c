/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writing scores for protocols and people. */
#include "poolshark/score.h"

#include <stdio.h>
#include <stdlib.h>

double score_in_men(int score)
{
	if (!score_is_decisive(score))
		return score / 100.0;
	double value = 100.0 - abs(score_mate_plies(score)) / 100.0;
	return score < 0 ? -value : value;
}

void score_write(int score, char *out, size_t size)
{
	if (size == 0)
		return;
	int n = snprintf(out, size, "%+.2f", score_in_men(score));
	if (score_is_decisive(score) && n > 0 && (size_t)n < size) {
		int plies = score_mate_plies(score);
		snprintf(out + n, size - (size_t)n, " (%s in %d %s)", plies > 0 ? "win" : "loss", abs(plies),
		         abs(plies) == 1 ? "ply" : "plies");
	}
}

void score_write_brief(int score, char *out, size_t size)
{
	if (size == 0)
		return;
	if (!score_is_decisive(score)) {
		snprintf(out, size, "%+.2f", score / 100.0);
		return;
	}
	int plies = score_mate_plies(score);
	snprintf(out, size, "%s in %d %s", plies > 0 ? "win" : "loss", abs(plies),
	         abs(plies) == 1 ? "ply" : "plies");
}
