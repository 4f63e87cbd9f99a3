/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Search: game ends scored by distance, draws by rule, tactics, legal moves everywhere. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "poolshark/clock.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/search.h"
#include "support/support.h"
#include "support/tactics.h"

typedef struct Fixture {
	Search *search;
	TT tt;
} Fixture;

static int setup(void **state)
{
	Fixture *f = malloc(sizeof *f);
	if (!f || !tt_init(&f->tt, 4))
		return -1;
	f->search = search_create();
	*state = f;
	return f->search ? 0 : -1;
}

static int teardown(void **state)
{
	Fixture *f = *state;
	search_destroy(f->search);
	tt_free(&f->tt);
	free(f);
	return 0;
}

static Position fen(const char *text)
{
	Position p;
	char error[NOTATION_ERROR_MAX];
	if (!notation_parse_fen(text, VARIANT_POOL, &p, error, sizeof error))
		fail_msg("bad FEN %s: %s", text, error);
	return p;
}

/* A fresh search of root to `depth` plies (or `nodes`), table cleared. */
static SearchResult run_root(Fixture *f, const SearchRoot *root, int depth, uint64_t nodes)
{
	SearchLimits limits = {.depth = depth, .nodes = nodes};
	SearchResult r;
	tt_clear(&f->tt);
	search_clear(f->search);
	search_run(f->search, &f->tt, root, &limits, NULL, &r);
	return r;
}

static SearchResult run_position(Fixture *f, const Position *p, int depth)
{
	SearchRoot root;
	search_root_from_position(p, &root);
	return run_root(f, &root, depth, 0);
}

/* Blocked (the black man on 5 cannot step to 9 nor jump it) or without
 * pieces: no move, lost now. */
static void test_no_move_is_a_loss_now(void **state)
{
	Fixture *f = *state;
	Position blocked = fen("B:W9,14:B5");
	SearchResult r = run_position(f, &blocked, 5);
	assert_true(move_is_none(r.best));
	assert_int_equal(r.score, -SCORE_WIN);
	Position empty;
	position_set(&empty, 0, bb_square(21), 0, BLACK);
	r = run_position(f, &empty, 5);
	assert_true(move_is_none(r.best));
	assert_int_equal(r.score, -SCORE_WIN);
}

/* White 22 takes the last Black piece: a win in one ply. Blocking the
 * last Black man (5, with White on 9 and 14) also wins in one ply. */
static void test_win_in_one_ply(void **state)
{
	Fixture *f = *state;
	Position p = fen("W:W22:B18");
	SearchResult r = run_position(f, &p, 6);
	assert_int_equal(r.score, SCORE_WIN - 1);
	assert_int_equal(score_mate_plies(r.score), 1);
	assert_int_equal(r.best.from, 21);
	assert_int_equal(r.best.captured, bb_square(17));

	p = fen("W:W9,18:B5");
	r = run_position(f, &p, 6);
	assert_int_equal(r.score, SCORE_WIN - 1);
	assert_int_equal(r.best.from, 17); /* 18-14 shuts the man on 5 in */
	assert_int_equal(r.best.to, 13);
}

/* Black's only move 5-9 walks into 14x5 and leaves Black with nothing:
 * lost in one ply from the reply, two from now. */
static void test_loss_in_one_ply(void **state)
{
	Fixture *f = *state;
	Position p = fen("B:W14:B5");
	SearchResult r = run_position(f, &p, 6);
	assert_int_equal(r.score, -(SCORE_WIN - 2));
	assert_int_equal(score_mate_plies(r.score), -2);
	assert_int_equal(r.best.to, 8);
}

/*
 * Three kings against one, the lone king on 13 (an edge square: no piece
 * there can ever be jumped) and off the long diagonal. With 12 of the 13
 * moves of the thirteen-move count gone, White's next move ends the game
 * as a draw whatever it is; with the count just started, White is winning.
 * Black to move in the same material: the draw is Black's only way out.
 */
static void test_thirteen_move_count_is_a_draw(void **state)
{
	Fixture *f = *state;
	SearchRoot root;
	search_root_from_position(&(Position){0}, &root);
	root.position = fen("W:WK3,K18,K28:BK13");
	root.counters.reversible_plies = 0;
	root.counters.thirteen = 12;
	SearchResult r = run_root(f, &root, 8, 0);
	assert_int_equal(r.score, SCORE_DRAW);
	assert_false(move_is_none(r.best));

	root.counters.thirteen = 0;
	r = run_root(f, &root, 8, 0);
	assert_true(r.score > 300);

	root.position = fen("B:WK3,K18,K28:BK13");
	root.counters.thirteen = 12;
	r = run_root(f, &root, 8, 0);
	assert_int_equal(r.score, SCORE_DRAW);
	root.counters.thirteen = 0;
	r = run_root(f, &root, 8, 0);
	assert_true(r.score < -300);
}

/* Four kings against one: won, unless 49 reversible plies are gone, and
 * then every king move completes the 25-move rule. */
static void test_25_move_rule_is_a_draw(void **state)
{
	Fixture *f = *state;
	SearchRoot root;
	search_root_from_position(&(Position){0}, &root);
	root.position = fen("W:WK1,K2,K3,K18:BK13");
	root.counters.thirteen = -1;
	root.counters.reversible_plies = GAME_REVERSIBLE_LIMIT - 1;
	SearchResult r = run_root(f, &root, 6, 0);
	assert_int_equal(r.score, SCORE_DRAW);
	root.counters.reversible_plies = 0;
	r = run_root(f, &root, 6, 0);
	assert_true(r.score > 300);
}

/* A search of root to `depth` plies with draws scored by `contempt`. */
static SearchResult run_with_contempt(Fixture *f, const SearchRoot *root, int depth, int contempt)
{
	SearchLimits limits = {.depth = depth};
	SearchControl control = {.contempt = contempt};
	SearchResult r;
	tt_clear(&f->tt);
	search_clear(f->search);
	search_run(f->search, &f->tt, root, &limits, &control, &r);
	return r;
}

/*
 * Contempt: a draw is worse than level for the side to move at the root,
 * whichever colour that is, and better below 0. Every move of both roots
 * completes the 25-move rule, so the score is the draw's.
 */
static void test_contempt_scores_draws_for_the_root_side(void **state)
{
	Fixture *f = *state;
	SearchRoot root;
	search_root_from_position(&(Position){0}, &root);
	root.counters.thirteen = -1;
	root.counters.reversible_plies = GAME_REVERSIBLE_LIMIT - 1;
	static const char *const fens[] = {"W:WK1,K2,K3,K18:BK13", "B:WK1,K2,K3,K18:BK13"};
	for (int i = 0; i < 2; i++) {
		root.position = fen(fens[i]);
		SearchResult r = run_with_contempt(f, &root, 6, 20);
		assert_int_equal(r.score, -20);
		assert_false(move_is_none(r.best));
		r = run_with_contempt(f, &root, 6, -35);
		assert_int_equal(r.score, 35);
		r = run_with_contempt(f, &root, 6, 0);
		assert_int_equal(r.score, SCORE_DRAW);
	}
}

/*
 * Repetition against the game history. White (two kings and two men)
 * beats Black (a king and a man). The game so far shuffled kings: Black
 * 1-6, White 32-27, Black 6-1, White 27-32, back to the start. Black's
 * 1-6 now brings back the position after its first 1-6: a draw, which is
 * Black's only way not to lose, so the search plays it and scores 0. With
 * no history the same position is simply lost for Black.
 */
static void test_repetition_in_history_is_a_draw(void **state)
{
	Fixture *f = *state;
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	Position start = fen("B:WK30,K32,21,22:BK1,12");
	game_init(g, &start);
	static const char *moves[] = {"1-6", "32-27", "6-1", "27-32"};
	Move first = move_none();
	for (int i = 0; i < 4; i++) {
		Move m;
		char error[NOTATION_ERROR_MAX];
		assert_int_equal(notation_parse_move(game_position(g), moves[i], &m, error, sizeof error),
		                 MOVE_PARSE_OK);
		if (i == 0)
			first = m;
		assert_true(game_play(g, m));
	}
	SearchRoot root;
	search_root_from_game(g, &root);
	assert_int_equal(root.history_count, 4);
	assert_true(root.history[0] == start.key);
	assert_true(position_equal(&root.position, &start));

	SearchResult r = run_root(f, &root, 6, 0);
	assert_int_equal(r.score, SCORE_DRAW);
	assert_true(move_equal(r.best, first));
	/* Contempt makes the draw worse, but still better than the loss. */
	r = run_with_contempt(f, &root, 6, 30);
	assert_int_equal(r.score, -30);
	assert_true(move_equal(r.best, first));

	r = run_position(f, &start, 6);
	assert_true(r.score < -200);
	free(g);
}

/* Tactics (support/tactics.h): the claim of each position is checked
 * here, before the engine is asked, by a plain full-width minimax that
 * shares no code with the search: material only (man 1, king 2), `depth`
 * plies, captures followed to the end past the horizon (they are
 * compulsory). */
/* The engine must find each key move within this many nodes. */
enum { TACTIC_NODE_BUDGET = 200000 };

static int material(const Position *p)
{
	Color us = p->side, them = color_other(us);
	return bb_count(position_men(p, us)) + 2 * bb_count(position_kings(p, us)) -
	       bb_count(position_men(p, them)) - 2 * bb_count(position_kings(p, them));
}

static int minimax(const Position *p, int depth)
{
	MoveList list;
	if (movegen_generate(p, &list) == 0)
		return -1000;
	if (depth <= 0 && !move_is_capture(list.moves[0]))
		return material(p);
	int best = -10000;
	for (int i = 0; i < list.count; i++) {
		Position child;
		position_make(p, list.moves[i], &child);
		int score = -minimax(&child, depth - 1);
		if (score > best)
			best = score;
	}
	return best;
}

static void test_tactics_are_sound(void **state)
{
	(void)state;
	for (int t = 0; t < support_tactic_count; t++) {
		Position p = fen(support_tactics[t].fen);
		Move key;
		char error[NOTATION_ERROR_MAX];
		assert_int_equal(notation_parse_move(&p, support_tactics[t].move, &key, error, sizeof error),
		                 MOVE_PARSE_OK);
		MoveList list;
		movegen_generate(&p, &list);
		int base = material(&p), others = -10000;
		for (int i = 0; i < list.count; i++) {
			Position child;
			position_make(&p, list.moves[i], &child);
			int gain = -minimax(&child, support_tactics[t].depth - 1) - base;
			if (move_equal(list.moves[i], key))
				assert_int_equal(gain, support_tactics[t].gain);
			else if (gain > others)
				others = gain;
		}
		assert_int_equal(others, support_tactics[t].others);
		assert_true(support_tactics[t].gain >= 2 && support_tactics[t].others <= 0);
	}
}

static void test_tactics_are_found(void **state)
{
	Fixture *f = *state;
	int solved = 0, count = support_tactic_count;
	for (int t = 0; t < count; t++) {
		Position p = fen(support_tactics[t].fen);
		Move key;
		char error[NOTATION_ERROR_MAX];
		assert_int_equal(notation_parse_move(&p, support_tactics[t].move, &key, error, sizeof error),
		                 MOVE_PARSE_OK);
		SearchRoot root;
		search_root_from_position(&p, &root);
		SearchResult r = run_root(f, &root, 0, TACTIC_NODE_BUDGET);
		if (move_equal(r.best, key))
			solved++;
		else
			print_message("tactic %d (%s): expected %s\n", t + 1, support_tactics[t].fen,
			              support_tactics[t].move);
	}
	assert_true(count >= 20);
	assert_int_equal(solved, count);
}

/* From 1,000 positions of seeded random play (and random set-ups with
 * kings), a small search always returns a legal move, or none exactly when
 * the side to move has none. */
static void test_legal_moves_from_random_positions(void **state)
{
	Fixture *f = *state;
	Rng r = {99};
	Position start;
	position_start(&start);
	int none = 0;
	for (int i = 0; i < 1000; i++) {
		Position p;
		if (i % 2)
			support_random_walk(&r, &start, rng_below(&r, 120), &p);
		else
			support_random_position(&r, 8, 4, &p);
		SearchResult res = run_position(f, &p, 1 + i % 4);
		if (movegen_has_moves(&p)) {
			assert_true(support_is_legal(&p, res.best));
			if (!move_is_none(res.ponder)) {
				Position next;
				position_make(&p, res.best, &next);
				assert_true(support_is_legal(&next, res.ponder));
			}
		} else {
			assert_true(move_is_none(res.best));
			none++;
		}
	}
	assert_true(none < 1000);
}

/* Same search, same table state: same nodes, same move (no clock, no
 * randomness). */
static void test_search_is_deterministic(void **state)
{
	Fixture *f = *state;
	Position p = fen("W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14");
	SearchResult a = run_position(f, &p, 9);
	SearchResult b = run_position(f, &p, 9);
	assert_true(a.nodes == b.nodes);
	assert_true(move_equal(a.best, b.best));
	assert_int_equal(a.score, b.score);
	assert_int_equal(a.depth, 9);
}

/*
 * A network that counts material: neuron 0 of each view adds 8 per piece of
 * its own side, the second layer takes the difference both ways, and the
 * output turns 8 per piece into 100 score units. So it scores exactly
 * 100 x (own pieces - opponent's pieces), as the classic evaluation does
 * with weights of material alone.
 */
static NnueNetwork *material_network(Variant v)
{
	NnueNetwork *n = calloc(1, sizeof *n);
	assert_non_null(n);
	n->variant = v;
	n->hidden = 16;
	n->buckets = 1;
	for (int input = 0; input < 64; input++) /* own men and kings */
		n->ft_weight[nnue_ft_at(n->hidden, input, 0)] = 8;
	n->stack[0].l2_weight[nnue_l2_at(0, 0)] = 64;
	n->stack[0].l2_weight[nnue_l2_at(0, 16)] = -64;
	n->stack[0].l2_weight[nnue_l2_at(1, 0)] = -64;
	n->stack[0].l2_weight[nnue_l2_at(1, 16)] = 64;
	n->stack[0].out_weight[0] = 16256; /* 127 * 1024 / 8 */
	n->stack[0].out_weight[1] = -16256;
	return n;
}

static EvalWeights material_weights(void)
{
	EvalWeights w = {0};
	w.man = w.king_opening = w.king_endgame = 100;
	w.drawn_scale = w.drawish_scale = 16;
	return w;
}

/* A random position of rule set v: a random walk from the start, or a
 * random set-up with kings. */
static void random_position_of(Rng *r, Variant v, int i, Position *out)
{
	Position start;
	position_start_variant(&start, v);
	if (i % 2)
		support_random_walk(r, &start, rng_below(r, 100), out);
	else {
		support_random_position(r, 8, 4, out);
		out->variant = (uint8_t)v;
		out->key = position_compute_key(out);
	}
}

/* The network's accumulators follow the line the search plays, captures
 * and crownings included, in every rule set: searched with the material
 * network, every position gives the very tree (nodes, score, move) of the
 * classic evaluation with the same material weights. An accumulator that
 * missed a move would count other pieces and steer the search elsewhere. */
static void test_network_follows_the_line(void **state)
{
	Fixture *f = *state;
	EvalWeights w = material_weights();
	Rng r = {2024};
	for (int v = 0; v < VARIANT_COUNT; v++) {
		NnueNetwork *net = material_network((Variant)v);
		for (int i = 0; i < 120; i++) {
			Position p;
			random_position_of(&r, (Variant)v, i, &p);
			NnueAccumulator acc;
			nnue_refresh(net, &p, &acc);
			assert_int_equal(nnue_evaluate(net, &acc, (Color)p.side), eval_evaluate(&p, &w));
			int depth = 2 + i % 6;
			search_set_network(f->search, NULL);
			search_set_weights(f->search, &w);
			SearchResult classic = run_position(f, &p, depth);
			search_set_network(f->search, net);
			search_set_network_alone(f->search, true); /* kings endings too */
			SearchResult learned = run_position(f, &p, depth);
			search_set_network_alone(f->search, false);
			assert_true(classic.nodes == learned.nodes);
			assert_int_equal(classic.score, learned.score);
			assert_true(move_equal(classic.best, learned.best));
		}
		free(net);
	}
	search_set_network(f->search, NULL);
	search_set_weights(f->search, NULL);
}

/* The search remembers the network's scores, and forgets them when the
 * network changes: set anew, or changed in place with another checksum. A
 * search after another network's must be the one with a fresh start. */
static void test_network_scores_are_forgotten_when_it_changes(void **state)
{
	Fixture *f = *state;
	Position p = fen("W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14");
	NnueNetwork *a = material_network(VARIANT_POOL);
	NnueNetwork *b = material_network(VARIANT_POOL);
	/* b: a king is worth three men, so b's scores differ from a's. */
	for (int input = 32; input < 64; input++)
		b->ft_weight[nnue_ft_at(b->hidden, input, 0)] = 24;
	b->checksum = 1;
	search_set_network(f->search, a);
	SearchResult fresh_a = run_position(f, &p, 9);
	search_set_network(f->search, b);
	SearchResult fresh_b = run_position(f, &p, 9);
	assert_true(fresh_a.nodes != fresh_b.nodes);
	search_set_network(f->search, a);
	SearchResult again_a = run_position(f, &p, 9);
	assert_true(again_a.nodes == fresh_a.nodes);
	assert_int_equal(again_a.score, fresh_a.score);
	/* In place: a becomes b, with b's checksum, and is not set again. */
	*a = *b;
	SearchResult in_place = run_position(f, &p, 9);
	assert_true(in_place.nodes == fresh_b.nodes);
	assert_int_equal(in_place.score, fresh_b.score);
	search_set_network(f->search, NULL);
	free(a);
	free(b);
}

/* A network of another rule set than the root's is not used: the search is
 * the classic one, node for node. And a network that is used changes the
 * search (the test above would pass if the network were never called). */
static void test_network_of_another_rule_set_is_not_used(void **state)
{
	Fixture *f = *state;
	EvalWeights w = material_weights();
	Position p = fen("W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14");
	search_set_weights(f->search, &w);
	SearchResult classic = run_position(f, &p, 8);
	NnueNetwork *russian = material_network(VARIANT_RUSSIAN);
	search_set_network(f->search, russian);
	SearchResult other = run_position(f, &p, 8);
	assert_true(classic.nodes == other.nodes);
	search_set_weights(f->search, NULL);
	search_set_network(f->search, NULL);
	SearchResult own = run_position(f, &p, 8);
	NnueNetwork *pool = material_network(VARIANT_POOL);
	search_set_network(f->search, pool);
	SearchResult material = run_position(f, &p, 8);
	assert_true(own.nodes != material.nodes);
	search_set_network(f->search, NULL);
	free(russian);
	free(pool);
}

static NnueNetwork *default_network(void)
{
	NnueNetwork *net = malloc(sizeof *net);
	char error[256];
	if (!net || !nnue_load_default(net, VARIANT_POOL, error, sizeof error))
		fail_msg("the compiled-in pool network: %s", net ? error : "out of memory");
	return net;
}

/* Pool's kings endings are scored by eval_kings_ending(), not by the
 * network, unless the network is to score them alone: a node-for-node
 * different tree with the same network, the classic evaluation's drawn
 * endings near level and won ones (three kings against a king, and
 * against a king and a man) far ahead. The network alone scores the
 * drawn ones well ahead of level (which is why it does not score them). */
static void test_kings_endings_know_their_draws(void **state)
{
	Fixture *f = *state;
	NnueNetwork *net = default_network();
	search_set_network(f->search, net);
	const char *drawn[] = {"W:WK1,K10:BK27", "B:WK1,K10:BK27", "B:WK1,K2,K3:BK29", "W:WK1,K2,K3:BK29"};
	int alone_widest = 0;
	for (size_t i = 0; i < sizeof drawn / sizeof *drawn; i++) {
		Position p = fen(drawn[i]);
		SearchResult with_plan = run_position(f, &p, 8);
		search_set_network_alone(f->search, true);
		SearchResult alone = run_position(f, &p, 8);
		search_set_network_alone(f->search, false);
		if (with_plan.score < -60 || with_plan.score > 60)
			fail_msg("%s is a draw: scored %d", drawn[i], with_plan.score);
		assert_true(with_plan.nodes != alone.nodes);
		int widest = alone.score < 0 ? -alone.score : alone.score;
		alone_widest = widest > alone_widest ? widest : alone_widest;
	}
	assert_true(alone_widest > 100);
	Position won = fen("W:WK1,K10,K17:BK21");
	SearchResult r = run_position(f, &won, 8);
	assert_true(r.score > 300);
	/* Three kings against a king and a man are scored the same way. */
	Position with_man = fen("W:WK3,K29,K32:B5,K24");
	SearchResult kings = run_position(f, &with_man, 2);
	search_set_network_alone(f->search, true);
	SearchResult network = run_position(f, &with_man, 2);
	search_set_network_alone(f->search, false);
	assert_true(kings.score > 300);
	assert_true(kings.score != network.score);
	search_set_network(f->search, NULL);
	free(net);
}

/* Plays `start_fen` out with the search on both sides at `nodes` a move;
 * true when the side with more pieces wins before a draw rule ends the
 * game. */
static bool strong_side_wins(Fixture *f, Game *g, const char *start_fen, int nodes)
{
	Position start = fen(start_fen);
	Color strong = bb_count(start.pieces[BLACK]) > bb_count(start.pieces[WHITE]) ? BLACK : WHITE;
	game_init(g, &start);
	GameStatus status = game_status(g);
	while (status.result == RESULT_NONE) {
		SearchRoot root;
		search_root_from_game(g, &root);
		SearchResult r = run_root(f, &root, 0, nodes);
		assert_true(game_play(g, r.best));
		status = game_status(g);
	}
	return status.result == (strong == BLACK ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
}

/* Three kings against one off the long diagonal win (the databases say so
 * of these four). The search with the compiled-in network and the plan of
 * eval_kings_ending(), playing both sides at 40,000, 50,000 and 60,000
 * nodes a move, wins at least 10 of the 12 games before the draw rules end
 * them (12 with the plan fitted to the databases; 8 or more was the
 * hand-made plan's bound); with the network alone (no plan) it wins at
 * most one of the four at 50,000 nodes. Which games are won moves with any change of the tree
 * (the network's scores of the one-king-each lines are enough), so the
 * test counts rather than naming games. */
static void test_three_kings_beat_one(void **state)
{
	Fixture *f = *state;
	NnueNetwork *net = default_network();
	search_set_network(f->search, net);
	const char *won[] = {"B:WK14:BK1,K29,K30", "B:WK21:BK15,K31,K32", "W:WK1,K16,K18:BK21",
	                     "W:WK4,K20,K32:BK10"};
	const int budgets[] = {40000, 50000, 60000};
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	int with_plan = 0, alone = 0;
	for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++)
		for (size_t i = 0; i < sizeof won / sizeof *won; i++)
			with_plan += strong_side_wins(f, g, won[i], budgets[b]);
	search_set_network_alone(f->search, true);
	for (size_t i = 0; i < sizeof won / sizeof *won; i++)
		alone += strong_side_wins(f, g, won[i], 50000);
	search_set_network_alone(f->search, false);
	free(g);
	search_set_network(f->search, NULL);
	free(net);
	if (with_plan < 10 || alone > 1)
		fail_msg("won %d of 12 with the plan (at least 10 expected), %d of 4 with the network "
		         "alone (at most 1)",
		         with_plan, alone);
}

/* The clock runs from the order to move (limits.clock_start_ms), not from
 * the start of the search: a move whose time was spent before the search
 * ran (a thread that started late on a loaded machine) is answered at
 * once. And whatever the clock, the move played is a searched one: the
 * first iteration is always completed, never the first legal move. */
static void test_clock_runs_from_the_order_to_move(void **state)
{
	Fixture *f = *state;
	Position p = fen("W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14");
	SearchResult depth1 = run_position(f, &p, 1);
	SearchRoot root;
	search_root_from_position(&p, &root);
	struct {
		SearchLimits limits;
		const char *what;
	} late[] = {
	    {{.move_time_ms = 3000}, "move time"},
	    {{.time_left_ms = 60000, .increment_ms = 1000}, "clock"},
	    {{.time_left_ms = 1}, "clock of 1 ms"},
	};
	for (size_t i = 0; i < sizeof late / sizeof late[0]; i++) {
		SearchLimits limits = late[i].limits;
		int64_t now = clock_now_ms();
		limits.clock_start_ms = now - 100000; /* spent long ago */
		SearchResult r;
		tt_clear(&f->tt);
		search_clear(f->search);
		search_run(f->search, &f->tt, &root, &limits, NULL, &r);
		int64_t took = clock_now_ms() - now;
		if (took > 1000)
			fail_msg("%s: searched %lld ms of a clock already spent", late[i].what,
			         (long long)took);
		assert_int_equal(r.depth, 1);
		assert_true(move_equal(r.best, depth1.best));
		assert_int_equal(r.score, depth1.score);
	}
}

/* Time the search did not run is charged twice: a move of 100 ms whose
 * order came 60 ms before the search started (a thread the scheduler kept
 * waiting) has used 120 ms of it, and answers after depth 1 instead of
 * searching the 40 ms the wall clock alone would leave. */
static void test_time_not_run_is_charged(void **state)
{
	Fixture *f = *state;
	Position p = fen("W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14");
	SearchRoot root;
	search_root_from_position(&p, &root);
	SearchLimits limits = {.move_time_ms = 100, .clock_start_ms = clock_now_ms() - 60};
	SearchResult r;
	tt_clear(&f->tt);
	search_clear(f->search);
	search_run(f->search, &f->tt, &root, &limits, NULL, &r);
	assert_int_equal(r.depth, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_no_move_is_a_loss_now, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_win_in_one_ply, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_loss_in_one_ply, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_thirteen_move_count_is_a_draw, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_25_move_rule_is_a_draw, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repetition_in_history_is_a_draw, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_contempt_scores_draws_for_the_root_side, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tactics_are_sound, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tactics_are_found, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_legal_moves_from_random_positions, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_search_is_deterministic, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_runs_from_the_order_to_move, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_time_not_run_is_charged, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_network_follows_the_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_network_of_another_rule_set_is_not_used, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kings_endings_know_their_draws, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_three_kings_beat_one, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_network_scores_are_forgotten_when_it_changes, setup,
	                                    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
