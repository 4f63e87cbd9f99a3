/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Hub protocol refusing what is wrong: each bad line named, nothing changed, the session answering on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/hubline.h"
#include "poolshark/notation.h"
#include "support/hubpipe.h"
#include "support/session.h"

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
    {"set-param name=variant value=shogi", 0, "variant 'shogi' is not known (values: " VARIANT_NAMES ")"},
    {"set ponder maybe", 0, "true or false"},
    {"perft depth=0", 0, "too small"},
    {"move 11-19", 0, "illegal move 11-19"},
    {"move", 0, "move needs a move"},
};

/* Every bad line: a named error, nothing else printed, no state changed,
 * and the session still answers. */
static void test_errors_are_named_and_change_nothing(void **state)
{
	(void)state;
	Session *s = session_new();
	assert_true(session_send(s, "pos start moves=\"9-14 22-17\""));
	assert_true(session_send(s, "level depth=2"));
	char fen_before[NOTATION_FEN_MAX], options_before[2048];
	session_fen(s, fen_before, sizeof fen_before);
	session_options(s, options_before, sizeof options_before);
	for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
		const BadLine *b = &bad_lines[i];
		size_t length = b->length ? b->length : strlen(b->text);
		session_clear(s);
		assert_true(protocol_handle_line(s->protocol, b->text, length));
		if (s->out.count != 1 || strncmp(s->out.lines[0], "error message=", 14))
			fail_msg("'%s': expected one error line, got %d lines, first '%s'", b->text,
			         s->out.count, s->out.count ? s->out.lines[0] : "");
		char message[512];
		assert_non_null(session_value(s, "error", "message", message, sizeof message));
		if (!strstr(message, b->fragment))
			fail_msg("'%s': message '%s' lacks '%s'", b->text, message, b->fragment);
		char fen[NOTATION_FEN_MAX], options[2048];
		session_fen(s, fen, sizeof fen);
		assert_string_equal(fen, fen_before);
		session_options(s, options, sizeof options);
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
	assert_non_null(session_value(s, "done", "move", move, sizeof move));
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
	session_clear(s);
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
	assert_non_null(session_value(s, "error", "message", message, sizeof message));
	assert_non_null(strstr(message, "no position"));
	assert_false(protocol_is_searching(s->protocol));
	/* A client that waits for done after go is not left hanging. */
	assert_int_equal(s->out.count, 2);
	assert_string_equal(s->out.lines[1], "done");
	session_send(s, "undo");
	assert_non_null(session_value(s, "error", "message", message, sizeof message));
	assert_non_null(strstr(message, "no move to take back"));
	/* A side with no legal move cannot be searched either. */
	session_send(s, "pos fen=W:W29:B25,22");
	session_send(s, "go think");
	assert_non_null(session_value(s, "error", "message", message, sizeof message));
	assert_non_null(strstr(message, "no legal move"));
	assert_int_equal(s->out.count, 2);
	assert_true(!strncmp(s->out.lines[0], "error ", 6));
	assert_string_equal(s->out.lines[1], "done");
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
			char copy[HUBPIPE_LINE_MAX], error[HUBLINE_ERROR_MAX];
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

static void test_binary_prints_nothing_before_a_command(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char line[HUBPIPE_LINE_MAX];
	assert_int_equal(hub_engine_read_line(&e, line, sizeof line, 300), HUB_READ_TIMEOUT);
	hub_engine_stop(&e, 1000);
}

/* The error cases over the real pipes, each followed by a ping. */
static void test_binary_errors_then_ping(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	char line[HUBPIPE_LINE_MAX];
	for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
		const BadLine *b = &bad_lines[i];
		size_t length = b->length ? b->length : strlen(b->text);
		if (write(e.to_engine, b->text, length) != (ssize_t)length ||
		    write(e.to_engine, "\n", 1) != 1)
			fail_msg("write failed");
		hubpipe_send(&e, "ping");
		hubpipe_expect(&e, "error", 2000, line, sizeof line, NULL);
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
	hubpipe_send(&e, "ping");
	hubpipe_expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "line too long"));
	assert_int_equal(hub_engine_read_line(&e, line, sizeof line, 2000), HUB_READ_LINE);
	assert_string_equal(line, "pong");
	/* go without a position, in a fresh process. */
	hub_engine_stop(&e, 1000);
	hubpipe_spawn(&e);
	hubpipe_send(&e, "go think");
	hubpipe_send(&e, "ping");
	hubpipe_expect(&e, "error", 2000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "no position"));
	hubpipe_expect(&e, "pong", 2000, NULL, 0, NULL);
	hub_engine_stop(&e, 1000);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_errors_are_named_and_change_nothing),
	    cmocka_unit_test(test_huge_line_is_an_error),
	    cmocka_unit_test(test_go_needs_a_position),
	    cmocka_unit_test(test_every_reply_is_well_formed),
	    cmocka_unit_test(test_binary_prints_nothing_before_a_command),
	    cmocka_unit_test(test_binary_errors_then_ping),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
