/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The options through set-param, get, set and the hub listing; network files refused with their reason. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/bytes.h"
#include "poolshark/hubline.h"
#include "poolshark/nnue.h"
#include "poolshark/options.h"
#include "support/hubpipe.h"
#include "support/session.h"
#include "support/support.h"

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
	assert_non_null(session_value(s, "info", "variant", value, sizeof value));
	assert_string_equal(value, "russian");
	session_fen(s, value, sizeof value);
	assert_string_equal(value,
	                    "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8");
	/* White moves first; the move is read in either form, written
	 * algebraic, as the FEN is. */
	assert_true(session_send(s, "move c3-d4"));
	assert_true(session_send(s, "move 11-15"));
	session_fen(s, value, sizeof value);
	assert_string_equal(value,
	                    "W:Wa1,a3,b2,c1,d2,d4,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e5,e7,f8,g7,h6,h8");
	/* The same value again changes nothing. */
	assert_true(session_send(s, "set-param name=variant value=russian"));
	assert_int_equal(s->out.count, 0);
	/* A bad value: an error, and the Russian game stays. */
	assert_true(session_send(s, "set-param name=variant value=checkers"));
	assert_non_null(session_value(s, "error", "message", value, sizeof value));
	session_fen(s, value, sizeof value);
	assert_string_equal(value,
	                    "W:Wa1,a3,b2,c1,d2,d4,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e5,e7,f8,g7,h6,h8");
	assert_true(session_send(s, "pos start"));
	session_fen(s, value, sizeof value);
	assert_true(value[0] == 'W');
	assert_true(session_send(s, "set-param name=variant value=pool"));
	session_fen(s, value, sizeof value);
	assert_true(value[0] == 'B');
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
		assert_non_null(session_value(s, "get", "value", value, sizeof value));
		assert_string_equal(value, wanted[0]);
		session_send(s, "hub");
		bool listed = false;
		for (int k = 0; k < s->out.count; k++) {
			char copy[HUBPIPE_LINE_MAX];
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
		assert_non_null(session_value(s, "set", "value", value, sizeof value));
		assert_string_equal(value, wanted[1]);
		snprintf(command, sizeof command, "get %s", def->name);
		session_send(s, command);
		assert_non_null(session_value(s, "get", "value", value, sizeof value));
		assert_string_equal(value, wanted[1]);
	}
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
	assert_non_null(session_value(s, "eval", "net", first, sizeof first));
	assert_non_null(session_value(s, "eval", "score", classic, sizeof classic));
	session_send(s, "set-param name=eval-file value=tools/data/nnue-pool-trial.bin");
	assert_int_equal(s->out.count, 0);
	session_send(s, "eval");
	assert_non_null(session_value(s, "eval", "net", other, sizeof other));
	assert_string_not_equal(first, other);
	session_send(s, "set-param name=eval-file value=default");
	session_send(s, "eval");
	assert_non_null(session_value(s, "eval", "net", other, sizeof other));
	assert_string_equal(first, other);
	session_free(s);
}

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

/* The value of `get NAME`. */
static void get_value(HubEngine *e, const char *name, char *out, size_t size)
{
	char command[128], line[HUBPIPE_LINE_MAX];
	snprintf(command, sizeof command, "get %s", name);
	hubpipe_send(e, command);
	hubpipe_expect(e, "get", HUBPIPE_SLOW_MS, line, sizeof line, NULL);
	HubLine parsed;
	hubpipe_parse_strict(line, &parsed);
	assert_string_equal(hubline_value(&parsed, "name"), name);
	snprintf(out, size, "%s", hubline_value(&parsed, "value"));
}

/* The nodes of a depth-7 search of the start position from an empty
 * table: the same number for the same network. */
static long long search_nodes(HubEngine *e)
{
	hubpipe_send(e, "new-game");
	hubpipe_send(e, "pos start");
	hubpipe_send(e, "level depth=7");
	hubpipe_send(e, "go think");
	long long nodes = -1;
	for (;;) {
		char line[HUBPIPE_LINE_MAX];
		assert_int_equal(hub_engine_read_line(e, line, sizeof line, HUBPIPE_SLOW_MS), HUB_READ_LINE);
		HubLine parsed;
		hubpipe_parse_strict(line, &parsed);
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
	char command[HUBPIPE_LINE_MAX], line[HUBPIPE_LINE_MAX];
	snprintf(command, sizeof command, "set-param name=%s value=%s", name, value);
	hubpipe_send(e, command);
	hubpipe_send(e, "ping");
	assert_int_equal(hub_engine_read_line(e, line, sizeof line, HUBPIPE_SLOW_MS), HUB_READ_LINE);
	if (strncmp(line, "error ", 6) != 0)
		fail_msg("'%s' answered '%s', not an error", command, line);
	for (; *fragments; fragments++) {
		char choices[HUBPIPE_LINE_MAX];
		snprintf(choices, sizeof choices, "%s", *fragments);
		bool found = false;
		for (char *save, *c = strtok_r(choices, "|", &save); c && !found;
		     c = strtok_r(NULL, "|", &save))
			found = strstr(line, c) != NULL;
		if (!found)
			fail_msg("'%s' answered '%s', without '%s'", command, line, *fragments);
	}
	assert_int_equal(hub_engine_read_line(e, line, sizeof line, HUBPIPE_SLOW_MS), HUB_READ_LINE);
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
	char dir[64];
	assert_true(support_scratch_dir("test_protocol_options", dir, sizeof dir));
	size_t size;
	uint8_t *pool = read_whole("tools/data/nnue-pool.bin", &size);
	assert_true(size > NNUE_HEADER_SIZE);
	char path[16][512];
	int n = 0;
	/* (a) missing, (b) cut short */
	snprintf(path[n++], sizeof path[0], "%s/missing.bin", dir);
	snprintf(path[n], sizeof path[0], "%s/truncated.bin", dir);
	support_write_file(NULL, path[n++], pool, size / 2);
	/* (c) format version 3, with the checksum left as it was and recomputed */
	uint8_t *copy = malloc(size);
	assert_non_null(copy);
	memcpy(copy, pool, size);
	bytes_put32(copy + 8, NNUE_VERSION + 1);
	snprintf(path[n], sizeof path[0], "%s/version.bin", dir);
	support_write_file(NULL, path[n++], copy, size);
	bytes_put64(copy + 56, nnue_checksum(copy, size));
	snprintf(path[n], sizeof path[0], "%s/version-summed.bin", dir);
	support_write_file(NULL, path[n++], copy, size);
	/* (d) another rule set */
	snprintf(path[n++], sizeof path[0], "tools/data/nnue-russian.bin");
	/* (e) a header of hidden size 16 over the bytes of another size, and
	 * a hidden size this build does not take */
	memcpy(copy, pool, size);
	bytes_put32(copy + 24, NNUE_HIDDEN_MIN);
	bytes_put64(copy + 56, nnue_checksum(copy, size));
	snprintf(path[n], sizeof path[0], "%s/hidden16-wrong-size.bin", dir);
	support_write_file(NULL, path[n++], copy, size);
	bytes_put32(copy + 24, NNUE_HIDDEN_MIN + 8);
	bytes_put64(copy + 56, nnue_checksum(copy, size));
	snprintf(path[n], sizeof path[0], "%s/hidden24.bin", dir);
	support_write_file(NULL, path[n++], copy, size);
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
	support_write_file(NULL, path[n++], noise, 1 << 20);
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
	support_write_file(NULL, small_path, small, small_size);
	free(small);

	HubEngine e;
	hubpipe_spawn(&e);
	hubpipe_send(&e, "set-param name=eval value=net");
	char value[HUBPIPE_LINE_MAX], command[HUBPIPE_LINE_MAX];
	long long nodes = 0;
	for (int with_file = 0; with_file < 2; with_file++) {
		const char *before = with_file ? "tools/data/nnue-pool.bin" : "default";
		snprintf(command, sizeof command, "set-param name=eval-file value=%s", before);
		hubpipe_send(&e, command);
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
	hubpipe_send(&e, command);
	get_value(&e, "eval-file", value, sizeof value);
	assert_string_equal(value, small_path);
	assert_true(search_nodes(&e) != nodes);
	hubpipe_send(&e, "set-param name=eval-file value=default");
	hubpipe_send(&e, "set-param name=variant value=russian");
	hubpipe_expect(&e, "info", HUBPIPE_SLOW_MS, value, sizeof value, NULL);
	get_value(&e, "variant", value, sizeof value);
	assert_string_equal(value, "russian");
	const char *const pool_here[] = {
	    "eval-file: tools/data/nnue-pool.bin: ", "a network for pool, not for russian", NULL};
	expect_refused(&e, "eval-file", "tools/data/nnue-pool.bin", pool_here);
	hubpipe_send(&e, "set-param name=eval-file value=tools/data/nnue-russian.bin");
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
	    cmocka_unit_test(test_variant_switch),
	    cmocka_unit_test(test_every_option_round_trips),
	    cmocka_unit_test(test_eval_shows_the_network),
	    cmocka_unit_test(test_binary_refuses_bad_network_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
