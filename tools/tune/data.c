/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: reading the `FEN result game` lines that tune gen writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "tune.h"

bool data_append(DataSet *d, const Sample *s)
{
	if (d->count == d->capacity) {
		size_t capacity = d->capacity ? 2 * d->capacity : 65536;
		Sample *grown = realloc(d->samples, capacity * sizeof *grown);
		if (!grown)
			return false;
		d->samples = grown;
		d->capacity = capacity;
	}
	d->samples[d->count++] = *s;
	return true;
}

/* Parses one data line into *s; false with the reason in why. */
static bool parse_line(char *line, Variant variant, Sample *s, char *why, size_t size)
{
	char *save = NULL;
	char *fen = strtok_r(line, " \t\r\n", &save);
	char *result = strtok_r(NULL, " \t\r\n", &save);
	char *game = strtok_r(NULL, " \t\r\n", &save);
	if (!fen || !result || !game || strtok_r(NULL, " \t\r\n", &save)) {
		snprintf(why, size, "expected `FEN result game`");
		return false;
	}
	if (!notation_parse_fen(fen, &s->pos, why, size))
		return false;
	s->pos.variant = (uint8_t)variant;
	double black;
	if (!strcmp(result, "1"))
		black = 1.0;
	else if (!strcmp(result, "0.5"))
		black = 0.5;
	else if (!strcmp(result, "0"))
		black = 0.0;
	else {
		snprintf(why, size, "result is not 1, 0.5 or 0");
		return false;
	}
	s->result = (float)(s->pos.side == BLACK ? black : 1.0 - black);
	const char *err = NULL;
	s->game = (uint32_t)number_read(game, 0, UINT32_MAX, &err);
	if (err) {
		snprintf(why, size, "game number is %s", err);
		return false;
	}
	return true;
}

/* The variant named by a `# tune gen --variant V ...` header line; true
 * (and *out untouched) for any other line. */
static bool header_variant(const char *line, Variant *out)
{
	static const char prefix[] = "# tune gen --variant ";
	if (strncmp(line, prefix, sizeof prefix - 1))
		return true;
	char name[32];
	return sscanf(line + sizeof prefix - 1, "%31s", name) == 1 && variant_parse(name, out);
}

bool data_load(const char *path, Variant variant, DataSet *out)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "tune: %s: %s\n", path, strerror(errno));
		return false;
	}
	char line[512];
	long number = 0;
	bool ok = true;
	while (ok && fgets(line, sizeof line, f)) {
		number++;
		Variant written = variant;
		if (line[0] == '#' && !header_variant(line, &written)) {
			fprintf(stderr, "tune: %s:%ld: unknown variant in the header\n", path, number);
			ok = false;
			continue;
		}
		if (written != variant) {
			fprintf(stderr, "tune: %s:%ld: the positions are of %s, not %s (--variant)\n", path,
			        number, variant_rules(written)->name, variant_rules(variant)->name);
			ok = false;
			continue;
		}
		if (line[0] == '#' || line[0] == '\n')
			continue;
		Sample s;
		char why[NOTATION_ERROR_MAX];
		if (!parse_line(line, variant, &s, why, sizeof why)) {
			fprintf(stderr, "tune: %s:%ld: %s\n", path, number, why);
			ok = false;
		} else if (!data_append(out, &s)) {
			fprintf(stderr, "tune: out of memory\n");
			ok = false;
		}
	}
	fclose(f);
	return ok;
}

void data_free(DataSet *d)
{
	free(d->samples);
	*d = (DataSet){0};
}
