/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Move list helpers. */
#include "poolshark/move.h"

#include <stdlib.h>

static int compare_moves(const void *a, const void *b)
{
	const Move *x = a, *y = b;
	if (x->from != y->from)
		return x->from - y->from;
	if (x->to != y->to)
		return x->to - y->to;
	return x->captured < y->captured ? -1 : x->captured > y->captured;
}

void movelist_sort(MoveList *list)
{
	qsort(list->moves, (size_t)list->count, sizeof list->moves[0], compare_moves);
}
