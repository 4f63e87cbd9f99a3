/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: the compressed file format (doc/EGDB.md), encoding and checking. */
#ifndef POOLSHARK_EGDB_FILE_H
#define POOLSHARK_EGDB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/egdb_class.h"

typedef struct EgdbHeader {
	uint32_t version;
	Variant variant; /* the rule set whose values the file holds */
	EgdbClass cls;
	uint32_t block;     /* positions per block */
	uint64_t positions; /* index slots */
	uint64_t wins, draws, losses, invalid;
	uint32_t longest_win, longest_loss; /* plies; 0 when none */
	uint64_t blocks;
	uint64_t payload;  /* bytes of compressed blocks */
	uint64_t checksum; /* FNV-1a 64 of everything after the header */
} EgdbHeader;

/*
 * Encodes the values of class c under variant v's rules (values[i] for
 * index i, EGDB_VALUE_NONE for slots that are no position) as a complete
 * file image, whose header names v, in a buffer the caller frees;
 * positions where the side to move has a capture are not stored. Returns
 * NULL when memory is short. Deterministic: the same values give the same
 * bytes.
 */
uint8_t *egdb_encode(Variant v, EgdbClass c, const uint8_t *values, uint64_t count, size_t *size);

/*
 * Checks the header of a file of `size` bytes from its first `have` bytes
 * (at least EGDB_HEADER_SIZE for a pass): magic, a format version this
 * program reads, a known rule set, the class and the size the header
 * promises (a truncated file fails here). Fills *h; on failure writes a
 * reason to err and returns false. Cheap: what opening a directory checks
 * of every file.
 */
bool egdb_check_header(const uint8_t *image, size_t have, size_t size, EgdbHeader *h, char *err,
                       size_t err_size);

/*
 * Checks a whole file image: egdb_check_header(), then the offsets, the
 * code and the checksum. Fills *h; on failure writes a reason to err and
 * returns false. The rule set is the caller's to compare (h->variant).
 */
bool egdb_check_image(const uint8_t *image, size_t size, EgdbHeader *h, char *err, size_t err_size);

/* "a database of Russian draughts, not pool checkers": why a file of rule
 * set `have` is refused where `want`'s are wanted, into out. */
void egdb_variant_mismatch(Variant have, Variant want, char *out, size_t size);

/* Decodes a whole checked image into values[0..h->positions). Slots that
 * are no position, and positions where the side to move has a capture
 * (the file does not store those: see egdb_value_best()), hold arbitrary
 * values. */
void egdb_image_decode(const uint8_t *image, const EgdbHeader *h, uint8_t *values);

enum { EGDB_CODE_SYMBOLS = 264, EGDB_CODE_MAX_BITS = 15 };

/* The decoding tables of one file's canonical code. */
typedef struct EgdbDecoder {
	uint16_t count[EGDB_CODE_MAX_BITS + 1];
	uint16_t symbol[EGDB_CODE_SYMBOLS];
} EgdbDecoder;

/* Builds the decoder of an image that egdb_check_image() accepted; false
 * when its code lengths are not a code. */
bool egdb_decoder_init(EgdbDecoder *d, const uint8_t *image);

/* Decodes block `block` of a checked image into out (EGDB_BLOCK values, or
 * fewer in the last block). */
void egdb_image_block(const uint8_t *image, const EgdbHeader *h, const EgdbDecoder *d, uint64_t block,
                      uint8_t *out);

#endif
