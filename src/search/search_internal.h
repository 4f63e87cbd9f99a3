/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to search.c and search_root.c: the search's state and the helpers both use. */
#ifndef POOLSHARK_SEARCH_INTERNAL_H
#define POOLSHARK_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "poolshark/clock.h"
#include "poolshark/nnue.h"
#include "poolshark/search.h"
#include "poolshark/timeman.h"

/* A network score remembered: the position's key and its score. */
typedef struct EvalCacheEntry {
	uint64_t key;
	int32_t score;
} EvalCacheEntry;

enum { EVAL_CACHE_WAYS = 4, EVAL_CACHE_BUCKETS = 1 << 11 /* a power of two */ };

/* The scores of the keys of one bucket, the newest first, in one cache
 * line: a lookup reads one line, as one entry would, and finds more. */
typedef struct EvalCacheBucket {
	_Alignas(64) EvalCacheEntry entry[EVAL_CACHE_WAYS];
} EvalCacheBucket;
_Static_assert(sizeof(EvalCacheBucket) == 64, "a bucket is one cache line");

/* A line of a multi-line search: its first move, exact score and moves. */
typedef struct SearchLine {
	Move move;
	int score;
	int pv_length;
	Move pv[SEARCH_MAX_PLY];
} SearchLine;

/* One ply of the line being searched. */
typedef struct Frame {
	Position pos;
	DrawCounters counters;
	Move killers[2];
} Frame;

/* A frame's address is one shift of its ply (measured: fewer instructions
 * per node than with 56-byte frames). */
_Static_assert(sizeof(Frame) == 64, "a search frame is 64 bytes");

struct Search {
	const EvalWeights *weights;      /* search_set_weights(); NULL: the root variant's own */
	const EvalWeights *eval_weights; /* what this search evaluates with */
	int lmr_divisor;                 /* search_lmr_divisor() of the root's variant */
	const NnueNetwork *network;      /* search_set_network(); NULL: the classic evaluation */
	const NnueNetwork *eval_network; /* network when it is the root variant's, else NULL */
	bool network_alone;              /* search_set_network_alone() */
	/* The network's accumulators of the line: acc[0..acc_ply] are those of
	 * stack[0..acc_ply]; the others are brought up to date from the moves
	 * made (made[ply] led from stack[ply] to stack[ply + 1]) when a node is
	 * evaluated, so that a node that is never evaluated costs nothing. */
	int acc_ply;
	NnueAccumulator acc[SEARCH_MAX_PLY + 1];
	/* The network's scores of positions met before, by key: a hit skips
	 * the accumulators' update and the network. A score depends only on
	 * the position, so the cache changes the speed, never the tree. It
	 * holds scores of cache_network as it was when its checksum was
	 * cache_checksum (NULL: empty), and is emptied when they change. */
	const NnueNetwork *cache_network;
	uint64_t cache_checksum;
	EvalCacheBucket eval_cache[EVAL_CACHE_BUCKETS];
	TT *tt;
	const SearchControl *control;
	SearchLimits limits;
	TimeBudget budget;
	int64_t start_ms;
	int64_t start_cpu_ns; /* the thread's processor time at start_ms (or at the search's start) */
	int64_t lag_ms;       /* the wall time since start_ms the thread did not run, last asked */
	bool pondering;
	bool stopped;
	uint64_t nodes;
	uint64_t nodes_shared; /* how many of them are in control->shared_nodes */
	uint64_t leaf_ply_sum, leaf_count;
	int key_base; /* keys[key_base + ply] is the key at that ply */
	uint64_t keys[GAME_REVERSIBLE_LIMIT + 1 + SEARCH_MAX_PLY + 1];
	Frame stack[SEARCH_MAX_PLY + 1];
	MoveList lists[SEARCH_MAX_PLY + 1];
	int order[SEARCH_MAX_PLY + 1][MOVELIST_CAPACITY];
	int history[2][SQUARE_COUNT][SQUARE_COUNT];
	Move pv[SEARCH_MAX_PLY + 1][SEARCH_MAX_PLY + 1];
	int pv_length[SEARCH_MAX_PLY + 1];
	/* The best root move of the last iteration (ordered first), and of
	 * the current one once a move has a real score. */
	Move root_move;
	bool has_root_move;
	Move iteration_best;
	int iteration_score;
	bool iteration_has_best;
	/* score_all_moves: the root moves scored in this iteration, and in
	 * the last completed one. */
	int root_count, scored_count;
	Move root_moves[MOVELIST_CAPACITY], scored_moves[MOVELIST_CAPACITY];
	int root_scores[MOVELIST_CAPACITY], scored_scores[MOVELIST_CAPACITY];
	/* Endgame databases (NULL: none): probes that found the position, and
	 * at a drawn database root the moves that keep the draw. */
	Egdb *egdb;
	int egdb_max;    /* the most pieces the databases hold */
	int egdb_pieces; /* what this search probes: egdb_max when the root is of the databases' rules, else 0
	                  */
	uint64_t egdb_hits;
	bool egdb_root;
	int root_only_count;
	Move root_only[MOVELIST_CAPACITY];
	/* A multi-line search: the lines of the last completed iteration
	 * (line_count of them, best first) and of the one in progress, and
	 * the root moves the line being searched leaves out (those of the
	 * lines above it). */
	int line_count;
	SearchLine lines[SEARCH_MAX_LINES], next_lines[SEARCH_MAX_LINES];
	int root_skip_count;
	Move root_skip[SEARCH_MAX_LINES];
};

/* Every POLL_NODES nodes the search looks at the stop flag and the clock
 * (about every 30 us at full speed, and often enough when a loaded machine
 * gives it a fraction of a core), every NODE_LIMIT_NODES nodes at the node
 * limit (which thus stops at the same count as ever) and at its processor
 * time. */
enum { POLL_NODES = 256, NODE_LIMIT_NODES = 1024 };
_Static_assert(NODE_LIMIT_NODES % POLL_NODES == 0, "the node limit is looked at on a poll");

/* The nodes of this search, or of all the threads of a shared one. */
static inline uint64_t nodes_searched(Search *s)
{
	atomic_uint_least64_t *shared = s->control->shared_nodes;
	if (!shared)
		return s->nodes;
	atomic_fetch_add(shared, s->nodes - s->nodes_shared);
	s->nodes_shared = s->nodes;
	return atomic_load(shared);
}

/* The time charged to this move so far (timeman_charged()). The processor
 * time costs a system call (0.4 us, where the wall clock costs 0.02 us), so
 * it is only asked for when `ask` (every NODE_LIMIT_NODES nodes) and once
 * the charge could reach `limit_ms`, being at most twice the wall time. */
static inline int64_t charged_ms(Search *s, int64_t limit_ms, bool ask)
{
	int64_t elapsed = clock_now_ms() - s->start_ms;
	if (ask && elapsed * 2 >= limit_ms && s->start_cpu_ns >= 0) {
		int64_t cpu = clock_thread_cpu_ns();
		if (cpu >= 0)
			s->lag_ms = timeman_charged(elapsed, (cpu - s->start_cpu_ns) / 1000000) - elapsed;
	}
	return elapsed + s->lag_ms;
}

/* Whether a game end `plies` away cannot be stopped by the draw counts of
 * *p's rules (game_win_fits(): pool's 25-move rule and thirteen-move
 * count, the counts of Russian and Brazilian), whatever the moves on the
 * way (conservative: resets of the counts are not credited). */
static inline bool beats_draw_rules(const Position *p, const DrawCounters *c, int plies)
{
	return game_win_fits(p, c, plies);
}

/* The node search (search.c): the score of the node at `ply` searched to
 * `depth` within (alpha, beta); ply 0 is the root, whose scored moves it
 * records. */
int search_node(Search *s, int ply, int depth, int alpha, int beta, bool pv_node);

/* The divisor of late move reductions for the rules `v`, in thousandths:
 * a quiet move late in the order loses about ln(depth) ln(index) * 1000 /
 * divisor plies. */
int search_lmr_divisor(Variant v);

#endif
