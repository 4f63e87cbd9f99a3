/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The network's portable kernel: C, with the vector instructions the whole build may use (SSSE3, WebAssembly
 * SIMD). */
#include "nnue_kernel.h"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

void nnue_apply_portable(int h, const NnueAccumulator *in, NnueAccumulator *out, const NnueRows *rows)
{
	nnue_apply_sized(h, in, out, rows);
}

void nnue_update_portable(const NnueNetwork *net, const Position *before, const Position *after,
                          const NnueAccumulator *in, NnueAccumulator *out)
{
	nnue_update_move(net, before, after, in, out);
}

/* The clipped activations of the first layer, 0..127, the side to move's
 * half first. */
static void first_activations(const NnueNetwork *net, const NnueAccumulator *acc, Color side, uint8_t *a)
{
	int h = net->hidden;
	for (int half = 0; half < 2; half++) {
		const int16_t *v = acc->v[half == 0 ? side : color_other(side)];
#if defined(__SSE2__)
		/* Pack with unsigned saturation (below 0 becomes 0), cap at 127. */
		const __m128i cap = _mm_set1_epi8(NNUE_FT_SCALE);
		for (int j = 0; j < h; j += 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)(v + j));
			__m128i y = _mm_loadu_si128((const __m128i *)(v + j + 8));
			_mm_storeu_si128((__m128i *)(a + half * h + j),
			                 _mm_min_epu8(_mm_packus_epi16(x, y), cap));
		}
#else
		for (int j = 0; j < h; j++) {
			int x = v[j];
			a[half * h + j] = (uint8_t)(x < 0 ? 0 : x > NNUE_FT_SCALE ? NNUE_FT_SCALE : x);
		}
#endif
	}
}

/* The second layer's sums, bias included, from the activations a (2h). */
static void second_layer(const NnueStack *st, int h, const uint8_t *a, int32_t *sums)
{
	int groups = 2 * h / 4;
#if defined(__SSSE3__)
	/* Four activations against four weights of each neuron: pairs of
	 * products in 16 bits (at most 2 * 127 * 128, so the saturating add
	 * never saturates), then the pairs added in 32; eight registers of
	 * four sums, named so that they stay in registers at any -O. */
	const __m128i ones = _mm_set1_epi16(1);
	__m128i s0 = _mm_loadu_si128((const __m128i *)st->l2_bias);
	__m128i s1 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 4));
	__m128i s2 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 8));
	__m128i s3 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 12));
	__m128i s4 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 16));
	__m128i s5 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 20));
	__m128i s6 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 24));
	__m128i s7 = _mm_loadu_si128((const __m128i *)(st->l2_bias + 28));
	const int8_t *w = st->l2_weight;
	for (int g = 0; g < groups; g++, w += 4 * NNUE_HIDDEN2) {
		int32_t four;
		memcpy(&four, a + 4 * g, 4);
		__m128i x = _mm_set1_epi32(four);
#define DOT(sum, k)                                                                                          \
	sum = _mm_add_epi32(                                                                                 \
	    sum,                                                                                             \
	    _mm_madd_epi16(_mm_maddubs_epi16(x, _mm_loadu_si128((const __m128i *)(w + 16 * (k)))), ones))
		DOT(s0, 0), DOT(s1, 1), DOT(s2, 2), DOT(s3, 3), DOT(s4, 4), DOT(s5, 5), DOT(s6, 6),
		    DOT(s7, 7);
#undef DOT
	}
	_mm_storeu_si128((__m128i *)sums, s0);
	_mm_storeu_si128((__m128i *)(sums + 4), s1);
	_mm_storeu_si128((__m128i *)(sums + 8), s2);
	_mm_storeu_si128((__m128i *)(sums + 12), s3);
	_mm_storeu_si128((__m128i *)(sums + 16), s4);
	_mm_storeu_si128((__m128i *)(sums + 20), s5);
	_mm_storeu_si128((__m128i *)(sums + 24), s6);
	_mm_storeu_si128((__m128i *)(sums + 28), s7);
#elif defined(__wasm_simd128__)
	/* The four activations widened to 16 bits, twice; a load of weights
	 * is four neurons' four weights, and a 16-bit dot product gives each
	 * neuron two 32-bit halves of its sum, added at the end (pairs of
	 * products, at most 2 * 127 * 128: nothing wraps). */
	v128_t total[16];
	for (int t = 0; t < 16; t++)
		total[t] = wasm_i32x4_splat(0);
	for (int g = 0; g < groups; g++) {
		v128_t x = wasm_u16x8_extend_low_u8x16(wasm_v128_load32_splat(a + 4 * g));
		const int8_t *w = st->l2_weight + nnue_l2_at(0, 4 * g);
		for (int q = 0; q < 8; q++) {
			v128_t y = wasm_v128_load(w + 16 * q);
			total[2 * q] = wasm_i32x4_add(
			    total[2 * q], wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(y), x));
			total[2 * q + 1] = wasm_i32x4_add(
			    total[2 * q + 1], wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(y), x));
		}
	}
	/* total[t] holds neurons 2t and 2t + 1, two halves each: add them. */
	for (int q = 0; q < 8; q++) {
		v128_t lo = total[2 * q], hi = total[2 * q + 1];
		v128_t s = wasm_i32x4_add(wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6),
		                          wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7));
		wasm_v128_store(sums + 4 * q, wasm_i32x4_add(s, wasm_v128_load(st->l2_bias + 4 * q)));
	}
#else
	for (int k = 0; k < NNUE_HIDDEN2; k++)
		sums[k] = st->l2_bias[k];
	for (int g = 0; g < groups; g++)
		for (int k = 0; k < NNUE_HIDDEN2; k++) {
			const int8_t *w = st->l2_weight + nnue_l2_at(k, 4 * g);
			const uint8_t *x = a + 4 * g;
			sums[k] += x[0] * w[0] + x[1] * w[1] + x[2] * w[2] + x[3] * w[3];
		}
#endif
}

int nnue_forward_portable(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	_Alignas(16) uint8_t a[2 * NNUE_HIDDEN_MAX];
	_Alignas(16) int32_t sums[NNUE_HIDDEN2];
	const NnueStack *st = nnue_stack_of(net, acc);
	first_activations(net, acc, side, a);
	second_layer(st, net->hidden, a, sums);
#if defined(__SSE4_1__)
	/* As nnue_second_activation(): max 0, + 32, shift right by 6, min
	 * 127; the products fit 32 bits (nnue_kernel.h). */
	const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi32(NNUE_L2_SCALE / 2);
	const __m128i cap = _mm_set1_epi32(NNUE_FT_SCALE);
	__m128i total = zero;
	for (int q = 0; q < NNUE_HIDDEN2; q += 4) {
		__m128i s = _mm_max_epi32(_mm_load_si128((const __m128i *)(sums + q)), zero);
		s = _mm_min_epi32(_mm_srai_epi32(_mm_add_epi32(s, half), 6), cap);
		__m128i w = _mm_cvtepi16_epi32(_mm_loadl_epi64((const __m128i *)(st->out_weight + q)));
		total = _mm_add_epi32(total, _mm_mullo_epi32(s, w));
	}
	total = _mm_add_epi32(total, _mm_shuffle_epi32(total, 0x4e));
	total = _mm_add_epi32(total, _mm_shuffle_epi32(total, 0xb1));
	return nnue_score((int64_t)st->out_bias + _mm_cvtsi128_si32(total));
#else
	int64_t out = st->out_bias;
	for (int k = 0; k < NNUE_HIDDEN2; k++)
		out += (int64_t)nnue_second_activation(sums[k]) * st->out_weight[k];
	return nnue_score(out);
#endif
}
_Static_assert(NNUE_L2_SCALE == 1 << 6, "the shift by 6 divides by NNUE_L2_SCALE");
