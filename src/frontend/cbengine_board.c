/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard front-end: its board, squares, moves and move lists to and from the engine's. */
#include "cbengine.h"

#include <stdio.h>
#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/text.h"
#include "cbengine_internal.h"

CbCoor cbengine_square_coor(int square)
{
	int i = square - 1;
	CbCoor c;
	c.y = i / 4;
	c.x = 2 * (3 - i % 4) + (c.y % 2);
	return c;
}

int cbengine_coor_square(int x, int y)
{
	if (x < 0 || x > 7 || y < 0 || y > 7 || (x + y) % 2 != 0)
		return 0;
	return 4 * (y + 1) - x / 2;
}

static int piece_code(const Position *p, int bit)
{
	Bitboard b = bb_square(bit);
	int colour = (p->pieces[BLACK] & b) ? CB_BLACK : (p->pieces[WHITE] & b) ? CB_WHITE : CB_FREE;
	if (colour == CB_FREE)
		return CB_FREE;
	return colour | ((p->kings & b) ? CB_KING : CB_MAN);
}

bool cbengine_read_board(const int board[8][8], int color, Position *out, char *error, size_t error_size)
{
	if (color != CB_BLACK && color != CB_WHITE) {
		text_set_error(error, error_size, "unknown colour %d (expected %d for black or %d for white)",
		               color, CB_BLACK, CB_WHITE);
		return false;
	}
	Bitboard pieces[2] = {0, 0}, kings = 0;
	for (int x = 0; x < 8; x++) {
		for (int y = 0; y < 8; y++) {
			int v = board[x][y];
			if (v == CB_FREE)
				continue;
			int square = cbengine_coor_square(x, y);
			if (square == 0) {
				text_set_error(error, error_size,
				               "a piece (%d) on the light square x=%d y=%d", v, x, y);
				return false;
			}
			int colour = v & (CB_WHITE | CB_BLACK), kind = v & (CB_MAN | CB_KING);
			if (v != (colour | kind) || colour == (CB_WHITE | CB_BLACK) || colour == 0 ||
			    kind == (CB_MAN | CB_KING) || kind == 0) {
				text_set_error(error, error_size, "unknown piece code %d on square %d", v,
				               square);
				return false;
			}
			Bitboard b = bb_square(square - 1);
			pieces[colour == CB_BLACK ? BLACK : WHITE] |= b;
			if (kind == CB_KING)
				kings |= b;
		}
	}
	Position p;
	position_set(&p, pieces[BLACK], pieces[WHITE], kings, color == CB_BLACK ? BLACK : WHITE);
	PositionProblem problem = position_validate(&p);
	if (problem != POSITION_OK) {
		text_set_error(error, error_size, "impossible board: %s", position_problem_text(problem));
		return false;
	}
	*out = p;
	return true;
}

void cbengine_write_board(const Position *p, int board[8][8])
{
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++)
			board[x][y] = CB_FREE;
	for (int bit = 0; bit < SQUARE_COUNT; bit++) {
		CbCoor c = cbengine_square_coor(bit + 1);
		board[c.x][c.y] = piece_code(p, bit);
	}
}

/* The captured square strictly between a and b on their diagonal. */
static int captured_between(Bitboard captured, int a, int b)
{
	CbCoor from = cbengine_square_coor(a + 1), to = cbengine_square_coor(b + 1);
	int dx = to.x > from.x ? 1 : -1, dy = to.y > from.y ? 1 : -1;
	for (int x = from.x + dx, y = from.y + dy; x != to.x && y != to.y; x += dx, y += dy) {
		int square = cbengine_coor_square(x, y);
		if (square && (captured & bb_square(square - 1)))
			return square - 1;
	}
	return -1;
}

bool cbengine_fill_move(const Position *p, Move m, CbMove *out)
{
	memset(out, 0, sizeof *out);
	Color us = p->side;
	Bitboard from = bb_square(m.from);
	bool king = (p->kings & from) != 0;
	bool crowned = !king && ((bb_square(m.to) & position_crown_row(us)) || m.crowned);
	int colour = us == BLACK ? CB_BLACK : CB_WHITE;
	out->oldpiece = colour | (king ? CB_KING : CB_MAN);
	out->newpiece = colour | (king || crowned ? CB_KING : CB_MAN);
	out->from = cbengine_square_coor(m.from + 1);
	out->to = cbengine_square_coor(m.to + 1);
	out->path[0] = out->from;
	if (!m.captured) {
		out->path[1] = out->to;
		out->del[0].x = -1;
		out->del[0].y = -1;
		return true;
	}
	MovePath path;
	if (movegen_paths(p, m, &path, 1) < 1)
		return false;
	int jumps = path.length - 1;
	bool fits = jumps < CB_PATH_MAX;
	out->jumps = jumps;
	for (int i = 0; i < jumps && i < CB_PATH_MAX; i++) {
		if (i + 1 < CB_PATH_MAX)
			out->path[i + 1] = cbengine_square_coor(path.squares[i + 1] + 1);
		int taken = captured_between(m.captured, path.squares[i], path.squares[i + 1]);
		if (taken < 0)
			return false;
		out->del[i] = cbengine_square_coor(taken + 1);
		out->delpiece[i] = piece_code(p, taken);
	}
	return fits;
}

/* The number of the square at (x, y) as *p's game numbers it, which is how
 * CheckerBoard reads the numbers of a move list (numbertocoors() of its
 * gametype). Its board itself is laid out alike for every gametype the
 * adapter plays: an Italian or Spanish square sits where the mirror puts
 * it on pool's board. */
static int game_number(const Position *p, CbCoor c)
{
	return variant_number_of_square(variant_rules(position_variant(p))->numbering,
	                                cbengine_coor_square(c.x, c.y) - 1);
}

/* Appends one move in the "get movelist" form: jumps,old,new,from,to then landed,captured,piece per jump. */
static bool append_movelist_entry(const Position *p, Move m, char *out, size_t size, size_t *used)
{
	CbMove cm;
	if (!cbengine_fill_move(p, m, &cm))
		return false;
	text_append(out, size, used, "%d,%d,%d,%d,%d", cm.jumps, cm.oldpiece, cm.newpiece,
	            game_number(p, cm.from), game_number(p, cm.to));
	for (int i = 0; i < cm.jumps; i++)
		text_append(out, size, used, ",%d,%d,%d", game_number(p, cm.path[i + 1]),
		            game_number(p, cm.del[i]), cm.delpiece[i]);
	text_append(out, size, used, ";");
	return true;
}

bool cbengine_write_movelist(const Position *p, char *out, size_t size)
{
	if (size == 0)
		return false;
	MoveList list;
	movegen_generate(p, &list);
	movelist_sort(&list);
	if (list.count > CB_MOVELIST_MAX) {
		text_set_error(out, size, "error: %d legal moves, more than the %d CheckerBoard can take",
		               list.count, CB_MOVELIST_MAX);
		return false;
	}
	size_t used = 0;
	out[0] = '\0';
	text_append(out, size, &used, "movelist %d", list.count);
	if (list.count > 0)
		text_append(out, size, &used, ",");
	for (int i = 0; i < list.count; i++) {
		if (!append_movelist_entry(p, list.moves[i], out, size, &used)) {
			text_set_error(out, size,
			               "error: a capture of more than %d pieces does not fit a CBmove",
			               CB_PATH_MAX - 1);
			return false;
		}
	}
	if (text_truncated(size, used)) {
		text_set_error(out, size, "error: the list of %d moves does not fit the %lu-byte reply",
		               list.count, (unsigned long)size);
		return false;
	}
	return true;
}
