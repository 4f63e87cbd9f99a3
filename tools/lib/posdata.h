/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Training data: the binary file of labelled positions (doc/EVAL.md), its writer and its checking reader. */
#ifndef POOLSHARK_POSDATA_H
#define POOLSHARK_POSDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "poolshark/position.h"
#include "poolshark/variant.h"

/* The layout is in doc/EVAL.md, "The data file"; these are its sizes. */
enum { POSDATA_VERSION = 1, POSDATA_HEADER_SIZE = 64, POSDATA_RECORD_SIZE = 24, POSDATA_ERROR_MAX = 256 };

#define POSDATA_MAGIC "PSHKDATA"

/* A result from the side to move's point of view. */
typedef enum PosdataResult { POSDATA_LOSS = 0, POSDATA_DRAW = 1, POSDATA_WIN = 2 } PosdataResult;

/* Record flags (a reader refuses any other bit). */
enum {
	POSDATA_FLAG_ADJUDICATED = 1, /* the game's result is the databases' value of a later position */
	POSDATA_FLAG_PLY_CAP = 2,     /* the game reached the ply cap and was scored as a draw */
	POSDATA_FLAGS_KNOWN = 3
};

typedef struct PosdataHeader {
	Variant variant;
	int egdb_pieces; /* every position of at most this many pieces has a database label; 0: none */
	uint64_t nodes;  /* search nodes per move of the games */
	uint64_t seed;   /* the generator's --seed */
	uint64_t count;  /* records */
	uint64_t checksum;
} PosdataHeader;

typedef struct PosdataRecord {
	Position pos;         /* quiet: the side to move has no capture */
	int score;            /* the search's score, side to move's view, score.h units */
	PosdataResult result; /* the game's result, side to move's view */
	bool has_egdb;        /* egdb is the databases' exact value */
	PosdataResult egdb;
	unsigned flags; /* POSDATA_FLAG_* */
	int ply;        /* plies played in the game before this position */
	uint32_t game;  /* the game's number in the run (0-based) */
} PosdataRecord;

/* The two halves of the sums that make up a file: bytes of one record and of
 * the header (whose checksum field is written as given). */
void posdata_record_encode(const PosdataRecord *r, uint8_t out[POSDATA_RECORD_SIZE]);
void posdata_header_encode(const PosdataHeader *h, uint8_t out[POSDATA_HEADER_SIZE]);

/* The checksum of a file: FNV-1a 64 over every record's bytes in file
 * order, continued over the header's first 56 bytes (all but the checksum). */
uint64_t posdata_checksum(const uint8_t *header, const uint8_t *records, size_t records_size);

/*
 * Checks a whole file image: magic, format version, header and record
 * sizes, variant, that the size holds exactly `count` records, every record
 * (posdata_record_decode), then the checksum. On success fills *h and, when
 * records is not NULL, records[0..count). On failure writes a reason that
 * names the byte offset of the first bad record (or of the bad header
 * field) to err and returns false.
 */
bool posdata_parse(const uint8_t *image, size_t size, PosdataHeader *h, PosdataRecord *records, char *err,
                   size_t err_size);

/*
 * Decodes one record of a file with header *h and checks it: side and
 * labels in range, no reserved bit, a possible position (no square of both
 * colours, no king mark on an empty square, no man on its crowning row, at
 * most 12 pieces a side), the side to move has a move and no capture, the
 * score within a won game's, and a database label exactly when the
 * position is one the header says the databases cover. False with a reason
 * (without the offset) in err.
 */
bool posdata_record_decode(const uint8_t in[POSDATA_RECORD_SIZE], const PosdataHeader *h, PosdataRecord *out,
                           char *err, size_t err_size);

/* A file read whole: its header and records (owned; posdata_free()). */
typedef struct PosdataFile {
	PosdataHeader header;
	PosdataRecord *records;
} PosdataFile;

/* Reads and checks the file at path (posdata_parse). False with
 * "PATH: reason" in err and *out empty. */
bool posdata_load(const char *path, PosdataFile *out, char *err, size_t err_size);
void posdata_free(PosdataFile *f);

/*
 * Writes a file: records go to PATH.tmp as they come, and close writes the
 * header (count and checksum) and renames the file to PATH, so that a run
 * that stops early leaves no file that looks finished.
 */
typedef struct PosdataWriter {
	FILE *file;
	PosdataHeader header;
	uint64_t hash; /* FNV-1a over the records so far */
	char path[1024], temporary[1040];
} PosdataWriter;

/* Opens PATH.tmp for a file with the fields of *h (count and checksum are
 * filled in by close, which renames it to PATH). False with a reason in err,
 * also when PATH exists and is not a regular file (a device, a pipe). */
bool posdata_writer_open(PosdataWriter *w, const char *path, const PosdataHeader *h, char *err,
                         size_t err_size);
bool posdata_writer_add(PosdataWriter *w, const PosdataRecord *r);
/* Finishes the file and renames it to PATH; false with a reason in err (the
 * temporary file is removed). */
bool posdata_writer_close(PosdataWriter *w, char *err, size_t err_size);
/* Stops writing and removes the temporary file. */
void posdata_writer_abandon(PosdataWriter *w);

/* The rule set's number in a header: 1 pool, 2 Russian, 3 Brazilian. */
uint32_t posdata_variant_code(Variant v);

#endif
