/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Move generation on 32-bit bitboards: men, flying kings, Turkish captures. */
#include "poolshark/movegen.h"

#include <stddef.h>

/* State shared by one capture search: fixed for the whole move. */
typedef struct CaptureContext {
	MoveList *list;
	Bitboard opponents; /* every opponent piece, captured or not */
	Bitboard occupied;  /* every piece except the capturing one (2.8) */
	int from;
	int first; /* index of this piece's first move in list */
	/* Path mode (movegen_paths): collect the landing squares of every
	 * sequence that realises `target` instead of listing moves. */
	const Move *target;
	MovePath *paths;
	int path_count, path_max;
	int depth;
	uint8_t trail[MOVEPATH_MAX];
} CaptureContext;

static void add_path(CaptureContext *ctx, int to, Bitboard captured)
{
	if (to != ctx->target->to || captured != ctx->target->captured)
		return;
	if (ctx->path_count < ctx->path_max) {
		MovePath *path = &ctx->paths[ctx->path_count];
		path->length = ctx->depth + 1;
		path->squares[0] = (uint8_t)ctx->from;
		for (int i = 0; i < ctx->depth; i++)
			path->squares[i + 1] = ctx->trail[i];
	}
	ctx->path_count++;
}

static void add_capture(CaptureContext *ctx, int to, Bitboard captured)
{
	MoveList *list = ctx->list;
	if (ctx->target) {
		add_path(ctx, to, captured);
		return;
	}
	Move m = {captured, (uint8_t)ctx->from, (uint8_t)to};

	/* One capture has one path; two or more may be taken in another
	 * order or via other squares and must be listed once (2.11). */
	if (bb_count(captured) >= 2) {
		for (int i = ctx->first; i < list->count; i++)
			if (move_equal(list->moves[i], m))
				return;
	}
	if (list->count < MOVELIST_CAPACITY)
		list->moves[list->count++] = m;
}

/* Man jumps from `at` having taken `captured` so far; recurses per jump. */
static void man_capture_from(CaptureContext *ctx, int at, Bitboard captured)
{
	Bitboard victims = ctx->opponents & ~captured;
	Bitboard empty = ~ctx->occupied;
	bool jumped = false;

	for (int d = 0; d < DIR_COUNT; d++) {
		Bitboard over = bitboard_neighbors[d][at] & victims;
		Bitboard land = bitboard_jumps[d][at] & empty;
		if (over && land) {
			jumped = true;
			ctx->trail[ctx->depth++] = (uint8_t)bb_lowest(land);
			man_capture_from(ctx, bb_lowest(land), captured | over);
			ctx->depth--;
		}
	}
	if (!jumped && captured)
		add_capture(ctx, at, captured);
}

/* The squares a king on `at` may land on after jumping in d, or 0; the
 * jumped piece goes to *victim. Pieces in `captured` are dead: they block
 * but cannot be jumped again (2.7). */
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

static void king_capture_from(CaptureContext *ctx, int at, Bitboard captured)
{
	bool jumped = false;

	for (int d = 0; d < DIR_COUNT; d++) {
		Bitboard victim = 0;
		Bitboard land =
		    king_landings(ctx->occupied, ctx->opponents, at, (Direction)d, captured, &victim);
		if (!land)
			continue;
		jumped = true;
		Bitboard taken = captured | victim;
		/* Landing priority (2.6): squares that go on capturing win. */
		Bitboard onward = 0;
		for (Bitboard b = land; b; b &= b - 1)
			if (king_can_jump(ctx->occupied, ctx->opponents, bb_lowest(b), taken))
				onward |= b & -b;
		if (onward) {
			for (Bitboard b = onward; b; b &= b - 1) {
				ctx->trail[ctx->depth++] = (uint8_t)bb_lowest(b);
				king_capture_from(ctx, bb_lowest(b), taken);
				ctx->depth--;
			}
		} else {
			for (Bitboard b = land; b; b &= b - 1) {
				ctx->trail[ctx->depth] = (uint8_t)bb_lowest(b);
				ctx->depth++;
				add_capture(ctx, bb_lowest(b), taken);
				ctx->depth--;
			}
		}
	}
	if (!jumped && captured)
		add_capture(ctx, at, captured);
}

/* Squares from which a man could jump, by direction: the square one step
 * away holds a victim and the square two steps away is empty. */
typedef struct JumpSquares {
	Bitboard down_left, down_right, up_left, up_right;
} JumpSquares;

static inline JumpSquares jump_squares(Bitboard victims, Bitboard empty)
{
	/* Two steps along one diagonal shift by 7 or 9 whatever the row, so
	 * the landing test is one shift; k = bit % 4 decides the edges: a
	 * double step left needs k >= 1, a double step right k <= 2. */
	const Bitboard not_k0 = ~0x11111111u, not_k3 = ~0x88888888u;
	JumpSquares j;
	j.down_left = not_k0 & (empty >> 7) & bb_step_up_right(victims);
	j.down_right = not_k3 & (empty >> 9) & bb_step_up_left(victims);
	j.up_left = not_k0 & (empty << 9) & bb_step_down_right(victims);
	j.up_right = not_k3 & (empty << 7) & bb_step_down_left(victims);
	return j;
}

static inline Bitboard any_jump(const JumpSquares *j)
{
	return j->down_left | j->down_right | j->up_left | j->up_right;
}

/* Men of `men` that have a jump. */
static inline Bitboard men_that_jump(Bitboard men, Bitboard victims, Bitboard empty)
{
	JumpSquares j = jump_squares(victims, empty);
	return men & any_jump(&j);
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
	Bitboard dl = (men & j->down_left) << 7, dr = (men & j->down_right) << 9;
	Bitboard ul = (men & j->up_left) >> 9, ur = (men & j->up_right) >> 7;
	Bitboard onward = (dl & (j->down_left | j->down_right | j->up_left)) |
	                  (dr & (j->down_left | j->down_right | j->up_right)) |
	                  (ul & (j->down_left | j->up_left | j->up_right)) |
	                  (ur & (j->down_right | j->up_left | j->up_right));
	if (onward)
		return -1;
	return bb_count(dl) + bb_count(dr) + bb_count(ul) + bb_count(ur);
}

/* Lists the captures of the men in `jumpers` (those that can jump) and of
 * every king of the side to move; returns their number. */
static int captures_of(const Position *p, Bitboard jumpers, MoveList *list)
{
	Color us = p->side;
	Bitboard occupied = position_occupied(p);
	CaptureContext ctx;
	ctx.list = list;
	ctx.opponents = p->pieces[color_other(us)];
	ctx.target = NULL;
	ctx.depth = 0;

	list->count = 0;
	for (Bitboard b = jumpers; b; b &= b - 1) {
		int from = bb_lowest(b);
		ctx.from = from;
		ctx.first = list->count;
		ctx.occupied = occupied & ~bb_square(from);
		man_capture_from(&ctx, from, 0);
	}
	for (Bitboard b = position_kings(p, us); b; b &= b - 1) {
		int from = bb_lowest(b);
		ctx.from = from;
		ctx.first = list->count;
		ctx.occupied = occupied & ~bb_square(from);
		king_capture_from(&ctx, from, 0);
	}
	return list->count;
}

static inline Bitboard jumping_men(const Position *p)
{
	return men_that_jump(position_men(p, p->side), p->pieces[color_other(p->side)],
	                     ~position_occupied(p));
}

static bool king_has_capture(const Position *p)
{
	Bitboard occupied = position_occupied(p), opponents = p->pieces[color_other(p->side)];
	for (Bitboard b = position_kings(p, p->side); b; b &= b - 1) {
		int from = bb_lowest(b);
		if (king_can_jump(occupied & ~bb_square(from), opponents, from, 0))
			return true;
	}
	return false;
}

/* Lists the single jumps of the men in `jumpers`, by origin square and then
 * direction: the order in which walking the sequences would list them. */
static void add_single_jumps(MoveList *list, Bitboard jumpers, const JumpSquares *j)
{
	for (Bitboard b = jumpers; b; b &= b - 1) {
		int from = bb_lowest(b);
		Bitboard here = b & -b;
		if (here & j->down_left)
			list->moves[list->count++] = (Move){bitboard_neighbors[DIR_DOWN_LEFT][from],
			                                    (uint8_t)from, (uint8_t)(from + 7)};
		if (here & j->down_right)
			list->moves[list->count++] = (Move){bitboard_neighbors[DIR_DOWN_RIGHT][from],
			                                    (uint8_t)from, (uint8_t)(from + 9)};
		if (here & j->up_left)
			list->moves[list->count++] =
			    (Move){bitboard_neighbors[DIR_UP_LEFT][from], (uint8_t)from, (uint8_t)(from - 9)};
		if (here & j->up_right)
			list->moves[list->count++] = (Move){bitboard_neighbors[DIR_UP_RIGHT][from],
			                                    (uint8_t)from, (uint8_t)(from - 7)};
	}
}

/*
 * Every capture of the side to move: set-wise when it has no king and no
 * jump of its men can go on (see count_single_jumps()), else by walking
 * the sequences. Returns the number of captures.
 */
static int all_captures(const Position *p, MoveList *list)
{
	Color us = p->side;
	Bitboard men = position_men(p, us);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~position_occupied(p));
	Bitboard jumpers = men & any_jump(&j);

	if (!position_kings(p, us)) {
		list->count = 0;
		if (!jumpers)
			return 0;
		if (count_single_jumps(men, &j) >= 0) {
			add_single_jumps(list, jumpers, &j);
			return list->count;
		}
	}
	return captures_of(p, jumpers, list);
}

int movegen_captures(const Position *p, MoveList *list)
{
	return all_captures(p, list);
}

bool movegen_has_capture(const Position *p)
{
	return jumping_men(p) || king_has_capture(p);
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

/* Empty squares a king on s reaches along d before the first piece. */
static inline Bitboard king_slide(int s, Direction d, Bitboard occupied)
{
	Bitboard ray = bitboard_rays[d][s];
	int stop = bb_first_on_ray(s, d, occupied);
	if (stop >= 0)
		ray &= ~(bitboard_rays[d][stop] | bb_square(stop));
	return ray;
}

static inline Bitboard king_quiet_targets(int s, Bitboard occupied)
{
	return king_slide(s, DIR_DOWN_LEFT, occupied) | king_slide(s, DIR_DOWN_RIGHT, occupied) |
	       king_slide(s, DIR_UP_LEFT, occupied) | king_slide(s, DIR_UP_RIGHT, occupied);
}

static void add_steps(MoveList *list, Bitboard targets, int delta)
{
	for (; targets; targets &= targets - 1) {
		int to = bb_lowest(targets);
		Move m = {0, (uint8_t)(to - delta), (uint8_t)to};
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
			Move m = {0, (uint8_t)from, (uint8_t)bb_lowest(t)};
			list->moves[list->count++] = m;
		}
	}
	return list->count;
}

int movegen_generate(const Position *p, MoveList *list)
{
	if (all_captures(p, list))
		return list->count;
	return quiet_moves(p, list);
}

static int quiet_count(const Position *p)
{
	Color us = p->side;
	Bitboard occupied = position_occupied(p);
	ManSteps s = man_steps(position_men(p, us), ~occupied, us);
	int n = bb_count(s.by3) + bb_count(s.by4) + bb_count(s.by5);

	for (Bitboard b = position_kings(p, us); b; b &= b - 1)
		n += bb_count(king_quiet_targets(bb_lowest(b), occupied));
	return n;
}

int movegen_count(const Position *p)
{
	Color us = p->side;
	Bitboard men = position_men(p, us);
	JumpSquares j = jump_squares(p->pieces[color_other(us)], ~position_occupied(p));
	Bitboard jumpers = men & any_jump(&j);

	if (!position_kings(p, us)) {
		if (!jumpers)
			return quiet_count(p);
		int single = count_single_jumps(men, &j);
		if (single >= 0)
			return single;
	} else if (!jumpers && !king_has_capture(p)) {
		return quiet_count(p);
	}
	MoveList list;
	return captures_of(p, jumpers, &list);
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
	CaptureContext ctx = {
	    .opponents = p->pieces[color_other(us)],
	    .occupied = position_occupied(p) & ~from,
	    .from = m.from,
	    .target = &m,
	    .paths = paths,
	    .path_max = max,
	};

	if (!(p->pieces[us] & from) || !m.captured)
		return 0;
	if (p->kings & from)
		king_capture_from(&ctx, m.from, 0);
	else
		man_capture_from(&ctx, m.from, 0);
	return ctx.path_count;
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
