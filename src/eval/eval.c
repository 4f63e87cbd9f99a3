/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Evaluation: material, men's structure and progress, kings' activity, drawn endings. */
#include "poolshark/eval.h"

#include "poolshark/kings_plan.h"

#include <string.h>

const EvalWeights eval_default_weights = {
    .man = 100,
    .king_opening = 558,
    .king_endgame = 200,
    .man_row = {0, 3, 4, 5, 6, 25, 96},
    .tempo = 3,
    .back_guard = {60, 42, 22, -41},
    .man_centre = 21,
    .man_edge = 1,
    .man_mobility = 9,
    .man_backed = 6,
    .man_balance = -19,
    .runaway = 70,
    .runaway_per_row = 6,
    .runaway_vs_kings = 0,
    .king_centre = 5,
    .king_main_diagonal = 20,
    .king_double_diagonal = 8,
    .king_mobility = 2,
    .king_trapped = -30,
    .drawn_scale = 0,
    .drawish_scale = 1,
};

/* Russian and Brazilian draughts: pool's table before the refits of
 * steps 11, 14 and 15 of doc/experiments.md, measured in pool only; the
 * terms added then stay at 0 until a match in a variant says otherwise. */
static const EvalWeights eval_variant_weights = {
    .man = 100,
    .king_opening = 484,
    .king_endgame = 200,
    .man_row = {0, 3, 4, 5, 6, 25, 101},
    .tempo = 2,
    .back_guard = {60, 41, 29, -1},
    .man_centre = 17,
    .man_edge = 2,
    .runaway = 70,
    .runaway_per_row = 6,
    .runaway_vs_kings = 0,
    .king_centre = 5,
    .king_main_diagonal = 20,
    .king_double_diagonal = 8,
    .king_mobility = 2,
    .king_trapped = -30,
    .drawn_scale = 0,
    .drawish_scale = 2,
};

/* English and Italian checkers: short kings, fitted to their own
 * self-play (doc/tuning.md, "Weights per variant", the run of 6 December
 * 2026), the kings' values free. An English king is worth less than
 * pool's; an Italian one, which men may not capture, more. The scales act
 * only where kings fly and stay as they were. */
static const EvalWeights eval_english_weights = {
    .man = 100,
    .king_opening = 418,
    .king_endgame = 200,
    .man_row = {0, 3, 4, 5, 6, 21, 44},
    .tempo = -1,
    .back_guard = {21, 19, 23, -47},
    .man_centre = 16,
    .man_edge = 9,
    .man_mobility = 29,
    .man_backed = 40,
    .man_balance = 2,
    .runaway = 70,
    .runaway_per_row = 6,
    .runaway_vs_kings = 72,
    .king_centre = 5,
    .king_main_diagonal = 20,
    .king_double_diagonal = 8,
    .king_mobility = 2,
    .king_trapped = -30,
    .drawn_scale = 0,
    .drawish_scale = 1,
};

static const EvalWeights eval_italian_weights = {
    .man = 100,
    .king_opening = 528,
    .king_endgame = 200,
    .man_row = {0, 19, 20, 21, 22, 52, 61},
    .tempo = 3,
    .back_guard = {27, 55, 55, -12},
    .man_centre = 14,
    .man_edge = -1,
    .man_mobility = 19,
    .man_backed = 20,
    .man_balance = -5,
    .runaway = 70,
    .runaway_per_row = 6,
    .runaway_vs_kings = 80,
    .king_centre = 5,
    .king_main_diagonal = 20,
    .king_double_diagonal = 8,
    .king_mobility = 2,
    .king_trapped = -30,
    .drawn_scale = 0,
    .drawish_scale = 1,
};

/* One table per variant (doc/tuning.md, "Weights per variant"). */
const EvalWeights *eval_weights_for(Variant v)
{
	static const EvalWeights *const by_variant[VARIANT_COUNT] = {
	    [VARIANT_POOL] = &eval_default_weights,
	    [VARIANT_RUSSIAN] = &eval_variant_weights,
	    [VARIANT_BRAZILIAN] = &eval_variant_weights,
	    [VARIANT_ENGLISH] = &eval_english_weights,
	    [VARIANT_ITALIAN] = &eval_italian_weights,
	    /* Not tuned for their rules yet: pool's. */
	    [VARIANT_SPANISH] = &eval_default_weights,
	    [VARIANT_CZECH] = &eval_default_weights,
	};
	return v < VARIANT_COUNT ? by_variant[v] : &eval_default_weights;
}

/*
 * Everything below is written for Black, whose men walk toward higher bit
 * indices; White's pieces are first turned by 180 degrees, which on this
 * layout is a bit reversal (bitboard.h), so one set of tables serves both.
 */
#define LEFT_HALF        0x33333333u /* columns a to d */
#define CENTRE           0x00066000u /* squares 14, 15, 18, 19 */
#define EDGES            (BB_LEFT_EDGE | BB_RIGHT_EDGE)
#define DOUBLE_DIAGONALS (BB_DOUBLE_DIAGONAL_LOW | BB_DOUBLE_DIAGONAL_HIGH)

/* cone[s]: every square a black man on s could still walk to (all rows
 * below it, widening one column per row). A man whose cone is empty of
 * pieces cannot be stopped by men. */
static const Bitboard cone[SQUARE_COUNT] = {
    0xfff77330u, 0xfffff760u, 0xffffeec0u, 0xffeecc80u, 0xf7733100u, 0xfff77300u, 0xffffe600u, 0xffeecc00u,
    0xf7733000u, 0xfff76000u, 0xffeec000u, 0xeecc8000u, 0x73310000u, 0xf7730000u, 0xffe60000u, 0xeecc0000u,
    0x73300000u, 0xf7600000u, 0xeec00000u, 0xcc800000u, 0x31000000u, 0x73000000u, 0xe6000000u, 0xcc000000u,
    0x30000000u, 0x60000000u, 0xc0000000u, 0x80000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
};

static Bitboard turn_board(Bitboard b)
{
	b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
	b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
	b = ((b >> 4) & 0x0f0f0f0fu) | ((b & 0x0f0f0f0fu) << 4);
	b = ((b >> 8) & 0x00ff00ffu) | ((b & 0x00ff00ffu) << 8);
	return (b >> 16) | (b << 16);
}

/* The pieces of one side seen as Black, and what they face. */
typedef struct SideView {
	Bitboard men, kings;
	Bitboard their_kings;
	Bitboard occupied;
	bool kings_fly; /* the rules' kings: whole diagonals, else one step */
} SideView;

static int side_value(const EvalWeights *w, const SideView *v, int king_value)
{
	int score = bb_count(v->men) * w->man + bb_count(v->kings) * king_value;

	for (int row = 0; row < 7; row++)
		score += bb_count(v->men & (0xfu << (4 * row))) * w->man_row[row];
	/* Back-row men stop crowning; once the other side has a king the
	 * door matters much less than the men's work elsewhere. */
	if (!v->their_kings)
		for (int i = 0; i < 4; i++)
			if (v->men & bb_square(i))
				score += w->back_guard[i];
	score += bb_count(v->men & CENTRE) * w->man_centre;
	score += bb_count(v->men & EDGES) * w->man_edge;

	/* Men's mobility: Black's men step down. */
	Bitboard empty = ~v->occupied;
	score +=
	    (bb_count(bb_step_down_left(v->men) & empty) + bb_count(bb_step_down_right(v->men) & empty)) *
	    w->man_mobility;
	/* A man is jumped from the front only over the empty square behind
	 * it: own pieces (or the board's end) on both squares behind it keep
	 * it safe from the front. */
	Bitboard own = v->men | v->kings;
	Bitboard left_safe = bb_step_down_right(own) | ~bb_step_down_right(BB_ALL);
	Bitboard right_safe = bb_step_down_left(own) | ~bb_step_down_left(BB_ALL);
	score += bb_count(v->men & left_safe & right_safe) * w->man_backed;
	int balance = bb_count(v->men & LEFT_HALF) - bb_count(v->men & ~LEFT_HALF);
	score += (balance < 0 ? -balance : balance) * w->man_balance;

	for (Bitboard b = v->men & 0xffffff00u; b; b &= b - 1) {
		int s = bb_lowest(b);
		if (cone[s] & v->occupied)
			continue;
		int bonus = w->runaway - (7 - (s >> 2)) * w->runaway_per_row;
		if (v->their_kings)
			bonus = bonus * w->runaway_vs_kings / 100;
		score += bonus;
	}

	for (Bitboard b = v->kings; b; b &= b - 1) {
		int s = bb_lowest(b);
		Bitboard sq = bb_square(s);
		int mobility = v->kings_fly ? bb_king_moves(s, v->occupied) : bb_king_steps(s, v->occupied);
		score += mobility * w->king_mobility;
		if (mobility == 0)
			score += w->king_trapped;
		if (sq & CENTRE)
			score += w->king_centre;
		if (sq & BB_LONG_DIAGONAL)
			score += w->king_main_diagonal;
		if (sq & DOUBLE_DIAGONALS)
			score += w->king_double_diagonal;
	}
	return score;
}

/* eval_draw_scale() for rules whose kings fly or not. Every rule below is
 * a flying king's fortress; short kings (English, Italian) hold none of
 * them: two kings beat one, and an edge in the ending usually wins. */
static int draw_scale(const Position *p, const EvalWeights *w, bool kings_fly)
{
	if (!p->kings || !kings_fly)
		return 16; /* every rule below needs a flying king on the weaker side */
	int men[2], kings[2];
	for (int c = 0; c < 2; c++) {
		men[c] = bb_count(position_men(p, (Color)c));
		kings[c] = bb_count(position_kings(p, (Color)c));
	}
	int value[2] = {men[0] * w->man + kings[0] * w->king_endgame,
	                men[1] * w->man + kings[1] * w->king_endgame};
	if (value[0] == value[1])
		return 16;
	int strong = value[0] > value[1] ? 0 : 1, weak = strong ^ 1;

	/* Without a king the weaker side has no flying-king fortress. */
	if (kings[weak] == 0)
		return 16;
	if (men[strong] == 0 && men[weak] == 0) {
		/* Kings only: two kings never catch a flying king, nor do
		 * k + 1 kings catch k; three catch one unless it holds the
		 * long diagonal. */
		if (kings[strong] <= 2 || kings[strong] <= kings[weak] + 1)
			return w->drawn_scale;
		if (kings[strong] == 3 && kings[weak] == 1)
			return (position_kings(p, (Color)weak) & BB_LONG_DIAGONAL) ? w->drawn_scale : 16;
		return 16;
	}
	/* Two pieces, at most one of them a king, against a lone king: the
	 * king sits on the long diagonal or harasses the men. */
	if (men[weak] == 0 && kings[weak] == 1 && men[strong] + kings[strong] <= 2)
		return w->drawish_scale;
	/* A small edge against kings, with few pieces left, rarely wins. */
	if (men[strong] + kings[strong] <= 3 && value[strong] - value[weak] <= w->man)
		return w->drawish_scale;
	return 16;
}

int eval_draw_scale(const Position *p, const EvalWeights *w)
{
	return draw_scale(p, w, variant_rules(position_variant(p))->kings_fly);
}

int eval_evaluate(const Position *p, const EvalWeights *w)
{
	Bitboard occupied = position_occupied(p);
	int total_men = bb_count(occupied & ~p->kings);
	int king_value = (w->king_opening * total_men + w->king_endgame * (24 - total_men)) / 24;
	bool kings_fly = variant_rules(position_variant(p))->kings_fly;

	SideView black = {
	    .men = position_men(p, BLACK),
	    .kings = position_kings(p, BLACK),
	    .their_kings = position_kings(p, WHITE),
	    .occupied = occupied,
	    .kings_fly = kings_fly,
	};
	SideView white = {
	    .men = turn_board(position_men(p, WHITE)),
	    .kings = turn_board(position_kings(p, WHITE)),
	    .their_kings = turn_board(position_kings(p, BLACK)),
	    .occupied = turn_board(occupied),
	    .kings_fly = kings_fly,
	};
	int score = side_value(w, &black, king_value) - side_value(w, &white, king_value);
	if (p->side == WHITE)
		score = -score;
	score += w->tempo;

	int scale = draw_scale(p, w, kings_fly);
	if (scale != 16)
		score = score * scale / 16;
	if (score >= EVAL_LIMIT)
		score = EVAL_LIMIT - 1;
	if (score <= -EVAL_LIMIT)
		score = -EVAL_LIMIT + 1;
	return score;
}

/*
 * The plan of two kings and a man against one, per rule set: fitted to the
 * Russian databases (the Brazilian ones give the same fit) and measured in
 * Russian and Brazilian (doc/strength.md); pool's kings endings stay as
 * its steps 96 and 97 measured them.
 */
static const KingsManPlanWeights *kings_man_plan_for(Variant v)
{
	static const KingsManPlanWeights *const by_variant[VARIANT_COUNT] = {
	    [VARIANT_RUSSIAN] = &kings_man_plan_weights,
	    [VARIANT_BRAZILIAN] = &kings_man_plan_weights,
	};
	return v < VARIANT_COUNT ? by_variant[v] : NULL;
}

/* Two kings and a man against a lone king, either colour stronger. */
static bool is_kings_man_ending(const Position *p, Color *strong)
{
	for (int c = 0; c < 2; c++) {
		Bitboard mine = p->pieces[c], lone = p->pieces[c ^ 1];
		if (bb_count(lone) == 1 && (lone & p->kings) && bb_count(mine) == 3 &&
		    bb_count(mine & p->kings) == 2) {
			*strong = (Color)c;
			return true;
		}
	}
	return false;
}

bool eval_is_kings_ending(const Position *p)
{
	int black = bb_count(p->pieces[BLACK]), white = bb_count(p->pieces[WHITE]);
	if (black + white > 5 || black == white)
		return false;
	Color strong = black > white ? BLACK : WHITE;
	if (!position_men(p, strong) && position_kings(p, (Color)(strong ^ 1)))
		return true;
	return kings_man_plan_for(position_variant(p)) && is_kings_man_ending(p, &strong);
}

int eval_kings_ending(const Position *p, const EvalWeights *w)
{
	int score = 2 * eval_evaluate(p, w);
	Color strong = bb_count(p->pieces[BLACK]) > bb_count(p->pieces[WHITE]) ? BLACK : WHITE;
	/* The plans hunt a flying king off the long diagonal: short kings
	 * (English, Italian) have neither the fortress nor the hunt. */
	int bonus = variant_rules(position_variant(p))->kings_fly
	                ? kings_plan_bonus(p, strong, &kings_plan_weights)
	                : 0;
	const KingsManPlanWeights *man_plan = kings_man_plan_for(position_variant(p));
	if (man_plan)
		bonus += kings_man_plan_bonus(p, strong, man_plan);
	score += strong == p->side ? bonus : -bonus;
	if (score >= EVAL_LIMIT)
		score = EVAL_LIMIT - 1;
	if (score <= -EVAL_LIMIT)
		score = -EVAL_LIMIT + 1;
	return score;
}

#define FIELD(f, term, low, high)                                                                            \
	{                                                                                                    \
#f, term, offsetof(EvalWeights, f), (int)(sizeof(((EvalWeights *)0)->f) / sizeof(int)), low, \
		    high                                                                                     \
	}

const EvalField eval_fields[EVAL_FIELD_COUNT] = {
    FIELD(man, "men", 100, 100),
    FIELD(king_opening, "kings", 200, 1000),
    FIELD(king_endgame, "kings", 200, 1000),
    FIELD(man_row, "advancement", -200, 200),
    FIELD(tempo, "tempo", -100, 100),
    FIELD(back_guard, "back-guard", -100, 100),
    FIELD(man_centre, "centre", -100, 100),
    FIELD(man_edge, "edge", -100, 100),
    FIELD(man_mobility, "mobility", -50, 50),
    FIELD(man_backed, "backed", -50, 50),
    FIELD(man_balance, "balance", -50, 50),
    FIELD(runaway, "runaway", -300, 300),
    FIELD(runaway_per_row, NULL, -100, 100),
    FIELD(runaway_vs_kings, NULL, 0, 100),
    FIELD(king_centre, "king-centre", 0, 100),
    FIELD(king_main_diagonal, "king-diagonals", 0, 100),
    FIELD(king_double_diagonal, "king-diagonals", 0, 100),
    FIELD(king_mobility, "king-mobility", 0, 50),
    FIELD(king_trapped, "king-trapped", -300, 0),
    FIELD(drawn_scale, NULL, 0, 16),
    FIELD(drawish_scale, NULL, 0, 16),
};

_Static_assert(sizeof(EvalWeights) == 30 * sizeof(int),
               "every field of EvalWeights is listed in eval_fields (update both together)");

int eval_explain(const Position *p, const EvalWeights *w, EvalTermScore *out, int max)
{
	int score = eval_evaluate(p, w), count = 0;
	for (int f = 0; f < EVAL_FIELD_COUNT && count < max; f++) {
		const char *term = eval_fields[f].term;
		if (!term || (f > 0 && eval_fields[f - 1].term && !strcmp(eval_fields[f - 1].term, term)))
			continue;
		EvalWeights off = *w;
		for (int g = f;
		     g < EVAL_FIELD_COUNT && eval_fields[g].term && !strcmp(eval_fields[g].term, term); g++)
			memset((char *)&off + eval_fields[g].offset, 0,
			       (size_t)eval_fields[g].length * sizeof(int));
		out[count].name = term;
		out[count].value = score - eval_evaluate(p, &off);
		count++;
	}
	return count;
}
