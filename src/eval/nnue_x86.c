/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The network's kernels for x86-64 with AVX2, AVX-VNNI and AVX-512 VNNI. */
#define NNUE_LANES 16 /* the accumulator's update in 256-bit registers */
#include "nnue_kernel.h"

#if defined(NNUE_X86)
#include <immintrin.h>

/* The instruction sets of each kernel, for GCC's and Clang's `target`
 * attribute: a function so marked may use them whatever the build's
 * -march, and is only called on a processor that has them (nnue.c). */
#define AVX2       __attribute__((target("avx2")))
#define AVXVNNI    __attribute__((target("avx2,avxvnni")))
#define AVX512VNNI __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni")))

/* The clipped activations (0..127) of one half, h lanes, into a: pack
 * with signed saturation, put the 64-bit quarters back in order, then
 * nothing below 0. */
static inline __attribute__((always_inline)) AVX2 void activations_avx2(const int16_t *v, int h, uint8_t *a)
{
	const __m256i zero = _mm256_setzero_si256();
	int j = 0;
	for (; j + 32 <= h; j += 32) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(v + j));
		__m256i y = _mm256_loadu_si256((const __m256i *)(v + j + 16));
		__m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi16(x, y), 0xd8);
		_mm256_storeu_si256((__m256i *)(a + j), _mm256_max_epi8(packed, zero));
	}
	if (j < h) { /* the last 16 */
		__m128i x = _mm_loadu_si128((const __m128i *)(v + j));
		__m128i y = _mm_loadu_si128((const __m128i *)(v + j + 8));
		_mm_storeu_si128((__m128i *)(a + j),
		                 _mm_max_epi8(_mm_packs_epi16(x, y), _mm_setzero_si128()));
	}
}

/* The four activations of group g, in each 32-bit lane. */
static inline __attribute__((always_inline)) int32_t group_of(const uint8_t *a, int g)
{
	int32_t four;
	memcpy(&four, a + 4 * g, 4);
	return four;
}

/* The output from the second layer's 32 sums (bias included) in four
 * registers: each clipped and divided as nnue_second_activation() does,
 * times its output weight, summed; the products fit 32 bits
 * (nnue_kernel.h), the bias is added in 64. */
static inline __attribute__((always_inline)) AVX2 int output_avx2(const NnueStack *st, const __m256i *sums)
{
	const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi32(NNUE_L2_SCALE / 2);
	const __m256i cap = _mm256_set1_epi32(NNUE_FT_SCALE);
	__m256i total = zero;
	for (int q = 0; q < 4; q++) {
		__m256i s = _mm256_max_epi32(sums[q], zero);
		s = _mm256_min_epi32(_mm256_srai_epi32(_mm256_add_epi32(s, half), 6), cap);
		__m256i w = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(st->out_weight + 8 * q)));
		total = _mm256_add_epi32(total, _mm256_mullo_epi32(s, w));
	}
	__m128i t = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
	t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4e));
	t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xb1));
	return nnue_score((int64_t)st->out_bias + _mm_cvtsi128_si32(t));
}
_Static_assert(NNUE_L2_SCALE == 1 << 6, "the shift by 6 divides by NNUE_L2_SCALE");

AVX2 void nnue_apply_avx2(int h, const NnueAccumulator *in, NnueAccumulator *out, const NnueRows *rows)
{
	nnue_apply_sized(h, in, out, rows);
}

AVX2 void nnue_update_avx2(const NnueNetwork *net, const Position *before, const Position *after,
                           const NnueAccumulator *in, NnueAccumulator *out)
{
	nnue_update_move(net, before, after, in, out);
}

AVX2 int nnue_forward_avx2(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	_Alignas(32) uint8_t a[2 * NNUE_HIDDEN_MAX];
	int h = net->hidden;
	const NnueStack *st = nnue_stack_of(net, acc);
	activations_avx2(acc->v[side], h, a);
	activations_avx2(acc->v[color_other(side)], h, a + h);
	/* Four activations against four weights of each of 32 neurons: pairs
	 * of products in 16 bits (at most 2 * 127 * 128: the saturating add
	 * never saturates), the pairs added in 32. */
	const __m256i ones = _mm256_set1_epi16(1);
	__m256i s0 = _mm256_loadu_si256((const __m256i *)st->l2_bias);
	__m256i s1 = _mm256_loadu_si256((const __m256i *)(st->l2_bias + 8));
	__m256i s2 = _mm256_loadu_si256((const __m256i *)(st->l2_bias + 16));
	__m256i s3 = _mm256_loadu_si256((const __m256i *)(st->l2_bias + 24));
	const int8_t *w = st->l2_weight;
	for (int g = 0; g < h / 2; g++, w += 4 * NNUE_HIDDEN2) {
		__m256i x = _mm256_set1_epi32(group_of(a, g));
		__m256i p0 = _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)w));
		__m256i p1 = _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)(w + 32)));
		__m256i p2 = _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)(w + 64)));
		__m256i p3 = _mm256_maddubs_epi16(x, _mm256_loadu_si256((const __m256i *)(w + 96)));
		s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(p0, ones));
		s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(p1, ones));
		s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(p2, ones));
		s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(p3, ones));
	}
	__m256i sums[4] = {s0, s1, s2, s3};
	return output_avx2(st, sums);
}

/* Sum k (0..3, neurons 8k..8k+7) += the products of group x's four
 * activations with the group's weights at w. */
#define VNNI256(sum, k, x, w)                                                                                \
	sum = _mm256_dpbusd_avx_epi32(sum, x, _mm256_loadu_si256((const __m256i *)((w) + 32 * (k))))

/* The same with AVX-VNNI: four products and their sum in one instruction;
 * the even and odd groups into separate sums (the instruction's latency). */
AVXVNNI int nnue_forward_avxvnni(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	_Alignas(32) uint8_t a[2 * NNUE_HIDDEN_MAX];
	int h = net->hidden;
	const NnueStack *st = nnue_stack_of(net, acc);
	activations_avx2(acc->v[side], h, a);
	activations_avx2(acc->v[color_other(side)], h, a + h);
	/* Group 0 from the bias, group 1 from zero: sums started alike would
	 * share a register and be copied at every step. */
	const int step = 4 * NNUE_HIDDEN2;
	const int8_t *w = st->l2_weight;
	__m256i x = _mm256_set1_epi32(group_of(a, 0)), y = _mm256_set1_epi32(group_of(a, 1));
	__m256i zero = _mm256_setzero_si256(), s0, s1, s2, s3, t0 = zero, t1 = zero, t2 = zero, t3 = zero;
	s0 = _mm256_loadu_si256((const __m256i *)st->l2_bias);
	s1 = _mm256_loadu_si256((const __m256i *)(st->l2_bias + 8));
	s2 = _mm256_loadu_si256((const __m256i *)(st->l2_bias + 16));
	s3 = _mm256_loadu_si256((const __m256i *)(st->l2_bias + 24));
	VNNI256(s0, 0, x, w), VNNI256(s1, 1, x, w), VNNI256(s2, 2, x, w), VNNI256(s3, 3, x, w);
	VNNI256(t0, 0, y, w + step), VNNI256(t1, 1, y, w + step), VNNI256(t2, 2, y, w + step);
	VNNI256(t3, 3, y, w + step);
	for (int g = 2; g < h / 2; g += 2) { /* h / 2 groups, a multiple of 8 */
		w += 2 * step;
		x = _mm256_set1_epi32(group_of(a, g));
		y = _mm256_set1_epi32(group_of(a, g + 1));
		VNNI256(s0, 0, x, w), VNNI256(s1, 1, x, w), VNNI256(s2, 2, x, w), VNNI256(s3, 3, x, w);
		VNNI256(t0, 0, y, w + step), VNNI256(t1, 1, y, w + step), VNNI256(t2, 2, y, w + step);
		VNNI256(t3, 3, y, w + step);
	}
	__m256i sums[4] = {_mm256_add_epi32(s0, t0), _mm256_add_epi32(s1, t1), _mm256_add_epi32(s2, t2),
	                   _mm256_add_epi32(s3, t3)};
	return output_avx2(st, sums);
}
#undef VNNI256

AVX512VNNI void nnue_apply_avx512vnni(int h, const NnueAccumulator *in, NnueAccumulator *out,
                                      const NnueRows *rows)
{
	nnue_apply_sized(h, in, out, rows);
}

/* The clipped activations of one half with AVX-512: 32 lanes narrowed
 * with signed saturation in one instruction, in order. */
static inline __attribute__((always_inline)) AVX512VNNI void activations_avx512(const int16_t *v, int h,
                                                                                uint8_t *a)
{
	const __m256i zero = _mm256_setzero_si256();
	int j = 0;
	for (; j + 32 <= h; j += 32) {
		__m256i x = _mm512_cvtsepi16_epi8(_mm512_loadu_si512(v + j));
		_mm256_storeu_si256((__m256i *)(a + j), _mm256_max_epi8(x, zero));
	}
	if (j < h) { /* the last 16 */
		__m128i x = _mm256_cvtsepi16_epi8(_mm256_loadu_si256((const __m256i *)(v + j)));
		_mm_storeu_si128((__m128i *)(a + j), _mm_max_epi8(x, _mm_setzero_si128()));
	}
}

/* The same with AVX-512 VNNI: the 32 neurons' sums in two registers, four
 * groups at a time into separate sums (the instruction's latency). */
AVX512VNNI int nnue_forward_avx512vnni(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	_Alignas(64) uint8_t a[2 * NNUE_HIDDEN_MAX];
	int h = net->hidden;
	const NnueStack *st = nnue_stack_of(net, acc);
	activations_avx512(acc->v[side], h, a);
	activations_avx512(acc->v[color_other(side)], h, a + h);
	/* Four groups of four activations at a time, each broadcast from a
	 * register of sixteen groups (vpermd by an index that steps by four)
	 * rather than loaded: the loads are the weights'. Four pairs of sums
	 * against the instruction's latency. */
	const int step = 4 * NNUE_HIDDEN2;
	const int8_t *w = st->l2_weight;
	const __m512i zero = _mm512_setzero_si512(), four = _mm512_set1_epi32(4);
	__m512i lo0 = _mm512_loadu_si512(st->l2_bias), hi0 = _mm512_loadu_si512(st->l2_bias + 16);
	__m512i lo1 = zero, hi1 = zero, lo2 = zero, hi2 = zero, lo3 = zero, hi3 = zero;
	for (int b = 0; b < h / 32; b++) { /* 2h bytes, 64 at a time */
		__m512i act = _mm512_load_si512(a + 64 * b);
		__m512i i0 = _mm512_set1_epi32(0), i1 = _mm512_set1_epi32(1), i2 = _mm512_set1_epi32(2),
		        i3 = _mm512_set1_epi32(3);
		for (int g = 0; g < 16; g += 4, w += 4 * step) {
			__m512i x0 = _mm512_permutexvar_epi32(i0, act),
			        x1 = _mm512_permutexvar_epi32(i1, act);
			__m512i x2 = _mm512_permutexvar_epi32(i2, act),
			        x3 = _mm512_permutexvar_epi32(i3, act);
			i0 = _mm512_add_epi32(i0, four), i1 = _mm512_add_epi32(i1, four);
			i2 = _mm512_add_epi32(i2, four), i3 = _mm512_add_epi32(i3, four);
			lo0 = _mm512_dpbusd_epi32(lo0, x0, _mm512_loadu_si512(w));
			hi0 = _mm512_dpbusd_epi32(hi0, x0, _mm512_loadu_si512(w + 64));
			lo1 = _mm512_dpbusd_epi32(lo1, x1, _mm512_loadu_si512(w + step));
			hi1 = _mm512_dpbusd_epi32(hi1, x1, _mm512_loadu_si512(w + step + 64));
			lo2 = _mm512_dpbusd_epi32(lo2, x2, _mm512_loadu_si512(w + 2 * step));
			hi2 = _mm512_dpbusd_epi32(hi2, x2, _mm512_loadu_si512(w + 2 * step + 64));
			lo3 = _mm512_dpbusd_epi32(lo3, x3, _mm512_loadu_si512(w + 3 * step));
			hi3 = _mm512_dpbusd_epi32(hi3, x3, _mm512_loadu_si512(w + 3 * step + 64));
		}
	}
	for (int g = h / 32 * 16; g < h / 2; g += 4, w += 4 * step) { /* h not a multiple of 32: 8 more */
		__m512i x0 = _mm512_set1_epi32(group_of(a, g)), x1 = _mm512_set1_epi32(group_of(a, g + 1));
		__m512i x2 = _mm512_set1_epi32(group_of(a, g + 2)),
		        x3 = _mm512_set1_epi32(group_of(a, g + 3));
		lo0 = _mm512_dpbusd_epi32(lo0, x0, _mm512_loadu_si512(w));
		hi0 = _mm512_dpbusd_epi32(hi0, x0, _mm512_loadu_si512(w + 64));
		lo1 = _mm512_dpbusd_epi32(lo1, x1, _mm512_loadu_si512(w + step));
		hi1 = _mm512_dpbusd_epi32(hi1, x1, _mm512_loadu_si512(w + step + 64));
		lo2 = _mm512_dpbusd_epi32(lo2, x2, _mm512_loadu_si512(w + 2 * step));
		hi2 = _mm512_dpbusd_epi32(hi2, x2, _mm512_loadu_si512(w + 2 * step + 64));
		lo3 = _mm512_dpbusd_epi32(lo3, x3, _mm512_loadu_si512(w + 3 * step));
		hi3 = _mm512_dpbusd_epi32(hi3, x3, _mm512_loadu_si512(w + 3 * step + 64));
	}
	__m512i s_lo = _mm512_add_epi32(_mm512_add_epi32(lo0, lo1), _mm512_add_epi32(lo2, lo3));
	__m512i s_hi = _mm512_add_epi32(_mm512_add_epi32(hi0, hi1), _mm512_add_epi32(hi2, hi3));
	/* The output, as output_avx2() does, 16 lanes at a time. */
	const __m512i half = _mm512_set1_epi32(NNUE_L2_SCALE / 2);
	const __m512i cap = _mm512_set1_epi32(NNUE_FT_SCALE);
	s_lo =
	    _mm512_min_epi32(_mm512_srai_epi32(_mm512_add_epi32(_mm512_max_epi32(s_lo, zero), half), 6), cap);
	s_hi =
	    _mm512_min_epi32(_mm512_srai_epi32(_mm512_add_epi32(_mm512_max_epi32(s_hi, zero), half), 6), cap);
	__m512i w_lo = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)st->out_weight));
	__m512i w_hi = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(st->out_weight + 16)));
	__m512i total = _mm512_add_epi32(_mm512_mullo_epi32(s_lo, w_lo), _mm512_mullo_epi32(s_hi, w_hi));
	return nnue_score((int64_t)st->out_bias + _mm512_reduce_add_epi32(total));
}
#endif
