/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bitboard generator against the mailbox reference on random positions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "poolshark/movegen.h"
#include "poolshark/perft.h"
#include "poolshark/position.h"
#include "support/reference.h"
#include "support/support.h"

/* What the positions covered, so that the test proves it saw kings and
 * long captures and not only quiet openings. */
typedef struct Coverage {
	int positions;
	int with_kings;
	int with_captures;
	int king_captures; /* a king makes one of the listed captures */
	int long_captures; /* a listed capture takes 3 or more pieces */
	int blocked;       /* no legal move */
	int chosen;        /* the rules chose among the captures (a priority) */
	int mismatches;
} Coverage;

static void check_position(const Position *p, Coverage *c)
{
	MoveList list;
	c->positions++;
	if (!support_check_against_reference(p, "crosscheck")) {
		c->mismatches++;
		return;
	}
	int n = movegen_generate(p, &list);
	if (p->kings)
		c->with_kings++;
	if (n == 0)
		c->blocked++;
	bool king_capture = false, long_capture = false;
	for (int i = 0; i < n; i++) {
		Move m = list.moves[i];
		if (!m.captured)
			continue;
		king_capture = king_capture || (p->kings & bb_square(m.from));
		long_capture = long_capture || bb_count(m.captured) >= 3;
	}
	if (n > 0 && move_is_capture(list.moves[0]))
		c->with_captures++;
	c->king_captures += king_capture;
	c->long_captures += long_capture;
	if (n > 0 && move_is_capture(list.moves[0])) {
		static RefMove all[REF_MAX_MOVES];
		RefBoard b;
		support_to_reference(p, &b);
		c->chosen += reference_generate_unchosen(&b, all, REF_MAX_MOVES) > n;
	}
}

static void report(const char *what, const Coverage *c)
{
	fprintf(stderr,
	        "%s: %d positions, %d with kings, %d with captures, %d king captures, "
	        "%d of 3+ pieces, %d blocked, %d chosen by priority, %d mismatches\n",
	        what, c->positions, c->with_kings, c->with_captures, c->king_captures, c->long_captures,
	        c->blocked, c->chosen, c->mismatches);
}

/* Every position of `games` random games from *start, of 250 plies at
 * most, checked; stops after five mismatches. */
static void random_games(const Position *start, int games, Rng *rng, Coverage *c)
{
	for (int game = 0; game < games && c->mismatches < 5; game++) {
		Position p = *start;
		MoveList list;
		for (int ply = 0; ply < 250; ply++) {
			check_position(&p, c);
			if (movegen_generate(&p, &list) == 0)
				break;
			position_make(&p, list.moves[rng_below(rng, list.count)], &p);
		}
	}
}

/* Every position of random games from the start. */
static void test_random_games_from_the_start(void **state)
{
	(void)state;
	Rng rng = {20240601};
	Coverage c = {0};
	Position start;
	position_start(&start);
	random_games(&start, 600, &rng, &c);
	report("games from the start", &c);
	assert_int_equal(c.mismatches, 0);
	assert_true(c.positions >= 20000);
	assert_true(c.with_kings * 5 >= c.positions); /* kings in at least a fifth */
	assert_true(c.king_captures >= 500);
}

/* Random legal setups rich in kings, each followed a few plies further. */
static void test_random_king_setups(void **state)
{
	(void)state;
	Rng rng = {8128};
	Coverage c = {0};
	for (int i = 0; i < 6000 && c.mismatches < 5; i++) {
		Position p;
		/* Alternate sparse endgames and crowded boards full of targets. */
		if (i % 2)
			support_random_position(&rng, 3, 4, &p);
		else
			support_random_position(&rng, 10, 3, &p);
		check_position(&p, &c);
		int plies = rng_below(&rng, 6);
		MoveList list;
		for (int k = 0; k < plies && movegen_generate(&p, &list) > 0; k++) {
			position_make(&p, list.moves[rng_below(&rng, list.count)], &p);
			check_position(&p, &c);
		}
	}
	report("king setups", &c);
	assert_int_equal(c.mismatches, 0);
	assert_true(c.positions >= 15000);
	assert_true(c.with_kings * 2 >= c.positions);
	assert_true(c.king_captures >= 1000);
	assert_true(c.long_captures >= 100);
}

/* Whether perft 3 of *p is the same by both generators; prints both
 * counts and the position (its rules named) when not. */
static bool same_perft3(const Position *p)
{
	RefBoard b;
	support_to_reference(p, &b);
	uint64_t ours = perft_count(p, 3, NULL), theirs = reference_perft(&b, 3);
	if (ours == theirs)
		return true;
	char fen[160];
	support_describe(p, fen, sizeof fen);
	fprintf(stderr, "%s perft 3 of %s: movegen %llu, reference %llu\n",
	        variant_rules(position_variant(p))->name, fen, (unsigned long long)ours,
	        (unsigned long long)theirs);
	return false;
}

/* Whole trees: perft of both generators at small depth. */
static void test_perft_agrees(void **state)
{
	(void)state;
	Rng rng = {31337};
	int done = 0;
	for (int i = 0; i < 200; i++) {
		Position p;
		if (i < 60) {
			Position start;
			position_start(&start);
			support_random_walk(&rng, &start, 10 + rng_below(&rng, 60), &p);
		} else {
			support_random_position(&rng, 6, 3, &p);
		}
		assert_true(same_perft3(&p));
		done++;
	}
	assert_int_equal(done, 200);
}

/*
 * One variant against the reference: random games from its start, random
 * king-rich setups a few plies further, and perft 3 of both generators.
 * Returns the coverage; fails the test on any mismatch.
 */
static Coverage check_variant(Variant v, uint64_t seed, int *crowned_mid)
{
	Rng rng = {seed};
	Coverage c = {0};
	Position start;
	position_start_variant(&start, v);
	random_games(&start, 200, &rng, &c);
	for (int i = 0; i < 4000 && c.mismatches < 5; i++) {
		Position p;
		support_random_position(&rng, i % 2 ? 3 : 10, i % 2 ? 4 : 3, &p);
		p.variant = (uint8_t)v;
		MoveList list;
		for (int k = 0; k < 3; k++) {
			check_position(&p, &c);
			int n = movegen_generate(&p, &list);
			/* The counting entries answer for the variant too. */
			uint64_t replies = 0;
			for (int j = 0; j < n; j++) {
				Position next;
				position_make(&p, list.moves[j], &next);
				replies += (uint64_t)movegen_count(&next);
			}
			if (movegen_count(&p) != n || movegen_count_replies(&p) != replies)
				c.mismatches++;
			for (int j = 0; j < n; j++)
				*crowned_mid += list.moves[j].crowned;
			if (n == 0)
				break;
			position_make(&p, list.moves[rng_below(&rng, n)], &p);
		}
	}
	for (int i = 0; i < 60; i++) {
		Position p;
		support_random_position(&rng, 6, 3, &p);
		p.variant = (uint8_t)v;
		c.mismatches += !same_perft3(&p);
	}
	report(variant_rules(v)->title, &c);
	assert_int_equal(c.mismatches, 0);
	assert_true(c.positions >= 10000);
	assert_true(c.king_captures >= 500);
	assert_true(c.long_captures >= 100);
	return c;
}

/* The reference alone reproduces the published perft of each variant's
 * start (issue 9), so the oracle itself knows the rules. */
static void test_reference_perft_of_the_variants(void **state)
{
	(void)state;
	Position p;
	RefBoard b;
	position_start_variant(&p, VARIANT_RUSSIAN);
	support_to_reference(&p, &b);
	assert_int_equal(reference_perft(&b, 6), 37986);
	position_start_variant(&p, VARIANT_BRAZILIAN);
	support_to_reference(&p, &b);
	assert_int_equal(reference_perft(&b, 6), 37628);
}

/* The published perft of English, Italian, Spanish and Czech draughts
 * from their starts (issue 52: the counts of DCTL's tests, one move per
 * from, to and captured set), depths 1-8; `make perft` goes further. */
static void test_reference_perft_of_the_family(void **state)
{
	(void)state;
	static const struct {
		RefRules rules;
		char first;
		uint64_t leaves[9];
	} tables[] = {
	    {REF_ENGLISH, 'B', {1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931}},
	    {REF_ITALIAN, 'W', {1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783}},
	    {REF_SPANISH, 'W', {1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783}},
	    {REF_CZECH, 'W', {1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931}},
	};
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		RefBoard b;
		b.squares[0] = ' ';
		for (int s = 1; s <= 32; s++)
			b.squares[s] = s <= 12 ? 'b' : s >= 21 ? 'w' : '.';
		b.side = tables[i].first;
		b.rules = tables[i].rules;
		for (int d = 0; d <= 8; d++)
			assert_int_equal(reference_perft(&b, d), tables[i].leaves[d]);
	}
}

/* English: men capture forward only, kings step one square, free choice. */
static void test_english_agrees(void **state)
{
	(void)state;
	int crowned_mid = 0;
	Coverage c = check_variant(VARIANT_ENGLISH, 2152, &crowned_mid);
	assert_int_equal(crowned_mid, 0);
	assert_int_equal(c.chosen, 0);
}

/* Italian: short kings, men that may not take kings, the FID's order. */
static void test_italian_agrees(void **state)
{
	(void)state;
	int crowned_mid = 0;
	Coverage c = check_variant(VARIANT_ITALIAN, 2252, &crowned_mid);
	assert_int_equal(crowned_mid, 0);
	assert_true(c.chosen >= 500);
}

/* Spanish: flying kings, the most pieces, then the most kings. */
static void test_spanish_agrees(void **state)
{
	(void)state;
	int crowned_mid = 0;
	Coverage c = check_variant(VARIANT_SPANISH, 2452, &crowned_mid);
	assert_int_equal(crowned_mid, 0);
	assert_true(c.chosen >= 500);
}

/* Czech: flying kings, a king's capture before a man's. */
static void test_czech_agrees(void **state)
{
	(void)state;
	int crowned_mid = 0;
	Coverage c = check_variant(VARIANT_CZECH, 2952, &crowned_mid);
	assert_int_equal(crowned_mid, 0);
	assert_true(c.chosen >= 500);
}

/* Russian: the reference crowns during captures on its own (RefRules). */
static void test_russian_agrees(void **state)
{
	(void)state;
	int crowned_mid = 0;
	check_variant(VARIANT_RUSSIAN, 1917, &crowned_mid);
	fprintf(stderr, "russian: %d listed captures crowned a man on the way\n", crowned_mid);
	assert_true(crowned_mid >= 50);
}

/* Brazilian: the reference lists every capture and keeps the longest. */
static void test_brazilian_agrees(void **state)
{
	(void)state;
	int crowned_mid = 0;
	check_variant(VARIANT_BRAZILIAN, 1822, &crowned_mid);
	assert_int_equal(crowned_mid, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_random_games_from_the_start),
	    cmocka_unit_test(test_random_king_setups),
	    cmocka_unit_test(test_perft_agrees),
	    cmocka_unit_test(test_reference_perft_of_the_variants),
	    cmocka_unit_test(test_reference_perft_of_the_family),
	    cmocka_unit_test(test_russian_agrees),
	    cmocka_unit_test(test_brazilian_agrees),
	    cmocka_unit_test(test_english_agrees),
	    cmocka_unit_test(test_italian_agrees),
	    cmocka_unit_test(test_spanish_agrees),
	    cmocka_unit_test(test_czech_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
