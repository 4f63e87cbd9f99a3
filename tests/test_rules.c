/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One test (or more) per rule of RULES.md sections 2 and 3, hand-made positions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "poolshark/movegen.h"
#include "poolshark/position.h"
#include "support/support.h"

/*
 * Every expected set is written from the rules, in Hub form
 * (from x to x captured...), and checked against movegen and the reference
 * generator. Comments give the path where it matters. A generator that broke
 * the rule named by the test would list a different set.
 */

/* The successor after the move (from, to, captured squares...) given in Hub
 * form; fails the test unless movegen lists that move. */
static Position after(const char *fen, const char *move_text)
{
	Position p = support_position(fen), next;
	Move m;
	MoveList list;
	assert_int_equal(support_parse_moves(move_text, &m, 1), 1);
	movegen_generate(&p, &list);
	bool found = false;
	for (int i = 0; i < list.count; i++)
		found = found || move_equal(list.moves[i], m);
	assert_true(found);
	position_make(&p, m, &next);
	assert_true(next.key == position_compute_key(&next));
	assert_int_equal(position_validate(&next), POSITION_OK);
	return next;
}

/* The checker itself must be able to fail, or every test below proves nothing. */
static void test_checker_detects_wrong_sets(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22:B18", "22x15x18"));
	fprintf(stderr, "(the mismatch reports below are expected)\n");
	assert_false(support_check_moves("W:W22:B18", "22x15x18 22-17"));  /* one too many */
	assert_false(support_check_moves("W:W22:B18", "22-17 22-18"));     /* wrong kind */
	assert_false(support_check_moves("W:WK29:B25,19", "29x24x25x19")); /* one missing */
	assert_false(support_check_moves("W:WK8:B15,25", "8x29x15x25 8x29x15x25"));
}

/* 2.1: a man steps one square diagonally forward, onto an empty square. */
static void test_man_steps_forward(void **state)
{
	(void)state;
	assert_true(support_check_moves("B:W32:B14", "14-17 14-18"));
	assert_true(support_check_moves("W:W22:B1", "22-17 22-18"));
	assert_true(support_check_moves("W:W21:B1", "21-17"));                 /* edge */
	assert_true(support_check_moves("B:W32:B14,17", "14-18 17-21 17-22")); /* own piece */
	assert_true(support_check_moves("W:W22,18:B1", "22-17 18-14 18-15"));
}

/* 2.1: never backward without a capture: 6 has both forward squares taken
 * by men on the edge row (nothing to jump to) and two empty squares behind. */
static void test_man_never_steps_backward(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W6:B1,2", ""));
	assert_true(support_check_moves("B:W9,14:B5", "")); /* 5 may not go back to 1 */
}

/* 2.2: a king flies any distance over empty squares, in all four directions. */
static void test_king_flies(void **state)
{
	(void)state;
	/* 4 sits at the end of the long diagonal: no square behind it, no capture. */
	assert_true(support_check_moves("W:WK22:B4", "22-18 22-15 22-11 22-8 22-17 22-13 "
	                                             "22-25 22-29 22-26 22-31"));
	/* An own piece stops the ray; an enemy piece with no square behind too. */
	assert_true(support_check_moves("W:WK29,K15:B1", "29-25 29-22 29-18 15-11 15-8 15-4 "
	                                                 "15-10 15-6 15-19 15-24 15-28 15-18 "
	                                                 "15-22 15-25"));
}

/* 2.3: men capture forward and backward, men and kings alike. */
static void test_man_captures_forward_and_backward(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22:B18", "22x15x18"));  /* forward */
	assert_true(support_check_moves("W:W15:B19", "15x24x19"));  /* backward */
	assert_true(support_check_moves("B:W15:B19", "19x10x15"));  /* black, backward */
	assert_true(support_check_moves("W:W15:BK19", "15x24x19")); /* a king is taken */
}

/* 2.3: a man jumps only an adjacent piece onto the square just beyond. */
static void test_man_jump_is_short(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22:B15", "22-17 22-18"));         /* not at a distance */
	assert_true(support_check_moves("W:W22:B18,15", "22-17"));            /* landing taken */
	assert_true(support_check_moves("W:W22,18:B1", "22-17 18-14 18-15")); /* not own pieces */
}

/* 2.4: a king captures at a distance and may land on any empty square beyond,
 * up to the next piece. */
static void test_king_captures_at_a_distance(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK29:B22", "29x18x22 29x15x22 29x11x22 29x8x22 29x4x22"));
	assert_true(support_check_moves("W:WK29,11:B22", "29x18x22 29x15x22"));
	assert_true(support_check_moves("B:W18:BK4", "4x22x18 4x25x18 4x29x18"));
	/* Two pieces in a row cannot be jumped: only the quiet move is left. */
	assert_true(support_check_moves("W:WK29:B22,18", "29-25"));
}

/* 2.5: a capture goes on while it can, and may turn: 27x18x11. */
static void test_capture_sequence_is_completed(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W27:B23,15", "27x11x23x15"));
	/* A king too: 29x15x24 is one move, 29x15 alone is not a move. */
	assert_true(support_check_moves("W:WK29:B25,19", "29x24x25x19 29x28x25x19"));
}

/* 2.6: after taking 25 the king must land on 15, from which 10 can be taken;
 * 22, 18, 11, 8 and 4 would end the move and are not allowed. */
static void test_king_landing_priority(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK29:B25,10", "29x6x25x10 29x1x25x10"));
}

/* 2.6 with no continuation anywhere: every landing square is a move. */
static void test_king_free_landing_when_nothing_continues(void **state)
{
	(void)state;
	assert_true(
	    support_check_moves("W:WK32,21:B27,17", "32x23x27 32x18x27 32x14x27 32x9x27 32x5x27 21x14x17"));
}

/* 2.7: a dead piece blocks a ray and cannot be jumped twice: after 10x28 the
 * king on 28 faces the dead man on 24 and cannot go on to take 6. */
static void test_turkish_dead_piece_blocks(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK3,K10:BK6,24", "10x1x6 10x28x24"));
}

/*
 * 2.7: nothing can land on a dead piece. 20x31x13x6 then jumps 10 toward the
 * dead man on 24: the landings are 15 and 19 only, never 24 itself or 28
 * behind it.
 */
static void test_turkish_no_landing_on_dead_piece(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK20:B9,10,17,24", "20x5x9x24 20x15x9x10x17x24 20x19x9x10x17x24"));
}

/* 2.7: the dead piece stays until the move is over, so a loop that comes back
 * to it stops: 22x11x20x31x22 cannot jump 18 a second time. */
static void test_turkish_no_second_jump(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W7,9,K22,23:B16,K18,24,26",
	                                "23x14x18 23x30x26 22x28x18x24 22x22x16x18x24x26 "
	                                "22x17x16x18x24x26 22x13x16x18x24x26 "
	                                "22x25x16x18x24x26 22x29x16x18x24x26"));
}

/* 2.8: a man goes round a square of four and ends where it started:
 * 22x15x6x13x22 (or the other way round, the same move). */
static void test_man_returns_to_its_origin(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22:B18,10,9,17", "22x22x9x10x17x18"));
	Position next = after("W:W22:B18,10,9,17", "22x22x9x10x17x18");
	assert_int_equal(next.pieces[WHITE], bb_square(21));
	assert_int_equal(next.pieces[BLACK], 0);
}

/* 2.8: a king flies over its own empty origin: 22x31x20x11 then 11x29 passes
 * 22 on the way to 25. Same from and to as 22x29x25 but another move (2.11). */
static void test_king_passes_its_origin(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK22:B26,24,16,25", "22x29x25 22x29x16x24x25x26"));
}

/* 2.9: capturing is compulsory; another piece's quiet moves are not listed. */
static void test_capture_is_compulsory(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22,31:B18", "22x15x18"));
	assert_true(support_check_moves("W:W15:B19", "15x24x19"));
}

/* 2.9: the choice is free: one piece or two, king or man. */
static void test_free_choice(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W22:B17,18,11", "22x13x17 22x8x18x11"));
	assert_true(
	    support_check_moves("W:WK32,21:B27,17", "32x23x27 32x18x27 32x14x27 32x9x27 32x5x27 21x14x17"));
}

/* 2.10: a man that ends its move on the far row is crowned. */
static void test_crowning_at_the_end(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W5:B28", "5-1"));
	Position p = after("W:W5:B28", "5-1");
	assert_true((p.kings & bb_square(0)) && (p.pieces[WHITE] & bb_square(0)));

	assert_true(support_check_moves("B:W5:B26", "26-30 26-31"));
	p = after("B:W5:B26", "26-31");
	assert_true((p.kings & bb_square(30)) && (p.pieces[BLACK] & bb_square(30)));

	p = after("W:W10:B6", "10x1x6"); /* by a capture */
	assert_true(p.kings & bb_square(0));
	assert_int_equal(p.pieces[BLACK], 0);

	p = after("B:W14:B26", "26-30"); /* only men on the far row crown */
	assert_int_equal(p.kings & p.pieces[WHITE], 0);
}

/* 2.10: crowning ends the turn: the new king on 2 could take 11 at a
 * distance, but the move is over. */
static void test_crowning_ends_the_move(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W9:B6,11", "9x2x6"));
	Position p = after("W:W9:B6,11", "9x2x6");
	assert_true(p.kings & bb_square(1));
	assert_int_equal(p.pieces[BLACK], bb_square(10));
}

/* 2.10: through the far row mid-capture: the man jumps on backward as a man
 * (a king on 2 would also have 2x16 / 2x20 at a distance) and is not crowned. */
static void test_no_crowning_mid_capture(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:W9:B6,7", "9x11x6x7"));
	Position p = after("W:W9:B6,7", "9x11x6x7");
	assert_int_equal(p.kings, 0);
	assert_true(support_check_moves("B:W6,25,26,K4:B1,23", "1x10x6 23x21x25x26"));
	p = after("B:W6,25,26,K4:B1,23", "23x21x25x26");
	assert_int_equal(p.kings & p.pieces[BLACK], 0);
	/* Crowned on 2 mid-capture, a king would go 2x20 and take 24 too. */
	assert_true(support_check_moves("W:W9:B6,7,24", "9x11x6x7"));
}

/* 2.11: one (from, to, captured set), however many paths lead to it. */
static void test_duplicates_removed(void **state)
{
	(void)state;
	assert_true(support_check_moves("W:WK8:B15,25", "8x29x15x25"));            /* via 18 or 22 */
	assert_true(support_check_moves("W:WK29:B22,8", "29x4x8x22"));             /* via 18, 15, 11 */
	assert_true(support_check_moves("W:W22:B18,10,9,17", "22x22x9x10x17x18")); /* both ways */
}

/* Section 3: the side to move with no legal move has lost; movegen says 0. */
static void test_blocked_side_has_no_moves(void **state)
{
	(void)state;
	/* 13 faces 17 with 22 behind it, and men do not step back to 9. */
	assert_true(support_check_moves("B:W17,22:B13", ""));
	/* A king in the corner behind two pieces in a row. */
	assert_true(support_check_moves("W:WK29:B25,22", ""));
	/* No pieces at all. */
	assert_true(support_check_moves("B:W21:B", ""));
	Position p = support_position("B:W17,22:B13");
	MoveList list;
	assert_int_equal(movegen_generate(&p, &list), 0);
	assert_false(movegen_has_moves(&p));
	assert_false(movegen_has_capture(&p));
	assert_int_equal(movegen_count(&p), 0);
	assert_int_equal(movegen_captures(&p, &list), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_checker_detects_wrong_sets),
	    cmocka_unit_test(test_man_steps_forward),
	    cmocka_unit_test(test_man_never_steps_backward),
	    cmocka_unit_test(test_king_flies),
	    cmocka_unit_test(test_man_captures_forward_and_backward),
	    cmocka_unit_test(test_man_jump_is_short),
	    cmocka_unit_test(test_king_captures_at_a_distance),
	    cmocka_unit_test(test_capture_sequence_is_completed),
	    cmocka_unit_test(test_king_landing_priority),
	    cmocka_unit_test(test_king_free_landing_when_nothing_continues),
	    cmocka_unit_test(test_turkish_dead_piece_blocks),
	    cmocka_unit_test(test_turkish_no_landing_on_dead_piece),
	    cmocka_unit_test(test_turkish_no_second_jump),
	    cmocka_unit_test(test_man_returns_to_its_origin),
	    cmocka_unit_test(test_king_passes_its_origin),
	    cmocka_unit_test(test_capture_is_compulsory),
	    cmocka_unit_test(test_free_choice),
	    cmocka_unit_test(test_crowning_at_the_end),
	    cmocka_unit_test(test_crowning_ends_the_move),
	    cmocka_unit_test(test_no_crowning_mid_capture),
	    cmocka_unit_test(test_duplicates_removed),
	    cmocka_unit_test(test_blocked_side_has_no_moves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
