/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The variant descriptions and the draw rules of Russian and Brazilian draughts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "poolshark/engine.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/pdn.h"
#include "poolshark/position.h"
#include "poolshark/variant.h"
#include "support/support.h"

static Position in_variant(const char *fen, Variant v)
{
	Position p = support_position(fen);
	p.variant = (uint8_t)v;
	return p;
}

static void test_descriptions(void **state)
{
	(void)state;
	Variant v;
	assert_true(variant_parse("pool", &v) && v == VARIANT_POOL);
	assert_true(variant_parse("russian", &v) && v == VARIANT_RUSSIAN);
	assert_true(variant_parse("brazilian", &v) && v == VARIANT_BRAZILIAN);
	assert_false(variant_parse("Russian", &v));
	assert_false(variant_parse("", &v));
	assert_false(variant_parse("international", &v));
	assert_false(variant_rules(VARIANT_POOL)->white_first);
	assert_true(variant_rules(VARIANT_RUSSIAN)->white_first);
	assert_true(variant_rules(VARIANT_BRAZILIAN)->white_first);
	assert_true(variant_rules(VARIANT_RUSSIAN)->crown_mid_capture);
	assert_false(variant_rules(VARIANT_BRAZILIAN)->crown_mid_capture);
	assert_int_equal(variant_rules(VARIANT_BRAZILIAN)->priority, CAPTURE_MOST_PIECES);
	assert_int_equal(variant_rules(VARIANT_RUSSIAN)->priority, CAPTURE_FREE);
	assert_true(variant_parse("english", &v) && v == VARIANT_ENGLISH);
	assert_true(variant_parse("czech", &v) && v == VARIANT_CZECH);
	assert_true(variant_from_game_type(22, &v) && v == VARIANT_ITALIAN);
	assert_true(variant_from_game_type(24, &v) && v == VARIANT_SPANISH);
	for (int i = 0; i < VARIANT_COUNT; i++) {
		assert_int_equal(variant_rules((Variant)i)->id, i);
		assert_true(variant_from_game_type(variant_rules((Variant)i)->pdn_game_type, &v));
		assert_int_equal(v, i);
		assert_non_null(strstr(VARIANT_NAMES, variant_rules((Variant)i)->name));
	}
	assert_false(variant_from_game_type(20, &v));
}

/* The one legal move of *p, which must have exactly one. */
static Move only_move(const Position *p)
{
	MoveList list;
	assert_int_equal(movegen_generate(p, &list), 1);
	return list.moves[0];
}

/* White's man on 11 (f6) takes 7 (e7) and reaches 2 (d8). Russian: it is a
 * king at once and flies on over 9 (b6) to 13 (a5), ending as a king off
 * the crowning row. Pool and Brazilian: a man on 2 has nothing to take,
 * and the move ends there with a crowning. */
static void test_crowning_during_a_capture(void **state)
{
	(void)state;
	const char *fen = "W:W11:B7,9";
	Position r = in_variant(fen, VARIANT_RUSSIAN);
	Move m = only_move(&r);
	assert_true(move_equal(m, support_move(11, 13, bb_square(6) | bb_square(8))));
	assert_int_equal(m.crowned, 1);
	Position next;
	position_make(&r, m, &next);
	assert_true(next.kings & bb_square(12));
	assert_int_equal(next.variant, VARIANT_RUSSIAN);
	for (int v = VARIANT_POOL; v <= VARIANT_BRAZILIAN; v += VARIANT_BRAZILIAN) {
		Position p = in_variant(fen, (Variant)v);
		m = only_move(&p);
		assert_true(move_equal(m, support_move(11, 2, bb_square(6))));
		assert_int_equal(m.crowned, 0);
	}
	for (int v = 0; v < VARIANT_COUNT; v++) {
		Position p = in_variant(fen, (Variant)v);
		assert_true(support_check_against_reference(&p, fen));
	}
}

/* Brazilian majority: 22x31 takes one piece, 22x8 and 30x14 take two; only
 * the two longer ones are legal. Pool and Russian list all three. */
static void test_majority(void **state)
{
	(void)state;
	const char *fen = "W:W22,30:B18,26,11";
	for (int v = 0; v <= VARIANT_BRAZILIAN; v++) {
		Position p = in_variant(fen, (Variant)v);
		MoveList list;
		int n = movegen_generate(&p, &list);
		assert_int_equal(n, v == VARIANT_BRAZILIAN ? 2 : 3);
		for (int i = 0; i < n; i++)
			if (v == VARIANT_BRAZILIAN)
				assert_int_equal(bb_count(list.moves[i].captured), 2);
		assert_int_equal(movegen_count(&p), n);
		assert_true(support_check_against_reference(&p, fen));
	}
}

static DrawCounters counters(int reversible, int count, int balance)
{
	DrawCounters c = {reversible, -1, count, balance, -1};
	return c;
}

/* The draw counts are the table's: the kings-only draw falls on the ply
 * that each rule set's DrawLimits names, and a rule set without a
 * balance rule never draws by it. */
static void test_draw_limits_from_table(void **state)
{
	(void)state;
	for (int v = VARIANT_RUSSIAN; v <= VARIANT_BRAZILIAN; v++) {
		const DrawLimits *d = &variant_rules((Variant)v)->draws;
		Position p = in_variant("W:WK29,K25,10:BK4,K8,20", (Variant)v);
		assert_true(d->king_move_plies > 0);
		DrawCounters c = counters(d->king_move_plies - 1, -1, 0);
		assert_int_equal(game_counters_draw(&p, &c), END_NONE);
		c = counters(d->king_move_plies, -1, 0);
		assert_int_equal(game_counters_draw(&p, &c), END_KING_MOVES);
		/* Six pieces, kings on both sides, a long balance. */
		c = counters(0, -1, 1000);
		assert_int_equal(game_counters_draw(&p, &c), d->balance_6_7_plies ? END_BALANCE : END_NONE);
	}
	assert_int_equal(variant_rules(VARIANT_POOL)->draws.king_move_plies, 0);
}

/* Russian 7.2.5: 15 moves of kings only (30 plies); Brazilian: 20 (40). */
static void test_king_moves_only(void **state)
{
	(void)state;
	Position r = in_variant("W:WK29,K25,10:BK4,K8,20", VARIANT_RUSSIAN);
	DrawCounters c = counters(29, -1, 29);
	assert_int_equal(game_counters_draw(&r, &c), END_NONE);
	c = counters(30, -1, 30);
	assert_int_equal(game_counters_draw(&r, &c), END_KING_MOVES);
	Position b = r;
	b.variant = VARIANT_BRAZILIAN;
	c = counters(39, -1, 39);
	assert_int_equal(game_counters_draw(&b, &c), END_NONE);
	c = counters(40, -1, 40);
	assert_int_equal(game_counters_draw(&b, &c), END_KING_MOVES);
	/* Pool keeps its 25-move rule. */
	Position p = r;
	p.variant = VARIANT_POOL;
	c = counters(49, -1, 0);
	assert_int_equal(game_counters_draw(&p, &c), END_NONE);
	c = counters(50, -1, 0);
	assert_int_equal(game_counters_draw(&p, &c), END_25_MOVE_RULE);
}

/* Russian 7.2.4, 7.2.7, 7.2.8 and the Brazilian counts against a lone king:
 * the count from the material, and 7.2.7's from the lone king's arrival on
 * the long diagonal, each drawing on the move that reaches it. */
static void test_lone_king_counts(void **state)
{
	(void)state;
	struct {
		const char *fen;
		Variant v;
		int limit; /* moves of the stronger side since the material arose; 0: no count */
		int road;  /* since the lone king stands on the long diagonal; 0: no count */
	} cases[] = {
	    {"W:WK1,K2,K3:BK9", VARIANT_RUSSIAN, 15, 0},     /* 7.2.4, 9 off the long diagonal */
	    {"W:WK1,K2,K3:BK15", VARIANT_RUSSIAN, 15, 5},    /* 7.2.7: 15 is e5; 7.2.4 runs on */
	    {"W:WK1,K2,6:BK15", VARIANT_RUSSIAN, 0, 5},      /* 7.2.7 with a man */
	    {"W:WK1,K2,6:BK9", VARIANT_RUSSIAN, 0, 0},       /* a man and off the diagonal */
	    {"W:WK1,K2:BK9", VARIANT_RUSSIAN, 5, 0},         /* 7.2.8 */
	    {"W:WK1,K2:BK15", VARIANT_RUSSIAN, 5, 0},        /* 7.2.8: two pieces, no 7.2.7 */
	    {"W:WK1,K2,K3,K5:BK9", VARIANT_RUSSIAN, 15, 0},  /* four kings: 7.2.4 */
	    {"W:WK1,K2,K3,K5:BK15", VARIANT_RUSSIAN, 15, 0}, /* four kings on the diagonal: 7.2.4 */
	    {"W:WK1,K2,K3:BK9", VARIANT_BRAZILIAN, 16, 0},   /* three pieces with a king */
	    {"W:WK1,6:BK9", VARIANT_BRAZILIAN, 5, 0},        /* two pieces with a king */
	    {"W:WK1,K2,K3,K5:BK9", VARIANT_BRAZILIAN, 0, 0}, /* four: no count */
	    {"B:W9:BK1,K2,K3", VARIANT_RUSSIAN, 0, 0},       /* the lone piece is a man */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Position p = in_variant(cases[i].fen, cases[i].v);
		DrawCounters start;
		game_counters_start(&p, &start);
		if (!cases[i].limit && !cases[i].road) {
			assert_int_equal(start.endgame, -1);
			assert_int_equal(start.road, -1);
			continue;
		}
		assert_int_equal(start.endgame, 0);
		assert_int_equal(start.road, cases[i].road ? 0 : -1);
		DrawCounters c = counters(0, cases[i].limit ? cases[i].limit - 1 : 100, 0);
		c.road = cases[i].road ? cases[i].road - 1 : -1;
		assert_int_equal(game_counters_draw(&p, &c), END_NONE);
		if (cases[i].limit) {
			DrawCounters due = c;
			due.endgame = (int16_t)cases[i].limit;
			assert_int_equal(game_counters_draw(&p, &due), END_ENDGAME_COUNT);
		}
		if (cases[i].road) {
			DrawCounters due = c;
			due.road = (int16_t)cases[i].road;
			assert_int_equal(game_counters_draw(&p, &due), END_ENDGAME_COUNT);
		}
	}
}

/* The counters after the quiet move from-to, legal in *before. */
static DrawCounters after_quiet(const Position *before, int from, int to, const DrawCounters *prev,
                                Position *after)
{
	Move m = support_move(from, to, 0);
	assert_true(support_is_legal(before, m));
	position_make(before, m, after);
	DrawCounters out;
	game_counters_after(before, m, after, prev, &out);
	return out;
}

/* Russian 7.2.7 counts from the lone king's arrival on the long diagonal:
 * three kings that have made seven moves against a king off it do not
 * draw when it steps on (counted from the material, it would draw at
 * once), and the fifth move of the kings since then draws; when it steps
 * off, the count stops. */
static void test_long_diagonal_count_starts_on_arrival(void **state)
{
	(void)state;
	/* Kings on c1, d2, g1 against a king on f8, Black to move. */
	Position p = in_variant("B:WK30,K26,K32:BK3", VARIANT_RUSSIAN), next;
	DrawCounters c = {7, -1, 7, 7, -1};
	c = after_quiet(&p, 3, 8, &c, &next); /* f8-g7: onto the main road */
	assert_int_equal(c.endgame, 7);
	assert_int_equal(c.road, 0);
	assert_int_equal(game_counters_draw(&next, &c), END_NONE);
	for (int i = 1; i <= 5; i++) {
		p = next;
		c = after_quiet(&p, i % 2 ? 26 : 31, i % 2 ? 31 : 26, &c, &next); /* d2-e1 and back */
		assert_int_equal(c.road, i);
		assert_int_equal(game_counters_draw(&next, &c), i < 5 ? END_NONE : END_ENDGAME_COUNT);
		if (i == 5)
			break;
		p = next;
		c = after_quiet(&p, i % 2 ? 8 : 4, i % 2 ? 4 : 8, &c, &next); /* g7-h8 and back */
	}
	/* Off the main road again (g7-f8): no count of 7.2.7 runs. */
	p = next;
	c = after_quiet(&p, 8, 3, &c, &next);
	assert_int_equal(c.road, -1);
	assert_int_equal(c.endgame, 12);
	assert_int_equal(game_counters_draw(&next, &c), END_NONE);
}

/* A lone king that steps onto the main road where it is taken is taken:
 * the count from its arrival does not end the game before the capture. */
static void test_long_diagonal_arrival_into_a_capture(void **state)
{
	(void)state;
	/* Kings on a1, d2, e1 against a king on b8, Black to move. */
	Position p = in_variant("B:WK29,K26,K31:BK1", VARIANT_RUSSIAN), next;
	DrawCounters c = {13, -1, 7, 13, -1};
	c = after_quiet(&p, 1, 15, &c, &next); /* b8-e5, in front of a1 */
	assert_int_equal(c.road, 0);
	assert_int_equal(game_counters_draw(&next, &c), END_NONE);
	MoveList list;
	assert_int_equal(movegen_generate(&next, &list), 3); /* a1 takes e5, landing f6, g7 or h8 */
	assert_int_equal(bb_count(list.moves[0].captured), 1);
}

/* The count advances on the stronger side's moves only and starts again
 * when the material changes. */
static void test_count_in_a_game(void **state)
{
	(void)state;
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	Position p = in_variant("W:WK30,K31,K32:BK3", VARIANT_RUSSIAN);
	game_init(g, &p);
	/* White e1-d2, Black f8-e7, White d2-e1, Black e7-f8: the count goes
	 * up with White's moves only (f8 and e7 are off the long diagonal). */
	const int steps[4][2] = {{31, 26}, {3, 7}, {26, 31}, {7, 3}};
	int expected[4] = {1, 1, 2, 2};
	for (int i = 0; i < 4; i++) {
		Move m = support_move(steps[i][0], steps[i][1], 0);
		assert_true(support_is_legal(game_position(g), m));
		assert_true(game_play(g, m));
		assert_int_equal(game_counters(g)->endgame, expected[i]);
		assert_int_equal(game_counters(g)->thirteen, -1); /* no draw due */
	}
	assert_int_equal(game_status(g).result, RESULT_NONE);
	free(g);
}

/* The search sees a variant's counted draw through `thirteen`, as pool's. */
static void test_due_draw_raises_thirteen(void **state)
{
	(void)state;
	Position before = in_variant("W:WK1,K2:BK9", VARIANT_RUSSIAN), after;
	Move m = support_move(2, 6, 0);
	position_make(&before, m, &after);
	DrawCounters prev = {6, -1, 4, 6, -1}, out;
	game_counters_after(&before, m, &after, &prev, &out);
	assert_int_equal(out.endgame, 5);
	assert_int_equal(out.thirteen, GAME_THIRTEEN_LIMIT);
	assert_int_equal(game_counters_draw(&after, &out), END_ENDGAME_COUNT);
	prev.endgame = 3;
	game_counters_after(&before, m, &after, &prev, &out);
	assert_int_equal(out.thirteen, -1);
	assert_int_equal(game_counters_draw(&after, &out), END_NONE);
}

/* Russian 7.2.6: kings on both sides, no capture and no crowning. */
static void test_balance(void **state)
{
	(void)state;
	Position four = in_variant("W:WK29,10:BK4,20", VARIANT_RUSSIAN);
	Position six = in_variant("W:WK29,10,11:BK4,20,21", VARIANT_RUSSIAN);
	DrawCounters c = counters(0, -1, 59);
	assert_int_equal(game_counters_draw(&four, &c), END_NONE);
	c.balance_plies = 60;
	assert_int_equal(game_counters_draw(&four, &c), END_BALANCE);
	c.balance_plies = 119;
	assert_int_equal(game_counters_draw(&six, &c), END_NONE);
	c.balance_plies = 120;
	assert_int_equal(game_counters_draw(&six, &c), END_BALANCE);
	/* Brazilian has no such rule. */
	four.variant = VARIANT_BRAZILIAN;
	assert_int_equal(game_counters_draw(&four, &c), END_NONE);
	/* A man's step keeps the balance count going; a capture resets it. */
	DrawCounters prev = counters(3, -1, 41), out;
	Move step = support_move(10, 6, 0);
	Position next;
	Position before = in_variant("W:WK29,10:BK4,20", VARIANT_RUSSIAN);
	position_make(&before, step, &next);
	game_counters_after(&before, step, &next, &prev, &out);
	assert_int_equal(out.reversible_plies, 0);
	assert_int_equal(out.balance_plies, 42);
}

/* Algebraic squares: read in FENs and moves in every variant, written for
 * Russian and Brazilian positions; pool keeps its numbers. */
static void test_algebraic_notation(void **state)
{
	(void)state;
	char text[NOTATION_MOVE_MAX * 16], error[NOTATION_ERROR_MAX];
	notation_write_square(21, VARIANT_RUSSIAN, text, sizeof text);
	assert_string_equal(text, "c3");
	notation_write_square(0, VARIANT_RUSSIAN, text, sizeof text);
	assert_string_equal(text, "b8");
	notation_write_square(28, VARIANT_RUSSIAN, text, sizeof text);
	assert_string_equal(text, "a1");
	notation_write_square(28, VARIANT_POOL, text, sizeof text);
	assert_string_equal(text, "29");

	Position r;
	position_start_variant(&r, VARIANT_RUSSIAN);
	notation_write_legal_moves(&r, text, sizeof text);
	assert_string_equal(text, "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4");

	Position p, q;
	assert_true(notation_parse_fen("W:Wc3:Bd4", VARIANT_POOL, &p, error, sizeof error));
	assert_true(notation_parse_fen("W:W22:B18", VARIANT_POOL, &q, error, sizeof error));
	assert_true(position_equal(&p, &q));
	assert_false(notation_parse_fen("W:Wc4:Bd4", VARIANT_POOL, &p, error, sizeof error));
	assert_non_null(strstr(error, "c4 is a light square"));

	p.variant = VARIANT_RUSSIAN;
	q.variant = VARIANT_POOL;
	Move m;
	assert_int_equal(notation_parse_move(&p, "c3:e5", &m, error, sizeof error), MOVE_PARSE_OK);
	assert_true(move_equal(m, support_move(22, 15, bb_square(17))));
	assert_int_equal(notation_parse_move(&p, "22x15", &m, error, sizeof error), MOVE_PARSE_OK);
	notation_write_move(&p, m, text, sizeof text);
	assert_string_equal(text, "c3:e5");
	notation_write_move(&q, m, text, sizeof text);
	assert_string_equal(text, "22x15");
	assert_int_equal(notation_parse_move(&q, "c3:e5", &m, error, sizeof error), MOVE_PARSE_OK);
	assert_int_equal(notation_parse_move(&p, "c3-d4", &m, error, sizeof error), MOVE_PARSE_ILLEGAL);
	assert_int_equal(notation_parse_move(&p, "c4-d5", &m, error, sizeof error), MOVE_PARSE_SYNTAX);
}

/* A Russian game written as PDN: GameType 25, numbered from White's moves,
 * algebraic moves; read back, it is a Russian game again. */
static void test_pdn_round_trip(void **state)
{
	(void)state;
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	Position start;
	position_start_variant(&start, VARIANT_RUSSIAN);
	game_init(g, &start);
	const char *moves[] = {"c3-d4", "f6-g5", "d4-e5", "d6:f4", "g3:e5"};
	for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
		Move m;
		char error[NOTATION_ERROR_MAX];
		assert_int_equal(notation_parse_move(game_position(g), moves[i], &m, error, sizeof error),
		                 MOVE_PARSE_OK);
		assert_true(game_play(g, m));
	}
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	assert_non_null(f);
	PdnTag tags[] = {{"Event", "test"}};
	assert_true(pdn_write_game(f, g, tags, 1, NULL));
	fclose(f);
	assert_non_null(strstr(text, "[GameType \"25\"]"));
	assert_non_null(strstr(text, "1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *"));
	assert_null(strstr(text, "[FEN"));

	f = fmemopen(text, size, "r");
	PdnGame read = {0};
	char error[NOTATION_ERROR_MAX];
	assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
	assert_int_equal(read.game->ply_count, 5);
	assert_int_equal(game_position(read.game)->variant, VARIANT_RUSSIAN);
	assert_true(position_equal(game_position(read.game), game_position(g)));
	pdn_game_free(&read);
	fclose(f);
	free(text);

	/* GameType 26 with a FEN in numbers; an unknown GameType is an error. */
	const char *brazilian = "[GameType \"26,W,8,8,A0,0\"]\n[FEN \"W:W22,30:B18,26,11\"]\n1. 22x8 *\n\n"
	                        "[GameType \"20\"]\n1. 32-28 *\n";
	f = fmemopen((void *)brazilian, strlen(brazilian), "r");
	memset(&read, 0, sizeof read);
	assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
	assert_int_equal(game_position(read.game)->variant, VARIANT_BRAZILIAN);
	pdn_game_free(&read);
	memset(&read, 0, sizeof read);
	assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_ERROR);
	assert_non_null(strstr(error, "GameType 20"));
	pdn_game_free(&read);
	fclose(f);
	free(g);
}

/* The engine keeps its game in its variant: a game of other rules is
 * refused, and a move given without its crowning flag is played as the
 * generator has it. */
static void test_engine_variant(void **state)
{
	(void)state;
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = 1;
	o.variant = VARIANT_RUSSIAN;
	Engine *e = engine_create(&o);
	assert_non_null(e);
	assert_int_equal(game_position(engine_game(e))->side, WHITE);
	Position pool = support_position("W:W11:B7,9");
	assert_int_equal(engine_new_game(e, &pool), ENGINE_WRONG_VARIANT);
	Position russian = in_variant("W:W11:B7,9", VARIANT_RUSSIAN);
	assert_int_equal(engine_new_game(e, &russian), ENGINE_OK);
	assert_int_equal(engine_play(e, support_move(11, 13, bb_square(6) | bb_square(8))), ENGINE_OK);
	assert_true(game_position(engine_game(e))->kings & bb_square(12));
	o.variant = VARIANT_BRAZILIAN;
	assert_int_equal(engine_set_options(e, &o), ENGINE_OK);
	assert_int_equal(engine_game(e)->ply_count, 0);
	assert_int_equal(game_position(engine_game(e))->variant, VARIANT_BRAZILIAN);
	engine_destroy(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_descriptions),
	    cmocka_unit_test(test_draw_limits_from_table),
	    cmocka_unit_test(test_crowning_during_a_capture),
	    cmocka_unit_test(test_majority),
	    cmocka_unit_test(test_king_moves_only),
	    cmocka_unit_test(test_lone_king_counts),
	    cmocka_unit_test(test_long_diagonal_count_starts_on_arrival),
	    cmocka_unit_test(test_long_diagonal_arrival_into_a_capture),
	    cmocka_unit_test(test_count_in_a_game),
	    cmocka_unit_test(test_balance),
	    cmocka_unit_test(test_algebraic_notation),
	    cmocka_unit_test(test_pdn_round_trip),
	    cmocka_unit_test(test_engine_variant),
	    cmocka_unit_test(test_due_draw_raises_thirteen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
