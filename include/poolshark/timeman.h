/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time management: how long to think about one move. */
#ifndef POOLSHARK_TIMEMAN_H
#define POOLSHARK_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/search.h"

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
 * The budget for *limits. A fixed move time is used whole, less the move
 * overhead. With a clock, the time left less the overhead is shared out
 * over the moves to go (or an assumed game length), with the increment
 * mostly spent; the hard limit is a few soft targets but never more than
 * a fraction of what is left, so the clock is never overrun. Every limited
 * budget is at least 1 ms.
 */
void timeman_budget(const SearchLimits *limits, int move_overhead_ms, TimeBudget *out);

/* Milliseconds of a monotonic clock (arbitrary origin). */
int64_t timeman_now_ms(void);

#endif
