/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The classic evaluation against the network: ns per evaluation (full and incremental), and fit to a data
 * file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrain.h"
#include "poolshark/clock.h"
#include "poolshark/eval.h"
#include "poolshark/movegen.h"
#include "poolshark/nnue.h"
#include "poolshark/random.h"
#include "posdata.h"

enum { POSITIONS = 20000, ROUNDS = 50 };

/* A position and a move from it, from random pool games. */
typedef struct Step {
	Position before, after;
	Move move;
} Step;

static int steps_of_random_games(Step *s, int n)
{
	uint64_t rng = 1;
	Position p;
	position_start(&p);
	int k = 0;
	while (k < n) {
		MoveList list;
		if (movegen_generate(&p, &list) == 0) {
			position_start(&p);
			continue;
		}
		Move m = list.moves[random_below(&rng, (uint64_t)list.count)];
		s[k].before = p;
		s[k].move = m;
		position_make_keyed(&p, m, &p, true);
		s[k++].after = p;
	}
	return k;
}

static double ns_per(int64_t start, long count)
{
	return (double)(clock_now_ns() - start) / (double)count;
}

/* Mean squared error of sigmoid(score / k) against the trainer's target. */
static void fit(const char *data, const NnueNetwork *net, double lambda, double k)
{
	PosdataFile f;
	char err[POSDATA_ERROR_MAX + 1100];
	if (!posdata_load(data, &f, err, sizeof err)) {
		fprintf(stderr, "evalspeed: %s\n", err);
		exit(1);
	}
	TrainConfig c = nettrain_defaults();
	c.lambda = lambda;
	c.k = k;
	double classic = 0, network = 0;
	const EvalWeights *w = eval_weights_for(f.header.variant);
	for (uint64_t i = 0; i < f.header.count; i++) {
		Sample s = nettrain_sample(&f.records[i], &c);
		NnueAccumulator acc;
		nnue_refresh(net, &f.records[i].pos, &acc);
		double a = 1 / (1 + exp(-eval_evaluate(&f.records[i].pos, w) / k)) - s.target;
		double b = 1 / (1 + exp(-nnue_evaluate(net, &acc, f.records[i].pos.side) / k)) - s.target;
		classic += a * a;
		network += b * b;
	}
	printf("fit to %s (%llu positions, lambda %g, K %g): classic %.6f  network %.6f\n", data,
	       (unsigned long long)f.header.count, lambda, k, classic / (double)f.header.count,
	       network / (double)f.header.count);
	posdata_free(&f);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr,
		        "usage: evalspeed NET [DATA]   (a pool weights file; DATA: a datagen file to fit)\n");
		return 2;
	}
	NnueNetwork *net = malloc(sizeof *net);
	char err[NNUE_ERROR_MAX + 1100];
	NnueKernel kernel;
	if (!net || !nnue_load_file(net, argv[1], VARIANT_POOL, err, sizeof err) ||
	    !nnue_kernel_from_environment(&kernel, err, sizeof err)) {
		fprintf(stderr, "evalspeed: %s\n", net ? err : "out of memory");
		return 1;
	}
	nnue_use_kernel(net, kernel); /* POOLSHARK_KERNEL, or the best */
	Step *steps = malloc(POSITIONS * sizeof *steps);
	NnueAccumulator *accs = malloc(64 * sizeof *accs);
	if (!steps || !accs)
		return 1;
	int n = steps_of_random_games(steps, POSITIONS);
	for (int i = 0; i < 64; i++)
		nnue_refresh(net, &steps[i].before, &accs[i]);
	const EvalWeights *w = eval_weights_for(VARIANT_POOL);
	long count = (long)n * ROUNDS;
	long sum = 0;

	int64_t t = clock_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++)
			sum += eval_evaluate(&steps[i].after, w);
	double classic = ns_per(t, count);

	NnueAccumulator acc;
	t = clock_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++) {
			nnue_refresh(net, &steps[i].after, &acc);
			sum += nnue_evaluate(net, &acc, steps[i].after.side);
		}
	double full = ns_per(t, count);

	/* Along the games, as a search would: the accumulator follows the moves
	 * (refreshed where a new game starts, once in about a hundred). */
	t = clock_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++) {
			if (i == 0 || steps[i].before.key != steps[i - 1].after.key)
				nnue_refresh(net, &steps[i].before, &acc);
			nnue_update(net, &steps[i].before, steps[i].move, &acc, &acc);
			sum += nnue_evaluate(net, &acc, steps[i].after.side);
		}
	double incremental = ns_per(t, count);

	t = clock_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++) {
			if (i == 0 || steps[i].before.key != steps[i - 1].after.key)
				nnue_refresh(net, &steps[i].before, &acc);
			nnue_update(net, &steps[i].before, steps[i].move, &acc, &acc);
			sum += acc.v[0][i & 15];
		}
	double update = ns_per(t, count);

	/* The forward pass alone, over a few accumulators that stay in cache. */
	t = clock_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++)
			sum += nnue_evaluate_portable(net, &accs[i & 63], steps[i & 63].before.side);
	double portable = ns_per(t, count);
	t = clock_now_ns();
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < n; i++)
			sum += nnue_evaluate(net, &accs[i & 63], steps[i & 63].before.side);
	double forward = ns_per(t, count);

	printf("network: hidden %d; %d positions of random pool games, %d rounds (checksum %ld)\n",
	       net->hidden, n, ROUNDS, sum);
	printf("ns per evaluation: classic %.1f  network full refresh %.1f  network incremental %.1f\n",
	       classic, full, incremental);
	printf(
	    "of which: accumulator update %.1f  forward pass %.1f (kernel %s)  portable forward pass %.1f\n",
	    update, forward, nnue_kernel_name(net->kernel), portable);
	printf("ratio to classic: full %.2f  incremental %.2f\n", full / classic, incremental / classic);
	if (argc == 3)
		fit(argv[2], net, 0.7, 200);
	free(steps);
	free(accs);
	free(net);
	return 0;
}
