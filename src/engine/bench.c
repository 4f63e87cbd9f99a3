/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bench runner shared by `poolshark bench` and the protocol's `bench`. */
#include "poolshark/bench.h"

#include <stdio.h>

#include "poolshark/clock.h"
#include "poolshark/notation.h"

bool bench_run(int depth, Variant variant, EngineEval eval, const char *eval_file, BenchPositionCallback each,
               void *user, BenchTotals *out, char *error, size_t error_size)
{
	EngineOptions options;
	engine_default_options(&options);
	options.hash_mb = BENCH_HASH_MB;
	options.variant = variant;
	options.eval = eval;
	snprintf(options.eval_file, sizeof options.eval_file, "%s", eval_file);
	options.threads = 1; /* one thread and no book: the signature is deterministic */
	snprintf(options.book, sizeof options.book, "off");
	Engine *engine = engine_create(&options);
	if (!engine) {
		snprintf(error, error_size, "out of memory");
		return false;
	}
	const char *refused =
	    *engine_network_error(engine) ? engine_network_error(engine) : engine_kernel_error(engine);
	if (*refused) {
		snprintf(error, error_size, "%s", refused);
		engine_destroy(engine);
		return false;
	}

	SearchLimits limits = {.depth = depth};
	uint64_t total = 0;
	int64_t start = clock_now_ms(), start_cpu = clock_thread_cpu_coarse_ns();
	for (int i = 0; i < bench_position_count; i++) {
		Position root;
		/* The list is compiled in and checked by test_bench: every FEN reads. */
		if (!notation_parse_fen(bench_positions[i].fen, variant, &root, NULL, 0))
			continue;
		engine_new_game(engine, &root);
		SearchResult result;
		engine_search_sync(engine, &limits, NULL, NULL, &result);
		total += result.nodes;
		if (each)
			each(i, &root, &result, user);
	}
	out->depth = depth;
	out->nodes = total;
	out->elapsed_ms = clock_now_ms() - start;
	int64_t cpu = clock_thread_cpu_coarse_ns();
	out->cpu_ms = start_cpu >= 0 && cpu >= 0 ? (cpu - start_cpu) / 1000000 : -1;
	out->kernel = engine_kernel(engine);
	engine_destroy(engine);
	return true;
}
