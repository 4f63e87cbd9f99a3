/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Captures of the rule sets other than pool's, compiled once per rule. */
#include <stddef.h>

#include "capture_walk.h"
#include "poolshark/variant.h"

/*
 * movegen.c answers for every variant; the captures of a position whose
 * rules are not pool's come here, so that pool's generator has no test of
 * a variant inside its walks. The walk is chosen by the fields of the
 * position's VariantRules, each pair compiled once so that the rules are
 * constants inside it: with crown_mid_capture a man that lands on its
 * crowning row during a capture is crowned at once and goes on capturing
 * as a flying king (the move then carries `crowned` when it ends off that
 * row); without it a man passing that row stays a man. With
 * majority_capture only the captures that take the most pieces are legal.
 * Always: complete sequences, Turkish strike, one move per (from, to,
 * captured set).
 */

/* The rules a walk is compiled for: a set of these bits. */
enum { RULE_CROWN_MID = 1u, RULE_MAJORITY = 2u };

/* One capture search: fixed for the whole move of one piece. */
typedef struct VariantWalk {
	MoveList *list;
	Bitboard opponents; /* every opponent piece, captured or not */
	Bitboard occupied;  /* every piece except the capturing one */
	Bitboard crown;     /* the row on which the mover's men crown */
	int from;
	int first;      /* index of this piece's first move in list */
	int best;       /* majority rule: the most pieces a listed capture takes */
	unsigned rules; /* RULE_ bits: the walk that the position's rules call for */
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
	*victim = king_first_piece(KING_FLYING, at, d, occupied);
	if (!(*victim & opponents & ~captured))
		return 0;
	return king_reach(KING_FLYING, bb_lowest(*victim), d, occupied);
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

static void king_walk_rules(VariantWalk *w, unsigned rules, int at, Bitboard captured, bool crowned);
static void man_walk_rules(VariantWalk *w, unsigned rules, int at, Bitboard captured);

/* A king (crowned: a man crowned during this capture) on `at` having taken
 * `captured`. It must land where it can go on capturing when such a square
 * exists; under the majority rule that only drops captures that take
 * fewer pieces, so every rule set walks the same way. */
ALWAYS_INLINE void king_walk(VariantWalk *w, unsigned rules, int at, Bitboard captured, bool crowned)
{
	bool majority = rules & RULE_MAJORITY, jumped = false;
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
			if (onward)
				king_walk_rules(w, rules, bb_lowest(b), taken, crowned);
			else
				add_capture(w, bb_lowest(b), taken, crowned, majority);
			w->route.depth--;
		}
	}
	if (!jumped && captured)
		add_capture(w, at, captured, crowned, majority);
}

/* A man on `at` having taken `captured`: jumps in all four directions. */
ALWAYS_INLINE void man_walk(VariantWalk *w, unsigned rules, int at, Bitboard captured)
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
		if ((rules & RULE_CROWN_MID) && (land & w->crown))
			king_walk_rules(w, rules, to, captured | over, true);
		else
			man_walk_rules(w, rules, to, captured | over);
		w->route.depth--;
	}
	if (!jumped && captured)
		add_capture(w, at, captured, false, rules & RULE_MAJORITY);
}

/* One copy of each walk per set of rules. */
static void king_walk_free(VariantWalk *w, int at, Bitboard captured, bool crowned)
{
	king_walk(w, 0, at, captured, crowned);
}

static void king_walk_crown_mid(VariantWalk *w, int at, Bitboard captured, bool crowned)
{
	king_walk(w, RULE_CROWN_MID, at, captured, crowned);
}

static void king_walk_majority(VariantWalk *w, int at, Bitboard captured, bool crowned)
{
	king_walk(w, RULE_MAJORITY, at, captured, crowned);
}

static void king_walk_crown_mid_majority(VariantWalk *w, int at, Bitboard captured, bool crowned)
{
	king_walk(w, RULE_CROWN_MID | RULE_MAJORITY, at, captured, crowned);
}

static void man_walk_free(VariantWalk *w, int at, Bitboard captured)
{
	man_walk(w, 0, at, captured);
}

static void man_walk_crown_mid(VariantWalk *w, int at, Bitboard captured)
{
	man_walk(w, RULE_CROWN_MID, at, captured);
}

static void man_walk_majority(VariantWalk *w, int at, Bitboard captured)
{
	man_walk(w, RULE_MAJORITY, at, captured);
}

static void man_walk_crown_mid_majority(VariantWalk *w, int at, Bitboard captured)
{
	man_walk(w, RULE_CROWN_MID | RULE_MAJORITY, at, captured);
}

static void king_walk_rules(VariantWalk *w, unsigned rules, int at, Bitboard captured, bool crowned)
{
	switch (rules) {
	case 0: king_walk_free(w, at, captured, crowned); break;
	case RULE_CROWN_MID: king_walk_crown_mid(w, at, captured, crowned); break;
	case RULE_MAJORITY: king_walk_majority(w, at, captured, crowned); break;
	default: king_walk_crown_mid_majority(w, at, captured, crowned); break;
	}
}

static void man_walk_rules(VariantWalk *w, unsigned rules, int at, Bitboard captured)
{
	switch (rules) {
	case 0: man_walk_free(w, at, captured); break;
	case RULE_CROWN_MID: man_walk_crown_mid(w, at, captured); break;
	case RULE_MAJORITY: man_walk_majority(w, at, captured); break;
	default: man_walk_crown_mid_majority(w, at, captured); break;
	}
}

static void walk_init(VariantWalk *w, const Position *p)
{
	const VariantRules *r = variant_rules(position_variant(p));
	w->rules = (r->crown_mid_capture ? RULE_CROWN_MID : 0u) | (r->majority_capture ? RULE_MAJORITY : 0u);
	w->opponents = p->pieces[color_other(p->side)];
	w->crown = position_crown_row(p->side);
	w->best = 0;
	w->route.target = NULL;
	w->route.path_count = 0;
	w->route.depth = 0;
}

static void walk_piece(VariantWalk *w, const Position *p, int from)
{
	w->from = from;
	w->first = w->list ? w->list->count : 0;
	w->occupied = position_occupied(p) & ~bb_square(from);
	if (p->kings & bb_square(from))
		king_walk_rules(w, w->rules, from, 0, false);
	else
		man_walk_rules(w, w->rules, from, 0);
}

/* The pieces of the side to move that have a first jump: a man next to a
 * victim with an empty square behind it, a king that sees one. Only they
 * are walked. */
static Bitboard pieces_that_capture(const Position *p)
{
	Color us = p->side;
	Bitboard occupied = position_occupied(p);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~occupied);
	Bitboard found = position_men(p, us) & j.any;
	for (Bitboard b = position_kings(p, us); b; b &= b - 1) {
		Bitboard targets = 0;
		if (king_capture_dirs(KING_FLYING, bb_lowest(b), occupied, &j, &targets))
			found |= b & -b;
	}
	return found;
}

int movegen_variant_captures(const Position *p, MoveList *list)
{
	VariantWalk w;
	walk_init(&w, p);
	w.list = list;
	list->count = 0;
	for (Bitboard b = pieces_that_capture(p); b; b &= b - 1)
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
