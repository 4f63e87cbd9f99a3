/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: Texel tuning of EvalWeights from self-play positions (shared declarations). */
#ifndef POOLSHARK_TOOLS_TUNE_H
#define POOLSHARK_TOOLS_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "poolshark/eval.h"
#include "poolshark/position.h"
#include "poolshark/variant.h"

/* One scalar of EvalWeights: its name in weight files and the C table
 * ("man_row[3]"), where it lives, the range the fit keeps it in, and
 * whether the fit may move it at all. */
typedef struct TuneParam {
	char name[32];
	size_t offset;
	int low, high;
	bool fixed;
} TuneParam;

enum { TUNE_PARAM_MAX = 64 };

typedef struct TuneParams {
	int count;
	TuneParam param[TUNE_PARAM_MAX];
} TuneParams;

/* Fills *out with every scalar of EvalWeights; `man` and `man_row[0]`
 * are fixed (they set the unit: a man on its back row is 100). */
void params_init(TuneParams *out);

/* The constraints that tie weights together: a man is worth more on
 * every row nearer its crowning row (man_row strictly increasing), and a
 * free path to the crowning row is a bonus on every row it is paid. */
bool params_valid(const EvalWeights *w);

/* The parameter called `name` (one scalar: "man_row[3]"), or NULL. */
TuneParam *params_find(TuneParams *ps, const char *name);

static inline int *params_ref(const TuneParam *p, EvalWeights *w)
{
	return (int *)((char *)w + p->offset);
}

static inline int params_get(const TuneParam *p, const EvalWeights *w)
{
	return *(const int *)((const char *)w + p->offset);
}

/* Reads `name value` lines (# comments) into *w, starting from its
 * current values. False with a message on stderr on any bad line. */
bool params_read(const TuneParams *ps, const char *path, EvalWeights *w);

/* Writes every parameter as `name value` lines. */
void params_write(const TuneParams *ps, const EvalWeights *w, FILE *out);

/* Writes *w as the initializer of the table of variant in src/eval/eval.c
 * (eval_default_weights for pool, eval_russian_weights, ...). */
void params_write_c(const EvalWeights *w, Variant variant, FILE *out);

/* A training position: the board and the game's result for the side to
 * move (1 win, 0.5 draw, 0 loss). */
typedef struct Sample {
	Position pos;
	float result;
	uint32_t game;
} Sample;

typedef struct DataSet {
	Sample *samples;
	size_t count, capacity;
} DataSet;

/* Reads a file written by `tune gen` with the positions of variant v (a
 * `--variant` header naming another one is refused). False with a message
 * on stderr. */
bool data_load(const char *path, Variant v, DataSet *out);
void data_free(DataSet *d);

/* Appends a copy of *s; false when memory is short. */
bool data_append(DataSet *d, const Sample *s);

/* Subcommands; argv[0] is the subcommand name. Exit statuses. */
int tune_gen(int argc, char **argv);
int tune_fit(int argc, char **argv);

#endif
