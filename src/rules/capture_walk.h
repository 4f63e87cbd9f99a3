/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The capture walk and board helpers shared by movegen.c, movegen_variant.c and movecount.c. */
#ifndef POOLSHARK_CAPTURE_WALK_H
#define POOLSHARK_CAPTURE_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/movegen.h"

/*
 * Private to the generator's files: the board helpers and the capture walk's
 * state, `static inline` so that each file keeps them inlined. Pool's walk
 * bodies live in movegen.c, and movecount.c calls their counting copies.
 */

/* For bodies compiled once per constant argument (a walk's mode, a
 * direction, a rule): inlining them is the point. */
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

/*
 * Kings. What a king can do along a diagonal is read off what it sees
 * there (king_sight): the squares it may move to, up to the first piece
 * each way, which it may capture. A flying king (pool, Russian,
 * Brazilian) sees along the whole diagonal, by one lookup (bb_sight); a
 * short king sees the squares next to it. Every function below takes the
 * kind as a constant, so that each compiled walk keeps one case.
 */
typedef enum KingKind { KING_FLYING, KING_SHORT } KingKind;

/* What a king of this kind on s sees along g, the squares of `occupied`
 * blocking it: the squares it may step to when they are empty, up to and
 * including the first piece each way. */
ALWAYS_INLINE Bitboard king_sight(KingKind kind, int s, Diagonal g, Bitboard occupied)
{
	if (kind == KING_SHORT)
		return g == DIAG_DOWN_LEFT
		           ? bitboard_neighbors[DIR_DOWN_LEFT][s] | bitboard_neighbors[DIR_UP_RIGHT][s]
		           : bitboard_neighbors[DIR_DOWN_RIGHT][s] | bitboard_neighbors[DIR_UP_LEFT][s];
	return bb_sight(s, g, occupied);
}

/* The squares from which a king of this kind on s, reaching the empty
 * squares `reach` of one diagonal, may start a jump along it: a flying
 * king from any (it slides up to its victim), a short king from its own.
 * Among them, a man's jump squares (JumpSquares) in either direction of
 * the diagonal say whether the king captures that way: from a square on
 * one side of s, a step toward the other side lands on an empty square or
 * on s, never on a victim. */
ALWAYS_INLINE Bitboard king_jump_origins(KingKind kind, int s, Bitboard reach)
{
	return kind == KING_SHORT ? bb_square(s) : reach | bb_square(s);
}

/* The first piece a king of this kind on s meets along d (one bit), or 0.
 * One direction: the ray's nearest piece, without a lookup. */
ALWAYS_INLINE Bitboard king_first_piece(KingKind kind, int s, Direction d, Bitboard occupied)
{
	if (kind == KING_SHORT)
		return bitboard_neighbors[d][s] & occupied;
	Bitboard hit = bitboard_rays[d][s] & occupied;
	if (dir_is_down(d))
		return hit & -hit;
	return hit ? bb_square(bb_highest(hit)) : 0;
}

/* The empty squares a king of this kind on s may move to along d. */
ALWAYS_INLINE Bitboard king_reach(KingKind kind, int s, Direction d, Bitboard occupied)
{
	if (kind == KING_SHORT)
		return bitboard_neighbors[d][s] & ~occupied;
	Bitboard ray = bitboard_rays[d][s], hit = ray & occupied;
	if (dir_is_down(d))
		return ray & ((hit & -hit) - 1); /* below the nearest piece, or all */
	return hit ? ray & ~((bb_square(bb_highest(hit)) << 1) - 1) : ray;
}

/* The route a capture walk has taken, for collecting the routes of one
 * target capture (movegen_paths()): fixed but for the trail. */
typedef struct WalkRoute {
	const Move *target;
	MovePath *paths;
	int path_count, path_max;
	int depth; /* landing squares so far, in trail */
	uint8_t trail[MOVEPATH_MAX];
} WalkRoute;

/* Records the route of the piece from `from`, now on `to` having taken
 * `captured`, when that is the target capture; counts every route found,
 * writing up to path_max. */
static inline void walk_route_add(WalkRoute *r, int from, int to, Bitboard captured)
{
	if (to != r->target->to || captured != r->target->captured)
		return;
	if (r->path_count < r->path_max) {
		MovePath *path = &r->paths[r->path_count];
		path->length = r->depth + 1;
		path->squares[0] = (uint8_t)from;
		for (int i = 0; i < r->depth; i++)
			path->squares[i + 1] = r->trail[i];
	}
	r->path_count++;
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
	int first;       /* index of this piece's first listed move */
	int repeat_at;   /* fewest pieces taken by a capture that two routes may reach */
	int count;       /* WALK_COUNT: the captures not listed */
	WalkRoute route; /* WALK_PATHS */
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
	/* The squares one step up-right and one step down-left of a victim.
	 * One step up-left is one step up-right shifted once more, one step
	 * down-right one step down-left (shifts distribute over `|`). */
	Bitboard up_right = (even >> 3) | (odd >> 4), down_left = (even << 4) | (odd << 3);
	JumpSquares j;
	j.by_dir[DIR_DOWN_LEFT] = not_k0 & (empty >> 7) & up_right;
	j.by_dir[DIR_DOWN_RIGHT] = not_k3 & (empty >> 9) & (up_right >> 1);
	j.by_dir[DIR_UP_LEFT] = not_k0 & (empty << 9) & (down_left << 1);
	j.by_dir[DIR_UP_RIGHT] = not_k3 & (empty << 7) & down_left;
	j.any = j.by_dir[0] | j.by_dir[1] | j.by_dir[2] | j.by_dir[3];
	return j;
}

/* The directions in which a king of this kind on s captures; the squares
 * it may move to are added to *targets. */
ALWAYS_INLINE unsigned king_capture_dirs(KingKind kind, int s, Bitboard occupied, const JumpSquares *j,
                                         Bitboard *targets)
{
	Bitboard left = king_sight(kind, s, DIAG_DOWN_LEFT, occupied) & ~occupied;
	Bitboard right = king_sight(kind, s, DIAG_DOWN_RIGHT, occupied) & ~occupied;
	*targets |= left | right;
	left = king_jump_origins(kind, s, left);
	right = king_jump_origins(kind, s, right);
	return (left & j->by_dir[DIR_DOWN_LEFT] ? 1u << DIR_DOWN_LEFT : 0) |
	       (right & j->by_dir[DIR_DOWN_RIGHT] ? 1u << DIR_DOWN_RIGHT : 0) |
	       (right & j->by_dir[DIR_UP_LEFT] ? 1u << DIR_UP_LEFT : 0) |
	       (left & j->by_dir[DIR_UP_RIGHT] ? 1u << DIR_UP_RIGHT : 0);
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

/* The squares a king of this kind on s may move to without capturing. */
ALWAYS_INLINE Bitboard king_quiet_targets(KingKind kind, int s, Bitboard occupied)
{
	return (king_sight(kind, s, DIAG_DOWN_LEFT, occupied) |
	        king_sight(kind, s, DIAG_DOWN_RIGHT, occupied)) &
	       ~occupied;
}

/* Pool's walks in counting mode, and the walk of every capture of one side
 * (movegen.c): what perft's counting needs of them. */
bool movegen_man_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs);
bool movegen_king_walk_count(Walk *w, int at, Bitboard captured, unsigned dirs);
void movegen_walk_captures(Walk *w, Bitboard mine, Bitboard theirs, Bitboard kings, Bitboard jumpers,
                           const JumpSquares *j);

/* Pool's captures of the side to move of *p into *list; returns their number. */
int movegen_pool_captures(const Position *p, MoveList *list);

/* Every capture of the side to move of a position whose rules are not pool's
 * (VariantRules fields choose the walk); returns their number. */
int movegen_variant_captures(const Position *p, MoveList *list);

/* True when the side to move of such a position has a capture. */
bool movegen_variant_has_capture(const Position *p);

/* The routes of capture m, as movegen_paths(), for the same positions. */
int movegen_variant_paths(const Position *p, Move m, MovePath *paths, int max);

#endif
