/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine facade: owns the game, the hash table, options and the search thread. */
#ifndef POOLSHARK_ENGINE_H
#define POOLSHARK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/game.h"
#include "poolshark/move.h"
#include "poolshark/position.h"
#include "poolshark/search.h"

/* SearchLimits, SearchInfo and SearchResult live in search.h. */

typedef SearchInfoCallback EngineInfoCallback;
typedef void (*EngineDoneCallback)(const Position *root, const SearchResult *result, void *user);

typedef struct EngineOptions {
	size_t hash_mb;       /* transposition table size, MiB */
	int move_overhead_ms; /* kept back from every clock budget */
	bool ponder;          /* whether the GUI may ask for pondering */
	int strength;         /* 0..100; 100 = full strength, below: weaker and varied (doc/PROTOCOL.md) */
} EngineOptions;

typedef struct Engine Engine;

/* Default options: hash 64 MiB, move overhead 50 ms, ponder off, strength 100. */
void engine_default_options(EngineOptions *out);

/* A new engine at the start position; NULL when memory is short. */
Engine *engine_create(const EngineOptions *options);

/* Stops any search, joins the thread, frees everything. */
void engine_destroy(Engine *e);

/* Applies options (resizes the table when hash_mb changed). Not during a
 * search: returns false then. */
bool engine_set_options(Engine *e, const EngineOptions *options);
void engine_get_options(const Engine *e, EngineOptions *out);

/* The game the engine plays; not to be changed while a search runs. */
Game *engine_game(Engine *e);

/* Clears the hash table and search history (new game). False while searching. */
bool engine_new_game(Engine *e);

/*
 * Starts a search of the current game position in a background thread and
 * returns at once (false when a search already runs). The position and its
 * history are copied here, so the game may change once this returns.
 * `info` (may be NULL) is called after each iteration, `done` (may be NULL)
 * exactly once at the end, both from the search thread. The engine stops
 * counting as searching just before `done` is called, so the callback may
 * wake the controlling thread to start the next search; engine_start()
 * first joins the thread of a finished search (so never call it from a
 * callback, nor while holding a lock a callback takes). With limits->ponder
 * or limits->infinite the search does not end on its own before
 * engine_stop() (or, pondering, engine_ponder_hit() when it is complete).
 */
bool engine_start(Engine *e, const SearchLimits *limits, EngineInfoCallback info, EngineDoneCallback done,
                  void *user);

/* Asks the running search to stop; returns at once. Safe from any thread. */
void engine_stop(Engine *e);

/* Pondering turned into a real search: the clock starts now. */
void engine_ponder_hit(Engine *e);

/* Waits for the running search (if any) to finish. */
void engine_wait(Engine *e);

bool engine_is_searching(const Engine *e);

/*
 * Seeds the generator that a strength below 100 uses to vary its moves
 * (engine_create() seeds it from the clock). The same seed, options, game
 * and limits without a clock give the same moves. Not during a search.
 */
void engine_seed(Engine *e, uint64_t seed);

/* Searches the current game position synchronously in the calling thread
 * (bench, analyse, tests); no search may be running. */
void engine_search_sync(Engine *e, const SearchLimits *limits, EngineInfoCallback info, void *user,
                        SearchResult *out);

#endif
