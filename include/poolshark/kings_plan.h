/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plan of three kings against a lone king: a bonus learned from the endgame databases. */
#ifndef POOLSHARK_KINGS_PLAN_H
#define POOLSHARK_KINGS_PLAN_H

#include <stdbool.h>

#include "poolshark/position.h"

enum { KINGS_PLAN_MOBILITY_MAX = 13 };

/*
 * What the plan looks at in three kings against one with the lone king off
 * the long diagonal 4-29 (on it, the ending is drawn): squares 0-31 as in
 * the bitboards, seen from the board as it stands (the ending has no
 * direction, so no colour is mirrored).
 */
typedef struct KingsPlanFeatures {
	int lone;         /* the lone king's square */
	int mobility;     /* the squares it can move to, at most KINGS_PLAN_MOBILITY_MAX */
	bool diagonal[3]; /* a strong king on the long diagonal 4-29, on 1-28, on 5-32 */
	int strong[3];    /* the strong kings' squares */
} KingsPlanFeatures;

/*
 * The weights, in hundredths of a man: the predicted plies to the win times
 * -KINGS_PLAN_PER_PLY, as sums of a term per lone king's square, per
 * mobility, per diagonal held and per (lone king's square, strong king's
 * square) pair, less `centre` (the mean over the positions fitted).
 */
typedef struct KingsPlanWeights {
	short lone[32];
	short mobility[KINGS_PLAN_MOBILITY_MAX + 1];
	short diagonal[3];
	short pair[32][32];
	int centre;
} KingsPlanWeights;

enum { KINGS_PLAN_PER_PLY = 16 };

/* The compiled-in weights, fitted by `pool-egdb fit-plan` (doc/EVAL.md,
 * "Kings endings"); src/eval/kings_plan_weights.c is that command's output. */
extern const KingsPlanWeights kings_plan_weights;

/*
 * Fills *out when *p is three kings of `strong` against one king with the
 * lone king off the long diagonal (men: none); false otherwise. Pure.
 */
bool kings_plan_features(const Position *p, Color strong, KingsPlanFeatures *out);

/*
 * The stronger side's bonus from its own point of view: the weights summed
 * over *p's features, 0 when kings_plan_features() is false. Pure.
 */
int kings_plan_bonus(const Position *p, Color strong, const KingsPlanWeights *w);

/*
 * The plan of two kings and a man against a lone king off the long
 * diagonal, seen from the stronger side with its man walking toward square
 * 32 (the board turned by 180 degrees when the stronger side is White, as
 * eval.c turns White's pieces): squares 0-31 of that view.
 */
typedef struct KingsManPlanFeatures {
	int lone;         /* the lone king's square */
	int man;          /* the man's square */
	int mobility;     /* the lone king's squares to move to, at most KINGS_PLAN_MOBILITY_MAX */
	bool diagonal[3]; /* a strong king on the long diagonal, on 1-28, on 5-32 */
	int strong[2];    /* the kings' squares */
} KingsManPlanFeatures;

/* As KingsPlanWeights, with a pair table for the man beside the kings'. */
typedef struct KingsManPlanWeights {
	short lone[32];
	short mobility[KINGS_PLAN_MOBILITY_MAX + 1];
	short diagonal[3];
	short king_pair[32][32]; /* [lone king's square][a king's square] */
	short man_pair[32][32];  /* [lone king's square][the man's square] */
	int centre;
} KingsManPlanWeights;

/* The compiled-in weights, fitted by `pool-egdb fit-plan --variant russian
 * --material m1k2-m0k1` (src/eval/kings_man_plan_weights.c). */
extern const KingsManPlanWeights kings_man_plan_weights;

/*
 * Fills *out when *p is two kings and a man of `strong` against one king
 * with the lone king off the long diagonal; false otherwise. Pure.
 */
bool kings_man_plan_features(const Position *p, Color strong, KingsManPlanFeatures *out);

/* The stronger side's bonus from its own point of view, 0 when
 * kings_man_plan_features() is false. Pure. */
int kings_man_plan_bonus(const Position *p, Color strong, const KingsManPlanWeights *w);

#endif
