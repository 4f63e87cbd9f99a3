/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time to depth and nodes per second of the search with 1 and 2 threads (Lazy SMP). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "poolshark/bench.h"
#include "poolshark/clock.h"
#include "poolshark/engine.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"

static const char usage_text[] = "usage: build/bench/threads [DEPTH [POSITIONS [THREADS]]]\n"
                                 "  searches the first POSITIONS (default 8) bench positions to DEPTH\n"
                                 "  (default 13) with 1 thread, then with THREADS (default 2), the table\n"
                                 "  cleared for each position, and prints wall time, CPU time (all\n"
                                 "  threads, and the main one) and nodes.\n";

typedef struct Totals {
	int64_t wall_ms, cpu_ms, main_ms;
	uint64_t nodes;
} Totals;

static int64_t cpu_now_ms(clockid_t which)
{
	struct timespec t;
	clock_gettime(which, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static bool run(int threads, int depth, int positions, Totals *out)
{
	EngineOptions options;
	engine_default_options(&options);
	options.threads = threads;
	Engine *engine = engine_create(&options);
	if (!engine)
		return false;
	*out = (Totals){0};
	for (int i = 0; i < positions && i < bench_position_count; i++) {
		Position p;
		if (!notation_parse_fen(bench_positions[i].fen, VARIANT_POOL, &p, NULL, 0))
			continue;
		engine_new_game(engine, &p);
		SearchLimits limits = {.depth = depth};
		SearchResult r;
		int64_t wall = clock_now_ms(), cpu = cpu_now_ms(CLOCK_PROCESS_CPUTIME_ID),
		        main = cpu_now_ms(CLOCK_THREAD_CPUTIME_ID);
		engine_search_sync(engine, &limits, NULL, NULL, &r);
		wall = clock_now_ms() - wall;
		cpu = cpu_now_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu;
		main = cpu_now_ms(CLOCK_THREAD_CPUTIME_ID) - main;
		printf("threads %d  position %2d  depth %d  time %6" PRId64 " ms  cpu %6" PRId64
		       " ms  main thread %6" PRId64 " ms  nodes %10" PRIu64 "\n",
		       threads, i + 1, r.depth, wall, cpu, main, r.nodes);
		fflush(stdout);
		out->wall_ms += wall;
		out->cpu_ms += cpu;
		out->main_ms += main;
		out->nodes += r.nodes;
	}
	engine_destroy(engine);
	return true;
}

int main(int argc, char **argv)
{
	long long depth = 13, positions = 8, threads = 2;
	if (argc > 4 || (argc > 1 && number_parse(argv[1], 1, 40, &depth)) ||
	    (argc > 2 && number_parse(argv[2], 1, bench_position_count, &positions)) ||
	    (argc > 3 && number_parse(argv[3], 2, 64, &threads))) {
		fputs(usage_text, stderr);
		return 2;
	}
	Totals one, many;
	if (!run(1, (int)depth, (int)positions, &one) ||
	    !run((int)threads, (int)depth, (int)positions, &many)) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	const Totals *all[2] = {&one, &many};
	int counts[2] = {1, (int)threads};
	for (int i = 0; i < 2; i++) {
		int64_t wall = all[i]->wall_ms > 0 ? all[i]->wall_ms : 1;
		int64_t main = all[i]->main_ms > 0 ? all[i]->main_ms : 1;
		printf("threads %d: depth %lld, wall %" PRId64 " ms, cpu %" PRId64
		       " ms, main thread cpu %" PRId64 " ms, nodes %" PRIu64 ", nodes/s %" PRIu64
		       " (wall), %" PRIu64 " (per main-thread cpu s)\n",
		       counts[i], depth, all[i]->wall_ms, all[i]->cpu_ms, all[i]->main_ms, all[i]->nodes,
		       all[i]->nodes * 1000 / (uint64_t)wall, all[i]->nodes * 1000 / (uint64_t)main);
	}
	/* On a loaded machine wall time says little; the main thread's CPU
	 * time is what the search would take with a core per thread. */
	printf("time to depth, %d threads vs 1: wall %.2fx, main-thread cpu %.2fx; nodes to depth %.2fx\n",
	       (int)threads, (double)one.wall_ms / (double)(many.wall_ms > 0 ? many.wall_ms : 1),
	       (double)one.main_ms / (double)(many.main_ms > 0 ? many.main_ms : 1),
	       (double)many.nodes / (double)(one.nodes > 0 ? one.nodes : 1));
	return 0;
}
