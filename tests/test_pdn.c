/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PDN records: what pdn_write_game() writes, pdn_read_game() reads back; tolerant reading. */
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

/* Plays up to max_plies pseudo-random legal moves (a fixed LCG) until the game ends. */
static Game *random_game(const Position *start, int max_plies, uint32_t seed)
{
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	game_init(g, start);
	for (int i = 0; i < max_plies && game_status(g).result == RESULT_NONE; i++) {
		MoveList list;
		int n = movegen_generate(game_position(g), &list);
		seed = seed * 1103515245u + 12345u;
		assert_true(game_play(g, list.moves[(seed >> 16) % (uint32_t)n]));
	}
	return g;
}

static void assert_same_moves(const Game *a, const Game *b)
{
	assert_true(position_equal(&a->positions[0], &b->positions[0]));
	assert_int_equal(a->ply_count, b->ply_count);
	for (int i = 0; i < a->ply_count; i++)
		assert_true(move_equal(a->moves[i], b->moves[i]));
}

/* Writes `g` with a comment on every third ply, reads it back, compares all. */
static void round_trip(const Game *g)
{
	char **comments = calloc((size_t)g->ply_count + 1, sizeof *comments);
	PdnTag tags[] = {{"Event", "round \"trip\" \\ test"}, {"White", "w"}, {"Black", "b"}};
	assert_non_null(comments);
	for (int i = 0; i < g->ply_count; i += 3) {
		comments[i] = malloc(32);
		snprintf(comments[i], 32, "%+.2f/%d %d.%02ds", (i - 7) / 3.0, i % 11, i / 5, i % 100);
	}
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_true(pdn_write_game(f, g, tags, 3, (const char *const *)comments));
	assert_true(pdn_write_game(f, g, tags, 3, NULL)); /* two records in one file */
	rewind(f);

	char error[200];
	for (int copy = 0; copy < 2; copy++) {
		PdnGame read;
		assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
		assert_same_moves(g, read.game);
		assert_int_equal(read.result, game_status(g).result);
		assert_string_equal(pdn_game_tag(&read, "Event"), tags[0].value);
		assert_string_equal(pdn_game_tag(&read, "gametype"), "23");
		for (int i = 0; i < g->ply_count; i++) {
			if (copy == 0 && comments[i])
				assert_string_equal(read.comments[i], comments[i]);
			else
				assert_null(read.comments[i]);
		}
		pdn_game_free(&read);
	}
	PdnGame none;
	assert_int_equal(pdn_read_game(f, &none, error, sizeof error), PDN_READ_END);
	fclose(f);
	for (int i = 0; i < g->ply_count; i++)
		free(comments[i]);
	free(comments);
}

static void test_round_trip_from_start(void **state)
{
	(void)state;
	Position start;
	position_start(&start);
	for (uint32_t seed = 1; seed <= 20; seed++) {
		Game *g = random_game(&start, 400, seed);
		round_trip(g);
		free(g);
	}
}

static void test_round_trip_from_fen_white_to_move(void **state)
{
	(void)state;
	Position start;
	char error[NOTATION_ERROR_MAX];
	assert_true(notation_parse_fen("W:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,14",
	                               VARIANT_POOL, &start, error, sizeof error));
	Game *g = random_game(&start, 120, 7);
	FILE *f = tmpfile();
	assert_true(pdn_write_game(f, g, NULL, 0, NULL));
	rewind(f);
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	for (char *c = strchr(text, '\n'); c; c = strchr(c, '\n'))
		*c = ' '; /* the writer breaks lines where it likes */
	assert_non_null(strstr(text, "[FEN \""));
	assert_non_null(strstr(text, "1..."));
	rewind(f);
	PdnGame read;
	assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
	assert_same_moves(g, read.game);
	pdn_game_free(&read);
	fclose(f);
	free(g);
}

/* Parses `moves` (space-separated) from the start with notation alone. */
static Game *expected_game(const char *const *moves, int count)
{
	Game *g = malloc(sizeof *g);
	Position start;
	char error[NOTATION_ERROR_MAX];
	position_start(&start);
	game_init(g, &start);
	for (int i = 0; i < count; i++) {
		Move m;
		assert_int_equal(notation_parse_move(game_position(g), moves[i], &m, error, sizeof error),
		                 MOVE_PARSE_OK);
		assert_true(game_play(g, m));
	}
	return g;
}

static void test_tolerant_reader(void **state)
{
	(void)state;
	static const char text[] = "; a file comment line\n"
	                           "[Event \"first\"]\n[Result \"2-0\"]\n"
	                           "{before the moves} 1.11-15 23-19 $1 2. 8-11! (2. 9-14 22-17) 22-17?\n"
	                           "{ two\nlines } {joined} 3... 9-13\n"
	                           "[Event \"second\"]\n"
	                           "1. 11-15 ; rest of line\n 23-19 1/2-1/2\n"
	                           "\n[Event \"third\"] [FEN \"B:W18,22,28:B14\"] 1. 14x23 0-2\n";
	static const char *const first[] = {"11-15", "23-19", "8-11", "22-17", "9-13"};
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char error[200];
	PdnGame g;
	assert_non_null(f);

	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	Game *want = expected_game(first, 5);
	assert_same_moves(want, g.game);
	free(want);
	assert_string_equal(pdn_game_tag(&g, "Event"), "first");
	assert_int_equal(g.result, RESULT_NONE); /* no result token: ended by the next tags */
	assert_string_equal(g.comments[3], "two lines joined");
	assert_null(g.comments[0]);
	pdn_game_free(&g);

	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	want = expected_game(first, 2);
	assert_same_moves(want, g.game);
	free(want);
	assert_int_equal(g.result, RESULT_DRAW);
	assert_string_equal(g.comments[0], "rest of line");
	pdn_game_free(&g);

	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_int_equal(g.game->ply_count, 1);
	assert_int_equal(g.result, RESULT_BLACK_WINS);
	assert_int_equal(bb_count(game_position(g.game)->pieces[WHITE]), 2); /* 18 was taken */
	pdn_game_free(&g);
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_END);
	fclose(f);
}

static void test_bad_games_are_skipped(void **state)
{
	(void)state;
	static const char text[] = "[Event \"bad move\"]\n1. 11-15 23-17 2. 15-19 1-0\n"
	                           "[FEN \"B:W33:B1\"]\n1. 1-6 *\n"
	                           "[Event \"good\"]\n1. 11-15 *\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char error[200];
	PdnGame g;
	/* 23-17 is no move at all; the reader says which move failed. */
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_ERROR);
	assert_non_null(strstr(error, "move 2"));
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_ERROR);
	assert_non_null(strstr(error, "FEN"));
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_string_equal(pdn_game_tag(&g, "Event"), "good");
	assert_int_equal(g.game->ply_count, 1);
	pdn_game_free(&g);
	fclose(f);
}

/* The annotated writer: NAG, two comments and a variation after a move; the
 * game reads back the same (comments joined), the variation numbered as the
 * main line, and the next move without a repeated "N...". */
static void test_annotated_game(void **state)
{
	(void)state;
	static const char *const played[] = {"11-15", "23-19", "8-11", "22-17", "4-8", "17-13"};
	char error[200];
	Position start;
	position_start(&start);
	Game *g = malloc(sizeof *g);
	assert_non_null(g);
	game_init(g, &start);
	for (int i = 0; i < 6; i++) {
		Move m;
		assert_int_equal(notation_parse_move(game_position(g), played[i], &m, error, sizeof error),
		                 MOVE_PARSE_OK);
		assert_true(game_play(g, m));
	}
	/* Ply 2 (Black's second move, "2."): a variation of two other moves from there. */
	Move line[2];
	Position after;
	assert_int_equal(notation_parse_move(&g->positions[2], "9-14", &line[0], error, sizeof error),
	                 MOVE_PARSE_OK);
	position_make(&g->positions[2], line[0], &after);
	assert_int_equal(notation_parse_move(&after, "22-18", &line[1], error, sizeof error), MOVE_PARSE_OK);
	PdnPlyNote notes[6] = {{0}};
	notes[2] =
	    (PdnPlyNote){.nag = 4, .comments = {"old", "-1.10/6, best"}, .line = line, .line_length = 2};
	notes[3].comments[1] = "+0.20/5";
	notes[4].nag = 1;
	FILE *f = tmpfile();
	assert_true(pdn_write_annotated_game(f, g, NULL, 0, notes));
	rewind(f);
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	for (char *c = strchr(text, '\n'); c; c = strchr(c, '\n'))
		*c = ' '; /* the writer breaks lines where it likes */
	assert_non_null(strstr(
	    text, "2. 8-11 $4 {old} {-1.10/6, best} ( 2. 9-14 22-18 ) 22-17 {+0.20/5} 3. 4-8 $1 17-13"));
	assert_null(strstr(text, "2..."));
	assert_non_null(strstr(text, " $1"));
	rewind(f);
	/* A variation whose first move is not legal is left out. */
	rewind(f);
	notes[2].line = &line[1];
	notes[2].line_length = 1;
	assert_true(pdn_write_annotated_game(f, g, NULL, 0, notes));
	rewind(f);
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	assert_null(strchr(text, '('));
	rewind(f);
	PdnGame read;
	assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
	assert_same_moves(g, read.game);
	assert_string_equal(read.comments[2], "old -1.10/6, best");
	assert_string_equal(read.comments[3], "+0.20/5");
	assert_null(read.comments[4]);
	pdn_game_free(&read);
	fclose(f);
	free(g);
}

/* pdn_read_game_located(): the offset, ply, move number, side and Event of a bad game. */
static void test_error_place(void **state)
{
	(void)state;
	static const char text[] = "[Event \"first\"]\n1. 11-15 23-19 *\n\n"
	                           "[Event \"second\"]\n1. 11-15 23-19\n2. 8-11 22-17\n3. 4-8 17-10 *\n"
	                           "[GameType \"20\"]\n1. 32-28 *\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char error[200];
	PdnGame g;
	PdnErrorPlace where;
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_OK);
	pdn_game_free(&g);
	/* 17-10: White's third move, ply 6. */
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_ERROR);
	assert_string_equal(where.event, "second");
	assert_int_equal(where.ply, 6);
	assert_int_equal(where.move_number, 3);
	assert_int_equal(where.side, WHITE);
	const char *bad = strstr(text, "17-10");
	assert_true(where.offset >= bad - text && where.offset <= bad - text + 5);
	/* An unknown GameType: no move reached. */
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_ERROR);
	assert_non_null(strstr(error, "GameType"));
	assert_string_equal(where.event, "");
	assert_int_equal(where.ply, 0);
	assert_int_equal(where.move_number, 0);
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_END);
	fclose(f);
}

/* Russian and Brazilian records carry an algebraic FEN, as GameType 25
 * and 26 read; pool's stays numeric. Both forms are read in every variant. */
static void test_variant_fen_is_algebraic(void **state)
{
	(void)state;
	static const struct {
		Variant variant;
		const char *fen; /* as written */
	} cases[] = {
	    {VARIANT_RUSSIAN, "W:Wa1,c3,Kd4:Bb8,Kh8"},
	    {VARIANT_BRAZILIAN, "W:Wa1,c3,Kd4:Bb8,Kh8"},
	    {VARIANT_POOL, "W:WK18,22,29:B1,K4"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Position p;
		char error[200], fen[NOTATION_FEN_MAX];
		/* The same board from its numeric squares: a1 29, c3 22, d4 18, b8 1, h8 4. */
		assert_true(
		    notation_parse_fen("W:W29,22,K18:B1,K4", cases[i].variant, &p, error, sizeof error));
		notation_write_fen(&p, fen, sizeof fen);
		assert_string_equal(fen, cases[i].fen);
		Game *g = malloc(sizeof *g);
		assert_non_null(g);
		game_init(g, &p);
		FILE *f = tmpfile();
		assert_non_null(f);
		assert_true(pdn_write_game(f, g, NULL, 0, NULL));
		rewind(f);
		char text[1024];
		size_t n = fread(text, 1, sizeof text - 1, f);
		text[n] = '\0';
		char tag[160];
		snprintf(tag, sizeof tag, "[FEN \"%s\"]", cases[i].fen);
		assert_non_null(strstr(text, tag));
		rewind(f);
		PdnGame read;
		assert_int_equal(pdn_read_game(f, &read, error, sizeof error), PDN_READ_OK);
		assert_true(position_equal(&read.game->positions[0], &p));
		pdn_game_free(&read);
		fclose(f);
		free(g);
	}
	/* lidraughts' numeric form of the Russian start reads as the same board. */
	static const char numeric[] =
	    "[GameType \"25\"]\n[FEN \"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,"
	    "7,8,9,10,11,12\"]\n1. c3-d4 *\n";
	FILE *f = fmemopen((void *)numeric, sizeof numeric - 1, "r");
	char error[200];
	PdnGame g;
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	Position start;
	position_start_variant(&start, VARIANT_RUSSIAN);
	assert_true(position_equal(&g.game->positions[0], &start));
	pdn_game_free(&g);
	fclose(f);
}

/* The long form of GameType: the number picks the rules, the colour the
 * side that moves first (without a FEN tag), and the board must be 8x8. */
static void test_long_game_type(void **state)
{
	(void)state;
	static const char text[] = "[GameType \"25,W,8,8,A0,0\"]\n1. c3-d4 f6-g5 *\n"
	                           "[GameType \"23,W,8,8,N1,0\"]\n1. 22-18 11-15 *\n"
	                           "[GameType \"26,B,8,8,A0,0\"]\n[FEN \"W:Wc3:Bf6\"]\n1. c3-d4 *\n"
	                           "[GameType \"25,W,10,10,A0,0\"]\n1. c3-d4 *\n"
	                           "[GameType \"23,X,8,8,N1,0\"]\n1. 11-15 *\n"
	                           "[GameType \"26\"]\n1. c3-d4 *\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char error[200];
	PdnGame g;
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_int_equal(position_variant(&g.game->positions[0]), VARIANT_RUSSIAN);
	assert_int_equal(g.game->ply_count, 2);
	pdn_game_free(&g);
	/* Pool with White named first: the pool start, White to move. */
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_int_equal(position_variant(&g.game->positions[0]), VARIANT_POOL);
	assert_int_equal(g.game->positions[0].side, WHITE);
	assert_int_equal(g.game->ply_count, 2);
	/* Its positions are whole: the key covers the changed side to move. */
	for (int i = 0; i <= g.game->ply_count; i++)
		assert_int_equal(position_validate(&g.game->positions[i]), POSITION_OK);
	pdn_game_free(&g);
	/* The FEN tag's turn letter wins over the colour. */
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_int_equal(position_variant(&g.game->positions[0]), VARIANT_BRAZILIAN);
	assert_int_equal(g.game->ply_count, 1);
	pdn_game_free(&g);
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_ERROR);
	assert_non_null(strstr(error, "8x8 board"));
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_ERROR);
	assert_non_null(strstr(error, "colour that moves first"));
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_int_equal(position_variant(&g.game->positions[0]), VARIANT_BRAZILIAN);
	pdn_game_free(&g);
	fclose(f);
}

/* Where a damaged game is: its Event and Round tags and the line of the
 * problem, for messages that name the game (pool-match --summarize). */
static void test_errors_name_the_game_and_line(void **state)
{
	(void)state;
	static const char text[] = "[Event \"club\"]\n[Round \"1\"]\n1. 11-15 23-19 *\n\n"
	                           "[Event \"club\"]\n[Round \"2\"]\n\n1. 11-15 23-19\n2. 9-13 22-17\n"
	                           "3. 13x22 25x18 *\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char error[200];
	PdnGame g;
	PdnErrorPlace where;
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_OK);
	pdn_game_free(&g);
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_ERROR);
	assert_int_equal(strncmp(error, "move 6: illegal move 25x18", 26), 0);
	assert_string_equal(where.event, "club");
	assert_string_equal(where.round, "2");
	assert_int_equal(where.line, 10);
	assert_int_equal(pdn_read_game_located(f, &g, error, sizeof error, &where), PDN_READ_END);
	fclose(f);
}

/* Reads every game of `text` (length bytes, NULs allowed) and counts the outcomes;
 * at most `limit` calls, so a reader that stops making progress fails the test. */
static void read_all(const char *text, size_t length, int *ok, int *errors, int *failed)
{
	enum { limit = 100 };
	FILE *f = fmemopen((void *)text, length, "r");
	char error[200];
	PdnGame g;
	PdnReadStatus s;
	int calls = 0;
	assert_non_null(f);
	*ok = *errors = *failed = 0;
	while ((s = pdn_read_game(f, &g, error, sizeof error)) != PDN_READ_END) {
		assert_true(++calls < limit);
		if (s == PDN_READ_OK) {
			++*ok;
			pdn_game_free(&g);
		} else if (s == PDN_READ_ERROR) {
			++*errors;
		} else {
			++*failed;
			assert_non_null(strstr(error, "NUL"));
			break; /* the stream cannot be read on */
		}
	}
	fclose(f);
}

/* Empty tokens are ordinary PDN: `[Event ""]` heads the files of many programs. */
static void test_empty_tokens(void **state)
{
	(void)state;
	static const char text[] = "[Event \"\"]\n[Site \"\"]\n1. 11-15 {} 23-19 ; \n{}\n*\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char error[200];
	PdnGame g;
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_string_equal(pdn_game_tag(&g, "Event"), "");
	assert_int_equal(g.game->ply_count, 2);
	pdn_game_free(&g);
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_END);
	fclose(f);

	/* An empty comment adds nothing to the one before it. */
	static const char joined[] = "1. 11-15 {a} {} ; \n{ b } *\n";
	f = fmemopen((void *)joined, sizeof joined - 1, "r");
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_string_equal(g.comments[0], "a b");
	pdn_game_free(&g);
	fclose(f);

	int ok, errors, failed;
	read_all("{}", 2, &ok, &errors, &failed);
	assert_int_equal(ok, 1); /* a game with no moves */
	read_all(";\n", 2, &ok, &errors, &failed);
	assert_int_equal(ok, 1);
}

/* No PDN text holds a NUL byte: the reader says so and stops, wherever the NUL is. */
static void test_nul_bytes(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t length;
	} texts[] = {
#define TEXT(s) {s, sizeof s - 1}
	    TEXT("\0"),
	    TEXT("[Event \"x\"]\n1. 11-15\0 *\n"),
	    TEXT("[Event \"a\0b\"]\n1. 11-15 *\n"),
	    TEXT("[Event \"x\"]\n1. 11-15 {a\0b} *\n"),
	    TEXT("1. 11-15 23-19 ;\0\n *\n"),
	    TEXT("1. 11-15 (23-19\0) *\n"),
	    TEXT("[Event \"x\"]\n1. 11-15 *\n[Event\0 \"y\"]\n"),
#undef TEXT
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		int ok, errors, failed;
		read_all(texts[i].text, texts[i].length, &ok, &errors, &failed);
		assert_int_equal(failed, 1);
	}
	/* Also a stream of nothing but NULs, as from /dev/zero. */
	char zeros[4096] = {0};
	int ok, errors, failed;
	read_all(zeros, sizeof zeros, &ok, &errors, &failed);
	assert_int_equal(ok + errors, 0);
	assert_int_equal(failed, 1);
}

static void test_result_tokens(void **state)
{
	(void)state;
	GameResult r;
	for (GameResult want = RESULT_NONE; want <= RESULT_DRAW; want++) {
		assert_true(pdn_parse_result(game_result_text(want), &r));
		assert_int_equal(r, want);
	}
	assert_true(pdn_parse_result("0-2", &r));
	assert_int_equal(r, RESULT_BLACK_WINS);
	assert_false(pdn_parse_result("11-15", &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip_from_start),
	    cmocka_unit_test(test_round_trip_from_fen_white_to_move),
	    cmocka_unit_test(test_tolerant_reader),
	    cmocka_unit_test(test_bad_games_are_skipped),
	    cmocka_unit_test(test_annotated_game),
	    cmocka_unit_test(test_error_place),
	    cmocka_unit_test(test_variant_fen_is_algebraic),
	    cmocka_unit_test(test_long_game_type),
	    cmocka_unit_test(test_errors_name_the_game_and_line),
	    cmocka_unit_test(test_result_tokens),
	    cmocka_unit_test(test_empty_tokens),
	    cmocka_unit_test(test_nul_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
