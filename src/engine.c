/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine facade: game, hash table, options, and one search thread. */
#include "poolshark/engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct Engine {
	EngineOptions options;
	Game *game;
	TT tt;
	Search *search;

	/* The running (or last) background search. Only the controlling
	 * thread starts and joins it; the flags are shared. */
	pthread_t thread;
	bool thread_joinable;
	atomic_bool stop;
	atomic_bool pondering;
	atomic_bool searching;
	SearchLimits limits;
	SearchRoot root;
	EngineInfoCallback info;
	EngineDoneCallback done;
	void *user;
};

void engine_default_options(EngineOptions *out)
{
	out->hash_mb = 64;
	out->move_overhead_ms = 50;
	out->ponder = false;
	out->strength = 100;
}

Engine *engine_create(const EngineOptions *options)
{
	Engine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->options = *options;
	e->game = malloc(sizeof *e->game);
	e->search = search_create();
	if (!e->game || !e->search || !tt_init(&e->tt, options->hash_mb)) {
		free(e->game);
		search_destroy(e->search);
		free(e);
		return NULL;
	}
	Position start;
	position_start(&start);
	game_init(e->game, &start);
	atomic_init(&e->stop, false);
	atomic_init(&e->pondering, false);
	atomic_init(&e->searching, false);
	return e;
}

static void join_finished(Engine *e)
{
	if (e->thread_joinable) {
		pthread_join(e->thread, NULL);
		e->thread_joinable = false;
	}
}

void engine_destroy(Engine *e)
{
	if (!e)
		return;
	engine_stop(e);
	join_finished(e);
	tt_free(&e->tt);
	search_destroy(e->search);
	free(e->game);
	free(e);
}

bool engine_set_options(Engine *e, const EngineOptions *options)
{
	if (engine_is_searching(e))
		return false;
	join_finished(e);
	if (options->hash_mb != e->options.hash_mb && !tt_resize(&e->tt, options->hash_mb))
		return false;
	e->options = *options;
	return true;
}

void engine_get_options(const Engine *e, EngineOptions *out)
{
	*out = e->options;
}

Game *engine_game(Engine *e)
{
	return e->game;
}

bool engine_new_game(Engine *e)
{
	if (engine_is_searching(e))
		return false;
	join_finished(e);
	tt_clear(&e->tt);
	search_clear(e->search);
	return true;
}

/* The limits actually searched: a weaker setting is a shallower search. */
static SearchLimits effective_limits(const Engine *e, const SearchLimits *limits)
{
	SearchLimits l = *limits;
	if (e->options.strength < 100) {
		int cap = 1 + (e->options.strength < 0 ? 0 : e->options.strength) / 8;
		if (l.depth == 0 || l.depth > cap)
			l.depth = cap;
	}
	return l;
}

static void run(Engine *e, EngineInfoCallback info, void *user, SearchResult *out)
{
	SearchControl control = {
		.stop = &e->stop,
		.pondering = &e->pondering,
		.move_overhead_ms = e->options.move_overhead_ms,
		.info = info,
		.user = user,
	};
	search_run(e->search, &e->tt, &e->root, &e->limits, &control, out);
}

static void *search_thread(void *arg)
{
	Engine *e = arg;
	SearchResult result;
	run(e, e->info, e->user, &result);
	atomic_store(&e->searching, false);
	if (e->done)
		e->done(&e->root.position, &result, e->user);
	return NULL;
}

bool engine_start(Engine *e, const SearchLimits *limits, EngineInfoCallback info,
		  EngineDoneCallback done, void *user)
{
	if (engine_is_searching(e))
		return false;
	join_finished(e);
	e->limits = effective_limits(e, limits);
	search_root_from_game(e->game, &e->root);
	e->info = info;
	e->done = done;
	e->user = user;
	atomic_store(&e->stop, false);
	atomic_store(&e->pondering, limits->ponder);
	atomic_store(&e->searching, true);
	if (pthread_create(&e->thread, NULL, search_thread, e) != 0) {
		atomic_store(&e->searching, false);
		return false;
	}
	e->thread_joinable = true;
	return true;
}

void engine_stop(Engine *e)
{
	atomic_store(&e->stop, true);
}

void engine_ponder_hit(Engine *e)
{
	atomic_store(&e->pondering, false);
}

void engine_wait(Engine *e)
{
	join_finished(e);
}

bool engine_is_searching(const Engine *e)
{
	return atomic_load(&((Engine *)e)->searching);
}

void engine_search_sync(Engine *e, const SearchLimits *limits, EngineInfoCallback info,
			void *user, SearchResult *out)
{
	join_finished(e);
	e->limits = effective_limits(e, limits);
	search_root_from_game(e->game, &e->root);
	atomic_store(&e->stop, false);
	atomic_store(&e->pondering, false);
	e->limits.ponder = false;
	run(e, info, user, out);
}
