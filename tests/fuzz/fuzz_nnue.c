/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the weights file reader, on raw bytes and behind a valid header (doc/EVAL.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/nnue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A network the reader accepts evaluates without overflow (the sanitizers
 * watch), the same through both forward passes, and a refusal names where. */
static void check(const uint8_t *image, size_t size, NnueNetwork *net)
{
	char err[NNUE_ERROR_MAX];
	if (!nnue_load_bytes(net, image, size, VARIANT_POOL, err, sizeof err)) {
		if (!strstr(err, "offset "))
			abort();
		return;
	}
	Position p;
	position_start(&p);
	NnueAccumulator acc;
	nnue_refresh(net, &p, &acc);
	if (nnue_evaluate(net, &acc, p.side) != nnue_evaluate_portable(net, &acc, p.side))
		abort();
}

static void put32(uint8_t *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	NnueNetwork *net = malloc(sizeof *net);
	if (!net)
		return 0;
	check(data, size, net);

	/* The bytes as the body of a hidden-16 pool network of two stacks with
	 * a correct header and checksum, so that the value checks and the
	 * arithmetic see them. */
	size_t n = nnue_file_size(16, 2);
	uint8_t *image = calloc(1, n);
	if (image) {
		const uint32_t fields[] = {NNUE_VERSION,
		                           NNUE_HEADER_SIZE,
		                           1,
		                           NNUE_INPUTS,
		                           16,
		                           NNUE_HIDDEN2,
		                           NNUE_FT_SCALE,
		                           NNUE_L2_SCALE,
		                           NNUE_OUT_SCALE,
		                           NNUE_SCORE_PER_UNIT};
		memcpy(image, NNUE_MAGIC, 8);
		for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
			put32(image + 8 + 4 * i, fields[i]);
		put32(image + 52, 2); /* stacks */
		memcpy(image + NNUE_HEADER_SIZE, data,
		       size < n - NNUE_HEADER_SIZE ? size : n - NNUE_HEADER_SIZE);
		uint64_t c = nnue_checksum(image, n);
		put32(image + 56, (uint32_t)c);
		put32(image + 60, (uint32_t)(c >> 32));
		check(image, n, net);
		free(image);
	}
	free(net);
	return 0;
}
