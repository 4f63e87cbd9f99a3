/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Drawing the board as text for the terminal game and the protocol's `board`. */
#include "poolshark/diagram.h"

#include "poolshark/notation.h"
#include "poolshark/text.h"

void diagram_draw(const Position *pos, bool flipped, char *out, size_t size)
{
	size_t used = 0;
	if (!size)
		return;
	/* Beside the pieces, the squares as the variant's players name them. */
	/* A mirrored board (Italian, Spanish) is drawn as its players see it:
	 * a1 light. */
	bool mirrored = variant_board_mirrored(variant_rules(position_variant(pos))->numbering);
	out[0] = '\0';
	const char *files = flipped ? "h  g  f  e  d  c  b  a" : "a  b  c  d  e  f  g  h";
	text_append(out, size, &used, "      %s          %s\n", files, files);
	for (int line = 0; line < 8; line++) {
		int row = flipped ? 7 - line : line; /* row 0 is rank 8, Black's side */
		char pieces[40] = "", numbers[40] = "";
		size_t pu = 0, nu = 0;
		for (int col = 0; col < 8; col++) {
			int c = flipped != mirrored ? 7 - col : col;
			bool dark = (row + c) % 2 == 1;
			if (dark) {
				int s = 4 * row + c / 2;
				text_append(pieces, sizeof pieces, &pu, "  %c",
				            notation_piece_letter(pos, s, '.'));
				char name[8];
				notation_write_square(s, position_variant(pos), name, sizeof name);
				text_append(numbers, sizeof numbers, &nu, " %2s", name);
			} else {
				text_append(pieces, sizeof pieces, &pu, "   ");
				text_append(numbers, sizeof numbers, &nu, "   ");
			}
		}
		while (nu && numbers[nu - 1] == ' ')
			numbers[--nu] = '\0';
		text_append(out, size, &used, "  %d %s      %d %s\n", 8 - row, pieces, 8 - row, numbers);
	}
	char fen[NOTATION_FEN_MAX];
	notation_write_fen(pos, fen, sizeof fen);
	text_append(out, size, &used, "%s to move\nfen %s", pos->side == BLACK ? "Black" : "White", fen);
}
