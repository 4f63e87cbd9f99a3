/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fork and join over pthreads, falling back to the calling thread. */
#include "poolshark/workers.h"

#include <pthread.h>
#include <stdbool.h>

void workers_run(void *jobs, size_t job_size, int count, void *(*fn)(void *))
{
	pthread_t ids[WORKERS_MAX];
	bool started[WORKERS_MAX] = {false};
	char *job = jobs;
	if (count > WORKERS_MAX)
		count = WORKERS_MAX;
	for (int i = 1; i < count; i++)
		started[i] = pthread_create(&ids[i], NULL, fn, job + (size_t)i * job_size) == 0;
	if (count > 0)
		fn(job);
	for (int i = 1; i < count; i++)
		if (!started[i])
			fn(job + (size_t)i * job_size);
	for (int i = 1; i < count; i++)
		if (started[i])
			pthread_join(ids[i], NULL);
}
