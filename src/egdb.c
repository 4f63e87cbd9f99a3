/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: class indexing, the compressed file format, lazy mapped probing. */
#include "poolshark/egdb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

#include "poolshark/movegen.h"

static const uint8_t MAGIC[8] = {'P', 'S', 'H', 'K', 'E', 'G', 'D', 'B'};

/* ---- Indexing ---- */

/* C(n, k) for n <= 32 and k <= 8: every class of at most EGDB_MAX_PIECES pieces. */
static const uint32_t BINOMIAL[SQUARE_COUNT + 1][EGDB_MAX_PIECES + 1] = {
    {1, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0, 0, 0},
    {1, 5, 10, 10, 5, 1, 0, 0, 0},
    {1, 6, 15, 20, 15, 6, 1, 0, 0},
    {1, 7, 21, 35, 35, 21, 7, 1, 0},
    {1, 8, 28, 56, 70, 56, 28, 8, 1},
    {1, 9, 36, 84, 126, 126, 84, 36, 9},
    {1, 10, 45, 120, 210, 252, 210, 120, 45},
    {1, 11, 55, 165, 330, 462, 462, 330, 165},
    {1, 12, 66, 220, 495, 792, 924, 792, 495},
    {1, 13, 78, 286, 715, 1287, 1716, 1716, 1287},
    {1, 14, 91, 364, 1001, 2002, 3003, 3432, 3003},
    {1, 15, 105, 455, 1365, 3003, 5005, 6435, 6435},
    {1, 16, 120, 560, 1820, 4368, 8008, 11440, 12870},
    {1, 17, 136, 680, 2380, 6188, 12376, 19448, 24310},
    {1, 18, 153, 816, 3060, 8568, 18564, 31824, 43758},
    {1, 19, 171, 969, 3876, 11628, 27132, 50388, 75582},
    {1, 20, 190, 1140, 4845, 15504, 38760, 77520, 125970},
    {1, 21, 210, 1330, 5985, 20349, 54264, 116280, 203490},
    {1, 22, 231, 1540, 7315, 26334, 74613, 170544, 319770},
    {1, 23, 253, 1771, 8855, 33649, 100947, 245157, 490314},
    {1, 24, 276, 2024, 10626, 42504, 134596, 346104, 735471},
    {1, 25, 300, 2300, 12650, 53130, 177100, 480700, 1081575},
    {1, 26, 325, 2600, 14950, 65780, 230230, 657800, 1562275},
    {1, 27, 351, 2925, 17550, 80730, 296010, 888030, 2220075},
    {1, 28, 378, 3276, 20475, 98280, 376740, 1184040, 3108105},
    {1, 29, 406, 3654, 23751, 118755, 475020, 1560780, 4292145},
    {1, 30, 435, 4060, 27405, 142506, 593775, 2035800, 5852925},
    {1, 31, 465, 4495, 31465, 169911, 736281, 2629575, 7888725},
    {1, 32, 496, 4960, 35960, 201376, 906192, 3365856, 10518300},
};

static uint64_t binomial(int n, int k)
{
	if (k < 0 || k > n || k > EGDB_MAX_PIECES)
		return 0;
	return BINOMIAL[n][k];
}

static Bitboard reverse_bits(Bitboard b)
{
	b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
	b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
	b = ((b >> 4) & 0x0f0f0f0fu) | ((b & 0x0f0f0f0fu) << 4);
	b = ((b >> 8) & 0x00ff00ffu) | ((b & 0x00ff00ffu) << 8);
	return (b >> 16) | (b << 16);
}

void egdb_normalize(const Position *p, Position *out)
{
	if (p->side == BLACK) {
		*out = *p;
		return;
	}
	position_set(out, reverse_bits(p->pieces[WHITE]), reverse_bits(p->pieces[BLACK]),
	             reverse_bits(p->kings), BLACK);
}

void egdb_class_of(const Position *p, EgdbClass *out)
{
	Color us = p->side, them = color_other(us);
	out->men[0] = (uint8_t)bb_count(position_men(p, us));
	out->kings[0] = (uint8_t)bb_count(position_kings(p, us));
	out->men[1] = (uint8_t)bb_count(position_men(p, them));
	out->kings[1] = (uint8_t)bb_count(position_kings(p, them));
}

void egdb_class_name(EgdbClass c, char *out, size_t size)
{
	snprintf(out, size, "m%dk%d-m%dk%d", c.men[0], c.kings[0], c.men[1], c.kings[1]);
}

bool egdb_class_parse(const char *text, EgdbClass *out)
{
	int v[4];
	for (int i = 0; i < 4; i++) {
		char want = (i & 1) ? 'k' : 'm';
		if (i == 2 && *text++ != '-')
			return false;
		if (*text++ != want || *text < '0' || *text > '8')
			return false;
		v[i] = *text++ - '0';
	}
	if (*text)
		return false;
	EgdbClass c = {{(uint8_t)v[0], (uint8_t)v[2]}, {(uint8_t)v[1], (uint8_t)v[3]}};
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES)
		return false;
	*out = c;
	return true;
}

/* Men of one colour: 28 squares (never their own crowning row). */
enum { MAN_SQUARES = 28 };

/* Slot counts of the four parts of an index: black men, white men, black
 * kings among the squares the men leave, white kings among the rest. */
static void part_sizes(EgdbClass c, uint64_t sizes[4])
{
	int men = c.men[0] + c.men[1];
	sizes[0] = binomial(MAN_SQUARES, c.men[0]);
	sizes[1] = binomial(MAN_SQUARES, c.men[1]);
	sizes[2] = binomial(SQUARE_COUNT - men, c.kings[0]);
	sizes[3] = binomial(SQUARE_COUNT - men - c.kings[0], c.kings[1]);
}

uint64_t egdb_class_size(EgdbClass c)
{
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES)
		return 0;
	uint64_t s[4];
	part_sizes(c, s);
	return s[0] * s[1] * s[2] * s[3];
}

/* Colex rank of a set of squares: the sum of C(s_i, i+1) over its squares in
 * ascending order; a bijection onto [0, C(n, k)). */
static uint64_t rank_set(Bitboard b)
{
	uint64_t r = 0;
	for (int i = 1; b; b &= b - 1, i++)
		r += binomial(bb_lowest(b), i);
	return r;
}

static Bitboard unrank_set(uint64_t r, int k, int n)
{
	Bitboard b = 0;
	int s = n - 1;
	for (int i = k; i >= 1; i--) {
		while (binomial(s, i) > r)
			s--;
		r -= binomial(s, i);
		b |= bb_square(s);
		s--;
	}
	return b;
}

/* The squares of b renumbered among the squares not in occ. */
static Bitboard squeeze(Bitboard b, Bitboard occ)
{
	Bitboard out = 0;
	for (; b; b &= b - 1) {
		int s = bb_lowest(b);
		out |= bb_square(s - bb_count(occ & (bb_square(s) - 1)));
	}
	return out;
}

static Bitboard unsqueeze(Bitboard b, Bitboard occ)
{
	Bitboard out = 0;
	int rank = 0;
	for (int s = 0; s < SQUARE_COUNT && b; s++) {
		if (occ & bb_square(s))
			continue;
		if (b & bb_square(rank)) {
			out |= bb_square(s);
			b &= ~bb_square(rank);
		}
		rank++;
	}
	return out;
}

uint64_t egdb_index(const Position *p, EgdbClass c)
{
	uint64_t s[4];
	part_sizes(c, s);
	Bitboard bm = position_men(p, BLACK), wm = position_men(p, WHITE);
	Bitboard men = bm | wm;
	uint64_t r0 = rank_set(bm), r1 = rank_set(wm >> 4);
	uint64_t r2 = rank_set(squeeze(position_kings(p, BLACK), men));
	uint64_t r3 = rank_set(squeeze(position_kings(p, WHITE), men | position_kings(p, BLACK)));
	return ((r0 * s[1] + r1) * s[2] + r2) * s[3] + r3;
}

bool egdb_position(EgdbClass c, uint64_t index, Position *out)
{
	uint64_t s[4];
	part_sizes(c, s);
	uint64_t r3 = index % s[3];
	index /= s[3];
	uint64_t r2 = index % s[2];
	index /= s[2];
	uint64_t r1 = index % s[1];
	uint64_t r0 = index / s[1];
	Bitboard bm = unrank_set(r0, c.men[0], MAN_SQUARES);
	Bitboard wm = unrank_set(r1, c.men[1], MAN_SQUARES) << 4;
	if (bm & wm)
		return false;
	Bitboard men = bm | wm;
	Bitboard bk = unsqueeze(unrank_set(r2, c.kings[0], SQUARE_COUNT - bb_count(men)), men);
	Bitboard wk = unsqueeze(unrank_set(r3, c.kings[1], SQUARE_COUNT - bb_count(men | bk)), men | bk);
	position_set(out, bm | bk, wm | wk, bk | wk, BLACK);
	return true;
}

static int class_men(EgdbClass c)
{
	return c.men[0] + c.men[1];
}

/* Dependency order of pairs: fewer pieces, then fewer men, then by key. */
static int pair_compare(const void *a, const void *b)
{
	const EgdbClass *x = a, *y = b;
	int d = egdb_class_pieces(x) - egdb_class_pieces(y);
	if (d == 0)
		d = class_men(*x) - class_men(*y);
	if (d == 0)
		d = egdb_class_key(*x) - egdb_class_key(*y);
	return d;
}

int egdb_class_pairs(int max_pieces, EgdbClass *out, int *group, int max)
{
	if (max_pieces > EGDB_MAX_PIECES)
		max_pieces = EGDB_MAX_PIECES;
	int n = 0;
	for (int m0 = 0; m0 <= max_pieces; m0++)
		for (int k0 = 0; m0 + k0 <= max_pieces; k0++)
			for (int m1 = 0; m0 + k0 + m1 <= max_pieces; m1++)
				for (int k1 = 0; m0 + k0 + m1 + k1 <= max_pieces; k1++) {
					EgdbClass c = {{(uint8_t)m0, (uint8_t)m1},
					               {(uint8_t)k0, (uint8_t)k1}};
					if (m0 + k0 == 0 || m1 + k1 == 0)
						continue;
					if (egdb_class_key(c) > egdb_class_key(egdb_class_swap(c)))
						continue;
					if (n < max)
						out[n] = c;
					n++;
				}
	int stored = n < max ? n : max;
	qsort(out, (size_t)stored, sizeof *out, pair_compare);
	for (int i = 0, g = -1; i < stored; i++) {
		if (i == 0 || egdb_class_pieces(&out[i]) != egdb_class_pieces(&out[i - 1]) ||
		    class_men(out[i]) != class_men(out[i - 1]))
			g++;
		if (group)
			group[i] = g;
	}
	return stored;
}

/* ---- File format ---- */

uint64_t egdb_fnv1a(uint64_t hash, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		hash ^= data[i];
		hash *= 0x100000001b3ull;
	}
	return hash;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v = 0;
	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

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
typedef struct Decoder {
	uint16_t count[CODE_MAX_BITS + 1];
	uint16_t symbol[CODE_SYMBOLS];
} Decoder;

static bool decoder_init(Decoder *d, const uint8_t *length)
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

static int decode_symbol(BitReader *r, const Decoder *d)
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
static void decode_block(const uint8_t *in, size_t size, const Decoder *d, int n, uint8_t *out)
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
static bool *find_skips(EgdbClass c, const uint8_t *values, uint64_t count)
{
	bool *skip = malloc(count ? count : 1);
	if (!skip)
		return NULL;
	for (uint64_t i = 0; i < count; i++) {
		Position p;
		skip[i] = values[i] == EGDB_VALUE_NONE || !egdb_position(c, i, &p) || movegen_has_capture(&p);
	}
	return skip;
}

static int block_length(uint64_t count, uint64_t b)
{
	uint64_t first = b * EGDB_BLOCK;
	return (int)(count - first < EGDB_BLOCK ? count - first : EGDB_BLOCK);
}

uint8_t *egdb_encode(EgdbClass c, const uint8_t *values, uint64_t count, size_t *size)
{
	uint64_t blocks = (count + EGDB_BLOCK - 1) / EGDB_BLOCK;
	bool *skip = find_skips(c, values, count);
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
		put32(img + OFFSETS_AT + 4 * b, (uint32_t)t.w.bytes);
		tokenize_block(values + b * EGDB_BLOCK, skip + b * EGDB_BLOCK, block_length(count, b),
		               write_token, &t);
		if (t.w.bits) {
			t.w.bits = 0;
			t.w.bytes++;
		}
	}
	put32(img + OFFSETS_AT + 4 * blocks, (uint32_t)t.w.bytes);
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
	put32(img + 8, EGDB_FORMAT_VERSION);
	put32(img + 12, EGDB_VARIANT_POOL);
	img[16] = c.men[0];
	img[17] = c.kings[0];
	img[18] = c.men[1];
	img[19] = c.kings[1];
	put32(img + 20, EGDB_BLOCK);
	put64(img + 24, count);
	put64(img + 32, wins);
	put64(img + 40, draws);
	put64(img + 48, losses);
	put64(img + 56, invalid);
	put32(img + 64, longest_win);
	put32(img + 68, longest_loss);
	put64(img + 72, blocks);
	put64(img + 80, t.w.bytes);
	*size = payload_at + t.w.bytes;
	put64(img + 88, egdb_fnv1a(EGDB_FNV_OFFSET, img + EGDB_HEADER_SIZE, *size - EGDB_HEADER_SIZE));
	return img;
}

static bool fail(char *err, size_t size, const char *text)
{
	if (err && size)
		snprintf(err, size, "%s", text);
	return false;
}

bool egdb_check_image(const uint8_t *img, size_t size, EgdbHeader *h, char *err, size_t err_size)
{
	if (size < EGDB_HEADER_SIZE || memcmp(img, MAGIC, sizeof MAGIC))
		return fail(err, err_size, "not an endgame database file (bad magic)");
	h->version = get32(img + 8);
	h->variant = get32(img + 12);
	if (h->version != EGDB_FORMAT_VERSION)
		return fail(err, err_size, "unsupported format version");
	if (h->variant != EGDB_VARIANT_POOL)
		return fail(err, err_size, "database of another variant than pool checkers");
	EgdbClass c = {{img[16], img[18]}, {img[17], img[19]}};
	h->cls = c;
	h->block = get32(img + 20);
	h->positions = get64(img + 24);
	h->wins = get64(img + 32);
	h->draws = get64(img + 40);
	h->losses = get64(img + 48);
	h->invalid = get64(img + 56);
	h->longest_win = get32(img + 64);
	h->longest_loss = get32(img + 68);
	h->blocks = get64(img + 72);
	h->payload = get64(img + 80);
	h->checksum = get64(img + 88);
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES || h->positions != egdb_class_size(c))
		return fail(err, err_size, "class and position count disagree");
	if (h->block != EGDB_BLOCK || h->blocks != (h->positions + EGDB_BLOCK - 1) / EGDB_BLOCK)
		return fail(err, err_size, "bad block size or count");
	if (h->wins + h->draws + h->losses + h->invalid != h->positions)
		return fail(err, err_size, "result counts do not add up");
	if (size != OFFSETS_AT + 4 * (h->blocks + 1) + h->payload)
		return fail(err, err_size, "file size does not match the header (truncated?)");
	const uint8_t *offsets = img + OFFSETS_AT;
	for (uint64_t b = 0; b < h->blocks; b++)
		if (get32(offsets + 4 * b) > get32(offsets + 4 * (b + 1)))
			return fail(err, err_size, "bad block offset");
	if (get32(offsets) != 0 || get32(offsets + 4 * h->blocks) != h->payload)
		return fail(err, err_size, "bad block offset");
	Decoder d;
	if (!decoder_init(&d, img + CODE_AT))
		return fail(err, err_size, "bad code table");
	if (egdb_fnv1a(EGDB_FNV_OFFSET, img + EGDB_HEADER_SIZE, size - EGDB_HEADER_SIZE) != h->checksum)
		return fail(err, err_size, "checksum mismatch (corrupt file)");
	return true;
}

/* Decodes block b of a checked image into out (EGDB_BLOCK values, fewer in
 * the last block). Positions with a capture pending hold no real value. */
static void image_block(const uint8_t *img, const EgdbHeader *h, const Decoder *d, uint64_t b, uint8_t *out)
{
	const uint8_t *offsets = img + OFFSETS_AT;
	uint32_t start = get32(offsets + 4 * b), end = get32(offsets + 4 * (b + 1));
	const uint8_t *payload = img + OFFSETS_AT + 4 * (h->blocks + 1);
	uint64_t first = b * EGDB_BLOCK;
	int n = (int)(h->positions - first < EGDB_BLOCK ? h->positions - first : EGDB_BLOCK);
	decode_block(payload + start, end - start, d, n, out);
}

void egdb_image_decode(const uint8_t *img, const EgdbHeader *h, uint8_t *values)
{
	Decoder d;
	decoder_init(&d, img + CODE_AT);
	for (uint64_t b = 0; b < h->blocks; b++)
		image_block(img, h, &d, b, values + b * EGDB_BLOCK);
}

/* ---- Probing ---- */

/* A whole file, read-only: memory-mapped, or read into memory where the
 * system has no mmap (the Windows build). NULL when it cannot be read. */
static const uint8_t *file_map(const char *path, size_t *size)
{
#ifndef _WIN32
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	struct stat st;
	void *img = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return NULL;
	*size = (size_t)st.st_size;
	return img;
#else
	FILE *f = fopen(path, "rb");
	uint8_t *img = NULL;
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (img = malloc((size_t)n)) && fread(img, 1, (size_t)n, f) != (size_t)n) {
		free(img);
		img = NULL;
	}
	if (f)
		fclose(f);
	*size = img ? (size_t)n : 0;
	return img;
#endif
}

static void file_unmap(const uint8_t *img, size_t size)
{
#ifndef _WIN32
	munmap((void *)img, size);
#else
	(void)size;
	free((void *)img);
#endif
}

uint8_t egdb_value_best(const uint8_t *next, int n)
{
	int win = 0, loss = 0;
	bool draw = false;
	for (int i = 0; i < n; i++) {
		int d = egdb_value_distance(next[i]);
		if (next[i] == EGDB_VALUE_DRAW)
			draw = true;
		else if (egdb_value_result(next[i]) == EGDB_LOSS) {
			if (win == 0 || d + 1 < win)
				win = d + 1;
		} else if (d + 1 > loss) {
			loss = d + 1;
		}
	}
	if (n == 0)
		return 1;
	if (win)
		return (uint8_t)(win + 1);
	return draw ? EGDB_VALUE_DRAW : (uint8_t)(loss + 1);
}

typedef struct EgdbSlot {
	_Atomic(const uint8_t *) image; /* mapped and checked, or NULL */
	atomic_bool tried;              /* mapping attempted (it failed when image is NULL) */
	size_t size;
	EgdbHeader header;
	Decoder decoder;
} EgdbSlot;

/* Recently decoded blocks, direct-mapped by (class, block). */
enum { CACHE_BLOCKS = 2048 };

typedef struct CacheEntry {
	int key; /* class key, -1 when empty */
	uint64_t block;
	uint8_t values[EGDB_BLOCK];
} CacheEntry;

struct Egdb {
	char *dir;
	int max_pieces;
	pthread_mutex_t lock;       /* taken only to map a class for the first time */
	pthread_mutex_t cache_lock; /* the block cache */
	CacheEntry *cache;
	bool present[EGDB_CLASS_KEYS];
	EgdbSlot slots[EGDB_CLASS_KEYS];
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

Egdb *egdb_open(const char *dir, char *err, size_t err_size)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (err && err_size)
			snprintf(err, err_size, "cannot read database directory '%s': %s", dir,
			         strerror(errno));
		return NULL;
	}
	Egdb *db = calloc(1, sizeof *db);
	CacheEntry *cache = malloc(CACHE_BLOCKS * sizeof *cache);
	if (db)
		db->dir = malloc(strlen(dir) + 1);
	if (!db || !cache || !db->dir) {
		if (db)
			free(db->dir);
		free(db);
		free(cache);
		closedir(d);
		fail(err, err_size, "out of memory");
		return NULL;
	}
	memcpy(db->dir, dir, strlen(dir) + 1);
	db->cache = cache;
	for (int i = 0; i < CACHE_BLOCKS; i++)
		cache[i].key = -1;
	pthread_mutex_init(&db->lock, NULL);
	pthread_mutex_init(&db->cache_lock, NULL);
	int found = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char stem[32];
		EgdbClass c;
		size_t n = strlen(e->d_name);
		if (!has_suffix(e->d_name, ".egdb") || n - 5 >= sizeof stem)
			continue;
		memcpy(stem, e->d_name, n - 5);
		stem[n - 5] = 0;
		if (egdb_class_parse(stem, &c)) {
			db->present[egdb_class_key(c)] = true;
			found++;
		}
	}
	closedir(d);
	if (!found) {
		if (err && err_size)
			snprintf(err, err_size, "no endgame database files (*.egdb) in '%s'", dir);
		egdb_close(db);
		return NULL;
	}
	/* The largest N whose classes are all present. */
	enum { PAIRS = 1024 };
	EgdbClass *pairs = malloc(PAIRS * sizeof *pairs);
	int count = pairs ? egdb_class_pairs(EGDB_MAX_PIECES, pairs, NULL, PAIRS) : 0;
	db->max_pieces = 0;
	for (int n = 2; n <= EGDB_MAX_PIECES; n++) {
		bool all = true;
		for (int i = 0; i < count; i++)
			if (egdb_class_pieces(&pairs[i]) == n &&
			    (!db->present[egdb_class_key(pairs[i])] ||
			     !db->present[egdb_class_key(egdb_class_swap(pairs[i]))]))
				all = false;
		if (!all)
			break;
		db->max_pieces = n;
	}
	free(pairs);
	return db;
}

void egdb_close(Egdb *db)
{
	if (!db)
		return;
	for (int k = 0; k < EGDB_CLASS_KEYS; k++) {
		const uint8_t *img = atomic_load(&db->slots[k].image);
		if (img)
			file_unmap(img, db->slots[k].size);
	}
	pthread_mutex_destroy(&db->lock);
	pthread_mutex_destroy(&db->cache_lock);
	free(db->cache);
	free(db->dir);
	free(db);
}

int egdb_max_pieces(const Egdb *db)
{
	return db ? db->max_pieces : 0;
}

static void map_class(Egdb *db, EgdbClass c, EgdbSlot *slot)
{
	char name[32], path[4096];
	egdb_class_name(c, name, sizeof name);
	snprintf(path, sizeof path, "%s/%s.egdb", db->dir, name);
	size_t size;
	const uint8_t *img = file_map(path, &size);
	if (!img)
		return;
	char err[128];
	if (!egdb_check_image(img, size, &slot->header, err, sizeof err) ||
	    !egdb_class_equal(slot->header.cls, c)) {
		file_unmap(img, size);
		return;
	}
	decoder_init(&slot->decoder, img + CODE_AT);
	slot->size = size;
	atomic_store(&slot->image, img);
}

/* The mapped file of class c, mapping it on first use; NULL when absent. */
static EgdbSlot *class_slot(Egdb *db, EgdbClass c)
{
	int key = egdb_class_key(c);
	if (!db->present[key])
		return NULL;
	EgdbSlot *slot = &db->slots[key];
	if (atomic_load(&slot->image))
		return slot;
	if (atomic_load(&slot->tried))
		return NULL;
	pthread_mutex_lock(&db->lock);
	if (!atomic_load(&slot->tried)) {
		map_class(db, c, slot);
		atomic_store(&slot->tried, true);
	}
	pthread_mutex_unlock(&db->lock);
	return atomic_load(&slot->image) ? slot : NULL;
}

static uint8_t stored_value(Egdb *db, EgdbSlot *slot, int key, uint64_t index)
{
	uint64_t block = index / EGDB_BLOCK;
	CacheEntry *e = &db->cache[(uint64_t)((unsigned)key * 2654435761u + block) % CACHE_BLOCKS];
	pthread_mutex_lock(&db->cache_lock);
	if (e->key != key || e->block != block) {
		image_block(atomic_load(&slot->image), &slot->header, &slot->decoder, block, e->values);
		e->key = key;
		e->block = block;
	}
	uint8_t v = e->values[index % EGDB_BLOCK];
	pthread_mutex_unlock(&db->cache_lock);
	return v;
}

bool egdb_probe(Egdb *db, const Position *p, uint8_t *value)
{
	EgdbClass c;
	egdb_class_of(p, &c);
	if (c.men[0] + c.kings[0] == 0) {
		*value = 1; /* no pieces, no move: lost now */
		return true;
	}
	if (egdb_class_pieces(&c) > EGDB_MAX_PIECES || c.men[1] + c.kings[1] == 0)
		return false;
	EgdbSlot *slot = class_slot(db, c);
	if (!slot)
		return false;
	if (movegen_has_capture(p)) {
		/* Not stored: every capture leads to fewer pieces. */
		MoveList list;
		uint8_t next[MOVELIST_CAPACITY];
		int n = movegen_captures(p, &list);
		for (int i = 0; i < n; i++) {
			Position after;
			position_make(p, list.moves[i], &after);
			if (!egdb_probe(db, &after, &next[i]))
				return false;
		}
		*value = egdb_value_best(next, n);
		return true;
	}
	Position n;
	egdb_normalize(p, &n);
	*value = stored_value(db, slot, egdb_class_key(c), egdb_index(&n, c));
	return true;
}

void egdb_default_dir(char *out, size_t size)
{
	out[0] = '\0';
#ifndef _WIN32
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	slash[1] = '\0';
	char dir[4200];
	snprintf(dir, sizeof dir, "%sdatabases", exe);
	struct stat st;
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && strlen(dir) < size)
		snprintf(out, size, "%s", dir);
#else
	(void)size; /* a DLL's host names the directory (egdb-path) */
#endif
}
