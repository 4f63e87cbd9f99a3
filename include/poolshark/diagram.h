/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The board drawn for people: pieces beside square names, as text lines. */
#ifndef POOLSHARK_DIAGRAM_H
#define POOLSHARK_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "poolshark/position.h"

enum { DIAGRAM_MAX = 2048 };

/*
 * A diagram for people: the pieces (b/w men, B/W kings) beside the square
 * names (numbers in pool, English, Italian and Spanish, algebraic `c3` in
 * Russian, Brazilian and Czech; Italian and Spanish boards mirrored), the
 * side to move and the FEN, as newline-separated lines without
 * a final newline. `flipped` puts White's side at the top (pool's square 32 top
 * left). No line contains '=' or '"', so each reads as a harmless Hub line.
 * Cut to `size` (DIAGRAM_MAX always holds it).
 */
void diagram_draw(const Position *p, bool flipped, char *out, size_t size);

#endif
