/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Game record: the end-of-game rules of RULES.md section 3. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/position.h"
#include "support/support.h"

static Game *new_game(const char *fen)
{
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	Position p = support_position(fen);
	game_init(g, &p);
	assert_int_equal(g->ply_count, 0);
	return g;
}

typedef enum StepKind { KING_STEP, MAN_STEP, ANY_CAPTURE } StepKind;

/* Whether m has the wanted kind, leads to a position not seen before in
 * the game, and leaves the opponent some move but no capture (so that
 * material and the draw counters change only where the test says). */
static bool suitable(Game *g, Move m, StepKind kind)
{
	const Position *p = game_position(g);
	bool king = (p->kings & bb_square(m.from)) != 0;
	if (kind == ANY_CAPTURE ? !m.captured : (m.captured || king != (kind == KING_STEP)))
		return false;
	Position next;
	position_make(p, m, &next);
	if (movegen_has_capture(&next) || !movegen_has_moves(&next))
		return false;
	assert_true(game_play(g, m));
	bool fresh = game_repetitions(g) == 1;
	assert_true(game_undo(g));
	return fresh;
}

/* The side to move has a suitable king step, and after it the other side
 * has one too, and so on for `depth` plies: the walk cannot run into a
 * corner within that horizon. */
static bool has_line(Game *g, int depth)
{
	if (depth == 0)
		return true;
	MoveList list;
	movegen_generate(game_position(g), &list);
	for (int i = 0; i < list.count; i++) {
		if (!suitable(g, list.moves[i], KING_STEP))
			continue;
		assert_true(game_play(g, list.moves[i]));
		bool ok = game_status(g).result != RESULT_NONE || has_line(g, depth - 1);
		assert_true(game_undo(g));
		if (ok)
			return true;
	}
	return false;
}

/* Plays a random suitable move of the wanted kind after which the walk can
 * go on; false (and nothing played) when there is none. */
static bool try_step(Game *g, Rng *rng, StepKind kind)
{
	MoveList list;
	movegen_generate(game_position(g), &list);
	int start = list.count ? rng_below(rng, list.count) : 0;
	for (int k = 0; k < list.count; k++) {
		Move m = list.moves[(start + k) % list.count];
		if (!suitable(g, m, kind))
			continue;
		int before = g->ply_count;
		assert_true(game_play(g, m));
		assert_int_equal(g->ply_count, before + 1);
		if (game_status(g).result != RESULT_NONE || has_line(g, 3))
			return true;
		assert_true(game_undo(g));
	}
	return false;
}

static bool has_step(Game *g, StepKind kind)
{
	Rng probe = {1};
	if (!try_step(g, &probe, kind))
		return false;
	assert_true(game_undo(g));
	return true;
}

static void step(Game *g, Rng *rng, StepKind kind)
{
	if (try_step(g, rng, kind))
		return;
	char fen[160];
	support_describe(game_position(g), fen, sizeof fen);
	fprintf(stderr, "no suitable move of kind %d in %s\n", kind, fen);
	fail();
}

static void expect_status(const Game *g, GameResult result, GameEndReason reason)
{
	GameStatus s = game_status(g);
	if (s.result != result || s.reason != reason)
		fprintf(stderr, "ply %d: status %d/%d, expected %d/%d\n", g->ply_count, s.result, s.reason,
		        result, reason);
	assert_int_equal(s.result, result);
	assert_int_equal(s.reason, reason);
}

/* After the game has ended no move is accepted and nothing changes. */
static void expect_refused(Game *g)
{
	MoveList list;
	int n = movegen_generate(game_position(g), &list);
	int plies = g->ply_count;
	Position before = *game_position(g);
	assert_false(game_play(g, n > 0 ? list.moves[0] : move_none()));
	assert_int_equal(g->ply_count, plies);
	assert_true(position_equal(game_position(g), &before));
}

/* Kings only move; men stay on their back rows out of reach. */
static const char *const KING_SHUFFLE = "W:W29,30,K26,K27:B3,4,K6,K7";

/* 3.2: 50 plies with no man move and no capture draw, 49 do not. */
static void test_25_move_rule(void **state)
{
	(void)state;
	Rng rng = {1111};
	Game *g = new_game(KING_SHUFFLE);
	for (int i = 1; i <= 49; i++) {
		step(g, &rng, KING_STEP);
		assert_int_equal(game_counters(g)->reversible_plies, i);
		expect_status(g, RESULT_NONE, END_NONE);
	}
	step(g, &rng, KING_STEP);
	assert_int_equal(game_counters(g)->reversible_plies, 50);
	expect_status(g, RESULT_DRAW, END_25_MOVE_RULE);
	expect_refused(g);
	free(g);
}

/* 3.2: a man move starts the count again. */
static void test_25_move_rule_reset_by_a_man_move(void **state)
{
	(void)state;
	Rng rng = {1128};
	Game *g = new_game(KING_SHUFFLE);
	int plies = 0;
	while (plies < 30 || !has_step(g, MAN_STEP)) {
		step(g, &rng, KING_STEP);
		plies++;
		assert_true(plies < 49);
	}
	assert_int_equal(game_counters(g)->reversible_plies, plies);
	step(g, &rng, MAN_STEP);
	assert_int_equal(game_counters(g)->reversible_plies, 0);
	for (int i = 1; i <= 49; i++) {
		step(g, &rng, KING_STEP);
		expect_status(g, RESULT_NONE, END_NONE);
	}
	step(g, &rng, KING_STEP);
	expect_status(g, RESULT_DRAW, END_25_MOVE_RULE);
	free(g);
}

/* 3.2: a capture starts the count again, a king's quiet move adds one. */
static void test_25_move_rule_reset_by_a_capture(void **state)
{
	(void)state;
	Position p = support_position("W:WK29,K30:BK22,K3"), next;
	DrawCounters prev = {37, -1, -1, 0}, out;
	Move capture = support_move(29, 18, bb_square(21));
	position_make(&p, capture, &next);
	game_counters_after(&p, capture, &next, &prev, &out);
	assert_int_equal(out.reversible_plies, 0);

	p = support_position("W:WK29,K30:BK7,K3");
	Move quiet = support_move(30, 26, 0);
	position_make(&p, quiet, &next);
	game_counters_after(&p, quiet, &next, &prev, &out);
	assert_int_equal(out.reversible_plies, 38);

	/* The same through a game: a king's step counts 1, the capture resets. */
	Game *g = new_game("B:W21,K32:BK1,17");
	assert_true(game_play(g, support_move(1, 5, 0)));
	assert_int_equal(game_counters(g)->reversible_plies, 1);
	assert_true(game_play(g, support_move(21, 14, bb_square(16)))); /* 21x14 takes 17 */
	assert_int_equal(game_counters(g)->reversible_plies, 0);
	free(g);
}

/* 3.3: three kings against one, the stronger side to move: drawn after its
 * 13th move, not after its 12th. */
static void test_thirteen_move_count(void **state)
{
	(void)state;
	Rng rng = {1174};
	Game *g = new_game("W:WK29,K30,K31:BK12");
	assert_int_equal(game_counters(g)->thirteen, 0);
	for (int move = 1; move <= 12; move++) {
		step(g, &rng, KING_STEP); /* White's move number `move` */
		assert_int_equal(game_counters(g)->thirteen, move);
		expect_status(g, RESULT_NONE, END_NONE);
		step(g, &rng, KING_STEP); /* Black: does not count */
		assert_int_equal(game_counters(g)->thirteen, move);
		expect_status(g, RESULT_NONE, END_NONE);
	}
	step(g, &rng, KING_STEP);
	assert_int_equal(game_counters(g)->thirteen, 13);
	expect_status(g, RESULT_DRAW, END_THIRTEEN_MOVES);
	expect_refused(g); /* even a 14th move that would capture comes too late */
	free(g);
}

/* 3.3: the lone king to move first: still the stronger side's 13th move. */
static void test_thirteen_move_count_weaker_side_first(void **state)
{
	(void)state;
	Rng rng = {1195};
	Game *g = new_game("B:WK29,K30,K31:BK12");
	step(g, &rng, KING_STEP); /* Black */
	assert_int_equal(game_counters(g)->thirteen, 0);
	for (int move = 1; move <= 12; move++) {
		step(g, &rng, KING_STEP);
		step(g, &rng, KING_STEP);
		expect_status(g, RESULT_NONE, END_NONE);
	}
	assert_int_equal(g->ply_count, 25);
	step(g, &rng, KING_STEP);
	expect_status(g, RESULT_DRAW, END_THIRTEEN_MOVES);
	free(g);
}

/* 3.3: the count starts when the material first appears (here by White's
 * capture of the last man), not earlier, and the capture is not one of the
 * thirteen. The lone king on 4 can never be jumped from its corner. */
static void test_thirteen_move_count_starts_with_the_material(void **state)
{
	(void)state;
	Rng rng = {1215};
	Game *g = new_game("B:WK30,K31,K32:BK4,21");
	assert_int_equal(game_counters(g)->thirteen, -1);
	assert_true(game_play(g, support_move(21, 25, 0))); /* still a man on the board */
	assert_int_equal(game_counters(g)->thirteen, -1);
	step(g, &rng, ANY_CAPTURE); /* 30x21 */
	assert_int_equal(game_counters(g)->thirteen, 0);
	for (int move = 1; move <= 12; move++) {
		step(g, &rng, KING_STEP);
		step(g, &rng, KING_STEP);
		assert_int_equal(game_counters(g)->thirteen, move);
		expect_status(g, RESULT_NONE, END_NONE);
	}
	step(g, &rng, KING_STEP);
	step(g, &rng, KING_STEP);
	expect_status(g, RESULT_DRAW, END_THIRTEEN_MOVES);
	free(g);
}

/* 3.3: not three kings against one: no count (two against one, three kings
 * against a king and a man, four against one). */
static void test_thirteen_needs_exactly_three_kings_against_one(void **state)
{
	(void)state;
	static const char *const others[] = {"W:WK26,K27:BK5", "W:WK26,K27,K28:BK5,1",
	                                     "W:WK26,K27,K28,K25:BK5", "W:WK26,K27,28:BK5"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		Position p = support_position(others[i]);
		DrawCounters c;
		game_counters_start(&p, &c);
		assert_int_equal(c.thirteen, -1);
	}
	Position p = support_position("B:WK5:BK26,K27,K28"); /* Black the stronger */
	DrawCounters c;
	game_counters_start(&p, &c);
	assert_int_equal(c.thirteen, 0);
}

/* 3.4: the third occurrence draws, the second does not. */
static void test_threefold_repetition(void **state)
{
	(void)state;
	Game *g = new_game("W:WK32:BK1");
	static const int cycle[4][2] = {{32, 27}, {1, 6}, {27, 32}, {6, 1}};
	static const int expected[9] = {1, 1, 1, 1, 2, 2, 2, 2, 3};
	assert_int_equal(game_repetitions(g), 1);
	for (int ply = 1; ply <= 8; ply++) {
		const int *mv = cycle[(ply - 1) % 4];
		assert_true(game_play(g, support_move(mv[0], mv[1], 0)));
		assert_int_equal(game_repetitions(g), expected[ply]);
		if (ply < 8)
			expect_status(g, RESULT_NONE, END_NONE);
	}
	expect_status(g, RESULT_DRAW, END_REPETITION);
	expect_refused(g);
	free(g);
}

/* 3.4: same pieces but the other side to move is another position. White
 * loses a tempo with 32-27, 27-23, 23-32 along one diagonal. */
static void test_repetition_needs_the_same_side_to_move(void **state)
{
	(void)state;
	Game *g = new_game("W:WK32:BK1");
	static const int line[][2] = {{32, 27}, {1, 6}, {27, 23}, {6, 1}, {23, 32}};
	for (size_t i = 0; i < sizeof line / sizeof line[0]; i++)
		assert_true(game_play(g, support_move(line[i][0], line[i][1], 0)));
	Position start = support_position("W:WK32:BK1");
	assert_true(game_position(g)->pieces[WHITE] == start.pieces[WHITE] &&
	            game_position(g)->pieces[BLACK] == start.pieces[BLACK]);
	assert_int_equal(game_repetitions(g), 1);
	free(g);
}

/* Section 3: the side to move with no legal move loses. */
static void test_no_legal_move_loses(void **state)
{
	(void)state;
	Game *g = new_game("B:W17,22:B13"); /* Black blocked */
	expect_status(g, RESULT_WHITE_WINS, END_NO_MOVES);
	expect_refused(g);
	free(g);
	g = new_game("W:WK29:B25,22"); /* White blocked */
	expect_status(g, RESULT_BLACK_WINS, END_NO_MOVES);
	free(g);
	g = new_game("W:W22:B18"); /* the last piece is taken */
	expect_status(g, RESULT_NONE, END_NONE);
	assert_true(game_play(g, support_move(22, 15, bb_square(17))));
	expect_status(g, RESULT_WHITE_WINS, END_NO_MOVES);
	expect_refused(g);
	free(g);
	g = new_game("B:W27:B23"); /* Black takes White's last piece */
	assert_true(game_play(g, support_move(23, 32, bb_square(26))));
	expect_status(g, RESULT_BLACK_WINS, END_NO_MOVES);
	free(g);
}

/* Undo gives back the position and counters exactly, back to the start. */
static void test_undo_restores_counters(void **state)
{
	(void)state;
	Rng rng = {1315};
	Game *g = new_game(KING_SHUFFLE);
	static Position positions[40];
	static DrawCounters counters[40];
	for (int i = 0; i < 30; i++) {
		positions[i] = *game_position(g);
		counters[i] = *game_counters(g);
		step(g, &rng, (i > 10 && has_step(g, MAN_STEP)) ? MAN_STEP : KING_STEP);
	}
	assert_true(game_counters(g)->reversible_plies < 19); /* a man moved */
	for (int i = 29; i >= 0; i--) {
		assert_true(game_undo(g));
		assert_int_equal(g->ply_count, i);
		assert_true(position_equal(game_position(g), &positions[i]));
		assert_true(game_position(g)->key == positions[i].key);
		assert_int_equal(game_counters(g)->reversible_plies, counters[i].reversible_plies);
		assert_int_equal(game_counters(g)->thirteen, counters[i].thirteen);
	}
	assert_false(game_undo(g));
	free(g);

	/* Undoing the move that ended the game opens it again. */
	g = new_game("W:WK29,K30,K31:BK12");
	for (int i = 0; i < 25; i++)
		step(g, &rng, KING_STEP);
	expect_status(g, RESULT_DRAW, END_THIRTEEN_MOVES);
	assert_true(game_undo(g));
	assert_int_equal(game_counters(g)->thirteen, 12);
	expect_status(g, RESULT_NONE, END_NONE);
	step(g, &rng, KING_STEP);
	expect_status(g, RESULT_DRAW, END_THIRTEEN_MOVES);
	free(g);
}

/* A random level start is exactly what it promises when it says true: the
 * plies were played, the game goes on, material is level and no capture is
 * pending; the same seed gives the same start. */
static void test_random_level_start(void **state)
{
	(void)state;
	static Game g, again;
	Position start;
	position_start(&start);
	int accepted = 0, refused = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		uint64_t rng = seed, rng2 = seed;
		bool ok = game_random_level_start(&g, &start, 8, &rng);
		assert_int_equal(game_random_level_start(&again, &start, 8, &rng2), ok);
		assert_int_equal(rng, rng2);
		assert_true(position_equal(game_position(&g), game_position(&again)));
		if (!ok) {
			refused++;
			continue;
		}
		accepted++;
		const Position *p = game_position(&g);
		assert_int_equal(g.ply_count, 8);
		assert_int_equal(game_status(&g).result, RESULT_NONE);
		assert_int_equal(bb_count(p->pieces[BLACK]), bb_count(p->pieces[WHITE]));
		assert_false(movegen_has_capture(p));
	}
	assert_true(accepted > 0 && refused > 0); /* both answers occur */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_random_level_start),
	    cmocka_unit_test(test_25_move_rule),
	    cmocka_unit_test(test_25_move_rule_reset_by_a_man_move),
	    cmocka_unit_test(test_25_move_rule_reset_by_a_capture),
	    cmocka_unit_test(test_thirteen_move_count),
	    cmocka_unit_test(test_thirteen_move_count_weaker_side_first),
	    cmocka_unit_test(test_thirteen_move_count_starts_with_the_material),
	    cmocka_unit_test(test_thirteen_needs_exactly_three_kings_against_one),
	    cmocka_unit_test(test_threefold_repetition),
	    cmocka_unit_test(test_repetition_needs_the_same_side_to_move),
	    cmocka_unit_test(test_no_legal_move_loses),
	    cmocka_unit_test(test_undo_restores_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
