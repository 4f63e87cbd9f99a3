/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Captures under Russian and Brazilian rules: what movegen calls for them. */
#ifndef POOLSHARK_MOVEGEN_VARIANT_H
#define POOLSHARK_MOVEGEN_VARIANT_H

#include "poolshark/movegen.h"

/*
 * movegen.c answers for every variant; the capture rules that differ from
 * pool live here, compiled once per rule set, so that pool's generator has
 * no test of a variant inside its walks. Only movegen.c includes this.
 *
 * Russian (VARIANT_RUSSIAN): a man that lands on its crowning row during a
 * capture is crowned at once and goes on capturing as a flying king (the
 * move then carries `crowned` when it ends off that row). Brazilian
 * (VARIANT_BRAZILIAN): only the captures that take the most pieces are
 * legal; a man passing its crowning row stays a man. Both: complete
 * sequences, Turkish strike, one move per (from, to, captured set).
 */

/* Every capture of the side to move of *p (a Russian or Brazilian
 * position); returns their number. */
int movegen_variant_captures(const Position *p, MoveList *list);

/* The routes of capture m, as movegen_paths() (a Russian or Brazilian
 * position). */
int movegen_variant_paths(const Position *p, Move m, MovePath *paths, int max);

#endif
