/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A position and each of its moves looked up in the endgame databases, for people (Syzygy-style). */

#include "poolshark/egdb.h"
#include "poolshark/movegen.h"

static EgdbVerdict verdict_of(uint8_t value)
{
	return (EgdbVerdict){egdb_value_result(value), egdb_value_distance(value)};
}

/* Sorts best first for the mover: fastest win, draw, slowest loss. */
static int rank(const EgdbVerdict *v)
{
	if (v->result == EGDB_WIN)
		return 1000 - v->plies;
	if (v->result == EGDB_LOSS)
		return -1000 + v->plies;
	return 0;
}

int egdb_lookup(Egdb *db, const Position *p, EgdbVerdict *verdict, EgdbMoveVerdict *moves, int max)
{
	uint8_t value;
	if (!db || !egdb_probe(db, p, &value))
		return -1;
	*verdict = verdict_of(value);
	MoveList list;
	movegen_generate(p, &list);
	EgdbMoveVerdict all[MOVELIST_CAPACITY];
	for (int i = 0; i < list.count; i++) {
		Position next;
		position_make(p, list.moves[i], &next);
		if (!egdb_probe(db, &next, &value))
			return -1;
		/* The position after the move is the opponent's: its win is the
		 * mover's loss, one ply further from the end. */
		EgdbVerdict theirs = verdict_of(value);
		EgdbVerdict mine = {(EgdbResult)-theirs.result,
		                    theirs.result == EGDB_DRAW ? 0 : theirs.plies + 1};
		/* Insertion sort, stable: equal verdicts keep the generation order. */
		int at = i;
		while (at > 0 && rank(&all[at - 1].verdict) < rank(&mine)) {
			all[at] = all[at - 1];
			at--;
		}
		all[at] = (EgdbMoveVerdict){list.moves[i], mine};
	}
	for (int i = 0; i < list.count && i < max; i++)
		moves[i] = all[i];
	return list.count;
}
