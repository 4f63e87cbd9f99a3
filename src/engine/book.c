/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The opening book: a sorted table of (key, move, weight) read and checked whole. */
#include "poolshark/book.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "poolshark/checksum.h"
#include "poolshark/movegen.h"
#include "poolshark/random.h"

/* The bytes of book/default.book, written into a C file by the build
 * (scripts/embed-bytes), so that the default book needs no file at run time. */
extern const unsigned char book_default_data[];
extern const size_t book_default_size;

#ifdef _WIN32
/* The Windows DLL (make checkerboard): no FIFOs to fear, no text mode. */
static const int OPEN_FLAGS = O_RDONLY | O_BINARY;
#else
/* Without blocking: a FIFO or a terminal must not hang the engine. */
static const int OPEN_FLAGS = O_RDONLY | O_NONBLOCK;
#endif

static const char BOOK_MAGIC[8] = {'P', 'O', 'O', 'L', 'B', 'O', 'O', 'K'};
struct Book {
	int count;
	BookEntry *entries; /* sorted by key */
};

static uint64_t read_le(const uint8_t *at, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | at[i];
	return v;
}

static void write_le(uint8_t *at, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++, v >>= 8)
		at[i] = (uint8_t)v;
}

/* FNV-1a, 64 bits, over the entries: cheap and enough to catch damage. */
static uint64_t checksum(const uint8_t *data, size_t length)
{
	return checksum_fnv1a(CHECKSUM_FNV_OFFSET, data, length);
}

/* The key of the start position: a book made with other Zobrist keys
 * would find nothing (or the wrong thing), so it is refused. */
static uint64_t start_key(void)
{
	Position p;
	position_start(&p);
	return p.key;
}

Book *book_from_bytes(const uint8_t *data, size_t length, char *error, size_t size)
{
	if (length < BOOK_HEADER_BYTES || memcmp(data, BOOK_MAGIC, sizeof BOOK_MAGIC)) {
		snprintf(error, size, "not a poolshark book (no POOLBOOK header)");
		return NULL;
	}
	uint64_t version = read_le(data + 8, 4), count = read_le(data + 12, 4);
	if (version != BOOK_VERSION) {
		snprintf(error, size, "book version %llu, this program reads version %d",
		         (unsigned long long)version, BOOK_VERSION);
		return NULL;
	}
	if (read_le(data + 16, 8) != start_key()) {
		snprintf(error, size, "the book was made with other position keys");
		return NULL;
	}
	if (count > BOOK_MAX_ENTRIES || length != BOOK_HEADER_BYTES + count * BOOK_ENTRY_BYTES) {
		snprintf(error, size, "damaged book: %zu bytes for %llu entries", length,
		         (unsigned long long)count);
		return NULL;
	}
	const uint8_t *body = data + BOOK_HEADER_BYTES;
	if (read_le(data + 24, 8) != checksum(body, length - BOOK_HEADER_BYTES)) {
		snprintf(error, size, "damaged book: the checksum does not match");
		return NULL;
	}
	Book *book = calloc(1, sizeof *book);
	if (book && count && !(book->entries = calloc((size_t)count, sizeof *book->entries))) {
		free(book);
		book = NULL;
	}
	if (!book) {
		snprintf(error, size, "not enough memory for the book");
		return NULL;
	}
	book->count = (int)count;
	for (int i = 0; i < book->count; i++) {
		const uint8_t *at = body + (size_t)i * BOOK_ENTRY_BYTES;
		BookEntry *e = &book->entries[i];
		e->key = read_le(at, 8);
		e->move.captured = (Bitboard)read_le(at + 8, 4);
		e->move.from = at[12];
		e->move.to = at[13];
		e->weight = (uint16_t)read_le(at + 14, 2);
		if (e->move.from >= SQUARE_COUNT || e->move.to >= SQUARE_COUNT || e->weight == 0 ||
		    (i > 0 && e->key < e[-1].key)) {
			snprintf(error, size, "damaged book: entry %d is not valid", i + 1);
			book_free(book);
			return NULL;
		}
	}
	return book;
}

/* The whole file, or NULL with a message. */
static uint8_t *read_file(const char *path, size_t *length, char *error, size_t size)
{
	int fd = open(path, OPEN_FLAGS);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(error, size, "cannot open book '%.200s': %s", path,
		         fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		snprintf(error, size, "cannot open book '%.200s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	size_t cap = BOOK_HEADER_BYTES + (size_t)BOOK_MAX_ENTRIES * BOOK_ENTRY_BYTES + 1;
	uint8_t *data = malloc(cap);
	size_t n = data ? fread(data, 1, cap, f) : 0;
	bool failed = !data || ferror(f);
	fclose(f);
	if (failed || n == cap) {
		snprintf(error, size, "cannot read book '%.200s': %s", path,
		         !data      ? "not enough memory"
		         : n == cap ? "too large"
		                    : "read error");
		free(data);
		return NULL;
	}
	*length = n;
	return data;
}

bool book_open(const char *setting, Book **out, char *error, size_t size)
{
	if (!strcmp(setting, "off")) {
		*out = NULL;
		return true;
	}
	if (!strcmp(setting, "default")) {
		char problem[BOOK_ERROR_MAX];
		Book *book = book_from_bytes(book_default_data, book_default_size, problem, sizeof problem);
		if (!book) {
			snprintf(error, size, "the built-in book: %s", problem);
			return false;
		}
		*out = book;
		return true;
	}
	size_t length;
	uint8_t *data = read_file(setting, &length, error, size);
	if (!data)
		return false;
	char problem[BOOK_ERROR_MAX];
	Book *book = book_from_bytes(data, length, problem, sizeof problem);
	free(data);
	if (!book) {
		snprintf(error, size, "book '%.200s': %s", setting, problem);
		return false;
	}
	*out = book;
	return true;
}

void book_free(Book *book)
{
	if (!book)
		return;
	free(book->entries);
	free(book);
}

int book_entry_count(const Book *book)
{
	return book->count;
}

int book_moves(const Book *book, const Position *p, Move *moves, int *weights, int max)
{
	/* The first entry with this key. */
	int lo = 0, hi = book->count;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (book->entries[mid].key < p->key)
			lo = mid + 1;
		else
			hi = mid;
	}
	int n = 0;
	for (int i = lo; i < book->count && book->entries[i].key == p->key && n < max; i++) {
		if (!movegen_is_legal(p, book->entries[i].move))
			continue;
		moves[n] = book->entries[i].move;
		weights[n++] = book->entries[i].weight;
	}
	return n;
}

bool book_pick(const Book *book, const Position *p, uint64_t *random, Move *out)
{
	Move moves[MOVELIST_CAPACITY];
	int weights[MOVELIST_CAPACITY];
	int n = book_moves(book, p, moves, weights, MOVELIST_CAPACITY);
	if (n == 0)
		return false;
	uint64_t total = 0;
	for (int i = 0; i < n; i++)
		total += (uint64_t)weights[i];
	uint64_t pick = random_below(random, total);
	for (int i = 0; i < n; i++) {
		if (pick < (uint64_t)weights[i]) {
			*out = moves[i];
			return true;
		}
		pick -= (uint64_t)weights[i];
	}
	*out = moves[n - 1];
	return true;
}

static int compare_entries(const void *a, const void *b)
{
	const BookEntry *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (int)y->weight - (int)x->weight;
}

bool book_write(const char *path, BookEntry *entries, int count, char *error, size_t size)
{
	if (count < 0 || count > BOOK_MAX_ENTRIES) {
		snprintf(error, size, "a book holds at most %d entries", BOOK_MAX_ENTRIES);
		return false;
	}
	for (int i = 0; i < count; i++)
		if (entries[i].weight == 0 || entries[i].move.from >= SQUARE_COUNT ||
		    entries[i].move.to >= SQUARE_COUNT) {
			snprintf(error, size, "entry %d is not valid", i + 1);
			return false;
		}
	qsort(entries, (size_t)count, sizeof *entries, compare_entries);
	size_t length = BOOK_HEADER_BYTES + (size_t)count * BOOK_ENTRY_BYTES;
	uint8_t *data = calloc(1, length);
	if (!data) {
		snprintf(error, size, "not enough memory");
		return false;
	}
	for (int i = 0; i < count; i++) {
		uint8_t *at = data + BOOK_HEADER_BYTES + (size_t)i * BOOK_ENTRY_BYTES;
		write_le(at, entries[i].key, 8);
		write_le(at + 8, entries[i].move.captured, 4);
		at[12] = entries[i].move.from;
		at[13] = entries[i].move.to;
		write_le(at + 14, entries[i].weight, 2);
	}
	memcpy(data, BOOK_MAGIC, sizeof BOOK_MAGIC);
	write_le(data + 8, BOOK_VERSION, 4);
	write_le(data + 12, (uint64_t)count, 4);
	write_le(data + 16, start_key(), 8);
	write_le(data + 24, checksum(data + BOOK_HEADER_BYTES, length - BOOK_HEADER_BYTES), 8);
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(data, 1, length, f) == length;
	ok = (f && fclose(f) == 0) && ok;
	free(data);
	if (!ok)
		snprintf(error, size, "cannot write '%.200s': %s", path, strerror(errno));
	return ok;
}
