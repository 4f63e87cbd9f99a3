/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Alpha-beta search: iterative deepening, PVS, quiescence over forced captures. */
#ifndef POOLSHARK_SEARCH_H
#define POOLSHARK_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "poolshark/egdb.h"
#include "poolshark/eval.h"
#include "poolshark/game.h"
#include "poolshark/move.h"
#include "poolshark/nnue.h"
#include "poolshark/position.h"
#include "poolshark/score.h"
#include "poolshark/timeman.h"
#include "poolshark/tt.h"

_Static_assert((int)EVAL_LIMIT < (int)SCORE_WIN_MIN, "evaluations never look like a won game");

/* The most lines a multi-line search (SearchLimits.multipv) reports. */
enum { SEARCH_MAX_LINES = 10 };

/* Progress of a running search, passed to the info callback. */
typedef struct SearchInfo {
	int depth;         /* completed iteration */
	double mean_depth; /* average leaf depth of that iteration */
	int score;         /* hundredths of a man, side to move's view */
	bool mate;         /* score is a forced game end */
	int mate_plies;    /* when mate: plies to the end (sign as score) */
	uint64_t nodes;
	int64_t time_ms;
	int pv_length;
	Move pv[SEARCH_MAX_PLY];
	uint64_t egdb_hits; /* endgame database probes that found the position */
	bool egdb_root;     /* the score is the database's value of the root */
	/* A multi-line search: which line this is, 1 the best (lines come
	 * best first after each iteration); 0 for a search of one line. */
	int line;
} SearchInfo;

/* The outcome of a search: best move (move_none() when there is no legal
 * move) and the expected reply (move_none() when unknown). */
typedef struct SearchResult {
	Move best;
	Move ponder;
	int score;
	int depth;
	uint64_t nodes;
	uint64_t egdb_hits;
	bool egdb_root; /* the move and score come from the endgame database */
	bool book;      /* played from the opening book (engine.h), not searched */
} SearchResult;

typedef void (*SearchInfoCallback)(const SearchInfo *info, void *user);

/*
 * Where a search starts: the position, its draw counters, and the keys of
 * the earlier positions of the game that a line could still repeat (those
 * since the last man move or capture), oldest first.
 */
typedef struct SearchRoot {
	Position position;
	DrawCounters counters;
	int history_count;
	uint64_t history[GAME_REVERSIBLE_LIMIT + 1];
} SearchRoot;

/* A root with no history (a FEN, a test position). */
void search_root_from_position(const Position *p, SearchRoot *out);

/* The current position of *g with its counters and repeatable history. */
void search_root_from_game(const Game *g, SearchRoot *out);

/*
 * How a running search is steered from outside. `stop` (may be NULL) is
 * polled every 256 nodes and ends the search within a millisecond;
 * while `*pondering` (may be NULL) is true the clock does not run, and it
 * starts when another thread sets it false (ponder hit).
 */
typedef struct SearchControl {
	atomic_bool *stop;
	atomic_bool *pondering;
	int move_overhead_ms;
	/* Hundredths of a man: a draw by rule or by repetition below the root
	 * scores this much below level for the side to move at the root (and
	 * as much above for the other side). 0: a draw is level. */
	int contempt;
	SearchInfoCallback info; /* after each completed iteration; may be NULL */
	void *user;
	/* Lazy SMP (threads.h): one of several searches of the same root that
	 * share the table. 0 and NULL for a lone search. Helper k > 0 skews
	 * its iterations so that the threads spread over depths; the
	 * searches add their nodes to `shared_nodes` every 1024 nodes and when
	 * they end (info, the node limit and the result count every thread's),
	 * and the caller has already marked the table's new search. */
	int helper;
	atomic_uint_least64_t *shared_nodes;
	/* Lazy SMP: set (may be NULL) when another thread of the search has
	 * completed the depth asked for; the search then stops as at `stop`. */
	atomic_bool *depth_done;
} SearchControl;

/* The search state: killers, history, the line being searched. Opaque. */
typedef struct Search Search;

/* NULL when memory is short. Evaluates with the weights of the root
 * position's variant (eval_weights_for()) until told otherwise. */
Search *search_create(void);
void search_destroy(Search *s);

/* Forgets killers and history (new game, bench positions). */
void search_clear(Search *s);

/* Evaluates with *w from now on, whatever the variant; w must outlive the
 * searches. NULL goes back to eval_weights_for() the root's variant. */
void search_set_weights(Search *s, const EvalWeights *w);

/* Evaluates with the network *net from now on when the root is of net's
 * rule set (the classic evaluation otherwise); NULL: the classic
 * evaluation always. net must outlive the searches. The search remembers
 * the network's scores; a network changed in place between searches must
 * have another checksum, or be set again here. */
void search_set_network(Search *s, const NnueNetwork *net);

/* alone: the network scores every position, pool's kings endings too
 * (for tests and comparisons); false (the default): those endings are
 * scored by eval_kings_ending(), which knows their draws and the plan of
 * three kings against one (doc/EVAL.md, "Kings endings"). */
void search_set_network_alone(Search *s, bool alone);

/*
 * Probes the endgame databases *db (NULL: none) from now on; db must
 * outlive the searches. Inside the tree a database value is exact (a draw,
 * or a win or loss the draw counters cannot stop); at the root a position
 * in the databases is played by distance: the fastest win, the longest
 * defence, or (left to the search) a move that keeps the draw.
 */
void search_set_egdb(Search *s, Egdb *db);

/*
 * Searches root->position within *limits, using and filling *tt, and writes
 * the outcome to *out. Always returns a legal move when there is one (even
 * when stopped at once), and move_none() when there is none. The clock
 * (wall time from limits->clock_start_ms) never stops the first iteration,
 * so that even an overdrawn clock gets a searched move, at once; `stop`
 * does. Deterministic for a given table content, history and limits
 * without a clock. With limits->multipv above 1 each iteration searches
 * that many lines (fewer when there are fewer legal moves), each with the
 * first moves of the lines above it left out of the root and in a window
 * of its own, so that every line's score is exact; the info callback then
 * gets each line of each completed iteration, best first (SearchInfo.line),
 * and *out is the first line's. A database root is then searched too.
 */
void search_run(Search *s, TT *tt, const SearchRoot *root, const SearchLimits *limits,
                const SearchControl *control, SearchResult *out);

/*
 * After a search_run() with limits->score_all_moves: the root moves and
 * their scores (side to move's view) from the last completed iteration,
 * in the order searched. Writes at most `max` and returns how many were
 * written; 0 when no iteration completed or the mode was off.
 */
int search_root_scores(const Search *s, Move *moves, int *scores, int max);

#endif
