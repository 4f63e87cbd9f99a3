/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Captures of the rule sets other than pool's, compiled once per rule. */
#include <stddef.h>

#include "movegen_internal.h"

/*
 * movegen.c answers for every variant; the capture rules that differ from
 * pool live here, compiled once per rule set, so that pool's generator has
 * no test of a variant inside its walks.
 *
 * Russian: a man that lands on its crowning row during a capture is
 * crowned at once and goes on capturing as a flying king (the move then
 * carries `crowned` when it ends off that row). Brazilian: only the
 * captures that take the most pieces are legal; a man passing its crowning
 * row stays a man. Both: complete sequences, Turkish strike, one move per
 * (from, to, captured set).
 */

/* One capture search: fixed for the whole move of one piece. */
typedef struct VariantWalk {
	MoveList *list;
	Bitboard opponents; /* every opponent piece, captured or not */
	Bitboard occupied;  /* every piece except the capturing one */
	Bitboard crown;     /* the row on which the mover's men crown */
	int from;
	int first; /* index of this piece's first move in list */
	int best;  /* majority rule: the most pieces a listed capture takes */
	/* Path mode (route.target set): collect the routes of the target
	 * instead of listing moves. */
	WalkRoute route;
} VariantWalk;

ALWAYS_INLINE void add_capture(VariantWalk *w, int to, Bitboard captured, bool crowned, bool majority)
{
	if (w->route.target) {
		walk_route_add(&w->route, w->from, to, captured);
		return;
	}
	MoveList *list = w->list;
	if (majority) {
		/* One pass: a longer capture empties the list of shorter ones, a
		 * shorter one is never listed. */
		int n = bb_count(captured);
		if (n < w->best)
			return;
		if (n > w->best) {
			w->best = n;
			list->count = 0;
			w->first = 0;
		}
	}
	Move m = {captured, (uint8_t)w->from, (uint8_t)to, (uint8_t)(crowned && !(bb_square(to) & w->crown))};
	if (bb_count(captured) >= 2) {
		for (int i = w->first; i < list->count; i++)
			if (move_equal(list->moves[i], m))
				return;
	}
	if (list->count < MOVELIST_CAPACITY)
		list->moves[list->count++] = m;
}

/* The squares a king on `at` may land on after jumping in d, or 0; the
 * jumped piece goes to *victim. Captured pieces block and cannot be jumped
 * again (the Turkish strike). */
static inline Bitboard king_landings(Bitboard occupied, Bitboard opponents, int at, Direction d,
                                     Bitboard captured, Bitboard *victim)
{
	int v = bb_first_on_ray(at, d, occupied);
	if (v < 0)
		return 0;
	*victim = bb_square(v);
	if (!(*victim & opponents & ~captured))
		return 0;
	Bitboard beyond = bitboard_rays[d][v];
	int stop = bb_first_on_ray(v, d, occupied);
	if (stop >= 0)
		beyond &= ~(bitboard_rays[d][stop] | bb_square(stop));
	return beyond;
}

static bool king_can_jump(Bitboard occupied, Bitboard opponents, int at, Bitboard captured)
{
	Bitboard victim;
	for (int d = 0; d < DIR_COUNT; d++)
		if (king_landings(occupied, opponents, at, (Direction)d, captured, &victim))
			return true;
	return false;
}

ALWAYS_INLINE void trail_push(VariantWalk *w, int square)
{
	w->route.trail[w->route.depth++] = (uint8_t)square;
}

static void king_walk_russian(VariantWalk *w, int at, Bitboard captured, bool crowned);
static void king_walk_brazilian(VariantWalk *w, int at, Bitboard captured);

/* A king (crowned: a man crowned during this capture) on `at` having taken
 * `captured`. It must land where it can go on capturing when such a square
 * exists; under the majority rule that only drops captures that take
 * fewer pieces, so both rule sets walk the same way. */
ALWAYS_INLINE void king_walk(VariantWalk *w, int at, Bitboard captured, bool crowned, bool majority)
{
	bool jumped = false;
	for (int d = 0; d < DIR_COUNT; d++) {
		Bitboard victim = 0;
		Bitboard land = king_landings(w->occupied, w->opponents, at, (Direction)d, captured, &victim);
		if (!land)
			continue;
		jumped = true;
		Bitboard taken = captured | victim;
		Bitboard onward = 0;
		for (Bitboard b = land; b; b &= b - 1)
			if (king_can_jump(w->occupied, w->opponents, bb_lowest(b), taken))
				onward |= b & -b;
		for (Bitboard b = onward ? onward : land; b; b &= b - 1) {
			trail_push(w, bb_lowest(b));
			if (onward && majority)
				king_walk_brazilian(w, bb_lowest(b), taken);
			else if (onward)
				king_walk_russian(w, bb_lowest(b), taken, crowned);
			else
				add_capture(w, bb_lowest(b), taken, crowned, majority);
			w->route.depth--;
		}
	}
	if (!jumped && captured)
		add_capture(w, at, captured, crowned, majority);
}

static void king_walk_russian(VariantWalk *w, int at, Bitboard captured, bool crowned)
{
	king_walk(w, at, captured, crowned, false);
}

static void king_walk_brazilian(VariantWalk *w, int at, Bitboard captured)
{
	king_walk(w, at, captured, false, true);
}

static void man_walk_russian(VariantWalk *w, int at, Bitboard captured);
static void man_walk_brazilian(VariantWalk *w, int at, Bitboard captured);

/* A man on `at` having taken `captured`: jumps in all four directions. */
ALWAYS_INLINE void man_walk(VariantWalk *w, int at, Bitboard captured, bool crown_mid, bool majority)
{
	Bitboard victims = w->opponents & ~captured, empty = ~w->occupied;
	bool jumped = false;
	for (int d = 0; d < DIR_COUNT; d++) {
		Bitboard over = bitboard_neighbors[d][at] & victims;
		Bitboard land = bitboard_jumps[d][at] & empty;
		if (!over || !land)
			continue;
		jumped = true;
		int to = bb_lowest(land);
		trail_push(w, to);
		if (crown_mid && (land & w->crown))
			king_walk_russian(w, to, captured | over, true);
		else if (majority)
			man_walk_brazilian(w, to, captured | over);
		else
			man_walk_russian(w, to, captured | over);
		w->route.depth--;
	}
	if (!jumped && captured)
		add_capture(w, at, captured, false, majority);
}

static void man_walk_russian(VariantWalk *w, int at, Bitboard captured)
{
	man_walk(w, at, captured, true, false);
}

static void man_walk_brazilian(VariantWalk *w, int at, Bitboard captured)
{
	man_walk(w, at, captured, false, true);
}

static void walk_init(VariantWalk *w, const Position *p)
{
	w->opponents = p->pieces[color_other(p->side)];
	w->crown = position_crown_row(p->side);
	w->best = 0;
	w->route.target = NULL;
	w->route.path_count = 0;
	w->route.depth = 0;
}

static void walk_piece(VariantWalk *w, const Position *p, int from)
{
	bool king = (p->kings & bb_square(from)) != 0;
	w->from = from;
	w->first = w->list ? w->list->count : 0;
	w->occupied = position_occupied(p) & ~bb_square(from);
	if (position_variant(p) == VARIANT_BRAZILIAN) {
		if (king)
			king_walk_brazilian(w, from, 0);
		else
			man_walk_brazilian(w, from, 0);
	} else {
		if (king)
			king_walk_russian(w, from, 0, false);
		else
			man_walk_russian(w, from, 0);
	}
}

int movegen_variant_captures(const Position *p, MoveList *list)
{
	VariantWalk w;
	walk_init(&w, p);
	w.list = list;
	list->count = 0;
	for (Bitboard b = p->pieces[p->side]; b; b &= b - 1)
		walk_piece(&w, p, bb_lowest(b));
	return list->count;
}

int movegen_variant_paths(const Position *p, Move m, MovePath *paths, int max)
{
	VariantWalk w;
	walk_init(&w, p);
	w.list = NULL;
	w.route.target = &m;
	w.route.paths = paths;
	w.route.path_max = max;
	if (!(p->pieces[p->side] & bb_square(m.from)) || !m.captured)
		return 0;
	walk_piece(&w, p, m.from);
	return w.route.path_count;
}
