/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Static evaluation in hundredths of a man, from the side to move's view. */
#ifndef POOLSHARK_EVAL_H
#define POOLSHARK_EVAL_H

#include <stddef.h>

#include "poolshark/position.h"

/*
 * Every weight of the evaluation, in hundredths of a man, in one table so
 * that a tuner can fit them from games and hand the result to the search.
 * Rows are counted from a side's own back row (0) toward its crowning row;
 * the tables are written for Black and mirrored for White.
 */
typedef struct EvalWeights {
	int man;                  /* value of a man */
	int king_opening;         /* value of a king with all 24 men on the board */
	int king_endgame;         /* value of a king with no man left; linear between */
	int man_row[7];           /* advancement: a man on row 0..6 */
	int tempo;                /* bonus of the side to move */
	int back_guard[4];        /* a man still on own back row square 1..4 (Black's view) */
	int man_centre;           /* a man on 14, 15, 18 or 19 */
	int man_edge;             /* a man on the a or h file */
	int man_mobility;         /* per quiet step a man could make */
	int man_backed;           /* a man no piece can jump from the front */
	int man_balance;          /* per man of difference between the board's halves */
	int runaway;              /* a man with a free path to the crowning row ... */
	int runaway_per_row;      /* ... minus this per row it still has to go */
	int runaway_vs_kings;     /* percent of the runaway bonus kept against kings */
	int king_centre;          /* a king on the four centre squares */
	int king_main_diagonal;   /* a king on the long diagonal 4-29 */
	int king_double_diagonal; /* a king on 1-28 or 5-32 */
	int king_mobility;        /* per square a king can move to (one step for short kings) */
	int king_trapped;         /* a king with no quiet move at all */
	int drawn_scale;          /* sixteenths kept in a drawn flying-king ending */
	int drawish_scale;        /* sixteenths kept where a flying king likely holds */
} EvalWeights;

/* The weights the engine plays with in pool checkers. */
extern const EvalWeights eval_default_weights;

/* The weights the engine plays with in variant v (v < VARIANT_COUNT):
 * eval_default_weights in pool; English and Italian a table fitted to
 * each; the others keep a table of pool's until a table fitted to them
 * wins a match there (doc/tuning.md, "Weights per variant"). */
const EvalWeights *eval_weights_for(Variant v);

/* A score this large or larger is never produced by eval_evaluate(). */
enum { EVAL_LIMIT = 9000 };

/*
 * The static value of *p for the side to move, in hundredths of a man, with
 * |result| < EVAL_LIMIT. Pure: depends only on *p and *w. Says nothing of
 * pending captures; the search resolves those first.
 */
int eval_evaluate(const Position *p, const EvalWeights *w);

/*
 * True when *p is a kings ending: five pieces or fewer, one side ahead in
 * pieces with kings only, the other with at least one king (and maybe
 * men, as in three kings against a king and a man); and, in Russian and
 * Brazilian, two kings and a man against a lone king. These are the
 * endings the search scores by eval_kings_ending() instead of the network
 * (doc/EVAL.md, "Kings endings"), in every rule set: flying kings make
 * them the same endings, and the plans' fits to each rule set's databases
 * are the same fits (tests/test_egdb.c). Under short kings (English,
 * Italian) they are scored the same way, without the plans.
 */
bool eval_is_kings_ending(const Position *p);

/*
 * The value of such an ending for the side to move, |result| < EVAL_LIMIT:
 * twice eval_evaluate() (the network's scale there), and, in three kings
 * against one with the lone king off the long diagonal 4-29, where kings
 * fly, the stronger side's plan, kings_plan_bonus() with the compiled-in
 * weights (fitted to the databases' distances to the win), and in Russian
 * and Brazilian two kings and a man against one the same with
 * kings_man_plan_bonus(). Pure; meaningful only where
 * eval_is_kings_ending(p).
 */
int eval_kings_ending(const Position *p, const EvalWeights *w);

/*
 * How much of the score survives the drawish-material rules, in sixteenths
 * (16 = all of it, 0 = a dead draw). The rules are flying kings'
 * fortresses: under short kings (the position's VariantRules.kings_fly
 * false) it is always 16. Exposed for tests.
 */
int eval_draw_scale(const Position *p, const EvalWeights *w);

/*
 * One field of EvalWeights, described once for everything that walks the
 * weights: its name, its place, its length in ints, the term of the
 * breakdown it belongs to (NULL: none; the scales and the runaway details
 * are not terms of their own), and the range a fit keeps it in. The ranges
 * keep every term pulling the way its name says (a trapped king costs, a
 * king's mobility and good squares pay, a king is worth at least two men),
 * which self-play at a small depth cannot always show: it rarely converts a
 * won king ending, so the data alone would price kings near a man and
 * reward trapped kings. The scales stay in their meaningful ranges
 * (sixteenths, a percentage).
 */
typedef struct EvalField {
	const char *name;
	const char *term;
	size_t offset;
	int length;
	int tune_low, tune_high;
} EvalField;

enum { EVAL_FIELD_COUNT = 21, EVAL_TERM_MAX = 16 };

/* Every field of EvalWeights, in declaration order. */
extern const EvalField eval_fields[EVAL_FIELD_COUNT];

/* One term of the breakdown: its name and what it contributes. */
typedef struct EvalTermScore {
	const char *name;
	int value;
} EvalTermScore;

/*
 * The terms of the evaluation of *p under *w, in field order: each is the
 * drop of the score when the weights of that term are set to zero, so a
 * term shows what its idea contributes here (they need not add up to the
 * score, because the drawish-material scale multiplies them all). Writes
 * at most `max` and returns how many were written.
 */
int eval_explain(const Position *p, const EvalWeights *w, EvalTermScore *out, int max);

#endif
