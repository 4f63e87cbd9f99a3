/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: material classes, position indexing and the value of a position. */
#ifndef POOLSHARK_EGDB_CLASS_H
#define POOLSHARK_EGDB_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/position.h"
#include "poolshark/score.h"

/*
 * Every position is stored from the side to move's point of view, turned so
 * that the side to move plays Black (the board turned 180 degrees and the
 * colours swapped when White is to move: RULES.md 1 makes that a symmetry).
 * A material class is then (mover's men, mover's kings, other's men, other's
 * kings); the classes X v Y and Y v X are solved together because a quiet
 * move of either side leads from one to the other. doc/EGDB.md has the
 * details and the file layout.
 */
enum {
	EGDB_MAX_PIECES = 8, /* the largest total the index and names allow */
	EGDB_FORMAT_VERSION = 1,
	EGDB_BLOCK = 256,       /* positions per compressed block */
	EGDB_HEADER_SIZE = 128, /* bytes before the block offset table */
	EGDB_MAX_DISTANCE = 253 /* the longest distance a value byte can hold */
};

/* The rule set a file's header names: its Variant plus one (pool 1,
 * Russian 2, Brazilian 3, English 4, Italian 5, Spanish 6, Czech 7), so
 * that pool's files of the first format stay valid as they are. */
static inline uint32_t egdb_variant_code(Variant v)
{
	return (uint32_t)v + 1;
}

/* The Variant of a header's code: false for a code no rule set has. */
static inline bool egdb_variant_of_code(uint32_t code, Variant *out)
{
	if (code < 1 || code > VARIANT_COUNT)
		return false;
	*out = (Variant)(code - 1);
	return true;
}

_Static_assert((int)EGDB_MAX_DISTANCE < (int)SCORE_DATABASE_PLIES, "database distances fit the score scale");

typedef struct EgdbClass {
	uint8_t men[2]; /* [0] side to move, [1] the other side */
	uint8_t kings[2];
} EgdbClass;

/*
 * A stored value, one byte: 0 is a draw (with the draw counters ignored),
 * otherwise the distance d in plies to the end of the game under best play
 * plus one. d is odd when the side to move wins (its fastest win) and even
 * when it loses (its longest defence; 0: it has no legal move now).
 * EGDB_VALUE_NONE marks an index that is no position.
 */
enum { EGDB_VALUE_DRAW = 0, EGDB_VALUE_NONE = 255 };

typedef enum EgdbResult { EGDB_LOSS = -1, EGDB_DRAW = 0, EGDB_WIN = 1 } EgdbResult;

static inline EgdbResult egdb_value_result(uint8_t v)
{
	if (v == EGDB_VALUE_DRAW)
		return EGDB_DRAW;
	return ((v - 1) & 1) ? EGDB_WIN : EGDB_LOSS;
}

/* Plies to the end for a won or lost value (0 for a draw). */
static inline int egdb_value_distance(uint8_t v)
{
	return v == EGDB_VALUE_DRAW ? 0 : v - 1;
}

/* *p seen from the side to move: Black to move, turned and recoloured when
 * White was to move, under *p's rules. The key is recomputed. */
void egdb_normalize(const Position *p, Position *out);

/* The class of a position (any side to move). */
void egdb_class_of(const Position *p, EgdbClass *out);

static inline int egdb_class_pieces(const EgdbClass *c)
{
	return c->men[0] + c->kings[0] + c->men[1] + c->kings[1];
}

/* The same material with the other side to move. */
static inline EgdbClass egdb_class_swap(EgdbClass c)
{
	EgdbClass s = {{c.men[1], c.men[0]}, {c.kings[1], c.kings[0]}};
	return s;
}

static inline bool egdb_class_equal(EgdbClass a, EgdbClass b)
{
	return a.men[0] == b.men[0] && a.men[1] == b.men[1] && a.kings[0] == b.kings[0] &&
	       a.kings[1] == b.kings[1];
}

/* A dense number for a class with at most EGDB_MAX_PIECES pieces, below
 * EGDB_CLASS_KEYS (for tables indexed by class). */
enum { EGDB_CLASS_KEYS = 9 * 9 * 9 * 9 };
static inline int egdb_class_key(EgdbClass c)
{
	return ((c.men[0] * 9 + c.kings[0]) * 9 + c.men[1]) * 9 + c.kings[1];
}

/* The file name stem of a class, "m1k2-m0k1" (side to move first). */
void egdb_class_name(EgdbClass c, char *out, size_t size);

/* Parses egdb_class_name()'s form; false on anything else. */
bool egdb_class_parse(const char *text, EgdbClass *out);

/* The number of index slots of the class (some are no position: men of both
 * colours on one square). 0 when the class has more than EGDB_MAX_PIECES. */
uint64_t egdb_class_size(EgdbClass c);

/* The index of a normalised position (Black to move) in its class. */
uint64_t egdb_index(const Position *normalised, EgdbClass c);

/* The normalised position (Black to move, played under variant v) at
 * `index` of class c; false when that slot is no position. index must be
 * below egdb_class_size(c). */
bool egdb_position(Variant v, EgdbClass c, uint64_t index, Position *out);

/*
 * Every class with 2..max_pieces pieces and at least one piece a side, as
 * pairs to solve together, in an order where each pair only depends on pairs
 * before it: by pieces, then by men (captures remove a piece, a crowning
 * turns a man into a king). out[i] is X v Y with X's key <= Y's key; group[i]
 * numbers the sets of pairs that do not depend on each other (same pieces
 * and men). Writes at most `max` and returns the number of pairs.
 */
int egdb_class_pairs(int max_pieces, EgdbClass *out, int *group, int max);

/* The value of a position whose moves lead to positions of values
 * next[0..n) (each from the opponent's view): the fastest win, else a draw,
 * else the longest loss; no move is a loss now. */
uint8_t egdb_value_best(const uint8_t *next, int n);

/* Finds the value of *p (from the view of its side to move): false when it
 * is not known. `context` is what egdb_value_of_moves() was given. */
typedef bool (*EgdbValueOf)(const void *context, const Position *p, uint8_t *value);

/* The value of *p from its moves in *list: egdb_value_best() of the values
 * value_of gives the positions they lead to. False, *value untouched, when
 * value_of does not know one of them. The probe, the database builder
 * and its check all derive values this way. */
bool egdb_value_of_moves(const Position *p, const MoveList *list, EgdbValueOf value_of, const void *context,
                         uint8_t *value);

#endif
