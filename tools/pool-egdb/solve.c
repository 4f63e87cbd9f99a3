/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Retrograde analysis of one pair of classes, and the forward verifier. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "egdbtool.h"
#include "poolshark/movegen.h"
#include "poolshark/workers.h"

/*
 * The solver works on the positions of both classes of a pair at once,
 * numbered 0..n0-1 (X to move) and n0..n0+n1-1 (Y to move; none when X == Y).
 *
 * Step 1 (forward, in parallel): each position's moves from movegen. Moves
 * that capture or crown leave the pair: their values are already known and
 * are summed up as "the fastest win through an exit", "the longest loss
 * through an exit" and "an exit keeps a draw". Quiet moves stay in the pair
 * and are only counted.
 * Step 2 (backward, by distance): positions are settled in increasing order
 * of distance. A position lost in d makes every predecessor won in d + 1;
 * a position won in d takes one from each predecessor's count of unsettled
 * moves, and a predecessor left with none (and no drawing or winning exit)
 * is lost in max(d, its longest exit) + 1. Predecessors come from un-moving
 * a piece of the side that just moved, checked with movegen (a capture would
 * have been compulsory). Taking distances in order makes wins the fastest and
 * losses the longest. Whatever is never settled is a draw.
 *
 * Step 2 runs a level at a time: first the level's queued ids that no lower
 * level settled are settled (by one thread), then their predecessors are
 * visited by all threads. The result depends only on the set settled at each
 * level, never on the order of the visits: a predecessor of a loss in d is a
 * win in d + 1 whoever finds it, and a count reaching zero at level d gives
 * the same loss distance whichever thread takes the last move. The counts
 * and the win levels are atomic so that each change is counted once and each
 * new win is queued once; every thread queues into its own lists, which the
 * next levels read in full. The files are the same for any thread count.
 */

enum { CANNOT_LOSE = 0x80, LEVELS = EGDB_MAX_DISTANCE + 1, CHUNK = 512 };

/* count and win_at are read and written as bytes by the step-1 summaries. */
_Static_assert(sizeof(atomic_uchar) == 1 && ATOMIC_CHAR_LOCK_FREE == 2, "atomic bytes are plain bytes");

typedef struct IdList {
	uint32_t *ids;
	size_t count, cap;
} IdList;

typedef struct Solver {
	Store *st;
	EgdbClass cls[2];
	uint64_t n[2];
	int tables;
	bool kings_fly; /* the rule set's kings move along whole diagonals */
	uint64_t total;
	uint8_t *value;       /* 0 unsettled, else distance + 1; EGDB_VALUE_NONE no position */
	atomic_uchar *count;  /* quiet moves not yet known to lose, | CANNOT_LOSE */
	atomic_uchar *win_at; /* the smallest level at which the position is queued as a win, 0 none */
	uint8_t *loss_at;     /* the longest loss through an exit, plus one */
	int threads;
	IdList (*levels)[LEVELS]; /* per thread: the ids it queued, by level */
	atomic_bool overflow;     /* a distance beyond the format's limit */
} Solver;

static bool push(Solver *s, IdList *lists, int level, uint64_t id)
{
	if (level >= LEVELS) {
		atomic_store(&s->overflow, true);
		return false;
	}
	IdList *l = &lists[level];
	if (l->count == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		uint32_t *ids = realloc(l->ids, cap * sizeof *ids);
		if (!ids) {
			atomic_store(&s->overflow, true);
			return false;
		}
		l->ids = ids;
		l->cap = cap;
	}
	l->ids[l->count++] = (uint32_t)id;
	return true;
}

/* The table and index of a global id. */
static int table_of(const Solver *s, uint64_t id, uint64_t *index)
{
	if (id < s->n[0]) {
		*index = id;
		return 0;
	}
	*index = id - s->n[0];
	return 1;
}

/* The id of a position with the side to move (any colour) in the pair. */
static uint64_t id_of(const Solver *s, const Position *p)
{
	EgdbClass c;
	Position n;
	egdb_class_of(p, &c);
	egdb_normalize(p, &n);
	int t = egdb_class_equal(c, s->cls[0]) ? 0 : 1;
	return (t ? s->n[0] : 0) + egdb_index(&n, c);
}

typedef struct Slice {
	Solver *s;
	uint64_t first, last;
} Slice;

static bool leaves_pair(const Position *p, Move m)
{
	return m.captured ||
	       (!(p->kings & bb_square(m.from)) && (bb_square(m.to) & position_crown_row(p->side)));
}

/* Step 1 for ids [first, last). */
static void *forward_slice(void *arg)
{
	Slice *sl = arg;
	Solver *s = sl->s;
	MoveList list;
	for (uint64_t id = sl->first; id < sl->last; id++) {
		uint64_t index;
		int t = table_of(s, id, &index);
		Position p;
		if (!egdb_position(s->st->variant, s->cls[t], index, &p)) {
			s->value[id] = EGDB_VALUE_NONE;
			continue;
		}
		int n = movegen_generate(&p, &list);
		int quiet = 0, win = 0, loss = 0;
		bool cannot_lose = false;
		for (int i = 0; i < n; i++) {
			Move m = list.moves[i];
			if (!leaves_pair(&p, m)) {
				quiet++;
				continue;
			}
			Position next;
			position_make(&p, m, &next);
			uint8_t v = store_value(s->st, &next);
			int d = egdb_value_distance(v);
			if (v == EGDB_VALUE_DRAW) {
				cannot_lose = true;
			} else if (egdb_value_result(v) == EGDB_LOSS) {
				cannot_lose = true;
				if (win == 0 || d + 1 < win)
					win = d + 1;
			} else if (d + 1 > loss) {
				loss = d + 1;
			}
		}
		atomic_store_explicit(&s->count[id], (unsigned char)(quiet | (cannot_lose ? CANNOT_LOSE : 0)),
		                      memory_order_relaxed);
		atomic_store_explicit(&s->win_at[id], (unsigned char)(win < LEVELS ? win : LEVELS - 1),
		                      memory_order_relaxed);
		s->loss_at[id] = (uint8_t)(loss < LEVELS ? loss : LEVELS - 1);
		if (win >= LEVELS || loss >= LEVELS)
			atomic_store(&s->overflow, true);
	}
	return NULL;
}

static void run_slices(Solver *s, uint64_t first, uint64_t last, int threads, void *(*fn)(void *))
{
	threads = workers_clamp(threads);
	Slice slices[WORKERS_MAX];
	for (int t = 0; t < threads; t++) {
		slices[t].s = s;
		slices[t].first = first + (last - first) * (uint64_t)t / (uint64_t)threads;
		slices[t].last = first + (last - first) * (uint64_t)(t + 1) / (uint64_t)threads;
	}
	workers_run(slices, sizeof slices[0], threads, fn);
}

/* The positions from which the side that is not to move in *p reached it by
 * a quiet move that stays in the pair: a king slid back along a free
 * diagonal (one square when kings do not fly), or a man stepped back one
 * square; each must have had no capture. */
static inline int unmoves(const Position *p, bool flying, Position *out)
{
	int n = 0;
	Color them = color_other(p->side);
	Bitboard occ = position_occupied(p);
	for (Bitboard b = p->pieces[them]; b; b &= b - 1) {
		int s = bb_lowest(b);
		bool king = (p->kings & bb_square(s)) != 0;
		bool slide = king && flying;
		for (int d = 0; d < DIR_COUNT; d++) {
			/* A man of `them` came from behind: White men move up. */
			if (!king && dir_is_down((Direction)d) != (them == WHITE))
				continue;
			Bitboard t = bitboard_neighbors[d][s];
			while (t && !(t & occ)) {
				Bitboard kings = p->kings;
				if (king)
					kings = (kings & ~bb_square(s)) | t;
				Bitboard mine = (p->pieces[them] & ~bb_square(s)) | t;
				Position q;
				if (them == WHITE)
					position_set(&q, p->pieces[BLACK], mine, kings, WHITE);
				else
					position_set(&q, mine, p->pieces[WHITE], kings, BLACK);
				q.variant = p->variant;
				if (!movegen_has_capture(&q))
					out[n++] = q;
				if (!slide)
					break;
				t = bitboard_neighbors[d][bb_lowest(t)];
			}
		}
	}
	return n;
}

/* Step 2 from one position settled at `level`, queueing into `lists`. */
static void propagate(Solver *s, IdList *lists, uint64_t id, int level)
{
	uint64_t index;
	int t = table_of(s, id, &index);
	Position p, before[4 * SQUARE_COUNT];
	egdb_position(s->st->variant, s->cls[t], index, &p);
	/* Two calls with constant rules, so that each gets its own loop. */
	int n = s->kings_fly ? unmoves(&p, true, before) : unmoves(&p, false, before);
	bool lost = (level & 1) == 0;
	for (int i = 0; i < n; i++) {
		uint64_t q = id_of(s, &before[i]);
		if (s->value[q] != 0)
			continue;
		if (lost) {
			/* Whoever lowers it to level + 1 queues it, once. */
			unsigned char at = atomic_load_explicit(&s->win_at[q], memory_order_relaxed);
			while (at == 0 || level + 1 < at)
				if (atomic_compare_exchange_weak_explicit(
				        &s->win_at[q], &at, (unsigned char)(level + 1), memory_order_relaxed,
				        memory_order_relaxed)) {
					push(s, lists, level + 1, q);
					break;
				}
		} else if (atomic_fetch_sub_explicit(&s->count[q], 1, memory_order_relaxed) == 1) {
			int at = s->loss_at[q] > level + 1 ? s->loss_at[q] : level + 1;
			push(s, lists, at, q);
		}
	}
}

/* The positions settled at one level, shared out to the threads in chunks. */
typedef struct Round {
	Solver *s;
	const uint32_t *ids;
	size_t count;
	int level;
	atomic_size_t next; /* the first id not yet taken by a thread */
} Round;

typedef struct Worker {
	Round *r;
	int thread;
} Worker;

static void *propagate_round(void *arg)
{
	Worker *w = arg;
	Round *r = w->r;
	IdList *lists = r->s->levels[w->thread];
	for (;;) {
		size_t first = atomic_fetch_add_explicit(&r->next, CHUNK, memory_order_relaxed);
		if (first >= r->count)
			return NULL;
		size_t last = r->count - first > CHUNK ? first + CHUNK : r->count;
		for (size_t i = first; i < last; i++)
			propagate(r->s, lists, r->ids[i], r->level);
	}
}

/* Step 2 from ids[0..count), all settled at `level`. A worker whose thread
 * does not start is no loss: the others take its share. */
static void run_round(Solver *s, const uint32_t *ids, size_t count, int level)
{
	Round r = {s, ids, count, level, 0};
	Worker w[WORKERS_MAX];
	int threads = count > CHUNK ? s->threads : 1;
	for (int t = 0; t < threads; t++)
		w[t] = (Worker){&r, t};
	workers_run(w, sizeof w[0], threads, propagate_round);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

static bool write_file(Store *st, EgdbClass c, const uint8_t *values, uint64_t count)
{
	size_t size;
	uint8_t *img = egdb_encode(st->variant, c, values, count, &size);
	if (!img) {
		fprintf(stderr, "pool-egdb: out of memory encoding\n");
		return false;
	}
	char path[4096], tmp[4200];
	store_path(st, c, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(img, 1, size, f) == size;
	ok = f && fclose(f) == 0 && ok;
	free(img);
	/* Renamed only when complete: an interrupted build never leaves a
	 * partial file under a class's name. */
	if (!ok || rename(tmp, path) != 0) {
		fprintf(stderr, "pool-egdb: cannot write %s\n", path);
		remove(tmp);
		return false;
	}
	return true;
}

static void free_solver(Solver *s)
{
	free(s->value);
	free(s->count);
	free(s->win_at);
	free(s->loss_at);
	for (int t = 0; s->levels && t < s->threads; t++)
		for (int i = 0; i < LEVELS; i++)
			free(s->levels[t][i].ids);
	free(s->levels);
}

/* Step 1's summary of one index slice, for a job that runs step 2 later:
 * "PSHKFWD1", the slice's first id and length (8 bytes each, host order:
 * the jobs of one build share a machine type), then value, count, win_at
 * and loss_at of every position. */
static const char SUMMARY_MAGIC[8] = {'P', 'S', 'H', 'K', 'F', 'W', 'D', '1'};

static void summary_path(const Store *st, EgdbClass pair, int slice, int slices, char *out, size_t size)
{
	char name[32];
	egdb_class_name(pair, name, sizeof name);
	snprintf(out, size, "%s/%s.step1-%d-of-%d", st->dir, name, slice + 1, slices);
}

static uint64_t slice_start(const Solver *s, int slice, int slices)
{
	return s->total * (uint64_t)slice / (uint64_t)slices;
}

static bool write_summary(Solver *s, int slice, int slices)
{
	char path[4096], tmp[4200];
	summary_path(s->st, s->cls[0], slice, slices, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	uint64_t first = slice_start(s, slice, slices), n = slice_start(s, slice + 1, slices) - first;
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(SUMMARY_MAGIC, 1, 8, f) == 8 && fwrite(&first, 8, 1, f) == 1 &&
	          fwrite(&n, 8, 1, f) == 1;
	const uint8_t *arrays[4] = {s->value, (const uint8_t *)s->count, (const uint8_t *)s->win_at,
	                            s->loss_at};
	for (int a = 0; a < 4 && ok; a++)
		ok = fwrite(arrays[a] + first, 1, n, f) == n;
	ok = f && fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		fprintf(stderr, "pool-egdb: cannot write %s\n", path);
		remove(tmp);
		return false;
	}
	return true;
}

static bool read_summary(Solver *s, int slice, int slices)
{
	char path[4096], magic[8];
	summary_path(s->st, s->cls[0], slice, slices, path, sizeof path);
	uint64_t first = slice_start(s, slice, slices), n = slice_start(s, slice + 1, slices) - first;
	uint64_t got_first = 0, got_n = 0;
	FILE *f = fopen(path, "rb");
	bool ok = f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, SUMMARY_MAGIC, 8) &&
	          fread(&got_first, 8, 1, f) == 1 && fread(&got_n, 8, 1, f) == 1 && got_first == first &&
	          got_n == n;
	uint8_t *arrays[4] = {s->value, (uint8_t *)s->count, (uint8_t *)s->win_at, s->loss_at};
	for (int a = 0; a < 4 && ok; a++)
		ok = fread(arrays[a] + first, 1, n, f) == n;
	ok = ok && fgetc(f) == EOF;
	if (f)
		fclose(f);
	if (!ok)
		fprintf(stderr, "pool-egdb: missing or bad step-1 summary %s\n", path);
	return ok;
}

/* Step 2 after step 1: the positions the exits settle queued, then
 * settled level by level; *longest is the last level that settled any.
 * False with a message when memory is short or a distance exceeds the
 * format's limit. */
static bool settle_levels(Solver *s, const char *name, int *longest)
{
	s->levels = calloc((size_t)s->threads, sizeof *s->levels);
	if (!s->levels) {
		fprintf(stderr, "pool-egdb: %s: out of memory\n", name);
		return false;
	}
	/* Queue what the exits settle: wins through an exit, and positions
	 * with no quiet move and nothing better than a loss (or no move). */
	for (uint64_t id = 0; id < s->total; id++) {
		if (s->value[id] == EGDB_VALUE_NONE)
			continue;
		unsigned char win = atomic_load_explicit(&s->win_at[id], memory_order_relaxed);
		if (win)
			push(s, s->levels[0], win, id);
		if (atomic_load_explicit(&s->count[id], memory_order_relaxed) == 0)
			push(s, s->levels[0], s->loss_at[id], id);
	}
	/* A level only queues higher levels, so it is complete when its turn
	 * comes. */
	*longest = 0;
	uint32_t *settled = NULL;
	for (int level = 0; level < LEVELS && !atomic_load(&s->overflow); level++) {
		size_t queued = 0, count = 0;
		for (int t = 0; t < s->threads; t++)
			queued += s->levels[t][level].count;
		if (queued == 0)
			continue;
		uint32_t *grown = realloc(settled, queued * sizeof *settled);
		if (!grown) {
			atomic_store(&s->overflow, true);
			break;
		}
		settled = grown;
		for (int t = 0; t < s->threads; t++) {
			IdList *l = &s->levels[t][level];
			for (size_t i = 0; i < l->count; i++) {
				uint32_t id = l->ids[i];
				if (s->value[id] == 0) {
					s->value[id] = (uint8_t)(level + 1);
					settled[count++] = id;
				}
			}
			free(l->ids);
			*l = (IdList){NULL, 0, 0};
		}
		if (count > 0)
			*longest = level;
		run_round(s, settled, count, level);
	}
	free(settled);
	if (!atomic_load(&s->overflow))
		return true;
	fprintf(stderr, "pool-egdb: %s: a distance exceeds %d plies (the format's limit)\n", name,
	        EGDB_MAX_DISTANCE);
	return false;
}

/* Writes the solved classes' files and keeps their tables in the store;
 * counts the wins, draws and losses into results. */
static bool keep_tables(Store *st, const Solver *s, uint64_t results[3])
{
	results[0] = results[1] = results[2] = 0;
	for (uint64_t id = 0; id < s->total; id++) {
		uint8_t v = s->value[id];
		if (v == EGDB_VALUE_NONE)
			continue;
		EgdbResult r = egdb_value_result(v);
		results[0] += r == EGDB_WIN;
		results[1] += r == EGDB_DRAW;
		results[2] += r == EGDB_LOSS;
	}
	bool ok = true;
	for (int t = 0; t < s->tables && ok; t++) {
		uint8_t *values = malloc(s->n[t] ? s->n[t] : 1);
		if (!values)
			return false;
		memcpy(values, s->value + (t ? s->n[0] : 0), s->n[t]);
		ok = write_file(st, s->cls[t], values, s->n[t]);
		int key = egdb_class_key(s->cls[t]);
		free(st->values[key]);
		st->values[key] = values;
		st->sizes[key] = s->n[t];
	}
	return ok;
}

bool solve_pair(Store *st, EgdbClass pair, const BuildOptions *o)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	Solver s;
	memset(&s, 0, sizeof s);
	atomic_init(&s.overflow, false);
	s.st = st;
	s.cls[0] = pair;
	s.cls[1] = egdb_class_swap(pair);
	s.tables = egdb_class_equal(s.cls[0], s.cls[1]) ? 1 : 2;
	s.kings_fly = variant_rules(st->variant)->kings_fly;
	s.threads = workers_clamp(o->threads);
	s.n[0] = egdb_class_size(s.cls[0]);
	s.n[1] = s.tables == 2 ? egdb_class_size(s.cls[1]) : 0;
	s.total = s.n[0] + s.n[1];
	char name[32];
	egdb_class_name(pair, name, sizeof name);
	if (s.total >= UINT32_MAX) {
		fprintf(stderr, "pool-egdb: %s: too many positions for one pass\n", name);
		return false;
	}
	if (!store_load_exits(st, pair))
		return false;
	s.value = calloc(s.total, 1);
	s.count = calloc(s.total, 1);
	s.win_at = calloc(s.total, 1);
	s.loss_at = calloc(s.total, 1);
	if (!s.value || !s.count || !s.win_at || !s.loss_at) {
		fprintf(stderr, "pool-egdb: %s: out of memory\n", name);
		free_solver(&s);
		return false;
	}

	/* Step 1: here, or in slice jobs that ran before this one. */
	if (o->slices > 0 && o->slice >= 0) {
		run_slices(&s, slice_start(&s, o->slice, o->slices), slice_start(&s, o->slice + 1, o->slices),
		           o->threads, forward_slice);
		bool written = write_summary(&s, o->slice, o->slices);
		free_solver(&s);
		return written;
	}
	if (o->slices > 0) {
		for (int k = 0; k < o->slices; k++)
			if (!read_summary(&s, k, o->slices)) {
				free_solver(&s);
				return false;
			}
	} else {
		run_slices(&s, 0, s.total, o->threads, forward_slice);
	}
	double forward = seconds_since(&t0);

	/* Step 2. */
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	int longest;
	if (!settle_levels(&s, name, &longest)) {
		free_solver(&s);
		return false;
	}
	double backward = seconds_since(&t1);

	uint64_t results[3];
	bool ok = keep_tables(st, &s, results);
	uint64_t wins = results[0], draws = results[1], losses = results[2];
	double secs = seconds_since(&t0);
	if (!o->quiet) {
		char other[32];
		egdb_class_name(s.cls[1], other, sizeof other);
		printf("%-10s %-10s %10llu positions  %6.2f s (forward %.2f, backward %.2f)  %6.2f M/s  win "
		       "%llu "
		       "draw %llu loss %llu  longest %d plies\n",
		       name, s.tables == 2 ? other : "", (unsigned long long)(wins + draws + losses), secs,
		       forward, backward, secs > 0 ? (double)(wins + draws + losses) / secs / 1e6 : 0.0,
		       (unsigned long long)wins, (unsigned long long)draws, (unsigned long long)losses,
		       longest);
		fflush(stdout);
	}
	for (int k = 0; ok && o->slices > 0 && k < o->slices; k++) {
		char path[4096];
		summary_path(st, pair, k, o->slices, path, sizeof path);
		remove(path);
	}
	free_solver(&s);
	return ok;
}

uint8_t derive_value(const Store *st, const Position *p)
{
	MoveList list;
	uint8_t value = EGDB_VALUE_NONE;
	movegen_generate(p, &list);
	egdb_value_of_moves(p, &list, store_value_of, st, &value);
	return value;
}

typedef struct VerifyJob {
	const Store *st;
	EgdbClass c;
	const uint8_t *values;
	uint64_t first, last;
	uint64_t checked, bad;
} VerifyJob;

static void *verify_slice(void *arg)
{
	VerifyJob *j = arg;
	for (uint64_t i = j->first; i < j->last; i++) {
		Position p;
		if (!egdb_position(j->st->variant, j->c, i, &p))
			continue;
		uint8_t want = derive_value(j->st, &p), have = j->values[i];
		j->checked++;
		if (want != have && j->bad++ < 5) {
			char name[32];
			egdb_class_name(j->c, name, sizeof name);
			fprintf(stderr, "pool-egdb verify: %s index %llu: stored %d, successors give %d\n",
			        name, (unsigned long long)i, have, want);
		}
	}
	return NULL;
}

bool verify_class(Store *st, EgdbClass c, int threads, int slice, int slices, uint64_t *checked,
                  uint64_t *bad)
{
	if (!store_load(st, c) || !store_load_exits(st, c) || !store_load(st, egdb_class_swap(c)))
		return false;
	int key = egdb_class_key(c);
	threads = workers_clamp(threads);
	VerifyJob jobs[WORKERS_MAX];
	uint64_t size = st->sizes[key];
	uint64_t first = size * (uint64_t)slice / (uint64_t)slices;
	uint64_t n = size * (uint64_t)(slice + 1) / (uint64_t)slices - first;
	for (int t = 0; t < threads; t++) {
		jobs[t] = (VerifyJob){st,
		                      c,
		                      st->values[key],
		                      first + n * (uint64_t)t / (uint64_t)threads,
		                      first + n * (uint64_t)(t + 1) / (uint64_t)threads,
		                      0,
		                      0};
	}
	workers_run(jobs, sizeof jobs[0], threads, verify_slice);
	for (int t = 0; t < threads; t++) {
		*checked += jobs[t].checked;
		*bad += jobs[t].bad;
	}
	return true;
}
