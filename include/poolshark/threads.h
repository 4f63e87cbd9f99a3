/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Lazy SMP: helper threads search the same root as the main search and share its table. */
#ifndef POOLSHARK_THREADS_H
#define POOLSHARK_THREADS_H

#include <stdbool.h>

#include "poolshark/egdb.h"
#include "poolshark/search.h"
#include "poolshark/tt.h"

/* Every search state of an engine: the main search's (slot 0) and the
 * helpers'. Opaque. */
typedef struct Threads Threads;

/* The most threads a search may use: four per core the system reports
 * online (at least 4); 1 in the browser build (POOLSHARK_SINGLE_THREAD). */
int threads_max(void);

/* One thread, the main search (no helper); NULL when memory is short. */
Threads *threads_create(void);
void threads_destroy(Threads *t);

/* Searches with `count` threads from now on (1..threads_max(), the main
 * search included). False, with the old count kept, when memory is short
 * or count is out of range. Waits for helpers still running first. */
bool threads_set_count(Threads *t, int count);
int threads_count(const Threads *t);

/* The main search (slot 0), owned by t: what threads_search() runs in the
 * calling thread, and what a single-threaded search_run() may use. */
Search *threads_main(const Threads *t);

/* Every search probes the endgame databases *db (NULL: none) from now on,
 * as search_set_egdb(); db must outlive the searches. */
void threads_set_egdb(Threads *t, Egdb *db);

/* Every search evaluates with *net from now on, as search_set_network();
 * net must outlive the searches. */
void threads_set_network(Threads *t, const NnueNetwork *net);

/* Forgets every search's killers and history (new game); waits for helpers
 * still running first. */
void threads_clear(Threads *t);

/*
 * search_run() of the main search in the calling thread, with threads_count() - 1
 * helpers in their own threads on the same root and table. The result is
 * the main search's (out->nodes counts every thread's nodes so far), but
 * a search to a depth (of every root move, one line, not infinite nor a
 * ponder) ends when any thread completes that depth, and that thread's
 * iteration is the result and the last call of control->info. When
 * the main search ends the helpers are told to stop, and this returns at
 * once, so that the move can be sent without waiting for a helper the
 * system has not scheduled yet; they stop at their next poll (every 256
 * nodes). Call threads_wait() before the table, the root or *t is used
 * again. With one thread this is exactly search_run() (bench stays
 * deterministic).
 */
void threads_search(Threads *t, TT *tt, const SearchRoot *root, const SearchLimits *limits,
                    const SearchControl *control, SearchResult *out);

/* Joins the helpers of the last threads_search() (nothing when none run). */
void threads_wait(Threads *t);

#endif
