/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fixed positions of `poolshark bench`, compiled in (src/bench_positions.c). */
#ifndef POOLSHARK_BENCH_POSITIONS_H
#define POOLSHARK_BENCH_POSITIONS_H

typedef struct BenchPosition {
	const char *fen;
	const char *comment;
} BenchPosition;

/* The bench set, in bench order; the same list as bench/positions.fen. */
extern const BenchPosition bench_positions[];
extern const int bench_position_count;

#endif
