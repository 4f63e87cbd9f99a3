/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Transcript tests of the Hub protocol: in process, and against the real binary over pipes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "poolshark/bytes.h"
#include "poolshark/clock.h"
#include "poolshark/game.h"
#include "poolshark/hubline.h"
#include "poolshark/movegen.h"
#include "poolshark/nnue.h"
#include "poolshark/notation.h"
#include "poolshark/options.h"
#include "frontend/protocol.h"
#include "hubclient.h"
#include "support/support.h"

enum {
	LINE_CAP = 8192,
	TRANSCRIPT_CAP = 4096,
	/* How long a reply that must come may take. A correct engine answers
	 * in milliseconds; this only has to hold on a loaded machine under the
	 * sanitizers, and a broken one never answers at all. */
	SLOW_LIMIT_MS = 10000
};

static const char START_HUB[] = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/* ---- In process: a Protocol whose output lands in a list of lines. ---- */

typedef struct Transcript {
	int count;
	char *lines[TRANSCRIPT_CAP];
} Transcript;

static void transcript_write(const char *line, void *user)
{
	Transcript *t = user;
	if (t->count < TRANSCRIPT_CAP)
		t->lines[t->count++] = strdup(line);
}

static void transcript_clear(Transcript *t)
{
	for (int i = 0; i < t->count; i++)
		free(t->lines[i]);
	t->count = 0;
}

typedef struct Session {
	Protocol *protocol;
	Transcript out;
} Session;

static Session *session_new(void)
{
	Session *s = calloc(1, sizeof *s);
	ProtocolConfig config;
	protocol_default_config(&config);
	config.hash_mb = 4;
	config.max_perft_depth = 6;
	s->protocol = protocol_create(&config, transcript_write, &s->out);
	assert_non_null(s->protocol);
	return s;
}

static void session_free(Session *s)
{
	protocol_destroy(s->protocol);
	transcript_clear(&s->out);
	free(s);
}

/* Sends a line; clears what was printed before. */
static bool session_send(Session *s, const char *line)
{
	transcript_clear(&s->out);
	return protocol_handle_line(s->protocol, line, strlen(line));
}

/* The value of key in the first printed line that starts with command. */
static const char *reply_value(Session *s, const char *command, const char *key, char *out, size_t size)
{
	for (int i = 0; i < s->out.count; i++) {
		char copy[LINE_CAP];
		HubLine line;
		snprintf(copy, sizeof copy, "%s", s->out.lines[i]);
		if (!hubline_parse(copy, &line, NULL, 0) || !line.command || strcmp(line.command, command))
			continue;
		const char *v = hubline_value(&line, key);
		if (v) {
			snprintf(out, size, "%s", v);
			return out;
		}
	}
	return NULL;
}

static void current_fen(Session *s, char *out, size_t size)
{
	session_send(s, "fen");
	assert_non_null(reply_value(s, "fen", "value", out, size));
}

static void current_options(Session *s, char *out, size_t size)
{
	session_send(s, "get");
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < s->out.count; i++)
		used += (size_t)snprintf(out + used, size - used, "%s;", s->out.lines[i]);
}

typedef struct BadLine {
	const char *text;
	size_t length;        /* 0: strlen */
	const char *fragment; /* must appear in the error message */
} BadLine;

static const BadLine bad_lines[] = {
    {"pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwww", 0, "33 letters"},
    {"pos pos=Bbbbbbbbbbbbbeeeexeeewwwwwwwwwwww", 0, "bad letter 'x' for square 17"},
    {"pos pos=Beeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeb", 0, "crowning row"},
    {"pos pos=Bbbbbbbbbbbbbbbeeeeeewwwwwwwwwwww", 0, "14 black pieces"},
    {"pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", 0, "side letter"},
    {"pos fen=B:W21,22:B1,1", 0, "bad position"},
    {"pos start moves=\"11-15 22-18 15-19\"", 0, "move 3 in moves: illegal move 15-19"},
    {"pos fen=W:W18:B7,15,16,23,24 moves=\"18x2\"", 0, "ambiguous move 18x2"},
    {"pos start moves=\"11-15 banana\"", 0, "move 2 in moves"},
    {"pos", 0, "pos needs"},
    {"level depth=-3", 0, "negative"},
    {"level depth=99999999999999999999", 0, "too large"},
    {"level time=1e9", 0, "too large"},
    {"level time=1e", 0, "not a number"},
    {"level time=0x10", 0, "not a number"},
    {"level time=+1", 0, "not a number"},
    {"level move-time=inf", 0, "not a number"},
    {"level move-tme=1", 0, "unknown key 'move-tme'"},
    {"level time=5000000", 0, "too large"},
    {"level nodes=lots", 0, "not a whole number"},
    {"level move-time=nan", 0, "not a number"},
    {"level move-time=5.", 0, "not a number"},
    {"level move-time=.5", 0, "not a number"},
    {"level", 0, "level needs"},
    {"go sideways", 0, "go takes think"},
    {"frobnicate now", 0, "unknown command 'frobnicate'"},
    {"ping\0pong", 9, "NUL byte"},
    {"pos fen=\xc3\xa9", 0, "non-ASCII byte (0xc3)"},
    {"pos moves=\"11-15", 0, "quote never closes"},
    {"set-param name=hash value=0", 0, "too small"},
    {"set-param name=hash value=\" 32\"", 0, "not a whole number"},
    {"set-param name=hash value=+32", 0, "not a whole number"},
    {"set-param name=hash value=\"\t32\"", 0, "not a whole number"},
    {"perft depth=+3", 0, "not a whole number"},
    {"perft depth=\" 3\"", 0, "not a whole number"},
    {"set-param name=colour value=red", 0, "unknown option 'colour'"},
    {"set-param name=variant value=shogi", 0,
     "variant 'shogi' is not known (values: pool russian brazilian)"},
    {"set ponder maybe", 0, "true or false"},
    {"perft depth=0", 0, "too small"},
    {"move 11-19", 0, "illegal move 11-19"},
    {"move", 0, "move needs a move"},
};

/* Changing the variant starts that variant's game and says so; the moves
 * are then read and written as its players write them; pos start and the
 * Hub forms follow the engine's variant. */
static void test_variant_switch(void **state)
{
	(void)state;
	Session *s = session_new();
	char value[256];
	assert_true(session_send(s, "pos start moves=\"9-14 22-17\""));
	assert_true(session_send(s, "set-param name=variant value=russian"));
	assert_int_equal(s->out.count, 1);
	assert_non_null(reply_value(s, "info", "variant", value, sizeof value));
	assert_string_equal(value, "russian");
	current_fen(s, value, sizeof value);
	assert_string_equal(value,
	                    "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8");
	/* White moves first; the move is read in either form, written
	 * algebraic, as the FEN is. */
	assert_true(session_send(s, "move c3-d4"));
	assert_true(session_send(s, "move 11-15"));
	current_fen(s, value, sizeof value);
	assert_string_equal(value,
	                    "W:Wa1,a3,b2,c1,d2,d4,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e5,e7,f8,g7,h6,h8");
	/* The same value again changes nothing. */
	assert_true(session_send(s, "set-param name=variant value=russian"));
	assert_int_equal(s->out.count, 0);
	/* A bad value: an error, and the Russian game stays. */
	assert_true(session_send(s, "set-param name=variant value=checkers"));
	assert_non_null(reply_value(s, "error", "message", value, sizeof value));
	current_fen(s, value, sizeof value);
	assert_string_equal(value,
	                    "W:Wa1,a3,b2,c1,d2,d4,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e5,e7,f8,g7,h6,h8");
	assert_true(session_send(s, "pos start"));
	current_fen(s, value, sizeof value);
	assert_true(value[0] == 'W');
	assert_true(session_send(s, "set-param name=variant value=pool"));
	current_fen(s, value, sizeof value);
	assert_true(value[0] == 'B');
	session_free(s);
}

/* Every bad line: a named error, nothing else printed, no state changed,
 * and the session still answers. */
static void test_errors_are_named_and_change_nothing(void **state)
{
	(void)state;
	Session *s = session_new();
	assert_true(session_send(s, "pos start moves=\"9-14 22-17\""));
	assert_true(session_send(s, "level depth=2"));
	char fen_before[NOTATION_FEN_MAX], options_before[2048];
	current_fen(s, fen_before, sizeof fen_before);
	current_options(s, options_before, sizeof options_before);
	for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
		const BadLine *b = &bad_lines[i];
		size_t length = b->length ? b->length : strlen(b->text);
		transcript_clear(&s->out);
		assert_true(protocol_handle_line(s->protocol, b->text, length));
		if (s->out.count != 1 || strncmp(s->out.lines[0], "error message=", 14))
			fail_msg("'%s': expected one error line, got %d lines, first '%s'", b->text,
			         s->out.count, s->out.count ? s->out.lines[0] : "");
		char message[512];
		assert_non_null(reply_value(s, "error", "message", message, sizeof message));
		if (!strstr(message, b->fragment))
			fail_msg("'%s': message '%s' lacks '%s'", b->text, message, b->fragment);
		char fen[NOTATION_FEN_MAX], options[2048];
		current_fen(s, fen, sizeof fen);
		assert_string_equal(fen, fen_before);
		current_options(s, options, sizeof options);
		assert_string_equal(options, options_before);
		session_send(s, "ping");
		assert_int_equal(s->out.count, 1);
		assert_string_equal(s->out.lines[0], "pong");
	}
	/* The level of before the bad lines still holds: depth 2, not more. */
	session_send(s, "go think");
	protocol_wait(s->protocol);
	char depth[16], move[64];
	int last_depth = 0;
	for (int i = 0; i < s->out.count; i++)
		if (!strncmp(s->out.lines[i], "info ", 5))
			last_depth = atoi(strstr(s->out.lines[i], "depth=") + 6);
	assert_in_range(last_depth, 1, 2);
	assert_non_null(reply_value(s, "done", "move", move, sizeof move));
	(void)depth;
	session_free(s);
}

static void test_huge_line_is_an_error(void **state)
{
	(void)state;
	Session *s = session_new();
	size_t n = 1024 * 1024;
	char *line = malloc(n + 1);
	memset(line, 'x', n);
	line[n] = '\0';
	memcpy(line, "pos moves=", 10);
	transcript_clear(&s->out);
	assert_true(protocol_handle_line(s->protocol, line, n));
	assert_int_equal(s->out.count, 1);
	assert_non_null(strstr(s->out.lines[0], "line too long"));
	free(line);
	session_send(s, "ping");
	assert_string_equal(s->out.lines[0], "pong");
	session_free(s);
}

static void test_go_needs_a_position(void **state)
{
	(void)state;
	Session *s = session_new();
	char message[256];
	session_send(s, "go think");
	assert_non_null(reply_value(s, "error", "message", message, sizeof message));
	assert_non_null(strstr(message, "no position"));
	assert_false(protocol_is_searching(s->protocol));
	/* A client that waits for done after go is not left hanging. */
	assert_int_equal(s->out.count, 2);
	assert_string_equal(s->out.lines[1], "done");
	session_send(s, "undo");
	assert_non_null(reply_value(s, "error", "message", message, sizeof message));
	assert_non_null(strstr(message, "no move to take back"));
	/* A side with no legal move cannot be searched either. */
	session_send(s, "pos fen=W:W29:B25,22");
	session_send(s, "go think");
	assert_non_null(reply_value(s, "error", "message", message, sizeof message));
	assert_non_null(strstr(message, "no legal move"));
	assert_int_equal(s->out.count, 2);
	assert_true(!strncmp(s->out.lines[0], "error ", 6));
	assert_string_equal(s->out.lines[1], "done");
	session_free(s);
}

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
	assert_non_null(reply_value(s, "info", "message", message, sizeof message));
	assert_string_equal(message, "drawn by the threefold repetition after move 8 of moves; playing on");
	current_fen(s, fen, sizeof fen);
	assert_string_equal(fen, "B:WK28:BK1");
	session_send(s, "level depth=2");
	session_send(s, "go think");
	protocol_wait(s->protocol);
	assert_non_null(reply_value(s, "done", "move", move, sizeof move));
	/* A list no rule ends says nothing. */
	session_send(s, "pos fen=W:WK32:BK1 moves=\"32-28 1-5\"");
	assert_int_equal(s->out.count, 0);
	session_free(s);
}

/* `eval` shows the network's score beside the classic one, from the
 * engine's network: another eval-file gives another score of the same
 * position, and Russian rules the Russian network's. */
static void test_eval_shows_the_network(void **state)
{
	(void)state;
	Session *s = session_new();
	char first[32], other[32], classic[32];
	session_send(s, "eval");
	assert_non_null(reply_value(s, "eval", "net", first, sizeof first));
	assert_non_null(reply_value(s, "eval", "score", classic, sizeof classic));
	session_send(s, "set-param name=eval-file value=tools/data/nnue-pool-trial.bin");
	assert_int_equal(s->out.count, 0);
	session_send(s, "eval");
	assert_non_null(reply_value(s, "eval", "net", other, sizeof other));
	assert_string_not_equal(first, other);
	session_send(s, "set-param name=eval-file value=default");
	session_send(s, "eval");
	assert_non_null(reply_value(s, "eval", "net", other, sizeof other));
	assert_string_equal(first, other);
	session_free(s);
}

/* Every option of the table goes in through set-param and set and comes
 * back through get and the hub listing, each as the other one wrote it. */
static void test_every_option_round_trips(void **state)
{
	(void)state;
	Session *s = session_new();
	for (int i = 0; i < options_count(); i++) {
		const OptionDef *def = options_at(i);
		char wanted[2][OPTION_TEXT_MAX], command[OPTION_TEXT_MAX + 64], value[OPTION_TEXT_MAX];
		switch (def->type) {
		case OPTION_INT:
			snprintf(wanted[0], sizeof wanted[0], "%lld", def->min + 1);
			snprintf(wanted[1], sizeof wanted[1], "%lld", def->min);
			break;
		case OPTION_BOOL:
			snprintf(wanted[0], sizeof wanted[0], "true");
			snprintf(wanted[1], sizeof wanted[1], "false");
			break;
		case OPTION_ENUM:
			snprintf(wanted[0], sizeof wanted[0], "%.*s", (int)strcspn(def->values, " "),
			         def->values);
			snprintf(wanted[1], sizeof wanted[1], "%s", wanted[0]);
			break;
		case OPTION_TEXT:
			/* the book: the built-in one, then none; a database
			 * directory must exist: "none" round-trips anywhere;
			 * the network: a file, then the compiled-in one */
			if (!strcmp(def->name, "eval-file")) {
				snprintf(wanted[0], sizeof wanted[0], "tools/data/nnue-pool.bin");
				snprintf(wanted[1], sizeof wanted[1], "default");
				break;
			}
			snprintf(wanted[0], sizeof wanted[0], "%s",
			         strcmp(def->name, "book") ? "none" : "default");
			snprintf(wanted[1], sizeof wanted[1], "%s",
			         strcmp(def->name, "book") ? "none" : "off");
			break;
		}
		snprintf(command, sizeof command, "set-param name=%s value=%s", def->name, wanted[0]);
		session_send(s, command);
		assert_int_equal(s->out.count, 0);
		snprintf(command, sizeof command, "get %s", def->name);
		session_send(s, command);
		assert_non_null(reply_value(s, "get", "value", value, sizeof value));
		assert_string_equal(value, wanted[0]);
		session_send(s, "hub");
		bool listed = false;
		for (int k = 0; k < s->out.count; k++) {
			char copy[LINE_CAP];
			HubLine line;
			snprintf(copy, sizeof copy, "%s", s->out.lines[k]);
			if (hubline_parse(copy, &line, NULL, 0) && !strcmp(line.command, "param") &&
			    !strcmp(hubline_value(&line, "name"), def->name)) {
				assert_string_equal(hubline_value(&line, "value"), wanted[0]);
				listed = true;
			}
		}
		assert_true(listed);
		snprintf(command, sizeof command, "set %s %s", def->name, wanted[1]);
		session_send(s, command);
		assert_non_null(reply_value(s, "set", "value", value, sizeof value));
		assert_string_equal(value, wanted[1]);
		snprintf(command, sizeof command, "get %s", def->name);
		session_send(s, command);
		assert_non_null(reply_value(s, "get", "value", value, sizeof value));
		assert_string_equal(value, wanted[1]);
	}
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
	assert_non_null(reply_value(s, "info", "score", score, sizeof score));
	assert_string_equal(score, "99.99");
	assert_non_null(reply_value(s, "done", "move", move, sizeof move));
	assert_string_equal(move, "22x15x18");
	session_free(s);
}

/* move, undo, moves and fen agree with the library. */
static void test_move_and_undo(void **state)
{
	(void)state;
	Session *s = session_new();
	char value[256], fen[NOTATION_FEN_MAX];
	session_send(s, "new-game");
	session_send(s, "move 11-15");
	assert_non_null(reply_value(s, "move", "played", value, sizeof value));
	assert_string_equal(value, "11-15");
	session_send(s, "move 22-18");
	session_send(s, "moves");
	assert_non_null(reply_value(s, "moves", "moves", value, sizeof value));
	assert_string_equal(value, "15x22");
	session_send(s, "undo");
	current_fen(s, fen, sizeof fen);
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
		char copy[LINE_CAP];
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
	assert_non_null(reply_value(s, "perft", "nodes", value, sizeof value));
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
	const char *bin = getenv("POOLSHARK_BIN");
	char command[1024], line[512];
	snprintf(command, sizeof command, "%s bench %s", bin ? bin : "./poolshark", arguments);
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
	assert_non_null(reply_value(s, "bench", "nodes", value, sizeof value));
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

/* Every line printed for every command is a well-formed Hub line. */
static void test_every_reply_is_well_formed(void **state)
{
	(void)state;
	static const char *const lines[] = {
	    "hub",  "init",  "help", "board",    "board flip",      "fen",       "moves",         "eval",
	    "name", "about", "get",  "get hash", "set strength 50", "pos start", "level depth=2", "go think",
	};
	Session *s = session_new();
	protocol_greet(s->protocol);
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		session_send(s, lines[i]);
		protocol_wait(s->protocol);
		bool silent = !strncmp(lines[i], "pos", 3) || !strncmp(lines[i], "level", 5);
		assert_true(silent ? s->out.count == 0 : s->out.count > 0);
		for (int k = 0; k < s->out.count; k++) {
			char copy[LINE_CAP], error[HUBLINE_ERROR_MAX];
			HubLine parsed;
			snprintf(copy, sizeof copy, "%s", s->out.lines[k]);
			if (!hubline_parse(copy, &parsed, error, sizeof error))
				fail_msg("'%s' printed '%s': %s", lines[i], s->out.lines[k], error);
			if (!strcmp(lines[i], "hub") || !strcmp(lines[i], "go think"))
				for (int a = 0; a < parsed.count; a++)
					if (!parsed.tokens[a].value)
						fail_msg("bare word in '%s'", s->out.lines[k]);
		}
	}
	session_free(s);
}

/* ---- The real binary over pipes. ---- */

static const char *engine_binary(void)
{
	const char *bin = getenv("POOLSHARK_BIN");
	if (!bin)
		bin = "./poolshark";
	return bin;
}

static void spawn(HubEngine *e)
{
	char command[1024], error[256];
	snprintf(command, sizeof command, "%s hub", engine_binary());
	hub_engine_init(e);
	if (!hub_engine_spawn(e, command, error, sizeof error))
		fail_msg("spawn: %s", error);
}

static void send_line(HubEngine *e, const char *line)
{
	if (!hub_engine_send(e, line))
		fail_msg("engine gone while sending '%s'", line);
}

/* Reads lines until one whose command is `command` (others go to
 * `skipped` when not NULL); fails after timeout_ms. */
static void expect(HubEngine *e, const char *command, int timeout_ms, char *out, size_t size, int *skipped)
{
	int64_t deadline = clock_now_ms() + timeout_ms;
	for (;;) {
		int left = (int)(deadline - clock_now_ms());
		if (left < 0)
			left = 0;
		char line[LINE_CAP];
		HubRead r = hub_engine_read_line(e, line, sizeof line, left);
		if (r == HUB_READ_TIMEOUT)
			fail_msg("no '%s' within %d ms", command, timeout_ms);
		if (r == HUB_READ_EOF)
			fail_msg("engine closed its output while waiting for '%s'", command);
		size_t n = strlen(command);
		if (!strncmp(line, command, n) && (line[n] == ' ' || line[n] == '\0')) {
			if (out)
				snprintf(out, size, "%s", line);
			return;
		}
		if (skipped)
			(*skipped)++;
	}
}

/* Parses a line that must be well formed, with only key=value arguments. */
static void parse_strict(char *text, HubLine *line)
{
	char copy[LINE_CAP], error[HUBLINE_ERROR_MAX];
	snprintf(copy, sizeof copy, "%s", text);
	if (!hubline_parse(text, line, error, sizeof error))
		fail_msg("malformed line '%s': %s", copy, error);
	for (int i = 0; i < line->count; i++)
		if (!line->tokens[i].value)
			fail_msg("bare word '%s' in '%s'", line->tokens[i].key, copy);
}

static void test_binary_prints_nothing_before_a_command(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	char line[LINE_CAP];
	assert_int_equal(hub_engine_read_line(&e, line, sizeof line, 300), HUB_READ_TIMEOUT);
	hub_engine_stop(&e, 1000);
}

static void test_binary_handshake(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	send_line(&e, "hub");
	char line[LINE_CAP];
	HubLine parsed;
	expect(&e, "id", 2000, line, sizeof line, NULL);
	parse_strict(line, &parsed);
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
		parse_strict(line, &parsed);
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
	send_line(&e, "set-param name=hash value=8");
	send_line(&e, "set-param name=variant value=pool");
	send_line(&e, "init");
	expect(&e, "ready", 2000, line, sizeof line, NULL);
	assert_string_equal(line, "ready");
	send_line(&e, "get hash");
	expect(&e, "get", 2000, line, sizeof line, NULL);
	assert_string_equal(line, "get name=hash value=8");
	hub_engine_stop(&e, 1000);
	assert_true(e.exited);
	assert_true(WIFEXITED(e.wait_status) && WEXITSTATUS(e.wait_status) == 0);
}

/* Appends a move in Hub form to a moves string. */
static void append_move(char *moves, size_t size, Move m)
{
	char text[NOTATION_MOVE_MAX];
	notation_write_move_hub(m, text, sizeof text);
	size_t n = strlen(moves);
	snprintf(moves + n, size - n, "%s%s", n ? " " : "", text);
}

/* Reads the done line of a search; checks the info lines on the way and
 * returns the move (which must be legal in *p) and the ponder move text. */
static Move read_done(HubEngine *e, const Position *p, int timeout_ms, char *ponder, size_t ponder_size)
{
	int64_t deadline = clock_now_ms() + timeout_ms;
	for (;;) {
		char line[LINE_CAP];
		int left = (int)(deadline - clock_now_ms());
		HubRead r = hub_engine_read_line(e, line, sizeof line, left > 0 ? left : 0);
		if (r != HUB_READ_LINE)
			fail_msg("no done within %d ms", timeout_ms);
		HubLine parsed;
		parse_strict(line, &parsed);
		if (!strcmp(parsed.command, "info")) {
			static const char *const keys[] = {"depth", "mean-depth", "score",
			                                   "nodes", "time",       "nps"};
			for (int i = 0; i < 6; i++)
				if (!hubline_value(&parsed, keys[i]))
					fail_msg("info without %s", keys[i]);
			continue;
		}
		assert_string_equal(parsed.command, "done");
		/* pydraughts reads the first argument as the move, the second as ponder. */
		assert_true(parsed.count >= 1 && parsed.count <= 2);
		assert_string_equal(parsed.tokens[0].key, "move");
		if (ponder)
			snprintf(ponder, ponder_size, "%s", parsed.count == 2 ? parsed.tokens[1].value : "");
		if (parsed.count == 2)
			assert_string_equal(parsed.tokens[1].key, "ponder");
		Move m;
		char error[NOTATION_ERROR_MAX];
		if (notation_parse_move(p, parsed.tokens[0].value, &m, error, sizeof error) != MOVE_PARSE_OK)
			fail_msg("done move %s: %s", parsed.tokens[0].value, error);
		return m;
	}
}

/* A whole game the way a pydraughts-style client drives it: the initial
 * position plus every move so far, one level line, go think. */
static void test_binary_full_game(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	char error[256];
	/* Without databases, so that the game is the same on every machine
	 * (make egdb puts them beside the binary). */
	HubParam params[] = {{"hash", "8"}, {"variant", "pool"}, {"egdb-path", "none"}};
	if (!hub_engine_handshake(&e, params, 3, 3000, error, sizeof error))
		fail_msg("handshake: %s", error);
	send_line(&e, "new-game");
	Game *game = malloc(sizeof *game);
	Position start;
	position_start(&start);
	game_init(game, &start);
	char moves[LINE_CAP] = "";
	int plies = 0;
	while (game_status(game).result == RESULT_NONE && plies < 300) {
		char line[LINE_CAP + 128];
		snprintf(line, sizeof line, "pos pos=%s moves=\"%s\"", START_HUB, moves);
		if (!moves[0])
			snprintf(line, sizeof line, "pos pos=%s", START_HUB);
		send_line(&e, line);
		send_line(&e, plies % 2 ? "level depth=3" : "level move-time=0.02");
		send_line(&e, "go think");
		Move m = read_done(&e, game_position(game), 5000, NULL, 0);
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
	spawn(&e);
	char line[LINE_CAP];
	send_line(&e, "hub");
	expect(&e, "wait", 2000, NULL, 0, NULL);
	send_line(&e, "set-param name=variant value=pool");
	send_line(&e, "init");
	expect(&e, "ready", 2000, NULL, 0, NULL);
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
	send_line(&e, line);
	send_line(&e, "level moves=0 time=3.5 inc=0.1");
	send_line(&e, "go think");
	int64_t start = clock_now_ms();
	read_done(&e, &p, 3000, NULL, 0);
	/* With 3.5 s on the clock a move must come well within the budget. */
	assert_true(clock_now_ms() - start < 2000);
	hub_engine_stop(&e, 1000);
}

/* What one go produced over the pipe: the error lines before done, the
 * last iteration's depth and the engine's own time for it, the move. */
typedef struct GoReply {
	int errors;
	char error[LINE_CAP];
	int depth;
	double seconds;
	Move move;
} GoReply;

static void go_and_read(HubEngine *e, const char *level, GoReply *out)
{
	memset(out, 0, sizeof *out);
	Position start;
	position_start(&start);
	send_line(e, "pos start");
	send_line(e, level);
	send_line(e, "go think");
	for (;;) {
		char line[LINE_CAP], copy[LINE_CAP];
		HubRead r = hub_engine_read_line(e, line, sizeof line, SLOW_LIMIT_MS);
		if (r != HUB_READ_LINE)
			fail_msg("'%s': no done within %d ms", level, SLOW_LIMIT_MS);
		snprintf(copy, sizeof copy, "%s", line);
		HubLine parsed;
		parse_strict(copy, &parsed);
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
	spawn(&e);
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

static void start_analysis(HubEngine *e)
{
	send_line(e, "pos start");
	send_line(e, "go analyze");
}

static void test_binary_ping_and_stop_during_search(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	int64_t worst_stop = 0, total_stop = 0, worst_pong = 0;
	send_line(&e, "ping"); /* wait until the process is up */
	expect(&e, "pong", 2000, NULL, 0, NULL);
	const int rounds = 10;
	for (int round = 0; round < rounds; round++) {
		start_analysis(&e);
		usleep(30000);
		int64_t t0 = (clock_now_ns() / 1000);
		send_line(&e, "ping");
		expect(&e, "pong", SLOW_LIMIT_MS, NULL, 0, NULL);
		int64_t pong = (clock_now_ns() / 1000) - t0;
		/* Commands that cannot run now are refused, the search goes on. */
		send_line(&e, "pos start moves=\"11-15\"");
		char line[LINE_CAP];
		expect(&e, "error", SLOW_LIMIT_MS, line, sizeof line, NULL);
		assert_non_null(strstr(line, "during a search"));
		t0 = (clock_now_ns() / 1000);
		send_line(&e, "stop");
		Position p;
		position_start(&p);
		read_done(&e, &p, SLOW_LIMIT_MS, NULL, 0);
		int64_t latency = (clock_now_ns() / 1000) - t0;
		total_stop += latency;
		if (latency > worst_stop)
			worst_stop = latency;
		if (pong > worst_pong)
			worst_pong = pong;
	}
	fprintf(stderr, "stop -> done: mean %.2f ms, worst %.2f ms; ping -> pong worst %.2f ms\n",
	        (double)total_stop / rounds / 1000.0, (double)worst_stop / 1000.0,
	        (double)worst_pong / 1000.0);
	/* An analysis never ends by itself, so every pong and done above came
	 * from the command. The latencies are measured by bench/latency. */
	hub_engine_stop(&e, 1000);
}

static void test_binary_ponder_then_ponder_hit(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	send_line(&e, "set-param name=ponder value=true");
	send_line(&e, "pos start moves=\"11-15 22-18\"");
	send_line(&e, "level move-time=0.1");
	send_line(&e, "go ponder");
	/* Pondering does not end on its own. */
	char line[LINE_CAP];
	int64_t until = clock_now_ms() + 400;
	while (clock_now_ms() < until) {
		HubRead r = hub_engine_read_line(&e, line, sizeof line, (int)(until - clock_now_ms()));
		if (r == HUB_READ_LINE && !strncmp(line, "done", 4))
			fail_msg("done while pondering: %s", line);
	}
	int64_t t0 = clock_now_ms();
	send_line(&e, "ponder-hit");
	Position p;
	position_start(&p);
	Move m;
	notation_parse_move(&p, "11-15", &m, NULL, 0);
	position_make(&p, m, &p);
	notation_parse_move(&p, "22-18", &m, NULL, 0);
	position_make(&p, m, &p);
	/* Pondering never ends on its own: ponder-hit turned it into a search
	 * of 0.1 s, which ends on its own. */
	read_done(&e, &p, SLOW_LIMIT_MS, NULL, 0);
	fprintf(stderr, "ponder-hit -> done: %lld ms\n", (long long)(clock_now_ms() - t0));
	/* And a stopped ponder also ends with done. */
	send_line(&e, "go ponder");
	usleep(50000);
	send_line(&e, "stop");
	read_done(&e, &p, SLOW_LIMIT_MS, NULL, 0);
	hub_engine_stop(&e, 1000);
}

static void test_binary_exits_when_input_closes_mid_search(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	/* An analysis never ends on its own: the process must end because
	 * its input did. How fast is measured (bench/latency), not tested:
	 * the limit only has to hold on a loaded machine under sanitizers. */
	start_analysis(&e);
	usleep(100000);
	assert_true(hub_engine_is_alive(&e));
	int64_t t0 = (clock_now_ns() / 1000);
	close(e.to_engine);
	e.to_engine = -1;
	while (hub_engine_is_alive(&e) && (clock_now_ns() / 1000) - t0 < SLOW_LIMIT_MS * 1000)
		usleep(500);
	int64_t gone = (clock_now_ns() / 1000) - t0;
	fprintf(stderr, "stdin closed -> process gone: %.2f ms\n", (double)gone / 1000.0);
	assert_true(e.exited);
	assert_true(WIFEXITED(e.wait_status) && WEXITSTATUS(e.wait_status) == 0);
	hub_engine_stop(&e, 100);
}

/* The README's scripting example: with input closed right after go, a
 * bounded search still reaches its depth and prints done before the
 * process exits. */
static void test_binary_bounded_search_outlives_its_input(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	send_line(&e, "pos start");
	send_line(&e, "level depth=8");
	send_line(&e, "go think");
	close(e.to_engine);
	e.to_engine = -1;
	char line[LINE_CAP];
	int deepest = 0;
	bool done = false;
	while (hub_engine_read_line(&e, line, sizeof line, 20000) == HUB_READ_LINE) {
		HubLine parsed;
		assert_true(hubline_parse(line, &parsed, NULL, 0));
		if (!strcmp(parsed.command, "info"))
			deepest = atoi(hubline_value(&parsed, "depth"));
		if (!strcmp(parsed.command, "done")) {
			assert_non_null(hubline_value(&parsed, "move"));
			done = true;
		}
	}
	assert_int_equal(deepest, 8);
	assert_true(done);
	hub_engine_stop(&e, 1000);
	assert_true(e.exited);
}

/* The resident memory of a process in KiB, from /proc (0 when unknown). */
static long resident_kib(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long kib = 0;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "VmRSS:", 6))
			kib = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

/* A large table is set up without freezing the input: ping is answered at
 * once after set-param hash=2048 (the table used to be cleared in the
 * input thread first, which took about a second), and a search after it
 * still works. */
static void test_binary_large_hash_does_not_block(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	char line[LINE_CAP];
	send_line(&e, "set-param name=hash value=2048");
	int64_t asked = clock_now_ms();
	send_line(&e, "ping");
	expect(&e, "pong", 5000, line, sizeof line, NULL);
	int64_t answered = clock_now_ms() - asked;
	fprintf(stderr, "set-param hash=2048 then ping -> pong: %lld ms\n", (long long)answered);
	assert_true(answered < 300);
	send_line(&e, "pos start");
	send_line(&e, "level depth=4");
	send_line(&e, "go think");
	expect(&e, "done", 20000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "move="));
	send_line(&e, "set-param name=hash value=1");
	send_line(&e, "ping");
	expect(&e, "pong", 5000, line, sizeof line, NULL);
	hub_engine_stop(&e, 2000);
}

/* Tables come from the system and go back to it: after 200 resizes between
 * 1 and 7 MiB and one to 64 MiB, the process holds the 64 MiB table and
 * little else (the table plus 16 MiB at most). */
static void test_binary_resizes_give_memory_back(void **state)
{
	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip(); /* the sanitizer's shadow memory makes resident sizes meaningless */
#endif
	HubEngine e;
	spawn(&e);
	char line[LINE_CAP], command[64];
	for (int i = 0; i < 200; i++) {
		snprintf(command, sizeof command, "set-param name=hash value=%d", 1 + i % 7);
		send_line(&e, command);
	}
	send_line(&e, "set-param name=hash value=64");
	send_line(&e, "pos start");
	send_line(&e, "level depth=6");
	send_line(&e, "go think");
	expect(&e, "done", 20000, line, sizeof line, NULL);
	long kib = resident_kib(e.pid);
	fprintf(stderr, "resident after 200 resizes and hash=64: %.1f MiB\n", kib / 1024.0);
	assert_true(kib > 0);
	assert_true(kib <= (64 + 16) * 1024);
	hub_engine_stop(&e, 2000);
}

/* The error cases over the real pipes, each followed by a ping. */
static void test_binary_errors_then_ping(void **state)
{
	(void)state;
	HubEngine e;
	spawn(&e);
	char line[LINE_CAP];
	for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
		const BadLine *b = &bad_lines[i];
		size_t length = b->length ? b->length : strlen(b->text);
		if (write(e.to_engine, b->text, length) != (ssize_t)length ||
		    write(e.to_engine, "\n", 1) != 1)
			fail_msg("write failed");
		send_line(&e, "ping");
		expect(&e, "error", 2000, line, sizeof line, NULL);
		if (!strstr(line, b->fragment))
			fail_msg("'%s' answered '%s'", b->text, line);
		assert_int_equal(hub_engine_read_line(&e, line, sizeof line, 2000), HUB_READ_LINE);
		assert_string_equal(line, "pong");
	}
	/* A line of 1 MB: one error, and the next line is read in sync. */
	size_t n = 1024 * 1024;
	char *big = malloc(n + 1);
	memset(big, 'a', n);
	big[n] = '\n';
	size_t done = 0;
	while (done < n + 1) {
		ssize_t w = write(e.to_engine, big + done, n + 1 - done);
		assert_true(w > 0);
		done += (size_t)w;
	}
	free(big);
	send_line(&e, "ping");
	expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "line too long"));
	assert_int_equal(hub_engine_read_line(&e, line, sizeof line, 2000), HUB_READ_LINE);
	assert_string_equal(line, "pong");
	/* go without a position, in a fresh process. */
	hub_engine_stop(&e, 1000);
	spawn(&e);
	send_line(&e, "go think");
	send_line(&e, "ping");
	expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "no position"));
	expect(&e, "pong", 2000, NULL, 0, NULL);
	hub_engine_stop(&e, 1000);
}

/* ---- Network files (eval-file) over the real pipes. ---- */

/* The bytes of a file read whole (the test's own data: it must be there). */
static uint8_t *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	uint8_t *bytes = malloc(1 << 20);
	assert_non_null(bytes);
	*size = fread(bytes, 1, 1 << 20, f);
	fclose(f);
	return bytes;
}

static void write_whole(const char *path, const uint8_t *bytes, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0)
		fail_msg("cannot write %s", path);
}

/* The value of `get NAME`. */
static void get_value(HubEngine *e, const char *name, char *out, size_t size)
{
	char command[128], line[LINE_CAP];
	snprintf(command, sizeof command, "get %s", name);
	send_line(e, command);
	expect(e, "get", SLOW_LIMIT_MS, line, sizeof line, NULL);
	HubLine parsed;
	parse_strict(line, &parsed);
	assert_string_equal(hubline_value(&parsed, "name"), name);
	snprintf(out, size, "%s", hubline_value(&parsed, "value"));
}

/* The nodes of a depth-7 search of the start position from an empty
 * table: the same number for the same network. */
static long long search_nodes(HubEngine *e)
{
	send_line(e, "new-game");
	send_line(e, "pos start");
	send_line(e, "level depth=7");
	send_line(e, "go think");
	long long nodes = -1;
	for (;;) {
		char line[LINE_CAP];
		assert_int_equal(hub_engine_read_line(e, line, sizeof line, SLOW_LIMIT_MS), HUB_READ_LINE);
		HubLine parsed;
		parse_strict(line, &parsed);
		if (!strcmp(parsed.command, "done"))
			break;
		if (!strcmp(parsed.command, "error"))
			fail_msg("the search answered '%s'", line);
		if (!strcmp(parsed.command, "info") && hubline_value(&parsed, "nodes"))
			nodes = strtoll(hubline_value(&parsed, "nodes"), NULL, 10);
	}
	assert_true(nodes > 0);
	return nodes;
}

/* Sends `set-param name=NAME value=VALUE` and then a ping: the reply is an
 * error holding every one of `fragments` (NULL-terminated, any one of
 * the alternatives split by '|'), then pong. */
static void expect_refused(HubEngine *e, const char *name, const char *value, const char *const *fragments)
{
	char command[LINE_CAP], line[LINE_CAP];
	snprintf(command, sizeof command, "set-param name=%s value=%s", name, value);
	send_line(e, command);
	send_line(e, "ping");
	assert_int_equal(hub_engine_read_line(e, line, sizeof line, SLOW_LIMIT_MS), HUB_READ_LINE);
	if (strncmp(line, "error ", 6) != 0)
		fail_msg("'%s' answered '%s', not an error", command, line);
	for (; *fragments; fragments++) {
		char choices[LINE_CAP];
		snprintf(choices, sizeof choices, "%s", *fragments);
		bool found = false;
		for (char *save, *c = strtok_r(choices, "|", &save); c && !found;
		     c = strtok_r(NULL, "|", &save))
			found = strstr(line, c) != NULL;
		if (!found)
			fail_msg("'%s' answered '%s', without '%s'", command, line, *fragments);
	}
	assert_int_equal(hub_engine_read_line(e, line, sizeof line, SLOW_LIMIT_MS), HUB_READ_LINE);
	assert_string_equal(line, "pong");
}

/* A missing, cut, foreign or damaged network file is refused with an error
 * that names the file and the problem; the engine keeps the network it had
 * (the value of eval-file and the node count of a search under eval=net
 * stay) and goes on answering. A good file is taken, and a change of
 * variant that the file set does not fit is refused until eval-file is
 * default again. */
static void test_binary_refuses_bad_network_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/poolshark-evalfile-XXXXXX";
	assert_non_null(mkdtemp(dir));
	size_t size;
	uint8_t *pool = read_whole("tools/data/nnue-pool.bin", &size);
	assert_true(size > NNUE_HEADER_SIZE);
	char path[16][512];
	int n = 0;
	/* (a) missing, (b) cut short */
	snprintf(path[n++], sizeof path[0], "%s/missing.bin", dir);
	snprintf(path[n], sizeof path[0], "%s/truncated.bin", dir);
	write_whole(path[n++], pool, size / 2);
	/* (c) format version 3, with the checksum left as it was and recomputed */
	uint8_t *copy = malloc(size);
	assert_non_null(copy);
	memcpy(copy, pool, size);
	bytes_put32(copy + 8, NNUE_VERSION + 1);
	snprintf(path[n], sizeof path[0], "%s/version.bin", dir);
	write_whole(path[n++], copy, size);
	bytes_put64(copy + 56, nnue_checksum(copy, size));
	snprintf(path[n], sizeof path[0], "%s/version-summed.bin", dir);
	write_whole(path[n++], copy, size);
	/* (d) another rule set */
	snprintf(path[n++], sizeof path[0], "tools/data/nnue-russian.bin");
	/* (e) a header of hidden size 16 over the bytes of another size, and
	 * a hidden size this build does not take */
	memcpy(copy, pool, size);
	bytes_put32(copy + 24, NNUE_HIDDEN_MIN);
	bytes_put64(copy + 56, nnue_checksum(copy, size));
	snprintf(path[n], sizeof path[0], "%s/hidden16-wrong-size.bin", dir);
	write_whole(path[n++], copy, size);
	bytes_put32(copy + 24, NNUE_HIDDEN_MIN + 8);
	bytes_put64(copy + 56, nnue_checksum(copy, size));
	snprintf(path[n], sizeof path[0], "%s/hidden24.bin", dir);
	write_whole(path[n++], copy, size);
	/* (f) a directory, (g) 1 MB of noise */
	snprintf(path[n++], sizeof path[0], "%s", dir);
	uint8_t *noise = malloc(1 << 20);
	assert_non_null(noise);
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < 1 << 20; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		noise[i] = (uint8_t)x;
	}
	snprintf(path[n], sizeof path[0], "%s/noise.bin", dir);
	write_whole(path[n++], noise, 1 << 20);
	free(noise);
	static const char *const reasons[] = {
	    "No such file",
	    "truncated",
	    "format version 3",
	    "format version 3",
	    "a network for russian, not for pool",
	    "trailing bytes",
	    "hidden size 24",
	    "read error|directory",
	    "larger than any weights file",
	};
	_Static_assert(sizeof reasons / sizeof reasons[0] == 9, "one reason per bad file");
	assert_int_equal(n, 9);
	/* A good network of another hidden size (16, every weight 0). */
	size_t small_size = nnue_file_size(NNUE_HIDDEN_MIN, 1);
	uint8_t *small = calloc(1, small_size);
	assert_non_null(small);
	memcpy(small, pool, NNUE_HEADER_SIZE);
	bytes_put32(small + 24, NNUE_HIDDEN_MIN);
	bytes_put64(small + 56, nnue_checksum(small, small_size));
	char small_path[512];
	snprintf(small_path, sizeof small_path, "%s/hidden16.bin", dir);
	write_whole(small_path, small, small_size);
	free(small);

	HubEngine e;
	spawn(&e);
	send_line(&e, "set-param name=eval value=net");
	char value[LINE_CAP], command[LINE_CAP];
	long long nodes = 0;
	for (int with_file = 0; with_file < 2; with_file++) {
		const char *before = with_file ? "tools/data/nnue-pool.bin" : "default";
		snprintf(command, sizeof command, "set-param name=eval-file value=%s", before);
		send_line(&e, command);
		get_value(&e, "eval-file", value, sizeof value);
		assert_string_equal(value, before);
		nodes = search_nodes(&e);
		for (int i = 0; i < n; i++) {
			char named[600];
			snprintf(named, sizeof named, "eval-file: %.500s: ", path[i]);
			const char *fragments[] = {named, reasons[i], NULL};
			expect_refused(&e, "eval-file", path[i], fragments);
			get_value(&e, "eval-file", value, sizeof value);
			assert_string_equal(value, before);
			if (search_nodes(&e) != nodes)
				fail_msg("after %s was refused the search counts other nodes", path[i]);
		}
	}
	/* Under other rules the pool network is the foreign one. */
	const char *const pool_for_russian[] = {
	    "variant: eval-file: tools/data/nnue-pool.bin: ", "a network for pool, not for russian", NULL};
	expect_refused(&e, "variant", "russian", pool_for_russian);
	get_value(&e, "variant", value, sizeof value);
	assert_string_equal(value, "pool");
	get_value(&e, "eval-file", value, sizeof value);
	assert_string_equal(value, "tools/data/nnue-pool.bin");
	/* Another hidden size is a network like any other; its weights, all
	 * 0, score every position alike, so its search is not the pool
	 * network's (the node count does tell networks apart). */
	snprintf(command, sizeof command, "set-param name=eval-file value=%s", small_path);
	send_line(&e, command);
	get_value(&e, "eval-file", value, sizeof value);
	assert_string_equal(value, small_path);
	assert_true(search_nodes(&e) != nodes);
	send_line(&e, "set-param name=eval-file value=default");
	send_line(&e, "set-param name=variant value=russian");
	expect(&e, "info", SLOW_LIMIT_MS, value, sizeof value, NULL);
	get_value(&e, "variant", value, sizeof value);
	assert_string_equal(value, "russian");
	const char *const pool_here[] = {
	    "eval-file: tools/data/nnue-pool.bin: ", "a network for pool, not for russian", NULL};
	expect_refused(&e, "eval-file", "tools/data/nnue-pool.bin", pool_here);
	send_line(&e, "set-param name=eval-file value=tools/data/nnue-russian.bin");
	get_value(&e, "eval-file", value, sizeof value);
	assert_string_equal(value, "tools/data/nnue-russian.bin");
	hub_engine_stop(&e, 2000);
	free(copy);
	free(pool);
	assert_int_equal(support_remove_dir(dir), 0);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_errors_are_named_and_change_nothing),
	    cmocka_unit_test(test_variant_switch),
	    cmocka_unit_test(test_huge_line_is_an_error),
	    cmocka_unit_test(test_go_needs_a_position),
	    cmocka_unit_test(test_pos_drawn_on_the_way),
	    cmocka_unit_test(test_forced_win_score),
	    cmocka_unit_test(test_every_option_round_trips),
	    cmocka_unit_test(test_eval_shows_the_network),
	    cmocka_unit_test(test_binary_bounded_search_outlives_its_input),
	    cmocka_unit_test(test_binary_large_hash_does_not_block),
	    cmocka_unit_test(test_binary_resizes_give_memory_back),
	    cmocka_unit_test(test_move_and_undo),
	    cmocka_unit_test(test_legal_lists_paths),
	    cmocka_unit_test(test_game_reports_the_record),
	    cmocka_unit_test(test_perft_matches_library),
	    cmocka_unit_test(test_bench_matches_the_bench_command),
	    cmocka_unit_test(test_every_reply_is_well_formed),
	    cmocka_unit_test(test_binary_prints_nothing_before_a_command),
	    cmocka_unit_test(test_binary_handshake),
	    cmocka_unit_test(test_binary_full_game),
	    cmocka_unit_test(test_binary_pydraughts_sequence),
	    cmocka_unit_test(test_binary_clocks_as_clients_send_them),
	    cmocka_unit_test(test_binary_ping_and_stop_during_search),
	    cmocka_unit_test(test_binary_ponder_then_ponder_hit),
	    cmocka_unit_test(test_binary_exits_when_input_closes_mid_search),
	    cmocka_unit_test(test_binary_errors_then_ping),
	    cmocka_unit_test(test_binary_refuses_bad_network_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
