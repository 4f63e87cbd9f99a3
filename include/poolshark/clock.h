/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one clock: monotonic time for time limits and speed figures. */
#ifndef POOLSHARK_CLOCK_H
#define POOLSHARK_CLOCK_H

#include <stdint.h>

/* Nanoseconds of a monotonic clock (arbitrary origin). */
int64_t clock_now_ns(void);

/* Milliseconds of the same clock. */
static inline int64_t clock_now_ms(void)
{
	return clock_now_ns() / 1000000;
}

#endif
