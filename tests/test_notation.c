/* SPDX-License-Identifier: GPL-3.0-or-later */
/* FEN, Hub position and move text: round trips and every rejection of RULES.md 4. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/position.h"
#include "support/reference.h"
#include "support/support.h"

/* True when `token` occurs in `text` not glued to other letters or digits,
 * so that "3" is found in "man on 3 stands" but not in "32". */
static bool mentions(const char *text, const char *token)
{
	size_t n = strlen(token);
	for (const char *s = strstr(text, token); s; s = strstr(s + 1, token)) {
		bool left = s == text || !isalnum((unsigned char)s[-1]);
		bool right = !isalnum((unsigned char)s[n]);
		if (left && right)
			return true;
	}
	return false;
}

/* Parses a FEN that must be rejected; returns the message (static buffer)
 * after checking that *out was left untouched. */
static const char *rejection(const char *fen)
{
	static char error[NOTATION_ERROR_MAX];
	Position sentinel = support_position("W:WK7:BK30"), out = sentinel;
	error[0] = '\0';
	bool ok = notation_parse_fen(fen, VARIANT_POOL, &out, error, sizeof error);
	if (ok)
		fprintf(stderr, "accepted a bad FEN: \"%s\"\n", fen);
	assert_false(ok);
	assert_true(position_equal(&out, &sentinel));
	assert_true(error[0] != '\0');
	fprintf(stderr, "  \"%s\" -> %s\n", fen, error);
	return error;
}

static Position parsed(const char *fen)
{
	Position p;
	char error[NOTATION_ERROR_MAX] = "";
	bool ok = notation_parse_fen(fen, VARIANT_POOL, &p, error, sizeof error);
	if (!ok)
		fprintf(stderr, "rejected \"%s\": %s\n", fen, error);
	assert_true(ok);
	assert_int_equal(position_validate(&p), POSITION_OK);
	return p;
}

/* --- FEN reading and writing --- */

static void test_fen_reads_the_forms_of_rules_4(void **state)
{
	(void)state;
	Position start, p;
	position_start(&start);
	p = parsed("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
	assert_true(position_equal(&p, &start) && p.key == start.key);
	p = parsed("B:W21-32:B1-12"); /* ranges */
	assert_true(position_equal(&p, &start));
	p = parsed("B:B1-12:W21-32"); /* lists in either order */
	assert_true(position_equal(&p, &start));
	p = parsed("B: W21-32: B1-12"); /* spaces after separators */
	assert_true(position_equal(&p, &start));
	p = parsed("B:W21, 22, 23, 24,25-32:B1-4, 5-12"); /* spaces after commas */
	assert_true(position_equal(&p, &start));
	p = parsed("B:W21-32:B1-12."); /* trailing '.' */
	assert_true(position_equal(&p, &start));
	p = parsed("W:WK3,21:B9"); /* kings */
	Position want = support_position("W:WK3,21:B9");
	assert_true(position_equal(&p, &want));
	p = parsed("W:WK3,K10:BK6,24");
	want = support_position("W:WK3,K10:BK6,24");
	assert_true(position_equal(&p, &want));
	p = parsed("B:W21:B"); /* an empty list */
	want = support_position("B:W21:B");
	assert_true(position_equal(&p, &want));
}

/* Writers: White first, ascending, no ranges (compared with an independent
 * writer), and the text reads back to the same position. */
static void check_fen_round_trip(const Position *p)
{
	char fen[NOTATION_FEN_MAX], want[NOTATION_FEN_MAX], error[NOTATION_ERROR_MAX];
	Position back;
	notation_write_fen(p, fen, sizeof fen);
	support_describe(p, want, sizeof want);
	if (strcmp(fen, want))
		fprintf(stderr, "FEN writer: \"%s\", expected \"%s\"\n", fen, want);
	assert_string_equal(fen, want);
	assert_true(notation_parse_fen(fen, VARIANT_POOL, &back, error, sizeof error));
	assert_true(position_equal(&back, p));
	assert_true(back.key == p->key);
}

static void test_fen_round_trips(void **state)
{
	(void)state;
	Rng rng = {55};
	Position p;
	position_start(&p);
	check_fen_round_trip(&p);
	for (int i = 0; i < 3000; i++) {
		support_random_position(&rng, 12, 6, &p);
		check_fen_round_trip(&p);
	}
	for (int i = 0; i < 300; i++) {
		Position start;
		position_start(&start);
		support_random_walk(&rng, &start, rng_below(&rng, 120), &p);
		check_fen_round_trip(&p);
	}
}

/* --- every rejection of RULES.md 4, each naming the offending token --- */

static void test_fen_rejects_square_outside_1_32(void **state)
{
	(void)state;
	assert_true(mentions(rejection("B:W21,33:B1"), "33"));
	assert_true(mentions(rejection("B:W21:B0,5"), "0"));
	assert_true(mentions(rejection("B:W21:B1-47"), "47"));
	assert_true(mentions(rejection("B:W99999999999999999999:B1"), "99999999999999999999") ||
	            strstr(rejection("B:W99999999999999999999:B1"), "999999"));
}

static void test_fen_rejects_square_listed_twice(void **state)
{
	(void)state;
	assert_true(mentions(rejection("B:W21,22,21:B1"), "21"));
	assert_true(mentions(rejection("B:W17:B9,17"), "17"));    /* in both lists */
	assert_true(mentions(rejection("B:W17-20,19:B1"), "19")); /* inside a range */
}

static void test_fen_rejects_man_on_its_crowning_row(void **state)
{
	(void)state;
	assert_true(mentions(rejection("B:W21,3:B9"), "3"));   /* white man on 1-4 */
	assert_true(mentions(rejection("W:W21:B9,30"), "30")); /* black man on 29-32 */
	parsed("B:WK3,21:B9,K30");                             /* kings may stand there */
}

static void test_fen_rejects_more_than_12_pieces(void **state)
{
	(void)state;
	/* 13 white pieces, none of them on a square numbered 13. */
	const char *error = rejection("B:W17-29:B1");
	assert_true(mentions(error, "13") || strstr(error, "12"));
	error = rejection("W:W32:B5-17"); /* 13 black men */
	assert_true(mentions(error, "13") || strstr(error, "12"));
	parsed("B:W21-32:B1-12"); /* twelve is fine */
}

static void test_fen_rejects_unknown_colour_letter(void **state)
{
	(void)state;
	assert_non_null(strstr(rejection("B:X21:B1"), "X"));
	assert_non_null(strstr(rejection("B:W21:Q1"), "Q"));
}

static void test_fen_rejects_unknown_turn_letter(void **state)
{
	(void)state;
	assert_non_null(strstr(rejection("Z:W21:B1"), "Z"));
	assert_non_null(strstr(rejection("X:W21:B1"), "X"));
}

static void test_fen_rejects_trailing_garbage(void **state)
{
	(void)state;
	assert_non_null(strstr(rejection("B:W21:B1 zz"), "zz"));
	assert_non_null(strstr(rejection("B:W21:B1.junk"), "junk"));
	assert_non_null(strstr(rejection("B:W21:B1#"), "#"));
	rejection("B:W21:B1:W22"); /* a third list */
}

static void test_fen_rejects_empty_input(void **state)
{
	(void)state;
	assert_non_null(strstr(rejection(""), "empty"));
	rejection("   ");
	rejection("B");
}

static void test_fen_survives_a_megabyte(void **state)
{
	(void)state;
	size_t n = 1 << 20;
	char *big = malloc(n + 1);
	assert_non_null(big);
	memcpy(big, "B:W", 3);
	for (size_t i = 3; i < n; i++)
		big[i] = (i % 3 == 0) ? ',' : '2';
	big[n] = '\0';
	Position p;
	char error[NOTATION_ERROR_MAX];
	assert_false(notation_parse_fen(big, VARIANT_POOL, &p, error, sizeof error));
	assert_true(strlen(error) < sizeof error);
	memset(big, '1', n);
	assert_false(notation_parse_fen(big, VARIANT_POOL, &p, error, sizeof error));
	assert_false(notation_parse_hub_position(big, VARIANT_POOL, &p, error, sizeof error));
	free(big);
}

/* --- Hub position --- */

static void independent_hub(const Position *p, char *out)
{
	RefBoard b;
	support_to_reference(p, &b);
	out[0] = b.side;
	for (int n = 1; n <= 32; n++)
		out[n] = b.squares[n] == '.' ? 'e' : b.squares[n];
	out[33] = '\0';
}

static void test_hub_position_round_trips(void **state)
{
	(void)state;
	char text[NOTATION_HUB_POSITION_MAX], want[40], error[NOTATION_ERROR_MAX];
	Position p, back;
	position_start(&p);
	notation_write_hub_position(&p, text, sizeof text);
	assert_string_equal(text, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
	Rng rng = {404};
	for (int i = 0; i < 3000; i++) {
		support_random_position(&rng, 12, 6, &p);
		notation_write_hub_position(&p, text, sizeof text);
		independent_hub(&p, want);
		assert_string_equal(text, want);
		assert_true(notation_parse_hub_position(text, VARIANT_POOL, &back, error, sizeof error));
		assert_true(position_equal(&back, &p) && back.key == p.key);
	}
}

static void test_hub_position_rejections(void **state)
{
	(void)state;
	Position p;
	char error[NOTATION_ERROR_MAX];
	assert_false(notation_parse_hub_position("Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwww", VARIANT_POOL, &p, error,
	                                         sizeof error)); /* 32 letters */
	assert_false(notation_parse_hub_position("Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwwe", VARIANT_POOL, &p,
	                                         error, sizeof error)); /* 34 */
	assert_false(notation_parse_hub_position("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", VARIANT_POOL, &p, error,
	                                         sizeof error));
	assert_non_null(strstr(error, "X"));
	assert_false(notation_parse_hub_position("Bbbbbbbbbbbbbeeeeqeeewwwwwwwwwwww", VARIANT_POOL, &p, error,
	                                         sizeof error));
	assert_non_null(strstr(error, "q"));
	assert_false(notation_parse_hub_position("", VARIANT_POOL, &p, error, sizeof error));
}

/* --- move text --- */

/*
 * An independent check of a printed path: from the origin (which counts as
 * empty), each leg runs along one diagonal over exactly one live enemy
 * piece and otherwise empty squares (dead pieces still block), and the
 * pieces jumped are exactly the move's captured set.
 */
static bool path_is_valid(const Position *p, Move m, const char *text)
{
	RefBoard b;
	support_to_reference(p, &b);
	char own_man = b.side == 'B' ? 'b' : 'w', own_king = own_man - 'a' + 'A';
	b.squares[m.from + 1] = '.';
	int squares[16], n = 0;
	for (const char *s = text; *s;) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || n == 16)
			return false;
		squares[n++] = (int)v;
		s = *end ? end + 1 : end;
	}
	if (n < 2 || squares[0] != m.from + 1 || squares[n - 1] != m.to + 1)
		return false;
	uint32_t dead = 0;
	for (int i = 0; i + 1 < n; i++) {
		int r = reference_row(squares[i]), c = reference_column(squares[i]);
		int dr = reference_row(squares[i + 1]) - r, dc = reference_column(squares[i + 1]) - c;
		if (dr == 0 || (dr != dc && dr != -dc))
			return false;
		int sr = dr > 0 ? 1 : -1, sc = dc > 0 ? 1 : -1, jumped = 0;
		for (int k = 1; k < (dr > 0 ? dr : -dr); k++) {
			int sq = reference_square_at(r + k * sr, c + k * sc);
			char x = b.squares[sq];
			if (x == '.')
				continue;
			if (x == own_man || x == own_king || (dead & (1u << (sq - 1))) || jumped)
				return false;
			dead |= 1u << (sq - 1);
			jumped++;
		}
		if (jumped != 1 || b.squares[squares[i + 1]] != '.')
			return false;
	}
	return dead == m.captured;
}

static int same_ends(const MoveList *list, Move m)
{
	int n = 0;
	for (int i = 0; i < list->count; i++)
		n += list->moves[i].from == m.from && list->moves[i].to == m.to;
	return n;
}

/* Parses text that must give exactly m. */
static bool reads_back(const Position *p, const char *text, Move m, const char *form)
{
	Move got = move_none();
	char error[NOTATION_ERROR_MAX] = "";
	MoveParse r = notation_parse_move(p, text, &got, error, sizeof error);
	if (r == MOVE_PARSE_OK && move_equal(got, m))
		return true;
	char fen[160], hub[80];
	support_describe(p, fen, sizeof fen);
	support_format_move(m, hub, sizeof hub);
	fprintf(stderr, "%s: %s form \"%s\" of %s read back as %d (%s)\n", fen, form, text, hub, r, error);
	return false;
}

/*
 * Every legal move of random positions: the Hub text equals the rules' form
 * (from x to x captured ascending); the PDN text is `a-b`, `axb` when no
 * other legal move joins those squares, else a valid full path; each form
 * reads back to the same move, including a one-piece capture whose full
 * path is just its two ends while a longer capture joins the same squares.
 */
static void check_move_texts(const Position *p, int *checked)
{
	MoveList list;
	movegen_generate(p, &list);
	for (int i = 0; i < list.count; i++) {
		Move m = list.moves[i];
		char hub[NOTATION_MOVE_MAX + 64], want[NOTATION_MOVE_MAX + 64];
		char pdn[NOTATION_MOVE_MAX], path[NOTATION_MOVE_MAX];
		notation_write_move_hub(m, position_variant(p), hub, sizeof hub);
		support_format_move(m, want, sizeof want);
		assert_string_equal(hub, want);
		assert_true(reads_back(p, hub, m, "hub"));

		notation_write_move(p, m, pdn, sizeof pdn);
		notation_write_move_path(p, m, path, sizeof path);
		if (!m.captured) {
			snprintf(want, sizeof want, "%d-%d", m.from + 1, m.to + 1);
			assert_string_equal(pdn, want);
			assert_string_equal(path, want);
			assert_true(reads_back(p, pdn, m, "quiet"));
			(*checked)++;
			continue;
		}
		if (!path_is_valid(p, m, path))
			fprintf(stderr, "invalid path \"%s\" for %s\n", path, hub);
		assert_true(path_is_valid(p, m, path));
		if (same_ends(&list, m) == 1) {
			snprintf(want, sizeof want, "%dx%d", m.from + 1, m.to + 1);
			assert_string_equal(pdn, want);
		} else {
			assert_string_equal(pdn, path);
		}
		assert_true(reads_back(p, pdn, m, "pdn"));
		assert_true(reads_back(p, path, m, "path"));
		(*checked)++;
	}
}

static void test_move_text_round_trips(void **state)
{
	(void)state;
	Rng rng = {9001};
	int checked = 0;
	Position start, p;
	position_start(&start);
	for (int i = 0; i < 1500; i++) {
		support_random_walk(&rng, &start, rng_below(&rng, 100), &p);
		check_move_texts(&p, &checked);
	}
	for (int i = 0; i < 4000; i++) {
		support_random_position(&rng, i % 2 ? 10 : 3, 4, &p);
		check_move_texts(&p, &checked);
	}
	static const char *examples[] = {"W:W9:B6,7",          "W:WK29:B25,19",
	                                 "W:W22:B17,18,11",    "W:WK8:B15,25",
	                                 "W:WK3,K10:BK6,24",   "W:W7,9,K22,23:B16,K18,24,26",
	                                 "B:W6,25,26,K4:B1,23"};
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		p = support_position(examples[i]);
		check_move_texts(&p, &checked);
	}
	fprintf(stderr, "move texts checked: %d\n", checked);
	assert_true(checked > 20000);
}

/* RULES.md 5: 8x29 is one move, and both full paths name it too. */
static void test_one_move_two_paths_parses(void **state)
{
	(void)state;
	Position p = support_position("W:WK8:B15,25");
	Move want = support_move(8, 29, bb_square(14) | bb_square(24));
	char text[NOTATION_MOVE_MAX];
	assert_true(reads_back(&p, "8x29", want, "short"));
	assert_true(reads_back(&p, "8x18x29", want, "path"));
	assert_true(reads_back(&p, "8x22x29", want, "path"));
	assert_true(reads_back(&p, "8x29x15x25", want, "hub"));
	assert_true(reads_back(&p, "8x29x25x15", want, "hub")); /* any order */
	notation_write_move(&p, want, text, sizeof text);
	assert_string_equal(text, "8x29");
}

/* Two legal captures join 22 and 29 (RULES.md 2.11: different captured
 * sets): "22x29" is ambiguous and the message lists both paths. */
static void test_ambiguous_capture(void **state)
{
	(void)state;
	/* Two different three-piece captures join 14 and 23: over 10, 8, 19
	 * and over 10, 11, 19. */
	Position p = support_position("W:WK14:B8,10,11,19");
	Move m = move_none();
	char error[NOTATION_ERROR_MAX] = "";
	assert_int_equal(notation_parse_move(&p, "14x23", &m, error, sizeof error), MOVE_PARSE_AMBIGUOUS);
	fprintf(stderr, "  %s\n", error);
	assert_non_null(strstr(error, "14x3x12x23"));
	assert_non_null(strstr(error, "14x7x16x23"));
	assert_true(reads_back(&p, "14x3x12x23",
	                       support_move(14, 23, bb_square(9) | bb_square(7) | bb_square(18)), "path"));
	assert_true(reads_back(&p, "14x7x16x23",
	                       support_move(14, 23, bb_square(9) | bb_square(10) | bb_square(18)), "path"));
}

/*
 * In W:WK22:B26,24,16,25 two captures join 22 and 29: 22x29 takes 25 alone,
 * 22x31x20x11x29 takes four. The one-piece capture's full path is just
 * "22x29"; read as a complete path it names that move alone, so the printed
 * form reads back, while the longer capture is named by its path or Hub form.
 */
static void test_short_path_of_a_capture_sharing_its_ends(void **state)
{
	(void)state;
	Position p = support_position("W:WK22:B26,24,16,25");
	Move shorter = support_move(22, 29, bb_square(24));
	Move longer = support_move(22, 29, bb_square(15) | bb_square(23) | bb_square(24) | bb_square(25));
	char text[NOTATION_MOVE_MAX];
	notation_write_move(&p, shorter, text, sizeof text);
	assert_string_equal(text, "22x29");
	assert_true(reads_back(&p, text, shorter, "pdn"));
	assert_true(reads_back(&p, "22x29x25", shorter, "hub"));
	notation_write_move(&p, longer, text, sizeof text);
	assert_string_equal(text, "22x31x20x11x29");
	assert_true(reads_back(&p, text, longer, "path"));
	assert_true(reads_back(&p, "22x29x16x24x25x26", longer, "hub"));
}

static void test_illegal_and_garbage_moves(void **state)
{
	(void)state;
	Position p;
	Move m = move_none();
	char error[NOTATION_ERROR_MAX];
	position_start(&p);
	assert_int_equal(notation_parse_move(&p, "11-18", &m, error, sizeof error), MOVE_PARSE_ILLEGAL);
	assert_non_null(strstr(error, "11-18"));
	assert_int_equal(notation_parse_move(&p, "1-5", &m, error, sizeof error), MOVE_PARSE_ILLEGAL);
	assert_int_equal(notation_parse_move(&p, "12-17", &m, error, sizeof error), MOVE_PARSE_ILLEGAL);
	assert_int_equal(notation_parse_move(&p, "21-17", &m, error, sizeof error),
	                 MOVE_PARSE_ILLEGAL); /* White's man, Black to move */
	assert_int_equal(notation_parse_move(&p, "9x18", &m, error, sizeof error), MOVE_PARSE_ILLEGAL);
	assert_true(reads_back(&p, "9-13", support_move(9, 13, 0), "quiet"));
	assert_true(reads_back(&p, " 9-13 ", support_move(9, 13, 0), "spaces"));
	p = support_position("W:W22,31:B18");
	/* Compulsory capture: the quiet step is illegal. */
	assert_int_equal(notation_parse_move(&p, "31-27", &m, error, sizeof error), MOVE_PARSE_ILLEGAL);
	static const char *garbage[] = {"",    "   ",   "hello", "x",      "-",
	                                "11",  "11-",   "-15",   "11-15-", "11--15",
	                                "a-b", "11 15", "0-4",   "33-29",  "11-15 junk"};
	position_start(&p);
	for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
		MoveParse r = notation_parse_move(&p, garbage[i], &m, error, sizeof error);
		if (r != MOVE_PARSE_SYNTAX)
			fprintf(stderr, "\"%s\" gave %d, not MOVE_PARSE_SYNTAX (%s)\n", garbage[i], r, error);
		assert_int_equal(r, MOVE_PARSE_SYNTAX);
		assert_true(error[0] != '\0');
	}
}

static void test_move_parser_survives_a_megabyte(void **state)
{
	(void)state;
	size_t n = 1 << 20;
	char *big = malloc(n + 1);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = "11x"[i % 3];
	big[n] = '\0';
	Position p = support_position("W:WK8:B15,25");
	Move m = move_none();
	char error[NOTATION_ERROR_MAX];
	assert_int_not_equal(notation_parse_move(&p, big, &m, error, sizeof error), MOVE_PARSE_OK);
	memset(big, '9', n);
	assert_int_not_equal(notation_parse_move(&p, big, &m, error, sizeof error), MOVE_PARSE_OK);
	free(big);
}

/* Every reader gives a position of the rules it was asked for, so no
 * caller patches ->variant after reading. */
static void test_readers_take_the_variant(void **state)
{
	(void)state;
	for (int v = 0; v < VARIANT_COUNT; v++) {
		Position p;
		char error[NOTATION_ERROR_MAX];
		/* c3 is light on the mirrored boards (Italian, Spanish); d3 is dark. */
		const char *fen = variant_board_mirrored(variant_rules((Variant)v)->numbering)
		                      ? "W:Wd3,K18:B14"
		                      : "W:Wc3,K18:B1";
		assert_true(notation_parse_fen(fen, (Variant)v, &p, error, sizeof error));
		assert_int_equal(position_variant(&p), v);
		assert_true(notation_parse_fen_board("B:W1:B", (Variant)v, &p, error, sizeof error));
		assert_int_equal(position_variant(&p), v);
		assert_true(notation_parse_hub_position("Weeeeeeeeeeeeebeeeweeeeeeeeeeeeee", (Variant)v, &p,
		                                        error, sizeof error));
		assert_int_equal(position_variant(&p), v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fen_reads_the_forms_of_rules_4),
	    cmocka_unit_test(test_readers_take_the_variant),
	    cmocka_unit_test(test_fen_round_trips),
	    cmocka_unit_test(test_fen_rejects_square_outside_1_32),
	    cmocka_unit_test(test_fen_rejects_square_listed_twice),
	    cmocka_unit_test(test_fen_rejects_man_on_its_crowning_row),
	    cmocka_unit_test(test_fen_rejects_more_than_12_pieces),
	    cmocka_unit_test(test_fen_rejects_unknown_colour_letter),
	    cmocka_unit_test(test_fen_rejects_unknown_turn_letter),
	    cmocka_unit_test(test_fen_rejects_trailing_garbage),
	    cmocka_unit_test(test_fen_rejects_empty_input),
	    cmocka_unit_test(test_fen_survives_a_megabyte),
	    cmocka_unit_test(test_hub_position_round_trips),
	    cmocka_unit_test(test_hub_position_rejections),
	    cmocka_unit_test(test_move_text_round_trips),
	    cmocka_unit_test(test_one_move_two_paths_parses),
	    cmocka_unit_test(test_ambiguous_capture),
	    cmocka_unit_test(test_short_path_of_a_capture_sharing_its_ends),
	    cmocka_unit_test(test_illegal_and_garbage_moves),
	    cmocka_unit_test(test_move_parser_survives_a_megabyte),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
