/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The opening book: moves and weights by Zobrist key, read from the file format of doc/BOOK.md. */
#ifndef POOLSHARK_BOOK_H
#define POOLSHARK_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/move.h"
#include "poolshark/position.h"

enum {
	BOOK_VERSION = 1,
	BOOK_HEADER_BYTES = 32,
	BOOK_ENTRY_BYTES = 16,
	BOOK_MAX_ENTRIES = 1 << 20, /* 16 MiB: a larger file is refused */
	BOOK_ERROR_MAX = 320
};

/* One move of a book position: how often to play it relative to the
 * position's other book moves (1..65535). */
typedef struct BookEntry {
	uint64_t key;
	Move move;
	uint16_t weight;
} BookEntry;

/* A loaded book, read-only. Opaque. */
typedef struct Book Book;

/*
 * Opens the book a `book` setting names: "off" gives *out = NULL (no book),
 * "default" the book compiled into the program (book/default.book), any
 * other text is a file path. False, with *out untouched and a message
 * naming the file and the problem (missing, unreadable, not a book, other
 * version, damaged: checksum, size or order) in error, when it cannot be
 * used. Free with book_free().
 */
bool book_open(const char *setting, Book **out, char *error, size_t size);

/* Reads a book from `length` bytes (copied). NULL with a message in error
 * when they are not a valid book of this version. */
Book *book_from_bytes(const uint8_t *data, size_t length, char *error, size_t size);

void book_free(Book *book);

/* How many moves (entries) the book holds. */
int book_entry_count(const Book *book);

/*
 * The book moves of *p that are legal there (an entry that is not, from a
 * key collision, is left out), with their weights, at most `max`; returns
 * how many were written (0: *p is not in the book).
 */
int book_moves(const Book *book, const Position *p, Move *moves, int *weights, int max);

/* A book move of *p drawn with probability proportional to its weight
 * from the generator *random; false when *p is not in the book. */
bool book_pick(const Book *book, const Position *p, uint64_t *random, Move *out);

/*
 * Writes `count` entries (sorted here by key, then by falling weight) as a
 * book file of this version. False with a message when the file cannot be
 * written or an entry is bad (weight 0, square out of range).
 */
bool book_write(const char *path, BookEntry *entries, int count, char *error, size_t size);

#endif
