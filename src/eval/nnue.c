/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The learned evaluation: weights file reader, accumulator and integer forward pass (doc/EVAL.md). */
#include "poolshark/nnue.h"
#include "poolshark/bytes.h"
#include "poolshark/checksum.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __AVX2__
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

size_t nnue_file_size(int hidden, int buckets)
{
	size_t h = (size_t)hidden;
	size_t stack = 4 * NNUE_HIDDEN2 + NNUE_HIDDEN2 * 2 * h + 4 + 2 * NNUE_HIDDEN2;
	return NNUE_HEADER_SIZE + 2 * h + 2 * NNUE_INPUTS * h + (size_t)buckets * stack;
}

uint64_t nnue_checksum(const uint8_t *image, size_t size)
{
	uint64_t hash =
	    checksum_fnv1a(CHECKSUM_FNV_OFFSET, image + NNUE_HEADER_SIZE, size - NNUE_HEADER_SIZE);
	return checksum_fnv1a(hash, image, 56);
}

/* The rule set of a header's code (1 pool, 2 Russian, 3 Brazilian, as in the data files). */
static bool variant_of_code(uint32_t code, Variant *out)
{
	if (code < 1 || code > VARIANT_COUNT)
		return false;
	*out = (Variant)(code - 1);
	return true;
}

/* A header field that must hold this build's value. */
typedef struct Fixed {
	size_t offset;
	uint32_t value;
	const char *name;
} Fixed;

bool nnue_load_bytes(NnueNetwork *net, const uint8_t *b, size_t size, Variant expected, char *err,
                     size_t err_size)
{
	if (size < NNUE_HEADER_SIZE) {
		snprintf(err, err_size, "truncated: %zu bytes, shorter than the %d-byte header (offset %zu)",
		         size, NNUE_HEADER_SIZE, size);
		return false;
	}
	if (memcmp(b, NNUE_MAGIC, 8) != 0) {
		snprintf(err, err_size, "not a poolshark weights file (bad magic at offset 0)");
		return false;
	}
	uint32_t version = bytes_get32(b + 8);
	if (version != NNUE_VERSION && version != NNUE_VERSION_ONE_STACK) {
		snprintf(err, err_size, "format version %u, this build reads versions %d and %d (offset 8)",
		         version, NNUE_VERSION_ONE_STACK, NNUE_VERSION);
		return false;
	}
	Variant variant;
	if (!variant_of_code(bytes_get32(b + 16), &variant)) {
		snprintf(err, err_size, "unknown rule set %u (offset 16)", bytes_get32(b + 16));
		return false;
	}
	if (variant != expected) {
		snprintf(err, err_size, "a network for %s, not for %s (offset 16)",
		         variant_rules(variant)->name, variant_rules(expected)->name);
		return false;
	}
	const Fixed fixed[] = {
	    {12, NNUE_HEADER_SIZE, "header size"},     {20, NNUE_INPUTS, "input count"},
	    {28, NNUE_HIDDEN2, "second layer size"},   {32, NNUE_FT_SCALE, "first-layer scale"},
	    {36, NNUE_L2_SCALE, "second-layer scale"}, {40, NNUE_OUT_SCALE, "output scale"},
	    {44, NNUE_SCORE_PER_UNIT, "score scale"}};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		uint32_t v = bytes_get32(b + fixed[i].offset);
		if (v != fixed[i].value) {
			snprintf(err, err_size, "%s %u, this build needs %u (offset %zu)", fixed[i].name, v,
			         fixed[i].value, fixed[i].offset);
			return false;
		}
	}
	uint32_t hidden = bytes_get32(b + 24);
	if (hidden < NNUE_HIDDEN_MIN || hidden > NNUE_HIDDEN_MAX || hidden % 16 != 0) {
		snprintf(err, err_size,
		         "hidden size %u, this build needs a multiple of 16 from %d to %d (offset 24)",
		         hidden, NNUE_HIDDEN_MIN, NNUE_HIDDEN_MAX);
		return false;
	}
	/* Version 2 keeps the seed in 4 bytes and the stack count in the next 4. */
	uint32_t buckets = version == NNUE_VERSION_ONE_STACK ? 1 : bytes_get32(b + 52);
	if (buckets < 1 || buckets > NNUE_BUCKETS_MAX) {
		snprintf(err, err_size, "%u stacks, this build needs 1 to %d (offset 52)", buckets,
		         NNUE_BUCKETS_MAX);
		return false;
	}
	size_t want = nnue_file_size((int)hidden, (int)buckets);
	if (size != want) {
		snprintf(err, err_size, "%s: %zu bytes, hidden size %u and %u stacks need %zu (offset %zu)",
		         size < want ? "truncated" : "trailing bytes", size, hidden, buckets, want,
		         size < want ? size : want);
		return false;
	}
	uint64_t checksum = bytes_get64(b + 56);
	if (nnue_checksum(b, size) != checksum) {
		snprintf(err, err_size, "checksum mismatch: the file is damaged (offset 56)");
		return false;
	}
	NnueNetwork *n = calloc(1, sizeof *n);
	if (!n) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	size_t h = hidden, at = NNUE_HEADER_SIZE;
	n->variant = variant;
	n->hidden = (int)hidden;
	n->buckets = (int)buckets;
	n->checksum = checksum;
	bool ok = true;
	size_t bad = 0;
	for (size_t j = 0; j < h; j++, at += 2) {
		n->ft_bias[j] = (int16_t)bytes_get16(b + at);
		if (ok && (n->ft_bias[j] > NNUE_FT_LIMIT || n->ft_bias[j] < -NNUE_FT_LIMIT))
			ok = false, bad = at;
	}
	for (size_t i = 0; i < NNUE_INPUTS; i++)
		for (size_t j = 0; j < h; j++, at += 2) {
			n->ft_weight[i][j] = (int16_t)bytes_get16(b + at);
			if (ok && (n->ft_weight[i][j] > NNUE_FT_LIMIT || n->ft_weight[i][j] < -NNUE_FT_LIMIT))
				ok = false, bad = at;
		}
	if (!ok) {
		snprintf(err, err_size, "first-layer value beyond +-%d (offset %zu)", NNUE_FT_LIMIT, bad);
		free(n);
		return false;
	}
	for (size_t bucket = 0; bucket < buckets; bucket++) {
		NnueStack *st = &n->stack[bucket];
		for (size_t k = 0; k < NNUE_HIDDEN2; k++, at += 4) {
			st->l2_bias[k] = (int32_t)bytes_get32(b + at);
			if (ok && (st->l2_bias[k] > NNUE_BIAS_LIMIT || st->l2_bias[k] < -NNUE_BIAS_LIMIT))
				ok = false, bad = at;
		}
		for (size_t k = 0; k < NNUE_HIDDEN2; k++)
			for (size_t j = 0; j < 2 * h; j++, at++)
				st->l2_weight[k][j] = (int8_t)b[at];
		st->out_bias = (int32_t)bytes_get32(b + at);
		if (ok && (st->out_bias > NNUE_BIAS_LIMIT || st->out_bias < -NNUE_BIAS_LIMIT))
			ok = false, bad = at;
		at += 4;
		for (size_t k = 0; k < NNUE_HIDDEN2; k++, at += 2)
			st->out_weight[k] = (int16_t)bytes_get16(b + at);
	}
	if (!ok) {
		snprintf(err, err_size, "bias beyond +-%d (offset %zu)", NNUE_BIAS_LIMIT, bad);
		free(n);
		return false;
	}
	*net = *n;
	free(n);
	return true;
}

bool nnue_load_file(NnueNetwork *net, const char *path, Variant expected, char *err, size_t err_size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	size_t cap = nnue_file_size(NNUE_HIDDEN_MAX, NNUE_BUCKETS_MAX) + 1, size = 0;
	uint8_t *bytes = malloc(cap);
	if (!bytes) {
		fclose(f);
		snprintf(err, err_size, "%s: out of memory", path);
		return false;
	}
	errno = 0;
	size = fread(bytes, 1, cap, f);
	bool failed = ferror(f);
	int read_errno = errno;
	fclose(f);
	char why[NNUE_ERROR_MAX];
	bool ok = false;
	if (failed)
		snprintf(why, sizeof why, "read error: %s", read_errno ? strerror(read_errno) : "unknown");
	else if (size == cap)
		snprintf(why, sizeof why, "larger than any weights file (%zu bytes or more)", cap);
	else
		ok = nnue_load_bytes(net, bytes, size, expected, why, sizeof why);
	free(bytes);
	if (!ok)
		snprintf(err, err_size, "%s: %s", path, why);
	return ok;
}

/* The bytes of tools/data/nnue-VARIANT.bin, written into a C file by the
 * build (scripts/embed-bytes), so that the default networks need no file at
 * run time. */
extern const unsigned char nnue_pool_data[], nnue_russian_data[], nnue_brazilian_data[];
extern const size_t nnue_pool_size, nnue_russian_size, nnue_brazilian_size;

bool nnue_load_default(NnueNetwork *net, Variant v, char *err, size_t err_size)
{
	const unsigned char *bytes[VARIANT_COUNT] = {nnue_pool_data, nnue_russian_data, nnue_brazilian_data};
	size_t sizes[VARIANT_COUNT] = {nnue_pool_size, nnue_russian_size, nnue_brazilian_size};
	_Static_assert(VARIANT_POOL == 0 && VARIANT_RUSSIAN == 1 && VARIANT_BRAZILIAN == 2 &&
	                   VARIANT_COUNT == 3,
	               "one compiled-in network per rule set, in Variant order");
	return nnue_load_bytes(net, bytes[v], sizes[v], v, err, err_size);
}

void nnue_update(const NnueNetwork *net, const Position *before, Move m, const NnueAccumulator *in,
                 NnueAccumulator *out)
{
	Position after;
	position_make_keyed(before, m, &after, false);
	nnue_update_between(net, before, &after, in, out);
}

/* The first-layer rows a change of the pieces adds and removes, from each
 * point of view. */
typedef struct RowChanges {
	int count[2];                           /* [0: added, 1: removed] */
	const int16_t *row[2][2][SQUARE_COUNT]; /* [added or removed][view][i] */
} RowChanges;

/* 16 lanes of the accumulator: one AVX2 register, two of SSE2 or
 * WebAssembly SIMD (GCC's and Clang's vector extension; h is a multiple of
 * 16). Wrapping int16 sums are the same in any order. */
typedef int16_t Lanes __attribute__((vector_size(32)));

static inline Lanes lanes_load(const int16_t *p)
{
	Lanes v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline void lanes_store(int16_t *p, Lanes v)
{
	memcpy(p, &v, sizeof v);
}

/* out = in + a - r (a or r may be NULL: no row), 16 lanes at a time; in
 * and out may be the same. */
static inline __attribute__((always_inline)) void add_sub(int h, const int16_t *in, const int16_t *a,
                                                          const int16_t *r, int16_t *out)
{
	for (int j = 0; j < h; j += 16) {
		Lanes v = lanes_load(in + j);
		if (a)
			v += lanes_load(a + j);
		if (r)
			v -= lanes_load(r + j);
		lanes_store(out + j, v);
	}
}

/* out = in + the added rows - the removed ones, one pass per pair: a quiet
 * move is one pass, each captured piece one more. */
static inline __attribute__((always_inline)) void apply_rows_h(int h, const int16_t *in, int16_t *out,
                                                               const int16_t *const *added, int n_added,
                                                               const int16_t *const *removed, int n_removed)
{
	int a = 0, r = 0;
	do {
		const int16_t *plus = a < n_added ? added[a++] : NULL;
		const int16_t *minus = r < n_removed ? removed[r++] : NULL;
		if (plus && minus)
			add_sub(h, in, plus, minus, out);
		else if (plus)
			add_sub(h, in, plus, NULL, out);
		else if (minus)
			add_sub(h, in, NULL, minus, out);
		else if (in != out)
			memcpy(out, in, sizeof(int16_t) * (size_t)h);
		in = out;
	} while (a < n_added || r < n_removed);
}

/* Both points of view of *c, for a hidden size h known when inlined. */
static inline __attribute__((always_inline)) void apply_changes_h(int h, const int16_t (*in)[NNUE_HIDDEN_MAX],
                                                                  int16_t (*out)[NNUE_HIDDEN_MAX],
                                                                  const RowChanges *c)
{
	for (int view = 0; view < 2; view++)
		apply_rows_h(h, in[view], out[view], c->row[0][view], c->count[0], c->row[1][view],
		             c->count[1]);
}

/* The same, unrolled for the hidden sizes of the compiled-in networks. */
static void apply_changes(int h, const int16_t (*in)[NNUE_HIDDEN_MAX], int16_t (*out)[NNUE_HIDDEN_MAX],
                          const RowChanges *c)
{
	if (h == 128)
		apply_changes_h(128, in, out, c);
	else if (h == 64)
		apply_changes_h(64, in, out, c);
	else
		apply_changes_h(h, in, out, c);
}

/* Notes the rows of the pieces of `set` (of `owner`, kings or men), as
 * added (removed 0) or removed (1). */
static void note_rows(const NnueNetwork *net, RowChanges *c, Bitboard set, Color owner, bool king,
                      int removed)
{
	for (; set; set &= set - 1) {
		int s = bb_lowest(set), i = c->count[removed]++;
		c->row[removed][BLACK][i] = net->ft_weight[nnue_input(BLACK, owner, king, s)];
		c->row[removed][WHITE][i] = net->ft_weight[nnue_input(WHITE, owner, king, s)];
	}
}

void nnue_refresh(const NnueNetwork *net, const Position *p, NnueAccumulator *acc)
{
	RowChanges c;
	c.count[0] = c.count[1] = 0;
	for (int k = 0; k < 2; k++) {
		note_rows(net, &c, position_men(p, (Color)k), (Color)k, false, 0);
		note_rows(net, &c, position_kings(p, (Color)k), (Color)k, true, 0);
	}
	for (int view = 0; view < 2; view++)
		apply_rows_h(net->hidden, net->ft_bias, acc->v[view], c.row[0][view], c.count[0], NULL, 0);
	acc->pieces = bb_count(position_occupied(p));
}

/* Notes the row of the piece on the one square of `square` (none when it
 * is empty). */
static inline void note_square(const NnueNetwork *net, RowChanges *c, Bitboard square, Color owner, bool king,
                               int removed)
{
	if (square) {
		int s = bb_lowest(square), i = c->count[removed]++;
		c->row[removed][BLACK][i] = net->ft_weight[nnue_input(BLACK, owner, king, s)];
		c->row[removed][WHITE][i] = net->ft_weight[nnue_input(WHITE, owner, king, s)];
	}
}

void nnue_update_between(const NnueNetwork *net, const Position *before, const Position *after,
                         const NnueAccumulator *in, NnueAccumulator *out)
{
	/* All that changes: the mover leaves one square and reaches another
	 * (none when a capture ends where it began), a king or a man after a
	 * crowning, and the other side loses the captured pieces. */
	RowChanges c;
	c.count[0] = c.count[1] = 0;
	Color mover = (Color)before->side, other = color_other(mover);
	Bitboard own0 = before->pieces[mover], own1 = after->pieces[mover];
	Bitboard from = own0 & ~own1, to = own1 & ~own0;
	note_square(net, &c, to, mover, (after->kings & to) != 0, 0);
	note_square(net, &c, from, mover, (before->kings & from) != 0, 1);
	Bitboard captured = before->pieces[other] & ~after->pieces[other];
	note_rows(net, &c, captured & ~before->kings, other, false, 1);
	note_rows(net, &c, captured & before->kings, other, true, 1);
	apply_changes(net->hidden, (const int16_t(*)[NNUE_HIDDEN_MAX])in->v, out->v, &c);
	out->pieces = bb_count(position_occupied(after));
}

/* The stack that scores the position of *acc. */
static const NnueStack *stack_of(const NnueNetwork *net, const NnueAccumulator *acc)
{
	return &net->stack[nnue_bucket(acc->pieces, net->buckets)];
}

/* The clipped activations of the first layer, the side to move's half first. */
static void first_activations(const NnueNetwork *net, const NnueAccumulator *acc, Color side, uint8_t *a)
{
	int h = net->hidden;
	for (int half = 0; half < 2; half++) {
		const int16_t *v = acc->v[half == 0 ? side : color_other(side)];
#if defined(__SSE2__) && !defined(__AVX2__)
		/* Pack with unsigned saturation (below 0 becomes 0), cap at 127. */
		const __m128i cap = _mm_set1_epi8(NNUE_FT_SCALE);
		for (int j = 0; j < h; j += 16) {
			__m128i x = _mm_load_si128((const __m128i *)(v + j));
			__m128i y = _mm_load_si128((const __m128i *)(v + j + 8));
			_mm_store_si128((__m128i *)(a + half * h + j),
			                _mm_min_epu8(_mm_packus_epi16(x, y), cap));
		}
		continue;
#endif
		for (int j = 0; j < h; j += 16) /* blocks of 16, as in apply_rows() */
			for (int i = 0; i < 16; i++) {
				int x = v[j + i];
				a[half * h + j + i] = (uint8_t)(x < 0               ? 0
				                                : x > NNUE_FT_SCALE ? NNUE_FT_SCALE
				                                                    : x);
			}
	}
}

/* The last two layers from the second layer's sums (scale 127 * 64). */
static int finish(const NnueStack *st, const int32_t *sums)
{
	int64_t out = st->out_bias;
	for (int k = 0; k < NNUE_HIDDEN2; k++) {
		/* Clip first, then divide rounding to the nearest: a
		 * positive number only. */
		int32_t s = sums[k] <= 0 ? 0 : (sums[k] + NNUE_L2_SCALE / 2) / NNUE_L2_SCALE;
		if (s > NNUE_FT_SCALE)
			s = NNUE_FT_SCALE;
		out += (int64_t)s * st->out_weight[k];
	}
	/* One unit of the output is one man: 127 * 64 steps of `out`. Rounded
	 * to the nearest, halves away from zero (C's division truncates towards
	 * zero on every compiler). */
	const int64_t steps = NNUE_FT_SCALE * NNUE_OUT_SCALE;
	out *= NNUE_SCORE_PER_UNIT;
	return (int)((out + (out >= 0 ? steps / 2 : -steps / 2)) / steps);
}

int nnue_evaluate_portable(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	_Alignas(32) uint8_t a[2 * NNUE_HIDDEN_MAX];
	int32_t sums[NNUE_HIDDEN2];
	int n = 2 * net->hidden;
	const NnueStack *st = stack_of(net, acc);
	first_activations(net, acc, side, a);
	for (int k = 0; k < NNUE_HIDDEN2; k++) {
		int32_t s = st->l2_bias[k];
		const int8_t *w = st->l2_weight[k];
		for (int j = 0; j < n; j++)
			s += (int32_t)a[j] * w[j];
		sums[k] = s;
	}
	return finish(st, sums);
}

#ifdef __AVX2__
/* total + the sums of four products of x's unsigned bytes by y's signed
 * ones, in each 32-bit lane. With VNNI (AVX-512 VL or AVX-VNNI) one
 * instruction; otherwise pairs of products in 16 bits, then pairs of
 * those in 32: pairs of 127 * |w| <= 127 * 128 sum below 32767, so the
 * saturating multiply-add never saturates and both give the same sums. */
static inline __m256i dot_u8_s8(__m256i total, __m256i x, __m256i y)
{
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
	return _mm256_dpbusd_epi32(total, x, y);
#elif defined(__AVXVNNI__)
	return _mm256_dpbusd_avx_epi32(total, x, y);
#else
	return _mm256_add_epi32(total, _mm256_madd_epi16(_mm256_maddubs_epi16(x, y), _mm256_set1_epi16(1)));
#endif
}

/* The clipped activations 16 lanes at a time: pack with unsigned
 * saturation (below 0 becomes 0), put the 64-bit quarters back in order,
 * cap at 127. */
static void first_activations_avx2(const NnueNetwork *net, const NnueAccumulator *acc, Color side, uint8_t *a)
{
	int h = net->hidden;
	const __m256i cap = _mm256_set1_epi8(NNUE_FT_SCALE);
	for (int half = 0; half < 2; half++) {
		const int16_t *v = acc->v[half == 0 ? side : color_other(side)];
		for (int j = 0; j + 32 <= h; j += 32) {
			__m256i x = _mm256_load_si256((const __m256i *)(v + j));
			__m256i y = _mm256_load_si256((const __m256i *)(v + j + 16));
			__m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(x, y), 0xd8);
			_mm256_store_si256((__m256i *)(a + half * h + j), _mm256_min_epu8(packed, cap));
		}
		if (h % 32) { /* the last 16 */
			int j = h - 16;
			__m256i x = _mm256_load_si256((const __m256i *)(v + j));
			__m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(x, x), 0xd8);
			_mm_storeu_si128((__m128i *)(a + half * h + j),
			                 _mm256_castsi256_si128(_mm256_min_epu8(packed, cap)));
		}
	}
}
#endif

#ifdef __wasm_simd128__
/* The clipped activations as 16-bit lanes, 8 at a time, the side to move's
 * half first (H is a multiple of 16). */
static void first_activations_wasm(const NnueNetwork *net, const NnueAccumulator *acc, Color side, int16_t *a)
{
	int h = net->hidden;
	const v128_t zero = wasm_i16x8_splat(0), cap = wasm_i16x8_splat(NNUE_FT_SCALE);
	for (int half = 0; half < 2; half++) {
		const int16_t *v = acc->v[half == 0 ? side : color_other(side)];
		for (int j = 0; j < h; j += 8) {
			v128_t x = wasm_v128_load(v + j);
			wasm_v128_store(a + half * h + j, wasm_i16x8_min(wasm_i16x8_max(x, zero), cap));
		}
	}
}

/* The second layer's sums, four neurons at a time. The weights are widened
 * to 16 bits and multiplied by the 16-bit activations, each pair of
 * products added into 32 bits (dot): a pair is at most 2 * 127 * 128, so
 * nothing saturates or wraps and each sum is the portable code's own. */
static void second_layer_wasm(const NnueNetwork *net, const NnueStack *st, const int16_t *a, int32_t *sums)
{
	int n = 2 * net->hidden; /* a multiple of 32 */
	for (int k = 0; k < NNUE_HIDDEN2; k += 4) {
		v128_t total[4];
		for (int i = 0; i < 4; i++)
			total[i] = wasm_i32x4_splat(0);
		for (int j = 0; j < n; j += 16) {
			v128_t x0 = wasm_v128_load(a + j), x1 = wasm_v128_load(a + j + 8);
			for (int i = 0; i < 4; i++) {
				v128_t w = wasm_v128_load(st->l2_weight[k + i] + j);
				v128_t lo = wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(w), x0);
				v128_t hi = wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(w), x1);
				total[i] = wasm_i32x4_add(total[i], wasm_i32x4_add(lo, hi));
			}
		}
		/* Four horizontal sums at once: transpose, then add, so that lane
		 * i of the result is neuron k + i. */
		v128_t t01 = wasm_i32x4_add(wasm_i32x4_shuffle(total[0], total[1], 0, 4, 1, 5),
		                            wasm_i32x4_shuffle(total[0], total[1], 2, 6, 3, 7));
		v128_t t23 = wasm_i32x4_add(wasm_i32x4_shuffle(total[2], total[3], 0, 4, 1, 5),
		                            wasm_i32x4_shuffle(total[2], total[3], 2, 6, 3, 7));
		v128_t s = wasm_i32x4_add(wasm_i32x4_shuffle(t01, t23, 0, 1, 4, 5),
		                          wasm_i32x4_shuffle(t01, t23, 2, 3, 6, 7));
		wasm_v128_store(sums + k, wasm_i32x4_add(s, wasm_v128_load(st->l2_bias + k)));
	}
}
#endif

int nnue_evaluate(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	const NnueStack *st = stack_of(net, acc);
#ifdef __AVX2__
	_Alignas(32) uint8_t a[2 * NNUE_HIDDEN_MAX];
	_Alignas(32) int32_t sums[NNUE_HIDDEN2];
	int n = 2 * net->hidden; /* a multiple of 32 */
	first_activations_avx2(net, acc, side, a);
	for (int k = 0; k < NNUE_HIDDEN2; k += 8) {
		__m256i total[8];
		for (int i = 0; i < 8; i++)
			total[i] = _mm256_setzero_si256();
		for (int j = 0; j < n; j += 32) {
			__m256i x = _mm256_load_si256((const __m256i *)(a + j));
			for (int i = 0; i < 8; i++) {
				__m256i y = _mm256_loadu_si256((const __m256i *)(st->l2_weight[k + i] + j));
				total[i] = dot_u8_s8(total[i], x, y);
			}
		}
		/* Eight horizontal sums at once: lane i of the result is neuron k + i. */
		__m256i s01 = _mm256_hadd_epi32(total[0], total[1]),
		        s23 = _mm256_hadd_epi32(total[2], total[3]);
		__m256i s45 = _mm256_hadd_epi32(total[4], total[5]),
		        s67 = _mm256_hadd_epi32(total[6], total[7]);
		__m256i s0123 = _mm256_hadd_epi32(s01, s23), s4567 = _mm256_hadd_epi32(s45, s67);
		__m256i lo = _mm256_permute2x128_si256(s0123, s4567, 0x20);
		__m256i hi = _mm256_permute2x128_si256(s0123, s4567, 0x31);
		__m256i bias = _mm256_loadu_si256((const __m256i *)(st->l2_bias + k));
		_mm256_store_si256((__m256i *)(sums + k), _mm256_add_epi32(bias, _mm256_add_epi32(lo, hi)));
	}
	return finish(st, sums);
#elif defined(__SSE2__)
	/* Every x86-64 processor: the activations and the weights widened to
	 * 16 bits, multiplied and added in pairs into 32 bits, which cannot
	 * overflow (2 x 127 x 128), so the sums are the portable ones. */
	_Alignas(16) uint8_t a[2 * NNUE_HIDDEN_MAX];
	int32_t sums[NNUE_HIDDEN2];
	int n = 2 * net->hidden; /* a multiple of 32 */
	first_activations(net, acc, side, a);
	const __m128i zero = _mm_setzero_si128();
	for (int k = 0; k < NNUE_HIDDEN2; k++) {
		const int8_t *w = st->l2_weight[k];
		__m128i total = zero;
		for (int j = 0; j < n; j += 16) {
			__m128i x = _mm_load_si128((const __m128i *)(a + j));
			__m128i y = _mm_loadu_si128((const __m128i *)(w + j));
			__m128i sign = _mm_cmpgt_epi8(zero, y);
			__m128i lo = _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), _mm_unpacklo_epi8(y, sign));
			__m128i hi = _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), _mm_unpackhi_epi8(y, sign));
			total = _mm_add_epi32(total, _mm_add_epi32(lo, hi));
		}
		total = _mm_add_epi32(total, _mm_shuffle_epi32(total, 0x4e));
		total = _mm_add_epi32(total, _mm_shuffle_epi32(total, 0xb1));
		sums[k] = st->l2_bias[k] + _mm_cvtsi128_si32(total);
	}
	return finish(st, sums);
#elif defined(__wasm_simd128__)
	_Alignas(16) int16_t a[2 * NNUE_HIDDEN_MAX];
	_Alignas(16) int32_t sums[NNUE_HIDDEN2];
	first_activations_wasm(net, acc, side, a);
	second_layer_wasm(net, st, a, sums);
	return finish(st, sums);
#else
	(void)st;
	return nnue_evaluate_portable(net, acc, side);
#endif
}
