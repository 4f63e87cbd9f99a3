/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: the scalars of EvalWeights by name, weight files, the C initializer. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* Each field of EvalWeights with its array length and the range a fit may
 * use. The ranges keep every term pulling the way its name says (a
 * trapped king costs, a king's mobility and good squares pay, a king is
 * worth at least two men), which self-play at a small depth cannot always
 * show: it rarely converts a won king ending, so the data alone would
 * price kings near a man and reward trapped kings. The scales stay in
 * their meaningful ranges (sixteenths, a percentage). */
typedef struct Field {
	const char *name;
	size_t offset;
	int length;
	int low, high;
} Field;

#define FIELD(f, lo, hi)                                                                                     \
	{                                                                                                    \
#f, offsetof(EvalWeights, f), (int)(sizeof(((EvalWeights *)0)->f) / sizeof(int)), lo, hi     \
	}

static const Field fields[] = {
    FIELD(man, 100, 100),
    FIELD(king_opening, 200, 1000),
    FIELD(king_endgame, 200, 1000),
    FIELD(man_row, -200, 200),
    FIELD(tempo, -100, 100),
    FIELD(back_guard, -100, 100),
    FIELD(man_centre, -100, 100),
    FIELD(man_edge, -100, 100),
    FIELD(runaway, -300, 300),
    FIELD(runaway_per_row, -100, 100),
    FIELD(runaway_vs_kings, 0, 100),
    FIELD(king_centre, 0, 100),
    FIELD(king_main_diagonal, 0, 100),
    FIELD(king_double_diagonal, 0, 100),
    FIELD(king_mobility, 0, 50),
    FIELD(king_trapped, -300, 0),
    FIELD(drawn_scale, 0, 16),
    FIELD(drawish_scale, 0, 16),
};

_Static_assert(sizeof(EvalWeights) == 27 * sizeof(int),
               "every field of EvalWeights is listed in `fields` (update both together)");

void params_init(TuneParams *out)
{
	out->count = 0;
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
		for (int i = 0; i < fields[f].length; i++) {
			TuneParam *p = &out->param[out->count++];
			if (fields[f].length == 1)
				snprintf(p->name, sizeof p->name, "%s", fields[f].name);
			else
				snprintf(p->name, sizeof p->name, "%s[%d]", fields[f].name, i);
			p->offset = fields[f].offset + (size_t)i * sizeof(int);
			p->low = fields[f].low;
			p->high = fields[f].high;
			p->fixed = p->low == p->high;
		}
	}
	/* man + man_row[r] is a man's worth on row r: one of them must be
	 * pinned or the pair drifts together. */
	params_find(out, "man_row[0]")->fixed = true;
}

bool params_valid(const EvalWeights *w)
{
	for (int row = 1; row < 7; row++)
		if (w->man_row[row] <= w->man_row[row - 1])
			return false;
	/* The runaway bonus is paid from row 2 on (eval.c), five rows short
	 * of the crowning row at most. */
	return w->runaway - 5 * w->runaway_per_row > 0;
}

TuneParam *params_find(TuneParams *ps, const char *name)
{
	for (int i = 0; i < ps->count; i++)
		if (!strcmp(ps->param[i].name, name))
			return &ps->param[i];
	return NULL;
}

bool params_read(const TuneParams *ps, const char *path, EvalWeights *w)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "tune: %s: %s\n", path, strerror(errno));
		return false;
	}
	char line[256];
	int number = 0;
	bool ok = true;
	while (ok && fgets(line, sizeof line, f)) {
		number++;
		char name[64], extra[2];
		long value;
		if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
			continue;
		if (sscanf(line, "%63s %ld %1s", name, &value, extra) != 2) {
			fprintf(stderr, "tune: %s:%d: expected `name value`\n", path, number);
			ok = false;
			break;
		}
		const TuneParam *p = NULL;
		for (int i = 0; i < ps->count && !p; i++)
			if (!strcmp(ps->param[i].name, name))
				p = &ps->param[i];
		if (!p || value < INT_MIN / 2 || value > INT_MAX / 2) {
			fprintf(stderr, "tune: %s:%d: %s\n", path, number,
			        p ? "value out of range" : "unknown weight");
			ok = false;
			break;
		}
		*params_ref(p, w) = (int)value;
	}
	fclose(f);
	return ok;
}

void params_write(const TuneParams *ps, const EvalWeights *w, FILE *out)
{
	for (int i = 0; i < ps->count; i++)
		fprintf(out, "%s %d\n", ps->param[i].name, params_get(&ps->param[i], w));
}

static void write_array(FILE *out, const char *name, const int *v, int n)
{
	fprintf(out, "\t.%s = {", name);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%d", i ? ", " : "", v[i]);
	fprintf(out, "},\n");
}

void params_write_c(const EvalWeights *w, FILE *out)
{
	fprintf(out, "const EvalWeights eval_default_weights = {\n");
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
		const int *v = (const int *)((const char *)w + fields[f].offset);
		if (fields[f].length > 1)
			write_array(out, fields[f].name, v, fields[f].length);
		else
			fprintf(out, "\t.%s = %d,\n", fields[f].name, *v);
	}
	fprintf(out, "};\n");
}
