/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The monotonic clock, and the thread's processor time. */
#include "poolshark/clock.h"

#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

int64_t clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t clock_thread_cpu_ns(void)
{
	/* Not on Windows: there the thread's time advances in steps of 15.6 ms,
	 * too coarse to set against moves of a tenth of a second. */
#if defined(CLOCK_THREAD_CPUTIME_ID) && !defined(_WIN32)
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#endif
	return -1;
}

int64_t clock_thread_cpu_coarse_ns(void)
{
#ifdef _WIN32
	FILETIME created, exited, kernel, user;
	if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user))
		return -1;
	uint64_t k = ((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime;
	uint64_t u = ((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime;
	return (int64_t)(k + u) * 100; /* 100 ns units */
#else
	return clock_thread_cpu_ns();
#endif
}
