/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers: scratch directories, files and programs; seeded PRNG, positions, move list checks. */
#ifndef POOLSHARK_TESTS_SUPPORT_H
#define POOLSHARK_TESTS_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/move.h"
#include "poolshark/position.h"
#include "reference.h"

/* A small deterministic PRNG (splitmix64) so that every run sees the same
 * positions. */
typedef struct Rng {
	uint64_t state;
} Rng;

uint64_t rng_next(Rng *r);

/* Uniform in [0, n); n > 0. */
int rng_below(Rng *r, int n);

/*
 * A position from a FEN-like text "W:WK3,21:B9" (turn, then W and B lists,
 * square numbers with an optional K, no ranges). This is a deliberately
 * separate, strict reader so that tests of the generator do not depend on
 * src/rules/notation.c; it aborts the test program on text it does not accept.
 */
Position support_position(const char *text);

/* The same form written back ("W:W21,K22:B3"), White first, ascending. */
void support_describe(const Position *p, char *out, size_t size);

/* A move from 1-based squares and a captured list given as a mask of bits
 * (square n -> bit n-1). */
Move support_move(int from, int to, uint32_t captured);

/*
 * Reads a space-separated list of moves in Hub form, from the rules rather
 * than from our notation module: "11-15" or "from x to x captured x ...".
 * Returns the number stored (aborts on malformed text or overflow).
 */
int support_parse_moves(const char *text, Move *out, int capacity);

/* Hub form of a move: "11-15" or "9x11x6x7" (captured ascending). */
void support_format_move(Move m, char *out, size_t size);

/* All moves in Hub form, sorted, separated by spaces. */
void support_format_moves(const Move *moves, int count, char *out, size_t size);

/* Sorts moves by (from, to, captured). */
void support_sort_moves(Move *moves, int count);

/* True when both lists hold the same set of moves and neither lists a
 * move twice. */
bool support_same_moves(const Move *a, int a_count, const Move *b, int b_count);

/* Converts between the library's Position and the reference board. */
void support_to_reference(const Position *p, RefBoard *out);
void support_from_reference(const RefBoard *b, Position *out);

/* The reference generator's moves for *p as library moves; returns count. */
int support_reference_moves(const Position *p, Move *out, int capacity);

/*
 * Compares movegen_generate() with the reference generator on *p. On a
 * mismatch prints the position and both lists (prefixed by `label`) to
 * stderr and returns false.
 */
bool support_check_against_reference(const Position *p, const char *label);

/*
 * Checks the legal moves of the position `fen` (support_position form)
 * against `expected` (support_parse_moves form): movegen_generate must list
 * exactly that set, each move once, and so must the reference generator;
 * movegen_count, movegen_has_capture and movegen_has_moves must agree. Prints
 * what differs and returns false on any mismatch.
 */
bool support_check_moves(const char *fen, const char *expected);

/* ---- A suite's files and programs. ---- */

/* Makes a fresh directory /tmp/SUITE.XXXXXX and writes its path to
 * dir[size]. False, after a message naming the suite, when it cannot:
 * a setup returns -1 then (the cmocka convention). */
bool support_scratch_dir(const char *suite, char *dir, size_t size);

/* Removes a scratch directory and everything in it; 0 on success (the
 * cmocka teardown convention). */
int support_remove_dir(const char *dir);

/* A cmocka group teardown: support_remove_dir() of the directory *state
 * names (the group setup stores its scratch directory there). */
int support_teardown_dir(void **state);

/* "DIR/NAME", in one of four buffers that the calls take in turn (so a
 * statement may hold up to four); fails the test when it is longer than
 * 1023 bytes. */
const char *support_path(const char *dir, const char *name);

/* Writes `size` bytes to DIR/NAME (dir NULL: name is the whole path),
 * replacing the file; fails the test when it cannot. */
void support_write_file(const char *dir, const char *name, const void *bytes, size_t size);

/* support_write_file() of a string, without its NUL. */
void support_write_text(const char *dir, const char *name, const char *text);

/* The engine program: $POOLSHARK_BIN (make test sets it), else
 * ./poolshark (the copy the top directory holds). */
const char *support_engine(void);

/* Writes to out the absolute path of program `name` in the directory
 * $TOOL_DIR (relative to the working directory when it is not absolute;
 * make test sets it). False, after a message naming the suite, when
 * TOOL_DIR is unset or the path does not fit. */
bool support_tool_path(const char *suite, const char *name, char *out, size_t size);

/* The same for a helper program of tests/helpers, in $HELPER_DIR. */
bool support_helper_path(const char *suite, const char *name, char *out, size_t size);

/* The exit status of the shell command made from format, run in directory
 * dir (NULL: the working directory); -1 when a signal ended it. Its output
 * goes where the test's goes. */
int support_shell(const char *dir, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The output and exit status of a shell command (support_run). */
typedef struct SupportRun {
	int status; /* the exit status, -1 when killed by a signal */
	char text[32768];
} SupportRun;

/* Runs the shell command made from format (stderr joined to stdout) and
 * keeps its output, cut at sizeof r->text - 1 bytes, and exit status. */
void support_run(SupportRun *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* What one run of the engine printed (support_exec). */
enum { SUPPORT_OUTPUT_MAX = 1 << 17 };
typedef struct SupportExec {
	int status;                                            /* the exit status; -1 when killed */
	char out[SUPPORT_OUTPUT_MAX], err[SUPPORT_OUTPUT_MAX]; /* cut at SUPPORT_OUTPUT_MAX - 1 bytes */
	size_t out_length;
} SupportExec;

/* Runs the engine (support_engine()) with the words of args (NULL-terminated,
 * at most 30) and keeps its standard output and error apart, without a
 * shell; kills it after timeout_seconds (status -1, and a line on stderr). */
void support_exec(SupportExec *r, const char *const *args, int timeout_seconds);

/* ---- Positions. ---- */

/* True when m is one of the legal moves of *p. */
bool support_is_legal(const Position *p, Move m);

/*
 * A random legal setup: each side gets 0..max_men men (never on its own
 * crowning row) and 0..max_kings kings, at least one piece each, random
 * side to move.
 */
void support_random_position(Rng *r, int max_men, int max_kings, Position *out);

/* Three kings and one lone king on random distinct squares (bitboards). */
void support_random_three_kings_against_one(Rng *r, Bitboard *kings, Bitboard *lone);

/*
 * Plays up to `plies` random legal moves from *start with movegen; stops
 * early where the side to move has no move. Returns the plies played.
 */
int support_random_walk(Rng *r, const Position *start, int plies, Position *out);

#endif
