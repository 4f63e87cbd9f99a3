/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: move text against positions reached by fuzzer-chosen legal moves, in every variant. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const roots[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:WK29:B25,19",
    "W:WK8:B15,25",
    "W:W7,9,K22,23:B16,K18,24,26",
    "W:W18:B7,15,16,23,24",
    "B:W6,25,26,K4:B1,23",
    "W:WK3,K10:BK6,24",
    "B:WK17,21,22,23,25,28,29,31,32:B1,2,8,12",
};

/* The parsed move is legal, and each text the writers give for it reads back as it. */
static void check_round_trip(const Position *p, Move m)
{
	MoveList list;
	int n = movegen_generate(p, &list);
	bool found = false;
	for (int i = 0; i < n; i++)
		found |= move_equal(list.moves[i], m);
	if (!found)
		abort();
	char text[NOTATION_MOVE_MAX];
	Move back;
	notation_write_move(p, m, text, sizeof text);
	if (notation_parse_move(p, text, &back, NULL, 0) != MOVE_PARSE_OK || !move_equal(back, m))
		abort();
	notation_write_move_path(p, m, text, sizeof text);
	if (notation_parse_move(p, text, &back, NULL, 0) != MOVE_PARSE_OK || !move_equal(back, m))
		abort();
	notation_write_move_hub(m, position_variant(p), text, sizeof text);
	if (notation_parse_move(p, text, &back, NULL, 0) != MOVE_PARSE_OK || !move_equal(back, m))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	Position p;
	/* The higher bits of the first byte pick the rules (each rule set's own
	 * squares and text). A root written in pool's squares that is no
	 * position of those rules (a man on its crowning row under Spanish
	 * numbering) is refused by the reader; the rule set's start serves. */
	Variant variant = (Variant)(data[0] / 8 % VARIANT_COUNT);
	if (!notation_parse_fen(roots[data[0] % (sizeof roots / sizeof roots[0])], variant, &p, NULL, 0)) {
		if (variant == VARIANT_POOL)
			abort();
		position_start_variant(&p, variant);
	}
	/* data[1] legal moves chosen by the following bytes walk away from the root. */
	size_t i = 2;
	for (int k = 0; k < data[1] % 16 && i < size; k++, i++) {
		MoveList list;
		int n = movegen_generate(&p, &list);
		if (!n)
			break;
		position_make(&p, list.moves[data[i] % n], &p);
	}
	char *text = malloc(size - i + 1);
	if (!text)
		return 0;
	memcpy(text, data + i, size - i);
	text[size - i] = '\0';
	Move m;
	char error[NOTATION_ERROR_MAX];
	if (notation_parse_move(&p, text, &m, error, sizeof error) == MOVE_PARSE_OK)
		check_round_trip(&p, m);
	free(text);
	return 0;
}
