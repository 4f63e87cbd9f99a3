/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Move generator: the worked examples of RULES.md 5 and the API contracts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "poolshark/movegen.h"
#include "poolshark/position.h"
#include "rules/capture_walk.h"
#include "support/support.h"

/*
 * Expected sets below are written from the rules as (from, to, captured) in
 * Hub form; the path of RULES.md's table is in the comment. Each check also
 * runs the reference generator (support_check_moves).
 */

/* 5.1, rule 10: 9x2x11, through the far row in the middle of a capture. */
static void test_example_no_crowning_mid_capture(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W9:B6,7", "9x11x6x7"));
	Position p = support_position("W:W9:B6,7"), next;
	MoveList list;
	movegen_generate(&p, &list);
	position_make(&p, list.moves[0], &next);
	/* It ends on 11 as a man: nothing crowned on the way over 2. */
	assert_int_equal(next.kings, 0);
	assert_int_equal(next.pieces[WHITE], bb_square(10));
	assert_int_equal(next.pieces[BLACK], 0);
}

/* 5.2, rule 6: the king must land on 15, the only square that continues. */
static void test_example_landing_priority(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK29:B25,19", "29x24x25x19 29x28x25x19"));
}

/* 5.3, rule 9: free choice between one piece (22x13) and two (22x15x8). */
static void test_example_free_choice(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22:B17,18,11", "22x13x17 22x8x18x11"));
}

/* 5.4, rule 11: 8x29 via 18 or via 22 is one move. */
static void test_example_one_identity_two_paths(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK8:B15,25", "8x29x15x25"));
}

/* 5.5, rule 7: after 10x28 the dead man on 24 blocks the way back to 6. */
static void test_example_turkish_block(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK3,K10:BK6,24", "10x1x6 10x28x24"));
}

/* 5.6, rules 8 and 11: 22x11x20x31x22 takes four and ends on its own square;
 * the loop the other way round (22x31x20x11x22) is the same move. */
static void test_example_back_to_origin(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W7,9,K22,23:B16,K18,24,26",
	                                "23x14x18 23x30x26 22x28x18x24 22x22x16x18x24x26 "
	                                "22x17x16x18x24x26 22x13x16x18x24x26 "
	                                "22x25x16x18x24x26 22x29x16x18x24x26"));
}

/* 5.7, rules 3 and 10: 23x30x21 jumps backward from the far row as a man. */
static void test_example_man_backward_from_far_row(void **state)
{
	(void)state;
	assert_true(support_check_moves("B:W6,25,26,K4:B1,23", "1x10x6 23x21x25x26"));
	Position p = support_position("B:W6,25,26,K4:B1,23"), next;
	Move m = support_move(23, 21, bb_square(24) | bb_square(25));
	position_make(&p, m, &next);
	assert_true((next.pieces[BLACK] & bb_square(20)) != 0);
	assert_int_equal(next.kings & bb_square(20), 0); /* still a man */
	assert_int_equal(position_validate(&next), POSITION_OK);
}

/* The start position: Black's seven steps. */
static void test_start_position(void **state)
{
	(void)state;
	assert_true(support_check_moves("B:W21,22,23,24,25,26,27,28,29,30,31,32:"
	                                "B1,2,3,4,5,6,7,8,9,10,11,12",
	                                "9-13 9-14 10-14 10-15 11-15 11-16 12-16"));
	Position a, b = support_position("B:W21,22,23,24,25,26,27,28,29,30,31,32:"
	                                 "B1,2,3,4,5,6,7,8,9,10,11,12");
	position_start(&a);
	assert_true(position_equal(&a, &b));
	assert_true(a.key == b.key);
}

/*
 * The contracts that tie the entry points together, on positions from random
 * play and random king setups: count == generate, has_capture == "the list
 * holds captures", captures() == the list or nothing, has_moves == count > 0,
 * count_replies() == the counts of the successors summed, and every
 * successor keeps its incremental key equal to the computed one and passes
 * position_validate().
 */
static void check_contracts(const Position *p)
{
	MoveList list, caps;
	int n = movegen_generate(p, &list);
	assert_int_equal(n, list.count);
	assert_int_equal(movegen_count(p), n);
	assert_int_equal(movegen_has_moves(p), n > 0);
	bool any_capture = false, all_capture = true;
	for (int i = 0; i < n; i++) {
		any_capture = any_capture || move_is_capture(list.moves[i]);
		all_capture = all_capture && move_is_capture(list.moves[i]);
	}
	assert_true(!any_capture || all_capture); /* never mixed (rule 2.9) */
	assert_int_equal(movegen_has_capture(p), any_capture);
	int c = movegen_captures(p, &caps);
	assert_int_equal(c, caps.count);
	if (any_capture)
		assert_true(support_same_moves(caps.moves, c, list.moves, n));
	else
		assert_int_equal(c, 0);
	uint64_t replies = 0;
	for (int i = 0; i < n; i++) {
		Move m = list.moves[i];
		Position next, inplace = *p;
		assert_true((p->pieces[p->side] & bb_square(m.from)) != 0);
		assert_int_equal(m.captured & p->pieces[p->side], 0);
		assert_int_equal(m.captured & ~p->pieces[color_other(p->side)], 0);
		position_make(p, m, &next);
		assert_true(next.key == position_compute_key(&next));
		assert_int_equal(position_validate(&next), POSITION_OK);
		assert_int_equal(next.side, color_other(p->side));
		assert_int_equal(bb_count(next.pieces[color_other(p->side)]),
		                 bb_count(p->pieces[color_other(p->side)]) - bb_count(m.captured));
		position_make(&inplace, m, &inplace); /* out may equal p */
		assert_true(position_equal(&inplace, &next) && inplace.key == next.key);
		replies += (uint64_t)movegen_count(&next);
	}
	assert_int_equal(movegen_count_replies(p), replies);
}

static void test_contracts_on_random_play(void **state)
{
	(void)state;
	Rng rng = {2024};
	Position start, p;
	position_start(&start);
	for (int game = 0; game < 200; game++) {
		p = start;
		MoveList list;
		for (int ply = 0; ply < 200; ply++) {
			check_contracts(&p);
			if (movegen_generate(&p, &list) == 0)
				break;
			position_make(&p, list.moves[rng_below(&rng, list.count)], &p);
		}
	}
}

static void test_contracts_on_king_setups(void **state)
{
	(void)state;
	Rng rng = {4711};
	for (int i = 0; i < 3000; i++) {
		Position p;
		support_random_position(&rng, 8, 5, &p);
		assert_int_equal(position_validate(&p), POSITION_OK);
		check_contracts(&p);
	}
}

/*
 * Men-only setups crowded enough for multi-jumps, jumps onto the far row and
 * several men jumping to one square: movegen_count() counts single jumps
 * without walking them and must agree with the full generation and the
 * reference generator, move set by move set.
 */
static void test_count_of_men_captures(void **state)
{
	(void)state;
	Rng rng = {777};
	int with_captures = 0, multi = 0;
	for (int i = 0; i < 20000; i++) {
		Position p;
		support_random_position(&rng, 12, 0, &p);
		check_contracts(&p);
		MoveList list;
		int n = movegen_captures(&p, &list);
		with_captures += n > 0;
		for (int k = 0; k < n; k++)
			if (bb_count(list.moves[k].captured) > 1) {
				multi++;
				break;
			}
		if (i % 10 == 0)
			assert_true(support_check_against_reference(&p, "men-only setup"));
	}
	fprintf(stderr, "  men-only setups: %d with captures, %d with multi-jumps\n", with_captures, multi);
	assert_true(with_captures > 5000 && multi > 1000);
}

/* Square by square, what a king of this kind on s sees along d: a flying
 * king every square up to and including the first piece, a short king the
 * next square. */
static Bitboard seen_by_walking(KingKind kind, int s, Direction d, Bitboard occupied)
{
	Bitboard seen = 0;
	for (Bitboard t = bitboard_neighbors[d][s]; t; t = bitboard_neighbors[d][bb_lowest(t)]) {
		seen |= t;
		if ((t & occupied) || kind == KING_SHORT)
			break;
	}
	return seen;
}

/*
 * Both kinds of king (capture_walk.h) on random boards against walks square
 * by square: the first piece and the empty squares along each direction,
 * the quiet targets, and the directions in which the king captures (the
 * first piece is a victim with an empty square behind it), which
 * king_capture_dirs() reads off the men's jump squares for either kind.
 */
static void test_king_kinds(void **state)
{
	(void)state;
	static const KingKind kinds[] = {KING_FLYING, KING_SHORT};
	Rng rng = {1853};
	int capturing[2] = {0, 0};
	for (int i = 0; i < 20000; i++) {
		int s = rng_below(&rng, 32);
		Bitboard occupied = ((Bitboard)rng_next(&rng) & (Bitboard)rng_next(&rng)) | bb_square(s);
		Bitboard victims = occupied & (Bitboard)rng_next(&rng) & ~bb_square(s);
		JumpSquares j = jump_squares(victims, ~occupied);
		for (int k = 0; k < 2; k++) {
			KingKind kind = kinds[k];
			Bitboard want_targets = 0, targets = 0;
			unsigned want_dirs = 0;
			for (int d = 0; d < DIR_COUNT; d++) {
				Bitboard seen = seen_by_walking(kind, s, (Direction)d, occupied),
				         first = seen & occupied;
				assert_int_equal(king_first_piece(kind, s, (Direction)d, occupied), first);
				assert_int_equal(king_reach(kind, s, (Direction)d, occupied),
				                 seen & ~occupied);
				want_targets |= seen & ~occupied;
				if ((first & victims) &&
				    (bitboard_neighbors[d][bb_lowest(first)] & ~occupied))
					want_dirs |= 1u << d;
			}
			assert_int_equal(king_capture_dirs(kind, s, occupied, &j, &targets), want_dirs);
			assert_int_equal(targets, want_targets);
			assert_int_equal(king_quiet_targets(kind, s, occupied), want_targets);
			capturing[k] += want_dirs != 0;
		}
	}
	fprintf(stderr, "  king kinds: %d flying and %d short kings capture\n", capturing[0], capturing[1]);
	assert_true(capturing[0] > 2000 && capturing[1] > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_example_no_crowning_mid_capture),
	    cmocka_unit_test(test_example_landing_priority),
	    cmocka_unit_test(test_example_free_choice),
	    cmocka_unit_test(test_example_one_identity_two_paths),
	    cmocka_unit_test(test_example_turkish_block),
	    cmocka_unit_test(test_example_back_to_origin),
	    cmocka_unit_test(test_example_man_backward_from_far_row),
	    cmocka_unit_test(test_start_position),
	    cmocka_unit_test(test_contracts_on_random_play),
	    cmocka_unit_test(test_contracts_on_king_setups),
	    cmocka_unit_test(test_count_of_men_captures),
	    cmocka_unit_test(test_king_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
