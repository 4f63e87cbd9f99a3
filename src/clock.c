/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The monotonic clock. */
#include "poolshark/clock.h"

#include <time.h>

int64_t clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
