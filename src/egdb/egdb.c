/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: lazy mapped files of a directory, a cache of decoded blocks, probing. */
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
#include "poolshark/version.h"

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

typedef struct EgdbSlot {
	_Atomic(const uint8_t *) image; /* mapped and checked, or NULL */
	atomic_bool tried;              /* mapping attempted (it failed when image is NULL) */
	size_t size;
	EgdbHeader header;
	EgdbDecoder decoder;
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
	Variant variant;
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

/* What one directory holds for a rule set. */
typedef enum Scan {
	SCAN_NONE,  /* no database file */
	SCAN_USE,   /* files of the rule set wanted, and no others */
	SCAN_OTHER, /* only files of other rule sets */
	SCAN_BAD    /* a file that cannot be used, or rule sets mixed */
} Scan;

/*
 * Reads the header of every class file in dir: marks the classes of rule
 * set `want` in present[] and counts them into *found. The reason for
 * SCAN_OTHER and SCAN_BAD goes to err, naming the file.
 */
static Scan scan_dir(const char *dir, Variant want, bool *present, int *found, char *err, size_t err_size)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (err && err_size)
			snprintf(err, err_size, "cannot read database directory '%s': %s", dir,
			         strerror(errno));
		return SCAN_BAD;
	}
	bool other = false;
	char why[160] = "";
	*found = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char stem[32], path[4096];
		EgdbClass c;
		size_t n = strlen(e->d_name);
		if (!has_suffix(e->d_name, ".egdb") || n - 5 >= sizeof stem)
			continue;
		memcpy(stem, e->d_name, n - 5);
		stem[n - 5] = 0;
		if (!egdb_class_parse(stem, &c))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		uint8_t head[EGDB_HEADER_SIZE];
		size_t have = 0;
		struct stat st;
		FILE *f = fopen(path, "rb");
		if (f) {
			have = fread(head, 1, sizeof head, f);
			if (fstat(fileno(f), &st) != 0)
				st.st_size = 0;
			fclose(f);
		}
		EgdbHeader h;
		if (!f || !egdb_check_header(head, have, (size_t)st.st_size, &h, why, sizeof why) ||
		    !egdb_class_equal(h.cls, c)) {
			if (err && err_size)
				snprintf(err, err_size, "%s: %s", path,
				         !f       ? strerror(errno)
				         : why[0] ? why
				                  : "not the class its name says");
			closedir(d);
			return SCAN_BAD;
		}
		if (h.variant != want) {
			if (!other && err && err_size) {
				egdb_variant_mismatch(h.variant, want, why, sizeof why);
				snprintf(err, err_size, "%s: %s", path, why);
			}
			other = true;
			continue;
		}
		present[egdb_class_key(c)] = true;
		(*found)++;
	}
	closedir(d);
	if (other)
		return *found ? SCAN_BAD : SCAN_OTHER;
	return *found ? SCAN_USE : SCAN_NONE;
}

Egdb *egdb_open(const char *dir, Variant v, char *err, size_t err_size)
{
	Egdb *db = calloc(1, sizeof *db);
	CacheEntry *cache = malloc(CACHE_BLOCKS * sizeof *cache);
	char *where = malloc(strlen(dir) + 32);
	if (!db || !cache || !where) {
		free(db);
		free(cache);
		free(where);
		if (err && err_size)
			snprintf(err, err_size, "out of memory");
		return NULL;
	}
	/* The directory itself, else its subdirectory of the rule set. */
	strcpy(where, dir);
	int found = 0;
	Scan scan = scan_dir(where, v, db->present, &found, err, err_size);
	if (scan == SCAN_NONE || scan == SCAN_OTHER) {
		char first[300] = "";
		if (scan == SCAN_OTHER && err && err_size)
			snprintf(first, sizeof first, "%s", err);
		sprintf(where, "%s/%s", dir, variant_rules(v)->name);
		struct stat st;
		Scan sub = stat(where, &st) == 0 && S_ISDIR(st.st_mode)
		               ? scan_dir(where, v, db->present, &found, err, err_size)
		               : SCAN_NONE;
		if (sub == SCAN_NONE && err && err_size) {
			if (first[0])
				snprintf(err, err_size, "%s", first);
			else
				snprintf(err, err_size, "no endgame database files (*.egdb) in '%s' or %s",
				         dir, where);
		}
		scan = sub;
	}
	if (scan != SCAN_USE) {
		free(db);
		free(cache);
		free(where);
		return NULL;
	}
	db->dir = where;
	db->variant = v;
	db->cache = cache;
	for (int i = 0; i < CACHE_BLOCKS; i++)
		cache[i].key = -1;
	pthread_mutex_init(&db->lock, NULL);
	pthread_mutex_init(&db->cache_lock, NULL);
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

Variant egdb_variant(const Egdb *db)
{
	return db->variant;
}

const char *egdb_dir(const Egdb *db)
{
	return db->dir;
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
	    !egdb_class_equal(slot->header.cls, c) || slot->header.variant != db->variant) {
		file_unmap(img, size);
		return;
	}
	egdb_decoder_init(&slot->decoder, img);
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
		egdb_image_block(atomic_load(&slot->image), &slot->header, &slot->decoder, block, e->values);
		e->key = key;
		e->block = block;
	}
	uint8_t v = e->values[index % EGDB_BLOCK];
	pthread_mutex_unlock(&db->cache_lock);
	return v;
}

/* egdb_probe() as an EgdbValueOf: the context is the probe's own Egdb. */
static bool probe_after(const void *db, const Position *p, uint8_t *value)
{
	return egdb_probe((Egdb *)db, p, value);
}

bool egdb_probe(Egdb *db, const Position *p, uint8_t *value)
{
	if (p->variant != db->variant)
		return false;
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
		movegen_captures(p, &list);
		return egdb_value_of_moves(p, &list, probe_after, db, value);
	}
	Position n;
	egdb_normalize(p, &n);
	*value = stored_value(db, slot, egdb_class_key(c), egdb_index(&n, c));
	return true;
}

#ifndef _WIN32
/* Writes dir to out when it is a directory and fits. */
static bool use_dir_if_present(const char *dir, char *out, size_t size)
{
	struct stat st;
	if (!dir[0] || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || strlen(dir) >= size)
		return false;
	snprintf(out, size, "%s", dir);
	return true;
}
#endif

void egdb_default_dir(char *out, size_t size)
{
	out[0] = '\0';
#ifndef _WIN32
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			slash[1] = '\0';
			char dir[4200];
			snprintf(dir, sizeof dir, "%sdatabases", exe);
			if (use_dir_if_present(dir, out, size))
				return;
		}
	}
	use_dir_if_present(poolshark_installed_egdb_dir, out, size);
#else
	(void)size; /* a DLL's host names the directory (egdb-path) */
#endif
}
