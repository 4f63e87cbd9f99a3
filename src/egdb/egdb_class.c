/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: material classes, the index of a position in its class, dependency order. */
#include "poolshark/egdb_class.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/movegen.h"

/* C(n, k) for n <= 32 and k <= 8: every class of at most EGDB_MAX_PIECES pieces. */
static const uint32_t BINOMIAL[SQUARE_COUNT + 1][EGDB_MAX_PIECES + 1] = {
    {1, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0, 0, 0},
    {1, 5, 10, 10, 5, 1, 0, 0, 0},
    {1, 6, 15, 20, 15, 6, 1, 0, 0},
    {1, 7, 21, 35, 35, 21, 7, 1, 0},
    {1, 8, 28, 56, 70, 56, 28, 8, 1},
    {1, 9, 36, 84, 126, 126, 84, 36, 9},
    {1, 10, 45, 120, 210, 252, 210, 120, 45},
    {1, 11, 55, 165, 330, 462, 462, 330, 165},
    {1, 12, 66, 220, 495, 792, 924, 792, 495},
    {1, 13, 78, 286, 715, 1287, 1716, 1716, 1287},
    {1, 14, 91, 364, 1001, 2002, 3003, 3432, 3003},
    {1, 15, 105, 455, 1365, 3003, 5005, 6435, 6435},
    {1, 16, 120, 560, 1820, 4368, 8008, 11440, 12870},
    {1, 17, 136, 680, 2380, 6188, 12376, 19448, 24310},
    {1, 18, 153, 816, 3060, 8568, 18564, 31824, 43758},
    {1, 19, 171, 969, 3876, 11628, 27132, 50388, 75582},
    {1, 20, 190, 1140, 4845, 15504, 38760, 77520, 125970},
    {1, 21, 210, 1330, 5985, 20349, 54264, 116280, 203490},
    {1, 22, 231, 1540, 7315, 26334, 74613, 170544, 319770},
    {1, 23, 253, 1771, 8855, 33649, 100947, 245157, 490314},
    {1, 24, 276, 2024, 10626, 42504, 134596, 346104, 735471},
    {1, 25, 300, 2300, 12650, 53130, 177100, 480700, 1081575},
    {1, 26, 325, 2600, 14950, 65780, 230230, 657800, 1562275},
    {1, 27, 351, 2925, 17550, 80730, 296010, 888030, 2220075},
    {1, 28, 378, 3276, 20475, 98280, 376740, 1184040, 3108105},
    {1, 29, 406, 3654, 23751, 118755, 475020, 1560780, 4292145},
    {1, 30, 435, 4060, 27405, 142506, 593775, 2035800, 5852925},
    {1, 31, 465, 4495, 31465, 169911, 736281, 2629575, 7888725},
    {1, 32, 496, 4960, 35960, 201376, 906192, 3365856, 10518300},
};

static uint64_t binomial(int n, int k)
{
	if (k < 0 || k > n || k > EGDB_MAX_PIECES)
		return 0;
	return BINOMIAL[n][k];
}

static Bitboard reverse_bits(Bitboard b)
{
	b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
	b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
	b = ((b >> 4) & 0x0f0f0f0fu) | ((b & 0x0f0f0f0fu) << 4);
	b = ((b >> 8) & 0x00ff00ffu) | ((b & 0x00ff00ffu) << 8);
	return (b >> 16) | (b << 16);
}

void egdb_normalize(const Position *p, Position *out)
{
	if (p->side == BLACK) {
		*out = *p;
		return;
	}
	position_set(out, reverse_bits(p->pieces[WHITE]), reverse_bits(p->pieces[BLACK]),
	             reverse_bits(p->kings), BLACK);
	out->variant = p->variant;
}

void egdb_class_of(const Position *p, EgdbClass *out)
{
	Color us = p->side, them = color_other(us);
	out->men[0] = (uint8_t)bb_count(position_men(p, us));
	out->kings[0] = (uint8_t)bb_count(position_kings(p, us));
	out->men[1] = (uint8_t)bb_count(position_men(p, them));
	out->kings[1] = (uint8_t)bb_count(position_kings(p, them));
}

void egdb_class_name(EgdbClass c, char *out, size_t size)
{
	snprintf(out, size, "m%dk%d-m%dk%d", c.men[0], c.kings[0], c.men[1], c.kings[1]);
}

bool egdb_class_parse(const char *text, EgdbClass *out)
{
	int v[4];
	for (int i = 0; i < 4; i++) {
		char want = (i & 1) ? 'k' : 'm';
		if (i == 2 && *text++ != '-')
			return false;
		if (*text++ != want || *text < '0' || *text > '8')
			return false;
		v[i] = *text++ - '0';
	}
	if (*text)
		return false;
	EgdbClass c = {{(uint8_t)v[0], (uint8_t)v[2]}, {(uint8_t)v[1], (uint8_t)v[3]}};
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES)
		return false;
	*out = c;
	return true;
}

/* Men of one colour: 28 squares (never their own crowning row). */
enum { MAN_SQUARES = 28 };

/* Slot counts of the four parts of an index: black men, white men, black
 * kings among the squares the men leave, white kings among the rest. */
static void part_sizes(EgdbClass c, uint64_t sizes[4])
{
	int men = c.men[0] + c.men[1];
	sizes[0] = binomial(MAN_SQUARES, c.men[0]);
	sizes[1] = binomial(MAN_SQUARES, c.men[1]);
	sizes[2] = binomial(SQUARE_COUNT - men, c.kings[0]);
	sizes[3] = binomial(SQUARE_COUNT - men - c.kings[0], c.kings[1]);
}

uint64_t egdb_class_size(EgdbClass c)
{
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES)
		return 0;
	uint64_t s[4];
	part_sizes(c, s);
	return s[0] * s[1] * s[2] * s[3];
}

/* Colex rank of a set of squares: the sum of C(s_i, i+1) over its squares in
 * ascending order; a bijection onto [0, C(n, k)). */
static uint64_t rank_set(Bitboard b)
{
	uint64_t r = 0;
	for (int i = 1; b; b &= b - 1, i++)
		r += binomial(bb_lowest(b), i);
	return r;
}

static Bitboard unrank_set(uint64_t r, int k, int n)
{
	Bitboard b = 0;
	int s = n - 1;
	for (int i = k; i >= 1; i--) {
		while (binomial(s, i) > r)
			s--;
		r -= binomial(s, i);
		b |= bb_square(s);
		s--;
	}
	return b;
}

/* The squares of b renumbered among the squares not in occ. */
static Bitboard squeeze(Bitboard b, Bitboard occ)
{
	Bitboard out = 0;
	for (; b; b &= b - 1) {
		int s = bb_lowest(b);
		out |= bb_square(s - bb_count(occ & (bb_square(s) - 1)));
	}
	return out;
}

static Bitboard unsqueeze(Bitboard b, Bitboard occ)
{
	Bitboard out = 0;
	int rank = 0;
	for (int s = 0; s < SQUARE_COUNT && b; s++) {
		if (occ & bb_square(s))
			continue;
		if (b & bb_square(rank)) {
			out |= bb_square(s);
			b &= ~bb_square(rank);
		}
		rank++;
	}
	return out;
}

uint64_t egdb_index(const Position *p, EgdbClass c)
{
	uint64_t s[4];
	part_sizes(c, s);
	Bitboard bm = position_men(p, BLACK), wm = position_men(p, WHITE);
	Bitboard men = bm | wm;
	uint64_t r0 = rank_set(bm), r1 = rank_set(wm >> 4);
	uint64_t r2 = rank_set(squeeze(position_kings(p, BLACK), men));
	uint64_t r3 = rank_set(squeeze(position_kings(p, WHITE), men | position_kings(p, BLACK)));
	return ((r0 * s[1] + r1) * s[2] + r2) * s[3] + r3;
}

bool egdb_position(Variant v, EgdbClass c, uint64_t index, Position *out)
{
	uint64_t s[4];
	part_sizes(c, s);
	uint64_t r3 = index % s[3];
	index /= s[3];
	uint64_t r2 = index % s[2];
	index /= s[2];
	uint64_t r1 = index % s[1];
	uint64_t r0 = index / s[1];
	Bitboard bm = unrank_set(r0, c.men[0], MAN_SQUARES);
	Bitboard wm = unrank_set(r1, c.men[1], MAN_SQUARES) << 4;
	if (bm & wm)
		return false;
	Bitboard men = bm | wm;
	Bitboard bk = unsqueeze(unrank_set(r2, c.kings[0], SQUARE_COUNT - bb_count(men)), men);
	Bitboard wk = unsqueeze(unrank_set(r3, c.kings[1], SQUARE_COUNT - bb_count(men | bk)), men | bk);
	position_set(out, bm | bk, wm | wk, bk | wk, BLACK);
	out->variant = (uint8_t)v;
	return true;
}

static int class_men(EgdbClass c)
{
	return c.men[0] + c.men[1];
}

/* Dependency order of pairs: fewer pieces, then fewer men, then by key. */
static int pair_compare(const void *a, const void *b)
{
	const EgdbClass *x = a, *y = b;
	int d = egdb_class_pieces(x) - egdb_class_pieces(y);
	if (d == 0)
		d = class_men(*x) - class_men(*y);
	if (d == 0)
		d = egdb_class_key(*x) - egdb_class_key(*y);
	return d;
}

int egdb_class_pairs(int max_pieces, EgdbClass *out, int *group, int max)
{
	if (max_pieces > EGDB_MAX_PIECES)
		max_pieces = EGDB_MAX_PIECES;
	int n = 0;
	for (int m0 = 0; m0 <= max_pieces; m0++)
		for (int k0 = 0; m0 + k0 <= max_pieces; k0++)
			for (int m1 = 0; m0 + k0 + m1 <= max_pieces; m1++)
				for (int k1 = 0; m0 + k0 + m1 + k1 <= max_pieces; k1++) {
					EgdbClass c = {{(uint8_t)m0, (uint8_t)m1},
					               {(uint8_t)k0, (uint8_t)k1}};
					if (m0 + k0 == 0 || m1 + k1 == 0)
						continue;
					if (egdb_class_key(c) > egdb_class_key(egdb_class_swap(c)))
						continue;
					if (n < max)
						out[n] = c;
					n++;
				}
	int stored = n < max ? n : max;
	qsort(out, (size_t)stored, sizeof *out, pair_compare);
	for (int i = 0, g = -1; i < stored; i++) {
		if (i == 0 || egdb_class_pieces(&out[i]) != egdb_class_pieces(&out[i - 1]) ||
		    class_men(out[i]) != class_men(out[i - 1]))
			g++;
		if (group)
			group[i] = g;
	}
	return stored;
}

uint8_t egdb_value_best(const uint8_t *next, int n)
{
	int win = 0, loss = 0;
	bool draw = false;
	for (int i = 0; i < n; i++) {
		int d = egdb_value_distance(next[i]);
		if (next[i] == EGDB_VALUE_DRAW)
			draw = true;
		else if (egdb_value_result(next[i]) == EGDB_LOSS) {
			if (win == 0 || d + 1 < win)
				win = d + 1;
		} else if (d + 1 > loss) {
			loss = d + 1;
		}
	}
	if (n == 0)
		return 1;
	if (win)
		return (uint8_t)(win + 1);
	return draw ? EGDB_VALUE_DRAW : (uint8_t)(loss + 1);
}

bool egdb_value_of_moves(const Position *p, const MoveList *list, EgdbValueOf value_of, const void *context,
                         uint8_t *value)
{
	uint8_t next[MOVELIST_CAPACITY];
	for (int i = 0; i < list->count; i++) {
		Position after;
		position_make(p, list->moves[i], &after);
		if (!value_of(context, &after, &next[i]))
			return false;
	}
	*value = egdb_value_best(next, list->count);
	return true;
}
