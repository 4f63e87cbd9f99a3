/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Other programs' files and clients: foreign PDN through pool-match --summarize, a pydraughts Hub session. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "poolshark/clock.h"
#include "poolshark/notation.h"
#include "poolshark/position.h"
#include "poolshark/variant.h"

#include "support/support.h"

typedef struct Paths {
	char match[1024]; /* pool-match */
	char dir[64];     /* scratch */
} Paths;

static Paths paths;

/* Games as other programs write them: no Round, or lidraughts' "-". They
 * count by result and players (they used to be skipped, all of them); a
 * damaged one is named by its place, Event, Round and line. */
static void test_summarize_reads_foreign_files(void **state)
{
	(void)state;
	support_write_text(
	    paths.dir, "foreign.pdn",
	    "[Event \"club\"]\n[Round \"-\"]\n[Black \"anna\"]\n[White \"bert\"]\n"
	    "[Result \"0-1\"]\n\n1. 11-15 23-19 0-1\n\n"
	    "[Event \"club\"]\n[Black \"bert\"]\n[White \"anna\"]\n[Result \"1-0\"]\n\n"
	    "1. 11-15 23-19 2. 8-11 1-0\n\n"
	    "[Event \"club\"]\n[Black \"bert\"]\n[White \"anna\"]\n\n1. 11-15 23-19 1/2-1/2\n\n"
	    "[Event \"club\"]\n[Round \"7\"]\n[Black \"anna\"]\n[White \"bert\"]\n\n"
	    "1. 11-15 23-19\n2. 9-13 22-17 3. 13x22 25x18 4. 11-16 1-0\n");
	SupportRun r;
	support_run(&r, "%s --summarize %s/foreign.pdn", paths.match, paths.dir);
	if (!strstr(r.text, "Match: anna vs bert, 3 games") || !strstr(r.text, "Result for anna: +2 =1 -0"))
		fail_msg("%s", r.text);
	char expected[512];
	snprintf(
	    expected, sizeof expected,
	    "pool-match: %s/foreign.pdn:28: game 4 (Event \"club\", Round \"7\"): move 6: illegal move 25x18",
	    paths.dir);
	if (!strstr(r.text, expected))
		fail_msg("no '%s' in:\n%s", expected, r.text);
	assert_int_equal(r.status, 1); /* the damaged game */
}

/* ---- A pydraughts Hub session ---- */

typedef struct Engine {
	pid_t pid;
	int in, out;
	char buffer[1 << 16];
	size_t length;
} Engine;

static void engine_start(Engine *e)
{
	int to[2], from[2];
	assert_int_equal(pipe(to), 0);
	assert_int_equal(pipe(from), 0);
	e->pid = fork();
	assert_true(e->pid >= 0);
	if (e->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		dup2(from[1], 2); /* pydraughts reads stderr with stdout */
		close(to[1]);
		close(from[0]);
		execl(support_engine(), support_engine(), "hub", (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	e->in = to[1];
	e->out = from[0];
	e->length = 0;
}

/* The next reply line (without its newline) into line; false at the
 * deadline or the end of the output. */
static bool engine_line(Engine *e, char *line, size_t size, int64_t deadline)
{
	for (;;) {
		char *newline = memchr(e->buffer, '\n', e->length);
		if (newline) {
			size_t n = (size_t)(newline - e->buffer);
			assert_true(n < size);
			memcpy(line, e->buffer, n);
			line[n] = '\0';
			e->length -= n + 1;
			memmove(e->buffer, newline + 1, e->length);
			return true;
		}
		int left = (int)(deadline - clock_now_ms());
		if (left <= 0)
			return false;
		struct pollfd pfd = {e->out, POLLIN, 0};
		if (poll(&pfd, 1, left) <= 0)
			continue;
		assert_true(e->length < sizeof e->buffer);
		ssize_t got = read(e->out, e->buffer + e->length, sizeof e->buffer - e->length);
		if (got <= 0)
			return false;
		e->length += (size_t)got;
	}
}

/* The longest item a reply may hold: a principal variation of the
 * deepest search in quotes (several hundred bytes). */
enum { ITEM_MAX = 4096 };

/* The items of a reply's arguments as pydraughts splits them (at spaces
 * outside quotes): each must be key=value with one '=' (Python's
 * item.split("=") unpacked into two names). Returns the item count. */
static int pydraughts_items(const char *args, char items[][ITEM_MAX], int max, const char *line)
{
	int count = 0;
	bool quoted = false;
	size_t n = 0;
	for (const char *c = args;; c++) {
		if (*c == '"')
			quoted = !quoted;
		if (*c == '\0' || (*c == ' ' && !quoted)) {
			if (n > 0) {
				assert_true(count < max);
				items[count][n] = '\0';
				int equals = 0;
				for (size_t i = 0; i < n; i++)
					equals += items[count][i] == '=';
				if (equals != 1)
					fail_msg("pydraughts cannot split '%s' of: %s", items[count], line);
				count++;
			}
			n = 0;
			if (!*c)
				break;
			continue;
		}
		assert_true(n < ITEM_MAX - 1);
		items[count][n++] = *c;
	}
	return count;
}

/* A number as Python's int() or float() reads it. */
static void expect_number(const char *key, const char *value, bool integer, const char *line)
{
	char *end;
	errno = 0;
	if (integer)
		(void)strtoll(value, &end, 10);
	else
		(void)strtod(value, &end);
	if (end == value || *end || errno)
		fail_msg("pydraughts reads %s=%s with %s(): %s", key, value, integer ? "int" : "float", line);
}

/* Checks a reply as pydraughts reads it; *done is set at a done line, whose
 * move must be legal in *p (and its ponder move after it). */
static void check_reply(const char *line, const Position *p, bool *done)
{
	char command[32], items[32][ITEM_MAX];
	size_t n = strcspn(line, " ");
	assert_true(n < sizeof command);
	memcpy(command, line, n);
	command[n] = '\0';
	const char *args = line[n] ? line + n + 1 : "";
	*done = false;
	if (!strcmp(command, "error"))
		fail_msg("the engine refused a line pydraughts sends: %s", line);
	if (!strcmp(command, "id") || !strcmp(command, "param") || !strcmp(command, "info")) {
		int count = pydraughts_items(args, items, 32, line);
		for (int i = 0; i < count && !strcmp(command, "info"); i++) {
			char *value = strchr(items[i], '=');
			*value++ = '\0';
			if (!strcmp(items[i], "depth") || !strcmp(items[i], "nodes"))
				expect_number(items[i], value, true, line);
			else if (!strcmp(items[i], "mean-depth") || !strcmp(items[i], "time") ||
			         !strcmp(items[i], "nps") || !strcmp(items[i], "score"))
				expect_number(items[i], value, false, line);
		}
		return;
	}
	if (!strcmp(command, "done")) {
		*done = true;
		int count = pydraughts_items(args, items, 32, line);
		if (count < 1 || strncmp(items[0], "move=", 5))
			fail_msg("pydraughts takes the first item of done as the move: %s", line);
		Move best, ponder;
		char error[NOTATION_ERROR_MAX];
		if (notation_parse_move(p, items[0] + 5, &best, error, sizeof error) != MOVE_PARSE_OK)
			fail_msg("done's move is not legal in the position sent (%s): %s", error, line);
		if (count >= 2) {
			Position next;
			position_make(p, best, &next);
			if (strncmp(items[1], "ponder=", 7) ||
			    notation_parse_move(&next, items[1] + 7, &ponder, error, sizeof error) !=
			        MOVE_PARSE_OK)
				fail_msg("done's ponder move is not a reply to its move: %s", line);
		}
		return;
	}
	if (strcmp(command, "wait") && strcmp(command, "ready") && strcmp(command, "pong"))
		fail_msg("pydraughts does not expect: %s", line);
}

/* Plays tests/data/pydraughts-hub.txt against the engine. */
static void test_pydraughts_hub_session(void **state)
{
	(void)state;
	FILE *script = fopen("tests/data/pydraughts-hub.txt", "r");
	if (!script)
		fail_msg("cannot open tests/data/pydraughts-hub.txt (run from the top of the tree, as make "
		         "test does)");
	Engine *e = calloc(1, sizeof *e);
	assert_non_null(e);
	engine_start(e);
	Variant variant = VARIANT_POOL;
	Position position;
	position_start(&position);
	int64_t sent_ms = clock_now_ms();
	int number = 0, dones = 0;
	char text[1024];
	while (fgets(text, sizeof text, script)) {
		number++;
		text[strcspn(text, "\n")] = '\0';
		if (text[0] == '>') {
			const char *line = text + 2;
			size_t length = strlen(line);
			assert_int_equal(write(e->in, line, length), (ssize_t)length);
			assert_int_equal(write(e->in, "\n", 1), 1);
			sent_ms = clock_now_ms();
			char name[32];
			if (sscanf(line, "set-param name=variant value=%31s", name) == 1) {
				assert_true(variant_parse(name, &variant));
				position_start_variant(&position, variant);
			}
			if (!strncmp(line, "pos pos=", 8)) {
				char error[NOTATION_ERROR_MAX];
				assert_true(notation_parse_hub_position(line + 8, variant, &position, error,
				                                        sizeof error));
			}
		} else if (text[0] == '<') {
			char word[32];
			int ms = 5000;
			assert_true(sscanf(text + 2, "%31s %d", word, &ms) >= 1);
			int64_t deadline = sent_ms + ms;
			for (;;) {
				char reply[4096];
				if (!engine_line(e, reply, sizeof reply, deadline))
					fail_msg("line %d: no '%s' within %d ms of the line sent", number,
					         word, ms);
				bool done;
				check_reply(reply, &position, &done);
				dones += done;
				if (!strncmp(reply, word, strlen(word)) &&
				    (reply[strlen(word)] == '\0' || reply[strlen(word)] == ' '))
					break;
			}
		}
	}
	fclose(script);
	assert_int_equal(dones, 10);
	/* After quit the engine exits at once, having said nothing more. */
	int status = 0;
	int64_t deadline = clock_now_ms() + 2000;
	while (waitpid(e->pid, &status, WNOHANG) == 0 && clock_now_ms() < deadline) {
		char reply[4096];
		if (engine_line(e, reply, sizeof reply, clock_now_ms() + 10))
			fail_msg("after quit: %s", reply);
	}
	if (clock_now_ms() >= deadline) {
		kill(e->pid, SIGKILL);
		waitpid(e->pid, &status, 0);
		fail_msg("the engine did not exit after quit");
	}
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(e->in);
	close(e->out);
	free(e);
}

static int setup(void **state)
{
	*state = paths.dir;
	bool ready = support_tool_path("test_interop", "pool-match", paths.match, sizeof paths.match) &&
	             support_scratch_dir("test_interop", paths.dir, sizeof paths.dir);
	return ready ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_summarize_reads_foreign_files),
	    cmocka_unit_test(test_pydraughts_hub_session),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
