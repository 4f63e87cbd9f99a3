/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Hub commands of a game, in process and from a GUI over real pipes: pos, level, go, the handshake. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "poolshark/clock.h"
#include "poolshark/game.h"
#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "support/hubpipe.h"
#include "support/session.h"

static const char START_HUB[] = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/* A game that a draw rule ended on the way is taken whole: pos says which
 * rule drew it, and go still plays a move from the position sent (the GUI
 * is the referee; doc/PROTOCOL.md). */
static void test_pos_drawn_on_the_way(void **state)
{
	(void)state;
	Session *s = session_new();
	char message[256], fen[256], move[32];
	/* The start comes back for the third time after move 8; move 9 follows. */
	session_send(s, "pos fen=W:WK32:BK1 moves=\"32-28 1-5 28-32 5-1 32-28 1-5 28-32 5-1 32-28\"");
	assert_non_null(session_value(s, "info", "message", message, sizeof message));
	assert_string_equal(message, "drawn by the threefold repetition after move 8 of moves; playing on");
	session_fen(s, fen, sizeof fen);
	assert_string_equal(fen, "B:WK28:BK1");
	session_send(s, "level depth=2");
	session_send(s, "go think");
	protocol_wait(s->protocol);
	assert_non_null(session_value(s, "done", "move", move, sizeof move));
	/* A list no rule ends says nothing. */
	session_send(s, "pos fen=W:WK32:BK1 moves=\"32-28 1-5\"");
	assert_int_equal(s->out.count, 0);
	session_free(s);
}

/* A win in one ply is reported as 100 - 1/100 men. */
static void test_forced_win_score(void **state)
{
	(void)state;
	Session *s = session_new();
	session_send(s, "pos fen=W:W22:B18");
	session_send(s, "level depth=3");
	session_send(s, "go think");
	protocol_wait(s->protocol);
	char score[32], move[64];
	assert_non_null(session_value(s, "info", "score", score, sizeof score));
	assert_string_equal(score, "99.99");
	assert_non_null(session_value(s, "done", "move", move, sizeof move));
	assert_string_equal(move, "22x15x18");
	session_free(s);
}

static void test_binary_handshake(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	hubpipe_send(&e, "hub");
	char line[HUBPIPE_LINE_MAX];
	HubLine parsed;
	hubpipe_expect(&e, "id", 2000, line, sizeof line, NULL);
	hubpipe_parse_strict(line, &parsed);
	assert_string_equal(hubline_value(&parsed, "name"), "poolshark");
	assert_non_null(hubline_value(&parsed, "version"));
	assert_non_null(hubline_value(&parsed, "author"));
	assert_non_null(hubline_value(&parsed, "country"));
	const char *wanted[] = {"variant", "hash", "move-overhead", "ponder", "strength"};
	bool seen[5] = {false};
	for (;;) {
		assert_int_equal(hub_engine_read_line(&e, line, sizeof line, 2000), HUB_READ_LINE);
		if (!strcmp(line, "wait"))
			break;
		hubpipe_parse_strict(line, &parsed);
		assert_string_equal(parsed.command, "param");
		assert_non_null(hubline_value(&parsed, "type"));
		assert_non_null(hubline_value(&parsed, "value"));
		for (int i = 0; i < 5; i++)
			if (!strcmp(hubline_value(&parsed, "name"), wanted[i]))
				seen[i] = true;
	}
	for (int i = 0; i < 5; i++)
		if (!seen[i])
			fail_msg("no param line for %s", wanted[i]);
	hubpipe_send(&e, "set-param name=hash value=8");
	hubpipe_send(&e, "set-param name=variant value=pool");
	hubpipe_send(&e, "init");
	hubpipe_expect(&e, "ready", 2000, line, sizeof line, NULL);
	assert_string_equal(line, "ready");
	hubpipe_send(&e, "get hash");
	hubpipe_expect(&e, "get", 2000, line, sizeof line, NULL);
	assert_string_equal(line, "get name=hash value=8");
	hub_engine_stop(&e, 1000);
	assert_true(e.exited);
	assert_true(WIFEXITED(e.wait_status) && WEXITSTATUS(e.wait_status) == 0);
}

/* Appends a move in Hub form to a moves string. */
static void append_move(char *moves, size_t size, Move m)
{
	char text[NOTATION_MOVE_MAX];
	notation_write_move_hub(m, VARIANT_POOL, text, sizeof text);
	size_t n = strlen(moves);
	snprintf(moves + n, size - n, "%s%s", n ? " " : "", text);
}

/* A whole game the way a pydraughts-style client drives it: the initial
 * position plus every move so far, one level line, go think. */
static void test_binary_full_game(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char error[256];
	/* Without databases, so that the game is the same on every machine
	 * (make egdb puts them beside the binary). */
	HubParam params[] = {{"hash", "8"}, {"variant", "pool"}, {"egdb-path", "none"}};
	if (!hub_engine_handshake(&e, params, 3, 3000, error, sizeof error))
		fail_msg("handshake: %s", error);
	hubpipe_send(&e, "new-game");
	Game *game = malloc(sizeof *game);
	Position start;
	position_start(&start);
	game_init(game, &start);
	char moves[HUBPIPE_LINE_MAX] = "";
	int plies = 0;
	while (game_status(game).result == RESULT_NONE && plies < 300) {
		char line[HUBPIPE_LINE_MAX + 128];
		snprintf(line, sizeof line, "pos pos=%s moves=\"%s\"", START_HUB, moves);
		if (!moves[0])
			snprintf(line, sizeof line, "pos pos=%s", START_HUB);
		hubpipe_send(&e, line);
		hubpipe_send(&e, plies % 2 ? "level depth=3" : "level move-time=0.02");
		hubpipe_send(&e, "go think");
		Move m = hubpipe_read_done(&e, game_position(game), 5000, NULL, 0);
		assert_true(game_play(game, m));
		append_move(moves, sizeof moves, m);
		plies++;
	}
	/* The engine also ends the game: poolshark against itself at a low
	 * level reaches a result within 300 plies or the test is wrong. */
	assert_int_not_equal(game_status(game).result, RESULT_NONE);
	free(game);
	hub_engine_stop(&e, 1000);
}

/* The sequence pydraughts sends, with a clock: time and inc in seconds. */
static void test_binary_pydraughts_sequence(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char line[HUBPIPE_LINE_MAX];
	hubpipe_send(&e, "hub");
	hubpipe_expect(&e, "wait", 2000, NULL, 0, NULL);
	hubpipe_send(&e, "set-param name=variant value=pool");
	hubpipe_send(&e, "init");
	hubpipe_expect(&e, "ready", 2000, NULL, 0, NULL);
	/* Twelve plies picked by the library, written in Hub form. */
	Position p;
	position_start(&p);
	char moves[1024] = "";
	for (int i = 0; i < 12; i++) {
		MoveList list;
		int n = movegen_generate(&p, &list);
		assert_true(n > 0);
		Move m = list.moves[(i * 5) % n];
		append_move(moves, sizeof moves, m);
		position_make(&p, m, &p);
	}
	snprintf(line, sizeof line, "pos pos=%s moves=\"%s\"", START_HUB, moves);
	hubpipe_send(&e, line);
	hubpipe_send(&e, "level moves=0 time=3.5 inc=0.1");
	hubpipe_send(&e, "go think");
	int64_t start = clock_now_ms();
	hubpipe_read_done(&e, &p, 3000, NULL, 0);
	/* With 3.5 s on the clock a move must come well within the budget. */
	assert_true(clock_now_ms() - start < 2000);
	hub_engine_stop(&e, 1000);
}

/* What one go produced over the pipe: the error lines before done, the
 * last iteration's depth and the engine's own time for it, the move. */
typedef struct GoReply {
	int errors;
	char error[HUBPIPE_LINE_MAX];
	int depth;
	double seconds;
	Move move;
} GoReply;

static void go_and_read(HubEngine *e, const char *level, GoReply *out)
{
	memset(out, 0, sizeof *out);
	Position start;
	position_start(&start);
	hubpipe_send(e, "pos start");
	hubpipe_send(e, level);
	hubpipe_send(e, "go think");
	for (;;) {
		char line[HUBPIPE_LINE_MAX], copy[HUBPIPE_LINE_MAX];
		HubRead r = hub_engine_read_line(e, line, sizeof line, HUBPIPE_SLOW_MS);
		if (r != HUB_READ_LINE)
			fail_msg("'%s': no done within %d ms", level, HUBPIPE_SLOW_MS);
		snprintf(copy, sizeof copy, "%s", line);
		HubLine parsed;
		hubpipe_parse_strict(copy, &parsed);
		if (!strcmp(parsed.command, "error")) {
			if (!out->errors++)
				snprintf(out->error, sizeof out->error, "%s", line);
		} else if (!strcmp(parsed.command, "info")) {
			out->depth = atoi(hubline_value(&parsed, "depth"));
			out->seconds = atof(hubline_value(&parsed, "time"));
		} else if (!strcmp(parsed.command, "done")) {
			const char *move = hubline_value(&parsed, "move");
			assert_non_null(move);
			if (notation_parse_move(&start, move, &out->move, NULL, 0) != MOVE_PARSE_OK)
				fail_msg("'%s': done with '%s'", level, line);
			return;
		}
	}
}

/*
 * Clocks as clients send them (pydraughts, and so the lidraughts bot on
 * it): exponent forms, and a negative clock once it is overdrawn, which
 * means no time left. Each is read without an error and answered at once
 * with a searched move; before, each was refused and the next go thought
 * for the default second and lost on time. A level line that cannot be
 * read gets the same quick answer, not the default; a misspelt key is
 * named, and the rest of its line applies.
 */
static void test_binary_clocks_as_clients_send_them(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	static const char *const quick[] = {
	    "level time=9.999999999996123e-06",
	    "level time=-0.05",
	    "level moves=0 time=1e-3 inc=2E-3",
	    "level move-time=-1.5",
	    "level time=0 inc=0",
	    "level move-time=5e-3",
	};
	GoReply r;
	for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++) {
		go_and_read(&e, quick[i], &r);
		if (r.errors)
			fail_msg("'%s' answered '%s'", quick[i], r.error);
		assert_true(r.depth >= 1);
		/* The engine's own time for a budget of at most 5 ms: far from the
		 * default second even on a loaded machine. */
		if (r.seconds > 0.5)
			fail_msg("'%s': searched %.3f s", quick[i], r.seconds);
	}
	go_and_read(&e, "level time=abc", &r);
	assert_int_equal(r.errors, 1);
	assert_non_null(strstr(r.error, "time=abc is not a number of seconds"));
	if (r.seconds > 0.5)
		fail_msg("after a refused level: searched %.3f s", r.seconds);

	go_and_read(&e, "level depth=5 move-tme=1", &r);
	assert_int_equal(r.errors, 1);
	assert_non_null(strstr(r.error, "unknown key 'move-tme' ignored"));
	assert_int_equal(r.depth, 5);
	hub_engine_stop(&e, 1000);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pos_drawn_on_the_way),
	    cmocka_unit_test(test_forced_win_score),
	    cmocka_unit_test(test_binary_handshake),
	    cmocka_unit_test(test_binary_full_game),
	    cmocka_unit_test(test_binary_pydraughts_sequence),
	    cmocka_unit_test(test_binary_clocks_as_clients_send_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
