/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perft against the published tables of RULES.md section 6. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "poolshark/movegen.h"
#include "poolshark/perft.h"
#include "poolshark/position.h"
#include "support/reference.h"
#include "support/support.h"

/* RULES.md 6, start position, depths 1..9 (the specification, not outputs). */
static const uint64_t start_leaves[] = {1, 7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534};

/* Issue 9's published tables from each variant's start, depths 0..10, with
 * one move per (from, to, captured set); make test goes to 8, make perft
 * to 10. */
static const uint64_t russian_leaves[] = {1,     7,      49,     302,     1469,    7482,
                                          37986, 190146, 929899, 4570586, 22444032};
static const uint64_t brazilian_leaves[] = {1,     7,      49,     302,     1469,    7473,
                                            37628, 187302, 907830, 4431766, 21560022};

typedef struct KingTable {
	const char *fen;
	uint64_t leaves[7]; /* depth 0..6 */
} KingTable;

static const KingTable king_tables[] = {
    {"B:W6,25,26,K4:B1,23", {1, 2, 9, 13, 89, 205, 903}},
    {"W:WK2,19,25,26:B5,6,9,13", {1, 10, 30, 221, 855, 6112, 21471}},
    {"B:WK17,21,22,23,25,28,29,31,32:B1,2,8,12", {1, 6, 61, 333, 3032, 15953, 132228}},
};

enum { KING_TABLE_COUNT = sizeof king_tables / sizeof king_tables[0] };

static void test_start_through_depth_9(void **state)
{
	(void)state;
	Position p;
	position_start(&p);
	for (int d = 0; d <= 9; d++)
		assert_int_equal(perft_count(&p, d, NULL), start_leaves[d]);
}

static void test_variants_through_depth_8(void **state)
{
	(void)state;
	Position p;
	position_start_variant(&p, VARIANT_RUSSIAN);
	assert_int_equal(p.side, WHITE);
	for (int d = 0; d <= 8; d++)
		assert_int_equal(perft_count(&p, d, NULL), russian_leaves[d]);
	position_start_variant(&p, VARIANT_BRAZILIAN);
	assert_int_equal(p.side, WHITE);
	for (int d = 0; d <= 8; d++)
		assert_int_equal(perft_count(&p, d, NULL), brazilian_leaves[d]);
	/* Pool's own start, for contrast: Black first, the same men. */
	position_start_variant(&p, VARIANT_POOL);
	assert_int_equal(p.side, BLACK);
	assert_int_equal(perft_count(&p, 8, NULL), start_leaves[8]);
}

static void test_king_positions_through_depth_6(void **state)
{
	(void)state;
	for (int i = 0; i < KING_TABLE_COUNT; i++) {
		Position p = support_position(king_tables[i].fen);
		assert_int_equal(position_validate(&p), POSITION_OK);
		for (int d = 0; d <= 6; d++)
			assert_int_equal(perft_count(&p, d, NULL), king_tables[i].leaves[d]);
	}
}

/* The table must not change a count, whatever the size (even one entry). */
static void test_table_gives_the_same_counts(void **state)
{
	(void)state;
	static const size_t sizes[] = {0, 1, 16};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		PerftTable *t = perft_table_create(sizes[s]);
		assert_non_null(t);
		Position p;
		position_start(&p);
		for (int d = 0; d <= 8; d++)
			assert_int_equal(perft_count(&p, d, t), start_leaves[d]);
		/* Again, now answered from the filled table. */
		assert_int_equal(perft_count(&p, 8, t), start_leaves[8]);
		for (int i = 0; i < KING_TABLE_COUNT; i++) {
			Position k = support_position(king_tables[i].fen);
			for (int d = 1; d <= 6; d++)
				assert_int_equal(perft_count(&k, d, t), king_tables[i].leaves[d]);
		}
		perft_table_free(t);
	}
}

static void check_divide(const Position *p, int depth, PerftTable *t)
{
	static PerftDivide div;
	MoveList list;
	perft_divide(p, depth, t, &div);
	int n = movegen_generate(p, &list);
	assert_int_equal(div.count, n);
	uint64_t sum = 0;
	for (int i = 0; i < div.count; i++) {
		assert_true(move_equal(div.moves[i], list.moves[i])); /* movegen order */
		Position next;
		position_make(p, div.moves[i], &next);
		assert_int_equal(div.leaves[i], perft_count(&next, depth - 1, NULL));
		sum += div.leaves[i];
	}
	assert_int_equal(sum, div.total);
	assert_int_equal(div.total, perft_count(p, depth, NULL));
}

static void test_divide_sums_to_the_total(void **state)
{
	(void)state;
	Position p;
	position_start(&p);
	for (int d = 1; d <= 6; d++)
		check_divide(&p, d, NULL);
	PerftTable *t = perft_table_create(4);
	assert_non_null(t);
	check_divide(&p, 7, t);
	perft_table_free(t);
	for (int i = 0; i < KING_TABLE_COUNT; i++) {
		Position k = support_position(king_tables[i].fen);
		for (int d = 1; d <= 4; d++)
			check_divide(&k, d, NULL);
	}
}

/* The oracle itself must match the published figures before it judges. */
static void test_reference_matches_the_tables(void **state)
{
	(void)state;
	Position p;
	RefBoard b;
	position_start(&p);
	support_to_reference(&p, &b);
	for (int d = 0; d <= 6; d++)
		assert_int_equal(reference_perft(&b, d), start_leaves[d]);
	for (int i = 0; i < KING_TABLE_COUNT; i++) {
		Position k = support_position(king_tables[i].fen);
		support_to_reference(&k, &b);
		for (int d = 0; d <= 5; d++)
			assert_int_equal(reference_perft(&b, d), king_tables[i].leaves[d]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_start_through_depth_9),
	    cmocka_unit_test(test_variants_through_depth_8),
	    cmocka_unit_test(test_king_positions_through_depth_6),
	    cmocka_unit_test(test_table_gives_the_same_counts),
	    cmocka_unit_test(test_divide_sums_to_the_total),
	    cmocka_unit_test(test_reference_matches_the_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
