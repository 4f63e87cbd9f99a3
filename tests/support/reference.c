/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reference generator: mailbox board, recursive capture search. */
#include "reference.h"

#include <stdbool.h>
#include <string.h>

/*
 * Geometry (RULES.md section 1): row r holds squares 4r+1..4r+4 left to
 * right; on rows 0, 2, 4, 6 the dark squares are columns 1, 3, 5, 7 (b8 is
 * square 1), on the other rows columns 0, 2, 4, 6 (a7 is square 5).
 *
 * Italian and Spanish draughts are played on a board whose colours are
 * mirrored against this one; the mirror maps their game onto this board
 * move for move, so the rules below need no second geometry (only the
 * names of the squares differ, which is notation's business).
 */
int reference_row(int square)
{
	return (square - 1) / 4;
}

int reference_column(int square)
{
	int row = reference_row(square), index = (square - 1) % 4;
	return row % 2 == 0 ? 2 * index + 1 : 2 * index;
}

int reference_square_at(int row, int column)
{
	if (row < 0 || row > 7 || column < 0 || column > 7)
		return 0;
	if ((row + column) % 2 == 0)
		return 0; /* a light square */
	return 4 * row + column / 2 + 1;
}

/* Which capture a player must choose among those on the board. */
typedef enum Precedence {
	FREE_CHOICE,   /* pool 2.9, Russian, English */
	MOST_PIECES,   /* Brazilian: the Lei da Maioria */
	PIECES_KINGS,  /* Spanish: the most pieces, then the most kings */
	ITALIAN_ORDER, /* FID 6.6-6.9: pieces, with a king, kings, the king met first */
	KING_CAPTURES  /* Czech: a capture by a king before one by a man */
} Precedence;

/*
 * What each rule text says, written out here rather than taken from
 * src/variant.c, so that a wrong field there cannot hide in both places.
 */
typedef struct Traits {
	bool men_backward; /* men capture backward as well as forward */
	bool men_take_kings;
	bool kings_fly;    /* kings move and capture along the whole diagonal */
	bool crown_on_way; /* Russian: a man crossing its far row captures on as a king */
	bool crown_stops;  /* a man reaching its far row by a capture ends the move there */
	bool landing_rule; /* a flying king lands where it can go on capturing, if it can */
	Precedence precedence;
} Traits;

static Traits traits_of(RefRules rules)
{
	switch (rules) {
	case REF_RUSSIAN: return (Traits){true, true, true, true, false, true, FREE_CHOICE};
	case REF_BRAZILIAN: return (Traits){true, true, true, false, false, false, MOST_PIECES};
	case REF_ENGLISH: /* WCDF/ACF rules 1.16-1.20 */
		return (Traits){false, true, false, false, true, false, FREE_CHOICE};
	case REF_ITALIAN: /* FID Regolamento tecnico, Capo I, art. 4-6 */
		return (Traits){false, false, false, false, true, false, ITALIAN_ORDER};
	case REF_SPANISH: /* Regras do jogo de Damas Clássicas 3.1 */
		return (Traits){false, true, true, false, true, false, PIECES_KINGS};
	case REF_CZECH: /* ČFD rules: "dáma má přednost" */
		return (Traits){false, true, true, false, true, true, KING_CAPTURES};
	case REF_POOL:
	default: return (Traits){true, true, true, false, false, true, FREE_CHOICE};
	}
}

/* The work area of one generation: the grid and the moves found so far. */
typedef struct Search {
	char grid[8][8]; /* letters as in RefBoard, ' ' on light squares */
	bool dead[8][8]; /* captured during the move being built */
	char own_man, own_king;
	Traits traits;
	int forward; /* the row step of the mover's men */
	int far_row; /* the row on which the mover's men crown */
	int from;    /* origin square of the capture being built */
	int path[13];
	int path_length;
	int taken;       /* pieces captured so far on this path */
	int kings_taken; /* of which kings */
	uint32_t order;  /* RefMove.order of this path so far */
	RefMove *out;
	int capacity;
	int count;
} Search;

static const int step_rows[4] = {1, 1, -1, -1};
static const int step_columns[4] = {-1, 1, -1, 1};

static bool inside(int row, int column)
{
	return row >= 0 && row < 8 && column >= 0 && column < 8;
}

static bool is_opponent(const Search *s, int row, int column)
{
	char c = s->grid[row][column];
	return c != '.' && c != ' ' && c != s->own_man && c != s->own_king;
}

static bool is_king_letter(char c)
{
	return c == 'B' || c == 'W';
}

static uint32_t dead_mask(const Search *s)
{
	uint32_t mask = 0;
	for (int r = 0; r < 8; r++)
		for (int c = 0; c < 8; c++)
			if (s->dead[r][c])
				mask |= 1u << (reference_square_at(r, c) - 1);
	return mask;
}

static void add_move(Search *s, int from, int to, uint32_t captured, int crowned)
{
	for (int i = 0; i < s->count && i < s->capacity; i++)
		if (s->out[i].from == from && s->out[i].to == to && s->out[i].captured == captured) {
			/* The same move by another path (rule 2.11): it counts once,
			 * as the best of its paths (Italian 6.9 looks at the order). */
			if (s->order > s->out[i].order)
				s->out[i].order = s->order;
			return;
		}
	if (s->count < s->capacity) {
		RefMove *m = &s->out[s->count];
		m->from = from;
		m->to = to;
		m->captured = captured;
		m->crowned = crowned;
		m->kings_taken = s->kings_taken;
		m->order = s->order;
		m->path_length = s->path_length;
		memcpy(m->path, s->path, sizeof m->path);
	}
	s->count++;
}

/*
 * The landing squares of one king jump from (row, column) in direction d:
 * fills rows/columns with every empty square beyond the first live
 * opponent piece (a flying king) or the one square right behind an
 * adjacent one (a king that steps), and returns their number (0 when no
 * jump exists). The jumped piece goes to *victim_row / *victim_column.
 */
static int king_jump(const Search *s, int row, int column, int d, int *victim_row, int *victim_column,
                     int *rows, int *columns)
{
	bool fly = s->traits.kings_fly;
	int r = row + step_rows[d], c = column + step_columns[d];
	while (fly && inside(r, c) && s->grid[r][c] == '.') {
		r += step_rows[d];
		c += step_columns[d];
	}
	if (!inside(r, c) || !is_opponent(s, r, c) || s->dead[r][c])
		return 0; /* the edge, empty, an own piece, or a dead piece that blocks */
	*victim_row = r;
	*victim_column = c;
	int n = 0;
	r += step_rows[d];
	c += step_columns[d];
	while (inside(r, c) && s->grid[r][c] == '.') {
		rows[n] = r;
		columns[n] = c;
		n++;
		if (!fly)
			break;
		r += step_rows[d];
		c += step_columns[d];
	}
	return n;
}

/* A man jump from (row, column) in d: true with the landing square if legal. */
static bool man_jump(const Search *s, int row, int column, int d, int *land_row, int *land_column)
{
	if (!s->traits.men_backward && step_rows[d] != s->forward)
		return false;
	int mr = row + step_rows[d], mc = column + step_columns[d];
	int lr = mr + step_rows[d], lc = mc + step_columns[d];
	if (!inside(lr, lc))
		return false;
	if (!is_opponent(s, mr, mc) || s->dead[mr][mc] || s->grid[lr][lc] != '.')
		return false;
	if (!s->traits.men_take_kings && is_king_letter(s->grid[mr][mc]))
		return false; /* Italian 5.3(b): a man may not take a king */
	*land_row = lr;
	*land_column = lc;
	return true;
}

static bool can_jump(const Search *s, int row, int column, bool king)
{
	for (int d = 0; d < 4; d++) {
		int vr, vc, lr, lc, rows[8], columns[8];
		if (king ? king_jump(s, row, column, d, &vr, &vc, rows, columns) > 0
		         : man_jump(s, row, column, d, &lr, &lc))
			return true;
	}
	return false;
}

/*
 * Extends the capture standing on (row, column); records it where it ends.
 * crowned: a man that became a king on its far row during this capture
 * (Russian rules), which from then on captures as a king.
 */
static void extend(Search *s, int row, int column, bool king, int crowned)
{
	for (int d = 0; d < 4; d++) {
		int vr, vc, rows[8], columns[8], n;
		if (king) {
			n = king_jump(s, row, column, d, &vr, &vc, rows, columns);
		} else {
			n = man_jump(s, row, column, d, &rows[0], &columns[0]) ? 1 : 0;
			vr = row + step_rows[d];
			vc = column + step_columns[d];
		}
		if (n == 0)
			continue;
		bool victim_king = is_king_letter(s->grid[vr][vc]);
		uint32_t order_before = s->order;
		s->dead[vr][vc] = true;
		if (victim_king) {
			s->order |= 1u << (31 - s->taken);
			s->kings_taken++;
		}
		s->taken++;
		/* Russian: a man landing on its far row is a king from there on. */
		bool king_now = king || (s->traits.crown_on_way && rows[0] == s->far_row);
		int crowned_now = crowned || (king_now && !king);
		/* Crowning ends the move where the rules say so. */
		bool stops = !king && s->traits.crown_stops && rows[0] == s->far_row;
		/* Rule 2.6 (pool, Russian, Czech): only landings that continue, if
		 * there are any. Where the most pieces must be taken, the
		 * precedence filter in reference_generate() decides instead. */
		bool go_on[8], some = false;
		for (int i = 0; i < n; i++) {
			go_on[i] = !stops && can_jump(s, rows[i], columns[i], king_now);
			some = some || go_on[i];
		}
		for (int i = 0; i < n; i++) {
			if (some && !go_on[i] && s->traits.landing_rule)
				continue;
			s->path[s->path_length++] = reference_square_at(rows[i], columns[i]);
			if (go_on[i])
				extend(s, rows[i], columns[i], king_now, crowned_now);
			else
				add_move(s, s->from, reference_square_at(rows[i], columns[i]), dead_mask(s),
				         crowned_now && rows[i] != s->far_row);
			s->path_length--;
		}
		s->taken--;
		if (victim_king)
			s->kings_taken--;
		s->order = order_before;
		s->dead[vr][vc] = false;
	}
}

/* Compares two captures by the precedence of the rules: > 0 when a must
 * be chosen before b, < 0 the other way, 0 when the player may pick. */
static int compare_captures(Precedence precedence, const RefMove *a, const RefMove *b, bool a_king,
                            bool b_king)
{
	int pieces = __builtin_popcount(a->captured) - __builtin_popcount(b->captured);
	switch (precedence) {
	case MOST_PIECES: return pieces;
	case PIECES_KINGS: return pieces ? pieces : a->kings_taken - b->kings_taken;
	case ITALIAN_ORDER:
		if (pieces)
			return pieces; /* 6.6 */
		if (a_king != b_king)
			return a_king ? 1 : -1; /* 6.7: with a king */
		if (a->kings_taken != b->kings_taken)
			return a->kings_taken - b->kings_taken;                 /* 6.8: the most kings */
		return a->order == b->order ? 0 : a->order > b->order ? 1 : -1; /* 6.9 */
	case KING_CAPTURES: return (int)a_king - (int)b_king;
	case FREE_CHOICE:
	default: return 0;
	}
}

/* reference_generate(), or with `choose` false every capture that the
 * pieces can make, before the precedence of the rules. */
static int generate(const RefBoard *b, RefMove *out, int capacity, bool choose)
{
	Search s;
	memset(&s, 0, sizeof s);
	for (int r = 0; r < 8; r++)
		for (int c = 0; c < 8; c++) {
			int sq = reference_square_at(r, c);
			s.grid[r][c] = sq ? b->squares[sq] : ' ';
		}
	s.own_man = b->side == 'B' ? 'b' : 'w';
	s.own_king = b->side == 'B' ? 'B' : 'W';
	s.traits = traits_of(b->rules);
	s.forward = b->side == 'B' ? 1 : -1;
	s.far_row = b->side == 'B' ? 7 : 0;
	s.out = out;
	s.capacity = capacity;

	/* Captures: every piece in turn, its square emptied first (rule 2.8). */
	for (int sq = 1; sq <= 32; sq++) {
		char piece = b->squares[sq];
		if (piece != s.own_man && piece != s.own_king)
			continue;
		int r = reference_row(sq), c = reference_column(sq);
		s.grid[r][c] = '.';
		s.from = sq;
		s.path_length = 0;
		extend(&s, r, c, piece == s.own_king, 0);
		s.grid[r][c] = piece;
	}
	if (s.count > 0 && s.traits.precedence != FREE_CHOICE && choose) {
		/* Keep the captures that no other capture must be chosen before. */
		int best = 0, kept = 0, stored = s.count < capacity ? s.count : capacity;
		for (int i = 1; i < stored; i++)
			if (compare_captures(s.traits.precedence, &out[i], &out[best],
			                     b->squares[out[i].from] == s.own_king,
			                     b->squares[out[best].from] == s.own_king) > 0)
				best = i;
		RefMove top = out[best];
		for (int i = 0; i < stored; i++)
			if (compare_captures(s.traits.precedence, &out[i], &top,
			                     b->squares[out[i].from] == s.own_king,
			                     b->squares[top.from] == s.own_king) == 0)
				out[kept++] = out[i];
		return kept;
	}
	if (s.count > 0)
		return s.count; /* rule 2.9: a capture exists, so only captures */

	for (int sq = 1; sq <= 32; sq++) {
		char piece = b->squares[sq];
		if (piece != s.own_man && piece != s.own_king)
			continue;
		int r = reference_row(sq), c = reference_column(sq);
		for (int d = 0; d < 4; d++) {
			if (piece == s.own_man && step_rows[d] != s.forward)
				continue;
			int tr = r + step_rows[d], tc = c + step_columns[d];
			while (inside(tr, tc) && s.grid[tr][tc] == '.') {
				s.path_length = 0;
				add_move(&s, sq, reference_square_at(tr, tc), 0, 0);
				if (piece == s.own_man || !s.traits.kings_fly)
					break;
				tr += step_rows[d];
				tc += step_columns[d];
			}
		}
	}
	return s.count;
}

int reference_generate(const RefBoard *b, RefMove *out, int capacity)
{
	return generate(b, out, capacity, true);
}

int reference_generate_unchosen(const RefBoard *b, RefMove *out, int capacity)
{
	return generate(b, out, capacity, false);
}

void reference_make(const RefBoard *b, const RefMove *m, RefBoard *out)
{
	RefBoard next = *b;
	char piece = next.squares[m->from];
	next.squares[m->from] = '.';
	for (int sq = 1; sq <= 32; sq++)
		if (m->captured & (1u << (sq - 1)))
			next.squares[sq] = '.';
	/* Rule 2.10: a man crowns where its move ends (and, in Russian
	 * rules, where its capture crossed the far row). */
	if (piece == 'b' && (reference_row(m->to) == 7 || m->crowned))
		piece = 'B';
	if (piece == 'w' && (reference_row(m->to) == 0 || m->crowned))
		piece = 'W';
	next.squares[m->to] = piece;
	next.side = b->side == 'B' ? 'W' : 'B';
	*out = next;
}

uint64_t reference_perft(const RefBoard *b, int depth)
{
	if (depth == 0)
		return 1;
	RefMove moves[REF_MAX_MOVES];
	int n = reference_generate(b, moves, REF_MAX_MOVES);
	if (n > REF_MAX_MOVES)
		n = REF_MAX_MOVES;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		RefBoard next;
		reference_make(b, &moves[i], &next);
		total += reference_perft(&next, depth - 1);
	}
	return total;
}
