/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Evaluation: colour symmetry, material order, terms pulling the right way, drawn endings. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "poolshark/eval.h"
#include "poolshark/kings_plan.h"
#include "poolshark/movegen.h"
#include "support/support.h"

/* cmocka's assert_in_range is unsigned; scores are not. */
static void assert_between(int value, int low, int high)
{
	if (value < low || value > high)
		fail_msg("%d is not within %d..%d", value, low, high);
}

static int eval_of(const char *text)
{
	Position p = support_position(text);
	return eval_evaluate(&p, &eval_default_weights);
}

/* Square n seen from the other side of the board (a 180-degree turn). */
static Bitboard turned(Bitboard b)
{
	Bitboard out = 0;
	for (int s = 0; s < 32; s++)
		if (b & bb_square(s))
			out |= bb_square(31 - s);
	return out;
}

/* Swapping the colours and turning the board, side to move included,
 * gives the same position for the other side: the same score. */
static void test_colour_symmetry(void **state)
{
	(void)state;
	Rng r = {2024};
	for (int i = 0; i < 5000; i++) {
		Position p, q;
		support_random_position(&r, 12, 3, &p);
		position_set(&q, turned(p.pieces[WHITE]), turned(p.pieces[BLACK]), turned(p.kings),
		             color_other(p.side));
		int a = eval_evaluate(&p, &eval_default_weights);
		int b = eval_evaluate(&q, &eval_default_weights);
		assert_int_equal(a, b);
		assert_true(a < EVAL_LIMIT && a > -EVAL_LIMIT);
	}
}

/* The side to move's view: the same board with the other side to move
 * scores about the opposite (the tempo bonus apart). */
static void test_side_to_move_view(void **state)
{
	(void)state;
	int black = eval_of("B:W21,22,23,24,25,26,27,28:B1,2,3,4,5,6,7,8,9,10,11,12");
	int white = eval_of("W:W21,22,23,24,25,26,27,28:B1,2,3,4,5,6,7,8,9,10,11,12");
	assert_true(black > 300);
	assert_true(white < -300);
	assert_between(black + white, 0, 2 * eval_default_weights.tempo);
}

/* An extra man is worth more than any positional difference here, and a
 * king more than a man. */
static void test_material_order(void **state)
{
	(void)state;
	int even = eval_of("B:W22,23,26,27:B6,7,10,11");
	int man_up = eval_of("B:W22,23,26,27:B6,7,10,11,2");
	int king_up = eval_of("B:W22,23,26,27:B6,7,10,11,K2");
	assert_true(man_up > even + 60);
	assert_true(king_up > man_up + 100);
}

/* Men nearer the crowning row are worth more; a runaway man more still. */
static void test_advancement_and_runaway(void **state)
{
	(void)state;
	/* White 25 and 17 are neither backed nor on an edge, and both have
	 * two steps: only the rows differ. */
	int back = eval_of("W:W25,30:B5,K1");
	int forward = eval_of("W:W17,30:B5,K1");
	assert_true(forward > back);
	/* Black man 18 walks in freely when nothing is in front of it, but
	 * not when a White man blocks its path. */
	int free_path = eval_of("W:W21:B1,18");
	int blocked = eval_of("W:W27:B1,18");
	assert_true(blocked > free_path + 30);
}

/* A man on its back row guards the crowning squares while the other side
 * has no king. */
static void test_back_row_guard(void **state)
{
	(void)state;
	int guarding = eval_of("W:W22,23,24:B2,10,11");
	int gone = eval_of("W:W22,23,24:B6,10,11");
	/* 6 is one row further (advancement bonus) but the guard is larger. */
	assert_true(gone > guarding);
}

/* A king with room beats a king boxed in a corner. */
static void test_king_mobility_and_trapped_king(void **state)
{
	(void)state;
	int free_king = eval_of("B:WK18,9,14,10,11:B1,2,3,4,K22");
	int boxed_king = eval_of("B:WK5,9,14,10,11:B1,2,3,4,K22");
	assert_true(free_king < boxed_king - 20);
}

/* Weights that score one term only, one point per unit. */
static EvalWeights only(size_t offset)
{
	EvalWeights w = {0};
	*(int *)((char *)&w + offset) = 1;
	return w;
}

/* Men's mobility counts every quiet step a man could make, for each side. */
static void test_man_mobility(void **state)
{
	(void)state;
	EvalWeights w = only(offsetof(EvalWeights, man_mobility));
	Position p = support_position("B:W13,14:B1,5,9,10");
	/* Black 1: 5 taken, 6 free; 5 (edge): 9 taken; 9: 13 and 14 taken;
	 * 10: 14 taken, 15 free. White 13 (edge): 9 taken; 14: 9 and 10 taken. */
	assert_int_equal(eval_evaluate(&p, &w), 2);
	p.side = WHITE;
	assert_int_equal(eval_evaluate(&p, &w), -2);
	/* Black 1 steps to 5 or 6; White 29, on the edge, only to 25. */
	p = support_position("B:W29:B1");
	assert_int_equal(eval_evaluate(&p, &w), 2 - 1);
}

/* A man is backed when no piece can jump it from the front: both squares
 * behind it hold its own pieces or lie off the board. */
static void test_backed_men(void **state)
{
	(void)state;
	EvalWeights w = only(offsetof(EvalWeights, man_backed));
	/* Black 1-4 are on their back row: backed. Black 10 has 6 and 7
	 * behind it; Black 15 has 10 but not 11 behind it. */
	Position p = support_position("B:W32:B1,2,3,4,6,7,10,15");
	/* 1, 2, 3, 4 (back row), 10 (6 and 7), 6 (1 and 2), 7 (2 and 3);
	 * 15 has 11 empty. White 32 is on its own back row. */
	assert_int_equal(eval_evaluate(&p, &w), 7 - 1);
	/* A man on the side edge has only one square behind it. */
	p = support_position("B:W32:B5,1");
	assert_int_equal(eval_evaluate(&p, &w), 2 - 1);
	p = support_position("B:W32:B13");
	assert_int_equal(eval_evaluate(&p, &w), 0 - 1);
}

/* Balance counts the difference between a side's men on columns a-d and
 * on columns e-h, whichever half holds more. */
static void test_balance(void **state)
{
	(void)state;
	EvalWeights w = only(offsetof(EvalWeights, man_balance));
	/* Black: 1, 5, 6, 9 on the left (columns b, a, c, b), 8 on the right
	 * (g): 4 - 1. White: 24 and 32 (both g) on the right: 2. Kings do not
	 * count. */
	Position p = support_position("B:W24,32,K21:B1,5,6,8,9,K12");
	assert_int_equal(eval_evaluate(&p, &w), 3 - 2);
	p = support_position("B:W24,21:B1,4");
	assert_int_equal(eval_evaluate(&p, &w), 0);
}

/* Flying-king endings that cannot be won score near 0; 3 kings against 1
 * off the long diagonal keep their value. */
static void test_drawn_king_endings(void **state)
{
	(void)state;
	assert_between(eval_of("W:WK1,K10:BK27"), -20, 20);
	assert_between(eval_of("W:WK1:BK27"), -20, 20);
	assert_between(eval_of("W:WK1,K10,K17:BK22,K27"), -30, 30);
	int holds_diagonal = eval_of("W:WK1,K10,K17:BK22");
	int off_diagonal = eval_of("W:WK1,K10,K17:BK21");
	assert_between(holds_diagonal, -60, 60);
	assert_true(off_diagonal > 300);
	Position p = support_position("W:WK1,K10:BK27");
	assert_int_equal(eval_draw_scale(&p, &eval_default_weights), eval_default_weights.drawn_scale);
	p = support_position("W:W21,22,23:B1,2,3");
	assert_int_equal(eval_draw_scale(&p, &eval_default_weights), 16);
}

/* Short kings (English, Italian) hold none of the flying king's
 * fortresses: two kings beat one, k + 1 kings beat k, three beat one on
 * the long diagonal, and an edge of a man in the ending is kept whole. The
 * same positions stay scaled under flying kings. */
static void test_short_king_endings_are_not_drawn(void **state)
{
	(void)state;
	const char *endings[] = {
	    "W:WK1,K10:BK27",         /* two kings against one */
	    "W:WK1,K10,K17:BK22,K27", /* three against two */
	    "W:WK1,K10,K17:BK22",     /* three against one on the long diagonal */
	    "W:W20,K10:BK27",         /* a king and a man against a king */
	    "W:W20,21,K10:B5,K27",    /* a man up, few pieces */
	};
	for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
		Position p = support_position(endings[i]);
		for (int v = 0; v < VARIANT_COUNT; v++) {
			p.variant = (uint8_t)v;
			int scale = eval_draw_scale(&p, eval_weights_for((Variant)v));
			if (variant_rules((Variant)v)->kings_fly ? scale == 16 : scale != 16)
				fail_msg("%s in %s: scale %d", endings[i], variant_rules((Variant)v)->name,
				         scale);
		}
	}
	/* White, to move, is a king up: it wins with short kings, not with
	 * flying ones. */
	Position p = support_position("W:WK1,K10:BK27");
	for (Variant v = VARIANT_ENGLISH; v <= VARIANT_ITALIAN; v++) {
		p.variant = (uint8_t)v;
		assert_true(eval_evaluate(&p, eval_weights_for(v)) > 100);
	}
	p.variant = VARIANT_RUSSIAN;
	assert_between(eval_evaluate(&p, eval_weights_for(VARIANT_RUSSIAN)), -20, 20);
}

/* A king's mobility is the quiet moves it has under the position's rules:
 * whole diagonals for a flying king, one step each way for a short one,
 * as the move generator counts them. */
static void test_king_mobility_follows_the_rules(void **state)
{
	(void)state;
	EvalWeights w = only(offsetof(EvalWeights, king_mobility));
	int short_total = 0, flying_total = 0;
	for (int s = 0; s < 32; s++) {
		Bitboard men = bb_square(13) | bb_square(22) | bb_square(26);
		if (men & bb_square(s))
			continue;
		Position p;
		position_set(&p, bb_square(s), men, bb_square(s), BLACK);
		for (int v = 0; v < VARIANT_COUNT; v++) {
			p.variant = (uint8_t)v;
			if (movegen_has_capture(&p))
				continue;
			int moves = movegen_count(&p);
			assert_int_equal(eval_evaluate(&p, &w), moves);
			if (v == VARIANT_POOL)
				flying_total += moves;
			if (v == VARIANT_ENGLISH)
				short_total += moves;
		}
	}
	assert_true(short_total > 0 && flying_total > short_total);
}

/* The endings the search takes away from the network: five pieces or
 * fewer, the side ahead in pieces with kings only, the other with a king
 * (and maybe men), in every rule set; and, in Russian and Brazilian, two
 * kings and a man against a lone king. */
static void test_kings_endings_are_recognised(void **state)
{
	(void)state;
	const char *kings_endings[] = {"W:WK1,K10,K17:BK21",   "B:WK1,K10:BK27",       "W:WK1:BK27,K3",
	                               "B:WK1,K2,K3,K4:BK30",  "W:WK1,K2,K3:BK29,K30", "W:WK1,K10,K17:B5,K21",
	                               "B:W28,K12:BK6,K18,K29"};
	const char *others[] = {
	    "W:WK1:BK27",              /* level */
	    "W:WK1,K10:BK27,K22",      /* level */
	    "W:WK1,K10,K17:B21",       /* a man alone on the weaker side */
	    "W:WK1,K10,K17:B5,21",     /* men without a king on the weaker side */
	    "W:W1,K10,K17:BK21",       /* a man on the stronger side */
	    "W:W14,K10,K17:B5,K21",    /* a man on the stronger side */
	    "W:WK1,K2,K3,K4:BK29,K30", /* six pieces */
	};
	for (size_t i = 0; i < sizeof kings_endings / sizeof *kings_endings; i++) {
		Position p = support_position(kings_endings[i]);
		if (!eval_is_kings_ending(&p))
			fail_msg("%s is a kings ending", kings_endings[i]);
		for (int v = VARIANT_RUSSIAN; v <= VARIANT_BRAZILIAN; v++) {
			p.variant = (uint8_t)v;
			if (!eval_is_kings_ending(&p))
				fail_msg("%s is a kings ending in %s too", kings_endings[i],
				         variant_rules((Variant)v)->name);
		}
	}
	for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
		Position p = support_position(others[i]);
		bool kings_man = i == 4; /* W:W1,K10,K17:BK21 */
		for (int v = VARIANT_POOL; v <= VARIANT_BRAZILIAN; v++) {
			p.variant = (uint8_t)v;
			if (eval_is_kings_ending(&p) != (kings_man && v != VARIANT_POOL))
				fail_msg("%s in %s: %s", others[i], variant_rules((Variant)v)->name,
				         kings_man && v != VARIANT_POOL ? "two kings and a man against one"
				                                        : "not a kings ending");
		}
	}
	/* The plan of two kings and a man acts in Russian, not in pool: from
	 * the stronger side's view, a man nearer its crowning row with the
	 * lone king on the same side scores as the databases say it stands. */
	Position man = support_position("W:W14,K10,K17:BK21");
	assert_int_equal(kings_man_plan_bonus(&man, WHITE, &kings_man_plan_weights) != 0, true);
	man.variant = VARIANT_RUSSIAN;
	int russian = eval_kings_ending(&man, eval_weights_for(VARIANT_RUSSIAN));
	int classic = 2 * eval_evaluate(&man, eval_weights_for(VARIANT_RUSSIAN));
	assert_int_equal(russian - classic, kings_man_plan_bonus(&man, WHITE, &kings_man_plan_weights));
}

static bool on_squares(Bitboard b, const int *squares, int count)
{
	for (int i = 0; i < count; i++)
		if (b & bb_square(squares[i] - 1))
			return true;
	return false;
}

/* Three kings against one: the value is twice the classic evaluation plus
 * the stronger side's plan, the compiled-in weights summed here from the
 * squares themselves (the lone king's, each strong king's with it, the
 * diagonals held, and the lone king's moves counted by the move generator,
 * at most 13) less the centre; none of it while the lone king holds the
 * long diagonal. Other kings endings are twice the classic evaluation. */
static void test_three_kings_against_one_have_a_plan(void **state)
{
	(void)state;
	static const int long_diagonal[] = {4, 8, 11, 15, 18, 22, 25, 29};
	static const int low_double[] = {1, 6, 10, 15, 19, 24, 28};
	static const int high_double[] = {5, 9, 14, 18, 23, 27, 32};
	const EvalWeights *w = &eval_default_weights;
	const KingsPlanWeights *k = &kings_plan_weights;
	Rng r = {1903};
	int with_plan = 0, held = 0;
	for (int n = 0; n < 4000; n++) {
		Bitboard strong, lone;
		support_random_three_kings_against_one(&r, &strong, &lone);
		Color strong_side = rng_below(&r, 2) ? BLACK : WHITE;
		Position lone_to_move;
		if (strong_side == BLACK)
			position_set(&lone_to_move, strong, lone, strong | lone, WHITE);
		else
			position_set(&lone_to_move, lone, strong, strong | lone, BLACK);
		if (movegen_has_capture(&lone_to_move))
			continue; /* its moves are captures: not what the plan counts */
		Position strong_to_move = lone_to_move;
		strong_to_move.side = strong_side;
		strong_to_move.key = position_compute_key(&strong_to_move);
		assert_true(eval_is_kings_ending(&lone_to_move));

		int plan = 0;
		if (on_squares(lone, long_diagonal, 8)) {
			held++;
		} else {
			with_plan++;
			int l = bb_lowest(lone), moves = movegen_count(&lone_to_move);
			plan = k->lone[l] + k->mobility[moves > 13 ? 13 : moves] - k->centre +
			       (on_squares(strong, long_diagonal, 8) ? k->diagonal[0] : 0) +
			       (on_squares(strong, low_double, 7) ? k->diagonal[1] : 0) +
			       (on_squares(strong, high_double, 7) ? k->diagonal[2] : 0);
			for (int s = 0; s < 32; s++)
				plan += strong & bb_square(s) ? k->pair[l][s] : 0;
		}
		assert_int_equal(eval_kings_ending(&strong_to_move, w),
		                 2 * eval_evaluate(&strong_to_move, w) + plan);
		assert_int_equal(eval_kings_ending(&lone_to_move, w),
		                 2 * eval_evaluate(&lone_to_move, w) - plan);
	}
	assert_true(with_plan > 1000 && held > 300);

	Position two_against_one = support_position("W:WK1,K10:BK27");
	assert_int_equal(eval_kings_ending(&two_against_one, w), 2 * eval_evaluate(&two_against_one, w));
	Position four_against_one = support_position("B:WK1,K10,K17,K22:BK27");
	assert_int_equal(eval_kings_ending(&four_against_one, w), 2 * eval_evaluate(&four_against_one, w));

	/* The plan hunts a flying king: short kings have none. */
	Position off_diagonal = support_position("W:WK1,K10,K17:BK21");
	assert_int_not_equal(eval_kings_ending(&off_diagonal, w), 2 * eval_evaluate(&off_diagonal, w));
	for (Variant v = VARIANT_ENGLISH; v <= VARIANT_ITALIAN; v++) {
		off_diagonal.variant = (uint8_t)v;
		assert_true(eval_is_kings_ending(&off_diagonal));
		assert_int_equal(eval_kings_ending(&off_diagonal, eval_weights_for(v)),
		                 2 * eval_evaluate(&off_diagonal, eval_weights_for(v)));
	}
}

/* Pool plays with eval_default_weights; every variant's table lies within
 * the ranges the tuner fits in (eval_fields), man advancement rising row by
 * row and the runaway bonus positive on every row it is paid. */
static void test_weights_per_variant(void **state)
{
	(void)state;
	assert_ptr_equal(eval_weights_for(VARIANT_POOL), &eval_default_weights);
	for (int v = 0; v < VARIANT_COUNT; v++) {
		const EvalWeights *w = eval_weights_for((Variant)v);
		assert_non_null(w);
		for (int f = 0; f < EVAL_FIELD_COUNT; f++) {
			const int *value = (const int *)((const char *)w + eval_fields[f].offset);
			for (int i = 0; i < eval_fields[f].length; i++)
				if (value[i] < eval_fields[f].tune_low || value[i] > eval_fields[f].tune_high)
					fail_msg("%s: %s[%d] = %d", variant_rules((Variant)v)->name,
					         eval_fields[f].name, i, value[i]);
		}
		assert_int_equal(w->man_row[0], 0);
		for (int row = 1; row < 7; row++)
			assert_true(w->man_row[row] > w->man_row[row - 1]);
		assert_true(w->runaway - 5 * w->runaway_per_row > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_colour_symmetry),
	    cmocka_unit_test(test_side_to_move_view),
	    cmocka_unit_test(test_material_order),
	    cmocka_unit_test(test_advancement_and_runaway),
	    cmocka_unit_test(test_back_row_guard),
	    cmocka_unit_test(test_king_mobility_and_trapped_king),
	    cmocka_unit_test(test_drawn_king_endings),
	    cmocka_unit_test(test_short_king_endings_are_not_drawn),
	    cmocka_unit_test(test_king_mobility_follows_the_rules),
	    cmocka_unit_test(test_kings_endings_are_recognised),
	    cmocka_unit_test(test_three_kings_against_one_have_a_plan),
	    cmocka_unit_test(test_weights_per_variant),
	    cmocka_unit_test(test_man_mobility),
	    cmocka_unit_test(test_backed_men),
	    cmocka_unit_test(test_balance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
