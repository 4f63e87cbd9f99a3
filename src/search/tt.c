/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Transposition table storage, probing and replacement. */
#include "poolshark/tt.h"

#include <string.h>

#include "poolshark/bigmem.h"
#include "poolshark/score.h"

enum {
	GENERATION_MASK = 0x3f,
	SQUARE_BITS = 5,
	SQUARE_MASK = (1 << SQUARE_BITS) - 1,
	ERA_SHIFT = 2 * SQUARE_BITS,
	ERA_MASK = TT_ERA_COUNT - 1
};
_Static_assert(ERA_SHIFT + 6 == 16 && TT_ERA_COUNT == 64, "from, to and era fill move_era");

/* Up to this size a clear writes zeros; above it the table is mapped anew,
 * which is instant and gives the memory back until it is used again. */
static const size_t CLEAR_BY_WRITING_MAX = (size_t)64 * 1024 * 1024;

static size_t buckets_for(size_t megabytes)
{
	size_t want = megabytes * 1024 * 1024 / sizeof(TTBucket), count = 1;
	while (count * 2 <= want)
		count *= 2;
	return count;
}

bool tt_init(TT *tt, size_t megabytes)
{
	tt->bucket_count = buckets_for(megabytes);
	tt->generation = 0;
	tt->era = 0;
	tt->eras_used = 0;
	/* Zeroed by the system: a fresh table reads the same in every run. */
	tt->buckets = bigmem_alloc(tt_bytes(tt));
	if (!tt->buckets) {
		tt->bucket_count = 0;
		return false;
	}
	return true;
}

void tt_free(TT *tt)
{
	bigmem_free(tt->buckets, tt_bytes(tt));
	tt->buckets = NULL;
	tt->bucket_count = 0;
}

bool tt_resize(TT *tt, size_t megabytes)
{
	TT fresh;
	if (buckets_for(megabytes) == tt->bucket_count) {
		tt_clear(tt);
		return true;
	}
	/* The old table goes first, so that both never hold memory at once. */
	size_t old_megabytes = tt_bytes(tt) / (1024 * 1024);
	tt_free(tt);
	if (tt_init(&fresh, megabytes)) {
		*tt = fresh;
		return true;
	}
	if (!tt_init(tt, old_megabytes ? old_megabytes : 1))
		tt->bucket_count = 0;
	return false;
}

void tt_clear(TT *tt)
{
	size_t bytes = tt_bytes(tt);
	void *fresh = bytes > CLEAR_BY_WRITING_MAX ? bigmem_alloc(bytes) : NULL;
	if (fresh) {
		bigmem_free(tt->buckets, bytes);
		tt->buckets = fresh;
	} else {
		memset(tt->buckets, 0, bytes);
	}
	tt->generation = 0;
	tt->era = 0;
	tt->eras_used = 0;
}

bool tt_new_game(TT *tt)
{
	if (tt->eras_used == 0)
		return true; /* nothing was stored: nothing to forget */
	uint8_t next = (uint8_t)((tt->era + 1) & ERA_MASK);
	/* Entries of the next era may survive from TT_ERA_COUNT games ago:
	 * they would read as live. */
	if (tt->eras_used & (1ull << next))
		return false;
	tt->era = next;
	return true;
}

void tt_prefault(TT *tt, int threads, const atomic_bool *abort)
{
	bigmem_prefault(tt->buckets, tt_bytes(tt), threads, abort);
}

void tt_new_search(TT *tt)
{
	tt->generation = (uint8_t)((tt->generation + 1) & GENERATION_MASK);
	/* Marked here, before the threads start, so that their stores only
	 * read the mask. */
	tt->eras_used |= 1ull << tt->era;
}

int tt_score_to_node(int score, int ply)
{
	if (score >= SCORE_WIN_MIN)
		return score + ply;
	if (score <= -SCORE_WIN_MIN)
		return score - ply;
	return score;
}

int tt_score_from_node(int score, int ply)
{
	if (score >= SCORE_WIN_MIN)
		return score - ply;
	if (score <= -SCORE_WIN_MIN)
		return score + ply;
	return score;
}

static TTBucket *bucket_of(const TT *tt, uint64_t key)
{
	return &tt->buckets[key & (tt->bucket_count - 1)];
}

static uint32_t check_of(uint64_t key)
{
	return (uint32_t)(key >> 32);
}

/* A slot's fields, read from its two words or to be written to them. */
typedef struct Slot {
	uint32_t check;
	uint32_t captured;
	uint16_t move_era; /* from | to << 5 | era << 10 */
	int16_t score;
	int16_t eval;
	uint8_t depth;
	uint8_t age_bound; /* generation << 2 | TTBound */
} Slot;

/* Another thread may write the slot meanwhile: each word is read whole,
 * and a torn pair fails the caller's check (tt.h). */
static inline __attribute__((always_inline)) Slot load(const TTEntry *e)
{
	uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
	uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed) ^ data;
	return (Slot){.check = (uint32_t)check,
	              .captured = (uint32_t)(check >> 32),
	              .move_era = (uint16_t)data,
	              .score = (int16_t)(uint16_t)(data >> 16),
	              .eval = (int16_t)(uint16_t)(data >> 32),
	              .depth = (uint8_t)(data >> 48),
	              .age_bound = (uint8_t)(data >> 56)};
}

static inline __attribute__((always_inline)) void save(TTEntry *e, const Slot *s)
{
	uint64_t data = (uint64_t)s->move_era | (uint64_t)(uint16_t)s->score << 16 |
	                (uint64_t)(uint16_t)s->eval << 32 | (uint64_t)s->depth << 48 |
	                (uint64_t)s->age_bound << 56;
	uint64_t check = ((uint64_t)s->check | (uint64_t)s->captured << 32) ^ data;
	atomic_store_explicit(&e->check, check, memory_order_relaxed);
	atomic_store_explicit(&e->data, data, memory_order_relaxed);
}

/* Whether *e holds a position written in the table's current era. */
static bool is_live(const TT *tt, const Slot *e)
{
	return (e->age_bound & 3) != TT_BOUND_NONE && (e->move_era >> ERA_SHIFT) == tt->era;
}

static uint8_t from_of(const Slot *e)
{
	return (uint8_t)(e->move_era & SQUARE_MASK);
}

static uint8_t to_of(const Slot *e)
{
	return (uint8_t)((e->move_era >> SQUARE_BITS) & SQUARE_MASK);
}

bool tt_probe(const TT *tt, uint64_t key, int ply, TTHit *out)
{
	const TTBucket *b = bucket_of(tt, key);
	uint32_t check = check_of(key);
	for (int i = 0; i < TT_BUCKET_SIZE; i++) {
		Slot e = load(&b->entries[i]);
		if (e.check != check || !is_live(tt, &e))
			continue;
		out->move.from = from_of(&e);
		out->move.to = to_of(&e);
		out->move.captured = e.captured;
		out->move.crowned = 0;
		out->score = tt_score_from_node(e.score, ply);
		out->eval = e.eval;
		out->depth = e.depth;
		out->bound = (TTBound)(e.age_bound & 3);
		return true;
	}
	return false;
}

/* How old an entry is, in searches, modulo the generation counter. */
static int age_of(const TT *tt, const Slot *e)
{
	return (tt->generation - (e->age_bound >> 2)) & GENERATION_MASK;
}

void tt_store(TT *tt, uint64_t key, int ply, int depth, int score, int eval, TTBound bound, Move move)
{
	TTBucket *b = bucket_of(tt, key);
	uint32_t check = check_of(key);
	int slot = -1;
	Slot e;

	for (int i = 0; i < TT_BUCKET_SIZE; i++) {
		e = load(&b->entries[i]);
		if (e.check == check && is_live(tt, &e)) {
			/* A shallower bound from the same search does not
			 * overwrite a deeper one, unless it is exact. */
			if (bound != TT_BOUND_EXACT && depth + 2 < e.depth && age_of(tt, &e) == 0)
				return;
			slot = i;
			break;
		}
	}
	if (slot >= 0) {
		if (move_is_none(move) && from_of(&e) != to_of(&e)) {
			move.from = from_of(&e);
			move.to = to_of(&e);
			move.captured = e.captured;
		}
	} else {
		int worst = 0x7fffffff;
		for (int i = 0; i < TT_BUCKET_SIZE; i++) {
			e = load(&b->entries[i]);
			if (!is_live(tt, &e)) {
				slot = i;
				break;
			}
			int value = e.depth - 8 * age_of(tt, &e);
			if (value < worst) {
				worst = value;
				slot = i;
			}
		}
	}
	if (depth < 0)
		depth = 0;
	if (depth > 255)
		depth = 255;
	if (!(tt->eras_used & (1ull << tt->era)))
		tt->eras_used |= 1ull << tt->era; /* a store without tt_new_search() */
	Slot fresh = {.check = check,
	              .captured = move.captured,
	              .move_era = (uint16_t)(move.from | move.to << SQUARE_BITS | tt->era << ERA_SHIFT),
	              .score = (int16_t)tt_score_to_node(score, ply),
	              .eval = (int16_t)eval,
	              .depth = (uint8_t)depth,
	              .age_bound = (uint8_t)(tt->generation << 2 | bound)};
	save(&b->entries[slot], &fresh);
}

int tt_hashfull(const TT *tt)
{
	size_t n = tt->bucket_count < 250 ? tt->bucket_count : 250;
	int used = 0, total = 0;
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < TT_BUCKET_SIZE; j++) {
			Slot e = load(&tt->buckets[i].entries[j]);
			total++;
			if (is_live(tt, &e) && age_of(tt, &e) == 0)
				used++;
		}
	return total ? used * 1000 / total : 0;
}
