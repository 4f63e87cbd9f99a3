/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: the file format: Huffman-coded blocks of value bytes with run tokens. */
#include "poolshark/bytes.h"
#include "poolshark/egdb_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/checksum.h"
#include "poolshark/movegen.h"

static const uint8_t MAGIC[8] = {'P', 'S', 'H', 'K', 'E', 'G', 'D', 'B'};

/*
 * Blocks are Huffman-coded tokens: a value byte (0..255), or a run token
 * RUN_BASE + j that repeats the last value (1 << j) + (j extra bits) more
 * times. One code per file, canonical, stored as code lengths.
 */
enum { RUN_BASE = 256, RUN_TOKENS = 8, CODE_SYMBOLS = RUN_BASE + RUN_TOKENS, CODE_MAX_BITS = 15 };
_Static_assert(1 << RUN_TOKENS >= EGDB_BLOCK, "a run token covers any run within a block");

/* Where the parts of a file start: header, code lengths, block offsets, payload. */
enum { CODE_AT = EGDB_HEADER_SIZE, OFFSETS_AT = CODE_AT + CODE_SYMBOLS };

typedef struct BitWriter {
	uint8_t *out;
	size_t bytes;
	int bits; /* bits used in out[bytes] */
} BitWriter;

static void put_bits(BitWriter *w, uint32_t value, int count)
{
	for (int i = 0; i < count; i++) {
		if (w->bits == 0)
			w->out[w->bytes] = 0;
		w->out[w->bytes] |= (uint8_t)(((value >> i) & 1) << w->bits);
		if (++w->bits == 8) {
			w->bits = 0;
			w->bytes++;
		}
	}
}

/* A canonical code: the code of each symbol and its length (0: unused). */
typedef struct Code {
	uint8_t length[CODE_SYMBOLS];
	uint16_t code[CODE_SYMBOLS];
} Code;

/* Huffman code lengths for freq, at most CODE_MAX_BITS long (frequencies
 * are halved until the tree is shallow enough). */
static void code_lengths(const uint64_t *freq_in, uint8_t *length)
{
	uint64_t freq[CODE_SYMBOLS];
	memcpy(freq, freq_in, sizeof freq);
	for (;;) {
		/* Nodes 0..CODE_SYMBOLS-1 are leaves; parents follow. */
		uint64_t weight[2 * CODE_SYMBOLS];
		int parent[2 * CODE_SYMBOLS];
		bool done[2 * CODE_SYMBOLS];
		int nodes = CODE_SYMBOLS, live = 0;
		for (int s = 0; s < CODE_SYMBOLS; s++) {
			weight[s] = freq[s];
			parent[s] = -1;
			done[s] = freq[s] == 0;
			live += freq[s] != 0;
		}
		memset(length, 0, CODE_SYMBOLS);
		if (live <= 1) {
			for (int s = 0; s < CODE_SYMBOLS; s++)
				if (freq[s])
					length[s] = 1;
			return;
		}
		while (live > 1) {
			int a = -1, b = -1; /* the two lightest; ties to the lower node */
			for (int i = 0; i < nodes; i++) {
				if (done[i])
					continue;
				if (a < 0 || weight[i] < weight[a]) {
					b = a;
					a = i;
				} else if (b < 0 || weight[i] < weight[b]) {
					b = i;
				}
			}
			weight[nodes] = weight[a] + weight[b];
			parent[nodes] = -1;
			done[nodes] = false;
			parent[a] = parent[b] = nodes;
			done[a] = done[b] = true;
			nodes++;
			live--;
		}
		int deepest = 0;
		for (int s = 0; s < CODE_SYMBOLS; s++) {
			if (!freq[s])
				continue;
			int depth = 0;
			for (int n = s; parent[n] >= 0; n = parent[n])
				depth++;
			length[s] = (uint8_t)depth;
			deepest = depth > deepest ? depth : deepest;
		}
		if (deepest <= CODE_MAX_BITS)
			return;
		for (int s = 0; s < CODE_SYMBOLS; s++)
			if (freq[s])
				freq[s] = freq[s] / 2 + 1;
	}
}

/* Canonical codes from lengths: shorter codes first, then by symbol. */
static void code_assign(Code *c)
{
	int count[CODE_MAX_BITS + 1] = {0};
	uint16_t next[CODE_MAX_BITS + 2];
	for (int s = 0; s < CODE_SYMBOLS; s++)
		count[c->length[s]]++;
	count[0] = 0;
	uint16_t code = 0;
	for (int bits = 1; bits <= CODE_MAX_BITS; bits++) {
		code = (uint16_t)((code + count[bits - 1]) << 1);
		next[bits] = code;
	}
	for (int s = 0; s < CODE_SYMBOLS; s++)
		if (c->length[s])
			c->code[s] = next[c->length[s]]++;
}

/* The decoding tables of a canonical code, as the lengths give it. */
_Static_assert((int)CODE_SYMBOLS == (int)EGDB_CODE_SYMBOLS && (int)CODE_MAX_BITS == (int)EGDB_CODE_MAX_BITS,
               "the decoder's tables in egdb_file.h fit the code");

static bool decoder_init(EgdbDecoder *d, const uint8_t *length)
{
	memset(d->count, 0, sizeof d->count);
	for (int s = 0; s < CODE_SYMBOLS; s++) {
		if (length[s] > CODE_MAX_BITS)
			return false;
		d->count[length[s]]++;
	}
	d->count[0] = 0;
	uint16_t offset[CODE_MAX_BITS + 2];
	offset[1] = 0;
	int left = 1;
	for (int bits = 1; bits <= CODE_MAX_BITS; bits++) {
		left = 2 * left - d->count[bits];
		if (left < 0)
			return false; /* over-subscribed: not a code */
		offset[bits + 1] = (uint16_t)(offset[bits] + d->count[bits]);
	}
	for (int s = 0; s < CODE_SYMBOLS; s++)
		if (length[s])
			d->symbol[offset[length[s]]++] = (uint16_t)s;
	return true;
}

typedef struct BitReader {
	const uint8_t *in;
	size_t size, at;
	int bit;
} BitReader;

/* The next bit; past the end of the block, zeros (a corrupt block decodes
 * to wrong values, never to a read outside it). */
static int get_bit(BitReader *r)
{
	if (r->at >= r->size)
		return 0;
	int b = (r->in[r->at] >> r->bit) & 1;
	if (++r->bit == 8) {
		r->bit = 0;
		r->at++;
	}
	return b;
}

static uint32_t get_bits(BitReader *r, int count)
{
	uint32_t v = 0;
	for (int i = 0; i < count; i++)
		v |= (uint32_t)get_bit(r) << i;
	return v;
}

static int decode_symbol(BitReader *r, const EgdbDecoder *d)
{
	int code = 0, first = 0, index = 0;
	for (int bits = 1; bits <= CODE_MAX_BITS; bits++) {
		code |= get_bit(r);
		int count = d->count[bits];
		if (code - first < count)
			return d->symbol[index + (code - first)];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return 0; /* not a code: a corrupt block */
}

/* Decodes a block of n values into out. */
static void decode_block(const uint8_t *in, size_t size, const EgdbDecoder *d, int n, uint8_t *out)
{
	BitReader r = {in, size, 0, 0};
	uint8_t last = 0;
	for (int at = 0; at < n;) {
		int sym = decode_symbol(&r, d);
		if (sym < RUN_BASE) {
			last = (uint8_t)sym;
			out[at++] = last;
			continue;
		}
		int j = sym - RUN_BASE;
		uint32_t run = (1u << j) + get_bits(&r, j);
		for (uint32_t i = 0; i < run && at < n; i++)
			out[at++] = last;
	}
}

/* The tokens of a block: values, with positions that need no value (a
 * capture is pending there: the prober works those out from the captures)
 * taking the value before them so that runs grow. Calls emit for each. */
typedef void (*Emit)(void *user, int symbol, uint32_t extra, int extra_bits);

static void tokenize_block(const uint8_t *v, const bool *skip, int n, Emit emit, void *user)
{
	uint8_t last = EGDB_VALUE_DRAW;
	for (int i = 0; i < n;) {
		uint8_t value = skip[i] ? last : v[i];
		emit(user, value, 0, 0);
		last = value;
		int run = 0;
		while (i + 1 + run < n && (skip[i + 1 + run] || v[i + 1 + run] == value) &&
		       run < EGDB_BLOCK - 1)
			run++;
		i += 1 + run;
		while (run > 0) {
			int j = 31 - __builtin_clz((unsigned)run);
			emit(user, RUN_BASE + j, (uint32_t)(run - (1 << j)), j);
			run = 0;
		}
	}
}

static void count_token(void *user, int symbol, uint32_t extra, int extra_bits)
{
	(void)extra;
	(void)extra_bits;
	((uint64_t *)user)[symbol]++;
}

typedef struct TokenWriter {
	BitWriter w;
	const Code *code;
} TokenWriter;

static void write_token(void *user, int symbol, uint32_t extra, int extra_bits)
{
	TokenWriter *t = user;
	/* Codes go out first bit first (the decoder reads them MSB first). */
	int length = t->code->length[symbol];
	for (int i = length - 1; i >= 0; i--)
		put_bits(&t->w, (uint32_t)(t->code->code[symbol] >> i) & 1, 1);
	put_bits(&t->w, extra, extra_bits);
}

/* Which positions need no stored value: no position at all, or one with a
 * capture pending. One byte each, in a buffer the caller frees. */
static bool *find_skips(Variant v, EgdbClass c, const uint8_t *values, uint64_t count)
{
	bool *skip = malloc(count ? count : 1);
	if (!skip)
		return NULL;
	for (uint64_t i = 0; i < count; i++) {
		Position p;
		skip[i] =
		    values[i] == EGDB_VALUE_NONE || !egdb_position(v, c, i, &p) || movegen_has_capture(&p);
	}
	return skip;
}

static int block_length(uint64_t count, uint64_t b)
{
	uint64_t first = b * EGDB_BLOCK;
	return (int)(count - first < EGDB_BLOCK ? count - first : EGDB_BLOCK);
}

uint8_t *egdb_encode(Variant variant, EgdbClass c, const uint8_t *values, uint64_t count, size_t *size)
{
	uint64_t blocks = (count + EGDB_BLOCK - 1) / EGDB_BLOCK;
	bool *skip = find_skips(variant, c, values, count);
	if (!skip)
		return NULL;
	uint64_t freq[CODE_SYMBOLS] = {0};
	for (uint64_t b = 0; b < blocks; b++)
		tokenize_block(values + b * EGDB_BLOCK, skip + b * EGDB_BLOCK, block_length(count, b),
		               count_token, freq);
	Code code;
	memset(&code, 0, sizeof code);
	code_lengths(freq, code.length);
	code_assign(&code);

	size_t payload_at = OFFSETS_AT + 4 * (size_t)(blocks + 1);
	/* A token never takes more than CODE_MAX_BITS + RUN_TOKENS bits. */
	size_t cap = payload_at + (size_t)blocks * (EGDB_BLOCK * (CODE_MAX_BITS + RUN_TOKENS) / 8 + 2);
	uint8_t *img = calloc(1, cap);
	if (!img) {
		free(skip);
		return NULL;
	}
	memcpy(img + CODE_AT, code.length, CODE_SYMBOLS);
	TokenWriter t = {{img + payload_at, 0, 0}, &code};
	for (uint64_t b = 0; b < blocks; b++) {
		bytes_put32(img + OFFSETS_AT + 4 * b, (uint32_t)t.w.bytes);
		tokenize_block(values + b * EGDB_BLOCK, skip + b * EGDB_BLOCK, block_length(count, b),
		               write_token, &t);
		if (t.w.bits) {
			t.w.bits = 0;
			t.w.bytes++;
		}
	}
	bytes_put32(img + OFFSETS_AT + 4 * blocks, (uint32_t)t.w.bytes);
	free(skip);

	uint64_t wins = 0, draws = 0, losses = 0, invalid = 0;
	uint32_t longest_win = 0, longest_loss = 0;
	for (uint64_t i = 0; i < count; i++) {
		uint8_t v = values[i];
		uint32_t d = (uint32_t)egdb_value_distance(v);
		if (v == EGDB_VALUE_NONE)
			invalid++;
		else if (v == EGDB_VALUE_DRAW)
			draws++;
		else if (egdb_value_result(v) == EGDB_WIN) {
			wins++;
			longest_win = d > longest_win ? d : longest_win;
		} else {
			losses++;
			longest_loss = d > longest_loss ? d : longest_loss;
		}
	}
	memcpy(img, MAGIC, sizeof MAGIC);
	bytes_put32(img + 8, EGDB_FORMAT_VERSION);
	bytes_put32(img + 12, egdb_variant_code(variant));
	img[16] = c.men[0];
	img[17] = c.kings[0];
	img[18] = c.men[1];
	img[19] = c.kings[1];
	bytes_put32(img + 20, EGDB_BLOCK);
	bytes_put64(img + 24, count);
	bytes_put64(img + 32, wins);
	bytes_put64(img + 40, draws);
	bytes_put64(img + 48, losses);
	bytes_put64(img + 56, invalid);
	bytes_put32(img + 64, longest_win);
	bytes_put32(img + 68, longest_loss);
	bytes_put64(img + 72, blocks);
	bytes_put64(img + 80, t.w.bytes);
	*size = payload_at + t.w.bytes;
	bytes_put64(img + 88,
	            checksum_fnv1a(CHECKSUM_FNV_OFFSET, img + EGDB_HEADER_SIZE, *size - EGDB_HEADER_SIZE));
	return img;
}

static bool fail(char *err, size_t size, const char *text)
{
	if (err && size)
		snprintf(err, size, "%s", text);
	return false;
}

bool egdb_check_header(const uint8_t *img, size_t have, size_t size, EgdbHeader *h, char *err,
                       size_t err_size)
{
	if (have >= sizeof MAGIC && !memcmp(img, MAGIC, sizeof MAGIC) && size < EGDB_HEADER_SIZE)
		return fail(err, err_size, "shorter than its header (truncated?)");
	if (have < EGDB_HEADER_SIZE || size < EGDB_HEADER_SIZE || memcmp(img, MAGIC, sizeof MAGIC))
		return fail(err, err_size, "not an endgame database file (bad magic)");
	h->version = bytes_get32(img + 8);
	if (h->version != EGDB_FORMAT_VERSION) {
		if (err && err_size)
			snprintf(err, err_size,
			         h->version > EGDB_FORMAT_VERSION
			             ? "format version %u, newer than this program's %d"
			             : "unsupported format version %u (this program reads %d)",
			         (unsigned)h->version, EGDB_FORMAT_VERSION);
		return false;
	}
	if (!egdb_variant_of_code(bytes_get32(img + 12), &h->variant))
		return fail(err, err_size, "a database of a rule set this program does not know");
	EgdbClass c = {{img[16], img[18]}, {img[17], img[19]}};
	h->cls = c;
	h->block = bytes_get32(img + 20);
	h->positions = bytes_get64(img + 24);
	h->wins = bytes_get64(img + 32);
	h->draws = bytes_get64(img + 40);
	h->losses = bytes_get64(img + 48);
	h->invalid = bytes_get64(img + 56);
	h->longest_win = bytes_get32(img + 64);
	h->longest_loss = bytes_get32(img + 68);
	h->blocks = bytes_get64(img + 72);
	h->payload = bytes_get64(img + 80);
	h->checksum = bytes_get64(img + 88);
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES || h->positions != egdb_class_size(c))
		return fail(err, err_size, "class and position count disagree");
	if (h->block != EGDB_BLOCK || h->blocks != (h->positions + EGDB_BLOCK - 1) / EGDB_BLOCK)
		return fail(err, err_size, "bad block size or count");
	if (h->wins + h->draws + h->losses + h->invalid != h->positions)
		return fail(err, err_size, "result counts do not add up");
	if (size != OFFSETS_AT + 4 * (h->blocks + 1) + h->payload)
		return fail(err, err_size, "file size does not match the header (truncated?)");
	return true;
}

bool egdb_check_image(const uint8_t *img, size_t size, EgdbHeader *h, char *err, size_t err_size)
{
	if (!egdb_check_header(img, size, size, h, err, err_size))
		return false;
	const uint8_t *offsets = img + OFFSETS_AT;
	for (uint64_t b = 0; b < h->blocks; b++)
		if (bytes_get32(offsets + 4 * b) > bytes_get32(offsets + 4 * (b + 1)))
			return fail(err, err_size, "bad block offset");
	if (bytes_get32(offsets) != 0 || bytes_get32(offsets + 4 * h->blocks) != h->payload)
		return fail(err, err_size, "bad block offset");
	EgdbDecoder d;
	if (!decoder_init(&d, img + CODE_AT))
		return fail(err, err_size, "bad code table");
	if (checksum_fnv1a(CHECKSUM_FNV_OFFSET, img + EGDB_HEADER_SIZE, size - EGDB_HEADER_SIZE) !=
	    h->checksum)
		return fail(err, err_size, "checksum mismatch (corrupt file)");
	return true;
}

void egdb_variant_mismatch(Variant have, Variant want, char *out, size_t size)
{
	snprintf(out, size, "a database of %s, not %s", variant_rules(have)->title,
	         variant_rules(want)->title);
}

/* Decodes block b of a checked image into out (EGDB_BLOCK values, fewer in
 * the last block). Positions with a capture pending hold no real value. */
void egdb_image_block(const uint8_t *img, const EgdbHeader *h, const EgdbDecoder *d, uint64_t b, uint8_t *out)
{
	const uint8_t *offsets = img + OFFSETS_AT;
	uint32_t start = bytes_get32(offsets + 4 * b), end = bytes_get32(offsets + 4 * (b + 1));
	const uint8_t *payload = img + OFFSETS_AT + 4 * (h->blocks + 1);
	uint64_t first = b * EGDB_BLOCK;
	int n = (int)(h->positions - first < EGDB_BLOCK ? h->positions - first : EGDB_BLOCK);
	decode_block(payload + start, end - start, d, n, out);
}

bool egdb_decoder_init(EgdbDecoder *d, const uint8_t *image)
{
	return decoder_init(d, image + CODE_AT);
}

void egdb_image_decode(const uint8_t *img, const EgdbHeader *h, uint8_t *values)
{
	EgdbDecoder d;
	decoder_init(&d, img + CODE_AT);
	for (uint64_t b = 0; b < h->blocks; b++)
		egdb_image_block(img, h, &d, b, values + b * EGDB_BLOCK);
}
