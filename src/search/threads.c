/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Lazy SMP: the helpers of one search, started with it and joined when it ends. */
#include "poolshark/threads.h"

#include "poolshark/clock.h"

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
	/* A search to a depth ends when any thread completes it: the depth
	 * (0: no depth asked), the flag that tells the main search so, and
	 * the iteration this helper completed at that depth (`final`, whole
	 * once has_final is set). */
	int final_depth;
	atomic_bool *depth_done;
	SearchInfo final;
	atomic_bool has_final;
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
	atomic_bool depth_done;
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
	atomic_init(&t->depth_done, false);
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

/* A helper's info callback: when the iteration is of the depth asked
 * for, keeps it and ends the search. */
static void helper_completed(const SearchInfo *info, void *user)
{
	Helper *h = user;
	if (info->depth < h->final_depth || atomic_load(&h->has_final))
		return;
	h->final = *info;
	atomic_store(&h->has_final, true);
	atomic_store(h->depth_done, true);
}

/* Whether the search ends when any thread completes its depth: a search
 * to a depth of every root move for one line (not an analysis or a
 * ponder, which end when told). */
static bool ends_at_any_depth(const SearchLimits *limits)
{
	return limits->depth > 0 && !limits->root_move_count && limits->multipv <= 1 &&
	       !limits->score_all_moves && !limits->infinite && !limits->ponder;
}

/* When the main search did not complete the depth asked for and a helper
 * did, its iteration is the result, reported as the main search's are. */
static void take_helpers_depth(Threads *t, const SearchLimits *limits, const SearchControl *control,
                               SearchResult *out)
{
	if (out->depth >= limits->depth || out->egdb_root || move_is_none(out->best))
		return;
	for (int i = 0; i < t->running_count; i++) {
		Helper *h = &t->running[i];
		if (!atomic_load(&h->has_final))
			continue;
		SearchInfo info = h->final;
		info.nodes = atomic_load(&t->nodes);
		out->best = info.pv[0];
		out->ponder = info.pv_length > 1 ? info.pv[1] : move_none();
		out->score = info.score;
		out->depth = info.depth;
		out->nodes = info.nodes;
		if (control->info)
			control->info(&info, control->user);
		return;
	}
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
	atomic_store(&t->depth_done, false);
	atomic_store(&t->nodes, 0);
	bool any_depth = ends_at_any_depth(limits);
	/* Once, before any thread probes: the generation is read by all. */
	tt_new_search(tt);

	/* Every thread's clock (and info's time) starts at the same instant. */
	SearchLimits main_limits = *limits;
	if (main_limits.clock_start_ms <= 0 && !main_limits.ponder)
		main_limits.clock_start_ms = clock_now_ms();
	SearchControl main_control = *control;
	main_control.helper = 0;
	main_control.shared_nodes = &t->nodes;
	main_control.depth_done = any_depth ? &t->depth_done : NULL;
	for (int i = 0; i < t->running_count; i++) {
		Helper *h = &t->running[i];
		h->search = t->searches[i + 1];
		h->tt = tt;
		h->root = root;
		/* The helpers search without a clock, as deep as the main search
		 * may, until it ends; its node limit counts their nodes too. */
		h->limits =
		    (SearchLimits){.depth = limits->depth, .clock_start_ms = main_limits.clock_start_ms};
		h->control = (SearchControl){.stop = &t->stop,
		                             .contempt = control->contempt,
		                             .info = any_depth ? helper_completed : NULL,
		                             .user = h,
		                             .helper = i + 1,
		                             .shared_nodes = &t->nodes};
		h->final_depth = limits->depth;
		h->depth_done = &t->depth_done;
		atomic_init(&h->has_final, false);
		h->started = pthread_create(&h->id, NULL, run_helper, h) == 0;
	}
	search_run(main, tt, root, &main_limits, &main_control, out);
	atomic_store(&t->stop, true);
	if (any_depth)
		take_helpers_depth(t, limits, control, out);
}
