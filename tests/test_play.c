/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of `poolshark play` (and the terminal greeting) driving the real binary over pipes and a pty. */
#define _GNU_SOURCE /* ptsname_r */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "poolshark/clock.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/pdn.h"
#include "support/support.h"

enum { OUTPUT_CAP = 1 << 18 };

typedef struct Child {
	pid_t pid;
	int in, out; /* the same descriptor on a pty */
	size_t length;
	char text[OUTPUT_CAP];
} Child;

/* Starts the binary with `args` (NULL-terminated) on pipes or on a pty. */
static Child *child_start(bool pty, const char *const *args)
{
	Child *c = calloc(1, sizeof *c);
	char *argv[16];
	int n = 0;
	argv[n++] = (char *)support_engine();
	for (; *args && n < 15; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	int to_child[2] = {-1, -1}, from_child[2] = {-1, -1}, master = -1;
	char slave_name[128] = "";
	if (pty) {
		master = posix_openpt(O_RDWR | O_NOCTTY);
		assert_true(master >= 0);
		assert_int_equal(grantpt(master), 0);
		assert_int_equal(unlockpt(master), 0);
		assert_int_equal(ptsname_r(master, slave_name, sizeof slave_name), 0);
	} else {
		assert_int_equal(pipe(to_child), 0);
		assert_int_equal(pipe(from_child), 0);
	}
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		if (pty) {
			setsid();
			int slave = open(slave_name, O_RDWR);
			if (slave < 0)
				_exit(126);
			dup2(slave, 0);
			dup2(slave, 1);
			close(master);
		} else {
			dup2(to_child[0], 0);
			dup2(from_child[1], 1);
			dup2(from_child[1], 2); /* error messages are part of the transcript */
			close(to_child[1]);
			close(from_child[0]);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	if (pty) {
		c->in = c->out = master;
	} else {
		close(to_child[0]);
		close(from_child[1]);
		c->in = to_child[1];
		c->out = from_child[0];
	}
	return c;
}

/* Reads until the output (since the last clear) contains marker. */
static bool child_wait_for(Child *c, const char *marker, int timeout_ms)
{
	int64_t deadline = clock_now_ms() + timeout_ms;
	for (;;) {
		c->text[c->length] = '\0';
		if (strstr(c->text, marker))
			return true;
		int left = (int)(deadline - clock_now_ms());
		if (left <= 0)
			return false;
		struct pollfd pfd = {c->out, POLLIN, 0};
		if (poll(&pfd, 1, left) <= 0)
			continue;
		if (c->length + 1 >= sizeof c->text)
			fail_msg("child printed more than %d bytes", OUTPUT_CAP);
		ssize_t got = read(c->out, c->text + c->length, sizeof c->text - 1 - c->length);
		if (got <= 0)
			return strstr(c->text, marker) != NULL;
		c->length += (size_t)got;
	}
}

static void child_expect(Child *c, const char *marker)
{
	if (!child_wait_for(c, marker, 10000))
		fail_msg("no '%s' in the output:\n%s", marker, c->text);
}

static void child_clear(Child *c)
{
	c->length = 0;
	c->text[0] = '\0';
}

static void child_send(Child *c, const char *line)
{
	size_t n = strlen(line);
	assert_int_equal(write(c->in, line, n), (ssize_t)n);
	assert_int_equal(write(c->in, "\n", 1), 1);
}

/* Waits for the exit; returns the exit status, or -1 (then kills it). */
static int child_finish(Child *c, int timeout_ms)
{
	int status = 0, code = -1;
	int64_t deadline = clock_now_ms() + timeout_ms;
	while (clock_now_ms() < deadline) {
		pid_t r = waitpid(c->pid, &status, WNOHANG);
		if (r == c->pid) {
			code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
			break;
		}
		/* Keep draining so that a full pipe cannot block the child. */
		child_wait_for(c, "\x01", 5);
		child_clear(c);
	}
	if (code == -1 && waitpid(c->pid, &status, WNOHANG) == 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &status, 0);
	}
	close(c->in);
	if (c->out != c->in)
		close(c->out);
	free(c);
	return code;
}

/* The position of the last `fen` line, read under `variant`'s rules. */
static Position last_fen(const Child *c, Variant variant)
{
	const char *s = c->text, *found = NULL;
	while ((s = strstr(s, "\nfen ")))
		found = ++s;
	if (!found)
		fail_msg("no fen line in:\n%s", c->text);
	char fen[NOTATION_FEN_MAX + 8];
	size_t n = strcspn(found + 4, "\r\n");
	if (n >= sizeof fen)
		fail_msg("fen line too long");
	memcpy(fen, found + 4, n);
	fen[n] = '\0';
	Position p;
	char error[NOTATION_ERROR_MAX];
	if (!notation_parse_fen(fen, variant, &p, error, sizeof error))
		fail_msg("bad fen '%s': %s", fen, error);
	return p;
}

/* The move after "poolshark plays " in the output, as a move of *p. */
static Move engine_reply(const Child *c, const Position *p)
{
	const char *s = strstr(c->text, "poolshark plays ");
	if (!s)
		fail_msg("no engine move in:\n%s", c->text);
	char text[NOTATION_MOVE_MAX];
	size_t n = strcspn(s + 16, " \r\n");
	if (n >= sizeof text)
		fail_msg("engine move too long");
	memcpy(text, s + 16, n);
	text[n] = '\0';
	Move m;
	char error[NOTATION_ERROR_MAX];
	if (notation_parse_move(p, text, &m, error, sizeof error) != MOVE_PARSE_OK)
		fail_msg("engine played '%s': %s", text, error);
	return m;
}

static void play_and_check(Child *c, Position *p, const char *text)
{
	Move m;
	assert_int_equal(notation_parse_move(p, text, &m, NULL, 0), MOVE_PARSE_OK);
	child_clear(c);
	child_send(c, text);
	child_expect(c, "Your move (Black)> ");
	position_make(p, m, p);
	Move reply = engine_reply(c, p);
	position_make(p, reply, p);
	Position shown = last_fen(c, VARIANT_POOL);
	assert_true(position_equal(&shown, p));
}

static void test_play_moves_illegal_undo_save(void **state)
{
	(void)state;
	const char *args[] = {"play", "--level", "0.02", NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Your move (Black)> ");
	assert_non_null(strstr(c->text, "Type help"));
	Position p;
	position_start(&p);
	Position shown = last_fen(c, VARIANT_POOL);
	assert_true(position_equal(&shown, &p));
	/* Square numbers are on the diagram. */
	assert_non_null(strstr(c->text, "32"));

	play_and_check(c, &p, "11-15");

	/* A wrong move: the list printed is exactly the legal moves. */
	child_clear(c);
	child_send(c, "12-13");
	child_expect(c, "Your move (Black)> ");
	assert_non_null(strstr(c->text, "not a legal move"));
	const char *list = strstr(c->text, "Legal moves: ");
	assert_non_null(list);
	list += 13;
	MoveList legal;
	int n = movegen_generate(&p, &legal), listed = 0;
	char copy[4096];
	snprintf(copy, sizeof copy, "%.*s", (int)strcspn(list, "\r\n"), list);
	for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
		Move m;
		assert_int_equal(notation_parse_move(&p, tok, &m, NULL, 0), MOVE_PARSE_OK);
		listed++;
	}
	assert_int_equal(listed, n);

	/* undo takes back the person's move and the reply. */
	child_clear(c);
	child_send(c, "undo");
	child_expect(c, "Your move (Black)> ");
	position_start(&p);
	shown = last_fen(c, VARIANT_POOL);
	assert_true(position_equal(&shown, &p));

	play_and_check(c, &p, "9-14");
	char tmpl[] = "/tmp/poolshark-play-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	close(fd);
	char command[128];
	snprintf(command, sizeof command, "save %s", tmpl);
	child_clear(c);
	child_send(c, command);
	child_expect(c, "Saved the game");
	child_send(c, "quit");
	child_expect(c, "Bye.");
	assert_int_equal(child_finish(c, 5000), 0);

	FILE *f = fopen(tmpl, "r");
	assert_non_null(f);
	PdnGame g = {0};
	char error[256];
	assert_int_equal(pdn_read_game(f, &g, error, sizeof error), PDN_READ_OK);
	assert_string_equal(pdn_game_tag(&g, "GameType"), "23");
	assert_int_equal(g.game->ply_count, 2);
	assert_true(position_equal(game_position(g.game), &p));
	pdn_game_free(&g);
	fclose(f);
	unlink(tmpl);
}

static void child_send_bytes(Child *c, const char *bytes, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t got = write(c->in, bytes + done, n - done);
		assert_true(got > 0);
		done += (size_t)got;
	}
}

/* A line with a NUL byte and an over-long line each get a message and a new
 * prompt, and the next line is read as it was typed. */
static void test_play_bad_lines(void **state)
{
	(void)state;
	static const char start_moves[] = "Legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16";
	const char *args[] = {"play", "--level", "0.02", NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Your move (Black)> ");

	child_clear(c);
	child_send_bytes(c, "11-15\0junk\n", 11);
	child_expect(c, "NUL byte");
	child_expect(c, "Your move (Black)> ");
	child_clear(c);
	child_send(c, "moves");
	child_expect(c, start_moves); /* the line after is read, and 11-15 was not played */
	child_expect(c, "Your move (Black)> ");

	enum { LONG = 300 * 1000 };
	char *line = malloc(LONG + 1);
	assert_non_null(line);
	memset(line, 'x', LONG);
	line[LONG] = '\n';
	child_clear(c);
	child_send_bytes(c, line, LONG + 1);
	free(line);
	child_expect(c, "too long");
	child_expect(c, "Your move (Black)> ");
	child_clear(c);
	child_send(c, "moves");
	child_expect(c, start_moves);
	child_send(c, "quit");
	child_expect(c, "Bye.");
	assert_int_equal(child_finish(c, 5000), 0);
}

/* The person plays the first legal move every time until the game ends. */
static void test_play_a_whole_game(void **state)
{
	(void)state;
	const char *args[] = {"play", "--level", "0.01", NULL};
	Child *c = child_start(false, args);
	int moves = 0;
	for (;;) {
		child_expect(c, "> ");
		if (strstr(c->text, "Game over: "))
			break;
		assert_non_null(strstr(c->text, "Your move (Black)> "));
		Position p = last_fen(c, VARIANT_POOL);
		MoveList list;
		int n = movegen_generate(&p, &list);
		assert_true(n > 0);
		char text[NOTATION_MOVE_MAX];
		notation_write_move(&p, list.moves[moves % n], text, sizeof text);
		child_clear(c);
		child_send(c, text);
		if (++moves > 300)
			fail_msg("no end after 300 moves");
	}
	const char *over = strstr(c->text, "Game over: ");
	fprintf(stderr, "after %d moves of the person: %.*s\n", moves, (int)strcspn(over, "\r\n"), over);
	static const char *const reasons[] = {"no legal move", "25-move rule", "thirteen-move count",
	                                      "repetition"};
	bool named = false;
	for (int i = 0; i < 4; i++)
		named |= strstr(over, reasons[i]) != NULL;
	if (!named)
		fail_msg("end without a reason: %s", over);
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);
}

static void test_play_announces_a_loss(void **state)
{
	(void)state;
	const char *args[] = {"play", "--level", "0.02", "--fen", "B:W18,K23:B10", NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Your move (Black)> ");
	child_send(c, "10-14");
	child_expect(c, "Game over: White wins (Black has no legal move)");
	child_clear(c);
	child_send(c, "11-15");
	child_expect(c, "> ");
	assert_null(strstr(c->text, "you played"));
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);
}

/* `strength` changes the engine's level and refuses what is not 0-100; a
 * bad --strength on the command line is a usage error (status 2). Whatever
 * the strength, the engine's replies are legal moves. */
static void test_play_strength(void **state)
{
	(void)state;
	const char *args[] = {"play", "--level", "0.05", "--strength", "10", NULL};
	Child *c = child_start(false, args);
	Position p;
	position_start(&p);
	child_expect(c, "Your move (Black)> ");
	child_send(c, "strength 101");
	child_expect(c, "now 10.");
	child_send(c, "strength 0");
	child_expect(c, "strength 0.");
	child_clear(c);
	play_and_check(c, &p, "11-15");
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);

	const char *bad[] = {"play", "--strength", "200", NULL};
	c = child_start(false, bad);
	assert_true(child_wait_for(c, "--strength takes a whole number", 5000));
	assert_int_equal(child_finish(c, 5000), 2);
}

/* Every engine option is a flag of the terminal game, read from the one
 * options table: what --strength sets is what the strength command reports,
 * and a bad --hash is a usage error naming the range. */
static void test_play_option_flags(void **state)
{
	(void)state;
	const char *args[] = {"play",       "--level", "0.02",     "--hash", "8",
	                      "--strength", "30",      "--ponder", "false",  NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Your move (Black)> ");
	child_send(c, "strength 101");
	child_expect(c, "now 30.");
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);

	const char *bad[] = {"play", "--hash", "0", NULL};
	c = child_start(false, bad);
	assert_true(child_wait_for(c, "--hash takes a whole number from 1 to 1048576, not '0'", 5000));
	assert_int_equal(child_finish(c, 5000), 2);
}

/* Russian: the person has White (who moves first), the board beside the
 * pieces names the squares a1-h8, moves are typed and shown algebraic. */
static void test_play_russian(void **state)
{
	(void)state;
	const char *args[] = {"play", "--variant", "russian", "--level", "0.02", NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Russian draughts");
	child_expect(c, "  3  a3    c3    e3    g3");
	child_expect(c, "Your move (White)> ");
	child_send(c, "c3-d4");
	child_expect(c, "poolshark plays ");
	child_expect(c, "Your move (White)> ");
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);
}

/* The variant command changes where new games start: after `variant
 * russian` (or brazilian), `new white` is the new rules' start with the
 * person to move, and `new` is that start with the engine's first move
 * only, not a continuation of the game the variant change began. */
static void test_play_new_game_after_variant(void **state)
{
	(void)state;
	const char *names[] = {"russian", "brazilian"};
	for (int v = 0; v < 2; v++) {
		const char *args[] = {"play", "--level", "0.02", "--hash", "8", "--book", "off", NULL};
		Child *c = child_start(false, args);
		child_expect(c, "Your move (Black)> ");
		child_clear(c);
		char command[64];
		snprintf(command, sizeof command, "variant %s", names[v]);
		child_send(c, command);
		child_expect(c, "Your move (Black)> "); /* the engine, White, moved first */
		child_clear(c);
		child_send(c, "new white");
		child_expect(c, "Your move (White)> ");
		Variant variant = v == 0 ? VARIANT_RUSSIAN : VARIANT_BRAZILIAN;
		Position start, shown = last_fen(c, variant);
		position_start_variant(&start, variant);
		if (!position_equal(&shown, &start))
			fail_msg("not the %s start:\n%s", names[v], c->text);
		if (strstr(c->text, "poolshark thinks"))
			fail_msg("the engine moved:\n%s", c->text);
		child_clear(c);
		child_send(c, "new");
		child_expect(c, "Your move (Black)> ");
		/* Only the output from the engine's thinking on, whose first
		 * "poolshark plays" is its move. */
		const char *thinks = strstr(c->text, "poolshark thinks");
		assert_non_null(thinks);
		c->length -= (size_t)(thinks - c->text);
		memmove(c->text, thinks, c->length + 1);
		Move m = engine_reply(c, &start);
		Position after;
		position_make(&start, m, &after);
		shown = last_fen(c, variant);
		assert_true(position_equal(&shown, &after));
		child_send(c, "quit");
		assert_int_equal(child_finish(c, 5000), 0);
	}
}

/* The terminal game opens from its built-in book (an instant move, said
 * so); a book that is not there is refused with the reason, the book and
 * the thread count stay as they were. */
static void test_play_book_and_threads(void **state)
{
	(void)state;
	const char *args[] = {"play", "--white", "--level", "0.05", "--hash", "8", NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Your move (White)> ");
	assert_non_null(strstr(c->text, "(from its opening book)"));
	child_clear(c);
	child_send(c, "book /nonexistent/poolshark.book");
	child_expect(c, "now default.");
	assert_non_null(strstr(c->text, "cannot open book '/nonexistent/poolshark.book': No such file"));
	child_send(c, "threads 2");
	child_expect(c, "poolshark now plays with threads 2.");
	child_send(c, "threads 0");
	child_expect(c, "now 2.");
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);
}

/* eval and eval-file are commands of the terminal game: a network file
 * that cannot be used, or of other rules, is refused with the reason and
 * the one set stays; a variant the file set does not fit is refused until
 * eval-file is default again; the engine plays with a file's network. */
static void test_play_eval_options(void **state)
{
	(void)state;
	const char *args[] = {"play", "--level", "0.02", "--hash", "8", "--book", "off", NULL};
	Child *c = child_start(false, args);
	child_expect(c, "Your move (Black)> ");
	child_send(c, "help");
	child_expect(c, "  eval-file <f> ");
	child_send(c, "eval net");
	child_expect(c, "poolshark now plays with eval net.");
	child_send(c, "eval neural");
	child_expect(c, "now net.");
	assert_non_null(strstr(c->text, "eval 'neural' is not known (values: classic net)"));
	child_send(c, "eval-file tools/data/nnue-pool.bin");
	child_expect(c, "poolshark now plays with eval-file tools/data/nnue-pool.bin.");
	child_clear(c);
	child_send(c, "eval-file tools/data/no-such-network.bin");
	child_expect(c, "now tools/data/nnue-pool.bin.");
	assert_non_null(strstr(c->text, "eval-file: tools/data/no-such-network.bin: No such file"));
	child_clear(c);
	child_send(c, "eval-file tools/data/nnue-russian.bin");
	child_expect(c, "now tools/data/nnue-pool.bin.");
	assert_non_null(
	    strstr(c->text, "eval-file: tools/data/nnue-russian.bin: a network for russian, not for pool"));
	child_clear(c);
	child_send(c, "variant russian");
	child_expect(c, "now pool.");
	assert_non_null(
	    strstr(c->text, "eval-file: tools/data/nnue-pool.bin: a network for pool, not for russian"));
	child_clear(c);
	Position p;
	position_start(&p);
	play_and_check(c, &p, "11-15");
	child_send(c, "eval-file default");
	child_expect(c, "poolshark now plays with eval-file default.");
	child_send(c, "variant russian");
	child_expect(c, "poolshark now plays with variant russian.");
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);
}

/* On a terminal the protocol greets once and points at help; the same
 * session then answers as usual. */
static void test_hub_greets_on_a_terminal(void **state)
{
	(void)state;
	const char *args[] = {NULL};
	Child *c = child_start(true, args);
	child_expect(c, "help");
	assert_non_null(strstr(c->text, "type help"));
	child_clear(c);
	child_send(c, "ping");
	child_expect(c, "pong");
	child_send(c, "quit");
	assert_int_equal(child_finish(c, 5000), 0);
}

static void test_play_on_a_terminal(void **state)
{
	(void)state;
	const char *args[] = {"play", "--level", "0.02", NULL};
	Child *c = child_start(true, args);
	child_expect(c, "Your move (Black)> ");
	/* Playing Black, the person's men are at the bottom; flip turns that. */
	assert_non_null(strstr(c->text, "h  g  f  e  d  c  b  a"));
	child_clear(c);
	child_send(c, "flip");
	child_expect(c, "a  b  c  d  e  f  g  h");
	child_send(c, "quit");
	child_expect(c, "Bye.");
	assert_int_equal(child_finish(c, 5000), 0);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_play_moves_illegal_undo_save),
	    cmocka_unit_test(test_play_a_whole_game),
	    cmocka_unit_test(test_play_announces_a_loss),
	    cmocka_unit_test(test_play_strength),
	    cmocka_unit_test(test_play_option_flags),
	    cmocka_unit_test(test_play_russian),
	    cmocka_unit_test(test_play_new_game_after_variant),
	    cmocka_unit_test(test_play_book_and_threads),
	    cmocka_unit_test(test_play_eval_options),
	    cmocka_unit_test(test_hub_greets_on_a_terminal),
	    cmocka_unit_test(test_play_on_a_terminal),
	    cmocka_unit_test(test_play_bad_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
