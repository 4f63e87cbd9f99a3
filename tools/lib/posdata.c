/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Training data: the binary file of labelled positions (doc/EVAL.md), its writer and its checking reader. */
#include "posdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "poolshark/bytes.h"
#include "poolshark/checksum.h"
#include "poolshark/egdb_file.h"
#include "poolshark/movegen.h"
#include "poolshark/score.h"

enum {
	OFFSET_VERSION = 8,
	OFFSET_HEADER_SIZE = 12,
	OFFSET_RECORD_SIZE = 16,
	OFFSET_VARIANT = 20,
	OFFSET_EGDB_PIECES = 24,
	OFFSET_RESERVED = 28,
	OFFSET_NODES = 32,
	OFFSET_SEED = 40,
	OFFSET_COUNT = 48,
	OFFSET_CHECKSUM = 56
};
/* More records than a file may claim and still be read (24 GiB). */
#define POSDATA_MAX_RECORDS (UINT64_C(1) << 30)
_Static_assert(OFFSET_CHECKSUM + 8 == POSDATA_HEADER_SIZE, "the checksum ends the header");
_Static_assert(sizeof POSDATA_MAGIC - 1 == OFFSET_VERSION, "the magic fills the first 8 bytes");

uint32_t posdata_variant_code(Variant v)
{
	return (uint32_t)v + 1;
}

void posdata_record_encode(const PosdataRecord *r, uint8_t out[POSDATA_RECORD_SIZE])
{
	bytes_put32(out + 0, r->pos.pieces[BLACK]);
	bytes_put32(out + 4, r->pos.pieces[WHITE]);
	bytes_put32(out + 8, r->pos.kings);
	out[12] = (uint8_t)r->pos.side;
	out[13] = (uint8_t)r->result;
	out[14] = r->has_egdb ? (uint8_t)(1 + r->egdb) : 0;
	out[15] = (uint8_t)r->flags;
	bytes_put16(out + 16, (uint16_t)(int16_t)r->score);
	bytes_put16(out + 18, (uint16_t)r->ply);
	bytes_put32(out + 20, r->game);
}

void posdata_header_encode(const PosdataHeader *h, uint8_t out[POSDATA_HEADER_SIZE])
{
	memset(out, 0, POSDATA_HEADER_SIZE);
	memcpy(out, POSDATA_MAGIC, OFFSET_VERSION);
	bytes_put32(out + OFFSET_VERSION, POSDATA_VERSION);
	bytes_put32(out + OFFSET_HEADER_SIZE, POSDATA_HEADER_SIZE);
	bytes_put32(out + OFFSET_RECORD_SIZE, POSDATA_RECORD_SIZE);
	bytes_put32(out + OFFSET_VARIANT, posdata_variant_code(h->variant));
	bytes_put32(out + OFFSET_EGDB_PIECES, (uint32_t)h->egdb_pieces);
	bytes_put64(out + OFFSET_NODES, h->nodes);
	bytes_put64(out + OFFSET_SEED, h->seed);
	bytes_put64(out + OFFSET_COUNT, h->count);
	bytes_put64(out + OFFSET_CHECKSUM, h->checksum);
}

uint64_t posdata_checksum(const uint8_t *header, const uint8_t *records, size_t records_size)
{
	uint64_t hash = checksum_fnv1a(CHECKSUM_FNV_OFFSET, records, records_size);
	return checksum_fnv1a(hash, header, OFFSET_CHECKSUM);
}

bool posdata_record_decode(const uint8_t in[POSDATA_RECORD_SIZE], const PosdataHeader *h, PosdataRecord *out,
                           char *err, size_t err_size)
{
	uint8_t side = in[12], result = in[13], egdb = in[14], flags = in[15];
	if (side > 1) {
		snprintf(err, err_size, "side to move %u (0 Black, 1 White)", side);
		return false;
	}
	if (result > POSDATA_WIN || egdb > 1 + POSDATA_WIN) {
		snprintf(err, err_size, "result %u or database label %u out of range", result, egdb);
		return false;
	}
	if (flags & ~POSDATA_FLAGS_KNOWN) {
		snprintf(err, err_size, "unknown flags 0x%02x", flags);
		return false;
	}
	Position *p = &out->pos;
	position_set(p, bytes_get32(in), bytes_get32(in + 4), bytes_get32(in + 8), (Color)side);
	p->variant = (uint8_t)h->variant;
	PositionProblem problem = position_validate(p);
	if (problem != POSITION_OK) {
		snprintf(err, err_size, "impossible position: %s", position_problem_text(problem));
		return false;
	}
	MoveList moves;
	if (movegen_generate(p, &moves) == 0) {
		snprintf(err, err_size,
		         "the side to move has no move (a finished game is not a training position)");
		return false;
	}
	if (movegen_has_capture(p)) {
		snprintf(err, err_size,
		         "the side to move must capture (the format holds quiet positions only)");
		return false;
	}
	int score = (int16_t)bytes_get16(in + 16);
	if (score < -SCORE_WIN || score > SCORE_WIN) {
		snprintf(err, err_size, "score %d beyond a won game (%d)", score, SCORE_WIN);
		return false;
	}
	int pieces = bb_count(position_occupied(p));
	bool covered = pieces <= h->egdb_pieces;
	if (covered != (egdb != 0)) {
		snprintf(err, err_size, "%s database label for %d pieces (the databases cover %d)",
		         covered ? "no" : "a", pieces, h->egdb_pieces);
		return false;
	}
	out->score = score;
	out->result = (PosdataResult)result;
	out->has_egdb = egdb != 0;
	out->egdb = egdb ? (PosdataResult)(egdb - 1) : POSDATA_DRAW;
	out->flags = flags;
	out->ply = bytes_get16(in + 18);
	out->game = bytes_get32(in + 20);
	return true;
}

bool posdata_parse(const uint8_t *image, size_t size, PosdataHeader *h, PosdataRecord *records, char *err,
                   size_t err_size)
{
	if (size < POSDATA_HEADER_SIZE) {
		snprintf(err, err_size, "offset 0: %zu bytes, shorter than the %d-byte header", size,
		         POSDATA_HEADER_SIZE);
		return false;
	}
	if (memcmp(image, POSDATA_MAGIC, OFFSET_VERSION) != 0) {
		snprintf(err, err_size, "offset 0: not a poolshark training data file (bad magic)");
		return false;
	}
	uint32_t version = bytes_get32(image + OFFSET_VERSION),
	         header_size = bytes_get32(image + OFFSET_HEADER_SIZE);
	uint32_t record_size = bytes_get32(image + OFFSET_RECORD_SIZE),
	         variant = bytes_get32(image + OFFSET_VARIANT);
	uint32_t egdb_pieces = bytes_get32(image + OFFSET_EGDB_PIECES);
	if (version != POSDATA_VERSION) {
		snprintf(err, err_size, "offset %d: format version %" PRIu32 ", this reader reads version %d",
		         OFFSET_VERSION, version, POSDATA_VERSION);
		return false;
	}
	if (header_size != POSDATA_HEADER_SIZE) {
		snprintf(err, err_size, "offset %d: header size %" PRIu32 ", version %d has %d",
		         OFFSET_HEADER_SIZE, header_size, POSDATA_VERSION, POSDATA_HEADER_SIZE);
		return false;
	}
	if (record_size != POSDATA_RECORD_SIZE) {
		snprintf(err, err_size, "offset %d: record size %" PRIu32 ", version %d has %d",
		         OFFSET_RECORD_SIZE, record_size, POSDATA_VERSION, POSDATA_RECORD_SIZE);
		return false;
	}
	if (variant < 1 || variant > VARIANT_COUNT) {
		snprintf(err, err_size, "offset %d: unknown rule set %" PRIu32, OFFSET_VARIANT, variant);
		return false;
	}
	*h = (PosdataHeader){.variant = (Variant)(variant - 1)};
	if (egdb_pieces > EGDB_MAX_PIECES) {
		snprintf(err, err_size, "offset %d: databases of %" PRIu32 " pieces (at most %d)",
		         OFFSET_EGDB_PIECES, egdb_pieces, EGDB_MAX_PIECES);
		return false;
	}
	if (bytes_get32(image + OFFSET_RESERVED) != 0) {
		snprintf(err, err_size, "offset %d: reserved field not 0", OFFSET_RESERVED);
		return false;
	}
	h->egdb_pieces = (int)egdb_pieces;
	h->nodes = bytes_get64(image + OFFSET_NODES);
	h->seed = bytes_get64(image + OFFSET_SEED);
	h->count = bytes_get64(image + OFFSET_COUNT);
	h->checksum = bytes_get64(image + OFFSET_CHECKSUM);

	size_t whole = (size - POSDATA_HEADER_SIZE) / POSDATA_RECORD_SIZE;
	if (h->count > whole) {
		snprintf(err, err_size,
		         "offset %zu: truncated: the header promises %" PRIu64
		         " records, the file holds %zu whole ones",
		         POSDATA_HEADER_SIZE + whole * POSDATA_RECORD_SIZE, h->count, whole);
		return false;
	}
	size_t end = POSDATA_HEADER_SIZE + (size_t)h->count * POSDATA_RECORD_SIZE;
	if (end != size) {
		snprintf(err, err_size, "offset %zu: %zu bytes after the last of %" PRIu64 " records", end,
		         size - end, h->count);
		return false;
	}
	for (size_t i = 0; i < h->count; i++) {
		size_t offset = POSDATA_HEADER_SIZE + i * POSDATA_RECORD_SIZE;
		PosdataRecord scratch;
		char why[POSDATA_ERROR_MAX];
		if (!posdata_record_decode(image + offset, h, records ? &records[i] : &scratch, why,
		                           sizeof why)) {
			snprintf(err, err_size, "offset %zu (record %zu): %s", offset, i, why);
			return false;
		}
	}
	uint64_t sum = posdata_checksum(image, image + POSDATA_HEADER_SIZE, size - POSDATA_HEADER_SIZE);
	if (sum != h->checksum) {
		snprintf(err, err_size,
		         "offset %d: checksum %016" PRIx64 " does not match the contents (%016" PRIx64
		         "): a byte of the file changed",
		         OFFSET_CHECKSUM, h->checksum, sum);
		return false;
	}
	return true;
}

bool posdata_load(const char *path, PosdataFile *out, char *err, size_t err_size)
{
	*out = (PosdataFile){.records = NULL};
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	uint8_t *image = NULL;
	size_t size = 0, capacity = 0;
	/* Reading stops at the size the header claims, plus one byte to see
	 * trailing data, so that no input (a device, a pipe) is read without
	 * end: after the header, only a file with the magic goes on. */
	size_t limit = POSDATA_HEADER_SIZE;
	bool ok = true, header_seen = false;
	while (size < limit) {
		if (size == capacity) {
			capacity = capacity ? 2 * capacity : 1 << 16;
			uint8_t *grown = realloc(image, capacity);
			if (!grown) {
				ok = false;
				break;
			}
			image = grown;
		}
		size_t want = capacity - size < limit - size ? capacity - size : limit - size;
		size_t n = fread(image + size, 1, want, f);
		size += n;
		if (n == 0)
			break;
		if (!header_seen && size >= POSDATA_HEADER_SIZE) {
			header_seen = true;
			uint64_t count = bytes_get64(image + OFFSET_COUNT);
			if (memcmp(image, POSDATA_MAGIC, OFFSET_VERSION) == 0 && count <= POSDATA_MAX_RECORDS)
				limit = POSDATA_HEADER_SIZE + (size_t)count * POSDATA_RECORD_SIZE + 1;
		}
	}
	if (ferror(f)) {
		snprintf(err, err_size, "%s: read error", path);
		ok = false;
	} else if (!ok) {
		snprintf(err, err_size, "%s: out of memory", path);
	}
	fclose(f);
	char why[POSDATA_ERROR_MAX];
	if (ok && size >= POSDATA_HEADER_SIZE) {
		size_t count = (size - POSDATA_HEADER_SIZE) / POSDATA_RECORD_SIZE;
		out->records = malloc((count ? count : 1) * sizeof *out->records);
		if (!out->records) {
			snprintf(err, err_size, "%s: out of memory", path);
			ok = false;
		}
	}
	if (ok && !posdata_parse(image, size, &out->header, out->records, why, sizeof why)) {
		snprintf(err, err_size, "%s: %s", path, why);
		ok = false;
	}
	free(image);
	if (!ok)
		posdata_free(out);
	return ok;
}

void posdata_free(PosdataFile *f)
{
	free(f->records);
	*f = (PosdataFile){.records = NULL};
}

bool posdata_writer_open(PosdataWriter *w, const char *path, const PosdataHeader *h, char *err,
                         size_t err_size)
{
	*w = (PosdataWriter){.header = *h, .hash = CHECKSUM_FNV_OFFSET};
	w->header.count = 0;
	if (snprintf(w->path, sizeof w->path, "%s", path) >= (int)sizeof w->path) {
		snprintf(err, err_size, "%s: path too long", path);
		return false;
	}
	/* The header is written last (count, checksum) and the file renamed into
	 * place, so a device or a pipe cannot be the output: renaming onto
	 * /dev/full as root would replace the device. */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, err_size, "%s: not a regular file (a data file is written to a file)", path);
		return false;
	}
	snprintf(w->temporary, sizeof w->temporary, "%s.tmp", path);
	w->file = fopen(w->temporary, "wb");
	if (!w->file) {
		snprintf(err, err_size, "%s: %s", w->temporary, strerror(errno));
		return false;
	}
	uint8_t header[POSDATA_HEADER_SIZE];
	posdata_header_encode(&w->header, header);
	fwrite(header, 1, sizeof header, w->file);
	return true;
}

bool posdata_writer_add(PosdataWriter *w, const PosdataRecord *r)
{
	uint8_t bytes[POSDATA_RECORD_SIZE];
	posdata_record_encode(r, bytes);
	w->hash = checksum_fnv1a(w->hash, bytes, sizeof bytes);
	w->header.count++;
	return fwrite(bytes, 1, sizeof bytes, w->file) == sizeof bytes;
}

bool posdata_writer_close(PosdataWriter *w, char *err, size_t err_size)
{
	uint8_t header[POSDATA_HEADER_SIZE];
	posdata_header_encode(&w->header, header);
	w->header.checksum = checksum_fnv1a(w->hash, header, OFFSET_CHECKSUM);
	posdata_header_encode(&w->header, header);
	bool ok =
	    fseek(w->file, 0, SEEK_SET) == 0 && fwrite(header, 1, sizeof header, w->file) == sizeof header;
	ok = !ferror(w->file) && ok;
	ok = fclose(w->file) == 0 && ok;
	w->file = NULL;
	if (ok && rename(w->temporary, w->path) != 0)
		ok = false;
	if (!ok) {
		snprintf(err, err_size, "%s: %s", w->path, strerror(errno));
		remove(w->temporary);
	}
	return ok;
}

void posdata_writer_abandon(PosdataWriter *w)
{
	if (w->file)
		fclose(w->file);
	w->file = NULL;
	remove(w->temporary);
}
