/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: a set of files in a directory, mapped lazily and probed by the search. */
#ifndef POOLSHARK_EGDB_H
#define POOLSHARK_EGDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/egdb_class.h"
#include "poolshark/egdb_file.h"
#include "poolshark/move.h"
#include "poolshark/position.h"

/* A set of database files in one directory, memory-mapped class by class on
 * first use; safe to probe from several threads at once. */
typedef struct Egdb Egdb;

/*
 * Opens the databases of rule set v in directory `dir`, or, when `dir`
 * holds none of v's, in its subdirectory named after v ("russian",
 * doc/EGDB.md): the header of every file is read (files are mapped lazily).
 * NULL with a reason in err when the directory cannot be read, holds no
 * database file of v, or holds a file that cannot be used (of another rule
 * set, of a newer format, truncated): the reason names the file.
 */
Egdb *egdb_open(const char *dir, Variant v, char *err, size_t err_size);
void egdb_close(Egdb *db);

/* The rule set of the databases (the one egdb_open() was asked for). */
Variant egdb_variant(const Egdb *db);

/* The directory the files were found in: `dir`, or its subdirectory. */
const char *egdb_dir(const Egdb *db);

/* The most pieces for which every class is present (0 if none is complete). */
int egdb_max_pieces(const Egdb *db);

/*
 * The value of *p (any side to move) into *value: read from its class's
 * file, or, when the side to move has a capture, the best over the captures'
 * values (egdb_value_best). False when *p is played under other rules than
 * the databases', or a class needed is not in the set (or its file is
 * unreadable or corrupt: such a class is then treated as absent). Draw
 * counters are not part of the value: callers apply them.
 */
bool egdb_probe(Egdb *db, const Position *p, uint8_t *value);

/* The databases' verdict on a position, for the side to move: its result
 * and the plies to the end under best play (0 for a draw). */
typedef struct EgdbVerdict {
	EgdbResult result;
	int plies;
} EgdbVerdict;

/* One legal move of a looked-up position and its verdict for the side
 * that plays it. */
typedef struct EgdbMoveVerdict {
	Move move;
	EgdbVerdict verdict;
} EgdbMoveVerdict;

/*
 * The verdict on *p and on each of its legal moves (at most `max`
 * written), from the mover's view, best first: the fastest wins, the
 * draws, then the slowest losses (moves of equal verdict in generation
 * order). Returns the number of legal moves, or -1 when *p or a position a
 * move leads to is not in the set. The draw counters are not part of the
 * verdict, as in the files: a win the 25-move rule could stop reads as won.
 */
int egdb_lookup(Egdb *db, const Position *p, EgdbVerdict *verdict, EgdbMoveVerdict *moves, int max);

/*
 * The default database directory of the programs, written to out: "databases"
 * beside the running executable (where `make egdb` puts it) when that
 * directory exists, else an installed copy's PREFIX/share/poolshark/egdb
 * (poolshark_installed_egdb_dir) when that one exists; otherwise "" (no
 * databases). The Windows DLL has none: its host names the directory.
 */
void egdb_default_dir(char *out, size_t size);

#endif
