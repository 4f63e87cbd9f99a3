/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The deterministic search benchmark whose node total is the engine's signature. */
#ifndef POOLSHARK_BENCH_H
#define POOLSHARK_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/engine.h"

enum {
	BENCH_DEFAULT_DEPTH = 11,
	BENCH_MAX_DEPTH = 40,
	/* Fixed, so the node count does not follow options; about the nodes of
	 * one bench position, so the table stays in cache. */
	BENCH_HASH_MB = 2
};

/* A fixed position of the bench, compiled in (src/engine/bench_positions.c). */
typedef struct BenchPosition {
	const char *fen;
	const char *comment;
} BenchPosition;

/* The bench set, in bench order; the same list as bench/positions.fen. */
extern const BenchPosition bench_positions[];
extern const int bench_position_count;

/* Called after each position: its index in bench_positions, the position and
 * what the search found. */
typedef void (*BenchPositionCallback)(int index, const Position *root, const SearchResult *result,
                                      void *user);

typedef struct BenchTotals {
	int depth;
	uint64_t nodes; /* the signature */
	int64_t elapsed_ms;
	int64_t cpu_ms;     /* the processor time it took, -1 where the system does not say */
	const char *kernel; /* the network's kernel (engine_kernel()); the same nodes with any */
} BenchTotals;

/*
 * Searches every bench position to `depth` with one thread, a fresh table of
 * BENCH_HASH_MB cleared before each position, no clock and full strength, so
 * that the node total depends on nothing but the code. The positions are
 * played under `variant`'s rules (the signature is pool's) and evaluated
 * with `eval`, the network being `eval_file` ("default": the variant's
 * compiled-in one; the signature is the default network's). `each` may be
 * NULL.
 * Returns false (and fills nothing but `error`, a message of at most
 * `error_size` bytes) when memory for the engine is short, eval_file is
 * not a network of the variant or POOLSHARK_KERNEL was refused
 * (engine_kernel_error()).
 */
bool bench_run(int depth, Variant variant, EngineEval eval, const char *eval_file, BenchPositionCallback each,
               void *user, BenchTotals *out, char *error, size_t error_size);

#endif
