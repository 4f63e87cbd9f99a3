/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-egdb fit-plan: the plan of three kings against one, fitted to the databases' distances. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egdbtool.h"
#include "poolshark/bitboard.h"
#include "poolshark/kings_plan.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"

/*
 * The fit's columns: the lone king's square, each strong king's square,
 * the lone king's mobility, the three diagonals, and the (lone king,
 * strong king) pairs. The strong kings' own column is folded into the
 * pairs when the weights are written, so the engine sums one term fewer.
 */
enum {
	COL_LONE = 0,
	COL_STRONG = 32,
	COL_MOBILITY = 64,
	COL_DIAGONAL = COL_MOBILITY + KINGS_PLAN_MOBILITY_MAX + 1,
	COL_PAIR = COL_DIAGONAL + 3,
	COLUMNS = COL_PAIR + 32 * 32
};

/* The ridge added to the normal equations' diagonal: the pairs of squares a
 * position cannot hold together stay at zero. */
static const double RIDGE = 1.0;

/* The columns set in *f (each once but the strong kings', once per king). */
static int columns_of(const KingsPlanFeatures *f, int *cols)
{
	int n = 0;
	cols[n++] = COL_LONE + f->lone;
	cols[n++] = COL_MOBILITY + f->mobility;
	for (int i = 0; i < 3; i++) {
		cols[n++] = COL_STRONG + f->strong[i];
		cols[n++] = COL_PAIR + f->lone * 32 + f->strong[i];
		if (f->diagonal[i])
			cols[n++] = COL_DIAGONAL + i;
	}
	return n;
}

/* Calls visit(ctx, features, plies) for every won position of three White
 * kings against a Black king off the long diagonal, White to move, no
 * capture for either side (plies: the databases' distance to the win).
 * False, with a message, when a position is not in the databases. */
static bool each_won_position(Egdb *db, void (*visit)(void *, const KingsPlanFeatures *, int), void *ctx)
{
	Variant variant = egdb_variant(db);
	for (int a = 1; a <= 32; a++)
		for (int b = a + 1; b <= 32; b++)
			for (int c = b + 1; c <= 32; c++)
				for (int k = 1; k <= 32; k++) {
					if (k == a || k == b || k == c ||
					    (bb_square(k - 1) & BB_LONG_DIAGONAL))
						continue;
					char fen[64], err[128];
					snprintf(fen, sizeof fen, "W:WK%d,K%d,K%d:BK%d", a, b, c, k);
					Position p;
					if (!notation_parse_fen(fen, variant, &p, err, sizeof err))
						return false;
					Position them = p;
					them.side = BLACK;
					if (movegen_has_capture(&p) || movegen_has_capture(&them))
						continue;
					uint8_t v;
					if (!egdb_probe(db, &p, &v)) {
						fprintf(stderr,
						        "pool-egdb: %s is not in the databases (fit-plan "
						        "needs four pieces)\n",
						        fen);
						return false;
					}
					KingsPlanFeatures f;
					if (egdb_value_result(v) == EGDB_WIN &&
					    kings_plan_features(&p, WHITE, &f))
						visit(ctx, &f, egdb_value_distance(v));
				}
	return true;
}

typedef struct Fit {
	double (*normal)[COLUMNS + 1]; /* the normal equations, right-hand side last */
	const double *weights;         /* the solution, for the error pass */
	long positions;
	double plies, squared_error, squared_plies;
} Fit;

static void accumulate(void *ctx, const KingsPlanFeatures *f, int plies)
{
	Fit *fit = ctx;
	int cols[16], n = columns_of(f, cols);
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			fit->normal[cols[i]][cols[j]] += 1.0;
		fit->normal[cols[i]][COLUMNS] += plies;
	}
	fit->positions++;
	fit->plies += plies;
	fit->squared_plies += (double)plies * plies;
}

static void measure(void *ctx, const KingsPlanFeatures *f, int plies)
{
	Fit *fit = ctx;
	int cols[16], n = columns_of(f, cols);
	double predicted = 0;
	for (int i = 0; i < n; i++)
		predicted += fit->weights[cols[i]];
	fit->squared_error += (predicted - plies) * (predicted - plies);
}

/* Gauss-Jordan elimination with partial pivoting; the solution into x. */
static void solve(double (*m)[COLUMNS + 1], double *x)
{
	for (int c = 0; c < COLUMNS; c++) {
		int pivot = c;
		for (int r = c + 1; r < COLUMNS; r++)
			if (fabs(m[r][c]) > fabs(m[pivot][c]))
				pivot = r;
		for (int j = 0; j <= COLUMNS; j++) {
			double t = m[c][j];
			m[c][j] = m[pivot][j];
			m[pivot][j] = t;
		}
		for (int r = 0; r < COLUMNS; r++)
			if (r != c) {
				double factor = m[r][c] / m[c][c];
				for (int j = c; j <= COLUMNS; j++)
					m[r][j] -= factor * m[c][j];
			}
	}
	for (int i = 0; i < COLUMNS; i++)
		x[i] = m[i][COLUMNS] / m[i][i];
}

/* A weight in the engine's units: -KINGS_PLAN_PER_PLY per predicted ply. */
static long units(double plies)
{
	return lround(-KINGS_PLAN_PER_PLY * plies);
}

static void write_row(FILE *out, const double *x, int count, const double *plus)
{
	fputs("{", out);
	for (int i = 0; i < count; i++)
		fprintf(out, "%s%ld", i ? ", " : "", units(x[i] + (plus ? plus[i] : 0)));
	fputs("}", out);
}

static void write_weights(FILE *out, Variant v, const double *x, double mean)
{
	const char *name = variant_rules(v)->name;
	bool pool = v == VARIANT_POOL;
	fprintf(out,
	        "/* SPDX-License-Identifier: GPL-3.0-or-later */\n"
	        "/* Written by `pool-egdb fit-plan %s%s%s--dir databases%s%s`: do not edit (doc/EVAL.md, "
	        "\"Kings endings\"). */\n"
	        "#include \"poolshark/kings_plan.h\"\n\n"
	        "/* clang-format off */\n"
	        "const KingsPlanWeights kings_plan_weights = {\n    .lone = ",
	        pool ? "" : "--variant ", pool ? "" : name, pool ? "" : " ", pool ? "" : "/",
	        pool ? "" : name);
	write_row(out, x + COL_LONE, 32, NULL);
	fputs(",\n    .mobility = ", out);
	write_row(out, x + COL_MOBILITY, KINGS_PLAN_MOBILITY_MAX + 1, NULL);
	fputs(",\n    .diagonal = ", out);
	write_row(out, x + COL_DIAGONAL, 3, NULL);
	fputs(",\n    .pair = {\n", out);
	for (int lone = 0; lone < 32; lone++) {
		fputs("        ", out);
		write_row(out, x + COL_PAIR + lone * 32, 32, x + COL_STRONG);
		fputs(",\n", out);
	}
	fprintf(out, "    },\n    .centre = %ld,\n};\n/* clang-format on */\n", units(mean));
}

int egdb_fit_plan(const char *dir, Variant v, FILE *out)
{
	char err[512];
	Egdb *db = egdb_open(dir, v, err, sizeof err);
	if (!db) {
		fprintf(stderr, "pool-egdb: %s\n", err);
		return 1;
	}
	Fit fit = {.normal = calloc(COLUMNS, sizeof *fit.normal)};
	double *x = calloc(COLUMNS, sizeof *x);
	int status = 1;
	if (!fit.normal || !x) {
		fprintf(stderr, "pool-egdb: out of memory\n");
		goto done;
	}
	if (!each_won_position(db, accumulate, &fit))
		goto done;
	if (fit.positions == 0) {
		fprintf(stderr, "pool-egdb: no won position of three kings against one in %s\n", dir);
		goto done;
	}
	for (int i = 0; i < COLUMNS; i++)
		fit.normal[i][i] += RIDGE;
	solve(fit.normal, x);
	fit.weights = x;
	each_won_position(db, measure, &fit);
	double mean = fit.plies / fit.positions;
	double variance = fit.squared_plies / fit.positions - mean * mean;
	fprintf(stderr, "pool-egdb fit-plan: %ld positions, mean %.2f plies, rms error %.2f plies, R2 %.3f\n",
	        fit.positions, mean, sqrt(fit.squared_error / fit.positions),
	        1 - fit.squared_error / fit.positions / variance);
	write_weights(out, v, x, mean);
	status = 0;
done:
	free(fit.normal);
	free(x);
	egdb_close(db);
	return status;
}
