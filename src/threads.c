/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Lazy SMP: the helpers of one search, started with it and joined when it ends. */
#include "poolshark/threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#ifdef _WIN32
#include <windows.h> /* the Windows DLL (make checkerboard): the processor count */
#else
#include <unistd.h>
#endif

enum { THREADS_PER_CORE = 4, THREADS_MIN_MAX = 4 };

/* What one helper thread needs. */
typedef struct Helper {
	Search *search;
	TT *tt;
	const SearchRoot *root;
	SearchLimits limits;
	SearchControl control;
	SearchResult result;
	pthread_t id;
	bool started;
} Helper;

struct Threads {
	int count;
	Search **helpers; /* count - 1 of them */
	Egdb *egdb;       /* what every helper probes */
	/* The helpers of the search in progress (running of them) and what
	 * they share with it. */
	Helper *running;
	int running_count;
	atomic_bool stop;
	atomic_uint_least64_t nodes;
};

int threads_max(void)
{
#ifdef POOLSHARK_SINGLE_THREAD
	return 1; /* the browser worker: no threads to start */
#else
#ifdef _WIN32
	SYSTEM_INFO info;
	GetSystemInfo(&info);
	long cores = (long)info.dwNumberOfProcessors;
#else
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
#endif
	long most = cores > 0 ? cores * THREADS_PER_CORE : THREADS_MIN_MAX;
	return most < THREADS_MIN_MAX ? THREADS_MIN_MAX : (int)most;
#endif
}

Threads *threads_create(void)
{
	Threads *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->count = 1;
	atomic_init(&t->stop, false);
	atomic_init(&t->nodes, 0);
	return t;
}

void threads_wait(Threads *t)
{
	if (!t->running)
		return;
	atomic_store(&t->stop, true);
	for (int i = 0; i < t->running_count; i++)
		if (t->running[i].started)
			pthread_join(t->running[i].id, NULL);
	free(t->running);
	t->running = NULL;
	t->running_count = 0;
}

void threads_destroy(Threads *t)
{
	if (!t)
		return;
	threads_wait(t);
	for (int i = 0; i < t->count - 1; i++)
		search_destroy(t->helpers[i]);
	free(t->helpers);
	free(t);
}

bool threads_set_count(Threads *t, int count)
{
	if (count < 1 || count > threads_max())
		return false;
	if (count == t->count)
		return true;
	threads_wait(t);
	Search **helpers = count > 1 ? calloc((size_t)count - 1, sizeof *helpers) : NULL;
	if (count > 1 && !helpers)
		return false;
	/* Keep the helpers there are, make the missing ones. */
	for (int i = 0; i < count - 1; i++) {
		helpers[i] = i < t->count - 1 ? t->helpers[i] : search_create();
		if (helpers[i])
			search_set_egdb(helpers[i], t->egdb);
		if (!helpers[i]) {
			for (int j = t->count - 1; j < i; j++)
				search_destroy(helpers[j]);
			free(helpers);
			return false;
		}
	}
	for (int i = count - 1; i < t->count - 1; i++)
		search_destroy(t->helpers[i]);
	free(t->helpers);
	t->helpers = helpers;
	t->count = count;
	return true;
}

int threads_count(const Threads *t)
{
	return t->count;
}

void threads_set_egdb(Threads *t, Egdb *db)
{
	threads_wait(t);
	t->egdb = db;
	for (int i = 0; i < t->count - 1; i++)
		search_set_egdb(t->helpers[i], db);
}

void threads_clear(Threads *t)
{
	threads_wait(t);
	for (int i = 0; i < t->count - 1; i++)
		search_clear(t->helpers[i]);
}

static void *run_helper(void *arg)
{
	Helper *h = arg;
	search_run(h->search, h->tt, h->root, &h->limits, &h->control, &h->result);
	return NULL;
}

void threads_search(Threads *t, Search *main, TT *tt, const SearchRoot *root, const SearchLimits *limits,
                    const SearchControl *control, SearchResult *out)
{
	static const SearchControl no_control = {0};
	if (!control)
		control = &no_control;
	threads_wait(t);
	t->running = t->count > 1 ? calloc((size_t)t->count - 1, sizeof *t->running) : NULL;
	if (!t->running) {
		search_run(main, tt, root, limits, control, out);
		return;
	}
	t->running_count = t->count - 1;
	atomic_store(&t->stop, false);
	atomic_store(&t->nodes, 0);
	/* Once, before any thread probes: the generation is read by all. */
	tt_new_search(tt);

	SearchControl main_control = *control;
	main_control.helper = 0;
	main_control.shared_nodes = &t->nodes;
	for (int i = 0; i < t->running_count; i++) {
		Helper *h = &t->running[i];
		h->search = t->helpers[i];
		h->tt = tt;
		h->root = root;
		/* The helpers search without a clock, as deep as the main search
		 * may, until it ends; its node limit counts their nodes too. */
		h->limits = (SearchLimits){.depth = limits->depth};
		h->control = (SearchControl){.stop = &t->stop, .helper = i + 1, .shared_nodes = &t->nodes};
		h->started = pthread_create(&h->id, NULL, run_helper, h) == 0;
	}
	search_run(main, tt, root, limits, &main_control, out);
	atomic_store(&t->stop, true);
}
