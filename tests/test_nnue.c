/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The network: incremental accumulator, AVX2 against portable, the float twin, and the weights file checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nettrain.h"
#include "poolshark/movegen.h"
#include "poolshark/nnue.h"
#include "poolshark/random.h"

/* The trial network's signature (test_trial_network_signature). */
#define TRIAL_SIGNATURE (-12024625)

/* A network with every value drawn over the whole range the file allows,
 * so that clipping, the int8 extremes and the largest sums all occur. */
static NnueNetwork *wild_network(int hidden, int buckets, uint64_t seed)
{
	NnueNetwork *n = calloc(1, sizeof *n);
	assert_non_null(n);
	uint64_t s = seed;
	n->hidden = hidden;
	n->buckets = buckets;
	for (int j = 0; j < hidden; j++)
		n->ft_bias[j] = (int16_t)((int)random_below(&s, 2 * NNUE_FT_LIMIT + 1) - NNUE_FT_LIMIT);
	for (int i = 0; i < NNUE_INPUTS; i++)
		for (int j = 0; j < hidden; j++)
			n->ft_weight[nnue_ft_at(hidden, i, j)] =
			    (int16_t)((int)random_below(&s, 2 * NNUE_FT_LIMIT + 1) - NNUE_FT_LIMIT);
	for (int b = 0; b < buckets; b++) {
		NnueStack *st = &n->stack[b];
		for (int k = 0; k < NNUE_HIDDEN2; k++) {
			st->l2_bias[k] = (int32_t)random_below(&s, 2000001) - 1000000;
			for (int j = 0; j < 2 * hidden; j++)
				st->l2_weight[nnue_l2_at(k, j)] =
				    (int8_t)(int)((int)random_below(&s, 256) - 128);
			st->out_weight[k] = (int16_t)((int)random_below(&s, 65535) - 32767);
		}
		st->out_bias = (int32_t)random_below(&s, 2000001) - 1000000;
	}
	return n;
}

/* A trained-looking network: the float twin's random start, exported. */
static uint8_t *exported(int hidden, int buckets, uint64_t seed, Variant v, size_t *size)
{
	FloatNet f;
	assert_true(nettrain_init(&f, hidden, buckets, seed));
	uint8_t *bytes;
	assert_true(nettrain_export(&f, v, seed, &bytes, size));
	nettrain_free(&f);
	return bytes;
}

static void assert_same_accumulator(const NnueNetwork *n, const NnueAccumulator *a, const NnueAccumulator *b)
{
	for (int view = 0; view < 2; view++)
		assert_memory_equal(a->v[view], b->v[view], sizeof(int16_t) * (size_t)n->hidden);
}

/* Random legal games of every rule set: after each move the incremental
 * accumulator of each kernel this processor runs equals a refresh by the
 * portable kernel, and the kernel's forward pass equals the portable one. */
static void test_incremental_equals_refresh(void **state)
{
	(void)state;
	const int sizes[] = {16, 64, 256, 48}, stacks[] = {1, 8, 3, 2};
	for (int si = 0; si < 4; si++) {
		NnueNetwork *n = wild_network(sizes[si], stacks[si], 11 + (uint64_t)si);
		NnueNetwork *portable = malloc(sizeof *portable);
		assert_non_null(portable);
		*portable = *n;
		for (int k = 0; k < NNUE_KERNEL_COUNT; k++) {
			if (!nnue_use_kernel(n, (NnueKernel)k))
				continue;
			for (int v = 0; v < VARIANT_COUNT; v++) {
				uint64_t rng = 100 + (uint64_t)v;
				for (int game = 0; game < 20; game++) {
					Position p;
					position_start_variant(&p, (Variant)v);
					NnueAccumulator acc, fresh;
					nnue_refresh(n, &p, &acc);
					for (int ply = 0; ply < 200; ply++) {
						MoveList list;
						if (movegen_generate(&p, &list) == 0)
							break;
						Move m = list.moves[random_below(&rng, (uint64_t)list.count)];
						Position next;
						position_make_keyed(&p, m, &next, true);
						nnue_update(n, &p, m, &acc, &acc);
						nnue_refresh(portable, &next, &fresh);
						assert_same_accumulator(n, &acc, &fresh);
						assert_int_equal(acc.pieces, fresh.pieces);
						assert_int_equal(nnue_evaluate(n, &acc, next.side),
						                 nnue_evaluate_portable(n, &acc, next.side));
						p = next;
					}
				}
			}
		}
		free(portable);
		free(n);
	}
}

/* Square s seen from the other side is 31 - s: the bits reversed. */
static Bitboard turned(Bitboard b)
{
	Bitboard r = 0;
	for (int s = 0; s < 32; s++)
		if (b & bb_square(s))
			r |= bb_square(31 - s);
	return r;
}

/* One network serves both colours: a position and its colour-swapped,
 * half-turned twin score the same for their sides to move. */
static void test_colours_are_symmetric(void **state)
{
	(void)state;
	NnueNetwork *n = wild_network(64, 4, 5);
	uint64_t rng = 9;
	Position p;
	position_start(&p);
	for (int ply = 0; ply < 300; ply++) {
		MoveList list;
		if (movegen_generate(&p, &list) == 0)
			position_start(&p), movegen_generate(&p, &list);
		Position twin;
		position_set(&twin, turned(p.pieces[WHITE]), turned(p.pieces[BLACK]), turned(p.kings),
		             color_other(p.side));
		NnueAccumulator a, b;
		nnue_refresh(n, &p, &a);
		nnue_refresh(n, &twin, &b);
		assert_int_equal(nnue_evaluate(n, &a, p.side), nnue_evaluate(n, &b, twin.side));
		position_make_keyed(&p, list.moves[random_below(&rng, (uint64_t)list.count)], &p, true);
	}
	free(n);
}

/* Every kernel this processor runs agrees with the portable one on the
 * extremes (every activation at 127 and every weight at -128 or 127, the
 * largest sums the arithmetic must hold) and on a mixture. */
static void test_kernels_equal_portable(void **state)
{
	(void)state;
	int kernels = 0;
	for (int k = 0; k < NNUE_KERNEL_COUNT; k++) {
		NnueNetwork *n = wild_network(256, 2, 3);
		if (!nnue_use_kernel(n, (NnueKernel)k)) {
			fprintf(stderr, "test_nnue: kernel %s: not run here (build or processor)\n",
			        nnue_kernel_name((NnueKernel)k));
			free(n);
			continue;
		}
		kernels++;
		NnueAccumulator acc;
		for (int fill = 0; fill < 8; fill++) {
			acc.pieces = fill < 4 ? 6 : 20; /* each stack */
			for (int view = 0; view < 2; view++)
				for (int j = 0; j < NNUE_HIDDEN_MAX; j++)
					acc.v[view][j] =
					    (int16_t)(fill % 4 == 0   ? 30000
					              : fill % 4 == 1 ? -30000
					                              : (j * 37 + view) % 300 - 100);
			NnueStack *st = &n->stack[nnue_bucket(acc.pieces, n->buckets)];
			for (int k2 = 0; k2 < NNUE_HIDDEN2; k2++)
				for (int j = 0; j < 2 * NNUE_HIDDEN_MAX; j++) {
					int8_t *w = &st->l2_weight[nnue_l2_at(k2, j)];
					*w = (int8_t)(fill % 4 == 3 ? 127 : fill % 4 == 0 ? -128 : *w);
				}
			for (int side = 0; side < 2; side++)
				assert_int_equal(nnue_evaluate(n, &acc, (Color)side),
				                 nnue_evaluate_portable(n, &acc, (Color)side));
		}
		free(n);
	}
	assert_true(kernels >= 1);
}

/* The float forward pass against the loaded integer network of `buckets`
 * stacks, after some training so that the weights are not the random
 * start. */
static void quantized_matches_float(int buckets)
{
	enum { COUNT = 4000 };
	Sample *s = calloc(COUNT, sizeof *s);
	assert_non_null(s);
	uint64_t rng = 21;
	Position p;
	position_start(&p);
	for (int i = 0; i < COUNT; i++) {
		MoveList list;
		if (movegen_generate(&p, &list) == 0 || i % 120 == 0) {
			position_start(&p);
			movegen_generate(&p, &list);
		}
		s[i] = (Sample){{p.pieces[0], p.pieces[1]}, p.kings, (uint8_t)p.side, 0};
		int own = bb_count(position_men(&p, p.side)) + 3 * bb_count(position_kings(&p, p.side));
		int other = bb_count(position_men(&p, color_other(p.side))) +
		            3 * bb_count(position_kings(&p, color_other(p.side)));
		s[i].target = (float)(1 / (1 + exp(-(own - other) / 2.0)));
		position_make_keyed(&p, list.moves[random_below(&rng, (uint64_t)list.count)], &p, true);
	}
	TrainConfig c = nettrain_defaults();
	c.batch = 256;
	c.lr = 0.01;
	FloatNet f;
	Trainer t;
	assert_true(nettrain_init(&f, c.hidden, buckets, 4));
	assert_true(nettrain_trainer_init(&t, &f, &c));
	double before = nettrain_loss(&f, s, COUNT, c.k, 1);
	for (int e = 0; e < 3; e++)
		nettrain_epoch(&t, s, NULL, COUNT);
	assert_true(nettrain_loss(&f, s, COUNT, c.k, 2) < before);
	uint8_t *bytes;
	size_t size;
	assert_true(nettrain_export(&f, VARIANT_POOL, 4, &bytes, &size));
	NnueNetwork *n = malloc(sizeof *n);
	char err[NNUE_ERROR_MAX];
	assert_true(nnue_load_bytes(n, bytes, size, VARIANT_POOL, err, sizeof err));
	double worst = 0, spread = 0, total = 0;
	for (int i = 0; i < COUNT; i++) {
		Position q;
		position_set(&q, s[i].pieces[0], s[i].pieces[1], s[i].kings, (Color)s[i].side);
		NnueAccumulator acc;
		nnue_refresh(n, &q, &acc);
		double x = nettrain_score(&f, &s[i]), d = fabs(nnue_evaluate(n, &acc, q.side) - x);
		worst = d > worst ? d : worst;
		total += d;
		spread += fabs(x);
	}
	/* doc/EVAL.md, "Quantization": at most 10 score units (0.1 men) off,
	 * 3 on average. */
	assert_true(spread / COUNT > 10); /* the network says something */
	if (worst > 10 || total / COUNT > 3)
		fail_msg("quantized output up to %.2f units, %.2f on average, from the float one", worst,
		         total / COUNT);
	fprintf(stderr,
	        "test_nnue: %d stacks: quantized within %.2f units of the float pass, %.2f on average\n",
	        buckets, worst, total / COUNT);
	free(n);
	free(bytes);
	nettrain_trainer_free(&t);
	nettrain_free(&f);
	free(s);
}

static void test_quantized_matches_float(void **state)
{
	(void)state;
	quantized_matches_float(1);
	quantized_matches_float(4);
}

/* The stack is chosen by the number of pieces on the board: the range
 * 1..24 cut into equal parts. Each stack of a network with nothing but
 * output biases says its own number. */
static void test_stacks_chosen_by_piece_count(void **state)
{
	(void)state;
	assert_int_equal(nnue_bucket(24, 1), 0);
	assert_int_equal(nnue_bucket(2, 1), 0);
	const int pieces[] = {1, 2, 6, 7, 12, 13, 18, 19, 24}, four[] = {0, 0, 0, 1, 1, 2, 2, 3, 3};
	for (int i = 0; i < 9; i++)
		assert_int_equal(nnue_bucket(pieces[i], 4), four[i]);
	assert_int_equal(nnue_bucket(24, 8), 7);
	assert_int_equal(nnue_bucket(3, 8), 0);
	assert_int_equal(nnue_bucket(4, 8), 1);
	NnueNetwork *n = calloc(1, sizeof *n);
	assert_non_null(n);
	n->hidden = 16;
	n->buckets = 4;
	for (int b = 0; b < 4; b++)
		n->stack[b].out_bias = (b + 1) * NNUE_FT_SCALE * NNUE_OUT_SCALE; /* (b + 1) men */
	uint64_t rng = 3;
	Position p;
	position_start(&p);
	NnueAccumulator acc;
	nnue_refresh(n, &p, &acc);
	int seen[4] = {0};
	for (int ply = 0; ply < 2000; ply++) {
		MoveList list;
		if (movegen_generate(&p, &list) == 0) {
			position_start(&p);
			nnue_refresh(n, &p, &acc);
			continue;
		}
		Move m = list.moves[random_below(&rng, (uint64_t)list.count)];
		nnue_update(n, &p, m, &acc, &acc);
		position_make_keyed(&p, m, &p, true);
		int count = bb_count(position_occupied(&p)), b = (count - 1) / 6;
		assert_int_equal(acc.pieces, count);
		assert_int_equal(nnue_evaluate(n, &acc, p.side), 100 * (b + 1));
		assert_int_equal(nnue_evaluate_portable(n, &acc, p.side), 100 * (b + 1));
		seen[b]++;
	}
	for (int b = 0; b < 4; b++)
		assert_true(seen[b] > 0);
	free(n);
}

static void put32(uint8_t *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* Rewrites the checksum of an edited image, so that the check under test is
 * the one that fires. */
static void reseal(uint8_t *b, size_t size)
{
	uint64_t c = nnue_checksum(b, size);
	put32(b + 56, (uint32_t)c);
	put32(b + 60, (uint32_t)(c >> 32));
}

/* Every kind of bad file is refused with its reason, and the network
 * loaded before stays as it was. */
static void assert_same_weights(const NnueNetwork *a, const NnueNetwork *b)
{
	size_t h = (size_t)b->hidden;
	assert_int_equal(a->variant, b->variant);
	assert_int_equal(a->hidden, b->hidden);
	assert_int_equal(a->buckets, b->buckets);
	assert_memory_equal(a->ft_bias, b->ft_bias, h * sizeof b->ft_bias[0]);
	assert_memory_equal(a->ft_weight, b->ft_weight, NNUE_INPUTS * h * sizeof b->ft_weight[0]);
	for (int s = 0; s < b->buckets; s++) {
		const NnueStack *x = &a->stack[s], *y = &b->stack[s];
		assert_memory_equal(x->l2_bias, y->l2_bias, sizeof y->l2_bias);
		assert_memory_equal(x->l2_weight, y->l2_weight, 2 * h * NNUE_HIDDEN2);
		assert_int_equal(x->out_bias, y->out_bias);
		assert_memory_equal(x->out_weight, y->out_weight, sizeof y->out_weight);
	}
}

/* Every rule set of the table has a compiled-in network, made for it (its
 * header names that rule set), and the rule sets' networks differ. */
static void test_every_rule_set_has_its_network(void **state)
{
	(void)state;
	NnueNetwork *nets = calloc(VARIANT_COUNT, sizeof *nets);
	assert_non_null(nets);
	char err[NNUE_ERROR_MAX];
	for (int v = 0; v < VARIANT_COUNT; v++) {
		assert_true(nnue_has_default((Variant)v));
		assert_true(nnue_load_default(&nets[v], (Variant)v, err, sizeof err));
		assert_int_equal(nets[v].variant, v);
		for (int w = 0; w < v; w++)
			if (nets[w].hidden == nets[v].hidden)
				assert_memory_not_equal(nets[w].ft_weight, nets[v].ft_weight,
				                        NNUE_INPUTS * (size_t)nets[v].hidden *
				                            sizeof nets[v].ft_weight[0]);
	}
	assert_false(nnue_has_default(VARIANT_COUNT));
	free(nets);
}

/* The float twin made from a quantized network (train --init) exports
 * the same weights file byte for byte: for each compiled-in network and a
 * small exported one. */
static void test_float_twin_round_trip(void **state)
{
	(void)state;
	NnueNetwork *n = malloc(sizeof *n);
	assert_non_null(n);
	char err[NNUE_ERROR_MAX];
	for (int v = 0; v <= 3; v++) {
		Variant variant = v < 3 ? (Variant)v : VARIANT_POOL;
		size_t size;
		uint8_t *original = exported(32, 1, 11, VARIANT_POOL, &size);
		if (v < 3) {
			free(original);
			assert_true(nnue_load_default(n, variant, err, sizeof err));
		} else {
			assert_true(nnue_load_bytes(n, original, size, variant, err, sizeof err));
		}
		FloatNet f;
		assert_true(nettrain_from_network(&f, n, n->buckets));
		assert_int_equal(f.hidden, n->hidden);
		uint8_t *again;
		size_t again_size;
		assert_true(nettrain_export(&f, variant, 11, &again, &again_size));
		nettrain_free(&f);
		NnueNetwork *m = calloc(1, sizeof *m);
		assert_non_null(m);
		assert_true(nnue_load_bytes(m, again, again_size, variant, err, sizeof err));
		assert_same_weights(m, n);
		if (v == 3) {
			assert_int_equal(again_size, size);
			assert_memory_equal(again, original, size);
			free(original);
		}
		free(m);
		free(again);
	}
	free(n);
}

/* A network of stacks: written as version 2 with its stack count, read
 * back whole, exported again byte for byte; its stack count is checked;
 * and a one-stack network copied into stacks (train --init with --stacks)
 * scores every position as the one-stack network does. */
static void test_stack_files(void **state)
{
	(void)state;
	size_t size;
	uint8_t *good = exported(32, 3, 5, VARIANT_POOL, &size);
	assert_int_equal(size, nnue_file_size(32, 3));
	assert_int_equal(nnue_file_size(32, 3) - nnue_file_size(32, 1),
	                 2 * (nnue_file_size(32, 2) - nnue_file_size(32, 1)));
	assert_int_equal(good[8], NNUE_VERSION);
	assert_int_equal(good[52], 3);
	NnueNetwork *n = calloc(1, sizeof *n), *m = calloc(1, sizeof *m);
	assert_non_null(n);
	assert_non_null(m);
	char err[NNUE_ERROR_MAX];
	assert_true(nnue_load_bytes(n, good, size, VARIANT_POOL, err, sizeof err));
	assert_int_equal(n->buckets, 3);
	FloatNet f;
	assert_true(nettrain_from_network(&f, n, 3));
	uint8_t *again;
	size_t again_size;
	assert_true(nettrain_export(&f, VARIANT_POOL, 5, &again, &again_size));
	nettrain_free(&f);
	assert_int_equal(again_size, size);
	assert_memory_equal(again, good, size);
	free(again);
	/* The stack count: 0 and 9 are refused, 2 leaves a stack over. */
	const uint32_t counts[] = {0, NNUE_BUCKETS_MAX + 1, 2};
	const char *say[] = {"0 stacks", "9 stacks", "trailing bytes"};
	uint8_t *b = malloc(size);
	assert_non_null(b);
	for (int k = 0; k < 3; k++) {
		memcpy(b, good, size);
		put32(b + 52, counts[k]);
		reseal(b, size);
		memcpy(m, n, sizeof *n);
		bool ok = nnue_load_bytes(m, b, size, VARIANT_POOL, err, sizeof err);
		if (ok || !strstr(err, say[k]))
			fail_msg("stack count %u: %s, wanted \"%s\"", counts[k], ok ? "accepted" : err,
			         say[k]);
		assert_memory_equal(m, n, sizeof *n);
	}
	free(b);
	/* A one-stack network copied into four stacks scores as before. */
	uint8_t *one = exported(32, 1, 9, VARIANT_POOL, &size);
	assert_int_equal(one[8], NNUE_VERSION_ONE_STACK);
	assert_true(nnue_load_bytes(m, one, size, VARIANT_POOL, err, sizeof err));
	assert_true(nettrain_from_network(&f, m, 4));
	assert_true(nettrain_export(&f, VARIANT_POOL, 9, &again, &again_size));
	nettrain_free(&f);
	assert_true(nnue_load_bytes(n, again, again_size, VARIANT_POOL, err, sizeof err));
	assert_int_equal(n->buckets, 4);
	uint64_t rng = 5;
	Position p;
	position_start(&p);
	for (int ply = 0; ply < 1000; ply++) {
		MoveList list;
		if (movegen_generate(&p, &list) == 0)
			position_start(&p), movegen_generate(&p, &list);
		NnueAccumulator a;
		nnue_refresh(n, &p, &a);
		int stacked = nnue_evaluate(n, &a, p.side);
		nnue_refresh(m, &p, &a);
		assert_int_equal(stacked, nnue_evaluate(m, &a, p.side));
		position_make_keyed(&p, list.moves[random_below(&rng, (uint64_t)list.count)], &p, true);
	}
	free(again);
	free(one);
	free(good);
	free(n);
	free(m);
}

static void test_loader_refuses_bad_files(void **state)
{
	(void)state;
	size_t size;
	uint8_t *good = exported(64, 1, 7, VARIANT_POOL, &size);
	assert_int_equal(size, nnue_file_size(64, 1));
	NnueNetwork *net = malloc(sizeof *net), *copy = malloc(sizeof *copy);
	char err[NNUE_ERROR_MAX];
	assert_true(nnue_load_bytes(net, good, size, VARIANT_POOL, err, sizeof err));
	memcpy(copy, net, sizeof *net);
	uint8_t *b = malloc(size + 16);
	struct {
		const char *say;
	} cases[] = {{"shorter than the 64-byte header"},
	             {"bad magic"},
	             {"format version 3"},
	             {"a network for pool, not for russian"},
	             {"unknown rule set"},
	             {"input count 129"},
	             {"hidden size 24"},
	             {"hidden size 512"},
	             {"truncated"},
	             {"trailing bytes"},
	             {"checksum mismatch"},
	             {"first-layer value"},
	             {"second-layer scale"},
	             {"bias beyond"}};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		memcpy(b, good, size);
		size_t n = size;
		Variant want = VARIANT_POOL;
		switch (k) {
		case 0: n = 40; break;
		case 1: b[3] ^= 1; break;
		case 2: put32(b + 8, 3); break;
		case 3: want = VARIANT_RUSSIAN; break;
		case 4: put32(b + 16, VARIANT_COUNT + 1); break;
		case 5: put32(b + 20, 129); break;
		case 6: put32(b + 24, 24); break;
		case 7: put32(b + 24, 512); break;
		case 8: n -= 1; break;
		case 9: b[n++] = 0; break;
		case 10: b[NNUE_HEADER_SIZE + 1000] ^= 4; break;
		case 11: put32(b + NNUE_HEADER_SIZE + 200, 0x7fff7fff), reseal(b, n); break;
		case 12: put32(b + 36, 32), reseal(b, n); break;
		case 13:
			put32(b + NNUE_HEADER_SIZE + 2 * 64 + 2 * 128 * 64, 0x40000000u), reseal(b, n);
			break;
		}
		bool ok = nnue_load_bytes(net, b, n, want, err, sizeof err);
		if (ok || !strstr(err, cases[k].say))
			fail_msg("case %zu: %s, wanted \"%s\"", k, ok ? "accepted" : err, cases[k].say);
		assert_non_null(strstr(err, "offset "));
		assert_memory_equal(net, copy, sizeof *net);
	}
	/* A missing file, and a file on disk that loads. */
	assert_false(nnue_load_file(net, "/nonexistent/net.bin", VARIANT_POOL, err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent/net.bin: No such file"));
	assert_memory_equal(net, copy, sizeof *net);
	char path[] = "/tmp/test_nnue.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, good, size), (ssize_t)size);
	close(fd);
	memset(net, 0, sizeof *net);
	assert_true(nnue_load_file(net, path, VARIANT_POOL, err, sizeof err));
	assert_memory_equal(net, copy, sizeof *net);
	unlink(path);
	free(b);
	free(good);
	free(net);
	free(copy);
}

/*
 * The committed trial network (tools/data/nnue-pool-trial.bin) over 5,000
 * positions of seeded random pool games: the weighted sum of its scores is
 * a signature that every compiler, optimisation level and instruction set
 * must reproduce (integer-only inference), as the bench's node count is
 * for the search. It changes only with that file or the arithmetic.
 */
static void test_trial_network_signature(void **state)
{
	(void)state;
	NnueNetwork *n = malloc(sizeof *n);
	char err[NNUE_ERROR_MAX + 100];
	if (!nnue_load_file(n, "tools/data/nnue-pool-trial.bin", VARIANT_POOL, err, sizeof err))
		fail_msg("%s (run from the repository's top directory)", err);
	for (int k = 0; k < NNUE_KERNEL_COUNT; k++) {
		if (!nnue_use_kernel(n, (NnueKernel)k))
			continue;
		uint64_t rng = 1;
		Position p;
		position_start(&p);
		NnueAccumulator acc;
		nnue_refresh(n, &p, &acc);
		int64_t signature = 0;
		for (int i = 0; i < 5000; i++) {
			MoveList list;
			if (movegen_generate(&p, &list) == 0) {
				position_start(&p);
				nnue_refresh(n, &p, &acc);
				continue;
			}
			Move m = list.moves[random_below(&rng, (uint64_t)list.count)];
			nnue_update(n, &p, m, &acc, &acc);
			position_make_keyed(&p, m, &p, true);
			signature += (int64_t)(i + 1) * nnue_evaluate(n, &acc, p.side);
		}
		fprintf(stderr, "test_nnue: trial network signature %lld (kernel %s)\n", (long long)signature,
		        nnue_kernel_name((NnueKernel)k));
		assert_int_equal(signature, TRIAL_SIGNATURE);
	}
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_incremental_equals_refresh),
	    cmocka_unit_test(test_colours_are_symmetric),
	    cmocka_unit_test(test_kernels_equal_portable),
	    cmocka_unit_test(test_quantized_matches_float),
	    cmocka_unit_test(test_every_rule_set_has_its_network),
	    cmocka_unit_test(test_float_twin_round_trip),
	    cmocka_unit_test(test_stacks_chosen_by_piece_count),
	    cmocka_unit_test(test_stack_files),
	    cmocka_unit_test(test_loader_refuses_bad_files),
	    cmocka_unit_test(test_trial_network_signature),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
