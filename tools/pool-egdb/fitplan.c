/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-egdb fit-plan: the plans of the kings endings, fitted to the databases' distances. */
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
 * The columns of the fit of three kings against one: the lone king's
 * square, each strong king's square, the lone king's mobility, the three
 * diagonals, and the (lone king, strong king) pairs. The strong kings' own
 * column is folded into the pairs when the weights are written, so the
 * engine sums one term fewer. Two kings and a man against one adds the
 * (lone king, man) pairs, the man's own square folded into them.
 */
enum {
	COL_LONE = 0,
	COL_STRONG = 32,
	COL_MOBILITY = 64,
	COL_DIAGONAL = COL_MOBILITY + KINGS_PLAN_MOBILITY_MAX + 1,
	COL_PAIR = COL_DIAGONAL + 3,
	COLUMNS = COL_PAIR + 32 * 32,
	COL_MAN = COLUMNS,
	COL_MAN_PAIR = COL_MAN + 32,
	MAN_COLUMNS = COL_MAN_PAIR + 32 * 32
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

static int man_columns_of(const KingsManPlanFeatures *f, int *cols)
{
	int n = 0;
	cols[n++] = COL_LONE + f->lone;
	cols[n++] = COL_MOBILITY + f->mobility;
	cols[n++] = COL_MAN + f->man;
	cols[n++] = COL_MAN_PAIR + f->lone * 32 + f->man;
	for (int i = 0; i < 2; i++) {
		cols[n++] = COL_STRONG + f->strong[i];
		cols[n++] = COL_PAIR + f->lone * 32 + f->strong[i];
	}
	for (int i = 0; i < 3; i++)
		if (f->diagonal[i])
			cols[n++] = COL_DIAGONAL + i;
	return n;
}

/* What a fit adds up: one visit per won position, its columns and plies. */
typedef void (*Visit)(void *ctx, const int *cols, int n, int plies);

/* The value of the position of fen in the databases; false with a message
 * when it is not there. */
static bool probe_fen(Egdb *db, const char *fen, Position *p, uint8_t *v, bool *skip)
{
	char err[128];
	if (!notation_parse_fen(fen, egdb_variant(db), p, err, sizeof err))
		return false;
	Position them = *p;
	them.side = BLACK;
	*skip = movegen_has_capture(p) || movegen_has_capture(&them);
	if (*skip)
		return true;
	if (!egdb_probe(db, p, v)) {
		fprintf(stderr, "pool-egdb: %s is not in the databases (fit-plan needs four pieces)\n", fen);
		return false;
	}
	return true;
}

/* Calls visit for every won position of three White kings against a Black
 * king off the long diagonal, White to move, no capture for either side
 * (plies: the databases' distance to the win). False, with a message,
 * when a position is not in the databases. */
static bool each_three_kings(Egdb *db, Visit visit, void *ctx)
{
	for (int a = 1; a <= 32; a++)
		for (int b = a + 1; b <= 32; b++)
			for (int c = b + 1; c <= 32; c++)
				for (int k = 1; k <= 32; k++) {
					if (k == a || k == b || k == c ||
					    (bb_square(k - 1) & BB_LONG_DIAGONAL))
						continue;
					char fen[64];
					snprintf(fen, sizeof fen, "W:WK%d,K%d,K%d:BK%d", a, b, c, k);
					Position p;
					uint8_t v;
					bool skip;
					if (!probe_fen(db, fen, &p, &v, &skip))
						return false;
					KingsPlanFeatures f;
					int cols[16];
					if (!skip && egdb_value_result(v) == EGDB_WIN &&
					    kings_plan_features(&p, WHITE, &f))
						visit(ctx, cols, columns_of(&f, cols),
						      egdb_value_distance(v));
				}
	return true;
}

/* The same for two Black kings and a Black man against a White king off
 * the long diagonal, Black to move (Black's men walk toward square 32, as
 * the plan's view has them). */
static bool each_kings_man(Egdb *db, Visit visit, void *ctx)
{
	for (int m = 1; m <= 28; m++)
		for (int a = 1; a <= 32; a++)
			for (int b = a + 1; b <= 32; b++)
				for (int k = 1; k <= 32; k++) {
					if (a == m || b == m || k == m || k == a || k == b ||
					    (bb_square(k - 1) & BB_LONG_DIAGONAL))
						continue;
					char fen[64];
					snprintf(fen, sizeof fen, "B:WK%d:B%d,K%d,K%d", k, m, a, b);
					Position p;
					uint8_t v;
					bool skip;
					if (!probe_fen(db, fen, &p, &v, &skip))
						return false;
					if (!skip) {
						Position them = p;
						them.side = WHITE;
						skip = movegen_has_capture(&them);
					}
					KingsManPlanFeatures f;
					int cols[16];
					if (!skip && egdb_value_result(v) == EGDB_WIN &&
					    kings_man_plan_features(&p, BLACK, &f))
						visit(ctx, cols, man_columns_of(&f, cols),
						      egdb_value_distance(v));
				}
	return true;
}

typedef struct Fit {
	int columns;
	double *normal;        /* the normal equations, columns x (columns + 1), right-hand side last */
	const double *weights; /* the solution, for the error pass */
	long positions;
	double plies, squared_error, squared_plies;
} Fit;

static double *at(const Fit *fit, int row, int column)
{
	return &fit->normal[(size_t)row * (size_t)(fit->columns + 1) + (size_t)column];
}

static void accumulate(void *ctx, const int *cols, int n, int plies)
{
	Fit *fit = ctx;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			*at(fit, cols[i], cols[j]) += 1.0;
		*at(fit, cols[i], fit->columns) += plies;
	}
	fit->positions++;
	fit->plies += plies;
	fit->squared_plies += (double)plies * plies;
}

static void measure(void *ctx, const int *cols, int n, int plies)
{
	Fit *fit = ctx;
	double predicted = 0;
	for (int i = 0; i < n; i++)
		predicted += fit->weights[cols[i]];
	fit->squared_error += (predicted - plies) * (predicted - plies);
}

/* Gauss-Jordan elimination with partial pivoting; the solution into x. A
 * row whose factor is zero is left as it is (subtracting nothing), which
 * the pairs no position holds make most rows. */
static void solve(const Fit *fit, double *x)
{
	int n = fit->columns;
	for (int c = 0; c < n; c++) {
		int pivot = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(*at(fit, r, c)) > fabs(*at(fit, pivot, c)))
				pivot = r;
		for (int j = 0; j <= n; j++) {
			double t = *at(fit, c, j);
			*at(fit, c, j) = *at(fit, pivot, j);
			*at(fit, pivot, j) = t;
		}
		const double *row = at(fit, c, 0);
		for (int r = 0; r < n; r++) {
			double factor = *at(fit, r, c) / row[c];
			if (r == c || factor == 0)
				continue;
			double *target = at(fit, r, 0);
			for (int j = c; j <= n; j++)
				target[j] -= factor * row[j];
		}
	}
	for (int i = 0; i < n; i++)
		x[i] = *at(fit, i, n) / *at(fit, i, i);
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

static void write_pairs(FILE *out, const char *name, const double *x, const double *plus)
{
	fprintf(out, ",\n    .%s = {\n", name);
	for (int lone = 0; lone < 32; lone++) {
		fputs("        ", out);
		write_row(out, x + lone * 32, 32, plus);
		fputs(",\n", out);
	}
	fputs("    }", out);
}

static void write_weights(FILE *out, Variant v, bool man, const double *x, double mean)
{
	const char *name = variant_rules(v)->name;
	bool pool = v == VARIANT_POOL;
	/* The command that wrote the file (pool's first line as it always
	 * was; the others' databases are in their default directory). */
	char command[160];
	if (pool && !man)
		snprintf(command, sizeof command, "pool-egdb fit-plan --dir databases");
	else
		snprintf(command, sizeof command, "pool-egdb fit-plan%s%s%s", pool ? "" : " --variant ",
		         pool ? "" : name, man ? " --material m1k2-m0k1" : "");
	fprintf(out,
	        "/* SPDX-License-Identifier: GPL-3.0-or-later */\n"
	        "/* Written by `%s`: do not edit (doc/EVAL.md%s). */\n"
	        "#include \"poolshark/kings_plan.h\"\n\n"
	        "/* clang-format off */\n"
	        "const %s %s = {\n    .lone = ",
	        command, man ? "" : ", \"Kings endings\"", man ? "KingsManPlanWeights" : "KingsPlanWeights",
	        man ? "kings_man_plan_weights" : "kings_plan_weights");
	write_row(out, x + COL_LONE, 32, NULL);
	fputs(",\n    .mobility = ", out);
	write_row(out, x + COL_MOBILITY, KINGS_PLAN_MOBILITY_MAX + 1, NULL);
	fputs(",\n    .diagonal = ", out);
	write_row(out, x + COL_DIAGONAL, 3, NULL);
	if (man) {
		write_pairs(out, "king_pair", x + COL_PAIR, x + COL_STRONG);
		write_pairs(out, "man_pair", x + COL_MAN_PAIR, x + COL_MAN);
	} else {
		write_pairs(out, "pair", x + COL_PAIR, x + COL_STRONG);
	}
	fprintf(out, ",\n    .centre = %ld,\n};\n/* clang-format on */\n", units(mean));
}

int egdb_fit_plan(const char *dir, Variant v, bool man, FILE *out)
{
	char err[512];
	Egdb *db = egdb_open(dir, v, err, sizeof err);
	if (!db) {
		fprintf(stderr, "pool-egdb: %s\n", err);
		return 1;
	}
	bool (*each)(Egdb *, Visit, void *) = man ? each_kings_man : each_three_kings;
	Fit fit = {.columns = man ? MAN_COLUMNS : COLUMNS};
	fit.normal = calloc((size_t)fit.columns * (size_t)(fit.columns + 1), sizeof *fit.normal);
	double *x = calloc((size_t)fit.columns, sizeof *x);
	int status = 1;
	if (!fit.normal || !x) {
		fprintf(stderr, "pool-egdb: out of memory\n");
		goto done;
	}
	if (!each(db, accumulate, &fit))
		goto done;
	if (fit.positions == 0) {
		fprintf(stderr, "pool-egdb: no won position of %s against one in %s\n",
		        man ? "two kings and a man" : "three kings", dir);
		goto done;
	}
	for (int i = 0; i < fit.columns; i++)
		*at(&fit, i, i) += RIDGE;
	solve(&fit, x);
	fit.weights = x;
	each(db, measure, &fit);
	double mean = fit.plies / fit.positions;
	double variance = fit.squared_plies / fit.positions - mean * mean;
	fprintf(stderr, "pool-egdb fit-plan: %ld positions, mean %.2f plies, rms error %.2f plies, R2 %.3f\n",
	        fit.positions, mean, sqrt(fit.squared_error / fit.positions),
	        1 - fit.squared_error / fit.positions / variance);
	write_weights(out, v, man, x, mean);
	status = 0;
done:
	free(fit.normal);
	free(x);
	egdb_close(db);
	return status;
}
