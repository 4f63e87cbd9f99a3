/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers: the engine program driven over real pipes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "hubpipe.h"

#include <stdio.h>
#include <string.h>

#include "poolshark/clock.h"
#include "poolshark/notation.h"
#include "support.h"

void hubpipe_spawn(HubEngine *e)
{
	char command[1024], error[256];
	snprintf(command, sizeof command, "%s hub", support_engine());
	hub_engine_init(e);
	if (!hub_engine_spawn(e, command, error, sizeof error))
		fail_msg("spawn: %s", error);
}

void hubpipe_send(HubEngine *e, const char *line)
{
	if (!hub_engine_send(e, line))
		fail_msg("engine gone while sending '%s'", line);
}

void hubpipe_expect(HubEngine *e, const char *command, int timeout_ms, char *out, size_t size, int *skipped)
{
	int64_t deadline = clock_now_ms() + timeout_ms;
	for (;;) {
		int left = (int)(deadline - clock_now_ms());
		char line[HUBPIPE_LINE_MAX];
		HubRead r = hub_engine_read_line(e, line, sizeof line, left > 0 ? left : 0);
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

void hubpipe_parse_strict(char *text, HubLine *line)
{
	char copy[HUBPIPE_LINE_MAX], error[HUBLINE_ERROR_MAX] = "no command";
	snprintf(copy, sizeof copy, "%s", text);
	if (!hubline_parse(text, line, error, sizeof error) || !line->command)
		fail_msg("malformed line '%s': %s", copy, error);
	for (int i = 0; i < line->count; i++)
		if (!line->tokens[i].value)
			fail_msg("bare word '%s' in '%s'", line->tokens[i].key, copy);
}

Move hubpipe_read_done(HubEngine *e, const Position *p, int timeout_ms, char *ponder, size_t ponder_size)
{
	int64_t deadline = clock_now_ms() + timeout_ms;
	for (;;) {
		char line[HUBPIPE_LINE_MAX];
		int left = (int)(deadline - clock_now_ms());
		HubRead r = hub_engine_read_line(e, line, sizeof line, left > 0 ? left : 0);
		if (r != HUB_READ_LINE)
			fail_msg("no done within %d ms", timeout_ms);
		HubLine parsed;
		hubpipe_parse_strict(line, &parsed);
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
