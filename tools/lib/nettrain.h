/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The network in floating point for training: forward, backward, Adam, and export to a weights file. */
#ifndef POOLSHARK_NETTRAIN_H
#define POOLSHARK_NETTRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "poolshark/nnue.h"
#include "posdata.h"

/* The layers after the first, one copy per stack (nnue.h). */
typedef struct FloatStack {
	float *l2_weight;  /* [NNUE_HIDDEN2][2 * hidden] */
	float *l2_bias;    /* [NNUE_HIDDEN2] */
	float *out_weight; /* [NNUE_HIDDEN2] */
	float *out_bias;   /* [1] */
} FloatStack;

/* The float twin of NnueNetwork (doc/EVAL.md, "The network"): one array of
 * parameters, the layers being views into it: the first layer, then each
 * stack in turn. */
typedef struct FloatNet {
	int hidden, buckets;
	size_t count; /* parameters */
	float *param;
	float *ft_weight; /* [NNUE_INPUTS][hidden] */
	float *ft_bias;   /* [hidden] */
	FloatStack stack[NNUE_BUCKETS_MAX];
} FloatNet;

/* A training position: the pieces and the target win probability. */
typedef struct Sample {
	Bitboard pieces[2], kings;
	uint8_t side;
	float target;
} Sample;

/* What the trainer sets (doc/EVAL.md, "Training"). */
typedef struct TrainConfig {
	int hidden, buckets, epochs, threads, batch;
	double lr, lambda, k; /* target = lambda * sigmoid(score / k) + (1 - lambda) * result */
	uint64_t seed;
	int holdout; /* per cent of the games held out */
} TrainConfig;

/* The defaults of ./train. */
TrainConfig nettrain_defaults(void);

/* A network of hidden size h and `buckets` stacks with random weights from
 * seed (the first stack drawn as a one-stack network's, the others after
 * it); false when out of memory. */
bool nettrain_init(FloatNet *net, int hidden, int buckets, uint64_t seed);
void nettrain_free(FloatNet *net);

/* A network equal to the quantized q: every weight divided by the scale it
 * was stored with (doc/EVAL.md, "Quantization"), so that exporting it again
 * gives q's weights back; false when out of memory. For fine-tuning. With
 * `buckets` stacks: q must have that many, or one, which is then copied
 * into each (a start for a network of stacks). */
bool nettrain_from_network(FloatNet *net, const NnueNetwork *q, int buckets);

/* The sample of record r with the config's blend of labels: the databases'
 * value, when the record has one, stands in for the game's result. */
Sample nettrain_sample(const PosdataRecord *r, const TrainConfig *c);

/* The float network's output for s in score units (its float forward pass). */
double nettrain_score(const FloatNet *net, const Sample *s);

/* Mean squared error of sigmoid(output / k) against the targets of s[0..n). */
double nettrain_loss(const FloatNet *net, const Sample *s, size_t n, double k, int threads);

/* The trainer's state between epochs: Adam's moments and the step count. */
typedef struct Trainer {
	FloatNet *net;
	TrainConfig config;
	float *m, *v, *grad;
	float *slice_grad; /* NETTRAIN_SLICES gradients of one batch */
	double *slice_loss;
	uint64_t step;
} Trainer;

/* A batch is cut into this many slices whatever the thread count, and their
 * gradients are summed in slice order, so that every thread count gives the
 * same weights. */
enum { NETTRAIN_SLICES = 8 };

bool nettrain_trainer_init(Trainer *t, FloatNet *net, const TrainConfig *c);
void nettrain_trainer_free(Trainer *t);

/* One pass over s[0..n) in the order of `order` (indices), in batches of
 * config.batch; the mean training loss of the pass. */
double nettrain_epoch(Trainer *t, const Sample *s, const uint32_t *order, size_t n);

/* The quantized weights file of net for rule set v (doc/EVAL.md, "The
 * weights file"), malloc'ed into *bytes; false when out of memory. */
bool nettrain_export(const FloatNet *net, Variant v, uint64_t seed, uint8_t **bytes, size_t *size);

#endif
