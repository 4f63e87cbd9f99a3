/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading and writing positions and moves as text (RULES.md section 4). */
#include "poolshark/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/text.h"

/* At most this many characters of user text are quoted back in a message. */
enum { QUOTE_MAX = 24 };

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Length of the token starting at s: up to the next separator. */
static int token_length(const char *s)
{
	int n = 0;
	while (s[n] && s[n] != ',' && s[n] != ':' && s[n] != ' ' && s[n] != '\t' && n < QUOTE_MAX)
		n++;
	return n > 0 ? n : 1;
}

/* The square (1..32 in pool's numbering) of the algebraic name at s,
 * e.g. "c3", on the board of `rules` (its files mirrored on a mirrored
 * board), or 0 when s holds no such name; *light is set when it names a
 * light square. */
static int algebraic_square(const char *s, const VariantRules *rules, bool *light)
{
	*light = false;
	char file = (char)tolower((unsigned char)s[0]);
	if (file < 'a' || file > 'h' || s[1] < '1' || s[1] > '8' || isdigit((unsigned char)s[2]))
		return 0;
	int column = file - 'a', row = '8' - s[1];
	if (variant_board_mirrored(rules->numbering))
		column = 7 - column;
	if ((row + column) % 2 == 0) {
		*light = true;
		return 0;
	}
	return 4 * row + column / 2 + 1;
}

void notation_write_square(int square, Variant variant, char *out, size_t size)
{
	const VariantRules *rules = variant_rules(variant);
	if (rules->notation == NOTATION_NUMERIC) {
		snprintf(out, size, "%d", variant_number_of_square(rules->numbering, square));
		return;
	}
	int row = square / 4, column = 2 * (square % 4) + (row % 2 == 0 ? 1 : 0);
	if (variant_board_mirrored(rules->numbering))
		column = 7 - column;
	snprintf(out, size, "%c%c", 'a' + column, '8' - row);
}

/* Reads a square at *s (advancing it): a number 1..32 or an algebraic name
 * of a dark square, as the number that `rules` gives it; false with a
 * message. */
static bool read_square(const char **s, const char *token, const VariantRules *rules, int *square,
                        char *error, size_t size)
{
	const char *p = *s;
	bool light;
	int named = algebraic_square(p, rules, &light);
	if (named)
		named = variant_number_of_square(rules->numbering, named - 1);
	if (light) {
		text_set_error(error, size, "%.2s is a light square (in '%.*s')", p, token_length(token),
		               token);
		return false;
	}
	if (named) {
		*square = named;
		*s = p + 2;
		return true;
	}
	long value = 0;
	int digits = 0;
	while (isdigit((unsigned char)*p)) {
		if (value < 1000)
			value = value * 10 + (*p - '0');
		p++;
		digits++;
	}
	if (digits == 0) {
		text_set_error(error, size, "expected a square number in '%.*s'", token_length(token), token);
		return false;
	}
	if (value < 1 || value > 32) {
		text_set_error(error, size, "square %.*s is outside 1-32 (in '%.*s')",
		               digits > 6 ? 6 : digits, *s, token_length(token), token);
		return false;
	}
	*square = (int)value;
	*s = p;
	return true;
}

typedef struct FenSide {
	bool seen;
	Bitboard pieces, kings;
} FenSide;

/* Reads one piece list after its colour letter: `K1,2-5,K9` or nothing. */
static bool read_piece_list(const char **cursor, const char *colour_name, const VariantRules *rules,
                            FenSide *side, Bitboard *all, char *error, size_t size)
{
	const char *s = skip_spaces(*cursor);
	while (*s && *s != ':' && *s != '.') {
		const char *token = s;
		bool king = false;
		if (*s == 'K' || *s == 'k') {
			king = true;
			s++;
		}
		int first, last;
		if (!read_square(&s, token, rules, &first, error, size))
			return false;
		last = first;
		if (*s == '-') {
			s++;
			if (*s == 'K' || *s == 'k')
				s++;
			if (!read_square(&s, token, rules, &last, error, size))
				return false;
			if (last < first) {
				text_set_error(error, size, "range '%.*s' runs backwards",
				               token_length(token), token);
				return false;
			}
		}
		for (int sq = first; sq <= last; sq++) {
			Bitboard b = bb_square(variant_square_of_number(rules->numbering, sq));
			if (*all & b) {
				text_set_error(error, size, "square %d is listed twice (in '%.*s')", sq,
				               token_length(token), token);
				return false;
			}
			*all |= b;
			side->pieces |= b;
			if (king)
				side->kings |= b;
		}
		s = skip_spaces(s);
		if (*s == ',') {
			s = skip_spaces(s + 1);
			continue;
		}
		if (*s && *s != ':' && *s != '.') {
			text_set_error(error, size, "unexpected '%.*s' in the %s list", token_length(s), s,
			               colour_name);
			return false;
		}
	}
	*cursor = s;
	return true;
}

static bool check_material(const Position *p, char *error, size_t size)
{
	static const char *const names[2] = {"black", "white"};
	for (int c = 0; c < 2; c++) {
		Bitboard bad = position_men(p, (Color)c) & position_crown_row((Color)c);
		if (bad) {
			char name[8];
			notation_write_square(bb_lowest(bad), position_variant(p), name, sizeof name);
			text_set_error(error, size, "%s man on %s stands on its crowning row", names[c],
			               name);
			return false;
		}
		if (bb_count(p->pieces[c]) > 12) {
			text_set_error(error, size, "%d %s pieces (at most 12)", bb_count(p->pieces[c]),
			               names[c]);
			return false;
		}
	}
	return true;
}

bool notation_parse_fen(const char *text, Variant variant, Position *out, char *error, size_t error_size)
{
	Position p;
	if (!notation_parse_fen_board(text, variant, &p, error, error_size) ||
	    !check_material(&p, error, error_size))
		return false;
	*out = p;
	return true;
}

bool notation_parse_fen_board(const char *text, Variant variant, Position *out, char *error,
                              size_t error_size)
{
	const char *s = skip_spaces(text);
	Color side;

	if (*s == '"')
		s++;
	if (*s == 'B' || *s == 'b')
		side = BLACK;
	else if (*s == 'W' || *s == 'w')
		side = WHITE;
	else {
		text_set_error(error, error_size,
		               *s ? "unknown turn letter '%.*s' (expected B or W)" : "empty FEN",
		               token_length(s), s);
		return false;
	}
	s = skip_spaces(s + 1);

	FenSide sides[2] = {{0}};
	Bitboard all = 0;
	while (*s == ':') {
		s = skip_spaces(s + 1);
		Color c;
		if (*s == 'B' || *s == 'b')
			c = BLACK;
		else if (*s == 'W' || *s == 'w')
			c = WHITE;
		else {
			text_set_error(error, error_size, "unknown colour '%.*s' (expected B or W)",
			               token_length(s), s);
			return false;
		}
		const char *colour_name = c == BLACK ? "black" : "white";
		if (sides[c].seen) {
			text_set_error(error, error_size, "the %s piece list appears twice", colour_name);
			return false;
		}
		sides[c].seen = true;
		s++;
		if (!read_piece_list(&s, colour_name, variant_rules(variant), &sides[c], &all, error,
		                     error_size))
			return false;
	}
	if (!sides[BLACK].seen && !sides[WHITE].seen) {
		text_set_error(error, error_size,
		               *s ? "expected ':' after the turn letter, found '%.*s'"
		                  : "no piece lists after the turn letter",
		               token_length(s), s);
		return false;
	}
	if (*s == '.')
		s++;
	if (*s == '"')
		s++;
	s = skip_spaces(s);
	if (*s && *s != '\n' && *s != '\r') {
		text_set_error(error, error_size, "trailing text '%.*s' after the FEN", token_length(s), s);
		return false;
	}

	position_set(out, sides[BLACK].pieces, sides[WHITE].pieces, sides[BLACK].kings | sides[WHITE].kings,
	             side);
	out->variant = (uint8_t)variant;
	return true;
}

/* One side's pieces: numbers ascending, or algebraic names in the order
 * of files then ranks (a1, a3, ..., h8), as other programs write them. */
static void write_list(const Position *p, Color c, char *out, size_t size, size_t *used)
{
	text_append(out, size, used, "%c", c == WHITE ? 'W' : 'B');
	const VariantRules *rules = variant_rules(position_variant(p));
	bool mirrored = variant_board_mirrored(rules->numbering);
	int order[SQUARE_COUNT], n = 0;
	if (rules->notation == NOTATION_NUMERIC) {
		for (int number = 1; number <= SQUARE_COUNT; number++)
			order[n++] = variant_square_of_number(rules->numbering, number);
	} else {
		for (int file = 0; file < 8; file++)
			for (int row = 7; row >= 0; row--) {
				int column = mirrored ? 7 - file : file;
				if ((row + column) % 2 == 1)
					order[n++] = 4 * row + column / 2;
			}
	}
	const char *separator = "";
	for (int i = 0; i < n; i++) {
		int s = order[i];
		if (!((p->pieces[c] >> s) & 1))
			continue;
		char name[16];
		notation_write_square(s, position_variant(p), name, sizeof name);
		text_append(out, size, used, "%s%s%s", separator, (p->kings >> s) & 1 ? "K" : "", name);
		separator = ",";
	}
}

void notation_write_fen(const Position *p, char *out, size_t size)
{
	size_t used = 0;
	if (size == 0)
		return;
	out[0] = '\0';
	text_append(out, size, &used, "%c:", p->side == WHITE ? 'W' : 'B');
	write_list(p, WHITE, out, size, &used);
	text_append(out, size, &used, ":");
	write_list(p, BLACK, out, size, &used);
}

bool notation_parse_hub_position(const char *text, Variant variant, Position *out, char *error,
                                 size_t error_size)
{
	size_t length = strlen(text);
	if (length != 33) {
		text_set_error(error, error_size, "a hub position has 33 letters, this one has %zu", length);
		return false;
	}
	Color side;
	if (text[0] == 'B')
		side = BLACK;
	else if (text[0] == 'W')
		side = WHITE;
	else {
		text_set_error(error, error_size, "unknown side letter '%c' (expected B or W)",
		               isprint((unsigned char)text[0]) ? text[0] : '?');
		return false;
	}
	Bitboard pieces[2] = {0, 0}, kings = 0;
	BoardNumbering numbering = variant_rules(variant)->numbering;
	for (int s = 0; s < 32; s++) {
		char c = text[s + 1];
		Bitboard b = bb_square(variant_square_of_number(numbering, s + 1));
		switch (c) {
		case 'b': pieces[BLACK] |= b; break;
		case 'B':
			pieces[BLACK] |= b;
			kings |= b;
			break;
		case 'w': pieces[WHITE] |= b; break;
		case 'W':
			pieces[WHITE] |= b;
			kings |= b;
			break;
		case 'e': break;
		default:
			text_set_error(error, error_size,
			               "bad letter '%c' for square %d (expected b, B, w, W or e)",
			               isprint((unsigned char)c) ? c : '?', s + 1);
			return false;
		}
	}
	Position p;
	position_set(&p, pieces[BLACK], pieces[WHITE], kings, side);
	p.variant = (uint8_t)variant;
	if (!check_material(&p, error, error_size))
		return false;
	*out = p;
	return true;
}

char notation_piece_letter(const Position *p, int square, char empty)
{
	Bitboard b = bb_square(square);
	bool king = (p->kings & b) != 0;
	if (p->pieces[BLACK] & b)
		return king ? 'B' : 'b';
	if (p->pieces[WHITE] & b)
		return king ? 'W' : 'w';
	return empty;
}

void notation_write_hub_position(const Position *p, char *out, size_t size)
{
	char text[NOTATION_HUB_POSITION_MAX];
	text[0] = p->side == WHITE ? 'W' : 'B';
	BoardNumbering numbering = variant_rules(position_variant(p))->numbering;
	for (int s = 0; s < 32; s++)
		text[s + 1] = notation_piece_letter(p, variant_square_of_number(numbering, s + 1), 'e');
	text[33] = '\0';
	snprintf(out, size, "%s", text);
}

void notation_write_move_hub(Move m, Variant variant, char *out, size_t size)
{
	size_t used = 0;
	if (size == 0)
		return;
	out[0] = '\0';
	BoardNumbering numbering = variant_rules(variant)->numbering;
	int from = variant_number_of_square(numbering, m.from),
	    to = variant_number_of_square(numbering, m.to);
	if (!m.captured) {
		text_append(out, size, &used, "%d-%d", from, to);
		return;
	}
	text_append(out, size, &used, "%dx%d", from, to);
	/* Captured squares ascending in the variant's numbers. */
	for (int number = 1; number <= SQUARE_COUNT; number++)
		if (m.captured & bb_square(variant_square_of_number(numbering, number)))
			text_append(out, size, &used, "x%d", number);
}

/* Squares joined by separator, in the form the variant's players write. */
static void write_squares(const uint8_t *squares, int count, char separator, Variant variant, char *out,
                          size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < count; i++) {
		char name[8];
		notation_write_square(squares[i], variant, name, sizeof name);
		if (i)
			text_append(out, size, &used, "%c", separator);
		text_append(out, size, &used, "%s", name);
	}
}

/* Pool players write captures with 'x', Russian and Brazilian with ':'. */
static char capture_mark(SquareNotation form)
{
	return form == NOTATION_NUMERIC ? 'x' : ':';
}

static void write_ends(const Position *p, Move m, char *out, size_t size)
{
	SquareNotation form = variant_rules(position_variant(p))->notation;
	uint8_t ends[2] = {m.from, m.to};
	write_squares(ends, 2, m.captured ? capture_mark(form) : '-', position_variant(p), out, size);
}

void notation_write_move_path(const Position *p, Move m, char *out, size_t size)
{
	MovePath path;
	if (size == 0)
		return;
	SquareNotation form = variant_rules(position_variant(p))->notation;
	if (m.captured && movegen_paths(p, m, &path, 1) > 0)
		write_squares(path.squares, path.length, capture_mark(form), position_variant(p), out, size);
	else if (m.captured)
		notation_write_move_hub(m, position_variant(p), out, size); /* not a legal capture: no path */
	else
		write_ends(p, m, out, size);
}

void notation_write_move(const Position *p, Move m, char *out, size_t size)
{
	if (size == 0)
		return;
	if (!m.captured) {
		write_ends(p, m, out, size);
		return;
	}
	MoveList list;
	int n = movegen_generate(p, &list), same_ends = 0;
	for (int i = 0; i < n; i++)
		if (list.moves[i].from == m.from && list.moves[i].to == m.to)
			same_ends++;
	if (same_ends > 1)
		notation_write_move_path(p, m, out, size);
	else
		write_ends(p, m, out, size);
}

/* Squares of move text: 1..32 each, separated by '-' or 'x'. */
typedef struct MoveText {
	int count;
	uint8_t squares[MOVEPATH_MAX + 1]; /* bit indices */
} MoveText;

static bool split_move_text(const char *text, const VariantRules *rules, MoveText *out)
{
	const char *s = skip_spaces(text);
	out->count = 0;
	for (;;) {
		int square = 0, digits = 0;
		bool light;
		int named = algebraic_square(s, rules, &light);
		if (named) {
			square = named;
			s += 2;
			digits = 2;
		}
		while (!named && isdigit((unsigned char)*s) && digits < 3) {
			square = square * 10 + (*s - '0');
			s++;
			digits++;
		}
		if (digits == 0 || isdigit((unsigned char)*s) || square < 1 || square > 32)
			return false;
		if (out->count == MOVEPATH_MAX + 1)
			return false;
		out->squares[out->count++] =
		    (uint8_t)(named ? square - 1 : variant_square_of_number(rules->numbering, square));
		if (*s == '-' || *s == 'x' || *s == 'X' || *s == ':')
			s++;
		else
			break;
	}
	s = skip_spaces(s);
	return *s == '\0' && out->count >= 2;
}

/* Whether the squares after from and to list exactly m's captured pieces. */
static bool matches_hub_form(Move m, const MoveText *t)
{
	Bitboard listed = 0;
	if (t->count - 2 != bb_count(m.captured))
		return false;
	for (int i = 2; i < t->count; i++)
		listed |= bb_square(t->squares[i]);
	return listed == m.captured;
}

static bool matches_path_form(const Position *p, Move m, const MoveText *t)
{
	MovePath paths[16];
	if (!m.captured || t->count - 1 != bb_count(m.captured))
		return false;
	int n = movegen_paths(p, m, paths, 16);
	if (n > 16) /* more routes than we keep: the path decides each step */
		n = 16;
	for (int i = 0; i < n; i++)
		if (paths[i].length == t->count && !memcmp(paths[i].squares, t->squares, (size_t)t->count))
			return true;
	return false;
}

static bool move_matches(const Position *p, Move m, const MoveText *t)
{
	if (m.from != t->squares[0])
		return false;
	if (t->count == 2)
		return m.to == t->squares[1];
	if (!m.captured)
		return false;
	bool as_path = m.to == t->squares[t->count - 1] && matches_path_form(p, m, t);
	bool as_hub = m.to == t->squares[1] && matches_hub_form(m, t);
	return as_path || as_hub;
}

MoveParse notation_parse_move(const Position *p, const char *text, Move *out, char *error, size_t error_size)
{
	MoveText t;
	if (!split_move_text(text, variant_rules(position_variant(p)), &t)) {
		text_set_error(error, error_size,
		               "not a move: '%.*s' (expected e.g. 11-15, 11x18, 11x18x25, c3-d4 or c3:e5)",
		               QUOTE_MAX, text);
		return MOVE_PARSE_SYNTAX;
	}
	MoveList list;
	int n = movegen_generate(p, &list), found = 0;
	Move match[MOVELIST_CAPACITY];
	/* A complete path names one move; the writer relies on it when a
	 * one-piece capture shares its ends with a longer one (`22x29`). */
	for (int i = 0; i < n; i++)
		if (list.moves[i].from == t.squares[0] && matches_path_form(p, list.moves[i], &t))
			match[found++] = list.moves[i];
	if (found != 1) {
		found = 0;
		for (int i = 0; i < n; i++)
			if (move_matches(p, list.moves[i], &t))
				match[found++] = list.moves[i];
	}
	if (found == 1) {
		*out = match[0];
		return MOVE_PARSE_OK;
	}
	if (found == 0) {
		text_set_error(error, error_size, "illegal move %.*s", QUOTE_MAX * 2, skip_spaces(text));
		return MOVE_PARSE_ILLEGAL;
	}
	char candidates[NOTATION_ERROR_MAX] = "";
	size_t used = 0;
	for (int i = 0; i < found; i++) {
		char path[NOTATION_MOVE_MAX];
		notation_write_move_path(p, match[i], path, sizeof path);
		text_append(candidates, sizeof candidates, &used, "%s%s", i ? " " : "", path);
	}
	text_set_error(error, error_size, "ambiguous move %.*s (candidates: %s)", QUOTE_MAX * 2,
	               skip_spaces(text), candidates);
	return MOVE_PARSE_AMBIGUOUS;
}

int notation_write_legal_moves(const Position *p, char *out, size_t size)
{
	MoveList list;
	size_t used = 0;
	movegen_generate(p, &list);
	movelist_sort(&list);
	if (size > 0)
		out[0] = '\0';
	for (int i = 0; i < list.count; i++) {
		char move[NOTATION_MOVE_MAX];
		notation_write_move(p, list.moves[i], move, sizeof move);
		text_append(out, size, &used, "%s%s", i ? " " : "", move);
	}
	return list.count;
}
