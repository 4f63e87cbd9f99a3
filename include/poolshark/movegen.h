/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Legal move generation for pool checkers (RULES.md section 2) and its two variants. */
#ifndef POOLSHARK_MOVEGEN_H
#define POOLSHARK_MOVEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "poolshark/move.h"
#include "poolshark/position.h"

/*
 * Fills *list with every legal move of the side to move in *p and returns
 * their number. When any capture exists only captures are listed (2.9);
 * every capture is a complete sequence (2.5), kings obey landing priority
 * (2.6), captured pieces block until the move ends (2.7), the origin square
 * is empty during its own capture (2.8), and each (from, to, captured set)
 * appears once (2.11). Captures come before quiet moves in no other sense:
 * the two never mix. 0 means the side to move has lost (section 3). Under
 * p->variant's rules: the fields of its VariantRules (variant.h) choose the
 * capture walk (every function below answers for the position's variant).
 */
int movegen_generate(const Position *p, MoveList *list);

/*
 * Only the captures (the whole list when one exists, else an empty list);
 * returns their number. Used by quiescence search.
 */
int movegen_captures(const Position *p, MoveList *list);

/* True when the side to move has at least one capture. */
bool movegen_has_capture(const Position *p);

/*
 * The number of legal moves, as movegen_generate() would return, computed
 * without listing quiet moves (bulk counting for perft).
 */
int movegen_count(const Position *p);

/*
 * The number of legal replies summed over every legal move of *p, which is
 * perft 2, without listing the replies (the bottom of perft).
 */
uint64_t movegen_count_replies(const Position *p);

/*
 * Pool only: movegen_generate() and movegen_count_replies() without the
 * test of the variant, for a loop that has found its root to be a pool
 * position (perft's). A position of another rule set gets pool's answer,
 * which is wrong for it.
 */
int movegen_generate_pool(const Position *p, MoveList *list);
uint64_t movegen_count_replies_pool(const Position *p);

/* True when the side to move has a non-capturing move (ignoring whether a
 * capture is compulsory): the cheap half of movegen_has_moves(). */
bool movegen_has_quiet(const Position *p);

/* True when the side to move has at least one legal move. */
bool movegen_has_moves(const Position *p);

/* True when `m` is one of the legal moves of *p (same from, to and
 * captured set). */
bool movegen_is_legal(const Position *p, Move m);

/*
 * The routes by which capture m (from movegen_generate on *p) can be played:
 * writes up to `max` of them to paths and returns how many exist (0 when m
 * is not a capture of the side to move). Notation uses it to print and read
 * full paths; the move itself does not carry one (RULES.md 2.11).
 */
int movegen_paths(const Position *p, Move m, MovePath *paths, int max);

#endif
