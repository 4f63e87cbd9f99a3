/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to the network's modules: the kernels' entry points and the arithmetic they share. */
#ifndef POOLSHARK_NNUE_KERNEL_H
#define POOLSHARK_NNUE_KERNEL_H

#include <stdint.h>
#include <string.h>

#include "poolshark/nnue.h"

/*
 * A kernel is the network's arithmetic for one level of the processor:
 * the first layer's update after a move (nnue_update_*) or from the bias
 * (nnue_apply_*, for a refresh) and the forward pass from an accumulator
 * (nnue_forward_*). Every kernel computes the same integers
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

/* The accumulator after the move from *before to *after, as
 * nnue_update_between(). */
typedef void NnueUpdate(const NnueNetwork *net, const Position *before, const Position *after,
                        const NnueAccumulator *in, NnueAccumulator *out);

/* The score of the position of *acc for side, as nnue_evaluate(). */
typedef int NnueForward(const NnueNetwork *net, const NnueAccumulator *acc, Color side);

NnueApply nnue_apply_portable;
NnueUpdate nnue_update_portable;
NnueForward nnue_forward_portable;

/* The x86-64 kernels (nnue_x86.c), in every build for x86-64 by GCC or
 * Clang whatever its -march: each function carries the instruction sets it
 * uses (a `target` attribute), and nnue.c calls one only after cpu.h says
 * the processor has them. */
#if defined(__x86_64__) && defined(__GNUC__)
#define NNUE_X86 1
NnueApply nnue_apply_avx2;
NnueUpdate nnue_update_avx2; /* also AVX-VNNI's and AVX-512 VNNI's: the same adds */
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

/* Whether the updates are unrolled for hidden size n (those of the
 * compiled-in networks), h being it: not in the page, where the code's
 * size is part of what it downloads (it doubled the kernel's). */
#ifdef __wasm__
#define NNUE_UNROLLED(h, n) false
#else
#define NNUE_UNROLLED(h, n) ((h) == (n))
#endif

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
	for (int view = 0; view < 2; view++)
		nnue_apply_rows(h, in->v[view], out->v[view], c->row[0][view], c->count[0], c->row[1][view],
		                c->count[1]);
}

static inline __attribute__((always_inline)) void nnue_apply_sized(int h, const NnueAccumulator *in,
                                                                   NnueAccumulator *out, const NnueRows *c)
{
	if (NNUE_UNROLLED(h, 128))
		nnue_apply_both(128, in, out, c);
	else if (NNUE_UNROLLED(h, 64))
		nnue_apply_both(64, in, out, c);
	else
		nnue_apply_both(h, in, out, c);
}

/* The first-layer rows of a piece of `owner` (a king or a man) on square
 * s, from Black's point of view and from White's. */
static inline void nnue_piece_rows(const NnueNetwork *net, Color owner, bool king, int s,
                                   const int16_t **black, const int16_t **white)
{
	int h = net->hidden;
	*black = net->ft_weight + nnue_ft_at(h, nnue_input(BLACK, owner, king, s), 0);
	*white = net->ft_weight + nnue_ft_at(h, nnue_input(WHITE, owner, king, s), 0);
}

/* Notes the rows of the pieces of `set` (of `owner`, kings or men), as
 * added (removed 0) or removed (1). */
static inline void nnue_note_rows(const NnueNetwork *net, NnueRows *c, Bitboard set, Color owner, bool king,
                                  int removed)
{
	for (; set; set &= set - 1) {
		int i = c->count[removed]++;
		nnue_piece_rows(net, owner, king, bb_lowest(set), &c->row[removed][BLACK][i],
		                &c->row[removed][WHITE][i]);
	}
}

/* One pass per view of a quiet move's row in and row out. */
static inline __attribute__((always_inline)) void nnue_quiet_both(int h, const NnueAccumulator *in,
                                                                  NnueAccumulator *out,
                                                                  const int16_t *const *plus,
                                                                  const int16_t *const *minus)
{
	nnue_add_sub(h, in->v[BLACK], plus[BLACK], minus[BLACK], out->v[BLACK]);
	nnue_add_sub(h, in->v[WHITE], plus[WHITE], minus[WHITE], out->v[WHITE]);
}

/*
 * The accumulator after the move from *before to *after (one legal move):
 * all that changes is that the mover leaves one square and reaches another
 * (none when a capture ends where it began), a king or a man after a
 * crowning, and the other side loses the captured pieces. A quiet move,
 * the most frequent, takes one row in and one out per view, found and
 * applied without the bookkeeping of captures.
 */
static inline __attribute__((always_inline)) void
nnue_update_move(const NnueNetwork *net, const Position *before, const Position *after,
                 const NnueAccumulator *in, NnueAccumulator *out)
{
	Color mover = (Color)before->side, other = color_other(mover);
	Bitboard own0 = before->pieces[mover], own1 = after->pieces[mover];
	Bitboard from = own0 & ~own1, to = own1 & ~own0;
	Bitboard captured = before->pieces[other] & ~after->pieces[other];
	int h = net->hidden;
	if (!captured && from && to) {
		const int16_t *plus[2], *minus[2];
		nnue_piece_rows(net, mover, (after->kings & to) != 0, bb_lowest(to), &plus[BLACK],
		                &plus[WHITE]);
		nnue_piece_rows(net, mover, (before->kings & from) != 0, bb_lowest(from), &minus[BLACK],
		                &minus[WHITE]);
		if (NNUE_UNROLLED(h, 128))
			nnue_quiet_both(128, in, out, plus, minus);
		else if (NNUE_UNROLLED(h, 64))
			nnue_quiet_both(64, in, out, plus, minus);
		else
			nnue_quiet_both(h, in, out, plus, minus);
	} else {
		NnueRows c;
		c.count[0] = c.count[1] = 0;
		nnue_note_rows(net, &c, to, mover, (after->kings & to) != 0, 0);
		nnue_note_rows(net, &c, from, mover, (before->kings & from) != 0, 1);
		nnue_note_rows(net, &c, captured & ~before->kings, other, false, 1);
		nnue_note_rows(net, &c, captured & before->kings, other, true, 1);
		nnue_apply_sized(h, in, out, &c);
	}
	out->pieces = bb_count(position_occupied(after));
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
