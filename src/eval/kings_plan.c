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

/* The board turned by 180 degrees: a bit reversal on this layout. */
static Bitboard turned(Bitboard b)
{
	b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
	b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
	b = ((b >> 4) & 0x0f0f0f0fu) | ((b & 0x0f0f0f0fu) << 4);
	b = ((b >> 8) & 0x00ff00ffu) | ((b & 0x00ff00ffu) << 8);
	return (b >> 16) | (b << 16);
}

bool kings_man_plan_features(const Position *p, Color strong, KingsManPlanFeatures *out)
{
	Bitboard mine = p->pieces[strong], lone = p->pieces[strong ^ 1];
	Bitboard kings = mine & p->kings, man = mine & ~p->kings;
	if (bb_count(kings) != 2 || bb_count(man) != 1 || bb_count(lone) != 1 || !(lone & p->kings) ||
	    (lone & BB_LONG_DIAGONAL))
		return false;
	if (strong == WHITE) {
		kings = turned(kings);
		man = turned(man);
		lone = turned(lone);
	}
	out->lone = bb_lowest(lone);
	out->man = bb_lowest(man);
	int mobility = bb_king_moves(out->lone, kings | man | lone);
	out->mobility = mobility > KINGS_PLAN_MOBILITY_MAX ? KINGS_PLAN_MOBILITY_MAX : mobility;
	out->diagonal[0] = (kings & BB_LONG_DIAGONAL) != 0;
	out->diagonal[1] = (kings & BB_DOUBLE_DIAGONAL_LOW) != 0;
	out->diagonal[2] = (kings & BB_DOUBLE_DIAGONAL_HIGH) != 0;
	for (int i = 0; i < 2; i++, kings &= kings - 1)
		out->strong[i] = bb_lowest(kings);
	return true;
}

int kings_man_plan_bonus(const Position *p, Color strong, const KingsManPlanWeights *w)
{
	KingsManPlanFeatures f;
	if (!kings_man_plan_features(p, strong, &f))
		return 0;
	int bonus = w->lone[f.lone] + w->mobility[f.mobility] + w->man_pair[f.lone][f.man] - w->centre;
	for (int i = 0; i < 3; i++)
		bonus += f.diagonal[i] ? w->diagonal[i] : 0;
	for (int i = 0; i < 2; i++)
		bonus += w->king_pair[f.lone][f.strong[i]];
	return bonus;
}
