/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the training-data reader, on raw bytes and behind a valid header (doc/EVAL.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "posdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the reader accepts is a possible, quiet position that the writer
 * would write back byte for byte. */
static void check(const uint8_t *image, size_t size)
{
	PosdataHeader h;
	char err[POSDATA_ERROR_MAX];
	size_t count = size >= POSDATA_HEADER_SIZE ? (size - POSDATA_HEADER_SIZE) / POSDATA_RECORD_SIZE : 0;
	PosdataRecord *records = malloc((count + 1) * sizeof *records);
	if (!records)
		return;
	if (posdata_parse(image, size, &h, records, err, sizeof err)) {
		if (h.count != count)
			abort();
		for (size_t i = 0; i < count; i++) {
			uint8_t again[POSDATA_RECORD_SIZE];
			posdata_record_encode(&records[i], again);
			if (memcmp(again, image + POSDATA_HEADER_SIZE + i * POSDATA_RECORD_SIZE,
			           sizeof again) != 0)
				abort();
			if (position_validate(&records[i].pos) != POSITION_OK)
				abort();
		}
	} else if (!strstr(err, "offset ")) {
		abort(); /* every refusal names where */
	}
	free(records);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size);

	/* The same bytes as records behind a correct header and checksum, so
	 * that the record checks see them; the first byte picks the rule set and
	 * the database size. */
	if (size < 1)
		return 0;
	size_t body = (size - 1) / POSDATA_RECORD_SIZE * POSDATA_RECORD_SIZE;
	uint8_t *image = malloc(POSDATA_HEADER_SIZE + body);
	if (!image)
		return 0;
	PosdataHeader h = {.variant = (Variant)(data[0] % VARIANT_COUNT),
	                   .count = body / POSDATA_RECORD_SIZE};
	h.egdb_pieces = h.variant == VARIANT_POOL ? (data[0] >> 4) % 7 : 0;
	memcpy(image + POSDATA_HEADER_SIZE, data + 1, body);
	posdata_header_encode(&h, image);
	h.checksum = posdata_checksum(image, image + POSDATA_HEADER_SIZE, body);
	posdata_header_encode(&h, image);
	check(image, POSDATA_HEADER_SIZE + body);
	free(image);
	return 0;
}
