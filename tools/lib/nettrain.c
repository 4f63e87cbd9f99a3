/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The network in floating point: forward, backward, Adam over fixed slices, and quantized export. */
#include "nettrain.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/bytes.h"
#include "poolshark/random.h"

/* The ranges the quantized file can hold (nnue.h): the trainer keeps every
 * weight inside them, so that the export only rounds. */
static const float FT_MAX = (float)NNUE_FT_LIMIT / NNUE_FT_SCALE;
static const float L2_MAX = 127.0f / NNUE_L2_SCALE;
static const float OUT_MAX = 32767.0f / NNUE_OUT_SCALE;

TrainConfig nettrain_defaults(void)
{
	TrainConfig c = {.hidden = 64,
	                 .buckets = 1,
	                 .epochs = 10,
	                 .threads = 1,
	                 .batch = 1024,
	                 .lr = 0.001,
	                 .lambda = 0.7,
	                 .k = 200,
	                 .seed = 1,
	                 .holdout = 5};
	return c;
}

static void layout(FloatNet *net)
{
	size_t h = (size_t)net->hidden;
	float *p = net->param;
	net->ft_weight = p, p += NNUE_INPUTS * h;
	net->ft_bias = p, p += h;
	for (int b = 0; b < net->buckets; b++) {
		FloatStack *st = &net->stack[b];
		st->l2_weight = p, p += NNUE_HIDDEN2 * 2 * h;
		st->l2_bias = p, p += NNUE_HIDDEN2;
		st->out_weight = p, p += NNUE_HIDDEN2;
		st->out_bias = p, p += 1;
	}
	net->count = (size_t)(p - net->param);
}

static size_t param_count(int hidden, int buckets)
{
	size_t h = (size_t)hidden;
	return NNUE_INPUTS * h + h + (size_t)buckets * (NNUE_HIDDEN2 * 2 * h + 2 * NNUE_HIDDEN2 + 1);
}

/* A fresh float network's storage and views; false when out of memory. */
static bool allocate(FloatNet *net, int hidden, int buckets)
{
	memset(net, 0, sizeof *net);
	net->hidden = hidden;
	net->buckets = buckets;
	net->param = calloc(param_count(hidden, buckets), sizeof(float));
	if (!net->param)
		return false;
	layout(net);
	return true;
}

/* Uniform in [-a, a). */
static float uniform(uint64_t *state, double a)
{
	return (float)(((double)(random_next(state) >> 11) / 9007199254740992.0 * 2 - 1) * a);
}

bool nettrain_init(FloatNet *net, int hidden, int buckets, uint64_t seed)
{
	if (!allocate(net, hidden, buckets))
		return false;
	uint64_t state = seed ^ 0x6e6e7565ull;
	size_t h = (size_t)hidden;
	for (size_t i = 0; i < NNUE_INPUTS * h; i++)
		net->ft_weight[i] = uniform(&state, 0.1);
	for (size_t j = 0; j < h; j++)
		net->ft_bias[j] = 0.5f;
	for (int b = 0; b < buckets; b++) {
		FloatStack *st = &net->stack[b];
		for (size_t i = 0; i < NNUE_HIDDEN2 * 2 * h; i++)
			st->l2_weight[i] = uniform(&state, 1.0 / sqrt(2.0 * (double)h));
		for (size_t k = 0; k < NNUE_HIDDEN2; k++) {
			st->l2_bias[k] = 0.5f;
			st->out_weight[k] = uniform(&state, 1.0 / sqrt((double)NNUE_HIDDEN2));
		}
	}
	return true;
}

bool nettrain_from_network(FloatNet *net, const NnueNetwork *q, int buckets)
{
	int h = q->hidden;
	if (!allocate(net, h, buckets))
		return false;
	const double hidden_out = (double)NNUE_FT_SCALE * NNUE_L2_SCALE,
	             final_out = (double)NNUE_FT_SCALE * NNUE_OUT_SCALE;
	for (int j = 0; j < h; j++)
		net->ft_bias[j] = (float)(q->ft_bias[j] / (double)NNUE_FT_SCALE);
	for (int i = 0; i < NNUE_INPUTS; i++)
		for (int j = 0; j < h; j++)
			net->ft_weight[(size_t)i * (size_t)h + (size_t)j] =
			    (float)(q->ft_weight[nnue_ft_at(h, i, j)] / (double)NNUE_FT_SCALE);
	for (int b = 0; b < buckets; b++) {
		const NnueStack *from = &q->stack[q->buckets == 1 ? 0 : b];
		FloatStack *st = &net->stack[b];
		for (int k = 0; k < NNUE_HIDDEN2; k++) {
			st->l2_bias[k] = (float)(from->l2_bias[k] / hidden_out);
			for (int j = 0; j < 2 * h; j++)
				st->l2_weight[(size_t)k * 2 * (size_t)h + (size_t)j] =
				    (float)(from->l2_weight[nnue_l2_at(k, j)] / (double)NNUE_L2_SCALE);
			st->out_weight[k] = (float)(from->out_weight[k] / (double)NNUE_OUT_SCALE);
		}
		*st->out_bias = (float)(from->out_bias / final_out);
	}
	return true;
}

void nettrain_free(FloatNet *net)
{
	free(net->param);
	net->param = NULL;
}

Sample nettrain_sample(const PosdataRecord *r, const TrainConfig *c)
{
	Sample s = {{r->pos.pieces[0], r->pos.pieces[1]}, r->pos.kings, (uint8_t)r->pos.side, 0};
	PosdataResult result = r->has_egdb ? r->egdb : r->result;
	double outcome = result == POSDATA_WIN ? 1 : result == POSDATA_DRAW ? 0.5 : 0;
	double predicted = 1 / (1 + exp(-r->score / c->k));
	s.target = (float)(c->lambda * predicted + (1 - c->lambda) * outcome);
	return s;
}

/* The inputs of s from each point of view, the side to move's first. */
static int features(const Sample *s, int view_half, int *out)
{
	Color view = view_half == 0 ? (Color)s->side : color_other((Color)s->side);
	int n = 0;
	for (int c = 0; c < 2; c++)
		for (int king = 0; king < 2; king++)
			for (Bitboard b = s->pieces[c] & (king ? s->kings : ~s->kings); b; b &= b - 1)
				out[n++] = nnue_input(view, (Color)c, king, bb_lowest(b));
	return n;
}

/* One forward pass, keeping what the backward pass needs. */
typedef struct Pass {
	int n[2], f[2][24];
	float acc[2 * NNUE_HIDDEN_MAX], x[2 * NNUE_HIDDEN_MAX];
	float z2[NNUE_HIDDEN2], y2[NNUE_HIDDEN2];
	int bucket; /* the stack used */
	float out;  /* in men */
} Pass;

static float clip(float v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void forward(const FloatNet *net, const Sample *s, Pass *p)
{
	int h = net->hidden;
	for (int half = 0; half < 2; half++) {
		p->n[half] = features(s, half, p->f[half]);
		float *a = p->acc + half * h;
		memcpy(a, net->ft_bias, sizeof(float) * (size_t)h);
		for (int i = 0; i < p->n[half]; i++) {
			const float *w = net->ft_weight + (size_t)p->f[half][i] * (size_t)h;
			for (int j = 0; j < h; j++)
				a[j] += w[j];
		}
	}
	for (int j = 0; j < 2 * h; j++)
		p->x[j] = clip(p->acc[j]);
	p->bucket = nnue_bucket(bb_count(s->pieces[0] | s->pieces[1]), net->buckets);
	const FloatStack *st = &net->stack[p->bucket];
	float out = *st->out_bias;
	for (int k = 0; k < NNUE_HIDDEN2; k++) {
		const float *w = st->l2_weight + (size_t)k * 2 * (size_t)h;
		float z = st->l2_bias[k];
		for (int j = 0; j < 2 * h; j++)
			z += w[j] * p->x[j];
		p->z2[k] = z;
		p->y2[k] = clip(z);
		out += st->out_weight[k] * p->y2[k];
	}
	p->out = out;
}

double nettrain_score(const FloatNet *net, const Sample *s)
{
	Pass p;
	forward(net, s, &p);
	return p.out * NNUE_SCORE_PER_UNIT;
}

static double prediction(const Pass *p, double k)
{
	return 1 / (1 + exp(-p->out * NNUE_SCORE_PER_UNIT / k));
}

/* Adds the gradient of (prediction - target)^2 for s to g (laid out as net->param). */
static double backward(const FloatNet *net, const Sample *s, double k, float *g)
{
	Pass p;
	forward(net, s, &p);
	int h = net->hidden;
	double pred = prediction(&p, k), e = pred - s->target;
	float d_out = (float)(2 * e * pred * (1 - pred) * NNUE_SCORE_PER_UNIT / k);
	const FloatStack *st = &net->stack[p.bucket];
	size_t off_ft_b = NNUE_INPUTS * (size_t)h, off_l2_w = (size_t)(st->l2_weight - net->param);
	size_t off_l2_b = off_l2_w + NNUE_HIDDEN2 * 2 * (size_t)h, off_out_w = off_l2_b + NNUE_HIDDEN2;
	float dx[2 * NNUE_HIDDEN_MAX] = {0};
	g[off_out_w + NNUE_HIDDEN2] += d_out;
	for (int kk = 0; kk < NNUE_HIDDEN2; kk++) {
		g[off_out_w + (size_t)kk] += d_out * p.y2[kk];
		if (p.z2[kk] <= 0 || p.z2[kk] >= 1)
			continue;
		float dz = d_out * st->out_weight[kk];
		g[off_l2_b + (size_t)kk] += dz;
		const float *w = st->l2_weight + (size_t)kk * 2 * (size_t)h;
		float *gw = g + off_l2_w + (size_t)kk * 2 * (size_t)h;
		for (int j = 0; j < 2 * h; j++) {
			gw[j] += dz * p.x[j];
			dx[j] += dz * w[j];
		}
	}
	for (int half = 0; half < 2; half++) {
		float *da = dx + half * h;
		const float *a = p.acc + half * h;
		for (int j = 0; j < h; j++)
			if (a[j] <= 0 || a[j] >= 1)
				da[j] = 0;
		for (int j = 0; j < h; j++)
			g[off_ft_b + (size_t)j] += da[j];
		for (int i = 0; i < p.n[half]; i++) {
			float *gw = g + (size_t)p.f[half][i] * (size_t)h;
			for (int j = 0; j < h; j++)
				gw[j] += da[j];
		}
	}
	return e * e;
}

/* The work of one thread: the slices i with i mod threads = id. */
typedef struct Job {
	const Sample *s;
	const uint32_t *order;
	size_t start, n; /* the batch */
	int id, threads;
	double k;
	const FloatNet *net;
	double *loss; /* by slice */
	float *grad;  /* by slice, or NULL for losses only */
} Job;

static void *run_job(void *arg)
{
	Job *j = arg;
	size_t count = j->net->count;
	for (int slice = j->id; slice < NETTRAIN_SLICES; slice += j->threads) {
		size_t lo = j->n * (size_t)slice / NETTRAIN_SLICES,
		       hi = j->n * (size_t)(slice + 1) / NETTRAIN_SLICES;
		double loss = 0;
		float *g = j->grad ? j->grad + (size_t)slice * count : NULL;
		if (g)
			memset(g, 0, sizeof(float) * count);
		for (size_t i = lo; i < hi; i++) {
			const Sample *s = &j->s[j->order ? j->order[j->start + i] : j->start + i];
			if (g) {
				loss += backward(j->net, s, j->k, g);
			} else {
				Pass p;
				forward(j->net, s, &p);
				double e = prediction(&p, j->k) - s->target;
				loss += e * e;
			}
		}
		j->loss[slice] = loss;
	}
	return NULL;
}

/* Runs the slices of one batch on `threads` threads (the caller being one). */
static void run_batch(Job *proto, int threads)
{
	Job jobs[NETTRAIN_SLICES];
	pthread_t ids[NETTRAIN_SLICES];
	bool started[NETTRAIN_SLICES] = {false};
	if (threads > NETTRAIN_SLICES)
		threads = NETTRAIN_SLICES;
	for (int i = 0; i < threads; i++) {
		jobs[i] = *proto;
		jobs[i].id = i;
		jobs[i].threads = threads;
	}
	for (int i = 1; i < threads; i++)
		started[i] = pthread_create(&ids[i], NULL, run_job, &jobs[i]) == 0;
	run_job(&jobs[0]);
	for (int i = 1; i < threads; i++) {
		if (started[i])
			pthread_join(ids[i], NULL);
		else
			run_job(&jobs[i]); /* no thread: the same slices here, the same result */
	}
}

double nettrain_loss(const FloatNet *net, const Sample *s, size_t n, double k, int threads)
{
	double slice_loss[NETTRAIN_SLICES], total = 0;
	size_t chunk = 65536;
	for (size_t start = 0; start < n; start += chunk) {
		size_t m = n - start < chunk ? n - start : chunk;
		Job proto = {.s = s, .start = start, .n = m, .k = k, .net = net, .loss = slice_loss};
		run_batch(&proto, threads);
		for (int i = 0; i < NETTRAIN_SLICES; i++)
			total += slice_loss[i];
	}
	return n ? total / (double)n : 0;
}

bool nettrain_trainer_init(Trainer *t, FloatNet *net, const TrainConfig *c)
{
	memset(t, 0, sizeof *t);
	t->net = net;
	t->config = *c;
	t->m = calloc(net->count, sizeof(float));
	t->v = calloc(net->count, sizeof(float));
	t->grad = calloc(net->count, sizeof(float));
	t->slice_grad = calloc(net->count * NETTRAIN_SLICES, sizeof(float));
	t->slice_loss = calloc(NETTRAIN_SLICES, sizeof(double));
	if (!t->m || !t->v || !t->grad || !t->slice_grad || !t->slice_loss) {
		nettrain_trainer_free(t);
		return false;
	}
	return true;
}

void nettrain_trainer_free(Trainer *t)
{
	free(t->m);
	free(t->v);
	free(t->grad);
	free(t->slice_grad);
	free(t->slice_loss);
	memset(t, 0, sizeof *t);
}

static float bound(float x, float limit)
{
	return x > limit ? limit : x < -limit ? -limit : x;
}

/* Adam on the summed gradient, then every weight back inside what the file holds. */
static void adam_step(Trainer *t, size_t batch)
{
	FloatNet *net = t->net;
	const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
	t->step++;
	double c1 = 1 - pow(b1, (double)t->step), c2 = 1 - pow(b2, (double)t->step);
	float lr = (float)(t->config.lr * sqrt(c2) / c1);
	for (size_t i = 0; i < net->count; i++) {
		float g = t->grad[i] / (float)batch;
		t->m[i] = (float)(b1 * t->m[i] + (1 - b1) * g);
		t->v[i] = (float)(b2 * t->v[i] + (1 - b2) * g * g);
		net->param[i] -= lr * t->m[i] / ((float)sqrt(t->v[i]) + (float)eps);
	}
	size_t h = (size_t)net->hidden;
	for (size_t i = 0; i < NNUE_INPUTS * h + h; i++)
		net->param[i] = bound(net->param[i], FT_MAX);
	for (int b = 0; b < net->buckets; b++) {
		FloatStack *st = &net->stack[b];
		for (size_t i = 0; i < NNUE_HIDDEN2 * 2 * h; i++)
			st->l2_weight[i] = bound(st->l2_weight[i], L2_MAX);
		for (size_t i = 0; i < NNUE_HIDDEN2; i++)
			st->out_weight[i] = bound(st->out_weight[i], OUT_MAX);
	}
}

double nettrain_epoch(Trainer *t, const Sample *s, const uint32_t *order, size_t n)
{
	double total = 0;
	size_t count = t->net->count, batch = (size_t)t->config.batch;
	for (size_t start = 0; start < n; start += batch) {
		size_t m = n - start < batch ? n - start : batch;
		Job proto = {.s = s,
		             .order = order,
		             .start = start,
		             .n = m,
		             .k = t->config.k,
		             .net = t->net,
		             .loss = t->slice_loss,
		             .grad = t->slice_grad};
		run_batch(&proto, t->config.threads);
		memset(t->grad, 0, sizeof(float) * count);
		for (int i = 0; i < NETTRAIN_SLICES; i++) {
			const float *g = t->slice_grad + (size_t)i * count;
			for (size_t p = 0; p < count; p++)
				t->grad[p] += g[p];
			total += t->slice_loss[i];
		}
		adam_step(t, m);
	}
	return n ? total / (double)n : 0;
}

/* round(x * scale) within [-limit, limit]. */
static long quantize(double x, double scale, long limit)
{
	double r = floor(x * scale + 0.5);
	return r > (double)limit ? limit : r < (double)-limit ? -limit : (long)r;
}

bool nettrain_export(const FloatNet *net, Variant v, uint64_t seed, uint8_t **bytes, size_t *size)
{
	int h = net->hidden;
	size_t n = nnue_file_size(h, net->buckets);
	uint8_t *b = calloc(1, n);
	if (!b)
		return false;
	memcpy(b, NNUE_MAGIC, 8);
	/* One stack: version 1, as every network before stacks, byte for byte. */
	bool stacks = net->buckets > 1;
	const uint32_t fields[] = {stacks ? NNUE_VERSION : NNUE_VERSION_ONE_STACK,
	                           NNUE_HEADER_SIZE,
	                           (uint32_t)v + 1,
	                           NNUE_INPUTS,
	                           (uint32_t)h,
	                           NNUE_HIDDEN2,
	                           NNUE_FT_SCALE,
	                           NNUE_L2_SCALE,
	                           NNUE_OUT_SCALE,
	                           NNUE_SCORE_PER_UNIT};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		bytes_put32(b + 8 + 4 * i, fields[i]);
	if (stacks) {
		bytes_put32(b + 48, (uint32_t)seed);
		bytes_put32(b + 52, (uint32_t)net->buckets);
	} else {
		bytes_put64(b + 48, seed);
	}
	size_t at = NNUE_HEADER_SIZE;
	const double hidden_out = (double)NNUE_FT_SCALE * NNUE_L2_SCALE,
	             final_out = (double)NNUE_FT_SCALE * NNUE_OUT_SCALE;
	for (int j = 0; j < h; j++, at += 2)
		bytes_put16(b + at,
		            (uint16_t)(int16_t)(quantize(net->ft_bias[j], NNUE_FT_SCALE, NNUE_FT_LIMIT)));
	for (size_t i = 0; i < (size_t)NNUE_INPUTS * (size_t)h; i++, at += 2)
		bytes_put16(b + at,
		            (uint16_t)(int16_t)(quantize(net->ft_weight[i], NNUE_FT_SCALE, NNUE_FT_LIMIT)));
	for (int bucket = 0; bucket < net->buckets; bucket++) {
		const FloatStack *st = &net->stack[bucket];
		for (int k = 0; k < NNUE_HIDDEN2; k++, at += 4)
			bytes_put32(b + at, (uint32_t)quantize(st->l2_bias[k], hidden_out, NNUE_BIAS_LIMIT));
		for (size_t i = 0; i < (size_t)NNUE_HIDDEN2 * 2 * (size_t)h; i++, at++)
			b[at] = (uint8_t)(int8_t)quantize(st->l2_weight[i], NNUE_L2_SCALE, 127);
		bytes_put32(b + at, (uint32_t)quantize(*st->out_bias, final_out, NNUE_BIAS_LIMIT));
		at += 4;
		for (int k = 0; k < NNUE_HIDDEN2; k++, at += 2)
			bytes_put16(b + at,
			            (uint16_t)(int16_t)(quantize(st->out_weight[k], NNUE_OUT_SCALE, 32767)));
	}
	bytes_put64(b + 56, nnue_checksum(b, n));
	*bytes = b;
	*size = n;
	return true;
}
