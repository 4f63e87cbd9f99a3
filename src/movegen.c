/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Move generation on 32-bit bitboards: men, flying kings, Turkish captures. */
#include "poolshark/movegen.h"

#include <stddef.h>

#include "poolshark/movegen_variant.h"

/* For bodies compiled once per constant argument (a walk's mode, a
 * direction): inlining them is the point. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))
/* For a rare path kept out of a hot caller's frame. */
#define NEVER_INLINE static __attribute__((noinline))

/* Sets of directions: bit d stands for Direction d. */
enum { DIRS_ALL = (1u << DIR_COUNT) - 1 };

/* The direction back along d's diagonal. */
static inline Direction dir_reverse(Direction d)
{
	return (Direction)(DIR_UP_RIGHT - d);
}

/* Both directions of the other diagonal through a square. */
static inline unsigned dirs_across(Direction d)
{
	return d == DIR_DOWN_LEFT || d == DIR_UP_RIGHT ? (1u << DIR_DOWN_RIGHT) | (1u << DIR_UP_LEFT)
	                                               : (1u << DIR_DOWN_LEFT) | (1u << DIR_UP_RIGHT);
}

/* The empty squares a king on s reaches along d before the first piece. */
static inline Bitboard ray_slide(int s, Direction d, Bitboard occupied)
{
	Bitboard ray = bitboard_rays[d][s], hit = ray & occupied;
	if (dir_is_down(d))
		return ray & ((hit & -hit) - 1); /* below the nearest piece, or all */
	return hit ? ray & ~((bb_square(bb_highest(hit)) << 1) - 1) : ray;
}

/*
 * One capture walk: every sequence of one piece, depth first, directions in
 * Direction order and landing squares in square order. The board is fixed
 * for the whole move: taken pieces stay and block (2.7), and the mover's
 * origin counts as empty (2.8).
 */
typedef enum WalkMode {
	WALK_LIST,  /* list each capture once */
	WALK_COUNT, /* count them; list only those that two routes may reach */
	WALK_PATHS  /* collect every route of one target capture (notation) */
} WalkMode;

typedef struct Walk {
	WalkMode mode;
	MoveList *list;
	Bitboard opponents; /* every opponent piece, taken or not */
	Bitboard empty;     /* the empty squares and the mover's origin */
	int from;
	int first;     /* index of this piece's first listed move */
	int repeat_at; /* fewest pieces taken by a capture that two routes may reach */
	int count;     /* WALK_COUNT: the captures not listed */
	const Move *target;
	MovePath *paths;
	int path_count, path_max;
	int depth; /* landing squares so far, in trail */
	uint8_t trail[MOVEPATH_MAX];
} Walk;

/*
 * Two routes reach one capture (2.11) only by going round a cycle of the
 * board's diagonals, so only long captures need the duplicate check. A man's
 * jumps are edges of a grid whose shortest cycle has four; a king that lands
 * on one of several squares is walked on from the first of them in every
 * direction, and from the others only across (the way on along the same
 * diagonal is the same from each), which leaves no repeat below three.
 */
enum { MAN_REPEAT_AT = 4, KING_REPEAT_AT = 3 };

static void add_path(Walk *w, int to, Bitboard captured)
{
	if (to != w->target->to || captured != w->target->captured)
		return;
	if (w->path_count < w->path_max) {
		MovePath *path = &w->paths[w->path_count];
		path->length = w->depth + 1;
		path->squares[0] = (uint8_t)w->from;
		for (int i = 0; i < w->depth; i++)
			path->squares[i + 1] = w->trail[i];
	}
	w->path_count++;
}

/*
 * The walks below are written once and compiled once per mode, a constant
 * in each copy: counting pays nothing for the paths' trail or for a list.
 */
static inline void trail_push(Walk *w, WalkMode mode, int square)
{
	if (mode == WALK_PATHS)
		w->trail[w->depth++] = (uint8_t)square;
}

static inline void trail_pop(Walk *w, WalkMode mode)
{
	if (mode == WALK_PATHS)
		w->depth--;
}

ALWAYS_INLINE void add_capture(Walk *w, WalkMode mode, int to, Bitboard captured)
{
	MoveList *list = w->list;
	Move m = {captured, (uint8_t)w->from, (uint8_t)to, 0};

	if (mode == WALK_PATHS) {
		add_path(w, to, captured);
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
static bool man_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool man_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool king_walk_list(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool king_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs);
static bool king_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs);

static inline bool man_walk_on(Walk *w, WalkMode mode, int at, Bitboard captured, unsigned dirs)
{
	switch (mode) {
	case WALK_LIST: return man_walk_list(w, at, captured, dirs);
	case WALK_COUNT: return man_walk_count(w, at, captured, dirs);
	default: return man_walk_paths(w, at, captured, dirs);
	}
}

static inline bool king_walk_on(Walk *w, WalkMode mode, int at, Bitboard captured, unsigned dirs)
{
	switch (mode) {
	case WALK_LIST: return king_walk_list(w, at, captured, dirs);
	case WALK_COUNT: return king_walk_count(w, at, captured, dirs);
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
	Bitboard hit = bitboard_rays[d][at] & ~w->empty;
	if (!hit)
		return false;
	int v = dir_is_down(d) ? bb_lowest(hit) : bb_highest(hit);
	Bitboard victim = bb_square(v);
	if (!(victim & w->opponents & ~captured) || !(bitboard_neighbors[d][v] & w->empty))
		return false;
	Bitboard land = ray_slide(v, d, ~w->empty);
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

static bool man_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs)
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

static bool king_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return king_walk(w, WALK_COUNT, at, captured, dirs);
}

static bool king_walk_paths(Walk *w, int at, Bitboard captured, unsigned dirs)
{
	return king_walk(w, WALK_PATHS, at, captured, dirs);
}

/* Squares from which a man could jump, by direction: the square one step
 * away holds a victim and the square two steps away is empty. */
typedef struct JumpSquares {
	Bitboard by_dir[DIR_COUNT];
	Bitboard any;
} JumpSquares;

static inline JumpSquares jump_squares(Bitboard victims, Bitboard empty)
{
	/* Two steps along one diagonal shift by 7 or 9 whatever the row, so
	 * the landing test is one shift; k = bit % 4 decides the edges: a
	 * double step left needs k >= 1, a double step right k <= 2. The same
	 * masks drop what a single step by row parity would carry across an
	 * edge, so the victims need no edge masks of their own. */
	const Bitboard not_k0 = ~0x11111111u, not_k3 = ~0x88888888u;
	Bitboard even = victims & BB_EVEN_ROWS, odd = victims & BB_ODD_ROWS;
	JumpSquares j;
	j.by_dir[DIR_DOWN_LEFT] = not_k0 & (empty >> 7) & ((even >> 3) | (odd >> 4));
	j.by_dir[DIR_DOWN_RIGHT] = not_k3 & (empty >> 9) & ((even >> 4) | (odd >> 5));
	j.by_dir[DIR_UP_LEFT] = not_k0 & (empty << 9) & ((even << 5) | (odd << 4));
	j.by_dir[DIR_UP_RIGHT] = not_k3 & (empty << 7) & ((even << 4) | (odd << 3));
	j.any = j.by_dir[0] | j.by_dir[1] | j.by_dir[2] | j.by_dir[3];
	return j;
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

/* Along d from the king on s: the empty squares it slides to are added to
 * *targets, and the result is d's bit when it captures that way, which is
 * when the last square before the first piece is one a man could jump from. */
static inline unsigned king_ray(int s, Direction d, Bitboard occupied, const JumpSquares *j,
                                Bitboard *targets)
{
	Bitboard slide = ray_slide(s, d, occupied);
	*targets |= slide;
	return ((slide | bb_square(s)) & j->by_dir[d]) ? 1u << d : 0;
}

/* The directions in which the king on s captures; its quiet targets are
 * added to *targets. */
static inline unsigned king_capture_dirs(int s, Bitboard occupied, const JumpSquares *j, Bitboard *targets)
{
	return king_ray(s, DIR_DOWN_LEFT, occupied, j, targets) |
	       king_ray(s, DIR_DOWN_RIGHT, occupied, j, targets) |
	       king_ray(s, DIR_UP_LEFT, occupied, j, targets) |
	       king_ray(s, DIR_UP_RIGHT, occupied, j, targets);
}

/* Walks the captures of the men in `jumpers` and of the kings among `mine`
 * (pieces of the side to move; `theirs` the opponent's); w->list and
 * w->mode are set by the caller. */
static void walk_captures(Walk *w, Bitboard mine, Bitboard theirs, Bitboard kings, Bitboard jumpers,
                          const JumpSquares *j)
{
	Bitboard occupied = mine | theirs;
	w->opponents = theirs;
	w->depth = 0;
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
		unsigned dirs = king_capture_dirs(bb_lowest(b), occupied, j, &targets);
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
 * Every capture of the side to move: set-wise when it has no king and no
 * jump of its men can go on (see count_single_jumps()), else by walking
 * the sequences. Returns the number of captures. Pool's captures; the
 * callers that may hold a Russian or Brazilian position use
 * all_captures() below.
 */
static int pool_captures(const Position *p, MoveList *list)
{
	Color us = p->side;
	Bitboard men = position_men(p, us), kings = position_kings(p, us);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~position_occupied(p));
	Bitboard jumpers = men & j.any;

	list->count = 0;
	if (!kings) {
		if (!jumpers)
			return 0;
		if (count_single_jumps(men, &j) >= 0) {
			add_single_jumps(list, jumpers, &j);
			return list->count;
		}
	}
	Walk w = {.mode = WALK_LIST, .list = list};
	walk_captures(&w, p->pieces[us], p->pieces[color_other(us)], p->kings, jumpers, &j);
	return list->count;
}

/* The captures of any variant: pool's above, or movegen_variant.c's. */
static int all_captures(const Position *p, MoveList *list)
{
	if (p->variant != VARIANT_POOL)
		return movegen_variant_captures(p, list);
	return pool_captures(p, list);
}

int movegen_captures(const Position *p, MoveList *list)
{
	return all_captures(p, list);
}

bool movegen_has_capture(const Position *p)
{
	Color us = p->side;
	Bitboard occupied = position_occupied(p);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~occupied);
	if (position_men(p, us) & j.any)
		return true;
	for (Bitboard b = position_kings(p, us); b; b &= b - 1) {
		Bitboard targets = 0;
		if (king_capture_dirs(bb_lowest(b), occupied, &j, &targets))
			return true;
	}
	return false;
}

/* Quiet man moves split by shift: to = from + shift (Black), from - shift (White). */
typedef struct ManSteps {
	Bitboard by3, by4, by5; /* destination squares */
} ManSteps;

static inline ManSteps man_steps(Bitboard men, Bitboard empty, Color us)
{
	ManSteps s;
	if (us == BLACK) {
		s.by4 = (men << 4) & empty;
		s.by3 = ((men & BB_ODD_ROWS & ~BB_LEFT_EDGE) << 3) & empty;
		s.by5 = ((men & BB_EVEN_ROWS & ~BB_RIGHT_EDGE) << 5) & empty;
	} else {
		s.by4 = (men >> 4) & empty;
		s.by3 = ((men & BB_EVEN_ROWS & ~BB_RIGHT_EDGE) >> 3) & empty;
		s.by5 = ((men & BB_ODD_ROWS & ~BB_LEFT_EDGE) >> 5) & empty;
	}
	return s;
}

static inline Bitboard king_quiet_targets(int s, Bitboard occupied)
{
	return ray_slide(s, DIR_DOWN_LEFT, occupied) | ray_slide(s, DIR_DOWN_RIGHT, occupied) |
	       ray_slide(s, DIR_UP_LEFT, occupied) | ray_slide(s, DIR_UP_RIGHT, occupied);
}

static void add_steps(MoveList *list, Bitboard targets, int delta)
{
	for (; targets; targets &= targets - 1) {
		int to = bb_lowest(targets);
		Move m = {0, (uint8_t)(to - delta), (uint8_t)to, 0};
		list->moves[list->count++] = m;
	}
}

static int quiet_moves(const Position *p, MoveList *list)
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
		for (Bitboard t = king_quiet_targets(from, occupied); t; t &= t - 1) {
			Move m = {0, (uint8_t)from, (uint8_t)bb_lowest(t), 0};
			list->moves[list->count++] = m;
		}
	}
	return list->count;
}

int movegen_generate_pool(const Position *p, MoveList *list)
{
	if (pool_captures(p, list))
		return list->count;
	return quiet_moves(p, list);
}

int movegen_generate(const Position *p, MoveList *list)
{
	if (all_captures(p, list))
		return list->count;
	return quiet_moves(p, list);
}

static inline int men_quiet_count(Bitboard men, Bitboard empty, Color us)
{
	ManSteps s = man_steps(men, empty, us);
	return bb_count(s.by3) + bb_count(s.by4) + bb_count(s.by5);
}

/* Every set bit moved two steps along d, as a man's jump lands. */
static inline Bitboard jump_step(Bitboard b, Direction d)
{
	static const int shift[DIR_COUNT] = {7, 9, 9, 7};
	return dir_is_down(d) ? b << shift[d] : b >> shift[d];
}

/* Whether a man on a square of `land` that came along d might jump a
 * fourth time: the square it started from (some man's) is empty by then. */
static bool jumps_on_after_three(Bitboard land, Direction d, Bitboard men, Bitboard theirs, Bitboard empty)
{
	JumpSquares j = jump_squares(theirs, empty | men);
	for (int e = 0; e < DIR_COUNT; e++)
		if (e != (int)dir_reverse(d) && (land & j.by_dir[e]))
			return true;
	return false;
}

/* The squares from which a man that came along d jumps on: it may jump
 * in every direction but back. */
static inline Bitboard jumps_on(const JumpSquares *j, Direction d)
{
	Direction back = dir_reverse(d);
	return j->by_dir[(back + 1) % DIR_COUNT] | j->by_dir[(back + 2) % DIR_COUNT] |
	       j->by_dir[(back + 3) % DIR_COUNT];
}

/* Counting state of count_men_captures(). */
typedef struct MenCount {
	const JumpSquares *j;
	Bitboard men, theirs, empty;
	bool walk; /* some man may jump four times: walk them */
} MenCount;

/* Third jumps of the sequences on `at` (one bit each) that came along d. */
static int men_third_jumps(MenCount *c, Bitboard at, Direction d)
{
	int n = 0;
	for (int e = 0; e < DIR_COUNT; e++) {
		if (e == (int)dir_reverse(d))
			continue;
		Bitboard land = jump_step(at & c->j->by_dir[e], (Direction)e);
		if (land && jumps_on_after_three(land, (Direction)e, c->men, c->theirs, c->empty))
			c->walk = true;
		n += bb_count(land);
	}
	return n;
}

/* Second jumps along e of the sequences on `at` (one bit each). */
ALWAYS_INLINE int men_second_jumps(MenCount *c, Bitboard at, Direction e)
{
	Bitboard land = jump_step(at & c->j->by_dir[e], e);
	Bitboard more = land & jumps_on(c->j, e);
	return bb_count(land ^ more) + (more ? men_third_jumps(c, more, e) : 0);
}

/* First jumps along d, and all that follows them. */
ALWAYS_INLINE int men_first_jumps(MenCount *c, Direction d)
{
	Bitboard land = jump_step(c->men & c->j->by_dir[d], d);
	Bitboard more = land & jumps_on(c->j, d);
	int n = bb_count(land ^ more);
	if (!more)
		return n;
	Direction back = dir_reverse(d);
	for (int k = 1; k < DIR_COUNT; k++)
		n += men_second_jumps(c, more, (Direction)((back + k) % DIR_COUNT));
	return n;
}

/*
 * The captures of the men, counted set-wise, or -1 when some man might jump
 * four times (then they must be walked). For up to three jumps the board
 * before the move decides everything: the pieces taken lie behind the man
 * or off its way, and the square it left is never a landing square within
 * three jumps (that takes a loop of four). So each man's sequences are
 * followed as sets by the direction of each jump, one bit per sequence,
 * and a sequence ends where its landing square has no jump but back.
 */
static int count_men_captures(Bitboard men, Bitboard theirs, Bitboard empty, const JumpSquares *j)
{
	MenCount c = {j, men, theirs, empty, false};
	int n = men_first_jumps(&c, DIR_DOWN_LEFT) + men_first_jumps(&c, DIR_DOWN_RIGHT) +
	        men_first_jumps(&c, DIR_UP_LEFT) + men_first_jumps(&c, DIR_UP_RIGHT);
	return c.walk ? -1 : n;
}

/* The captures of men only, when some jump goes on. */
static int count_men_only_captures(Bitboard men, Bitboard theirs, const JumpSquares *j)
{
	Bitboard empty = ~(men | theirs);
	int n = count_men_captures(men, theirs, empty, j);
	if (n >= 0)
		return n;
	MoveList list;
	Walk w = {.mode = WALK_COUNT, .list = &list};
	list.count = 0;
	walk_captures(&w, men, theirs, 0, men & j->any, j);
	return w.count + list.count;
}

/* The captures of a side whose capturing kings are known: walks them and
 * counts the men's captures. */
static int count_known_captures(Bitboard mine, Bitboard theirs, Bitboard kings, const JumpSquares *j,
                                const int *squares, const unsigned *dirs, int n)
{
	Bitboard occupied = mine | theirs, men = mine & ~kings;
	MoveList list;
	Walk w;
	w.mode = WALK_COUNT; /* which reads only what is set here and per piece */
	w.list = &list;
	w.opponents = theirs;
	w.repeat_at = KING_REPEAT_AT;
	w.count = 0;
	list.count = 0;
	for (int i = 0; i < n; i++) {
		w.from = squares[i];
		w.first = list.count;
		w.empty = ~occupied | bb_square(w.from);
		king_walk_count(&w, w.from, 0, dirs[i]);
	}
	int men_captures = men & j->any ? count_men_captures(men, theirs, ~occupied, j) : 0;
	if (men_captures >= 0)
		return men_captures + w.count + list.count;
	w.repeat_at = MAN_REPEAT_AT;
	for (Bitboard b = men & j->any; b; b &= b - 1) {
		w.from = bb_lowest(b);
		w.first = list.count;
		w.empty = ~occupied | (b & -b);
		man_walk_count(&w, w.from, 0, DIRS_ALL);
	}
	return w.count + list.count;
}

/*
 * The moves of a side with kings. Each king's slides give both its quiet
 * moves and the directions in which it captures.
 */
static int count_with_kings(Bitboard mine, Bitboard theirs, Bitboard kings, Color us)
{
	Bitboard occupied = mine | theirs, men = mine & ~kings;
	JumpSquares j = jump_squares(theirs, ~occupied);
	int squares[SQUARE_COUNT];
	unsigned dirs[SQUARE_COUNT];
	int quiet = 0, capturing = 0;

	for (Bitboard b = mine & kings; b; b &= b - 1) {
		Bitboard targets = 0;
		int s = bb_lowest(b);
		dirs[capturing] = king_capture_dirs(s, occupied, &j, &targets);
		if (dirs[capturing])
			squares[capturing++] = s;
		quiet += bb_count(targets);
	}
	if (capturing || (men & j.any))
		return count_known_captures(mine, theirs, kings, &j, squares, dirs, capturing);
	return quiet + men_quiet_count(men, ~occupied, us);
}

/*
 * The number of legal moves of `us`, owner of `mine`, against `theirs`, on
 * bare bitboards: the hot path of perft, where a call with a constant `us`
 * is specialised for that side.
 */
static inline int count_moves(Bitboard mine, Bitboard theirs, Bitboard kings, Color us)
{
	if (mine & kings)
		return count_with_kings(mine, theirs, kings, us);
	Bitboard occupied = mine | theirs, men = mine;
	JumpSquares j = jump_squares(theirs, ~occupied);
	Bitboard jumpers = men & j.any;
	if (!jumpers)
		return men_quiet_count(men, ~occupied, us);
	return count_men_only_captures(men, theirs, &j);
}

/* movegen_count() of a Russian or Brazilian position: the shared quiet
 * count, or the variant's captures listed. Out of line: pool's count keeps
 * its code. */
NEVER_INLINE int variant_count(const Position *p)
{
	MoveList list;
	if (movegen_has_capture(p))
		return movegen_variant_captures(p, &list);
	Bitboard mine = p->pieces[p->side], kings = p->kings, occupied = position_occupied(p);
	int n = men_quiet_count(mine & ~kings, ~occupied, p->side);
	for (Bitboard b = mine & kings; b; b &= b - 1)
		n += bb_count(king_quiet_targets(bb_lowest(b), occupied));
	return n;
}

int movegen_count(const Position *p)
{
	if (p->variant != VARIANT_POOL)
		return variant_count(p);
	Bitboard black = p->pieces[BLACK], white = p->pieces[WHITE];
	return p->side == BLACK ? count_moves(black, white, p->kings, BLACK)
	                        : count_moves(white, black, p->kings, WHITE);
}

/*
 * What one king of the side that replies can do before the move it
 * replies to: its quiet moves and whether it captures. A quiet move that
 * touches none of the king's diagonals (its `lines`) changes neither: the
 * first piece along each ray, and the square behind it, stay as they were.
 */
/* No count: more replies than any position has. */
#define NOT_COUNTED UINT64_MAX

typedef struct KingReplies {
	int square;
	Bitboard lines;
	int quiet;
} KingReplies;

/* The replies of `them` (owner of `theirs`) after a quiet move of the other
 * side that touched the squares `moved`, reusing what `cached` says of the
 * kings whose diagonals it missed (none of which captured). */
static inline int count_after_quiet(Bitboard theirs, Bitboard mine, Bitboard kings, Color them,
                                    const KingReplies *cached, int cached_count, Bitboard moved)
{
	Bitboard occupied = mine | theirs, men = theirs & ~kings;
	JumpSquares j = jump_squares(mine, ~occupied);
	int squares[SQUARE_COUNT];
	unsigned dirs[SQUARE_COUNT];
	int n = 0, capturing = 0;
	for (int i = 0; i < cached_count; i++) {
		const KingReplies *k = &cached[i];
		if (!(k->lines & moved)) {
			n += k->quiet;
			continue;
		}
		Bitboard targets = 0;
		dirs[capturing] = king_capture_dirs(k->square, occupied, &j, &targets);
		if (dirs[capturing])
			squares[capturing++] = k->square;
		n += bb_count(targets);
	}
	if (capturing || (men & j.any))
		return count_known_captures(theirs, mine, kings, &j, squares, dirs, capturing);
	return n + men_quiet_count(men, ~occupied, them);
}

/*
 * The replies of `them`, which has kings, to the quiet moves of `us`: what
 * each replying king can do is worked out once and reused after every move
 * that leaves its diagonals alone. Returns NOT_COUNTED when a replying king
 * already captures (then there is nothing to reuse).
 */
NEVER_INLINE uint64_t replies_reusing_kings(Bitboard mine, Bitboard theirs, Bitboard kings, Color us)
{
	Color them = color_other(us);
	Bitboard occupied = mine | theirs, empty = ~occupied, crown = position_crown_row(us);
	JumpSquares j = jump_squares(mine, empty);
	KingReplies cached[SQUARE_COUNT];
	int cached_count = 0;
	for (Bitboard b = theirs & kings; b; b &= b - 1) {
		KingReplies *k = &cached[cached_count++];
		Bitboard targets = 0;
		k->square = bb_lowest(b);
		k->lines = bitboard_rays[DIR_DOWN_LEFT][k->square] |
		           bitboard_rays[DIR_DOWN_RIGHT][k->square] | bitboard_rays[DIR_UP_LEFT][k->square] |
		           bitboard_rays[DIR_UP_RIGHT][k->square];
		if (king_capture_dirs(k->square, occupied, &j, &targets))
			return NOT_COUNTED;
		k->quiet = bb_count(targets);
	}
	ManSteps s = man_steps(mine & ~kings, empty, us);
	const Bitboard by[3] = {s.by3, s.by4, s.by5};
	uint64_t n = 0;
	for (int k = 0; k < 3; k++) {
		int shift = k + 3;
		for (Bitboard t = by[k]; t; t &= t - 1) {
			Bitboard to = t & -t, from = us == BLACK ? to >> shift : to << shift;
			n += (uint64_t)count_after_quiet(theirs, mine ^ from ^ to, kings | (to & crown), them,
			                                 cached, cached_count, from | to);
		}
	}
	for (Bitboard b = mine & kings; b; b &= b - 1) {
		Bitboard from = b & -b;
		for (Bitboard t = king_quiet_targets(bb_lowest(b), occupied); t; t &= t - 1) {
			Bitboard step = from | (t & -t);
			n += (uint64_t)count_after_quiet(theirs, mine ^ step, kings ^ step, them, cached,
			                                 cached_count, step);
		}
	}
	return n;
}

/*
 * The replies to every move of `us`: each successor is made on bitboards
 * and counted at once. Quiet men moves come straight from their shift
 * sets, without a move list.
 */
ALWAYS_INLINE uint64_t count_replies(const Position *p, Color us)
{
	Color them = color_other(us);
	Bitboard mine = p->pieces[us], theirs = p->pieces[them], kings = p->kings;
	Bitboard crown = position_crown_row(us);
	MoveList list;
	uint64_t n = 0;

	if (pool_captures(p, &list)) { /* only pool positions come here */
		for (int i = 0; i < list.count; i++) {
			Move m = list.moves[i];
			Bitboard from = bb_square(m.from), to = bb_square(m.to);
			Bitboard king_to = (kings & from) ? to : to & crown;
			n += (uint64_t)count_moves(theirs & ~m.captured, (mine & ~from) | to,
			                           ((kings & ~from) | king_to) & ~m.captured, them);
		}
		return n;
	}
	if (theirs & kings) {
		uint64_t reused = replies_reusing_kings(mine, theirs, kings, us);
		if (reused != NOT_COUNTED)
			return reused;
	}
	Bitboard occupied = mine | theirs;
	ManSteps s = man_steps(mine & ~kings, ~occupied, us);
	const Bitboard by[3] = {s.by3, s.by4, s.by5};
	for (int k = 0; k < 3; k++) {
		int shift = k + 3;
		for (Bitboard t = by[k]; t; t &= t - 1) {
			Bitboard to = t & -t, from = us == BLACK ? to >> shift : to << shift;
			n += (uint64_t)count_moves(theirs, mine ^ from ^ to, kings | (to & crown), them);
		}
	}
	for (Bitboard b = mine & kings; b; b &= b - 1) {
		Bitboard from = b & -b;
		for (Bitboard t = king_quiet_targets(bb_lowest(b), occupied); t; t &= t - 1) {
			Bitboard step = from | (t & -t);
			n += (uint64_t)count_moves(theirs, mine ^ step, kings ^ step, them);
		}
	}
	return n;
}

/* movegen_count_replies() of a Russian or Brazilian position: each
 * successor made and counted. */
NEVER_INLINE uint64_t variant_count_replies(const Position *p)
{
	MoveList list;
	uint64_t n = 0;
	movegen_generate(p, &list);
	for (int i = 0; i < list.count; i++) {
		Position next;
		position_make_keyed(p, list.moves[i], &next, false);
		n += (uint64_t)variant_count(&next);
	}
	return n;
}

uint64_t movegen_count_replies_pool(const Position *p)
{
	return p->side == BLACK ? count_replies(p, BLACK) : count_replies(p, WHITE);
}

uint64_t movegen_count_replies(const Position *p)
{
	if (p->variant != VARIANT_POOL)
		return variant_count_replies(p);
	return p->side == BLACK ? count_replies(p, BLACK) : count_replies(p, WHITE);
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
	    .target = &m,
	    .paths = paths,
	    .path_max = max,
	};

	if (!(p->pieces[us] & from) || !m.captured)
		return 0;
	if (p->variant != VARIANT_POOL)
		return movegen_variant_paths(p, m, paths, max);
	if (p->kings & from)
		king_walk_paths(&w, m.from, 0, DIRS_ALL);
	else
		man_walk_paths(&w, m.from, 0, DIRS_ALL);
	return w.path_count;
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
