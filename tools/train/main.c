/* SPDX-License-Identifier: GPL-3.0-or-later */
/* train: fits the network to datagen files and writes its quantized weights file (doc/EVAL.md, "Training").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nettrain.h"
#include "poolshark/number.h"
#include "poolshark/random.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

enum { FILES_MAX = 256, THREADS_MAX = 8 };

typedef struct Options {
	TrainConfig config;
	const char *out;
	const char *files[FILES_MAX];
	int file_count;
	double lr_end;    /* 0: the --lr throughout */
	const char *init; /* a weights file to start from, or NULL: random weights */
} Options;

static void usage(void)
{
	TrainConfig d = nettrain_defaults();
	fprintf(stderr,
	        "usage: train --out NET [OPTIONS] DATA...\n"
	        "Fits the network to the datagen files DATA (one rule set) and writes its quantized\n"
	        "weights to NET (doc/EVAL.md). Options, with their defaults:\n"
	        "  --epochs N     passes over the training positions (%d)\n"
	        "  --hidden H     first-layer size, a multiple of 16 from 16 to 256 (%d)\n"
	        "  --stacks B     copies of the last two layers, one per range of the piece\n"
	        "                 count, 1 to %d (1, or --init's)\n"
	        "  --init NET     start from the weights of NET (of the data's rule set; its\n"
	        "                 size stands for --hidden) instead of random ones: a fine-tune;\n"
	        "                 a one-stack NET is copied into each of --stacks\n"
	        "  --lr X         Adam's learning rate (%g)\n"
	        "  --lr-end X     the rate of the last epoch, reached geometrically (the --lr)\n"
	        "  --lambda X     target = X * sigmoid(score / K) + (1 - X) * result (%g)\n"
	        "  --k K          the score scale of that sigmoid (%g)\n"
	        "  --batch N      positions per step (%d)\n"
	        "  --holdout P    per cent of the games held out for the held-out loss (%d)\n"
	        "  --seed S       initial weights, split and order (%llu)\n"
	        "  --threads T    worker threads, 1 to 8; the result is the same for every T (%d)\n",
	        d.epochs, d.hidden, NNUE_BUCKETS_MAX, d.lr, d.lambda, d.k, d.batch, d.holdout,
	        (unsigned long long)d.seed, d.threads);
}

static bool parse(int argc, char **argv, Options *o)
{
	o->config = nettrain_defaults();
	o->config.buckets = 0; /* not given: 1, or --init's */
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *err = NULL;
		if (!strcmp(opt, "--help"))
			return false;
		if (strncmp(opt, "--", 2) != 0) {
			if (o->file_count == FILES_MAX) {
				fprintf(stderr, "train: more than %d data files\n", FILES_MAX);
				return false;
			}
			o->files[o->file_count++] = opt;
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "train: %s: needs a value or is unknown\n", opt);
			return false;
		}
		const char *v = argv[++i];
		TrainConfig *c = &o->config;
		long long n = 0;
		if (!strcmp(opt, "--out"))
			o->out = v;
		else if (!strcmp(opt, "--init"))
			o->init = v;
		else if (!strcmp(opt, "--epochs"))
			c->epochs = (int)number_read(v, 1, 100000, &err);
		else if (!strcmp(opt, "--hidden")) {
			n = number_read(v, NNUE_HIDDEN_MIN, NNUE_HIDDEN_MAX, &err);
			if (!err && n % 16)
				err = "not a multiple of 16";
			c->hidden = (int)n;
		} else if (!strcmp(opt, "--stacks"))
			c->buckets = (int)number_read(v, 1, NNUE_BUCKETS_MAX, &err);
		else if (!strcmp(opt, "--lr"))
			err = number_parse_decimal(v, 1e-7, 1, &c->lr);
		else if (!strcmp(opt, "--lr-end"))
			err = number_parse_decimal(v, 1e-7, 1, &o->lr_end);
		else if (!strcmp(opt, "--lambda"))
			err = number_parse_decimal(v, 0, 1, &c->lambda);
		else if (!strcmp(opt, "--k"))
			err = number_parse_decimal(v, 1, 100000, &c->k);
		else if (!strcmp(opt, "--batch"))
			c->batch = (int)number_read(v, NETTRAIN_SLICES, 1 << 20, &err);
		else if (!strcmp(opt, "--holdout"))
			c->holdout = (int)number_read(v, 0, 50, &err);
		else if (!strcmp(opt, "--seed"))
			c->seed = (uint64_t)number_read(v, 0, 1LL << 62, &err);
		else if (!strcmp(opt, "--threads"))
			c->threads = (int)number_read(v, 1, THREADS_MAX, &err);
		else {
			fprintf(stderr, "train: unknown option `%s`\n", opt);
			return false;
		}
		if (err) {
			fprintf(stderr, "train: %s: %s is %s\n", opt, v, err);
			return false;
		}
	}
	if (!o->out) {
		fprintf(stderr, "train: --out NET is required\n");
		return false;
	}
	if (!o->file_count) {
		fprintf(stderr, "train: no data file given\n");
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

/* Reads every file; false with the reader's message (which names the offset). */
static bool load(const Options *o, Sample **train, size_t *train_n, Sample **held, size_t *held_n,
                 Variant *variant)
{
	size_t cap_t = 0, cap_h = 0;
	*train = *held = NULL;
	*train_n = *held_n = 0;
	for (int f = 0; f < o->file_count; f++) {
		PosdataFile file;
		char err[POSDATA_ERROR_MAX + 1100];
		if (!posdata_load(o->files[f], &file, err, sizeof err)) {
			fprintf(stderr, "train: %s\n", err);
			return false;
		}
		if (f == 0)
			*variant = file.header.variant;
		else if (file.header.variant != *variant) {
			fprintf(stderr, "train: %s: %s data, and %s is %s\n", o->files[f],
			        variant_rules(file.header.variant)->name, o->files[0],
			        variant_rules(*variant)->name);
			posdata_free(&file);
			return false;
		}
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

int main(int argc, char **argv)
{
	if (version_option(argc, argv, "train"))
		return textfile_exit("train", 0);
	Options o = {0};
	if (!parse(argc, argv, &o)) {
		usage();
		return 2;
	}
	const TrainConfig *c = &o.config;
	Sample *train = NULL, *held = NULL;
	size_t train_n = 0, held_n = 0;
	Variant variant = VARIANT_POOL;
	if (!load(&o, &train, &train_n, &held, &held_n, &variant)) {
		free(train);
		free(held);
		return 1;
	}
	FloatNet net;
	Trainer t;
	uint32_t *order = malloc(train_n * sizeof *order);
	if (!order || !start_network(&o, variant, &net)) {
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
		if (o.lr_end > 0 && c->epochs > 1)
			t.config.lr = c->lr * pow(o.lr_end / c->lr, (double)(e - 1) / (c->epochs - 1));
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
		if (write_file(o.out, bytes, size)) {
			printf("train: %s, %zu bytes, %.1f s\n", o.out, size, now() - start);
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
