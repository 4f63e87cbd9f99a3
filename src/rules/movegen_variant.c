/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Captures of the rule sets other than pool's, compiled once per rule. */
#include <stddef.h>

#include "capture_walk.h"
#include "poolshark/variant.h"

/*
 * movegen.c answers for every variant; the captures of a position whose
 * rules are not pool's come here, so that pool's generator has no test of
 * a variant inside its walks. The walk is chosen by the fields of the
 * position's VariantRules, one copy compiled for each rule set's fields so
 * that the rules are constants inside it:
 * - crown_mid_capture: a man that lands on its crowning row during a
 *   capture is crowned at once and goes on capturing as a flying king (the
 *   move then carries `crowned` when it ends off that row); without it a
 *   man on that row stays a man (and one that captures forward only has
 *   nowhere to go on: its move ends there, crowned by the make);
 * - kings_fly: a king sees along its whole diagonal, else one square;
 * - men_capture_back, men_take_kings: the men's jumps and victims;
 * - priority: each capture gets a key (capture_key()), and only those with
 *   the highest key on the board are legal.
 * Always: complete sequences, Turkish strike, one move per (from, to,
 * captured set), a flying king landing only where it can go on when it can.
 */

/* The rules a walk is compiled for: a set of these bits and a priority. */
enum {
	RULE_CROWN_MID = 1u,
	RULE_SHORT_KINGS = 2u,
	RULE_MEN_FORWARD = 4u,
	RULE_MEN_SPARE_KINGS = 8u,
	RULE_PRIORITY_SHIFT = 4
};

#define RULE_PRIORITY(rules) ((CapturePriority)((rules) >> RULE_PRIORITY_SHIFT))

/* The walks of the rule sets, as rules_of() builds them from the table. */
enum {
	RULES_RUSSIAN = RULE_CROWN_MID,
	RULES_BRAZILIAN = CAPTURE_MOST_PIECES << RULE_PRIORITY_SHIFT,
	RULES_ENGLISH = RULE_SHORT_KINGS | RULE_MEN_FORWARD,
	RULES_ITALIAN = RULE_SHORT_KINGS | RULE_MEN_FORWARD | RULE_MEN_SPARE_KINGS |
	                CAPTURE_ITALIAN << RULE_PRIORITY_SHIFT,
	RULES_SPANISH = RULE_MEN_FORWARD | CAPTURE_PIECES_KINGS << RULE_PRIORITY_SHIFT,
	RULES_CZECH = RULE_MEN_FORWARD | CAPTURE_KING_FIRST << RULE_PRIORITY_SHIFT
};

/* Italian 6.9 compares the order in which kings were taken: bit
 * ORDER_FIRST - k is set when the k-th piece taken (from 0) is a king, so
 * that the capture meeting a king first has the greater order. */
enum { ORDER_FIRST = 11 };
_Static_assert(ORDER_FIRST + 1 >= MOVEPATH_MAX - 1, "one bit of order per piece a capture can take");

/* One capture search: fixed for the whole move of one piece. */
typedef struct VariantWalk {
	MoveList *list;
	Bitboard opponents; /* every opponent piece, captured or not */
	Bitboard occupied;  /* every piece except the capturing one */
	Bitboard crown;     /* the row on which the mover's men crown */
	Bitboard their_kings;
	unsigned man_dirs; /* the directions in which the mover's men capture */
	int from;
	bool king;      /* the capturing piece is a king (it was at the start) */
	int first;      /* index of this piece's first move in list */
	uint32_t best;  /* the highest capture_key() among the listed captures */
	uint32_t order; /* Italian 6.9: the kings met so far on this route */
	unsigned rules; /* RULE_ bits: the walk that the position's rules call for */
	/* Path mode (route.target set): collect the routes of the target
	 * instead of listing moves. */
	WalkRoute route;
} VariantWalk;

/* How a capture ranks under the priority; 0 for every capture under free
 * choice. Fields from the most significant: pieces, by a king, kings,
 * the order in which kings were met. */
ALWAYS_INLINE uint32_t capture_key(const VariantWalk *w, CapturePriority priority, Bitboard captured)
{
	uint32_t pieces = (uint32_t)bb_count(captured), kings = (uint32_t)bb_count(captured & w->their_kings);
	switch (priority) {
	case CAPTURE_MOST_PIECES: return pieces;
	case CAPTURE_PIECES_KINGS: return pieces << 4 | kings;
	case CAPTURE_ITALIAN: return pieces << 24 | (uint32_t)w->king << 20 | kings << 16 | w->order;
	case CAPTURE_KING_FIRST: return w->king;
	case CAPTURE_FREE:
	default: return 0;
	}
}

ALWAYS_INLINE void add_capture(VariantWalk *w, unsigned rules, int to, Bitboard captured, bool crowned)
{
	if (w->route.target) {
		walk_route_add(&w->route, w->from, to, captured);
		return;
	}
	MoveList *list = w->list;
	CapturePriority priority = RULE_PRIORITY(rules);
	if (priority != CAPTURE_FREE) {
		/* One pass: a capture of a higher key empties the list of
		 * lower ones, a lower one is never listed. A move reached by
		 * routes of different keys is listed for its best. */
		uint32_t key = capture_key(w, priority, captured);
		if (key < w->best)
			return;
		if (key > w->best) {
			w->best = key;
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

/* The squares a king of this kind on `at` may land on after jumping in d,
 * or 0; the jumped piece goes to *victim. Captured pieces block and cannot
 * be jumped again (the Turkish strike). */
ALWAYS_INLINE Bitboard king_landings(KingKind kind, Bitboard occupied, Bitboard opponents, int at,
                                     Direction d, Bitboard captured, Bitboard *victim)
{
	*victim = king_first_piece(kind, at, d, occupied);
	if (!(*victim & opponents & ~captured))
		return 0;
	return king_reach(kind, bb_lowest(*victim), d, occupied);
}

static bool king_can_jump(Bitboard occupied, Bitboard opponents, int at, Bitboard captured)
{
	Bitboard victim;
	for (int d = 0; d < DIR_COUNT; d++)
		if (king_landings(KING_FLYING, occupied, opponents, at, (Direction)d, captured, &victim))
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
 * `captured`. A flying king must land where it can go on capturing when
 * such a square exists; under a priority that only drops captures that
 * rank lower, so every rule set walks the same way. A short king has one
 * landing square. */
ALWAYS_INLINE void king_walk(VariantWalk *w, unsigned rules, int at, Bitboard captured, bool crowned)
{
	KingKind kind = (rules & RULE_SHORT_KINGS) && !crowned ? KING_SHORT : KING_FLYING;
	bool jumped = false;
	for (int d = 0; d < DIR_COUNT; d++) {
		Bitboard victim = 0;
		Bitboard land =
		    king_landings(kind, w->occupied, w->opponents, at, (Direction)d, captured, &victim);
		if (!land)
			continue;
		jumped = true;
		Bitboard taken = captured | victim;
		uint32_t order = w->order;
		if (RULE_PRIORITY(rules) == CAPTURE_ITALIAN && (victim & w->their_kings))
			w->order |= 1u << (ORDER_FIRST - bb_count(captured));
		Bitboard onward = 0;
		if (kind == KING_FLYING)
			for (Bitboard b = land; b; b &= b - 1)
				if (king_can_jump(w->occupied, w->opponents, bb_lowest(b), taken))
					onward |= b & -b;
		for (Bitboard b = onward ? onward : land; b; b &= b - 1) {
			trail_push(w, bb_lowest(b));
			if (onward || kind == KING_SHORT)
				king_walk_rules(w, rules, bb_lowest(b), taken, crowned);
			else
				add_capture(w, rules, bb_lowest(b), taken, crowned);
			w->route.depth--;
		}
		w->order = order;
	}
	if (!jumped && captured)
		add_capture(w, rules, at, captured, crowned);
}

/* A man on `at` having taken `captured`: jumps in the men's directions. */
ALWAYS_INLINE void man_walk(VariantWalk *w, unsigned rules, int at, Bitboard captured)
{
	Bitboard victims = w->opponents & ~captured, empty = ~w->occupied;
	if (rules & RULE_MEN_SPARE_KINGS)
		victims &= ~w->their_kings;
	bool jumped = false;
	for (int d = 0; d < DIR_COUNT; d++) {
		if ((rules & RULE_MEN_FORWARD) && !(w->man_dirs & (1u << d)))
			continue;
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
		add_capture(w, rules, at, captured, false);
}

/* One copy of each walk per rule set; any other set of rules (none in the
 * table today) takes the copy that reads them at run time. */
#define RULE_SET_WALKS(name, set)                                                                            \
	static void king_walk_##name(VariantWalk *w, int at, Bitboard captured, bool crowned)                \
	{                                                                                                    \
		king_walk(w, set, at, captured, crowned);                                                    \
	}                                                                                                    \
	static void man_walk_##name(VariantWalk *w, int at, Bitboard captured)                               \
	{                                                                                                    \
		man_walk(w, set, at, captured);                                                              \
	}

RULE_SET_WALKS(russian, RULES_RUSSIAN)
RULE_SET_WALKS(brazilian, RULES_BRAZILIAN)
RULE_SET_WALKS(english, RULES_ENGLISH)
RULE_SET_WALKS(italian, RULES_ITALIAN)
RULE_SET_WALKS(spanish, RULES_SPANISH)
RULE_SET_WALKS(czech, RULES_CZECH)

static void king_walk_any(VariantWalk *w, unsigned rules, int at, Bitboard captured, bool crowned)
{
	king_walk(w, rules, at, captured, crowned);
}

static void man_walk_any(VariantWalk *w, unsigned rules, int at, Bitboard captured)
{
	man_walk(w, rules, at, captured);
}

static void king_walk_rules(VariantWalk *w, unsigned rules, int at, Bitboard captured, bool crowned)
{
	switch (rules) {
	case RULES_RUSSIAN: king_walk_russian(w, at, captured, crowned); break;
	case RULES_BRAZILIAN: king_walk_brazilian(w, at, captured, crowned); break;
	case RULES_ENGLISH: king_walk_english(w, at, captured, crowned); break;
	case RULES_ITALIAN: king_walk_italian(w, at, captured, crowned); break;
	case RULES_SPANISH: king_walk_spanish(w, at, captured, crowned); break;
	case RULES_CZECH: king_walk_czech(w, at, captured, crowned); break;
	default: king_walk_any(w, rules, at, captured, crowned); break;
	}
}

static void man_walk_rules(VariantWalk *w, unsigned rules, int at, Bitboard captured)
{
	switch (rules) {
	case RULES_RUSSIAN: man_walk_russian(w, at, captured); break;
	case RULES_BRAZILIAN: man_walk_brazilian(w, at, captured); break;
	case RULES_ENGLISH: man_walk_english(w, at, captured); break;
	case RULES_ITALIAN: man_walk_italian(w, at, captured); break;
	case RULES_SPANISH: man_walk_spanish(w, at, captured); break;
	case RULES_CZECH: man_walk_czech(w, at, captured); break;
	default: man_walk_any(w, rules, at, captured); break;
	}
}

/* The RULE_ bits of a rule set's fields. */
static unsigned rules_of(const VariantRules *r)
{
	return (r->crown_mid_capture ? RULE_CROWN_MID : 0u) | (r->kings_fly ? 0u : RULE_SHORT_KINGS) |
	       (r->men_capture_back ? 0u : RULE_MEN_FORWARD) |
	       (r->men_take_kings ? 0u : RULE_MEN_SPARE_KINGS) | (unsigned)r->priority << RULE_PRIORITY_SHIFT;
}

/* The directions in which the men of `us` move: down for Black. */
static unsigned forward_dirs(Color us)
{
	return us == BLACK ? (1u << DIR_DOWN_LEFT) | (1u << DIR_DOWN_RIGHT)
	                   : (1u << DIR_UP_LEFT) | (1u << DIR_UP_RIGHT);
}

static void walk_init(VariantWalk *w, const Position *p)
{
	w->rules = rules_of(variant_rules(position_variant(p)));
	w->opponents = p->pieces[color_other(p->side)];
	w->their_kings = w->opponents & p->kings;
	w->man_dirs = w->rules & RULE_MEN_FORWARD ? forward_dirs(p->side) : DIRS_ALL;
	w->crown = position_crown_row(p->side);
	w->best = 0;
	w->order = 0;
	w->route.target = NULL;
	w->route.path_count = 0;
	w->route.depth = 0;
}

static void walk_piece(VariantWalk *w, const Position *p, int from)
{
	w->from = from;
	w->first = w->list ? w->list->count : 0;
	w->occupied = position_occupied(p) & ~bb_square(from);
	w->king = (p->kings & bb_square(from)) != 0;
	if (w->king)
		king_walk_rules(w, w->rules, from, 0, false);
	else
		man_walk_rules(w, w->rules, from, 0);
}

/* The pieces of the side to move that have a first jump: a man next to a
 * victim it may take, in a direction it may take it, with an empty square
 * behind; a king that sees one. Only they are walked. */
static Bitboard pieces_that_capture(const Position *p)
{
	const VariantRules *r = variant_rules(position_variant(p));
	Color us = p->side;
	Bitboard occupied = position_occupied(p), theirs = p->pieces[color_other(us)];
	JumpSquares j = jump_squares(theirs, ~occupied);
	JumpSquares by_men = r->men_take_kings ? j : jump_squares(theirs & ~p->kings, ~occupied);
	Bitboard found;
	if (r->men_capture_back)
		found = position_men(p, us) & by_men.any;
	else if (us == BLACK)
		found = position_men(p, us) & (by_men.by_dir[DIR_DOWN_LEFT] | by_men.by_dir[DIR_DOWN_RIGHT]);
	else
		found = position_men(p, us) & (by_men.by_dir[DIR_UP_LEFT] | by_men.by_dir[DIR_UP_RIGHT]);
	KingKind kind = r->kings_fly ? KING_FLYING : KING_SHORT;
	for (Bitboard b = position_kings(p, us); b; b &= b - 1) {
		Bitboard targets = 0;
		if (kind == KING_FLYING ? king_capture_dirs(KING_FLYING, bb_lowest(b), occupied, &j, &targets)
		                        : king_capture_dirs(KING_SHORT, bb_lowest(b), occupied, &j, &targets))
			found |= b & -b;
	}
	return found;
}

bool movegen_variant_has_capture(const Position *p)
{
	return pieces_that_capture(p) != 0;
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
