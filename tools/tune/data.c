/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: reading the `FEN result game` lines that tune gen writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/textfile.h"
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
	if (!notation_parse_fen(fen, variant, &s->pos, why, size))
		return false;
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

/* tune gen writes about 60 bytes a position: room for tens of millions of
 * them, and an end to a file without one (/dev/zero). */
static const long long DATA_MAX_BYTES = 4LL << 30;

bool data_load(const char *path, Variant variant, DataSet *out)
{
	TextFile f;
	char line[512], error[TEXTFILE_ERROR_MAX];
	if (!textfile_open(&f, path, DATA_MAX_BYTES, error, sizeof error)) {
		fprintf(stderr, "tune: %s\n", error);
		return false;
	}
	bool ok = true;
	TextRead r = TEXT_END;
	while (ok && (r = textfile_read_line(&f, line, sizeof line, error, sizeof error)) == TEXT_LINE) {
		long long number = f.line;
		Variant written = variant;
		if (line[0] == '#' && !header_variant(line, &written)) {
			fprintf(stderr, "tune: %s:%lld: unknown variant in the header\n", path, number);
			ok = false;
			continue;
		}
		if (written != variant) {
			fprintf(stderr, "tune: %s:%lld: the positions are of %s, not %s (--variant)\n", path,
			        number, variant_rules(written)->name, variant_rules(variant)->name);
			ok = false;
			continue;
		}
		if (line[0] == '#' || line[0] == '\0')
			continue;
		Sample s;
		char why[NOTATION_ERROR_MAX];
		if (!parse_line(line, variant, &s, why, sizeof why)) {
			fprintf(stderr, "tune: %s:%lld: %s\n", path, number, why);
			ok = false;
		} else if (!data_append(out, &s)) {
			fprintf(stderr, "tune: out of memory\n");
			ok = false;
		}
	}
	textfile_close(&f);
	if (r == TEXT_ERROR) {
		fprintf(stderr, "tune: %s\n", error);
		ok = false;
	}
	return ok;
}

void data_free(DataSet *d)
{
	free(d->samples);
	*d = (DataSet){0};
}
