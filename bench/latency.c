/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How fast the engine answers: ping -> pong and stop -> done during a search, stdin closed -> exit,
 * ponder-hit -> done, the time a clock search uses, a forced move. */
#include <bsd/stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "poolshark/clock.h"
#include "hubclient.h"

enum { ROUNDS_DEFAULT = 20, REPLY_TIMEOUT_MS = 10000, LINE_MAX_BYTES = 8192 };

typedef struct Series {
	int count;
	double ms[1000];
} Series;

static int64_t now_us(void)
{
	return clock_now_ns() / 1000;
}

static void pause_ms(int ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&t, NULL);
}

/* Reads until a line starting with `word`; false on a timeout or EOF. */
static bool wait_for(HubEngine *e, const char *word)
{
	char line[LINE_MAX_BYTES];
	size_t n = strlen(word);
	int64_t deadline = clock_now_ms() + REPLY_TIMEOUT_MS;
	for (;;) {
		int64_t left = deadline - clock_now_ms();
		if (left <= 0)
			return false;
		HubRead r = hub_engine_read_line(e, line, sizeof line, (int)left);
		if (r == HUB_READ_EOF)
			return false;
		if (r == HUB_READ_LINE && !strncmp(line, word, n) && (line[n] == ' ' || line[n] == '\0'))
			return true;
	}
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const char *what, Series *s)
{
	double sum = 0;
	qsort(s->ms, (size_t)s->count, sizeof s->ms[0], compare_double);
	for (int i = 0; i < s->count; i++)
		sum += s->ms[i];
	printf("%-28s rounds %d  mean %.2f ms  median %.2f ms  worst %.2f ms\n", what, s->count,
	       sum / s->count, s->ms[s->count / 2], s->ms[s->count - 1]);
}

static bool start(HubEngine *e, const char *binary, int threads)
{
	char command[1100], error[256], option[64];
	snprintf(command, sizeof command, "'%s' hub", binary);
	if (!hub_engine_spawn(e, command, error, sizeof error)) {
		fprintf(stderr, "latency: %s\n", error);
		return false;
	}
	snprintf(option, sizeof option, "set-param name=threads value=%d", threads);
	return hub_engine_send(e, option) && hub_engine_send(e, "ping") && wait_for(e, "pong");
}

int main(int argc, char **argv)
{
	const char *binary = argc > 1 ? argv[1] : "./poolshark";
	int rounds = ROUNDS_DEFAULT, threads = 1;
	const char *problem = NULL;
	if (argc > 2)
		rounds = (int)strtonum(argv[2], 1, 1000, &problem);
	if (argc > 3 && !problem)
		threads = (int)strtonum(argv[3], 1, 256, &problem);
	if (problem || argc > 4) {
		fprintf(stderr, "usage: latency [BINARY] [ROUNDS 1-1000] [THREADS 1-256]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	static Series pong, done, gone;
	HubEngine e;
	if (!start(&e, binary, threads))
		return 1;
	for (int i = 0; i < rounds; i++) {
		hub_engine_send(&e, "pos start");
		hub_engine_send(&e, "go analyze");
		pause_ms(30);
		int64_t t0 = now_us();
		if (!hub_engine_send(&e, "ping") || !wait_for(&e, "pong"))
			goto broken;
		pong.ms[pong.count++] = (double)(now_us() - t0) / 1000.0;
		t0 = now_us();
		if (!hub_engine_send(&e, "stop") || !wait_for(&e, "done"))
			goto broken;
		done.ms[done.count++] = (double)(now_us() - t0) / 1000.0;
	}
	hub_engine_stop(&e, 1000);
	for (int i = 0; i < rounds; i++) {
		if (!start(&e, binary, threads))
			return 1;
		hub_engine_send(&e, "pos start");
		hub_engine_send(&e, "go analyze");
		pause_ms(30);
		int64_t t0 = now_us();
		close(e.to_engine); /* no quit: only the end of input */
		e.to_engine = -1;
		while (hub_engine_is_alive(&e) && now_us() - t0 < REPLY_TIMEOUT_MS * 1000)
			pause_ms(1);
		if (!e.exited)
			goto broken;
		gone.ms[gone.count++] = (double)(now_us() - t0) / 1000.0;
		hub_engine_stop(&e, 0);
	}
	static Series hit, clocked, forced;
	if (!start(&e, binary, threads))
		return 1;
	for (int i = 0; i < rounds; i++) {
		/* After ponder-hit, 0.1 s for the move: the part beyond 100 ms is the latency. */
		hub_engine_send(&e, "pos start");
		hub_engine_send(&e, "level move-time=0.1");
		hub_engine_send(&e, "go ponder");
		pause_ms(30);
		int64_t t0 = now_us();
		if (!hub_engine_send(&e, "ponder-hit") || !wait_for(&e, "done"))
			goto broken;
		hit.ms[hit.count++] = (double)(now_us() - t0) / 1000.0;
		/* 0.6 s left for one move: all of it may be used, never more. */
		hub_engine_send(&e, "pos start");
		hub_engine_send(&e, "level time=0.6 moves=1");
		t0 = now_us();
		if (!hub_engine_send(&e, "go think") || !wait_for(&e, "done"))
			goto broken;
		clocked.ms[clocked.count++] = (double)(now_us() - t0) / 1000.0;
		/* One legal move (Black's capture 1x10) with a minute left: at once. */
		hub_engine_send(&e, "pos fen=B:W6,20:B1,K32");
		hub_engine_send(&e, "level time=60");
		t0 = now_us();
		if (!hub_engine_send(&e, "go think") || !wait_for(&e, "done"))
			goto broken;
		forced.ms[forced.count++] = (double)(now_us() - t0) / 1000.0;
	}
	hub_engine_stop(&e, 1000);
	printf("engine: %s, %d thread%s, during `go analyze` from the start position\n", binary, threads,
	       threads > 1 ? "s" : "");
	report("ping -> pong", &pong);
	report("stop -> done", &done);
	report("stdin closed -> exited", &gone);
	printf("and with a clock:\n");
	report("ponder-hit -> done (0.1 s)", &hit);
	report("go, 0.6 s for 1 move -> done", &clocked);
	report("go, one legal move -> done", &forced);
	return 0;
broken:
	fprintf(stderr, "latency: no answer within %d ms\n", REPLY_TIMEOUT_MS);
	hub_engine_kill(&e);
	return 1;
}
