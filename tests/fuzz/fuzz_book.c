/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the book reader, on raw bytes and on entries behind a valid header (doc/BOOK.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/book.h"
#include "poolshark/checksum.h"
#include "poolshark/movegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put_le(uint8_t *at, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++, v >>= 8)
		at[i] = (uint8_t)v;
}

/* Whatever a book gives along its own lines is legal. */
static void walk(const Book *book)
{
	Position p;
	position_start(&p);
	uint64_t random = 1;
	Move m;
	for (int ply = 0; ply < 40 && book_pick(book, &p, &random, &m); ply++) {
		if (!movegen_is_legal(&p, m))
			abort();
		position_make(&p, m, &p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char error[BOOK_ERROR_MAX];
	Book *book = book_from_bytes(data, size, error, sizeof error);
	if (book)
		walk(book);
	book_free(book);

	/* The same bytes as entries behind a correct header and checksum, so
	 * that the entry checks and the lookups are reached. */
	size_t count = size / BOOK_ENTRY_BYTES;
	if (count > 4096)
		count = 4096;
	size_t length = BOOK_HEADER_BYTES + count * BOOK_ENTRY_BYTES;
	uint8_t *file = malloc(length);
	if (!file)
		return 0;
	memcpy(file, "POOLBOOK", 8);
	put_le(file + 8, BOOK_VERSION, 4);
	put_le(file + 12, count, 4);
	Position start;
	position_start(&start);
	put_le(file + 16, start.key, 8);
	memcpy(file + BOOK_HEADER_BYTES, data, count * BOOK_ENTRY_BYTES);
	put_le(file + 24,
	       checksum_fnv1a(CHECKSUM_FNV_OFFSET, file + BOOK_HEADER_BYTES, length - BOOK_HEADER_BYTES), 8);
	book = book_from_bytes(file, length, error, sizeof error);
	if (book)
		walk(book);
	book_free(book);
	free(file);
	return 0;
}
