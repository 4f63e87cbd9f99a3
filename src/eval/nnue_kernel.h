/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to the network's modules: the kernels' entry points and the arithmetic they share. */
#ifndef POOLSHARK_NNUE_KERNEL_H
#define POOLSHARK_NNUE_KERNEL_H

#include <stdint.h>
#include <string.h>

#include "poolshark/nnue.h"

/*
 * A kernel is the network's arithmetic for one level of the processor:
 * the first layer's update (nnue_apply_*) and the forward pass from an
 * accumulator (nnue_forward_*). Every kernel computes the same integers
 * (doc/EVAL.md, "Kernels"): sums that wrap in int16 in the first layer,
 * exact 32-bit sums after it. nnue_portable.c has the one every build
 * has; nnue_x86.c those for AVX2, AVX-VNNI and AVX-512 VNNI, chosen at run
 * time from what the processor has (nnue_kernel_best()).
 */

/* The first-layer rows a change of the pieces adds and removes, from each
 * point of view. */
typedef struct NnueRows {
	int count[2];                           /* [0: added, 1: removed] */
	const int16_t *row[2][2][SQUARE_COUNT]; /* [added or removed][view][i] */
} NnueRows;

/* out = in + the added rows - the removed ones, both points of view, for
 * hidden size h (in and out may be the same). */
typedef void NnueApply(int h, const NnueAccumulator *in, NnueAccumulator *out, const NnueRows *rows);

/* The score of the position of *acc for side, as nnue_evaluate(). */
typedef int NnueForward(const NnueNetwork *net, const NnueAccumulator *acc, Color side);

NnueApply nnue_apply_portable;
NnueForward nnue_forward_portable;

/* The x86-64 kernels (nnue_x86.c), in every build for x86-64 by GCC or
 * Clang whatever its -march: each function carries the instruction sets it
 * uses (a `target` attribute), and nnue.c calls one only after cpu.h says
 * the processor has them. */
#if defined(__x86_64__) && defined(__GNUC__)
#define NNUE_X86 1
NnueApply nnue_apply_avx2;
NnueForward nnue_forward_avx2;
NnueForward nnue_forward_avxvnni;
NnueApply nnue_apply_avx512vnni;
NnueForward nnue_forward_avx512vnni;
#endif

/* NNUE_LANES lanes of the accumulator in one vector (GCC's and Clang's
 * vector extension), in whatever instructions the function that inlines
 * it may use: 8 (SSE, WebAssembly SIMD) unless the kernel's file asks for
 * 16 (AVX2) before including this header. Only ever a local variable
 * (never passed or returned), so that its passing convention, which
 * depends on the instructions, never matters. Wrapping int16 sums are the
 * same in any order. */
#ifndef NNUE_LANES
#define NNUE_LANES 8
#endif
typedef int16_t NnueLanes __attribute__((vector_size(2 * NNUE_LANES)));
_Static_assert(16 % NNUE_LANES == 0, "a block of 16 lanes (h is a multiple of 16) is whole vectors");

/* out = in + a - r (a or r may be NULL: no row); in and out may be the same. */
static inline __attribute__((always_inline)) void nnue_add_sub(int h, const int16_t *in, const int16_t *a,
                                                               const int16_t *r, int16_t *out)
{
	for (int j = 0; j < h; j += NNUE_LANES) {
		NnueLanes v, row;
		memcpy(&v, in + j, sizeof v);
		if (a) {
			memcpy(&row, a + j, sizeof row);
			v += row;
		}
		if (r) {
			memcpy(&row, r + j, sizeof row);
			v -= row;
		}
		memcpy(out + j, &v, sizeof v);
	}
}

/* out = in + the added rows - the removed ones, one pass per pair: a quiet
 * move is one pass, each captured piece one more. */
static inline __attribute__((always_inline)) void nnue_apply_rows(int h, const int16_t *in, int16_t *out,
                                                                  const int16_t *const *added, int n_added,
                                                                  const int16_t *const *removed,
                                                                  int n_removed)
{
	int a = 0, r = 0;
	do {
		const int16_t *plus = a < n_added ? added[a++] : NULL;
		const int16_t *minus = r < n_removed ? removed[r++] : NULL;
		if (plus && minus)
			nnue_add_sub(h, in, plus, minus, out);
		else if (plus)
			nnue_add_sub(h, in, plus, NULL, out);
		else if (minus)
			nnue_add_sub(h, in, NULL, minus, out);
		else if (in != out)
			memcpy(out, in, sizeof(int16_t) * (size_t)h);
		in = out;
	} while (a < n_added || r < n_removed);
}

/* Both points of view; unrolled for the hidden sizes of the compiled-in
 * networks (64, 128) when the kernel inlines it. */
static inline __attribute__((always_inline)) void nnue_apply_both(int h, const NnueAccumulator *in,
                                                                  NnueAccumulator *out, const NnueRows *c)
{
	if (c->count[0] == 1 && c->count[1] == 1) { /* a quiet move: one pass each */
		nnue_add_sub(h, in->v[0], c->row[0][0][0], c->row[1][0][0], out->v[0]);
		nnue_add_sub(h, in->v[1], c->row[0][1][0], c->row[1][1][0], out->v[1]);
		return;
	}
	for (int view = 0; view < 2; view++)
		nnue_apply_rows(h, in->v[view], out->v[view], c->row[0][view], c->count[0], c->row[1][view],
		                c->count[1]);
}

static inline __attribute__((always_inline)) void nnue_apply_sized(int h, const NnueAccumulator *in,
                                                                   NnueAccumulator *out, const NnueRows *c)
{
	if (h == 128)
		nnue_apply_both(128, in, out, c);
	else if (h == 64)
		nnue_apply_both(64, in, out, c);
	else
		nnue_apply_both(h, in, out, c);
}

/* The stack that scores the position of *acc. */
static inline const NnueStack *nnue_stack_of(const NnueNetwork *net, const NnueAccumulator *acc)
{
	return &net->stack[nnue_bucket(acc->pieces, net->buckets)];
}

/* A second-layer neuron's sum (scale 127 * 64) clipped to 0..127 and
 * divided by 64, rounding to the nearest: the vector kernels do the same
 * as max 0, + 32, shift right by 6, min 127. */
static inline int32_t nnue_second_activation(int32_t sum)
{
	int32_t s = sum <= 0 ? 0 : (sum + NNUE_L2_SCALE / 2) / NNUE_L2_SCALE;
	return s > NNUE_FT_SCALE ? NNUE_FT_SCALE : s;
}

/* The score from the output layer's sum with its bias (scale 127 * 1024):
 * one unit of the output is one man, 100 score units, rounded to the
 * nearest, halves away from zero (C's division truncates towards zero on
 * every compiler). */
static inline int nnue_score(int64_t out)
{
	const int64_t steps = NNUE_FT_SCALE * NNUE_OUT_SCALE;
	out *= NNUE_SCORE_PER_UNIT;
	return (int)((out + (out >= 0 ? steps / 2 : -steps / 2)) / steps);
}

/* The bounds that keep the vector kernels' sums exact: a second-layer sum
 * is at most 2H * 127 * 128 plus its bias, and the output's 32 products of
 * at most 127 * 32768 need no more than 32 bits before the bias. */
_Static_assert(2LL * NNUE_HIDDEN_MAX * 127 * 128 + NNUE_BIAS_LIMIT < INT32_MAX,
               "second-layer sums fit int32");
_Static_assert(32LL * 127 * 32768 < INT32_MAX, "the output's products sum within int32");

#endif
