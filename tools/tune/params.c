/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: the scalars of EvalWeights by name, weight files, the C initializer. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/textfile.h"
#include "tune.h"

void params_init(TuneParams *out)
{
	out->count = 0;
	for (int f = 0; f < EVAL_FIELD_COUNT; f++) {
		const EvalField *field = &eval_fields[f];
		for (int i = 0; i < field->length; i++) {
			TuneParam *p = &out->param[out->count++];
			if (field->length == 1)
				snprintf(p->name, sizeof p->name, "%s", field->name);
			else
				snprintf(p->name, sizeof p->name, "%s[%d]", field->name, i);
			p->offset = field->offset + (size_t)i * sizeof(int);
			p->low = field->tune_low;
			p->high = field->tune_high;
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
	enum { WEIGHTS_MAX_BYTES = 1 << 20 }; /* a few hundred `name value` lines */
	TextFile f;
	char line[256], error[TEXTFILE_ERROR_MAX];
	if (!textfile_open(&f, path, WEIGHTS_MAX_BYTES, error, sizeof error)) {
		fprintf(stderr, "tune: %s\n", error);
		return false;
	}
	bool ok = true;
	TextRead r;
	while ((r = textfile_read_line(&f, line, sizeof line, error, sizeof error)) == TEXT_LINE) {
		long long number = f.line;
		char name[64], extra[2];
		long value;
		if (line[0] == '#' || strspn(line, " \t") == strlen(line))
			continue;
		if (sscanf(line, "%63s %ld %1s", name, &value, extra) != 2) {
			fprintf(stderr, "tune: %s:%lld: expected `name value`\n", path, number);
			ok = false;
			break;
		}
		const TuneParam *p = NULL;
		for (int i = 0; i < ps->count && !p; i++)
			if (!strcmp(ps->param[i].name, name))
				p = &ps->param[i];
		if (!p || value < INT_MIN / 2 || value > INT_MAX / 2) {
			fprintf(stderr, "tune: %s:%lld: %s\n", path, number,
			        p ? "value out of range" : "unknown weight");
			ok = false;
			break;
		}
		*params_ref(p, w) = (int)value;
	}
	textfile_close(&f);
	if (r == TEXT_ERROR) {
		fprintf(stderr, "tune: %s\n", error);
		ok = false;
	}
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

void params_write_c(const EvalWeights *w, Variant variant, FILE *out)
{
	if (variant == VARIANT_POOL)
		fprintf(out, "const EvalWeights eval_default_weights = {\n");
	else
		fprintf(out, "static const EvalWeights eval_%s_weights = {\n", variant_rules(variant)->name);
	for (int f = 0; f < EVAL_FIELD_COUNT; f++) {
		const EvalField *field = &eval_fields[f];
		const int *v = (const int *)((const char *)w + field->offset);
		if (field->length > 1)
			write_array(out, field->name, v, field->length);
		else
			fprintf(out, "\t.%s = %d,\n", field->name, *v);
	}
	fprintf(out, "};\n");
}
