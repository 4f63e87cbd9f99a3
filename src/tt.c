/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Transposition table storage, probing and replacement. */
#include "poolshark/tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "poolshark/search.h"

enum { GENERATION_MASK = 0x3f, TT_HUGE_PAGE = 2 * 1024 * 1024 };

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
	size_t bytes = tt->bucket_count * sizeof *tt->buckets;
	/* Probes land anywhere in the table: on 2 MiB pages they miss the
	 * TLB far less often. aligned_alloc wants a multiple of the alignment. */
	size_t align = bytes >= TT_HUGE_PAGE ? TT_HUGE_PAGE : sizeof(TTBucket);
	tt->buckets = aligned_alloc(align, bytes);
	if (!tt->buckets) {
		tt->bucket_count = 0;
		return false;
	}
#ifdef MADV_HUGEPAGE
	if (align == TT_HUGE_PAGE)
		madvise(tt->buckets, bytes, MADV_HUGEPAGE);
#endif
	/* Zeroed: a fresh table must read the same in every run. */
	memset(tt->buckets, 0, bytes);
	return true;
}

void tt_free(TT *tt)
{
	free(tt->buckets);
	tt->buckets = NULL;
	tt->bucket_count = 0;
}

bool tt_resize(TT *tt, size_t megabytes)
{
	TT fresh;
	if (!tt_init(&fresh, megabytes))
		return false;
	tt_free(tt);
	*tt = fresh;
	return true;
}

void tt_clear(TT *tt)
{
	memset(tt->buckets, 0, tt->bucket_count * sizeof *tt->buckets);
	tt->generation = 0;
}

void tt_new_search(TT *tt)
{
	tt->generation = (uint8_t)((tt->generation + 1) & GENERATION_MASK);
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

bool tt_probe(const TT *tt, uint64_t key, int ply, TTHit *out)
{
	const TTBucket *b = bucket_of(tt, key);
	uint32_t check = check_of(key);
	for (int i = 0; i < TT_BUCKET_SIZE; i++) {
		const TTEntry *e = &b->entries[i];
		if (e->check != check || (e->age_bound & 3) == TT_BOUND_NONE)
			continue;
		out->move.from = e->from;
		out->move.to = e->to;
		out->move.captured = e->captured;
		out->score = tt_score_from_node(e->score, ply);
		out->eval = e->eval;
		out->depth = e->depth;
		out->bound = (TTBound)(e->age_bound & 3);
		return true;
	}
	return false;
}

/* How old an entry is, in searches, modulo the generation counter. */
static int age_of(const TT *tt, const TTEntry *e)
{
	return (tt->generation - (e->age_bound >> 2)) & GENERATION_MASK;
}

void tt_store(TT *tt, uint64_t key, int ply, int depth, int score, int eval, TTBound bound, Move move)
{
	TTBucket *b = bucket_of(tt, key);
	uint32_t check = check_of(key);
	TTEntry *slot = NULL;

	for (int i = 0; i < TT_BUCKET_SIZE && !slot; i++) {
		TTEntry *e = &b->entries[i];
		if (e->check == check && (e->age_bound & 3) != TT_BOUND_NONE) {
			/* A shallower bound from the same search does not
			 * overwrite a deeper one, unless it is exact. */
			if (bound != TT_BOUND_EXACT && depth + 2 < e->depth && age_of(tt, e) == 0)
				return;
			slot = e;
		}
	}
	if (slot) {
		if (move_is_none(move) && slot->from != slot->to) {
			move.from = slot->from;
			move.to = slot->to;
			move.captured = slot->captured;
		}
	} else {
		int worst = 0x7fffffff;
		for (int i = 0; i < TT_BUCKET_SIZE; i++) {
			TTEntry *e = &b->entries[i];
			if ((e->age_bound & 3) == TT_BOUND_NONE) {
				slot = e;
				break;
			}
			int value = e->depth - 8 * age_of(tt, e);
			if (value < worst) {
				worst = value;
				slot = e;
			}
		}
	}
	if (depth < 0)
		depth = 0;
	if (depth > 255)
		depth = 255;
	slot->check = check;
	slot->captured = move.captured;
	slot->from = move.from;
	slot->to = move.to;
	slot->score = (int16_t)tt_score_to_node(score, ply);
	slot->eval = (int16_t)eval;
	slot->depth = (uint8_t)depth;
	slot->age_bound = (uint8_t)(tt->generation << 2 | bound);
}

int tt_hashfull(const TT *tt)
{
	size_t n = tt->bucket_count < 250 ? tt->bucket_count : 250;
	int used = 0, total = 0;
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < TT_BUCKET_SIZE; j++) {
			const TTEntry *e = &tt->buckets[i].entries[j];
			total++;
			if ((e->age_bound & 3) != TT_BOUND_NONE && age_of(tt, e) == 0)
				used++;
		}
	return total ? used * 1000 / total : 0;
}
