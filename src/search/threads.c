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
	Search **searches;          /* count of them: the main search, then the helpers' */
	Egdb *egdb;                 /* what every search probes */
	const NnueNetwork *network; /* what every search evaluates with; NULL: the classic evaluation */
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
	t->searches = calloc(1, sizeof *t->searches);
	if (!t->searches || !(t->searches[0] = search_create())) {
		free(t->searches);
		free(t);
		return NULL;
	}
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
	for (int i = 0; i < t->count; i++)
		search_destroy(t->searches[i]);
	free(t->searches);
	free(t);
}

bool threads_set_count(Threads *t, int count)
{
	if (count < 1 || count > threads_max())
		return false;
	if (count == t->count)
		return true;
	threads_wait(t);
	Search **searches = calloc((size_t)count, sizeof *searches);
	if (!searches)
		return false;
	/* Keep the searches there are, make the missing ones. */
	for (int i = 0; i < count; i++) {
		searches[i] = i < t->count ? t->searches[i] : search_create();
		if (!searches[i]) {
			for (int j = t->count; j < i; j++)
				search_destroy(searches[j]);
			free(searches);
			return false;
		}
		search_set_egdb(searches[i], t->egdb);
		search_set_network(searches[i], t->network);
	}
	for (int i = count; i < t->count; i++)
		search_destroy(t->searches[i]);
	free(t->searches);
	t->searches = searches;
	t->count = count;
	return true;
}

int threads_count(const Threads *t)
{
	return t->count;
}

Search *threads_main(const Threads *t)
{
	return t->searches[0];
}

void threads_set_egdb(Threads *t, Egdb *db)
{
	threads_wait(t);
	t->egdb = db;
	for (int i = 0; i < t->count; i++)
		search_set_egdb(t->searches[i], db);
}

void threads_set_network(Threads *t, const NnueNetwork *net)
{
	threads_wait(t);
	t->network = net;
	for (int i = 0; i < t->count; i++)
		search_set_network(t->searches[i], net);
}

void threads_clear(Threads *t)
{
	threads_wait(t);
	for (int i = 0; i < t->count; i++)
		search_clear(t->searches[i]);
}

static void *run_helper(void *arg)
{
	Helper *h = arg;
	search_run(h->search, h->tt, h->root, &h->limits, &h->control, &h->result);
	return NULL;
}

void threads_search(Threads *t, TT *tt, const SearchRoot *root, const SearchLimits *limits,
                    const SearchControl *control, SearchResult *out)
{
	static const SearchControl no_control = {0};
	if (!control)
		control = &no_control;
	threads_wait(t);
	Search *main = t->searches[0];
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
		h->search = t->searches[i + 1];
		h->tt = tt;
		h->root = root;
		/* The helpers search without a clock, as deep as the main search
		 * may, until it ends; its node limit counts their nodes too. */
		h->limits = (SearchLimits){.depth = limits->depth};
		h->control = (SearchControl){.stop = &t->stop,
		                             .contempt = control->contempt,
		                             .helper = i + 1,
		                             .shared_nodes = &t->nodes};
		h->started = pthread_create(&h->id, NULL, run_helper, h) == 0;
	}
	search_run(main, tt, root, limits, &main_control, out);
	atomic_store(&t->stop, true);
}
