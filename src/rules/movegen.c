/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Move generation on 32-bit bitboards: men, flying kings, Turkish captures. */
#include "poolshark/movegen.h"

#include <stddef.h>

#include "capture_walk.h"

/*
 * The walks below are written once and compiled once per mode, a constant
 * in each copy: counting pays nothing for the paths' trail or for a list.
 */
static inline void trail_push(Walk *w, WalkMode mode, int square)
{
	if (mode == WALK_PATHS)
		w->route.trail[w->route.depth++] = (uint8_t)square;
}

static inline void trail_pop(Walk *w, WalkMode mode)
{
	if (mode == WALK_PATHS)
		w->route.depth--;
}

ALWAYS_INLINE void add_capture(Walk *w, WalkMode mode, int to, Bitboard captured)
{
	MoveList *list = w->list;
	Move m = {captured, (uint8_t)w->from, (uint8_t)to, 0};

	if (mode == WALK_PATHS) {
		walk_route_add(&w->route, w->from, to, captured);
		return;
	}
	if (bb_count(captured) >= w->repeat_at) {
		for (int i = w->first; i < list->count; i++)
			if (move_equal(list->moves[i], m))
				return;
	} else if (mode == WALK_COUNT) {
		w->count++;
		return;
	}
	if (list->count < MOVELIST_CAPACITY)
		list->moves[list->count++] = m;
}

static bool man_walk_list(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool man_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool king_walk_list(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool king_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs);

static inline bool man_walk_on(Walk *w, WalkMode mode, int at, Bitboard captured, unsigned dirs)
{
	switch (mode) {
	case WALK_LIST: return man_walk_list(w, at, captured, dirs);
	case WALK_COUNT: return movegen_man_walk_count(w, at, captured, dirs);
	default: return man_walk_paths(w, at, captured, dirs);
	}
}

static inline bool king_walk_on(Walk *w, WalkMode mode, int at, Bitboard captured, unsigned dirs)
{
	switch (mode) {
	case WALK_LIST: return king_walk_list(w, at, captured, dirs);
	case WALK_COUNT: return movegen_king_walk_count(w, at, captured, dirs);
	default: return king_walk_paths(w, at, captured, dirs);
	}
}

/* A man on `at` that has taken `captured` jumps on in the directions of
 * `dirs`; returns whether it could. A man that cannot ends its move. */
ALWAYS_INLINE bool man_walk(Walk *w, WalkMode mode, int at, Bitboard captured, unsigned dirs)
{
	Bitboard live = w->opponents & ~captured;
	bool jumped = false;

	for (int d = 0; d < DIR_COUNT; d++) {
		Bitboard over = bitboard_neighbors[d][at] & live;
		Bitboard land = bitboard_jumps[d][at] & w->empty;
		if (!(dirs & (1u << d)) || !over || !land)
			continue;
		int to = bb_lowest(land);
		Bitboard taken = captured | over;
		jumped = true;
		trail_push(w, mode, to);
		/* Back lies the piece just taken: no way on there. */
		if (!man_walk_on(w, mode, to, taken, DIRS_ALL & ~(1u << dir_reverse((Direction)d))))
			add_capture(w, mode, to, taken);
		trail_pop(w, mode);
	}
	return jumped;
}

/* The king on `at` jumps the first piece along d if it is a live victim
 * with an empty square behind it; returns whether it did. For each piece
 * it jumps, the landing squares from which it can jump on are the only
 * ones allowed (2.6); when none can, each landing square ends a capture. */
ALWAYS_INLINE bool king_jump(Walk *w, WalkMode mode, int at, Bitboard captured, Direction d)
{
	Bitboard victim = king_first_piece(KING_FLYING, at, d, ~w->empty) & w->opponents & ~captured;
	if (!victim)
		return false;
	Bitboard land = king_reach(KING_FLYING, bb_lowest(victim), d, ~w->empty);
	if (!land)
		return false;
	Bitboard taken = captured | victim;
	unsigned on = DIRS_ALL & ~(1u << dir_reverse(d));
	bool onward = false;
	/* A landing square with no victim left on the rays it may take is
	 * not walked: it cannot jump on. */
	Direction across1 = d == DIR_DOWN_LEFT || d == DIR_UP_RIGHT ? DIR_DOWN_RIGHT : DIR_DOWN_LEFT;
	Direction across2 = dir_reverse(across1);
	Bitboard live = w->opponents & ~taken;
	Bitboard ahead = ~0u;
	for (Bitboard b = land; b; b &= b - 1) {
		int x = bb_lowest(b);
		if (((bitboard_rays[d][x] & ahead) | bitboard_rays[across1][x] | bitboard_rays[across2][x]) &
		    live) {
			trail_push(w, mode, x);
			onward |= king_walk_on(w, mode, x, taken, on);
			trail_pop(w, mode);
		}
		if (mode != WALK_PATHS) {
			on = dirs_across(d);
			ahead = 0;
		}
	}
	if (onward)
		return true;
	if (mode == WALK_COUNT && bb_count(taken) < w->repeat_at) {
		w->count += bb_count(land); /* none of them can repeat */
		return true;
	}
	for (Bitboard b = land; b; b &= b - 1) {
		trail_push(w, mode, bb_lowest(b));
		add_capture(w, mode, bb_lowest(b), taken);
		trail_pop(w, mode);
	}
	return true;
}

/* A king on `at` that has taken `captured` jumps on in the directions of
 * `dirs`; returns whether it could. */
ALWAYS_INLINE bool king_walk(Walk *w, WalkMode mode, int at, Bitboard captured, unsigned dirs)
{
	bool jumped = false;
	if (dirs & (1u << DIR_DOWN_LEFT))
		jumped |= king_jump(w, mode, at, captured, DIR_DOWN_LEFT);
	if (dirs & (1u << DIR_DOWN_RIGHT))
		jumped |= king_jump(w, mode, at, captured, DIR_DOWN_RIGHT);
	if (dirs & (1u << DIR_UP_LEFT))
		jumped |= king_jump(w, mode, at, captured, DIR_UP_LEFT);
	if (dirs & (1u << DIR_UP_RIGHT))
		jumped |= king_jump(w, mode, at, captured, DIR_UP_RIGHT);
	return jumped;
}

static bool man_walk_list(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return man_walk(w, WALK_LIST, at, captured, dirs);
}

bool movegen_man_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return man_walk(w, WALK_COUNT, at, captured, dirs);
}

static bool man_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return man_walk(w, WALK_PATHS, at, captured, dirs);
}

static bool king_walk_list(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return king_walk(w, WALK_LIST, at, captured, dirs);
}

bool movegen_king_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return king_walk(w, WALK_COUNT, at, captured, dirs);
}

static bool king_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return king_walk(w, WALK_PATHS, at, captured, dirs);
}

/*
 * The number of captures when every capture of the men is a single jump,
 * or -1 when some jump can go on (then the sequences must be walked). A man
 * that lands after jumping in direction d could go on only in another
 * direction than back: back lies the dead piece, and the square it left is
 * the only one the jump emptied. So the board before the move decides.
 */
static int count_single_jumps(Bitboard men, const JumpSquares *j)
{
	Bitboard dl = (men & j->by_dir[DIR_DOWN_LEFT]) << 7;
	Bitboard dr = (men & j->by_dir[DIR_DOWN_RIGHT]) << 9;
	Bitboard ul = (men & j->by_dir[DIR_UP_LEFT]) >> 9;
	Bitboard ur = (men & j->by_dir[DIR_UP_RIGHT]) >> 7;
	const Bitboard *by = j->by_dir;
	Bitboard onward = (dl & (by[DIR_DOWN_LEFT] | by[DIR_DOWN_RIGHT] | by[DIR_UP_LEFT])) |
	                  (dr & (by[DIR_DOWN_LEFT] | by[DIR_DOWN_RIGHT] | by[DIR_UP_RIGHT])) |
	                  (ul & (by[DIR_DOWN_LEFT] | by[DIR_UP_LEFT] | by[DIR_UP_RIGHT])) |
	                  (ur & (by[DIR_DOWN_RIGHT] | by[DIR_UP_LEFT] | by[DIR_UP_RIGHT]));
	if (onward)
		return -1;
	return bb_count(dl) + bb_count(dr) + bb_count(ul) + bb_count(ur);
}

/* Walks the captures of the men in `jumpers` and of the kings among `mine`
 * (pieces of the side to move; `theirs` the opponent's); w->list and
 * w->mode are set by the caller. */
void movegen_walk_captures(Walk *w, Bitboard mine, Bitboard theirs, Bitboard kings, Bitboard jumpers,
                           const JumpSquares *j)
{
	Bitboard occupied = mine | theirs;
	w->opponents = theirs;
	w->route.depth = 0;
	w->repeat_at = MAN_REPEAT_AT;
	for (Bitboard b = jumpers; b; b &= b - 1) {
		w->from = bb_lowest(b);
		w->first = w->list->count;
		w->empty = ~occupied | (b & -b);
		man_walk_on(w, w->mode, w->from, 0, DIRS_ALL);
	}
	w->repeat_at = KING_REPEAT_AT;
	for (Bitboard b = mine & kings; b; b &= b - 1) {
		Bitboard targets = 0;
		unsigned dirs = king_capture_dirs(KING_FLYING, bb_lowest(b), occupied, j, &targets);
		if (!dirs)
			continue;
		w->from = bb_lowest(b);
		w->first = w->list->count;
		w->empty = ~occupied | (b & -b);
		king_walk_on(w, w->mode, w->from, 0, dirs);
	}
}

/* Lists the single jumps of the men in `jumpers`, by origin square and then
 * direction: the order in which walking the sequences would list them. */
static void add_single_jumps(MoveList *list, Bitboard jumpers, const JumpSquares *j)
{
	static const int delta[DIR_COUNT] = {7, 9, -9, -7};
	for (Bitboard b = jumpers; b; b &= b - 1) {
		int from = bb_lowest(b);
		Bitboard here = b & -b;
		for (int d = 0; d < DIR_COUNT; d++)
			if (here & j->by_dir[d])
				list->moves[list->count++] =
				    (Move){bitboard_neighbors[d][from], (uint8_t)from,
				           (uint8_t)(from + delta[d]), 0};
	}
}

/*
 * Every capture of the side to move, the men's first: set-wise when none
 * of the men's jumps can go on (see count_single_jumps()), else by walking
 * their sequences; the kings' always by walking. Returns the number of
 * captures. Pool's captures; the callers that may hold a Russian or
 * Brazilian position use all_captures() below.
 */
int movegen_pool_captures(const Position *p, MoveList *list)
{
	Color us = p->side;
	Bitboard men = position_men(p, us), kings = position_kings(p, us);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~position_occupied(p));
	Bitboard jumpers = men & j.any;

	list->count = 0;
	if (jumpers && count_single_jumps(men, &j) >= 0) {
		add_single_jumps(list, jumpers, &j);
		jumpers = 0; /* listed: only the kings are left to walk */
	}
	if (!kings && !jumpers)
		return list->count;
	Walk w = {.mode = WALK_LIST, .list = list};
	movegen_walk_captures(&w, p->pieces[us], p->pieces[color_other(us)], p->kings, jumpers, &j);
	return list->count;
}

int movegen_captures(const Position *p, MoveList *list)
{
	if (!variant_fast_path(p->variant))
		return movegen_variant_captures(p, list);
	return movegen_pool_captures(p, list);
}

bool movegen_has_capture(const Position *p)
{
	if (!variant_fast_path(p->variant))
		return movegen_variant_has_capture(p);
	Color us = p->side;
	Bitboard occupied = position_occupied(p);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~occupied);
	if (position_men(p, us) & j.any)
		return true;
	for (Bitboard b = position_kings(p, us); b; b &= b - 1) {
		Bitboard targets = 0;
		if (king_capture_dirs(KING_FLYING, bb_lowest(b), occupied, &j, &targets))
			return true;
	}
	return false;
}

static void add_steps(MoveList *list, Bitboard targets, int delta)
{
	for (; targets; targets &= targets - 1) {
		int to = bb_lowest(targets);
		Move m = {0, (uint8_t)(to - delta), (uint8_t)to, 0};
		list->moves[list->count++] = m;
	}
}

/* The quiet moves of the side to move, its kings of this kind. */
ALWAYS_INLINE int quiet_moves(const Position *p, MoveList *list, KingKind kind)
{
	Color us = p->side;
	Bitboard occupied = position_occupied(p);
	ManSteps s = man_steps(position_men(p, us), ~occupied, us);
	int sign = us == BLACK ? 1 : -1;

	list->count = 0;
	add_steps(list, s.by3, 3 * sign);
	add_steps(list, s.by4, 4 * sign);
	add_steps(list, s.by5, 5 * sign);
	for (Bitboard b = position_kings(p, us); b; b &= b - 1) {
		int from = bb_lowest(b);
		for (Bitboard t = king_quiet_targets(kind, from, occupied); t; t &= t - 1) {
			Move m = {0, (uint8_t)from, (uint8_t)bb_lowest(t), 0};
			list->moves[list->count++] = m;
		}
	}
	return list->count;
}

int movegen_generate_pool(const Position *p, MoveList *list)
{
	if (movegen_pool_captures(p, list))
		return list->count;
	return quiet_moves(p, list, KING_FLYING);
}

/* movegen_generate() of a position whose rules are not pool's; out of
 * line, so that pool's keeps its code. */
NEVER_INLINE int variant_generate(const Position *p, MoveList *list)
{
	if (movegen_variant_captures(p, list))
		return list->count;
	if (variant_rules(position_variant(p))->kings_fly)
		return quiet_moves(p, list, KING_FLYING);
	return quiet_moves(p, list, KING_SHORT);
}

int movegen_generate(const Position *p, MoveList *list)
{
	if (!variant_fast_path(p->variant))
		return variant_generate(p, list);
	return movegen_generate_pool(p, list);
}

bool movegen_has_quiet(const Position *p)
{
	Bitboard empty = ~position_occupied(p);
	/* Squares with an empty square one step below them, or above them. */
	Bitboard below = bb_step_up_left(empty) | bb_step_up_right(empty);
	Bitboard above = bb_step_down_left(empty) | bb_step_down_right(empty);
	Bitboard ahead = p->side == BLACK ? below : above;
	return (position_men(p, p->side) & ahead) || (position_kings(p, p->side) & (below | above));
}

bool movegen_has_moves(const Position *p)
{
	return movegen_has_quiet(p) || movegen_has_capture(p);
}

int movegen_paths(const Position *p, Move m, MovePath *paths, int max)
{
	Color us = p->side;
	Bitboard from = bb_square(m.from);
	Walk w = {
	    .mode = WALK_PATHS,
	    .opponents = p->pieces[color_other(us)],
	    .empty = ~position_occupied(p) | from,
	    .from = m.from,
	    .route = {.target = &m, .paths = paths, .path_max = max},
	};

	if (!(p->pieces[us] & from) || !m.captured)
		return 0;
	if (!variant_fast_path(p->variant))
		return movegen_variant_paths(p, m, paths, max);
	if (p->kings & from)
		king_walk_paths(&w, m.from, 0, DIRS_ALL);
	else
		man_walk_paths(&w, m.from, 0, DIRS_ALL);
	return w.route.path_count;
}

bool movegen_is_legal(const Position *p, Move m)
{
	MoveList list;
	int n = movegen_generate(p, &list);
	for (int i = 0; i < n; i++)
		if (move_equal(list.moves[i], m))
			return true;
	return false;
}
