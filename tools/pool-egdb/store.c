/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Decoded database tables in memory, read from checked files. */
#include <stdio.h>
#include <stdlib.h>

#include "egdbtool.h"
#include "poolshark/movegen.h"

static bool load_exits_of(Store *st, EgdbClass xy);

void store_path(const Store *st, EgdbClass c, char *out, size_t size)
{
	char name[32];
	egdb_class_name(c, name, sizeof name);
	snprintf(out, size, "%s/%s.egdb", st->dir, name);
}

uint8_t *store_read_file(const Store *st, EgdbClass c, size_t *size, EgdbHeader *h)
{
	char path[4096], err[128];
	store_path(st, c, path, sizeof path);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "pool-egdb: cannot open %s\n", path);
		return NULL;
	}
	uint8_t *img = NULL;
	long n = -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		img = malloc((size_t)n);
		if (img && fread(img, 1, (size_t)n, f) != (size_t)n) {
			free(img);
			img = NULL;
		}
	}
	fclose(f);
	if (!img) {
		fprintf(stderr, "pool-egdb: cannot read %s\n", path);
		return NULL;
	}
	bool ok = egdb_check_image(img, (size_t)n, h, err, sizeof err);
	if (ok && !egdb_class_equal(h->cls, c)) {
		snprintf(err, sizeof err, "wrong class");
		ok = false;
	}
	if (ok && h->variant != st->variant) {
		egdb_variant_mismatch(h->variant, st->variant, err, sizeof err);
		ok = false;
	}
	if (!ok) {
		fprintf(stderr, "pool-egdb: %s: %s\n", path, err);
		free(img);
		return NULL;
	}
	*size = (size_t)n;
	return img;
}

bool store_load(Store *st, EgdbClass c)
{
	int key = egdb_class_key(c);
	if (st->values[key])
		return true;
	size_t size;
	EgdbHeader h;
	uint8_t *img = store_read_file(st, c, &size, &h);
	if (!img)
		return false;
	uint8_t *values = malloc(h.positions ? h.positions : 1);
	if (values)
		egdb_image_decode(img, &h, values);
	free(img);
	if (!values)
		return false;
	/* The file leaves out positions with a capture pending: their moves
	 * all lead to smaller classes, loaded first. */
	if (!load_exits_of(st, c)) {
		free(values);
		return false;
	}
	for (uint64_t i = 0; i < h.positions; i++) {
		Position p;
		if (!egdb_position(st->variant, c, i, &p)) {
			values[i] = EGDB_VALUE_NONE;
			continue;
		}
		if (!movegen_has_capture(&p))
			continue;
		MoveList list;
		movegen_captures(&p, &list);
		egdb_value_of_moves(&p, &list, store_value_of, st, &values[i]);
	}
	st->values[key] = values;
	st->sizes[key] = h.positions;
	return true;
}

void store_free(Store *st)
{
	for (int k = 0; k < EGDB_CLASS_KEYS; k++) {
		free(st->values[k]);
		st->values[k] = NULL;
	}
}

uint8_t store_value(const Store *st, const Position *p)
{
	EgdbClass c;
	egdb_class_of(p, &c);
	if (c.men[0] + c.kings[0] == 0)
		return 1; /* lost: no piece, no move */
	Position n;
	egdb_normalize(p, &n);
	return st->values[egdb_class_key(c)][egdb_index(&n, c)];
}

bool store_value_of(const void *store, const Position *p, uint8_t *value)
{
	*value = store_value(store, p);
	return true;
}

/* Classes that the side with material `x` moving against `y` can reach by a
 * capture or a crowning: y loses pieces (any of its men and kings) and the
 * mover keeps its material or crowns a man. */
static bool load_exits_of(Store *st, EgdbClass xy)
{
	for (int m = 0; m <= xy.men[1]; m++)
		for (int k = 0; k <= xy.kings[1]; k++) {
			if (m + k == 0)
				continue;
			EgdbClass after = {{(uint8_t)m, xy.men[0]}, {(uint8_t)k, xy.kings[0]}};
			bool same = m == xy.men[1] && k == xy.kings[1];
			if (!same && !store_load(st, after))
				return false;
			if (xy.men[0] > 0) {
				EgdbClass crowned = after;
				crowned.men[1]--;
				crowned.kings[1]++;
				if (!store_load(st, crowned))
					return false;
			}
		}
	return true;
}

bool store_load_exits(Store *st, EgdbClass pair)
{
	return load_exits_of(st, pair) && load_exits_of(st, egdb_class_swap(pair));
}
