/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The node search: PVS with a transposition table, move ordering and capture
 * quiescence (the root's iterative deepening is in search_root.c). */
#include "poolshark/search.h"

#include <stdlib.h>
#include <string.h>

#include "poolshark/aligned.h"
#include "poolshark/movegen.h"
#include "search_internal.h"

/* Search margins; integers only, so that node counts never depend on the
 * compiler's floating point. */
static const int RFP_DEPTH = 6;   /* reverse futility up to this depth */
static const int RFP_MARGIN = 90; /* per ply of depth */
static const int LMR_MIN_DEPTH = 3;
static const int IIR_DEPTH = 4;     /* internal iterative reduction from this depth */
static const int LMR_MIN_MOVES = 2; /* moves searched in full before reducing */
static const int THREAT_PLIES = 1;  /* quiet plies quiescence may add under threat */
static const int HISTORY_MAX = 16384;
/* Stored in the table when the node did not need its static value. */
static const int EVAL_UNKNOWN = -32768;

enum { ORDER_TT = 1 << 30, ORDER_CROWN = 1 << 22, ORDER_KILLER_1 = 1 << 21, ORDER_KILLER_2 = (1 << 21) - 1 };

Search *search_create(void)
{
	/* Aligned for the accumulators' 32-byte vector loads. */
	return aligned_zalloc(sizeof(Search));
}

void search_destroy(Search *s)
{
	aligned_free(s);
}

void search_clear(Search *s)
{
	memset(s->history, 0, sizeof s->history);
	for (int i = 0; i <= SEARCH_MAX_PLY; i++)
		s->stack[i].killers[0] = s->stack[i].killers[1] = move_none();
}

void search_set_weights(Search *s, const EvalWeights *w)
{
	s->weights = w;
}

void search_set_network(Search *s, const NnueNetwork *net)
{
	s->network = net;
	s->cache_network = NULL; /* another network, or the same one changed */
}

void search_set_network_alone(Search *s, bool alone)
{
	s->network_alone = alone; /* the cache holds the network's scores only: still good */
}

void search_set_egdb(Search *s, Egdb *db)
{
	s->egdb = db;
	s->egdb_max = db ? egdb_max_pieces(db) : 0;
}

void search_root_from_position(const Position *p, SearchRoot *out)
{
	out->position = *p;
	game_counters_start(p, &out->counters);
	out->history_count = 0;
}

void search_root_from_game(const Game *g, SearchRoot *out)
{
	out->position = *game_position(g);
	out->counters = *game_counters(g);
	int back = out->counters.reversible_plies;
	if (back > g->ply_count)
		back = g->ply_count;
	if (back > GAME_REVERSIBLE_LIMIT)
		back = GAME_REVERSIBLE_LIMIT;
	out->history_count = back;
	for (int i = 0; i < back; i++)
		out->history[i] = g->positions[g->ply_count - back + i].key;
}

int search_root_scores(const Search *s, Move *moves, int *scores, int max)
{
	int n = s->scored_count < max ? s->scored_count : max;
	for (int i = 0; i < n; i++) {
		moves[i] = s->scored_moves[i];
		scores[i] = s->scored_scores[i];
	}
	return n;
}

static void poll(Search *s)
{
	const SearchControl *c = s->control;
	if ((c->stop && atomic_load(c->stop)) || (c->depth_done && atomic_load(c->depth_done)))
		s->stopped = true;
	if (s->pondering && !atomic_load(c->pondering)) {
		/* Ponder hit: the clock of this move starts now. */
		s->pondering = false;
		s->start_ms = clock_now_ms();
		s->start_cpu_ns = clock_thread_cpu_ns();
		s->lag_ms = 0;
	}
	/* The hard limit is on wall time since the order to move, plus the
	 * time the machine took of it (charged_ms()); it waits for the first
	 * iteration, so that there is always a searched move to play (depth 1
	 * takes microseconds). */
	if (!s->pondering && s->budget.limited && s->has_root_move &&
	    charged_ms(s, s->budget.hard_ms, s->nodes % NODE_LIMIT_NODES == 0) >= s->budget.hard_ms)
		s->stopped = true;
	/* A thread of a shared search adds its nodes to the shared count here
	 * too, so that the count (info, the node limit, the result) holds every
	 * thread's nodes but the last NODE_LIMIT_NODES of each. */
	if (s->nodes % NODE_LIMIT_NODES == 0 && (s->limits.nodes || c->shared_nodes)) {
		uint64_t nodes = nodes_searched(s);
		if (s->limits.nodes && nodes >= s->limits.nodes)
			s->stopped = true;
	}
}

static inline void count_node(Search *s)
{
	if ((++s->nodes & (POLL_NODES - 1)) == 0)
		poll(s);
}

/*
 * Draws by rule (RULES.md 3, doc/VARIANTS.md) at a node below the root: the
 * 25-move rule and the thirteen-move count or the variant's counts (as
 * game.c keeps them, a side without moves still loses first), and any
 * repetition of an earlier position of the line or of the game, which the
 * side that could avoid it has chosen.
 */
static inline bool repeats(const Search *s, int ply, const Frame *f)
{
	int at = s->key_base + ply;
	int back = f->counters.reversible_plies < at ? f->counters.reversible_plies : at;
	/* The same side to move needs an even distance, and no position comes
	 * back after two plies: both sides would have to undo their move. */
	for (int i = 4; i <= back; i += 2)
		if (s->keys[at - i] == f->pos.key)
			return true;
	return false;
}

/*
 * The endgame database's score of the node at ply: a draw, or a win or
 * loss that no draw rule can stop, is exact; a win that a rule might stop
 * gets SCORE_EGDB_LIKELY_WIN (still less than the distance). False when the
 * position is not in the databases.
 */
static bool egdb_score(Search *s, int ply, int *score)
{
	const Frame *f = &s->stack[ply];
	uint8_t v;
	if (bb_count(position_occupied(&f->pos)) > s->egdb_pieces || !egdb_probe(s->egdb, &f->pos, &v))
		return false;
	s->egdb_hits++;
	EgdbResult r = egdb_value_result(v);
	int d = egdb_value_distance(v);
	if (r == EGDB_DRAW)
		*score = SCORE_DRAW;
	else if (beats_draw_rules(&f->pos, &f->counters, d))
		*score = r == EGDB_WIN ? SCORE_WIN - ply - d : -SCORE_WIN + ply + d;
	else
		*score = r == EGDB_WIN ? SCORE_EGDB_LIKELY_WIN - d : -SCORE_EGDB_LIKELY_WIN + d;
	return true;
}

/* The score of a draw at ply: the root's side to move moves at even plies. */
static inline int draw_score(const Search *s, int ply)
{
	return ply % 2 == 0 ? -s->control->contempt : s->control->contempt;
}

static bool is_draw(const Search *s, int ply)
{
	const Frame *f = &s->stack[ply];
	/* Russian and Brazilian counters raise `thirteen` when one of their
	 * counted draws is due (game.h), so this test is every variant's. */
	if (f->counters.reversible_plies >= GAME_REVERSIBLE_LIMIT ||
	    f->counters.thirteen >= GAME_THIRTEEN_LIMIT)
		return movegen_has_moves(&f->pos);
	return repeats(s, ply, f);
}

/* Plays m at ply into the next frame and starts fetching the child's
 * table bucket (measured: worth it even for quiescence children). */
static __attribute__((noinline)) void make_move_variant(Search *s, int ply, Move m)
{
	Frame *f = &s->stack[ply], *next = &s->stack[ply + 1];
	position_make(&f->pos, m, &next->pos);
	tt_prefetch(s->tt, next->pos.key);
	game_variant_counters_after(&f->pos, m, &next->pos, &f->counters, &next->counters);
	s->keys[s->key_base + ply + 1] = next->pos.key;
}

static void make_move(Search *s, int ply, Move m)
{
	Frame *f = &s->stack[ply], *next = &s->stack[ply + 1];
	if (s->acc_ply > ply)
		s->acc_ply = ply;
	if (f->pos.variant != VARIANT_POOL) {
		make_move_variant(s, ply, m);
		return;
	}
	/* Every frame holds the root's variant from the start of the search. */
	position_make_pool(&f->pos, m, &next->pos, true);
	tt_prefetch(s->tt, next->pos.key);
	game_counters_after_pool(&f->pos, m, &next->pos, &f->counters, &next->counters);
	s->keys[s->key_base + ply + 1] = next->pos.key;
}

static void update_pv(Search *s, int ply, Move m)
{
	s->pv[ply][ply] = m;
	int len = s->pv_length[ply + 1];
	for (int i = ply + 1; i < len; i++)
		s->pv[ply][i] = s->pv[ply + 1][i];
	s->pv_length[ply] = len > ply + 1 ? len : ply + 1;
}

/* The network's score of the node at ply, its accumulator brought up to
 * date along the line first. */
static __attribute__((noinline)) int evaluate_network(Search *s, int ply)
{
	const NnueNetwork *net = s->eval_network;
	uint64_t key = s->stack[ply].pos.key;
	EvalCacheBucket *b = &s->eval_cache[key & (EVAL_CACHE_BUCKETS - 1)];
	for (int i = 0; i < EVAL_CACHE_WAYS; i++)
		if (b->entry[i].key == key)
			return b->entry[i].score;
	for (int k = s->acc_ply; k < ply; k++)
		nnue_update_between(net, &s->stack[k].pos, &s->stack[k + 1].pos, &s->acc[k], &s->acc[k + 1]);
	s->acc_ply = ply;
	int score = nnue_evaluate(net, &s->acc[ply], (Color)s->stack[ply].pos.side);
	score = score >= EVAL_LIMIT ? EVAL_LIMIT - 1 : score <= -EVAL_LIMIT ? -EVAL_LIMIT + 1 : score;
	/* The newest first; the oldest leaves. */
	memmove(&b->entry[1], &b->entry[0], (EVAL_CACHE_WAYS - 1) * sizeof b->entry[0]);
	b->entry[0].key = key;
	b->entry[0].score = score;
	return score;
}

static int evaluate(Search *s, int ply)
{
	if (s->eval_network) {
		const Position *p = &s->stack[ply].pos;
		if (!s->network_alone && bb_count(position_occupied(p)) <= 5 && eval_is_kings_ending(p))
			return eval_kings_ending(p, s->eval_weights);
		return evaluate_network(s, ply);
	}
	return eval_evaluate(&s->stack[ply].pos, s->eval_weights);
}

/* Brings the best-ordered remaining move to index i. */
static Move pick_move(MoveList *list, int *order, int i)
{
	int best = i, best_order = order[i];
	for (int j = i + 1; j < list->count; j++) {
		/* Written to become conditional moves: the branch is a coin toss. */
		bool better = order[j] > best_order;
		best = better ? j : best;
		best_order = better ? order[j] : best_order;
	}
	if (best != i) {
		Move m = list->moves[i];
		list->moves[i] = list->moves[best];
		list->moves[best] = m;
		int o = order[i];
		order[i] = order[best];
		order[best] = o;
	}
	return list->moves[i];
}

static bool is_crowning(const Position *p, Move m)
{
	return !(p->kings & bb_square(m.from)) && (bb_square(m.to) & position_crown_row(p->side));
}

/* Captures: the most (and the heaviest) pieces first. */
static void order_captures(const Position *p, const MoveList *list, int *order, Move tt_move)
{
	for (int i = 0; i < list->count; i++) {
		Move m = list->moves[i];
		if (move_equal(m, tt_move))
			order[i] = ORDER_TT;
		else
			order[i] = 16 * bb_count(m.captured) + 8 * bb_count(m.captured & p->kings) +
			           (is_crowning(p, m) ? 4 : 0);
	}
}

static void order_moves(const Search *s, int ply, const MoveList *list, int *order, Move tt_move)
{
	const Position *p = &s->stack[ply].pos;
	if (list->count && move_is_capture(list->moves[0])) {
		order_captures(p, list, order, tt_move);
		return;
	}
	const Frame *f = &s->stack[ply];
	for (int i = 0; i < list->count; i++) {
		Move m = list->moves[i];
		if (move_equal(m, tt_move))
			order[i] = ORDER_TT;
		else if (is_crowning(p, m))
			order[i] = ORDER_CROWN;
		else if (move_equal(m, f->killers[0]))
			order[i] = ORDER_KILLER_1;
		else if (move_equal(m, f->killers[1]))
			order[i] = ORDER_KILLER_2;
		else
			order[i] = s->history[p->side][m.from][m.to];
	}
}

static void history_add(Search *s, Color side, Move m, int bonus)
{
	int *h = &s->history[side][m.from][m.to];
	/* Gravity keeps the value inside +-HISTORY_MAX without rescaling. */
	*h += bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX;
}

/* The opponent would have a capture if it were to move now. */
static bool threatened(const Position *p)
{
	Position flipped = *p;
	flipped.side = color_other(p->side);
	return movegen_has_capture(&flipped);
}

/*
 * Quiescence. Captures are compulsory, so when the side to move has one
 * every capture is searched and there is no standing pat; otherwise the
 * static value stands, unless the opponent threatens a capture (which it
 * would then be forced to make) and `threat` plies remain: then the quiet
 * moves are searched once more.
 */
static int quiesce(Search *s, int ply, int alpha, int beta, int threat)
{
	const Position *pos = &s->stack[ply].pos;
	s->pv_length[ply] = ply;
	count_node(s);
	if (s->stopped)
		return 0;
	if (ply > 0 && is_draw(s, ply))
		return draw_score(s, ply);
	int known;
	if (s->egdb && ply > 0 && egdb_score(s, ply, &known))
		return known;
	if (ply >= SEARCH_MAX_PLY - 1)
		return evaluate(s, ply);

	MoveList *list = &s->lists[ply];
	int *order = s->order[ply];
	int best = -SCORE_INFINITE;
	if (!movegen_has_capture(pos)) {
		if (!movegen_has_quiet(pos))
			return -SCORE_WIN + ply;
		best = evaluate(s, ply);
		if (best >= beta || threat <= 0 || !threatened(pos))
			return best;
		/* Under threat the static value is a guess, not a bound. */
		movegen_generate(pos, list);
		order_moves(s, ply, list, order, move_none());
		best = -SCORE_INFINITE;
		threat--;
	} else {
		movegen_captures(pos, list);
		order_captures(pos, list, order, move_none());
	}

	for (int i = 0; i < list->count; i++) {
		Move m = pick_move(list, order, i);
		make_move(s, ply, m);
		int score = -quiesce(s, ply + 1, -beta, -alpha, threat);
		if (s->stopped)
			return 0;
		if (score > best) {
			best = score;
			if (score > alpha) {
				alpha = score;
				update_pv(s, ply, m);
				if (alpha >= beta)
					break;
			}
		}
	}
	return best;
}

/* At a drawn database root: only the moves that keep the draw. */
static void keep_root_only(const Search *s, MoveList *list)
{
	int kept = 0;
	for (int i = 0; i < list->count; i++)
		for (int j = 0; j < s->root_only_count; j++)
			if (move_equal(list->moves[i], s->root_only[j])) {
				list->moves[kept++] = list->moves[i];
				break;
			}
	list->count = kept;
}

/* Whether `m` is among moves[0..count). */
static bool move_listed(Move m, const Move *moves, int count)
{
	for (int j = 0; j < count; j++)
		if (move_equal(m, moves[j]))
			return true;
	return false;
}

/* The root moves asked for (limits.root_moves), and in a line of a
 * multi-line search not those of the lines above it. */
static void restrict_root_moves(const Search *s, MoveList *list)
{
	int kept = 0;
	for (int i = 0; i < list->count; i++) {
		Move m = list->moves[i];
		if ((!s->limits.root_move_count ||
		     move_listed(m, s->limits.root_moves, s->limits.root_move_count)) &&
		    !move_listed(m, s->root_skip, s->root_skip_count))
			list->moves[kept++] = m;
	}
	list->count = kept;
}

/* 1000 ln(n) for n < 64: reductions in integers, so that node counts never
 * depend on the compiler's floating point. */
static const int LN_1000[64] = {
    0,    0,    693,  1099, 1386, 1609, 1792, 1946, 2079, 2197, 2303, 2398, 2485, 2565, 2639, 2708,
    2773, 2833, 2890, 2944, 2996, 3045, 3091, 3135, 3178, 3219, 3258, 3296, 3332, 3367, 3401, 3434,
    3466, 3497, 3526, 3555, 3584, 3611, 3638, 3664, 3689, 3714, 3738, 3761, 3784, 3807, 3829, 3850,
    3871, 3892, 3912, 3932, 3951, 3970, 3989, 4007, 4025, 4043, 4060, 4078, 4094, 4111, 4127, 4143,
};
int search_lmr_divisor(Variant v)
{
	/* Russian reduces deeper (experiments.md, step 155); the others keep
	 * pool's 1.6 (steps 5, 41, 46). */
	return v == VARIANT_RUSSIAN ? 1300 : 1600;
}

/* Late move reduction of the quiet move at `index` (in search order):
 * about ln(depth) ln(index) / divisor plies (divisor in thousandths), one
 * less on the principal variation, one more for a move whose history says
 * it rarely works. */
static int reduction(int depth, int index, bool pv_node, int history, int divisor)
{
	if (depth < LMR_MIN_DEPTH || index < LMR_MIN_MOVES)
		return 0;
	int d = depth < 63 ? depth : 63, i = index < 63 ? index : 63;
	int r = (LN_1000[d] * LN_1000[i] + divisor * 500) / (divisor * 1000);
	if (pv_node)
		r--;
	if (history < 0)
		r++;
	if (r > depth - 2)
		r = depth - 2;
	return r < 0 ? 0 : r;
}

int search_node(Search *s, int ply, int depth, int alpha, int beta, bool pv_node)
{
	Frame *f = &s->stack[ply];
	const Position *pos = &f->pos;

	/* Step 1. At the horizon, resolve the captures. */
	if (depth <= 0) {
		s->leaf_ply_sum += (uint64_t)ply;
		s->leaf_count++;
		return quiesce(s, ply, alpha, beta, THREAT_PLIES);
	}

	/* Step 2. Count the node, look at the clock and the stop flag. */
	s->pv_length[ply] = ply;
	count_node(s);
	if (s->stopped)
		return 0;

	/* Step 3. Draws, the ply limit, and mate distance pruning: no line
	 * can do better than winning on the next move. */
	if (ply > 0) {
		if (is_draw(s, ply))
			return draw_score(s, ply);
		int known;
		if (s->egdb && egdb_score(s, ply, &known))
			return known;
		if (ply >= SEARCH_MAX_PLY - 1)
			return evaluate(s, ply);
		if (alpha < -SCORE_WIN + ply)
			alpha = -SCORE_WIN + ply;
		if (beta > SCORE_WIN - ply - 1)
			beta = SCORE_WIN - ply - 1;
		if (alpha >= beta)
			return alpha;
	}

	/* Step 4. Transposition table: its move goes first, and outside the
	 * principal variation its bound may end the node. */
	TTHit hit;
	bool found = tt_probe(s->tt, pos->key, ply, &hit);
	Move tt_move = found ? hit.move : move_none();
	if (ply == 0 && s->has_root_move)
		tt_move = s->root_move;
	if (found && !pv_node && hit.depth >= depth &&
	    ((hit.bound == TT_BOUND_EXACT) || (hit.bound == TT_BOUND_LOWER && hit.score >= beta) ||
	     (hit.bound == TT_BOUND_UPPER && hit.score <= alpha)))
		return hit.score;

	/* Step 4b. Internal iterative reduction: a node the table knows no
	 * move for is searched one ply shallower. */
	if (depth >= IIR_DEPTH && ply > 0 && move_is_none(tt_move))
		depth--;

	/* Step 5. Generate; the side with no move has lost. */
	MoveList *list = &s->lists[ply];
	int *order = s->order[ply];
	if (movegen_generate(pos, list) == 0)
		return -SCORE_WIN + ply;
	if (ply == 0 && s->root_only_count)
		keep_root_only(s, list);
	bool capturing = move_is_capture(list->moves[0]);

	/* Step 6. A forced move costs the opponent nothing to answer: look
	 * one ply further. A root restricted to some moves (a line of a
	 * multi-line search, or the moves asked for) is not forced for it. */
	int extension = list->count == 1 ? 1 : 0;
	if (ply == 0 && (s->root_skip_count || s->limits.root_move_count)) {
		restrict_root_moves(s, list);
		if (list->count == 0)
			return -SCORE_INFINITE;
	}

	/* Step 7. Reverse futility: a quiet position far above beta at low
	 * depth, with no capture threatened, is taken as it stands. */
	int static_eval = found ? hit.eval : EVAL_UNKNOWN;
	if (!pv_node && !capturing && depth <= RFP_DEPTH && !score_is_decisive(beta)) {
		if (static_eval == EVAL_UNKNOWN)
			static_eval = evaluate(s, ply);
		if (static_eval - RFP_MARGIN * depth >= beta && !threatened(pos))
			return static_eval;
	}

	/* Step 8. Order: table move, crowning, killers, history. */
	order_moves(s, ply, list, order, tt_move);

	/* Step 9. Principal variation search over the moves. When every root
	 * move needs its score, the root keeps its window for all of them. */
	bool all_moves = ply == 0 && s->limits.score_all_moves;
	int best = -SCORE_INFINITE, old_alpha = alpha;
	Move best_move = move_none();
	for (int i = 0; i < list->count; i++) {
		Move m = pick_move(list, order, i);
		bool quiet = !capturing && order[i] < ORDER_KILLER_2;
		int new_depth = depth - 1 + extension;
		int score;

		make_move(s, ply, m);
		if (i == 0 || all_moves) {
			score = -search_node(s, ply + 1, new_depth, -beta, -alpha, pv_node);
		} else {
			/* A quiet move's order is its history (order_moves). */
			int r = quiet ? reduction(depth, i, pv_node, order[i], s->lmr_divisor) : 0;
			score = -search_node(s, ply + 1, new_depth - r, -alpha - 1, -alpha, false);
			if (score > alpha && r > 0)
				score = -search_node(s, ply + 1, new_depth, -alpha - 1, -alpha, false);
			if (score > alpha && score < beta && pv_node)
				score = -search_node(s, ply + 1, new_depth, -beta, -alpha, true);
		}
		if (s->stopped)
			return 0;
		if (all_moves) {
			s->root_moves[s->root_count] = m;
			s->root_scores[s->root_count++] = score;
		}

		if (score > best) {
			best = score;
			best_move = m;
			if (score > alpha) {
				if (!all_moves)
					alpha = score;
				if (pv_node)
					update_pv(s, ply, m);
				if (ply == 0) {
					s->iteration_best = m;
					s->iteration_score = score;
					s->iteration_has_best = true;
				}
				if (alpha >= beta) {
					/* Step 10. A quiet refutation: remember it. */
					if (quiet) {
						if (!move_equal(f->killers[0], m)) {
							f->killers[1] = f->killers[0];
							f->killers[0] = m;
						}
						history_add(s, pos->side, m, depth * depth);
						for (int j = 0; j < i; j++)
							if (order[j] < ORDER_KILLER_2)
								history_add(s, pos->side, list->moves[j],
								            -depth * depth);
					}
					break;
				}
			}
		}
	}

	/* Step 11. Store what was learnt; not a root with moves left out,
	 * whose score is not the position's. */
	TTBound bound = best >= beta ? TT_BOUND_LOWER : (best > old_alpha ? TT_BOUND_EXACT : TT_BOUND_UPPER);
	if (!(ply == 0 && (s->root_skip_count || s->limits.root_move_count)))
		tt_store(s->tt, pos->key, ply, depth, best, static_eval, bound,
		         bound == TT_BOUND_UPPER ? move_none() : best_move);
	return best;
}
