/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time to depth and nodes to depth of the search with 1 and N threads (Lazy SMP), side by side. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/bench.h"
#include "poolshark/clock.h"
#include "poolshark/engine.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"

static const char usage_text[] =
    "usage: build/bench/threads [DEPTH[-LAST] [POSITIONS [THREADS [RUNS]]]]\n"
    "  searches the first POSITIONS (default 8) bench positions to DEPTH (default\n"
    "  13; DEPTH-LAST: each depth from DEPTH to LAST) with 1 thread and with\n"
    "  THREADS (default 2), one after the other for each position (which goes\n"
    "  first alternates by run), the table emptied for each search, RUNS times\n"
    "  (default 1). Prints, per depth, the wall time, the processor time and\n"
    "  the nodes to reach it with each thread count (medians of the runs'\n"
    "  totals) and their ratios.\n";

enum { MAX_RUNS = 99, MAX_DEPTHS = 40 };

/* One thread count's totals over the positions of one run at one depth. */
typedef struct Totals {
	int64_t wall_us, cpu_us;
	uint64_t nodes;
} Totals;

static int64_t process_cpu_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static Engine *engine_with_threads(int threads)
{
	EngineOptions options;
	engine_default_options(&options);
	options.threads = threads;
	return engine_create(&options);
}

/* Searches position `index` to `depth` in a table that forgets everything
 * before, adding to *totals; false when the search does not reach it. */
static bool search_one(Engine *engine, int threads, int index, int depth, Totals *totals)
{
	Position p;
	if (!notation_parse_fen(bench_positions[index].fen, VARIANT_POOL, &p, NULL, 0) ||
	    engine_new_game(engine, &p) != ENGINE_OK)
		return false;
	SearchLimits limits = {.depth = depth};
	SearchResult r;
	int64_t wall = clock_now_ns(), cpu = process_cpu_us();
	if (engine_search_sync(engine, &limits, NULL, NULL, &r) != ENGINE_OK)
		return false;
	wall = (clock_now_ns() - wall) / 1000;
	cpu = process_cpu_us() - cpu;
	char move[64];
	notation_write_move(&p, r.best, move, sizeof move);
	printf("threads %d  position %2d  depth %d  time %8.1f ms  cpu %8.1f ms  nodes %10" PRIu64
	       "  move %s\n",
	       threads, index + 1, r.depth, (double)wall / 1000.0, (double)cpu / 1000.0, r.nodes, move);
	fflush(stdout);
	totals->wall_us += wall;
	totals->cpu_us += cpu;
	totals->nodes += r.nodes;
	return r.depth == depth;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *values, int count)
{
	qsort(values, (size_t)count, sizeof *values, compare_doubles);
	return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static void print_load(const char *when)
{
	double load[3];
	if (getloadavg(load, 3) == 3)
		printf("load average %s: %.2f %.2f %.2f\n", when, load[0], load[1], load[2]);
}

int main(int argc, char **argv)
{
	long long first = 13, last = 13, positions = 8, threads = 2, runs = 1;
	if (argc > 1) {
		char depths[32];
		snprintf(depths, sizeof depths, "%s", argv[1]);
		char *dash = strchr(depths, '-');
		if (dash)
			*dash = '\0';
		if (number_parse(depths, 1, BENCH_MAX_DEPTH, &first) ||
		    number_parse(dash ? dash + 1 : depths, first, BENCH_MAX_DEPTH, &last)) {
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (argc > 5 || (argc > 2 && number_parse(argv[2], 1, bench_position_count, &positions)) ||
	    (argc > 3 && number_parse(argv[3], 2, 64, &threads)) ||
	    (argc > 4 && number_parse(argv[4], 1, MAX_RUNS, &runs))) {
		fputs(usage_text, stderr);
		return 2;
	}
	int depth_count = (int)(last - first + 1), counts[2] = {1, (int)threads};
	Engine *engines[2] = {engine_with_threads(1), engine_with_threads((int)threads)};
	if (!engines[0] || !engines[1]) {
		fprintf(stderr, "threads: out of memory (or %d threads refused)\n", (int)threads);
		return 1;
	}
	/* A first search waits for its table to be made resident: not timed. */
	for (int k = 0; k < 2; k++) {
		SearchLimits warm = {.depth = 1};
		SearchResult r;
		engine_search_sync(engines[k], &warm, NULL, NULL, &r);
	}
	print_load("at the start");
	static Totals totals[MAX_RUNS][MAX_DEPTHS][2];
	bool reached = true;
	for (int run = 0; run < runs; run++)
		for (int d = 0; d < depth_count; d++)
			for (int i = 0; i < positions; i++)
				for (int k = 0; k < 2; k++) {
					/* Alternate which goes first, so that a load that
					 * comes and goes falls on both alike. */
					int which = (k + run) % 2;
					reached &= search_one(engines[which], counts[which], i,
					                      (int)first + d, &totals[run][d][which]);
				}
	print_load("at the end");
	for (int d = 0; d < depth_count; d++) {
		double wall[2][MAX_RUNS], cpu[2][MAX_RUNS], nodes[2][MAX_RUNS], speedup[MAX_RUNS],
		    node_ratio[MAX_RUNS], cpu_speedup[MAX_RUNS];
		char list[MAX_RUNS * 8] = "";
		for (int run = 0; run < runs; run++) {
			const Totals *t = totals[run][d];
			for (int k = 0; k < 2; k++) {
				wall[k][run] = (double)t[k].wall_us / 1000.0;
				cpu[k][run] = (double)t[k].cpu_us / 1000.0;
				nodes[k][run] = (double)t[k].nodes;
			}
			speedup[run] = (double)t[0].wall_us / (double)(t[1].wall_us > 0 ? t[1].wall_us : 1);
			node_ratio[run] = (double)t[1].nodes / (double)(t[0].nodes > 0 ? t[0].nodes : 1);
			cpu_speedup[run] =
			    (double)(threads * t[0].cpu_us) / (double)(t[1].cpu_us > 0 ? t[1].cpu_us : 1);
			size_t used = strlen(list);
			snprintf(list + used, sizeof list - used, "%s%.2f", run ? " " : "", speedup[run]);
		}
		printf("depth %lld, %lld positions, %lld run%s (medians of the runs' totals):\n", first + d,
		       positions, runs, runs > 1 ? "s" : "");
		for (int k = 0; k < 2; k++)
			printf("  threads %d: time to depth %9.1f ms  cpu %9.1f ms  nodes to depth %11.0f\n",
			       counts[k], median(wall[k], (int)runs), median(cpu[k], (int)runs),
			       median(nodes[k], (int)runs));
		printf("  %d threads vs 1: time to depth %.2fx (runs: %s), nodes to depth %.2fx\n", counts[1],
		       median(speedup, (int)runs), list, median(node_ratio, (int)runs));
		/* Where other work shares the cores, wall time says little: with
		 * every thread busy until the end, the processor time over the
		 * thread count is the wall time a core per thread would give. */
		printf("  %d threads vs 1, from processor time (%d x cpu of 1 / cpu of %d): %.2fx\n",
		       counts[1], counts[1], counts[1], median(cpu_speedup, (int)runs));
	}
	engine_destroy(engines[0]);
	engine_destroy(engines[1]);
	if (!reached) {
		fprintf(stderr, "threads: a search ended short of its depth\n");
		return 1;
	}
	return 0;
}
