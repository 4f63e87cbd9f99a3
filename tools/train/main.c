/* SPDX-License-Identifier: GPL-3.0-or-later */
/* train: fits the network to datagen files and writes its quantized weights file (doc/EVAL.md, "Training").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmdline.h"
#include "nettrain.h"
#include "poolshark/random.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

enum { THREADS_MAX = 8, WITH_MAX = 64 };

typedef struct Options {
	TrainConfig config;
	const char *out;
	CmdlineOperands files;      /* DATA */
	double lr_end;              /* 0: the --lr throughout */
	const char *init;           /* a weights file to start from, or NULL: random weights */
	const char *with[WITH_MAX]; /* --with: data of any rule set, trained on beside DATA */
	int with_count;
} Options;

/* --with: one more file, of any rule set. */
static bool add_with(void *context, const char *value, char *problem, size_t size)
{
	Options *o = context;
	if (o->with_count == WITH_MAX) {
		snprintf(problem, size, "more than %d files", WITH_MAX);
		return false;
	}
	o->with[o->with_count++] = value;
	return true;
}

/* --hidden: a multiple of 16, the network's lane width. */
static bool set_hidden(void *context, const char *value, char *problem, size_t size)
{
	Options *o = context;
	long long n;
	if (!cmdline_read_number(value, NNUE_HIDDEN_MIN, NNUE_HIDDEN_MAX, &n, problem, size))
		return false;
	if (n % 16) {
		snprintf(problem, size, "%s is not a multiple of 16", value);
		return false;
	}
	o->config.hidden = (int)n;
	return true;
}

/* The options into *o (the trainer's defaults first); false with the exit status. */
static bool parse(int argc, char **argv, Options *o, int *status)
{
	TrainConfig *c = &o->config, d = nettrain_defaults();
	*c = d;
	c->buckets = 0; /* not given: 1, or --init's */
	long long seed = (long long)d.seed;
	char help[8][96];
	snprintf(help[0], sizeof help[0], "passes over the training positions (default %d)", d.epochs);
	snprintf(help[1], sizeof help[1], "first-layer size, a multiple of 16 from 16 to 256 (default %d)",
	         d.hidden);
	snprintf(help[2], sizeof help[2], "Adam's learning rate (default %g)", d.lr);
	snprintf(help[3], sizeof help[3], "target = X * sigmoid(score / K) + (1 - X) * result (default %g)",
	         d.lambda);
	snprintf(help[4], sizeof help[4], "the score scale of that sigmoid (default %g)", d.k);
	snprintf(help[5], sizeof help[5], "positions per step (default %d)", d.batch);
	snprintf(help[6], sizeof help[6], "per cent of the games held out for the held-out loss (default %d)",
	         d.holdout);
	snprintf(help[7], sizeof help[7], "initial weights, split and order (default %lld)", seed);
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("out", "NET", &o->out, "the weights file to write")),
	    cmdline_int("epochs", "N", &c->epochs, 1, 100000, help[0]),
	    cmdline_call("hidden", "H", set_hidden, help[1]),
	    cmdline_int("stacks", "B", &c->buckets, 1, NNUE_BUCKETS_MAX,
	                "copies of the last two layers, one per range of the piece\n"
	                "count (default 1, or --init's)"),
	    cmdline_call("with", "DATA", add_with,
	                 "another file to train on, of any rule set; the network is\n"
	                 "of DATA's rule set (repeat for more files)"),
	    cmdline_text("init", "NET", &o->init,
	                 "start from the weights of NET (of the data's rule set; its\n"
	                 "size stands for --hidden) instead of random ones: a fine-tune;\n"
	                 "a one-stack NET is copied into each of --stacks"),
	    cmdline_decimal("lr", "X", &c->lr, 1e-7, 1, help[2]),
	    cmdline_decimal("lr-end", "X", &o->lr_end, 1e-7, 1,
	                    "the rate of the last epoch, reached geometrically (default: --lr)"),
	    cmdline_decimal("lambda", "X", &c->lambda, 0, 1, help[3]),
	    cmdline_decimal("k", "K", &c->k, 1, 100000, help[4]),
	    cmdline_int("batch", "N", &c->batch, NETTRAIN_SLICES, 1 << 20, help[5]),
	    cmdline_int("holdout", "P", &c->holdout, 0, 50, help[6]),
	    cmdline_long("seed", "S", &seed, 0, 1LL << 62, help[7]),
	    cmdline_int("threads", "T", &c->threads, 1, THREADS_MAX,
	                "worker threads; the result is the same for every T (default 1)"),
	};
	const Cmdline cmdline = {
	    .program = "train",
	    .synopsis = "usage: train --out NET [OPTIONS] DATA...\n"
	                "Fits the network to the datagen files DATA (one rule set) and writes its quantized\n"
	                "weights to NET (doc/EVAL.md).\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .operands = &o->files,
	    .context = o,
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	c->seed = (uint64_t)seed;
	if (!o->files.count) {
		*status = cmdline_fail(&cmdline, "no data file given");
		return false;
	}
	return true;
}

/* Whether game `game` of file `file` is held out: a hash of the seed and the
 * two numbers, so that whole games go one way. */
static bool held_out(const TrainConfig *c, int file, uint32_t game)
{
	uint64_t state = c->seed ^ ((uint64_t)file << 40) ^ ((uint64_t)game * 0x9e3779b97f4a7c15ull);
	return (int)random_below(&state, 100) < c->holdout;
}

/* Reads every file, DATA then --with's; false with the reader's message
 * (which names the offset) or when DATA mixes rule sets. */
static bool load(const Options *o, Sample **train, size_t *train_n, Sample **held, size_t *held_n,
                 Variant *variant)
{
	size_t cap_t = 0, cap_h = 0;
	*train = *held = NULL;
	*train_n = *held_n = 0;
	for (int f = 0; f < o->files.count + o->with_count; f++) {
		bool with = f >= o->files.count;
		const char *path = with ? o->with[f - o->files.count] : o->files.words[f];
		PosdataFile file;
		char err[POSDATA_ERROR_MAX + 1100];
		if (!posdata_load(path, &file, err, sizeof err)) {
			fprintf(stderr, "train: %s\n", err);
			return false;
		}
		if (f == 0)
			*variant = file.header.variant;
		else if (!with && file.header.variant != *variant) {
			fprintf(stderr,
			        "train: %s: %s data, and %s is %s (--with takes another rule set's)\n", path,
			        variant_rules(file.header.variant)->name, o->files.words[0],
			        variant_rules(*variant)->name);
			posdata_free(&file);
			return false;
		}
		if (with)
			printf("train: with %s, %llu positions of %s\n", path,
			       (unsigned long long)file.header.count,
			       variant_rules(file.header.variant)->name);
		for (uint64_t i = 0; i < file.header.count; i++) {
			const PosdataRecord *r = &file.records[i];
			bool h = held_out(&o->config, f, r->game);
			Sample **dst = h ? held : train;
			size_t *n = h ? held_n : train_n, *cap = h ? &cap_h : &cap_t;
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 4096;
				Sample *grown = realloc(*dst, *cap * sizeof **dst);
				if (!grown) {
					fprintf(stderr, "train: out of memory\n");
					posdata_free(&file);
					return false;
				}
				*dst = grown;
			}
			(*dst)[(*n)++] = nettrain_sample(r, &o->config);
		}
		posdata_free(&file);
	}
	if (!*train_n) {
		fprintf(stderr, "train: no training positions left after holding out %d%%\n",
		        o->config.holdout);
		return false;
	}
	return true;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Writes bytes to PATH.tmp and renames it, so that no half file is left. */
static bool write_file(const char *path, const uint8_t *bytes, size_t size)
{
	char temporary[4200];
	snprintf(temporary, sizeof temporary, "%s.tmp", path);
	FILE *f = fopen(temporary, "wb");
	if (!f) {
		perror(temporary);
		return false;
	}
	bool ok = fwrite(bytes, 1, size, f) == size;
	ok = fclose(f) == 0 && ok;
	if (ok && rename(temporary, path) != 0) {
		perror(path);
		ok = false;
	} else if (!ok) {
		fprintf(stderr, "train: %s: write error\n", temporary);
	}
	if (!ok)
		remove(temporary);
	return ok;
}

/* The network training starts from: --init's weights, or random ones of
 * --hidden; false, with a message, when the file is refused. */
static bool start_network(Options *o, Variant variant, FloatNet *net)
{
	if (!o->init) {
		if (!o->config.buckets)
			o->config.buckets = 1;
		if (nettrain_init(net, o->config.hidden, o->config.buckets, o->config.seed))
			return true;
		fprintf(stderr, "train: out of memory\n");
		return false;
	}
	NnueNetwork *q = malloc(sizeof *q);
	char err[NNUE_ERROR_MAX];
	if (!q) {
		fprintf(stderr, "train: out of memory\n");
		return false;
	}
	if (!nnue_load_file(q, o->init, variant, err, sizeof err)) {
		fprintf(stderr, "train: --init %s: %s\n", o->init, err);
		free(q);
		return false;
	}
	int buckets = o->config.buckets ? o->config.buckets : q->buckets;
	if (q->buckets != 1 && q->buckets != buckets) {
		fprintf(stderr, "train: --init %s has %d stacks: --stacks must be %d\n", o->init, q->buckets,
		        q->buckets);
		free(q);
		return false;
	}
	bool ok = nettrain_from_network(net, q, buckets);
	if (ok) {
		o->config.hidden = q->hidden;
		o->config.buckets = buckets;
	} else {
		fprintf(stderr, "train: out of memory\n");
	}
	free(q);
	return ok;
}

/* Loads the data, trains and writes the network; the exit status. */
static int fit(Options *o)
{
	const TrainConfig *c = &o->config;
	Sample *train = NULL, *held = NULL;
	size_t train_n = 0, held_n = 0;
	Variant variant = VARIANT_POOL;
	if (!load(o, &train, &train_n, &held, &held_n, &variant)) {
		free(train);
		free(held);
		return 1;
	}
	FloatNet net;
	Trainer t;
	uint32_t *order = malloc(train_n * sizeof *order);
	if (!order || !start_network(o, variant, &net)) {
		free(order);
		free(train);
		free(held);
		return 1;
	}
	if (!nettrain_trainer_init(&t, &net, c)) {
		fprintf(stderr, "train: out of memory\n");
		return 1;
	}
	char stacks[32] = "";
	if (c->buckets > 1)
		snprintf(stacks, sizeof stacks, ", %d stacks", c->buckets);
	printf("train: %s, %zu training and %zu held-out positions, hidden %d%s, %d threads, seed %llu\n",
	       variant_rules(variant)->name, train_n, held_n, c->hidden, stacks, c->threads,
	       (unsigned long long)c->seed);
	printf("epoch 0  train %.6f  held-out %.6f\n", nettrain_loss(&net, train, train_n, c->k, c->threads),
	       nettrain_loss(&net, held, held_n, c->k, c->threads));
	fflush(stdout);
	for (size_t i = 0; i < train_n; i++)
		order[i] = (uint32_t)i;
	uint64_t rng = c->seed ^ 0x7472616eull;
	double start = now();
	for (int e = 1; e <= c->epochs; e++) {
		for (size_t i = train_n - 1; i > 0; i--) {
			size_t j = (size_t)random_below(&rng, i + 1);
			uint32_t x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		/* From --lr at the first epoch to --lr-end at the last, by a
		 * constant factor per epoch. */
		if (o->lr_end > 0 && c->epochs > 1)
			t.config.lr = c->lr * pow(o->lr_end / c->lr, (double)(e - 1) / (c->epochs - 1));
		double t0 = now();
		double loss = nettrain_epoch(&t, train, order, train_n);
		double spent = now() - t0;
		printf("epoch %d  train %.6f  held-out %.6f  lr %.2g  %.0f positions/s\n", e, loss,
		       nettrain_loss(&net, held, held_n, c->k, c->threads), t.config.lr,
		       (double)train_n / (spent > 0 ? spent : 1e-9));
		fflush(stdout);
	}
	uint8_t *bytes;
	size_t size;
	int status = 1;
	if (!nettrain_export(&net, variant, c->seed, &bytes, &size)) {
		fprintf(stderr, "train: out of memory\n");
	} else {
		if (write_file(o->out, bytes, size)) {
			printf("train: %s, %zu bytes, %.1f s\n", o->out, size, now() - start);
			status = 0;
		}
		free(bytes);
	}
	nettrain_trainer_free(&t);
	nettrain_free(&net);
	free(order);
	free(train);
	free(held);
	return status;
}

static int run(int argc, char **argv)
{
	Options o = {0};
	int status;
	if (!parse(argc, argv, &o, &status))
		return status;
	status = fit(&o);
	cmdline_operands_free(&o.files);
	return status;
}

/* The progress and the result go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "train"))
		return textfile_exit("train", 0);
	return textfile_exit("train", run(argc, argv));
}
