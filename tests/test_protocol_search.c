/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A search over real pipes: ping and stop while it runs, ponder, the end of input, large tables. */
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
#include <unistd.h>

#include "poolshark/clock.h"
#include "poolshark/hubline.h"
#include "poolshark/notation.h"
#include "support/hubpipe.h"

static void start_analysis(HubEngine *e)
{
	hubpipe_send(e, "pos start");
	hubpipe_send(e, "go analyze");
}

static void test_binary_ping_and_stop_during_search(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	int64_t worst_stop = 0, total_stop = 0, worst_pong = 0;
	hubpipe_send(&e, "ping"); /* wait until the process is up */
	hubpipe_expect(&e, "pong", 2000, NULL, 0, NULL);
	const int rounds = 10;
	for (int round = 0; round < rounds; round++) {
		start_analysis(&e);
		usleep(30000);
		int64_t t0 = (clock_now_ns() / 1000);
		hubpipe_send(&e, "ping");
		hubpipe_expect(&e, "pong", HUBPIPE_SLOW_MS, NULL, 0, NULL);
		int64_t pong = (clock_now_ns() / 1000) - t0;
		/* Commands that cannot run now are refused, the search goes on. */
		hubpipe_send(&e, "pos start moves=\"11-15\"");
		char line[HUBPIPE_LINE_MAX];
		hubpipe_expect(&e, "error", HUBPIPE_SLOW_MS, line, sizeof line, NULL);
		assert_non_null(strstr(line, "during a search"));
		t0 = (clock_now_ns() / 1000);
		hubpipe_send(&e, "stop");
		Position p;
		position_start(&p);
		hubpipe_read_done(&e, &p, HUBPIPE_SLOW_MS, NULL, 0);
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
	hubpipe_spawn(&e);
	hubpipe_send(&e, "set-param name=ponder value=true");
	hubpipe_send(&e, "pos start moves=\"11-15 22-18\"");
	hubpipe_send(&e, "level move-time=0.1");
	hubpipe_send(&e, "go ponder");
	/* Pondering does not end on its own. */
	char line[HUBPIPE_LINE_MAX];
	int64_t until = clock_now_ms() + 400;
	while (clock_now_ms() < until) {
		HubRead r = hub_engine_read_line(&e, line, sizeof line, (int)(until - clock_now_ms()));
		if (r == HUB_READ_LINE && !strncmp(line, "done", 4))
			fail_msg("done while pondering: %s", line);
	}
	int64_t t0 = clock_now_ms();
	hubpipe_send(&e, "ponder-hit");
	Position p;
	position_start(&p);
	Move m;
	notation_parse_move(&p, "11-15", &m, NULL, 0);
	position_make(&p, m, &p);
	notation_parse_move(&p, "22-18", &m, NULL, 0);
	position_make(&p, m, &p);
	/* Pondering never ends on its own: ponder-hit turned it into a search
	 * of 0.1 s, which ends on its own. */
	hubpipe_read_done(&e, &p, HUBPIPE_SLOW_MS, NULL, 0);
	fprintf(stderr, "ponder-hit -> done: %lld ms\n", (long long)(clock_now_ms() - t0));
	/* And a stopped ponder also ends with done. */
	hubpipe_send(&e, "go ponder");
	usleep(50000);
	hubpipe_send(&e, "stop");
	hubpipe_read_done(&e, &p, HUBPIPE_SLOW_MS, NULL, 0);
	hub_engine_stop(&e, 1000);
}

static void test_binary_exits_when_input_closes_mid_search(void **state)
{
	(void)state;
	HubEngine e;
	hubpipe_spawn(&e);
	/* An analysis never ends on its own: the process must end because
	 * its input did. How fast is measured (bench/latency), not tested:
	 * the limit only has to hold on a loaded machine under sanitizers. */
	start_analysis(&e);
	usleep(100000);
	assert_true(hub_engine_is_alive(&e));
	int64_t t0 = (clock_now_ns() / 1000);
	close(e.to_engine);
	e.to_engine = -1;
	while (hub_engine_is_alive(&e) && (clock_now_ns() / 1000) - t0 < HUBPIPE_SLOW_MS * 1000)
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
	hubpipe_spawn(&e);
	hubpipe_send(&e, "pos start");
	hubpipe_send(&e, "level depth=8");
	hubpipe_send(&e, "go think");
	close(e.to_engine);
	e.to_engine = -1;
	char line[HUBPIPE_LINE_MAX];
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
	hubpipe_spawn(&e);
	char line[HUBPIPE_LINE_MAX];
	hubpipe_send(&e, "set-param name=hash value=2048");
	int64_t asked = clock_now_ms();
	hubpipe_send(&e, "ping");
	hubpipe_expect(&e, "pong", 5000, line, sizeof line, NULL);
	int64_t answered = clock_now_ms() - asked;
	fprintf(stderr, "set-param hash=2048 then ping -> pong: %lld ms\n", (long long)answered);
	assert_true(answered < 300);
	hubpipe_send(&e, "pos start");
	hubpipe_send(&e, "level depth=4");
	hubpipe_send(&e, "go think");
	hubpipe_expect(&e, "done", 20000, line, sizeof line, NULL);
	assert_non_null(strstr(line, "move="));
	hubpipe_send(&e, "set-param name=hash value=1");
	hubpipe_send(&e, "ping");
	hubpipe_expect(&e, "pong", 5000, line, sizeof line, NULL);
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
	hubpipe_spawn(&e);
	char line[HUBPIPE_LINE_MAX], command[64];
	for (int i = 0; i < 200; i++) {
		snprintf(command, sizeof command, "set-param name=hash value=%d", 1 + i % 7);
		hubpipe_send(&e, command);
	}
	hubpipe_send(&e, "set-param name=hash value=64");
	hubpipe_send(&e, "pos start");
	hubpipe_send(&e, "level depth=6");
	hubpipe_send(&e, "go think");
	hubpipe_expect(&e, "done", 20000, line, sizeof line, NULL);
	long kib = resident_kib(e.pid);
	fprintf(stderr, "resident after 200 resizes and hash=64: %.1f MiB\n", kib / 1024.0);
	assert_true(kib > 0);
	assert_true(kib <= (64 + 16) * 1024);
	hub_engine_stop(&e, 2000);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_binary_ping_and_stop_during_search),
	    cmocka_unit_test(test_binary_ponder_then_ponder_hit),
	    cmocka_unit_test(test_binary_exits_when_input_closes_mid_search),
	    cmocka_unit_test(test_binary_bounded_search_outlives_its_input),
	    cmocka_unit_test(test_binary_large_hash_does_not_block),
	    cmocka_unit_test(test_binary_resizes_give_memory_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
