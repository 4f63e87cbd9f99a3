/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The search's root: iterative deepening with aspiration windows, the
 * endgame database's root move, reporting and the wait while pondering. */
#include "poolshark/search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/movegen.h"
#include "search_internal.h"

static const int ASPIRATION_DEPTH = 5;   /* first iteration with a window */
static const int ASPIRATION_WINDOW = 30; /* half width, hundredths of a man */
static const int MAX_ITERATION = SEARCH_MAX_PLY - 28;

/* One iteration at `depth` with aspiration windows around `previous`. */
static int search_iteration(Search *s, int depth, int previous)
{
	int delta = ASPIRATION_WINDOW, alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
	if (depth >= ASPIRATION_DEPTH && !score_is_decisive(previous) && !s->limits.score_all_moves) {
		alpha = previous - delta;
		beta = previous + delta;
	}
	for (;;) {
		s->root_count = 0;
		int score = search_node(s, 0, depth, alpha, beta, true);
		if (s->stopped)
			return score;
		if (score <= alpha && alpha > -SCORE_INFINITE) {
			beta = (alpha + beta) / 2;
			alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
		} else if (score >= beta && beta < SCORE_INFINITE) {
			beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
		} else {
			return score;
		}
		delta *= 2;
		if (delta > 1000) {
			alpha = -SCORE_INFINITE;
			beta = SCORE_INFINITE;
		}
	}
}

/* Reports a completed iteration (or a line of one: `line` 1.., with its
 * own moves; 0 and the search's principal variation for a lone line). */
static void report_line(Search *s, int depth, int score, int line, const Move *pv, int pv_length)
{
	if (!s->control->info)
		return;
	SearchInfo info;
	info.depth = depth;
	info.mean_depth = s->leaf_count ? (double)s->leaf_ply_sum / (double)s->leaf_count : depth;
	info.score = score;
	info.mate = score_is_decisive(score);
	info.mate_plies = info.mate ? score_mate_plies(score) : 0;
	info.nodes = nodes_searched(s);
	info.time_ms = clock_now_ms() - s->start_ms;
	info.pv_length = pv_length;
	for (int i = 0; i < info.pv_length; i++)
		info.pv[i] = pv[i];
	info.egdb_hits = s->egdb_hits;
	info.egdb_root = s->egdb_root;
	info.line = line;
	s->control->info(&info, s->control->user);
}

static void report(Search *s, int depth, int score)
{
	report_line(s, depth, score, 0, s->pv[0], s->pv_length[0]);
}

/*
 * Step M. One iteration of a multi-line search: line k is the best line
 * of the root without the first moves of lines 0..k-1, searched in an
 * aspiration window around its score of the last iteration (widened until
 * the score falls inside), so that each score is exact and none is a
 * bound left by another line's window. The lines are then ordered best
 * first (a deeper look can rank them otherwise than they were found).
 * False when the search stopped before the iteration was complete.
 */
static bool search_lines(Search *s, int depth, int count)
{
	Move root_move = s->root_move;
	for (int k = 0; k < count; k++) {
		s->root_skip_count = k;
		for (int j = 0; j < k; j++)
			s->root_skip[j] = s->next_lines[j].move;
		/* Ordered first at the root: the move of this line last time. */
		if (k < s->line_count)
			s->root_move = s->lines[k].move;
		s->iteration_has_best = false;
		s->leaf_ply_sum = s->leaf_count = 0;
		int previous = k < s->line_count ? s->lines[k].score : 0;
		int score = search_iteration(s, depth, previous);
		if (s->stopped || !s->iteration_has_best)
			break;
		SearchLine *line = &s->next_lines[k];
		line->move = s->iteration_best;
		line->score = score;
		line->pv_length = s->pv_length[0];
		memcpy(line->pv, s->pv[0], sizeof line->pv[0] * (size_t)line->pv_length);
		if (k == count - 1) {
			/* Insertion sort, stable: equal scores keep the order found. */
			for (int i = 1; i < count; i++)
				for (int j = i; j > 0 && s->next_lines[j].score > s->next_lines[j - 1].score;
				     j--) {
					SearchLine t = s->next_lines[j];
					s->next_lines[j] = s->next_lines[j - 1];
					s->next_lines[j - 1] = t;
				}
			memcpy(s->lines, s->next_lines, sizeof s->lines[0] * (size_t)count);
			s->line_count = count;
			s->root_skip_count = 0;
			return true;
		}
	}
	s->root_skip_count = 0;
	s->root_move = root_move;
	return false;
}

/* How many times the position with `key` occurred in the game before the
 * root (the root included). */
static int occurrences(const Search *s, uint64_t key)
{
	int n = 0;
	for (int i = 0; i <= s->key_base; i++)
		n += s->keys[i] == key;
	return n;
}

/*
 * Step 0. A root in the endgame databases: each move is rated from the
 * database value of the position it leads to, as the game's counters and
 * repetitions leave it (a move into a third repetition, or onto a finished
 * count of the rules, draws). A win or a loss is played at once by
 * distance (fastest win, longest defence), a win that the counts leave room
 * for (game_win_fits()) before any other, a defence that they may save
 * before any other; scored as sure only when no draw rule can stop it; at a
 * draw the search chooses among the moves that keep it. True when the move
 * is chosen.
 */
static bool egdb_root_move(Search *s, const SearchRoot *root, const MoveList *moves, SearchResult *out)
{
	uint8_t v;
	if (bb_count(position_occupied(&root->position)) > s->egdb_pieces ||
	    !egdb_probe(s->egdb, &root->position, &v))
		return false;
	s->egdb_hits++;
	int best = -1, best_rank = 0, best_plies = 0;
	for (int i = 0; i < moves->count; i++) {
		Move m = moves->moves[i];
		Position next;
		DrawCounters c;
		position_make(&root->position, m, &next);
		game_counters_after(&root->position, m, &next, &root->counters, &c);
		uint8_t nv;
		if (!egdb_probe(s->egdb, &next, &nv)) {
			s->root_only_count = 0;
			return false;
		}
		s->egdb_hits++;
		int plies = egdb_value_distance(nv) + 1, rank = 0;
		EgdbResult r = egdb_value_result(nv);
		bool rule_draw =
		    occurrences(s, next.key) >= 2 ||
		    ((c.reversible_plies >= GAME_REVERSIBLE_LIMIT || c.thirteen >= GAME_THIRTEEN_LIMIT) &&
		     movegen_has_moves(&next));
		/* A win the counts leave room for before a faster one they
		 * may stop; a defence they may save before a longer one. */
		bool fits = game_win_fits(&next, &c, plies - 1);
		if (r == EGDB_LOSS)
			rank = rule_draw ? 0 : (fits ? 2000 : 1000) - plies; /* we win */
		else if (r == EGDB_WIN)
			rank = rule_draw ? 0 : (fits ? -2000 : -1000) + plies;
		if (best < 0 || rank > best_rank) {
			best = i;
			best_rank = rank;
			best_plies = plies;
		}
		if (rank == 0)
			s->root_only[s->root_only_count++] = m;
	}
	if (best_rank == 0)
		return false; /* the search picks among the drawing moves */
	s->root_only_count = 0;
	s->egdb_root = true;
	out->best = moves->moves[best];
	/* A win the counters may still stop is reported as likely, not sure. */
	int sure = best_rank > 0 ? SCORE_WIN - best_plies : -SCORE_WIN + best_plies;
	int likely = best_rank > 0 ? SCORE_EGDB_LIKELY_WIN - best_plies : -SCORE_EGDB_LIKELY_WIN + best_plies;
	out->score = beats_draw_rules(&root->position, &root->counters, best_plies) ? sure : likely;
	out->depth = 1;
	s->pv[0][0] = out->best;
	s->pv_length[0] = 1;
	s->leaf_count = 0;
	report(s, 1, out->score);
	return true;
}

/* Whether the outside wants this search to go on once it has finished. */
static void wait_while_pondering(Search *s)
{
	const SearchControl *c = s->control;
	if (!c->stop || !(s->limits.infinite || s->limits.ponder))
		return;
	struct timespec nap = {0, 1000000};
	while (!atomic_load(c->stop)) {
		if (s->limits.ponder && !s->limits.infinite && c->pondering && !atomic_load(c->pondering))
			return;
		nanosleep(&nap, NULL);
	}
}

void search_run(Search *s, TT *tt, const SearchRoot *root, const SearchLimits *limits,
                const SearchControl *control, SearchResult *out)
{
	static const SearchControl no_control = {0};
	s->control = control ? control : &no_control;
	s->tt = tt;
	s->limits = *limits;
	s->pondering = limits->ponder && s->control->pondering && atomic_load(s->control->pondering);
	s->start_ms = limits->clock_start_ms > 0 && !s->pondering ? limits->clock_start_ms : clock_now_ms();
	s->start_cpu_ns = clock_thread_cpu_ns();
	s->lag_ms = 0;
	timeman_budget_over(limits, s->control->move_overhead_ms,
	                    timeman_assumed_moves((Variant)root->position.variant), &s->budget);
	s->stopped = false;
	s->nodes = s->nodes_shared = 0;
	s->leaf_ply_sum = s->leaf_count = 0;
	s->iteration_has_best = false;
	s->has_root_move = false;
	s->root_count = s->scored_count = 0;
	s->egdb_hits = 0;
	s->egdb_root = false;
	/* The databases are of one rule set's endgames: another's are other
	 * games. */
	s->egdb_pieces =
	    s->egdb && egdb_variant(s->egdb) == (Variant)root->position.variant ? s->egdb_max : 0;
	s->eval_weights = s->weights ? s->weights : eval_weights_for((Variant)root->position.variant);
	s->lmr_divisor = search_lmr_divisor((Variant)root->position.variant);
	s->root_only_count = 0;
	s->key_base = root->history_count;
	for (int i = 0; i < root->history_count; i++)
		s->keys[i] = root->history[i];
	s->keys[s->key_base] = root->position.key;
	for (int i = 0; i <= SEARCH_MAX_PLY; i++)
		s->stack[i].pos.variant = root->position.variant; /* make_move() keeps them */
	s->stack[0].pos = root->position;
	s->stack[0].counters = root->counters;
	s->eval_network =
	    s->network && s->network->variant == (Variant)root->position.variant ? s->network : NULL;
	if (s->eval_network) {
		nnue_refresh(s->eval_network, &s->stack[0].pos, &s->acc[0]);
		s->acc_ply = 0;
		if (s->cache_network != s->eval_network || s->cache_checksum != s->eval_network->checksum) {
			/* Emptied: key 0 (one chance in 2^64 for a real position) and score 0. */
			memset(s->eval_cache, 0, sizeof s->eval_cache);
			s->cache_network = s->eval_network;
			s->cache_checksum = s->eval_network->checksum;
		}
	}
	if (!s->control->shared_nodes)
		tt_new_search(tt);

	out->best = move_none();
	out->ponder = move_none();
	out->score = 0;
	out->depth = 0;
	out->nodes = 0;
	out->egdb_hits = 0;
	out->egdb_root = false;
	out->book = false;

	MoveList *moves = &s->lists[0];
	if (movegen_generate(&root->position, moves) == 0) {
		out->score = -SCORE_WIN;
		wait_while_pondering(s);
		return;
	}
	/* Whatever happens next, there is a legal move to play: one of those
	 * asked for, when they are legal. */
	out->best = moves->moves[0];
	int searched = moves->count;
	if (limits->root_move_count) {
		searched = 0;
		for (int i = 0; i < moves->count; i++)
			for (int j = 0; j < limits->root_move_count; j++)
				if (move_equal(moves->moves[i], limits->root_moves[j])) {
					if (!searched++)
						out->best = moves->moves[i];
					break;
				}
		if (!searched) {
			wait_while_pondering(s);
			return;
		}
	}
	/* Several lines asked for: numbered, even when the position has fewer. */
	bool numbered = limits->multipv > 1 && !limits->score_all_moves;
	int lines = numbered ? limits->multipv : 1;
	if (lines > searched)
		lines = searched;
	if (lines > SEARCH_MAX_LINES)
		lines = SEARCH_MAX_LINES;
	s->line_count = 0;
	s->root_skip_count = 0;
	if (s->egdb && !limits->score_all_moves && !numbered && !limits->root_move_count &&
	    egdb_root_move(s, root, moves, out)) {
		out->egdb_hits = s->egdb_hits;
		out->egdb_root = true;
		wait_while_pondering(s);
		return;
	}
	bool clock = limits->time_left_ms > 0 || limits->move_time_ms > 0;
	int max_depth = limits->depth > 0 && limits->depth < MAX_ITERATION ? limits->depth : MAX_ITERATION;
	if (searched == 1 && clock && !s->pondering && !limits->infinite)
		max_depth = 1; /* nothing to think about: answer at once */

	int score = 0;
	for (int depth = 1; depth <= max_depth; depth++) {
		/* Odd helpers leave out every other iteration (the odd ones
		 * but for a depth limit of odd parity): half the threads are
		 * one ply ahead, fill the table for the others and reach the
		 * last depth first. */
		if (s->control->helper % 2 == 1 && (max_depth - depth) % 2 == 1 && depth > 1)
			continue;
		if (numbered) {
			if (!search_lines(s, depth, lines))
				break; /* the last complete iteration stands */
			const SearchLine *best = &s->lines[0];
			score = best->score;
			s->root_move = best->move;
			s->has_root_move = true;
			out->best = best->move;
			out->ponder = best->pv_length > 1 ? best->pv[1] : move_none();
			out->score = score;
			out->depth = depth;
			for (int k = 0; k < lines; k++)
				report_line(s, depth, s->lines[k].score, k + 1, s->lines[k].pv,
				            s->lines[k].pv_length);
		} else {
			s->iteration_has_best = false;
			s->leaf_ply_sum = s->leaf_count = 0;
			int result = search_iteration(s, depth, score);
			if (s->stopped) {
				/* A root move that beat the window in the unfinished
				 * iteration is better informed than the last one. */
				if (s->iteration_has_best) {
					out->best = s->iteration_best;
					out->ponder = s->pv_length[0] > 1 ? s->pv[0][1] : move_none();
				}
				break;
			}
			score = result;
			if (limits->score_all_moves) {
				s->scored_count = s->root_count;
				memcpy(s->scored_moves, s->root_moves,
				       sizeof s->root_moves[0] * (size_t)s->root_count);
				memcpy(s->scored_scores, s->root_scores,
				       sizeof s->root_scores[0] * (size_t)s->root_count);
			}
			s->root_move = s->iteration_best;
			s->has_root_move = true;
			out->best = s->iteration_best;
			out->ponder = s->pv_length[0] > 1 ? s->pv[0][1] : move_none();
			out->score = score;
			out->depth = depth;
			report(s, depth, score);
		}

		if (!s->pondering && !limits->infinite) {
			/* A forced end found with room to spare will not change. */
			if (score_is_decisive(score) && depth >= 2 * abs(score_mate_plies(score)) + 2)
				break;
			if (s->budget.limited && charged_ms(s, s->budget.soft_ms, true) >= s->budget.soft_ms)
				break;
		}
		if (limits->nodes && nodes_searched(s) >= limits->nodes)
			break;
	}
	out->nodes = nodes_searched(s);
	out->egdb_hits = s->egdb_hits;
	wait_while_pondering(s);
}
