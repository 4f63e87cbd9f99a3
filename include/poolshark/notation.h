/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text forms: PDN FEN, Hub position strings, PDN and Hub move text. */
#ifndef POOLSHARK_NOTATION_H
#define POOLSHARK_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "poolshark/move.h"
#include "poolshark/position.h"

/* Buffer sizes that always suffice for the writers below (with the NUL). */
enum {
	NOTATION_FEN_MAX = 128, /* "W:WK1,...:B..." with 24 pieces */
	NOTATION_HUB_POSITION_MAX = 34,
	NOTATION_MOVE_MAX = 64, /* 13 squares of a 12-piece capture path */
	NOTATION_ERROR_MAX = 160
};

/*
 * Reads a PDN FEN (RULES.md section 4): turn letter, then the two piece
 * lists in either order, `K` for kings, ranges, spaces after separators, a
 * trailing '.'. Squares are numbers 1-32 or algebraic names of dark
 * squares (`Wc3,Kd4`). The position is one of `variant` (< VARIANT_COUNT;
 * the pieces read the same under every rule set). On failure returns
 * false, leaves *out untouched and writes a message naming the offending
 * token into error (if not NULL).
 */
bool notation_parse_fen(const char *text, Variant variant, Position *out, char *error, size_t error_size);

/*
 * notation_parse_fen() without the material checks: the text must be a
 * well-formed FEN, but men may stand on their crowning row and a side may
 * have more than 12 pieces. For front-ends that must answer about boards
 * the rules reject (CheckerBoard probes with `B:W1:B`); check the result
 * with position_validate() before searching or generating moves from it.
 */
bool notation_parse_fen_board(const char *text, Variant variant, Position *out, char *error,
                              size_t error_size);

/* Writes the FEN of *p: no ranges, White's list first, squares in the form
 * the variant's players write (VariantRules.notation, .numbering): numbers
 * ascending in the game's numbering (`W:W21,K22:B3`; pool, English,
 * Italian, Spanish), algebraic names in the order of files, then ranks
 * (`W:Wa1,c1,Kd4:Bb8`; Russian, Brazilian, Czech), as the PDN standard's
 * GameType 25 and lidraughts' algebraic export have them. */
void notation_write_fen(const Position *p, char *out, size_t size);

/*
 * Reads a Hub position: `B` or `W` then 32 letters from b, B, w, W, e for
 * squares 1..32, a position of `variant`. Same failure contract as
 * notation_parse_fen().
 */
bool notation_parse_hub_position(const char *text, Variant variant, Position *out, char *error,
                                 size_t error_size);

/* The letter of the piece on `square` (0-31): b/w a man, B/W a king, and
 * `empty` when there is none. */
char notation_piece_letter(const Position *p, int square, char empty);

/* Writes the 33-letter Hub position of *p. */
void notation_write_hub_position(const Position *p, char *out, size_t size);

typedef enum MoveParse {
	MOVE_PARSE_OK,
	MOVE_PARSE_SYNTAX,   /* not move text at all */
	MOVE_PARSE_ILLEGAL,  /* well formed, but no legal move matches */
	MOVE_PARSE_AMBIGUOUS /* several legal moves match */
} MoveParse;

/*
 * Matches move text against the legal moves of *p. Accepted forms: quiet
 * `11-15`; capture `11x18` (from x to); full path `11x18x25` (every landing
 * square); Hub form `from x to x captured x ...` (captured squares in any
 * order). Squares may be separated by '-', 'x' or ':' in any form, and
 * written as numbers or algebraic names (`c3-d4`, `c3:e5:g3`). On success
 * writes the move to *out. Otherwise writes a message to error: "illegal
 * move 11-16", or "ambiguous move 8x29 (candidates: 8x22x29 8x18x29)".
 */
MoveParse notation_parse_move(const Position *p, const char *text, Move *out, char *error, size_t error_size);

/*
 * PDN text of a legal move of *p in the form its variant's players write:
 * pool `11-15`, `11x18` when no other legal move goes from 11 to 18,
 * otherwise the full path `11x18x25`; Russian and Brazilian the same with
 * algebraic squares and ':' for captures (`c3-d4`, `c3:e5`, `c3:e5:c7`).
 */
void notation_write_move(const Position *p, Move m, char *out, size_t size);

/* The full path of a legal capture of *p (a quiet move prints as `a-b`). */
void notation_write_move_path(const Position *p, Move m, char *out, size_t size);

/*
 * Every legal move of *p in PDN text (as notation_write_move), sorted by
 * origin and destination, separated by single spaces; "" when there is
 * none. Returns the number of legal moves; the text is cut, never overrun,
 * when size is too small.
 */
int notation_write_legal_moves(const Position *p, char *out, size_t size);

/* The name of square (0-31) as the players of `variant` write it: "22"
 * or "c3", in its numbering (VariantRules.numbering: an Italian "1" is
 * pool's 4, and its files are mirrored). */
void notation_write_square(int square, Variant variant, char *out, size_t size);

/* Hub text: `11-15` or `from x to x captured...` (captured ascending), in
 * every variant, the squares numbered as `variant` numbers them. */
void notation_write_move_hub(Move m, Variant variant, char *out, size_t size);

#endif
