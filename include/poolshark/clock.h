/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one clock: monotonic time for time limits and speed figures. */
#ifndef POOLSHARK_CLOCK_H
#define POOLSHARK_CLOCK_H

#include <stdint.h>

/* Nanoseconds of a monotonic clock (arbitrary origin). */
int64_t clock_now_ns(void);

/* Nanoseconds of processor time the calling thread has used (arbitrary
 * origin), or -1 where the system does not say. Set against the monotonic
 * clock, it tells how much of the wall time the thread actually ran. */
int64_t clock_thread_cpu_ns(void);

/* The same however coarse the system keeps it (Windows: steps of 15.6 ms),
 * or -1: for measurements over seconds, such as the bench's. */
int64_t clock_thread_cpu_coarse_ns(void);

/* Milliseconds of the same clock. */
static inline int64_t clock_now_ms(void)
{
	return clock_now_ns() / 1000000;
}

#endif
