/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The extension commands in process: move, undo, moves, fen, legal, game, perft and bench. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "support/session.h"
#include "support/support.h"

/* move, undo, moves and fen agree with the library. */
static void test_move_and_undo(void **state)
{
	(void)state;
	Session *s = session_new();
	char value[256], fen[NOTATION_FEN_MAX];
	session_send(s, "new-game");
	session_send(s, "move 11-15");
	assert_non_null(session_value(s, "move", "played", value, sizeof value));
	assert_string_equal(value, "11-15");
	session_send(s, "move 22-18");
	session_send(s, "moves");
	assert_non_null(session_value(s, "moves", "moves", value, sizeof value));
	assert_string_equal(value, "15x22");
	session_send(s, "undo");
	session_fen(s, fen, sizeof fen);
	Position expected, got;
	position_start(&expected);
	Move m;
	assert_int_equal(notation_parse_move(&expected, "11-15", &m, NULL, 0), MOVE_PARSE_OK);
	position_make(&expected, m, &expected);
	assert_true(notation_parse_fen(fen, VARIANT_POOL, &got, NULL, 0));
	assert_true(position_equal(&got, &expected));
	session_free(s);
}

/* legal: one line per legal move with its path, captured squares and Hub
 * form, each of which plays that move; then the count. */
static void test_legal_lists_paths(void **state)
{
	(void)state;
	Session *s = session_new();
	session_send(s, "pos fen=W:W18:B7,15,16,23,24");
	session_send(s, "legal");
	assert_int_equal(s->out.count, 4);
	assert_string_equal(s->out.lines[0], "legal move=18x11x2 path=18x11x2 captured=7,15 hub=18x2x7x15");
	assert_string_equal(
	    s->out.lines[1],
	    "legal move=18x27x20x11x2 path=18x27x20x11x2 captured=7,16,23,24 hub=18x2x7x16x23x24");
	assert_string_equal(
	    s->out.lines[2],
	    "legal move=18x18 path=18x27x20x11x18 captured=15,16,23,24 hub=18x18x15x16x23x24");
	assert_string_equal(s->out.lines[3], "legal count=3");
	/* Each path and each Hub form is read back as the same move. */
	Position pos;
	assert_true(notation_parse_fen("W:W18:B7,15,16,23,24", VARIANT_POOL, &pos, NULL, 0));
	MoveList list;
	movegen_generate(&pos, &list);
	for (int i = 0; i < 3; i++) {
		char copy[SESSION_LINE_MAX];
		HubLine line;
		snprintf(copy, sizeof copy, "%s", s->out.lines[i]);
		assert_true(hubline_parse(copy, &line, NULL, 0));
		Move by_path, by_hub;
		assert_int_equal(notation_parse_move(&pos, hubline_value(&line, "path"), &by_path, NULL, 0),
		                 MOVE_PARSE_OK);
		assert_int_equal(notation_parse_move(&pos, hubline_value(&line, "hub"), &by_hub, NULL, 0),
		                 MOVE_PARSE_OK);
		assert_true(move_equal(by_path, by_hub));
	}
	session_send(s, "pos start");
	session_send(s, "legal");
	assert_int_equal(s->out.count, 8);
	assert_string_equal(s->out.lines[0], "legal move=9-13 path=9-13 hub=9-13");
	assert_string_equal(s->out.lines[7], "legal count=7");
	session_send(s, "pos fen=B:W9,14:B5"); /* a lone blocked man: no move */
	session_send(s, "legal");
	assert_int_equal(s->out.count, 1);
	assert_string_equal(s->out.lines[0], "legal count=0");
	session_free(s);
}

/* game: the record the page shows, from the engine; the result once the
 * rules end the game. */
static void test_game_reports_the_record(void **state)
{
	(void)state;
	Session *s = session_new();
	session_send(s, "game");
	assert_string_equal(
	    s->out.lines[0],
	    "game start=B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 "
	    "fen=B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 plies=0 moves=\"\"");
	session_send(s, "pos fen=W:W18:B7,15,16,23,24 moves=\"18x27x20x11x2 15-19\"");
	session_send(s, "game");
	assert_string_equal(s->out.lines[0], "game start=W:W18:B7,15,16,23,24 fen=W:WK2:B19 plies=2 "
	                                     "moves=\"18x27x20x11x2 15-19\"");
	session_send(s, "pos fen=B:W18:B14");
	session_send(s, "move 14x23");
	session_send(s, "game");
	assert_string_equal(
	    s->out.lines[0],
	    "game start=B:W18:B14 fen=W:W:B23 plies=1 moves=14x23 result=0-1 reason=\"no legal move\"");
	session_send(s, "undo");
	session_send(s, "game");
	assert_string_equal(s->out.lines[0], "game start=B:W18:B14 fen=B:W18:B14 plies=0 moves=\"\"");
	session_free(s);
}

static void test_perft_matches_library(void **state)
{
	(void)state;
	Session *s = session_new();
	char value[64];
	session_send(s, "perft depth=5");
	assert_non_null(session_value(s, "perft", "nodes", value, sizeof value));
	assert_string_equal(value, "7482"); /* RULES.md 6 */
	session_send(s, "perft 3 divide");
	unsigned long long sum = 0;
	int moves = 0;
	for (int i = 0; i < s->out.count; i++)
		if (strstr(s->out.lines[i], "move=")) {
			sum += strtoull(strstr(s->out.lines[i], "nodes=") + 6, NULL, 10);
			moves++;
		}
	assert_int_equal(moves, 7);
	assert_int_equal(sum, 302);
	session_free(s);
}

/* The node total `poolshark bench` prints with these arguments. */
static unsigned long long bench_command_nodes(const char *arguments)
{
	char command[1024], line[512];
	snprintf(command, sizeof command, "%s bench %s", support_engine(), arguments);
	FILE *f = popen(command, "r");
	assert_non_null(f);
	unsigned long long nodes = 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "Nodes searched:", 15))
			nodes = strtoull(line + 15, NULL, 10);
	assert_int_equal(pclose(f), 0);
	assert_true(nodes > 0);
	return nodes;
}

/* The node total of the session's last bench line. */
static unsigned long long session_bench_nodes(Session *s)
{
	char value[64];
	session_send(s, "bench depth=7");
	assert_non_null(session_value(s, "bench", "nodes", value, sizeof value));
	/* The last bench line holds the total. */
	const char *total = strstr(s->out.lines[s->out.count - 1], "nodes=");
	assert_non_null(total);
	return strtoull(total + 6, NULL, 10);
}

/* `bench` in the protocol is the same measurement as `poolshark bench`,
 * under the session's eval-file too. */
static void test_bench_matches_the_bench_command(void **state)
{
	(void)state;
	unsigned long long expected = bench_command_nodes("7");
	unsigned long long trial = bench_command_nodes("--eval-file tools/data/nnue-pool-trial.bin 7");
	assert_true(trial != expected);
	Session *s = session_new();
	assert_int_equal(session_bench_nodes(s), expected);
	session_send(s, "set-param name=eval-file value=tools/data/nnue-pool-trial.bin");
	assert_int_equal(session_bench_nodes(s), trial);
	session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_move_and_undo),
	    cmocka_unit_test(test_legal_lists_paths),
	    cmocka_unit_test(test_game_reports_the_record),
	    cmocka_unit_test(test_perft_matches_library),
	    cmocka_unit_test(test_bench_matches_the_bench_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
