/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fork and join: one job per thread, the calling thread taking part. */
#ifndef POOLSHARK_WORKERS_H
#define POOLSHARK_WORKERS_H

#include <stddef.h>

/* The most jobs workers_run() runs at once. */
enum { WORKERS_MAX = 64 };

/*
 * Runs fn on each of the `count` jobs at `jobs` (job i at jobs + i *
 * job_size; count <= WORKERS_MAX): job 0 in the calling thread, every
 * other one in a thread of its own, or in the calling thread after job 0
 * when its thread does not start (so a build or a system without threads
 * still does every job). Returns when all are done.
 */
void workers_run(void *jobs, size_t job_size, int count, void *(*fn)(void *));

/* `threads` brought into 1..WORKERS_MAX. */
static inline int workers_clamp(int threads)
{
	return threads < 1 ? 1 : threads > WORKERS_MAX ? WORKERS_MAX : threads;
}

#endif
