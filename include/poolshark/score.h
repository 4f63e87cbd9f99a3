/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scores: the scale the search, the table and the front-ends share, and how it is written. */
#ifndef POOLSHARK_SCORE_H
#define POOLSHARK_SCORE_H

#include <stdbool.h>
#include <stddef.h>

enum {
	SEARCH_MAX_PLY = 128, /* deepest line, extensions included */
	SCORE_DRAW = 0,
	SCORE_WIN = 10000, /* the side to move wins now; minus plies to the end */
	SCORE_INFINITE = 10001,
	/* The farthest game end an endgame database reports (egdb.h keeps its
	 * distances below it). */
	SCORE_DATABASE_PLIES = 256,
	/* Scores beyond this are forced game ends (SCORE_WIN - plies), found
	 * by the search or beyond its reach in an endgame database. */
	SCORE_WIN_MIN = SCORE_WIN - SEARCH_MAX_PLY - SCORE_DATABASE_PLIES,
	/* A database win that a draw rule might still stop: better than any
	 * evaluation, worse than a sure win (minus the distance). */
	SCORE_EGDB_LIKELY_WIN = 5000
};

static inline bool score_is_decisive(int score)
{
	return score >= SCORE_WIN_MIN || score <= -SCORE_WIN_MIN;
}

/* The plies to the end of a decisive score (positive: the side to move wins). */
static inline int score_mate_plies(int score)
{
	return score > 0 ? SCORE_WIN - score : -(SCORE_WIN + score);
}

/*
 * A score in men, as the Hub protocol reports it: hundredths of a man become
 * men, and a forced end in p plies reads as 100 - p/100 (99.93 for a win in
 * 7 plies, -99.93 for a loss).
 */
double score_in_men(int score);

/*
 * A score for people: "+1.25", "-0.05", and a forced end as
 * "+99.93 (win in 7 plies)" ("win in 1 ply"). Always NUL-terminated (cut
 * to `size`).
 */
void score_write(int score, char *out, size_t size);

/* score_write() for a narrow status line: "+1.25", or a forced end as
 * "win in 7 plies" / "loss in 1 ply" alone. */
void score_write_brief(int score, char *out, size_t size);

#endif
