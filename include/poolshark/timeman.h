/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time management: how long to think about one move. */
#ifndef POOLSHARK_TIMEMAN_H
#define POOLSHARK_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/move.h"
#include "poolshark/variant.h"

/* The most root moves a search may be restricted to (SearchLimits). */
enum { SEARCH_MAX_ROOT_MOVES = 64 };

/* Limits of one search; zero fields are "no limit". Times in milliseconds. */
typedef struct SearchLimits {
	int depth;            /* plies; 0 = none */
	uint64_t nodes;       /* 0 = none */
	int64_t move_time_ms; /* fixed time for this move; 0 = none */
	int64_t time_left_ms; /* game clock of the side to move; 0 = no clock */
	int64_t increment_ms; /* added after each move */
	int moves_to_go;      /* moves until the next time control; 0 = rest of game */
	bool infinite;        /* search until stopped (also: go analyze) */
	bool ponder;          /* pondering: the clock starts at engine_ponder_hit() */
	/* When the clock of this move started, in clock_now_ms() time: the
	 * moment the GUI's order to move came in, so that what happens before
	 * the search runs (starting its thread, the scheduler) is counted.
	 * 0: when the search starts. */
	int64_t clock_start_ms;
	/* Every root move gets an exact score in each iteration (no window
	 * at the root, so slower); read them with search_root_scores(). */
	bool score_all_moves;
	/* The best `multipv` root moves each get their line and exact score
	 * (search.h, SEARCH_MAX_LINES at most); 0 or 1: one line. */
	int multipv;
	/* Only these root moves are searched (each legal in the root
	 * position); 0: every legal move. */
	int root_move_count;
	Move root_moves[SEARCH_MAX_ROOT_MOVES];
} SearchLimits;

/*
 * The budget of one search, in milliseconds from its start. After `soft`
 * the search starts no new iteration; at `hard` it stops at once. Both 0
 * when there is no time limit at all.
 */
typedef struct TimeBudget {
	bool limited;
	int64_t soft_ms;
	int64_t hard_ms;
} TimeBudget;

/*
 * What is kept back from a budget of `budget_ms` (a move time, or the time
 * left on the clock) for what the clock sees beyond the search: reading
 * the command, writing the move, the pipe and the scheduler. The move
 * overhead, but never more than a tenth of the budget, so that a short
 * budget is still mostly searched (a 0.05 s move with 50 ms of overhead
 * searches 45 ms) while a long one keeps the whole overhead. 0 for a
 * budget of 9 ms or less, or a negative overhead.
 */
int64_t timeman_reserve(int64_t budget_ms, int move_overhead_ms);

/*
 * What a search is charged for its move so far: the wall time since the
 * order to move, plus the part of it in which the search did not run
 * (elapsed_ms - ran_ms, ran_ms being the search thread's processor time
 * since it started; nothing is added when ran_ms < 0, unknown). On an idle
 * machine that part is nil. On a loaded one, where the search gets only
 * part of a core or starts late, the move once decided will likely wait as
 * long again for the scheduler before the GUI has it, so the search keeps
 * that much in hand: it is stopped when the charge reaches its limits.
 * Never less than elapsed_ms, never more than twice it.
 */
int64_t timeman_charged(int64_t elapsed_ms, int64_t ran_ms);

/*
 * The budget for *limits. A fixed move time is used whole, less the
 * reserve. With a clock, the time left less the reserve is shared out
 * over the moves to go (or an assumed game length), with the increment
 * mostly spent; the hard limit is a few soft targets but never more than
 * a fraction of what is left, so the clock is never overrun. Every limited
 * budget is at least 1 ms.
 */
void timeman_budget(const SearchLimits *limits, int move_overhead_ms, TimeBudget *out);

/* timeman_budget() with a clock that has no moves to go shared over
 * `assumed_moves` moves (the default 25 when it is 0 or less). */
void timeman_budget_over(const SearchLimits *limits, int move_overhead_ms, int assumed_moves,
                         TimeBudget *out);

/* The moves to share such a clock over in the rules `v`: 25, and 12 in
 * Russian. */
int timeman_assumed_moves(Variant v);

#endif
