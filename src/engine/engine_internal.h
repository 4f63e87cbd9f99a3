/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to engine.c and engine_game.c: the Engine's state. */
#ifndef POOLSHARK_ENGINE_INTERNAL_H
#define POOLSHARK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "poolshark/book.h"
#include "poolshark/engine.h"
#include "poolshark/movegen.h"
#include "poolshark/nnue.h"
#include "poolshark/threads.h"

enum { PREPARE_THREADS = 2 /* threads that make a new table resident */ };

struct Engine {
	EngineOptions options;
	Game *game;
	TT tt;
	Threads *threads; /* every search: the main one (threads_main()) and the helpers' (Lazy SMP) */
	Book *book;       /* NULL when off */
	Book *listed;     /* the default book, opened by engine_book_moves() while book is off */
	Egdb *egdb;       /* shared by every search of this engine; NULL: none */
	char egdb_error[256];
	char refusal[320];       /* why engine_set_options() last refused ENGINE_BAD_EGDB or _NETWORK */
	NnueNetwork *network;    /* of options.variant and options.eval_file, whatever options.eval */
	char network_error[320]; /* why engine_create() fell back to the compiled-in network */
	NnueKernel kernel;       /* what every network of this engine runs */
	char kernel_error[256];  /* why POOLSHARK_KERNEL was refused */

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

	/* The thread that makes a new table resident. Started by the
	 * controlling thread; joined by the next search (in its own thread)
	 * or by the controlling thread when no search runs. */
	pthread_t preparer;
	bool preparing;
	atomic_bool prepare_abort;

	uint64_t random; /* generator state for the weaker settings and the book */
	int scored_count;
	Move scored_moves[MOVELIST_CAPACITY];
	int scored_scores[MOVELIST_CAPACITY];
};

/* The engine is idle and its game may change: no search, no preparer
 * (a finished search is joined). False while a search runs. */
bool engine_make_idle(Engine *e);

#endif
