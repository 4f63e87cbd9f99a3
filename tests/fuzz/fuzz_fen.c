/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the FEN and Hub position readers; whatever they accept is a valid position that
 * round-trips. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/notation.h"
#include "poolshark/position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const Position *p, bool fen)
{
	if (position_validate(p) != POSITION_OK)
		abort();
	char text[NOTATION_FEN_MAX];
	Position back;
	if (fen) {
		notation_write_fen(p, text, sizeof text);
		if (!notation_parse_fen(text, VARIANT_POOL, &back, NULL, 0))
			abort();
	} else {
		notation_write_hub_position(p, text, sizeof text);
		if (!notation_parse_hub_position(text, VARIANT_POOL, &back, NULL, 0))
			abort();
	}
	if (!position_equal(p, &back) || back.key != p->key)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	Position p;
	char error[NOTATION_ERROR_MAX];
	if (notation_parse_fen(text, VARIANT_POOL, &p, error, sizeof error))
		check(&p, true);
	else if (!memchr(error, '\0', sizeof error))
		abort(); /* the message must be a terminated string */
	if (notation_parse_hub_position(text, VARIANT_POOL, &p, error, sizeof error))
		check(&p, false);
	free(text);
	return 0;
}
