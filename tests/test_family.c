/* SPDX-License-Identifier: GPL-3.0-or-later */
/* English, Italian, Spanish and Czech draughts: each rule of the table on a position built for it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/pdn.h"
#include "poolshark/perft.h"
#include "poolshark/position.h"
#include "poolshark/variant.h"
#include "openings.h"
#include "support/support.h"

/*
 * The positions are written in pool's numbering (square 1 is b8, Black's
 * men walk toward 32, White's toward 1), the board every rule set is
 * played on inside (variant.h); each is also checked against the
 * reference generator, written apart from the table.
 */
static Position in_variant(const char *fen, Variant v)
{
	Position p = support_position(fen);
	p.variant = (uint8_t)v;
	p.key = position_compute_key(&p);
	return p;
}

/* The squares a mask holds, as a bitboard of PDN squares. */
static Bitboard squares(int a, int b)
{
	return bb_square(a - 1) | (b ? bb_square(b - 1) : 0);
}

/* Whether the moves of *p are exactly `want` (count entries). */
static bool moves_are(const Position *p, const Move *want, int count)
{
	MoveList list;
	int n = movegen_generate(p, &list);
	if (n != count || movegen_count(p) != n)
		return false;
	for (int i = 0; i < count; i++)
		if (!movegen_is_legal(p, want[i]))
			return false;
	return true;
}

/* One position under several rule sets: how many moves each has. */
typedef struct Case {
	const char *fen;
	const char *rule; /* what the position shows */
	int moves[VARIANT_COUNT];
} Case;

enum { ANY = -1 };

static const Case cases[] = {
    /* A White man on 18 with a Black man behind it on 22 and 25 empty. */
    {"W:W18:B22", "men capture backward only in pool, Russian, Brazilian", {1, 1, 1, 2, 2, 2, 2}},
    /* White's king on 22: one square each way, or the whole diagonals. */
    {"W:WK22:B1", "short kings in English and Italian", {11, 11, 11, 4, 4, 11, 11}},
    /* A king that sees a man three squares off captures only if it flies. */
    {"W:WK29:B18", "a short king captures only next to it", {4, 4, 4, 1, 1, 4, 4}},
    /* A man next to a king with an empty square behind it. */
    {"W:W22:BK18", "Italian 5.3 b: a man may not capture a king", {1, 1, 1, 1, 1, 1, 1}},
    /* 22x8 takes two, 31x24 one. */
    {"W:W22,31:B18,11,27", "the most pieces in Brazilian, Italian, Spanish", {2, 2, 1, 2, 1, 1, 2}},
    /* A man and a king each take one man; a flying king lands on any of six. */
    {"W:WK29,28:B25,24", "a capture by a king first in Italian and Czech", {7, 7, 7, 2, 1, 7, 6}},
    /* The king takes a king (to 13) or a man (to 15 or further). */
    {"W:WK22:BK17,18", "the most kings first in Italian and Spanish", {5, 5, 5, 2, 1, 1, 5}},
    /* Two pieces and one king either way: 22x13x6 meets the king first. */
    {"W:WK22:BK17,9,18,K11",
     "Italian 6.9: the capture that meets a king first",
     {ANY, ANY, ANY, 2, 1, ANY, ANY}},
};

enum { CASE_COUNT = sizeof cases / sizeof cases[0] };

static void test_each_rule_changes_the_moves(void **state)
{
	(void)state;
	for (int i = 0; i < CASE_COUNT; i++)
		for (int v = 0; v < VARIANT_COUNT; v++) {
			Position p = in_variant(cases[i].fen, (Variant)v);
			MoveList list;
			int n = movegen_generate(&p, &list);
			if (cases[i].moves[v] != ANY && n != cases[i].moves[v]) {
				fprintf(stderr, "%s (%s) under %s: %d moves, want %d\n", cases[i].fen,
				        cases[i].rule, variant_rules((Variant)v)->name, n, cases[i].moves[v]);
				fail();
			}
			assert_int_equal(movegen_count(&p), n);
			assert_true(support_check_against_reference(&p, cases[i].fen));
		}
}

/* Italian 5.3 b: the man steps past the king; English takes it. */
static void test_italian_man_spares_a_king(void **state)
{
	(void)state;
	Position italian = in_variant("W:W22:BK18", VARIANT_ITALIAN);
	Move step = support_move(22, 17, 0), take = support_move(22, 15, squares(18, 0));
	assert_true(moves_are(&italian, &step, 1));
	assert_false(movegen_has_capture(&italian));
	Position english = in_variant("W:W22:BK18", VARIANT_ENGLISH);
	assert_true(moves_are(&english, &take, 1));
	/* A king may take a king in Italian. */
	Position king = in_variant("W:WK22:BK18", VARIANT_ITALIAN);
	Move by_king = support_move(22, 15, squares(18, 0));
	assert_true(moves_are(&king, &by_king, 1));
}

/* Italian 6.6-6.9 and Spanish, in order: pieces, by a king, kings, the
 * king met first. */
static void test_italian_order(void **state)
{
	(void)state;
	Position p = in_variant("W:WK29,28:B25,24", VARIANT_ITALIAN);
	Move king = support_move(29, 22, squares(25, 0));
	assert_true(moves_are(&p, &king, 1)); /* 6.7: not 28x19 */
	p = in_variant("W:WK22:BK17,18", VARIANT_ITALIAN);
	Move kings = support_move(22, 13, squares(17, 0));
	assert_true(moves_are(&p, &kings, 1)); /* 6.8: not 22x15 */
	p = in_variant("W:WK22:BK17,18", VARIANT_SPANISH);
	assert_true(moves_are(&p, &kings, 1)); /* Spanish: the most kings */
	p = in_variant("W:WK22:BK17,9,18,K11", VARIANT_ITALIAN);
	Move first = support_move(22, 6, squares(17, 9));
	assert_true(moves_are(&p, &first, 1)); /* 6.9: not 22x15x8 */
	p = in_variant("W:WK22:BK17,9,18,K11", VARIANT_ENGLISH);
	Move both[] = {first, support_move(22, 8, squares(18, 11))};
	assert_true(moves_are(&p, both, 2)); /* English: free choice */
	/* 6.6 before all: two men by a man before one man by a king. */
	p = in_variant("W:WK29,18,28:B25,24,16", VARIANT_ITALIAN);
	Move longest = support_move(28, 12, squares(24, 16));
	assert_true(moves_are(&p, &longest, 1));
	p.variant = VARIANT_SPANISH;
	assert_true(moves_are(&p, &longest, 1));
}

/* Czech: a king's capture before a man's, then free, even when the man
 * would take more. */
static void test_czech_king_first(void **state)
{
	(void)state;
	Position p = in_variant("W:WK29,28:B25,24", VARIANT_CZECH);
	MoveList list;
	int n = movegen_generate(&p, &list);
	assert_int_equal(n, 6);
	for (int i = 0; i < n; i++)
		assert_int_equal(list.moves[i].from, 28);
	/* The man's two against the king's one: still the king. */
	p = in_variant("W:WK29,18,28:B25,24,16", VARIANT_CZECH);
	Move king = support_move(29, 22, squares(25, 0));
	assert_true(moves_are(&p, &king, 1));
	/* Men only: any capture, short or long. */
	p = in_variant("W:W22,31:B18,11,27", VARIANT_CZECH);
	Move free[] = {support_move(22, 8, squares(18, 11)), support_move(31, 24, squares(27, 0))};
	assert_true(moves_are(&p, free, 2));
}

/* A man that reaches the far row by a capture is crowned and stops there,
 * where a Russian man would go on as a king. */
static void test_crowning_ends_the_move(void **state)
{
	(void)state;
	static const Variant family[] = {VARIANT_ENGLISH, VARIANT_ITALIAN, VARIANT_SPANISH, VARIANT_CZECH};
	for (size_t i = 0; i < sizeof family / sizeof family[0]; i++) {
		Position p = in_variant("B:W26,27:B22", family[i]), next;
		Move stop = support_move(22, 31, squares(26, 0));
		assert_true(moves_are(&p, &stop, 1));
		position_make(&p, stop, &next);
		assert_true(next.kings & bb_square(30));
		assert_true(support_check_against_reference(&p, "crowning"));
	}
	Position russian = in_variant("B:W26,27:B22", VARIANT_RUSSIAN);
	Move on[] = {support_move(22, 24, squares(26, 27)), support_move(22, 20, squares(26, 27))};
	assert_true(moves_are(&russian, on, 2));
}

/* The published perft of each start (issue 52, one move per from, to and
 * captured set), depths 0-9; `make perft` checks depth 10. */
static void test_perft_of_the_starts(void **state)
{
	(void)state;
	static const struct {
		Variant v;
		Color first;
		uint64_t leaves[10];
	} tables[] = {
	    {VARIANT_ENGLISH, BLACK, {1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680}},
	    {VARIANT_ITALIAN, WHITE, {1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875}},
	    {VARIANT_SPANISH, WHITE, {1, 7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866}},
	    {VARIANT_CZECH, WHITE, {1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671}},
	};
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		Position p;
		position_start_variant(&p, tables[i].v);
		assert_int_equal(p.side, tables[i].first);
		for (int d = 0; d <= 9; d++)
			assert_int_equal(perft_count(&p, d, NULL), tables[i].leaves[d]);
	}
}

/* Each numbering counts the squares of pool's board its own way: Italian
 * square 1 is a8 (pool's 4 mirrored), Spanish square 1 is h1 (pool's 29
 * mirrored), and each reads back what it writes. */
static void test_numberings(void **state)
{
	(void)state;
	assert_int_equal(variant_square_of_number(NUMBERING_POOL, 1), 0);
	assert_int_equal(variant_square_of_number(NUMBERING_MIRROR, 1), 3);
	assert_int_equal(variant_square_of_number(NUMBERING_MIRROR, 5), 7);
	assert_int_equal(variant_square_of_number(NUMBERING_REVERSED, 1), 28);
	assert_int_equal(variant_square_of_number(NUMBERING_REVERSED, 32), 3);
	for (int n = 0; n < 3; n++)
		for (int number = 1; number <= 32; number++) {
			int square = variant_square_of_number((BoardNumbering)n, number);
			assert_int_equal(variant_number_of_square((BoardNumbering)n, square), number);
		}
	char text[8];
	notation_write_square(3, VARIANT_ITALIAN, text, sizeof text);
	assert_string_equal(text, "1");
	notation_write_square(28, VARIANT_SPANISH, text, sizeof text);
	assert_string_equal(text, "1");
	notation_write_square(28, VARIANT_CZECH, text, sizeof text);
	assert_string_equal(text, "a1");
	notation_write_square(3, VARIANT_ENGLISH, text, sizeof text);
	assert_string_equal(text, "4");
}

/* The starts as each game's players write them, and which first moves
 * their numbers name. */
static void test_starts_in_their_numbers(void **state)
{
	(void)state;
	static const struct {
		Variant v;
		const char *fen;
		const char *legal, *illegal; /* a first move, and one legal only in pool's numbers */
	} starts[] = {
	    {VARIANT_ENGLISH, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "9-14",
	     "9-12"},
	    {VARIANT_ITALIAN, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "21-17",
	     "24-19"},
	    {VARIANT_SPANISH, "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32", "9-13",
	     "9-14"},
	    {VARIANT_CZECH, "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8",
	     "c3-d4", "c3-b5"},
	};
	for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
		Position p, read;
		char fen[200], error[NOTATION_ERROR_MAX];
		position_start_variant(&p, starts[i].v);
		notation_write_fen(&p, fen, sizeof fen);
		assert_string_equal(fen, starts[i].fen);
		assert_true(notation_parse_fen(fen, starts[i].v, &read, error, sizeof error));
		assert_true(position_equal(&read, &p));
		Move m;
		assert_int_equal(notation_parse_move(&p, starts[i].legal, &m, error, sizeof error),
		                 MOVE_PARSE_OK);
		char text[NOTATION_MOVE_MAX];
		notation_write_move(&p, m, text, sizeof text);
		assert_string_equal(text, starts[i].legal);
		assert_int_not_equal(notation_parse_move(&p, starts[i].illegal, &m, error, sizeof error),
		                     MOVE_PARSE_OK);
	}
	/* A man on its crowning row is named in the game's numbers. */
	Position p;
	char error[NOTATION_ERROR_MAX];
	assert_false(notation_parse_fen("W:W2:B10", VARIANT_ITALIAN, &p, error, sizeof error));
	assert_non_null(strstr(error, "white man on 2 "));
	assert_false(notation_parse_fen("W:W30:B20", VARIANT_SPANISH, &p, error, sizeof error));
	assert_non_null(strstr(error, "white man on 30 "));
}

/* A game of each written as PDN with its GameType and read back. */
static void test_pdn_of_each(void **state)
{
	(void)state;
	static const struct {
		Variant v;
		const char *game_type;
	} games[] = {
	    {VARIANT_ENGLISH, "[GameType \"21\"]"},
	    {VARIANT_ITALIAN, "[GameType \"22\"]"},
	    {VARIANT_SPANISH, "[GameType \"24\"]"},
	    {VARIANT_CZECH, "[GameType \"29\"]"},
	};
	for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
		Game *g = malloc(sizeof *g);
		assert_non_null(g);
		Position start;
		position_start_variant(&start, games[i].v);
		game_init(g, &start);
		Rng rng = {52 + i};
		for (int ply = 0; ply < 30; ply++) {
			MoveList list;
			int n = movegen_generate(game_position(g), &list);
			if (n == 0)
				break;
			assert_true(game_play(g, list.moves[rng_below(&rng, n)]));
		}
		char *text = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&text, &size);
		assert_non_null(f);
		PdnTag tags[] = {{"Event", "test"}};
		assert_true(pdn_write_game(f, g, tags, 1, NULL));
		fclose(f);
		if (!strstr(text, games[i].game_type))
			fail_msg("no %s in:\n%s", games[i].game_type, text);
		f = fmemopen(text, size, "r");
		PdnGame read = {0};
		char error[NOTATION_ERROR_MAX];
		assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
		assert_int_equal(read.game->ply_count, g->ply_count);
		assert_int_equal(game_position(read.game)->variant, games[i].v);
		assert_true(position_equal(game_position(read.game), game_position(g)));
		pdn_game_free(&read);
		fclose(f);
		free(text);
		free(g);
	}
}

/* Every move of random games, in each of its written forms (PDN, full
 * path, Hub), reads back as itself, and the Hub's 33 letters as the
 * position, in each game's numbers. */
static void test_texts_read_back(void **state)
{
	(void)state;
	static const Variant family[] = {VARIANT_ENGLISH, VARIANT_ITALIAN, VARIANT_SPANISH, VARIANT_CZECH};
	Rng rng = {5252};
	int checked = 0;
	for (size_t i = 0; i < sizeof family / sizeof family[0]; i++)
		for (int game = 0; game < 20; game++) {
			Position p;
			position_start_variant(&p, family[i]);
			for (int ply = 0; ply < 120; ply++) {
				MoveList list;
				int n = movegen_generate(&p, &list);
				if (n == 0)
					break;
				char hub[NOTATION_HUB_POSITION_MAX], error[NOTATION_ERROR_MAX];
				Position back;
				notation_write_hub_position(&p, hub, sizeof hub);
				assert_true(
				    notation_parse_hub_position(hub, family[i], &back, error, sizeof error));
				assert_true(position_equal(&back, &p));
				for (int k = 0; k < n; k++) {
					char text[NOTATION_MOVE_MAX + 64];
					Move m = list.moves[k], read;
					notation_write_move(&p, m, text, sizeof text);
					assert_int_equal(
					    notation_parse_move(&p, text, &read, error, sizeof error),
					    MOVE_PARSE_OK);
					assert_true(move_equal(read, m));
					notation_write_move_path(&p, m, text, sizeof text);
					assert_int_equal(
					    notation_parse_move(&p, text, &read, error, sizeof error),
					    MOVE_PARSE_OK);
					assert_true(move_equal(read, m));
					notation_write_move_hub(m, family[i], text, sizeof text);
					assert_int_equal(
					    notation_parse_move(&p, text, &read, error, sizeof error),
					    MOVE_PARSE_OK);
					assert_true(move_equal(read, m));
					checked++;
				}
				position_make(&p, list.moves[rng_below(&rng, n)], &p);
			}
		}
	assert_true(checked > 10000);
}

/* English: 40 moves of each side without a man's move or a capture draw
 * (80 plies), one ply fewer does not; a man's move starts the count
 * again. The other three count nothing but repetitions here. */
static void test_english_forty_moves(void **state)
{
	(void)state;
	Position p = in_variant("W:WK30,K31:BK1,5", VARIANT_ENGLISH);
	DrawCounters c = {79, -1, -1, 0, -1};
	assert_int_equal(game_counters_draw(&p, &c), END_NONE);
	c.reversible_plies = 80;
	assert_int_equal(game_counters_draw(&p, &c), END_KING_MOVES);
	Position before = in_variant("B:WK30,K31:BK1,5", VARIANT_ENGLISH), after;
	DrawCounters prev = {79, -1, -1, 0, -1}, next;
	Move man = support_move(5, 9, 0), king = support_move(1, 6, 0);
	assert_true(movegen_is_legal(&before, man) && movegen_is_legal(&before, king));
	position_make(&before, man, &after);
	game_counters_after(&before, man, &after, &prev, &next);
	assert_int_equal(next.reversible_plies, 0);
	position_make(&before, king, &after);
	game_counters_after(&before, king, &after, &prev, &next);
	assert_int_equal(game_counters_draw(&after, &next), END_KING_MOVES);
	for (Variant v = VARIANT_ITALIAN; v <= VARIANT_CZECH; v++) {
		Position q = in_variant("W:WK30,K31:BK1,5", v);
		DrawCounters many = {1000, -1, -1, 1000, -1};
		assert_int_equal(game_counters_draw(&q, &many), END_NONE);
	}
}

/* perft by paths: a capture reached by two routes counts twice (pool's
 * king on 8 takes 15 and 25 either way round), a table changes nothing,
 * and English's start counts as published through depth 9 (where no
 * capture has two routes yet; `make perft` checks depth 12's 388623673). */
static void test_perft_by_paths(void **state)
{
	(void)state;
	Position p = support_position("W:WK8:B15,25");
	assert_int_equal(perft_count(&p, 1, NULL), 1);
	assert_int_equal(perft_count_paths(&p, 1, NULL), 2);
	PerftTable *table = perft_table_create(1);
	assert_non_null(table);
	Position kings = in_variant("W:WK22,K30:BK17,9,18,K11", VARIANT_ENGLISH);
	for (int d = 1; d <= 6; d++)
		assert_int_equal(perft_count_paths(&kings, d, table), perft_count_paths(&kings, d, NULL));
	Position start;
	position_start_variant(&start, VARIANT_ENGLISH);
	assert_int_equal(perft_count_paths(&start, 9, table), 3963680);
	perft_table_free(table);
}

/* The openings files of the four: distinct positions 3 plies from each
 * start (so the side that did not move first is to move), each read in
 * the game's own numbers into a legal position of it with moves. */
static void test_openings_files(void **state)
{
	(void)state;
	static const Variant family[] = {VARIANT_ENGLISH, VARIANT_ITALIAN, VARIANT_SPANISH, VARIANT_CZECH};
	for (size_t i = 0; i < sizeof family / sizeof family[0]; i++) {
		Variant v = family[i];
		const char *path = openings_default_path(v);
		Openings o;
		char err[200];
		if (!openings_read(path, v, NULL, &o, err, sizeof err))
			fail_msg("%s", err);
		assert_true(o.count >= 150);
		Position start;
		position_start_variant(&start, v);
		for (int k = 0; k < o.count; k++) {
			const Position *p = &o.positions[k];
			assert_int_equal(position_validate(p), POSITION_OK);
			assert_int_equal(position_variant(p), v);
			assert_int_equal(p->side, color_other(start.side)); /* three plies played */
			assert_true(movegen_has_moves(p));
			for (int j = 0; j < k; j++)
				assert_false(position_equal(p, &o.positions[j]));
		}
		openings_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_each_rule_changes_the_moves),
	    cmocka_unit_test(test_italian_man_spares_a_king),
	    cmocka_unit_test(test_italian_order),
	    cmocka_unit_test(test_czech_king_first),
	    cmocka_unit_test(test_crowning_ends_the_move),
	    cmocka_unit_test(test_perft_of_the_starts),
	    cmocka_unit_test(test_numberings),
	    cmocka_unit_test(test_starts_in_their_numbers),
	    cmocka_unit_test(test_pdn_of_each),
	    cmocka_unit_test(test_texts_read_back),
	    cmocka_unit_test(test_english_forty_moves),
	    cmocka_unit_test(test_perft_by_paths),
	    cmocka_unit_test(test_openings_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
