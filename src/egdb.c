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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Run symbols: the result of each position in a block. */
enum { SYM_DRAW = 0, SYM_WIN = 1, SYM_LOSS = 2, RUN_MAX = 64 };

static int symbol_of(uint8_t v)
{
	if (v == EGDB_VALUE_DRAW || v == EGDB_VALUE_NONE)
		return SYM_DRAW;
	return egdb_value_result(v) == EGDB_WIN ? SYM_WIN : SYM_LOSS;
}

/*
 * One block: a 16-bit count of run bytes, the runs (symbol in the top two
 * bits, length - 1 in the low six), then one byte per won or lost position
 * in index order: its distance halved (the result gives the parity back).
 * Writes to out (room for 2 + 2 * n bytes) and returns the size.
 */
static size_t encode_block(const uint8_t *v, int n, uint8_t *out)
{
	size_t runs = 2;
	for (int i = 0; i < n;) {
		int sym = symbol_of(v[i]), len = 1;
		while (i + len < n && len < RUN_MAX && symbol_of(v[i + len]) == sym)
			len++;
		out[runs++] = (uint8_t)(sym << 6 | (len - 1));
		i += len;
	}
	out[0] = (uint8_t)(runs - 2);
	out[1] = (uint8_t)((runs - 2) >> 8);
	size_t at = runs;
	for (int i = 0; i < n; i++)
		if (symbol_of(v[i]) != SYM_DRAW)
			out[at++] = (uint8_t)(egdb_value_distance(v[i]) >> 1);
	return at;
}

uint8_t *egdb_encode(EgdbClass c, const uint8_t *values, uint64_t count, size_t *size)
{
	uint64_t blocks = (count + EGDB_BLOCK - 1) / EGDB_BLOCK;
	size_t table = 8 * (size_t)(blocks + 1);
	size_t cap = EGDB_HEADER_SIZE + table + (size_t)blocks * (2 + 2 * EGDB_BLOCK);
	uint8_t *img = calloc(1, cap);
	if (!img)
		return NULL;
	uint8_t *payload = img + EGDB_HEADER_SIZE + table;
	uint64_t at = 0, wins = 0, draws = 0, losses = 0, invalid = 0;
	uint32_t longest_win = 0, longest_loss = 0;
	for (uint64_t b = 0; b < blocks; b++) {
		put64(img + EGDB_HEADER_SIZE + 8 * b, at);
		uint64_t first = b * EGDB_BLOCK;
		int n = (int)(count - first < EGDB_BLOCK ? count - first : EGDB_BLOCK);
		at += encode_block(values + first, n, payload + at);
	}
	put64(img + EGDB_HEADER_SIZE + 8 * blocks, at);
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
	put64(img + 80, at);
	*size = EGDB_HEADER_SIZE + table + at;
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
	uint64_t table = 8 * (h->blocks + 1);
	if (size != EGDB_HEADER_SIZE + table + h->payload)
		return fail(err, err_size, "file size does not match the header (truncated?)");
	const uint8_t *offsets = img + EGDB_HEADER_SIZE;
	for (uint64_t b = 0; b < h->blocks; b++) {
		uint64_t start = get64(offsets + 8 * b), end = get64(offsets + 8 * (b + 1));
		if (start > end || end > h->payload || end - start < 2)
			return fail(err, err_size, "bad block offset");
	}
	if (get64(offsets) != 0 || get64(offsets + 8 * h->blocks) != h->payload)
		return fail(err, err_size, "bad block offset");
	if (egdb_fnv1a(EGDB_FNV_OFFSET, img + EGDB_HEADER_SIZE, size - EGDB_HEADER_SIZE) != h->checksum)
		return fail(err, err_size, "checksum mismatch (corrupt file)");
	return true;
}

static const uint8_t *block_start(const uint8_t *img, const EgdbHeader *h, uint64_t b, uint64_t *length)
{
	const uint8_t *offsets = img + EGDB_HEADER_SIZE;
	uint64_t start = get64(offsets + 8 * b);
	*length = get64(offsets + 8 * (b + 1)) - start;
	return img + EGDB_HEADER_SIZE + 8 * (h->blocks + 1) + start;
}

static uint8_t value_from(int sym, uint8_t half)
{
	int d = 2 * half + (sym == SYM_WIN ? 1 : 0);
	return (uint8_t)(d + 1);
}

/* The value at position `at` of a block; reads stay inside the block's
 * length, so a corrupt block yields a wrong value, never a stray read. */
static uint8_t block_value(const uint8_t *p, uint64_t length, int at)
{
	uint64_t runs = (uint64_t)p[0] | (uint64_t)p[1] << 8;
	if (runs + 2 > length)
		return EGDB_VALUE_DRAW;
	int pos = 0, decided = 0;
	for (uint64_t r = 0; r < runs; r++) {
		int sym = p[2 + r] >> 6, len = (p[2 + r] & 63) + 1;
		if (at < pos + len) {
			if (sym == SYM_DRAW)
				return EGDB_VALUE_DRAW;
			uint64_t d = 2 + runs + (uint64_t)decided + (uint64_t)(at - pos);
			return d < length ? value_from(sym, p[d]) : EGDB_VALUE_DRAW;
		}
		pos += len;
		decided += sym == SYM_DRAW ? 0 : len;
	}
	return EGDB_VALUE_DRAW;
}

uint8_t egdb_image_value(const uint8_t *img, const EgdbHeader *h, uint64_t index)
{
	uint64_t length;
	const uint8_t *p = block_start(img, h, index / EGDB_BLOCK, &length);
	return block_value(p, length, (int)(index % EGDB_BLOCK));
}

void egdb_image_decode(const uint8_t *img, const EgdbHeader *h, uint8_t *values)
{
	for (uint64_t b = 0; b < h->blocks; b++) {
		uint64_t length;
		const uint8_t *p = block_start(img, h, b, &length);
		uint64_t runs = (uint64_t)p[0] | (uint64_t)p[1] << 8;
		uint64_t d = 2 + runs;
		uint8_t *out = values + b * EGDB_BLOCK;
		int pos = 0;
		for (uint64_t r = 0; r < runs && 2 + r < length; r++) {
			int sym = p[2 + r] >> 6, len = (p[2 + r] & 63) + 1;
			for (int i = 0; i < len && b * EGDB_BLOCK + (uint64_t)pos < h->positions; i++, pos++)
				out[pos] = sym == SYM_DRAW ? EGDB_VALUE_DRAW
				                           : value_from(sym, d < length ? p[d++] : 0);
		}
	}
}

/* ---- Probing ---- */

typedef struct EgdbSlot {
	_Atomic(const uint8_t *) image; /* mapped and checked, or NULL */
	atomic_bool tried;              /* mapping attempted (it failed when image is NULL) */
	size_t size;
	EgdbHeader header;
} EgdbSlot;

struct Egdb {
	char *dir;
	int max_pieces;
	pthread_mutex_t lock; /* taken only to map a class for the first time */
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
	if (!db || !(db->dir = strdup(dir))) {
		free(db);
		closedir(d);
		fail(err, err_size, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&db->lock, NULL);
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
			munmap((void *)img, db->slots[k].size);
	}
	pthread_mutex_destroy(&db->lock);
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
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	struct stat st;
	void *img = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return;
	char err[128];
	if (!egdb_check_image(img, (size_t)st.st_size, &slot->header, err, sizeof err) ||
	    !egdb_class_equal(slot->header.cls, c)) {
		munmap(img, (size_t)st.st_size);
		return;
	}
	slot->size = (size_t)st.st_size;
	atomic_store(&slot->image, (const uint8_t *)img);
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
	int key = egdb_class_key(c);
	if (!db->present[key])
		return false;
	EgdbSlot *slot = &db->slots[key];
	const uint8_t *img = atomic_load(&slot->image);
	if (!img) {
		if (atomic_load(&slot->tried))
			return false;
		pthread_mutex_lock(&db->lock);
		if (!atomic_load(&slot->tried)) {
			map_class(db, c, slot);
			atomic_store(&slot->tried, true);
		}
		pthread_mutex_unlock(&db->lock);
		img = atomic_load(&slot->image);
		if (!img)
			return false;
	}
	Position n;
	egdb_normalize(p, &n);
	*value = egdb_image_value(img, &slot->header, egdb_index(&n, c));
	return true;
}

void egdb_default_dir(char *out, size_t size)
{
	char exe[4096];
	out[0] = '\0';
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
}
