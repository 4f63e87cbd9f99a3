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

/* Limits of one search; zero fields are "no limit". Times in milliseconds. */
typedef struct SearchLimits {
	int depth;		/* plies; 0 = none */
	uint64_t nodes;		/* 0 = none */
	int64_t move_time_ms;	/* fixed time for this move; 0 = none */
	int64_t time_left_ms;	/* game clock of the side to move; 0 = no clock */
	int64_t increment_ms;	/* added after each move */
	int moves_to_go;	/* moves until the next time control; 0 = rest of game */
	bool infinite;		/* search until stopped (also: go analyze) */
	bool ponder;		/* pondering: the clock starts at engine_ponder_hit() */
} SearchLimits;

/* Progress of a running search, passed to the info callback. */
typedef struct SearchInfo {
	int depth;		/* completed iteration */
	double mean_depth;	/* average leaf depth of that iteration */
	int score;		/* hundredths of a man, side to move's view */
	bool mate;		/* score is a forced game end */
	int mate_plies;		/* when mate: plies to the end (sign as score) */
	uint64_t nodes;
	int64_t time_ms;
	int pv_length;
	Move pv[128];
} SearchInfo;

/* The outcome of a search: best move (move_none() when there is no legal
 * move) and the expected reply (move_none() when unknown). */
typedef struct SearchResult {
	Move best;
	Move ponder;
	int score;
	int depth;
	uint64_t nodes;
} SearchResult;

typedef void (*EngineInfoCallback)(const SearchInfo *info, void *user);
typedef void (*EngineDoneCallback)(const Position *root, const SearchResult *result, void *user);

typedef struct EngineOptions {
	size_t hash_mb;		/* transposition table size, MiB */
	int move_overhead_ms;	/* kept back from every clock budget */
	bool ponder;		/* whether the GUI may ask for pondering */
	int strength;		/* 0..100; 100 = full strength */
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
 * returns at once (false when a search already runs). `info` is called after
 * each iteration, `done` exactly once at the end, both from the search thread.
 */
bool engine_start(Engine *e, const SearchLimits *limits, EngineInfoCallback info,
		  EngineDoneCallback done, void *user);

/* Asks the running search to stop; returns at once. */
void engine_stop(Engine *e);

/* Pondering turned into a real search: the clock starts now. */
void engine_ponder_hit(Engine *e);

/* Waits for the running search (if any) to finish. */
void engine_wait(Engine *e);

bool engine_is_searching(const Engine *e);

/* Searches synchronously in the calling thread (bench, analyse, tests). */
void engine_search_sync(Engine *e, const SearchLimits *limits, EngineInfoCallback info,
			void *user, SearchResult *out);

#endif
