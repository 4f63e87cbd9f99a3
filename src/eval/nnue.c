/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The learned evaluation: weights file reader, accumulator and integer forward pass (doc/EVAL.md). */
#include "poolshark/nnue.h"
#include "poolshark/aligned.h"
#include "poolshark/bytes.h"
#include "poolshark/checksum.h"
#include "poolshark/cpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_kernel.h"

NnueNetwork *nnue_create(void)
{
	return aligned_zalloc(sizeof(NnueNetwork));
}

void nnue_destroy(NnueNetwork *net)
{
	aligned_free(net);
}

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
	n->kernel = nnue_kernel_best();
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
			int16_t w = (int16_t)bytes_get16(b + at);
			n->ft_weight[nnue_ft_at((int)h, (int)i, (int)j)] = w;
			if (ok && (w > NNUE_FT_LIMIT || w < -NNUE_FT_LIMIT))
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
		for (int k = 0; k < NNUE_HIDDEN2; k++) /* the file's order: by neuron */
			for (int j = 0; j < 2 * (int)h; j++, at++)
				st->l2_weight[nnue_l2_at(k, j)] = (int8_t)b[at];
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
extern const unsigned char nnue_pool_data[], nnue_russian_data[], nnue_brazilian_data[], nnue_english_data[],
    nnue_italian_data[], nnue_spanish_data[], nnue_czech_data[];
extern const size_t nnue_pool_size, nnue_russian_size, nnue_brazilian_size, nnue_english_size,
    nnue_italian_size, nnue_spanish_size, nnue_czech_size;

bool nnue_has_default(Variant v)
{
	return v < VARIANT_COUNT;
}

bool nnue_load_default(NnueNetwork *net, Variant v, char *err, size_t err_size)
{
	const unsigned char *bytes[] = {nnue_pool_data,    nnue_russian_data, nnue_brazilian_data,
	                                nnue_english_data, nnue_italian_data, nnue_spanish_data,
	                                nnue_czech_data};
	size_t sizes[] = {nnue_pool_size,    nnue_russian_size, nnue_brazilian_size, nnue_english_size,
	                  nnue_italian_size, nnue_spanish_size, nnue_czech_size};
	_Static_assert(VARIANT_POOL == 0 && VARIANT_RUSSIAN == 1 && VARIANT_BRAZILIAN == 2 &&
	                   VARIANT_ENGLISH == 3 && VARIANT_ITALIAN == 4 && VARIANT_SPANISH == 5 &&
	                   VARIANT_CZECH == 6 && VARIANT_COUNT == 7,
	               "the compiled-in networks in Variant order, one per rule set");
	if (!nnue_has_default(v)) {
		snprintf(err, err_size, "no network is compiled in for %s", variant_rules(v)->title);
		return false;
	}
	return nnue_load_bytes(net, bytes[v], sizes[v], v, err, err_size);
}

void nnue_update(const NnueNetwork *net, const Position *before, Move m, const NnueAccumulator *in,
                 NnueAccumulator *out)
{
	Position after;
	position_make_keyed(before, m, &after, false);
	nnue_update_between(net, before, &after, in, out);
}

/* in changed by *rows into out, by net's kernel. */
static void apply(const NnueNetwork *net, const NnueAccumulator *in, NnueAccumulator *out,
                  const NnueRows *rows)
{
	switch (net->kernel) {
#ifdef NNUE_X86
	case NNUE_KERNEL_AVX2:
	case NNUE_KERNEL_AVXVNNI: /* the same update */ nnue_apply_avx2(net->hidden, in, out, rows); return;
	case NNUE_KERNEL_AVX512VNNI: nnue_apply_avx512vnni(net->hidden, in, out, rows); return;
#endif
	default: nnue_apply_portable(net->hidden, in, out, rows);
	}
}

void nnue_refresh(const NnueNetwork *net, const Position *p, NnueAccumulator *acc)
{
	NnueRows c;
	c.count[0] = c.count[1] = 0;
	for (int k = 0; k < 2; k++) {
		nnue_note_rows(net, &c, position_men(p, (Color)k), (Color)k, false, 0);
		nnue_note_rows(net, &c, position_kings(p, (Color)k), (Color)k, true, 0);
	}
	NnueAccumulator bias;
	for (int view = 0; view < 2; view++)
		memcpy(bias.v[view], net->ft_bias, sizeof(int16_t) * (size_t)net->hidden);
	apply(net, &bias, acc, &c);
	acc->pieces = bb_count(position_occupied(p));
}

void nnue_update_between(const NnueNetwork *net, const Position *before, const Position *after,
                         const NnueAccumulator *in, NnueAccumulator *out)
{
	switch (net->kernel) {
#ifdef NNUE_X86
	case NNUE_KERNEL_AVX2:
	case NNUE_KERNEL_AVXVNNI:
	case NNUE_KERNEL_AVX512VNNI: /* the same adds */
		nnue_update_avx2(net, before, after, in, out);
		return;
#endif
	default: nnue_update_portable(net, before, after, in, out);
	}
}

int nnue_evaluate(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	switch (net->kernel) {
#ifdef NNUE_X86
	case NNUE_KERNEL_AVX2: return nnue_forward_avx2(net, acc, side);
	case NNUE_KERNEL_AVXVNNI: return nnue_forward_avxvnni(net, acc, side);
	case NNUE_KERNEL_AVX512VNNI: return nnue_forward_avx512vnni(net, acc, side);
#endif
	default: return nnue_forward_portable(net, acc, side);
	}
}

int nnue_evaluate_portable(const NnueNetwork *net, const NnueAccumulator *acc, Color side)
{
	return nnue_forward_portable(net, acc, side);
}

static const char *const KERNEL_NAMES[NNUE_KERNEL_COUNT] = {"portable", "avx2", "avxvnni", "avx512vnni"};

const char *nnue_kernel_name(NnueKernel k)
{
	return (unsigned)k < NNUE_KERNEL_COUNT ? KERNEL_NAMES[k] : "unknown";
}

bool nnue_kernel_available(NnueKernel k)
{
#ifdef NNUE_X86
	CpuFeatures f = cpu_features();
	switch (k) {
	case NNUE_KERNEL_PORTABLE: return true;
	case NNUE_KERNEL_AVX2: return f.avx2;
	case NNUE_KERNEL_AVXVNNI: return f.avx2 && f.avxvnni;
	case NNUE_KERNEL_AVX512VNNI: return f.avx512f && f.avx512bw && f.avx512vl && f.avx512vnni;
	default: return false;
	}
#else
	return k == NNUE_KERNEL_PORTABLE;
#endif
}

NnueKernel nnue_kernel_best(void)
{
	/* AVX-512 VNNI, then AVX-VNNI, then AVX2: VNNI's one instruction for
	 * four products beats three, and 512-bit registers halve the count. */
	const NnueKernel order[] = {NNUE_KERNEL_AVX512VNNI, NNUE_KERNEL_AVXVNNI, NNUE_KERNEL_AVX2};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (nnue_kernel_available(order[i]))
			return order[i];
	return NNUE_KERNEL_PORTABLE;
}

bool nnue_use_kernel(NnueNetwork *net, NnueKernel k)
{
	if (!nnue_kernel_available(k))
		return false;
	net->kernel = k;
	return true;
}

bool nnue_kernel_from_environment(NnueKernel *out, char *err, size_t err_size)
{
	const char *name = getenv("POOLSHARK_KERNEL");
	if (!name || !name[0]) {
		*out = nnue_kernel_best();
		return true;
	}
	char available[64] = "";
	for (int k = 0; k < NNUE_KERNEL_COUNT; k++)
		if (nnue_kernel_available((NnueKernel)k)) {
			size_t n = strlen(available);
			snprintf(available + n, sizeof available - n, "%s%s", n ? ", " : "", KERNEL_NAMES[k]);
		}
	for (int k = 0; k < NNUE_KERNEL_COUNT; k++)
		if (strcmp(name, KERNEL_NAMES[k]) == 0) {
			if (nnue_kernel_available((NnueKernel)k)) {
				*out = (NnueKernel)k;
				return true;
			}
			snprintf(err, err_size,
			         "POOLSHARK_KERNEL=%s: this %s cannot run it (available here: %s)", name,
#ifdef NNUE_X86
			         "processor",
#else
			         "build",
#endif
			         available);
			return false;
		}
	snprintf(
	    err, err_size,
	    "POOLSHARK_KERNEL=%.40s: not a kernel (portable, avx2, avxvnni, avx512vnni; available here: %s)",
	    name, available);
	return false;
}
