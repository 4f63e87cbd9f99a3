/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Perft's bulk counting of legal moves, without listing quiet moves. */
#include "poolshark/movegen.h"

#include "capture_walk.h"

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
	movegen_walk_captures(&w, men, theirs, 0, men & j->any, j);
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
		movegen_king_walk_count(&w, w.from, 0, dirs[i]);
	}
	int men_captures = men & j->any ? count_men_captures(men, theirs, ~occupied, j) : 0;
	if (men_captures >= 0)
		return men_captures + w.count + list.count;
	w.repeat_at = MAN_REPEAT_AT;
	for (Bitboard b = men & j->any; b; b &= b - 1) {
		w.from = bb_lowest(b);
		w.first = list.count;
		w.empty = ~occupied | (b & -b);
		movegen_man_walk_count(&w, w.from, 0, DIRS_ALL);
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
		dirs[capturing] = king_capture_dirs(KING_FLYING, s, occupied, &j, &targets);
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

/* movegen_count() of a position whose rules are not pool's: the quiet
 * count, by the kind of its kings, or the variant's captures listed. Out
 * of line: pool's count keeps its code. */
NEVER_INLINE int variant_count(const Position *p)
{
	MoveList list;
	if (movegen_has_capture(p))
		return movegen_variant_captures(p, &list);
	Bitboard mine = p->pieces[p->side], kings = p->kings, occupied = position_occupied(p);
	int n = men_quiet_count(mine & ~kings, ~occupied, p->side);
	bool fly = variant_rules(position_variant(p))->kings_fly;
	for (Bitboard b = mine & kings; b; b &= b - 1)
		n += bb_count(fly ? king_quiet_targets(KING_FLYING, bb_lowest(b), occupied)
		                  : king_quiet_targets(KING_SHORT, bb_lowest(b), occupied));
	return n;
}

int movegen_count(const Position *p)
{
	if (!variant_fast_path(p->variant))
		return variant_count(p);
	Bitboard black = p->pieces[BLACK], white = p->pieces[WHITE];
	return p->side == BLACK ? count_moves(black, white, p->kings, BLACK)
	                        : count_moves(white, black, p->kings, WHITE);
}

/*
 * What one king of the side that replies can do before the move it
 * replies to: its quiet moves, when it does not capture. A quiet move that
 * touches none of the king's diagonals (its `lines`) changes neither: the
 * first piece along each ray, and the square behind it, stay as they were.
 * A king that captures is looked at again after every move (its `lines`
 * are the whole board).
 */
typedef struct KingReplies {
	int square;
	Bitboard lines;
	int quiet;
} KingReplies;

/* What the side that replies can do before the move it replies to. */
typedef struct RepliesBefore {
	KingReplies kings[SQUARE_COUNT];
	int king_count;
	Bitboard lines; /* every king's diagonals */
	int quiet;      /* the kings' and the men's quiet moves */
	bool captures;  /* some piece captures */
} RepliesBefore;

/* The replies of `them` (owner of `theirs`) after a quiet move of the other
 * side that touched the squares `moved`, reusing what `before` says of the
 * kings whose diagonals it missed. A man's steps and jumps change only when
 * the move touched a square one or two steps from it (`near`, the squares
 * within two steps of `moved`): when no king's diagonal and no man is
 * touched, the replies are those before the move. */
static inline int count_after_quiet(Bitboard theirs, Bitboard mine, Bitboard kings, Color them,
                                    const RepliesBefore *before, Bitboard moved, Bitboard near)
{
	Bitboard occupied = mine | theirs, men = theirs & ~kings;
	if (!(before->lines & moved) && !(men & near) && !before->captures)
		return before->quiet;
	JumpSquares j = jump_squares(mine, ~occupied);
	int squares[SQUARE_COUNT];
	unsigned dirs[SQUARE_COUNT];
	int n = 0, capturing = 0;
	for (int i = 0; i < before->king_count; i++) {
		const KingReplies *k = &before->kings[i];
		if (!(k->lines & moved)) {
			n += k->quiet;
			continue;
		}
		Bitboard targets = 0;
		dirs[capturing] = king_capture_dirs(KING_FLYING, k->square, occupied, &j, &targets);
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
 * that leaves its diagonals alone, and the men's moves after every move
 * that passes far from them.
 */
NEVER_INLINE uint64_t replies_reusing_kings(Bitboard mine, Bitboard theirs, Bitboard kings, Color us)
{
	Color them = color_other(us);
	Bitboard occupied = mine | theirs, empty = ~occupied, crown = position_crown_row(us);
	Bitboard their_men = theirs & ~kings;
	JumpSquares j = jump_squares(mine, empty);
	RepliesBefore before;
	before.king_count = 0;
	before.lines = 0;
	before.quiet = men_quiet_count(their_men, empty, them);
	before.captures = (their_men & j.any) != 0;
	for (Bitboard b = theirs & kings; b; b &= b - 1) {
		KingReplies *k = &before.kings[before.king_count++];
		Bitboard targets = 0;
		k->square = bb_lowest(b);
		k->lines = bitboard_rays[DIR_DOWN_LEFT][k->square] |
		           bitboard_rays[DIR_DOWN_RIGHT][k->square] | bitboard_rays[DIR_UP_LEFT][k->square] |
		           bitboard_rays[DIR_UP_RIGHT][k->square];
		if (king_capture_dirs(KING_FLYING, k->square, occupied, &j, &targets)) {
			k->lines = BB_ALL;
			before.captures = true;
		}
		k->quiet = bb_count(targets);
		before.lines |= k->lines;
		before.quiet += k->quiet;
	}
	ManSteps s = man_steps(mine & ~kings, empty, us);
	const Bitboard by[3] = {s.by3, s.by4, s.by5};
	uint64_t n = 0;
	for (int k = 0; k < 3; k++) {
		int shift = k + 3;
		for (Bitboard t = by[k]; t; t &= t - 1) {
			Bitboard to = t & -t, from = us == BLACK ? to >> shift : to << shift;
			Bitboard near =
			    bitboard_within_two[bb_lowest(to)] | bitboard_within_two[bb_lowest(from)];
			n += (uint64_t)count_after_quiet(theirs, mine ^ from ^ to, kings | (to & crown), them,
			                                 &before, from | to, near);
		}
	}
	for (Bitboard b = mine & kings; b; b &= b - 1) {
		Bitboard from = b & -b, near_from = bitboard_within_two[bb_lowest(b)];
		for (Bitboard t = king_quiet_targets(KING_FLYING, bb_lowest(b), occupied); t; t &= t - 1) {
			Bitboard step = from | (t & -t);
			n += (uint64_t)count_after_quiet(theirs, mine ^ step, kings ^ step, them, &before,
			                                 step, near_from | bitboard_within_two[bb_lowest(t)]);
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

	if (movegen_pool_captures(p, &list)) { /* only pool positions come here */
		for (int i = 0; i < list.count; i++) {
			Move m = list.moves[i];
			Bitboard from = bb_square(m.from), to = bb_square(m.to);
			Bitboard king_to = (kings & from) ? to : to & crown;
			n += (uint64_t)count_moves(theirs & ~m.captured, (mine & ~from) | to,
			                           ((kings & ~from) | king_to) & ~m.captured, them);
		}
		return n;
	}
	if (theirs & kings)
		return replies_reusing_kings(mine, theirs, kings, us);
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
		for (Bitboard t = king_quiet_targets(KING_FLYING, bb_lowest(b), occupied); t; t &= t - 1) {
			Bitboard step = from | (t & -t);
			n += (uint64_t)count_moves(theirs, mine ^ step, kings ^ step, them);
		}
	}
	return n;
}

/* movegen_count_replies() of a position whose rules are not pool's: each
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
	if (!variant_fast_path(p->variant))
		return variant_count_replies(p);
	return p->side == BLACK ? count_replies(p, BLACK) : count_replies(p, WHITE);
}
