/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time management: soft target, hard limit, move overhead. */
#include "poolshark/timeman.h"

/* Moves we expect still to play when the clock has no moves-to-go. */
static const int ASSUMED_MOVES_LEFT = 25;
/* In Russian, where a game is decided before its long kings ending, the
 * clock goes faster (experiments.md, step 161; Brazilian did not show it). */
static const int ASSUMED_MOVES_LEFT_RUSSIAN = 12;

/* The move overhead is kept back from a budget only up to this fraction of
 * it (1/10): 50 ms of overhead would leave a 0.05 s move nothing to search. */
static const int64_t RESERVE_DIVISOR = 10;

static int64_t at_least_1(int64_t ms)
{
	return ms < 1 ? 1 : ms;
}

int64_t timeman_reserve(int64_t budget_ms, int move_overhead_ms)
{
	int64_t share = budget_ms > 0 ? budget_ms / RESERVE_DIVISOR : 0;
	int64_t overhead = move_overhead_ms > 0 ? move_overhead_ms : 0;
	return overhead < share ? overhead : share;
}

int64_t timeman_charged(int64_t elapsed_ms, int64_t ran_ms)
{
	if (ran_ms < 0 || ran_ms >= elapsed_ms)
		return elapsed_ms;
	return elapsed_ms + (elapsed_ms - (ran_ms > 0 ? ran_ms : 0));
}

int timeman_assumed_moves(Variant v)
{
	return v == VARIANT_RUSSIAN ? ASSUMED_MOVES_LEFT_RUSSIAN : ASSUMED_MOVES_LEFT;
}

void timeman_budget(const SearchLimits *limits, int move_overhead_ms, TimeBudget *out)
{
	timeman_budget_over(limits, move_overhead_ms, ASSUMED_MOVES_LEFT, out);
}

void timeman_budget_over(const SearchLimits *limits, int move_overhead_ms, int assumed_moves, TimeBudget *out)
{
	out->limited = false;
	out->soft_ms = 0;
	out->hard_ms = 0;
	if (limits->infinite)
		return;
	if (limits->move_time_ms > 0) {
		out->limited = true;
		out->hard_ms = at_least_1(limits->move_time_ms -
		                          timeman_reserve(limits->move_time_ms, move_overhead_ms));
		out->soft_ms = out->hard_ms;
		return;
	}
	if (limits->time_left_ms <= 0)
		return;

	int64_t left =
	    at_least_1(limits->time_left_ms - timeman_reserve(limits->time_left_ms, move_overhead_ms));
	int moves = limits->moves_to_go > 0 ? limits->moves_to_go
	            : assumed_moves > 0     ? assumed_moves
	                                    : ASSUMED_MOVES_LEFT;
	if (moves > 50)
		moves = 50;
	int64_t soft = left / moves + limits->increment_ms * 3 / 4;
	/* With one move to the control most of the clock may go; otherwise
	 * never more than a third in a single move. */
	int64_t cap = moves == 1 ? left * 9 / 10 : left / 3;
	int64_t hard = soft * 4;
	if (hard > cap)
		hard = cap;
	if (soft > hard)
		soft = hard;
	out->limited = true;
	out->soft_ms = at_least_1(soft);
	out->hard_ms = at_least_1(hard);
}
