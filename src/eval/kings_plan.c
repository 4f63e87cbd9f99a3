/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plan of three kings against a lone king (doc/EVAL.md, "Kings endings"). */
#include "poolshark/kings_plan.h"

#include "poolshark/bitboard.h"

bool kings_plan_features(const Position *p, Color strong, KingsPlanFeatures *out)
{
	Bitboard kings = p->pieces[strong], lone = p->pieces[strong ^ 1];
	if (bb_count(kings) != 3 || bb_count(lone) != 1 || (lone & BB_LONG_DIAGONAL) ||
	    ((kings | lone) & ~p->kings))
		return false;
	out->lone = bb_lowest(lone);
	int mobility = bb_king_moves(out->lone, position_occupied(p));
	out->mobility = mobility > KINGS_PLAN_MOBILITY_MAX ? KINGS_PLAN_MOBILITY_MAX : mobility;
	out->diagonal[0] = (kings & BB_LONG_DIAGONAL) != 0;
	out->diagonal[1] = (kings & BB_DOUBLE_DIAGONAL_LOW) != 0;
	out->diagonal[2] = (kings & BB_DOUBLE_DIAGONAL_HIGH) != 0;
	for (int i = 0; i < 3; i++, kings &= kings - 1)
		out->strong[i] = bb_lowest(kings);
	return true;
}

int kings_plan_bonus(const Position *p, Color strong, const KingsPlanWeights *w)
{
	KingsPlanFeatures f;
	if (!kings_plan_features(p, strong, &f))
		return 0;
	int bonus = w->lone[f.lone] + w->mobility[f.mobility] - w->centre;
	for (int i = 0; i < 3; i++)
		bonus += (f.diagonal[i] ? w->diagonal[i] : 0) + w->pair[f.lone][f.strong[i]];
	return bonus;
}
