/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune fit: K of the win-probability sigmoid, then coordinate descent on the integer weights. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/number.h"
#include "poolshark/textfile.h"
#include "cmdline.h"
#include "tune.h"

typedef struct FitOptions {
	const char *data, *weights, *out;
	Variant variant;
	double k;      /* 0: fit it */
	double lambda; /* L2 pull toward the start weights, per (hundredth)^2 */
	int passes, step, valid_every;
	const char *fix[TUNE_PARAM_MAX];
	int fix_count;
} FitOptions;

/* The training and validation halves and what the error depends on. */
typedef struct Fit {
	DataSet train, valid;
	double k, lambda;
	EvalWeights start;
	const TuneParams *params;
} Fit;

/* --fix NAME, again for each weight. */
static bool add_fixed(void *context, const char *value, char *problem, size_t size)
{
	FitOptions *o = context;
	if (o->fix_count == TUNE_PARAM_MAX) {
		snprintf(problem, size, "more than %d weights", TUNE_PARAM_MAX);
		return false;
	}
	o->fix[o->fix_count++] = value;
	return true;
}

/* The options into *o (its defaults first); false with the exit status. */
static bool parse_fit_options(int argc, char **argv, FitOptions *o, int *status)
{
	*o = (FitOptions){.passes = 1000, .step = 8, .valid_every = 10};
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("data", "FILE", &o->data, "positions written by tune gen")),
	    cmdline_variant("variant", &o->variant, "the rules of FILE (default pool)"),
	    cmdline_text("weights", "FILE", &o->weights,
	                 "the start weights, `name value` lines (default: V's)"),
	    cmdline_decimal("k", "K", &o->k, 0, 1e6, "of sigmoid(K * eval) (default: fitted)"),
	    cmdline_int("passes", "N", &o->passes, 0, 1000000, "passes at most (default 1000; 0 measures)"),
	    cmdline_int("step", "S", &o->step, 1, 256, "the first step of a weight (default 8)"),
	    cmdline_int("valid-every", "M", &o->valid_every, 0, 1000000,
	                "games held out for validation (default 10; 0: none)"),
	    cmdline_decimal("lambda", "L", &o->lambda, 0, 1e6, "the pull toward the start (default 0)"),
	    cmdline_call("fix", "NAME", add_fixed, "a weight the fit keeps (again for more)"),
	    cmdline_text("out", "FILE", &o->out, "the weights, written after every pass"),
	};
	const Cmdline cmdline = {
	    .program = "tune fit",
	    .synopsis = "usage: tune fit --data FILE [OPTIONS]\n"
	                "Fits K of sigmoid(K * eval) to the results of FILE (written by tune gen) with\n"
	                "the start weights, then moves one weight at a time by S (halved down to 1\n"
	                "when no move helps) while the mean squared error falls, for at most N\n"
	                "passes. Games whose number is a multiple of M are held out for validation.\n"
	                "L adds L * sum (w - start)^2 to the error. Writes the C table to stdout.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .context = o,
	};
	return cmdline_parse(&cmdline, argc, argv, status);
}

/* Mean squared error of sigmoid(k * eval) against the results. */
static double data_error(const DataSet *d, const EvalWeights *w, double k)
{
	double sum = 0;
	for (size_t i = 0; i < d->count; i++) {
		const Sample *s = &d->samples[i];
		double e = eval_evaluate(&s->pos, w);
		double diff = s->result - 1.0 / (1.0 + exp(-k * e));
		sum += diff * diff;
	}
	return d->count ? sum / (double)d->count : 0;
}

/* What the descent minimises: the training error plus the pull toward
 * the start weights. */
static double objective(const Fit *f, const EvalWeights *w)
{
	double penalty = 0;
	if (f->lambda > 0)
		for (int i = 0; i < f->params->count; i++) {
			double d =
			    params_get(&f->params->param[i], w) - params_get(&f->params->param[i], &f->start);
			penalty += d * d;
		}
	return data_error(&f->train, w, f->k) + f->lambda * penalty;
}

/* The K in [1e-4, 1] that minimises the training error: the error is
 * unimodal in K, so a golden-section search over log K finds it. */
static double fit_k(const DataSet *d, const EvalWeights *w)
{
	const double phi = (sqrt(5.0) - 1) / 2;
	double lo = log(1e-4), hi = log(1.0);
	double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
	double ea = data_error(d, w, exp(a)), eb = data_error(d, w, exp(b));
	for (int i = 0; i < 40; i++) {
		if (ea < eb) {
			hi = b, b = a, eb = ea;
			a = hi - phi * (hi - lo);
			ea = data_error(d, w, exp(a));
		} else {
			lo = a, a = b, ea = eb;
			b = lo + phi * (hi - lo);
			eb = data_error(d, w, exp(b));
		}
	}
	return exp((lo + hi) / 2);
}

static bool write_weights(const char *path, const TuneParams *ps, const EvalWeights *w)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return false;
	}
	char error[TEXTFILE_ERROR_MAX];
	params_write(ps, w, f);
	if (!textfile_finish(f, path, error, sizeof error)) {
		fprintf(stderr, "tune fit: %s\n", error);
		return false;
	}
	return true;
}

/* Moves parameter p by +step or -step, and on in the same direction while
 * the objective keeps falling. Returns whether it moved. */
static bool descend_one(const Fit *f, const TuneParam *p, int step, EvalWeights *w, double *best)
{
	int *v = params_ref(p, w);
	for (int dir = 1; dir >= -1; dir -= 2) {
		bool moved = false;
		for (;;) {
			int old = *v, next = old + dir * step;
			if (next < p->low || next > p->high)
				break;
			*v = next;
			if (!params_valid(w)) {
				*v = old;
				break;
			}
			double e = objective(f, w);
			if (e >= *best) {
				*v = old;
				break;
			}
			*best = e;
			moved = true;
		}
		if (moved)
			return true;
	}
	return false;
}

static bool split_data(const char *path, Variant variant, int valid_every, Fit *f)
{
	DataSet all = {0};
	if (!data_load(path, variant, &all)) {
		data_free(&all);
		return false;
	}
	bool ok = true;
	for (size_t i = 0; i < all.count && ok; i++) {
		bool held_out = valid_every && all.samples[i].game % (uint32_t)valid_every == 0;
		if (!data_append(held_out ? &f->valid : &f->train, &all.samples[i])) {
			fprintf(stderr, "tune fit: out of memory\n");
			ok = false;
		}
	}
	data_free(&all);
	return ok;
}

int tune_fit(int argc, char **argv)
{
	FitOptions o;
	int status;
	if (!parse_fit_options(argc, argv, &o, &status))
		return status;
	TuneParams params;
	params_init(&params);
	for (int i = 0; i < o.fix_count; i++) {
		TuneParam *p = params_find(&params, o.fix[i]);
		if (!p) {
			fprintf(stderr, "tune fit: --fix %s: no such weight\n", o.fix[i]);
			return 2;
		}
		p->fixed = true;
	}
	EvalWeights w = *eval_weights_for(o.variant);
	if (o.weights && !params_read(&params, o.weights, &w))
		return 1;
	if (!params_valid(&w))
		fprintf(stderr,
		        "tune fit: warning: the start weights break a constraint (man_row, runaway)\n");

	Fit f = {.lambda = o.lambda, .start = w, .params = &params};
	status = 1;
	if (!split_data(o.data, o.variant, o.valid_every, &f))
		goto done;
	if (f.train.count == 0) {
		fprintf(stderr, "tune fit: %s: no training positions\n", o.data);
		goto done;
	}
	printf("positions: %zu training, %zu validation\n", f.train.count, f.valid.count);
	f.k = o.k > 0 ? o.k : fit_k(&f.train, &w);
	double train0 = data_error(&f.train, &w, f.k), valid0 = data_error(&f.valid, &w, f.k);
	printf("K = %.6f%s\n", f.k, o.k > 0 ? " (given)" : " (fitted)");
	printf("start: MSE training %.6f validation %.6f\n", train0, valid0);
	fflush(stdout);

	double best = objective(&f, &w);
	int step = o.step;
	time_t started = time(NULL);
	for (int pass = 1; pass <= o.passes; pass++) {
		int moved = 0;
		for (int i = 0; i < params.count; i++)
			if (!params.param[i].fixed && descend_one(&f, &params.param[i], step, &w, &best))
				moved++;
		fprintf(stderr, "pass %d step %d: %d moved, MSE training %.6f validation %.6f, %lld s\n",
		        pass, step, moved, data_error(&f.train, &w, f.k), data_error(&f.valid, &w, f.k),
		        (long long)(time(NULL) - started));
		if (o.out && !write_weights(o.out, &params, &w))
			goto done;
		if (moved == 0) {
			if (step == 1)
				break;
			step /= 2;
		}
	}
	printf("end:   MSE training %.6f validation %.6f\n", data_error(&f.train, &w, f.k),
	       data_error(&f.valid, &w, f.k));
	params_write_c(&w, o.variant, stdout);
	status = 0;
done:
	data_free(&f.train);
	data_free(&f.valid);
	return status;
}
